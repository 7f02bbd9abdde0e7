import DBus
import EngramTestSupport
import Foundation
import Testing

/// Signals are emitted and received, filtered by their rule, from us and from real peers.
@Suite struct SignalTests {
    static let changed = DBusMatchRule(interface: TestInterface.name, member: "Changed")

    @Test func emittedSignalsReachSubscribersWithTheirArguments() async throws {
        try await withTestService { service async throws in
            let seen = Collector<DBusSignalEvent>()
            let subscription = try service.client.addMatch(Self.changed) { seen.append($0) }
            try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                                    arguments: ["memories", .uint32(5)])
            #expect(await eventually { seen.all.count == 1 })
            let event = try #require(seen.all.first)
            #expect(event.sender == service.server.uniqueName)
            #expect(event.path == TestInterface.path)
            #expect(event.member == "Changed")
            #expect(event.arguments == ["memories", .uint32(5)])

            subscription.cancel()
            try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                                    arguments: ["after cancel", .uint32(6)])
            try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Ping")
            try await Task.sleep(for: .milliseconds(200))
            #expect(seen.all.count == 1)
        }
    }

    @Test func aWellKnownSenderOnlyMatchesItsCurrentOwner() async throws {
        try await withTestService { service async throws in
            let impostor = try service.bus.connect()
            defer { impostor.close() }
            let fromService = Collector<String>()
            let fromAnyone = Collector<String>()
            var rule = Self.changed
            rule.sender = TestInterface.busName
            try service.client.addMatch(rule) { fromService.append($0.arguments[0].stringValue ?? "") }
            try service.client.addMatch(Self.changed) { fromAnyone.append($0.arguments[0].stringValue ?? "") }

            try impostor.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                              arguments: ["impostor", .uint32(0)])
            try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                                    arguments: ["owner", .uint32(1)])
            #expect(await eventually { fromAnyone.all.count == 2 })
            #expect(fromAnyone.all == ["impostor", "owner"])
            #expect(fromService.all == ["owner"])
        }
    }

    @Test func aSignalWithADestinationReachesOnlyThatPeer() async throws {
        try await withTestService { service async throws in
            let bystander = try service.bus.connect()
            defer { bystander.close() }
            let toClient = Collector<String>()
            let toBystander = Collector<String>()
            try service.client.addMatch(Self.changed) { toClient.append($0.arguments[0].stringValue ?? "") }
            try bystander.addMatch(Self.changed) { toBystander.append($0.arguments[0].stringValue ?? "") }
            try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                                    arguments: ["private", .uint32(1)], destination: service.client.uniqueName)
            try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                                    arguments: ["public", .uint32(2)])
            #expect(await eventually { toClient.all.count == 2 && toBystander.all.count == 1 })
            #expect(toClient.all == ["private", "public"])
            #expect(toBystander.all == ["public"])
        }
    }

    @Test func signalsArriveAsAnAsyncSequence() async throws {
        try await withTestService { service async throws in
            let stream = try service.client.signals(matching: Self.changed)
            for count in 1...3 {
                try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                                        arguments: ["tick", .uint32(UInt32(count))])
            }
            var counts: [UInt32] = []
            for await event in stream {
                counts.append(event.arguments[1].uint32Value ?? 0)
                if counts.count == 3 { break }
            }
            #expect(counts == [1, 2, 3])
        }
    }

    @Test func emittingADeclaredSignalWithTheWrongArgumentsThrows() async throws {
        try await withTestService { service async throws in
            let error = #expect(throws: DBusError.self) {
                try service.server.emit(path: TestInterface.path, interface: TestInterface.name, signal: "Changed",
                                        arguments: [.uint32(1)])
            }
            #expect(error?.message == "signal com.example.EngramTest.Changed is declared 'su' but was given 'u'")
        }
    }

    /// The Notifications pattern: another program emits ActionInvoked and we react.
    @Test func aSignalFromGdbusIsReceived() async throws {
        try await withTestService { service async throws in
            let seen = Collector<DBusSignalEvent>()
            try service.client.addMatch(DBusMatchRule(interface: "org.freedesktop.Notifications", member: "ActionInvoked")) {
                seen.append($0)
            }
            let output = try await service.bus.run("/usr/bin/gdbus", [
                "emit", "--session", "--object-path", "/org/freedesktop/Notifications",
                "--signal", "org.freedesktop.Notifications.ActionInvoked", "--", "uint32 7", "'stop'",
            ])
            #expect(output.status == 0, "gdbus emit failed: \(output.stderr)")
            #expect(await eventually { !seen.all.isEmpty })
            #expect(seen.all.first?.arguments == [.uint32(7), "stop"])
        }
    }

    /// python-dbusmock appearing and disappearing shows up as NameOwnerChanged.
    @Test func nameOwnerChangedFollowsAPeerAppearingAndDisappearing() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let watcher = try bus.connect()
        defer { watcher.close() }
        let changes = Collector<[String]>()
        try watcher.addMatch(.nameOwnerChanged("com.example.Mock")) { event in
            changes.append(event.arguments.compactMap(\.stringValue))
        }
        let mock = try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "com.example.Mock", "/com/example/Mock", "com.example.Mock"])
        #expect(await eventually(timeout: .seconds(20)) { changes.all.count == 1 })
        let owner = try #require(changes.all.first?[2])
        #expect(changes.all.first?[0...1] == ["com.example.Mock", ""])
        #expect(owner.hasPrefix(":"))
        #expect(try watcher.nameOwner("com.example.Mock") == owner)

        mock.kill()
        #expect(await eventually(timeout: .seconds(10)) { changes.all.count == 2 })
        #expect(changes.all.last == ["com.example.Mock", owner, ""])
    }
}
