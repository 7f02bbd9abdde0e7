import DBus
import EngramTestSupport
import Foundation
import Testing

/// Many threads may call, emit and reply at once on one connection.
@Suite struct ConcurrencyTests {
    @Test func manyThreadsCallingAtOnceAllGetTheirOwnAnswers() async throws {
        try await withTestService { service async throws in
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        try await onThread {
                            for index in 0..<100 {
                                let text = "worker \(worker) call \(index)"
                                guard try service.call("EchoString", [.string(text)]) == [.string(text)] else { return false }
                            }
                            return true
                        }
                    }
                }
                var all: [Bool] = []
                for try await ok in group { all.append(ok) }
                return all
            }
            #expect(results == Array(repeating: true, count: 8))
        }
    }

    @Test func signalsEmittedFromManyThreadsAllArrive() async throws {
        try await withTestService { service async throws in
            let seen = Collector<UInt32>()
            try service.client.addMatch(DBusMatchRule(interface: TestInterface.name, member: "Changed")) {
                seen.append($0.arguments[1].uint32Value ?? 0)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        try await onThread {
                            for index in 0..<50 {
                                try service.server.emit(path: TestInterface.path, interface: TestInterface.name,
                                                        signal: "Changed", arguments: ["n", .uint32(UInt32(worker * 50 + index))])
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await eventually { seen.all.count == 200 })
            #expect(Set(seen.all) == Set(0..<200))
        }
    }

    @Test func handlersSeeTheirCallersUniqueName() async throws {
        try await withTestService { service async throws in
            #expect(try service.call("WhoAmI") == [.string(service.client.uniqueName)])
        }
    }

    @Test func aCallWithoutAReplyIsStillHandled() async throws {
        try await withTestService { service async throws in
            try service.client.send(destination: TestInterface.busName, path: TestInterface.path,
                                    interface: "org.freedesktop.DBus.Properties", method: "Set",
                                    arguments: [.string(TestInterface.name), "Name", .variant("sent without reply")])
            #expect(await eventually { service.properties.name == "sent without reply" })
        }
    }

    @Test func unexportedObjectsAreGone() async throws {
        try await withTestService { service async throws in
            #expect(service.server.exportedPaths.contains(TestInterface.path))
            #expect(throws: DBusError.self) {
                try service.server.export(DBusInterface("com.example.Again"), at: TestInterface.path)
            }
            service.server.unexport(TestInterface.path)
            let error = #expect(throws: DBusError.self) { try service.call("EchoString", ["x"]) }
            #expect(error?.name == DBusError.Name.unknownObject)
        }
    }
}
