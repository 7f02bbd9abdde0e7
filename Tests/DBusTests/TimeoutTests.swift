import DBus
import EngramTestSupport
import Foundation
import Testing

/// Calls give up on time, and slow or deferred handlers never hold up the bus.
@Suite struct TimeoutTests {
    @Test func aCallToAPeerThatNeverRepliesTimesOutOnTime() async throws {
        try await withTestService { service async throws in
            // Blocking call, timed on its own thread: the bus thread alone decides when it gives up.
            let (error, elapsed) = try await onThread { () -> (DBusError?, Duration) in
                let start = ContinuousClock.now
                do {
                    _ = try service.call("Never", timeout: .milliseconds(500))
                    return (nil, ContinuousClock.now - start)
                } catch let error as DBusError {
                    return (error, ContinuousClock.now - start)
                }
            }
            #expect(error?.isTimeout == true)
            #expect(error?.message.contains("within 500 ms") == true)
            // Not before the timeout; the upper bound only tells "gave up" from "hung" on a loaded machine.
            #expect(elapsed >= .milliseconds(490) && elapsed < .seconds(8), "took \(elapsed)")
            #expect(try service.call("EchoString", ["after timeout"]) == ["after timeout"])
        }
    }

    @Test func anAsyncCallTimesOutToo() async throws {
        try await withTestService { service async throws in
            let start = ContinuousClock.now
            let error = await #expect(throws: DBusError.self) {
                try await service.client.call(destination: TestInterface.busName, path: TestInterface.path,
                                              interface: TestInterface.name, method: "Never", timeout: .milliseconds(300))
            }
            #expect(error?.isTimeout == true)
            // Resuming the task needs a cooperative thread, which other tests may hold for tens of seconds on a
            // loaded 2-core machine; a call whose timeout never fired would wait for the bus's 300 s reply timeout.
            #expect(ContinuousClock.now - start < .seconds(150))
        }
    }

    @Test func aTimeoutAgainstDbusmockIsReportedAsTimeout() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "com.example.Sleepy", "/", "com.example.Sleepy"])
        let client = try bus.connect()
        defer { client.close() }
        #expect(await eventually(timeout: .seconds(20)) { (try? client.nameOwner("com.example.Sleepy")) != nil })
        _ = try await client.call(destination: "com.example.Sleepy", path: "/", interface: "org.freedesktop.DBus.Mock",
                            method: "AddMethod", arguments: ["com.example.Sleepy", "Nap", "", "", "time.sleep(40)"])
        let start = ContinuousClock.now
        let error = await #expect(throws: DBusError.self) {
            try await client.call(destination: "com.example.Sleepy", path: "/", interface: "com.example.Sleepy",
                                  method: "Nap", timeout: .milliseconds(700))
        }
        #expect(error?.isTimeout == true)
        // The mock answers after 40 s: an error well before that is our timeout, not the reply.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func cancellingAnAsyncCallEndsItPromptly() async throws {
        try await withTestService { service async throws in
            let client = service.client
            let task = Task {
                try await client.call(destination: TestInterface.busName, path: TestInterface.path,
                                      interface: TestInterface.name, method: "Never", timeout: .seconds(280))
            }
            try await Task.sleep(for: .milliseconds(100))
            let start = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            // Far below the call's 280 s timeout (and the bus's 300 s): cancellation ended it, however long the
            // cooperative threads were busy with other tests.
            #expect(ContinuousClock.now - start < .seconds(150))
        }
    }

    @Test func aDeferredReplyFromAnotherThreadArrives() async throws {
        try await withTestService { service async throws in
            #expect(try service.call("Later", [.uint32(50)]) == ["later from another thread"])
        }
    }

    @Test func slowHandlersDoNotBlockOtherCalls() async throws {
        try await withTestService { service async throws in
            let client = service.client
            async let slow = client.call(destination: TestInterface.busName, path: TestInterface.path,
                                         interface: TestInterface.name, method: "Slow", arguments: [.uint32(8000)])
            async let later = client.call(destination: TestInterface.busName, path: TestInterface.path,
                                          interface: TestInterface.name, method: "Later", arguments: [.uint32(8000)])
            try await Task.sleep(for: .milliseconds(100))
            let elapsed = try await onThread { () -> Duration in
                let start = ContinuousClock.now
                for _ in 0..<20 { _ = try service.call("EchoInt32", [1]) }
                return ContinuousClock.now - start
            }
            // The slow calls take 8 s: quick calls done well before that were not queued behind them.
            #expect(elapsed < .seconds(6), "20 quick calls took \(elapsed) while slow ones were pending")
            #expect(try await slow == ["slept 8000 ms"])
            #expect(try await later == ["later from another thread"])
        }
    }

    @Test func aHandlerMayCallOutBlockingFromTheBusThread() async throws {
        try await withTestService { service async throws in
            let relay = try service.bus.connect()
            defer { relay.close() }
            let relayed = DBusInterface("com.example.Relay", methods: [
                DBusMethod("Relay", in: "s", out: "s") { [relay] call in
                    try relay.call(destination: TestInterface.busName, path: TestInterface.path,
                                   interface: TestInterface.name, method: "EchoString", arguments: call.arguments)
                },
            ])
            try relay.export(relayed, at: "/relay")
            let reply = try await service.client.call(destination: relay.uniqueName, path: "/relay",
                                                interface: "com.example.Relay", method: "Relay", arguments: ["via relay"])
            #expect(reply == ["via relay"])
        }
    }
}
