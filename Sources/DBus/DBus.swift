// The DBus module: a typed Swift layer over libdbus-1 for Engram's desktop integrations.
// (Its sibling `DBusWatch` subscribes to signals without linking libdbus, for the lean feed binary.)
//
// - `DBusConnection` connects to a bus and runs one dedicated thread that reads, writes and
//   dispatches. Any thread may call, emit or reply; losing the bus is reported, never fatal.
// - `DBusValue` is any D-Bus value; `DBusRepresentable` converts Swift types to and from it
//   (`[String: DBusValue]` is `a{sv}`). Values are validated before libdbus sees them.
// - `DBusInterface` is an interface as a table of `DBusMethod`, `DBusProperty` and `DBusSignal`;
//   `export(_:at:)` serves it together with Introspectable, Properties and Peer.
// - `call` (blocking or async, with a timeout), `addMatch`/`signals(matching:)` and `emit`
//   are the client side; `requestName` claims a well-known name.
//
//     let bus = try DBusConnection()
//     try bus.export(DBusInterface("org.engram.Engram", methods: [
//         DBusMethod("Echo", in: ["text": "s"], out: ["echoed": "s"]) { call in call.arguments },
//     ]), at: "/org/engram/Engram")
//     guard try bus.requestName("org.engram.Engram") == .primaryOwner else { return }
//     let reply = try bus.call(destination: "org.freedesktop.Notifications",
//                              path: "/org/freedesktop/Notifications",
//                              interface: "org.freedesktop.Notifications", method: "GetServerInformation")
