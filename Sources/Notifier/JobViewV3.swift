import DBus

/// A client of one `org.kde.JobViewV3` view (Plasma 5.20 and later).
///
///     update(a{sv} properties)                                   (no reply)
///     terminate(u errorCode, s errorMessage, a{sv} hints)        (no reply)
///     signal suspendRequested(), resumeRequested(), cancelRequested(), updateRequested()
final class DBusJobViewV3: JobView {
    static let interface = "org.kde.JobViewV3"

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
        var fields: [String: DBusValue] = [
            "title": .string(properties.title),
            "infoMessage": .string(properties.infoMessage),
            "suspended": .boolean(properties.suspended),
        ]
        if let percent = properties.percent { fields["percent"] = .uint32(percent) }
        if let d = properties.description1 {
            fields["descriptionLabel1"] = .string(d.label)
            fields["descriptionValue1"] = .string(d.value)
        }
        if let d = properties.description2 {
            fields["descriptionLabel2"] = .string(d.label)
            fields["descriptionValue2"] = .string(d.value)
        }
        if let items = properties.items {
            fields["processedItems"] = .uint64(items.processed)
            fields["totalItems"] = .uint64(items.total)
        }
        try send("update", [.vardict(fields)])
    }

    func terminate(errorCode: UInt32, message: String) async throws {
        try send("terminate", [.uint32(errorCode), .string(message), .vardict([:])])
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
