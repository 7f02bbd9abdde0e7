import CGtk
import EngramCore
import Foundation
import GtkKit
import Intents

/// Follows the daemon: `PropertiesChanged` on org.engram.Engram1 (a capture, a forget, a session change anywhere
/// reaches the index and the session property) and the daemon coming and going. No polling.
final class DaemonWatch {
    enum Change { case index, session, daemon }

    init?(connection: OpaquePointer?, _ changed: @escaping (Change) -> Void) {
        guard let connection else { return nil }
        BusSignal.subscribe(connection, sender: EngramBus.name, interface: "org.freedesktop.DBus.Properties",
                            member: "PropertiesChanged", path: "/org/engram/Engram") { _, params in
            guard let params else { return }
            let dict = g_variant_get_child_value(params, 1)!
            defer { g_variant_unref(dict) }
            var keys: Set<String> = []
            for i in 0..<g_variant_n_children(dict) {
                let entry = g_variant_get_child_value(dict, i)!
                let key = g_variant_get_child_value(entry, 0)!
                keys.insert(String(cString: g_variant_get_string(key, nil)))
                g_variant_unref(key)
                g_variant_unref(entry)
            }
            if keys.contains("ActiveSession") { changed(.session) }
            if !keys.isDisjoint(with: ["IndexedChange", "MemoryCount", "ActiveContext"]) { changed(.index) }
        }
        BusSignal.subscribe(connection, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                            member: "NameOwnerChanged", path: "/org/freedesktop/DBus") { _, params in
            guard let params else { return }
            let name = g_variant_get_child_value(params, 0)!
            defer { g_variant_unref(name) }
            if String(cString: g_variant_get_string(name, nil)) == EngramBus.name { changed(.daemon) }
        }
    }
}
