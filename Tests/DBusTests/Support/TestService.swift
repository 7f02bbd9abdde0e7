import DBus
import EngramTestSupport
import Foundation
import Synchronization

/// The interface every bus test talks to: echo methods for each type our real interfaces use,
/// properties, a signal, and methods that fail, defer forever or take a while.
enum TestInterface {
    static let busName = "com.example.EngramTest"
    static let path: DBusObjectPath = "/com/example/EngramTest"
    static let name = "com.example.EngramTest"

    /// Deferred replies that are never answered, kept so they are not answered on release.
    static let parked = Mutex<[DBusDeferredReply]>([])

    /// The interface table, with property state held in `properties`.
    static func make(properties: PropertyState) -> DBusInterface {
        func echo(_ name: String, _ signature: DBusSignature) -> DBusMethod {
            DBusMethod(name, in: ["value": signature], out: ["echoed": signature]) { call in call.arguments }
        }
        return DBusInterface(
            name,
            methods: [
                echo("EchoString", "s"),
                echo("EchoStrings", "as"),
                echo("EchoVardict", "a{sv}"),
                echo("EchoMatches", "a(sssida{sv})"),
                echo("EchoStruct", "(ssss)"),
                echo("EchoUInt32", "u"),
                echo("EchoInt32", "i"),
                echo("EchoBool", "b"),
                echo("EchoDouble", "d"),
                echo("EchoPath", "o"),
                echo("EchoVariant", "v"),
                DBusMethod("EchoAll", in: "ybnqiuxtdsogv", out: "ybnqiuxtdsogv") { call in call.arguments },
                DBusMethod("Count", in: ["items": "as"], out: ["count": "u"]) { call in
                    let items: [String] = try call.argument(0)
                    return [.uint32(UInt32(items.count))]
                },
                DBusMethod("CountBytes", in: ["bytes": "ay"], out: ["count": "u"]) { call in
                    [.uint32(UInt32(call.arguments[0].arrayValue?.count ?? 0))]
                },
                DBusMethod("Depth", in: ["value": "v"], out: ["depth": "u"]) { call in
                    var depth: UInt32 = 0
                    var value = call.arguments[0]
                    while case .variant(let inner) = value { depth += 1; value = inner }
                    return [.uint32(depth)]
                },
                DBusMethod("WhoAmI", in: [:], out: ["sender": "s"]) { call in [.string(call.sender)] },
                DBusMethod("Fail") { _ in
                    throw DBusError(name: "com.example.EngramTest.Error.Custom", message: "asked to fail")
                },
                DBusMethod("FailPlainly") { _ in
                    throw TestError("a plain Swift error")
                },
                DBusMethod("WrongReply", out: "s") { _ in [.uint32(1)] },
                DBusMethod("Never", out: "s", deferredHandler: { _, reply in
                    parked.withLock { $0.append(reply) }
                }),
                DBusMethod("Later", in: ["ms": "u"], out: ["answer": "s"], deferredHandler: { call, reply in
                    let ms = call.arguments[0].uint32Value ?? 0
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: Double(ms) / 1000)
                        reply.succeed([.string("later from another thread")])
                    }
                }),
                DBusMethod("Slow", in: ["ms": "u"], out: ["answer": "s"], asyncHandler: { call in
                    let ms = call.arguments[0].uint32Value ?? 0
                    try await Task.sleep(for: .milliseconds(Int(ms)))
                    return [.string("slept \(ms) ms")]
                }),
            ],
            properties: [
                DBusProperty("Name", "s", get: { .string(properties.name) },
                             set: { value in properties.name = value.stringValue ?? "" }),
                DBusProperty("Count", "u", get: { .uint32(properties.count) }),
                DBusProperty("Secret", "s", changes: .invalidates, get: { .string("hidden") },
                             set: { _ in }),
                DBusProperty("Broken", "s", get: { throw DBusError.failed("the getter broke") }),
            ],
            signals: [
                DBusSignal("Changed", arguments: ["what": "s", "count": "u"]),
                DBusSignal("Ping"),
            ]
        )
    }
}

/// Property values behind the test interface.
final class PropertyState: Sendable {
    private let state = Mutex<(name: String, count: UInt32)>(("initial", 3))
    var name: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }
    var count: UInt32 {
        get { state.withLock { $0.count } }
        set { state.withLock { $0.count = newValue } }
    }
}

/// A private bus with the test interface exported by one connection and a second connection to call it.
final class TestService: Sendable {
    let bus: PrivateBus
    let server: DBusConnection
    let client: DBusConnection
    let properties = PropertyState()

    init() throws {
        bus = try PrivateBus()
        server = try bus.connect()
        try server.export(TestInterface.make(properties: properties), at: TestInterface.path)
        try server.export(DBusInterface("com.example.EngramTest.Child"), at: "/com/example/EngramTest/child")
        guard try server.requestName(TestInterface.busName) == .primaryOwner else {
            throw TestError("could not own \(TestInterface.busName)")
        }
        client = try bus.connect()
    }

    /// Calls a test method from the client connection.
    func call(_ method: String, _ arguments: [DBusValue] = [], interface: String = TestInterface.name,
              path: DBusObjectPath = TestInterface.path, timeout: Duration = .seconds(10)) throws -> [DBusValue] {
        try client.call(destination: TestInterface.busName, path: path, interface: interface,
                        method: method, arguments: arguments, timeout: timeout)
    }

    /// Runs `gdbus call` against the test object and returns what it printed.
    func gdbusCall(_ method: String, _ arguments: [String] = [], interface: String = TestInterface.name) async throws -> PrivateBus.Output {
        try await bus.run("/usr/bin/gdbus", ["call", "--session", "--dest", TestInterface.busName,
                                       "--object-path", TestInterface.path.rawValue,
                                       "--method", "\(interface).\(method)", "--"] + arguments)
    }

    /// Closes both connections and stops the bus.
    func stop() {
        client.close()
        server.close()
        bus.stop()
    }
}

/// Runs `body` with a fresh test service and always tears it down.
func withTestService(_ body: (TestService) async throws -> Void) async throws {
    let service = try await onThread { try TestService() }
    defer { service.stop() }
    try await body(service)
}

/// Waits up to `timeout` for `condition`, polling every 10 ms.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Collects values delivered on another thread.
final class Collector<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func append(_ item: T) { items.withLock { $0.append(item) } }
    var all: [T] { items.withLock { $0 } }
}
