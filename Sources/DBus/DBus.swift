// DBus
