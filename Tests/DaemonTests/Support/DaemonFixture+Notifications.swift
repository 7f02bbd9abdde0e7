import DBus
import Foundation

extension DaemonFixture {
    /// One `Notify` call as python-dbusmock's notification server logged it.
    struct Notified {
        var replacesID: UInt32
        var summary: String
        var body: String
        /// The action keys (their labels left out).
        var actions: [String]
        var tag: String?
    }

    /// Every Notify the mock notification server on this bus received, oldest first.
    func notified() throws -> [Notified] {
        let reply = try callPeer("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                 "org.freedesktop.DBus.Mock", "GetMethodCalls", [.string("Notify")])
        return (reply.first?.arrayValue ?? []).compactMap { call in
            guard let args = call[1]?.arrayValue?.map(\.unwrapped), args.count == 8 else { return nil }
            let actions = args[5].stringArrayValue ?? []
            let tag = (args[6].dictionaryEntries ?? []).first { $0.key.stringValue == "x-dunst-stack-tag" }
            return Notified(replacesID: args[1].uint32Value ?? 0, summary: args[3].stringValue ?? "", body: args[4].stringValue ?? "",
                            actions: stride(from: 0, to: actions.count, by: 2).map { actions[$0] },
                            tag: (tag?.value.variantValue ?? tag?.value)?.stringValue)
        }
    }
}
