import DBus

/// A client of one KDE job view (`org.kde.JobViewV3`, Plasma 5.20 and later, or `org.kde.JobViewV2` where a server
/// only offers the first `requestView`): one body for both; only how an update and the end are sent differ.
///
///     V3: update(a{sv} properties), terminate(u errorCode, s errorMessage, a{sv} hints)       (no replies)
///     V2: setInfoMessage(s), setPercent(u), setSuspended(b), setProcessedAmount(t, s unit), setTotalAmount(t, s unit),
///         setDescriptionField(u number, s name, s value) → b, clearDescriptionField(u), terminate(s errorMessage)
///     both: signal suspendRequested(), resumeRequested(), cancelRequested()
///
/// V2 has no title: the first description field carries it.
final class DBusJobView: JobView {
    enum Version: String {
        case v2 = "org.kde.JobViewV2"
        case v3 = "org.kde.JobViewV3"

        var interface: String { rawValue }
    }

    let version: Version
    private let connection: DBusConnection
    private let path: DBusObjectPath
    private let hub = EventHub<JobViewRequest>()
    private let subscription: DBusSignalSubscription

    init(_ version: Version, connection: DBusConnection, path: DBusObjectPath, callTimeout: Duration) throws {
        self.version = version
        self.connection = connection
        self.path = path
        let hub = self.hub
        subscription = try connection.addMatch(DBusMatchRule(sender: DBusJobViewServer.busName, path: path,
                                                             interface: version.interface)) { event in
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
        switch version {
        case .v3:
            try send("update", [.vardict(Self.fields(properties))])
        case .v2:
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
    }

    /// V3's properties of an update.
    static func fields(_ properties: JobViewProperties) -> [String: DBusValue] {
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
        return fields
    }

    func terminate(errorCode: UInt32, message: String) async throws {
        switch version {
        case .v3: try send("terminate", [.uint32(errorCode), .string(message), .vardict([:])])
        case .v2: try send("terminate", [.string(message)])
        }
    }

    func requests() -> AsyncStream<JobViewRequest> { hub.stream() }

    private func send(_ method: String, _ arguments: [DBusValue]) throws {
        do {
            try connection.send(destination: DBusJobViewServer.busName, path: path, interface: version.interface,
                                method: method, arguments: arguments)
        } catch let error as DBusError {
            throw DBusNotificationServer.map(error)
        }
    }
}
