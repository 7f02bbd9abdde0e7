import DBus

/// A client of one `org.kde.JobViewV2` view, for servers that only offer the first `requestView`.
///
///     setInfoMessage(s), setPercent(u), setSuspended(b), setProcessedAmount(t, s unit), setTotalAmount(t, s unit),
///     setDescriptionField(u number, s name, s value) → b, clearDescriptionField(u), terminate(s errorMessage)
///     signal suspendRequested(), resumeRequested(), cancelRequested()
///
/// V2 has no title: the first description field carries it.
final class DBusJobViewV2: JobView {
    static let interface = "org.kde.JobViewV2"

    private let connection: DBusConnection
    private let path: DBusObjectPath
    private let hub = EventHub<JobViewRequest>()
    private let subscription: DBusSignalSubscription

    init(connection: DBusConnection, path: DBusObjectPath, callTimeout: Duration) throws {
        self.connection = connection
        self.path = path
        let hub = self.hub
        subscription = try connection.addMatch(DBusMatchRule(sender: DBusJobViewServer.busName, path: path,
                                                             interface: Self.interface)) { event in
            switch event.member {
            case "suspendRequested": hub.send(.suspend)
            case "resumeRequested": hub.send(.resume)
            case "cancelRequested": hub.send(.cancel)
            default: break
            }
        }
    }

    deinit {
        subscription.cancel()
        hub.finish()
    }

    func update(_ properties: JobViewProperties) async throws {
        try send("setInfoMessage", [.string(properties.infoMessage)])
        if let percent = properties.percent { try send("setPercent", [.uint32(percent)]) }
        try send("setSuspended", [.boolean(properties.suspended)])
        if let items = properties.items {
            try send("setTotalAmount", [.uint64(items.total), .string("items")])
            try send("setProcessedAmount", [.uint64(items.processed), .string("items")])
        }
        try send("setDescriptionField", [.uint32(0), .string("Session"), .string(properties.title)])
        if let d = properties.description1 { try send("setDescriptionField", [.uint32(1), .string(d.label), .string(d.value)]) }
        if let d = properties.description2 { try send("setDescriptionField", [.uint32(2), .string(d.label), .string(d.value)]) }
    }

    func terminate(errorCode: UInt32, message: String) async throws {
        try send("terminate", [.string(message)])
    }

    func requests() -> AsyncStream<JobViewRequest> { hub.stream() }

    private func send(_ method: String, _ arguments: [DBusValue]) throws {
        do {
            try connection.send(destination: DBusJobViewServer.busName, path: path, interface: Self.interface,
                                method: method, arguments: arguments)
        } catch let error as DBusError {
            throw DBusNotificationServer.map(error)
        }
    }
}
