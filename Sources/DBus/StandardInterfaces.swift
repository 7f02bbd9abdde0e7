/// The interfaces every exported object serves without being asked: Peer, Introspectable, Properties.
enum StandardInterfaces {
    static let peer = "org.freedesktop.DBus.Peer"
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"

    /// Their names.
    static let names: Set<String> = [peer, introspectable, properties]

    /// Which standard interface a member belongs to, for calls that name no interface.
    static func interface(forMember member: String) -> String? {
        switch member {
        case "Ping", "GetMachineId": return peer
        case "Introspect": return introspectable
        case "Get", "GetAll", "Set": return properties
        default: return nil
        }
    }

    /// Their introspection XML, listed first in every object's node.
    static let introspectionXML = """
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg name="machine_uuid" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg name="xml_data" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="out"/>
            </method>
            <method name="GetAll">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="properties" type="a{sv}" direction="out"/>
            </method>
            <method name="Set">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/>
              <arg name="invalidated_properties" type="as"/>
            </signal>
          </interface>

        """
}
