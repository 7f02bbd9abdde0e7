"""A stand-in for the systemd user manager on the test session bus, for headless gnome-shell 43.

The shell (see no-ibus-spawn.c) asks GetUnit for IBus's unit; answering with a unit path makes it leave IBus
alone instead of spawning ibus-daemon, which can deadlock. Every other unit is "not loaded", as systemd says.
"""
import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib


class Manager(dbus.service.Object):
    @dbus.service.method("org.freedesktop.systemd1.Manager", in_signature="s", out_signature="o")
    def GetUnit(self, unit):
        if unit.startswith("org.freedesktop.IBus."):
            return dbus.ObjectPath("/org/freedesktop/systemd1/unit/ibus_stand_in")
        raise dbus.exceptions.DBusException(f"Unit {unit} not loaded.", name="org.freedesktop.systemd1.NoSuchUnit")


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.systemd1", bus)
Manager(bus, "/org/freedesktop/systemd1")
print("stand-in systemd ready", flush=True)
GLib.MainLoop().run()
