'''python-dbusmock template impersonating GSConnect's service: an object manager whose devices
(org.gnome.Shell.Extensions.GSConnect.Device: Name, Connected, Paired) take org.gtk.Actions.Activate.

Parameters: {"devices": [{"id": "...", "name": "...", "connected": true}]}.
'''
import dbus
import dbusmock

BUS_NAME = 'org.gnome.Shell.Extensions.GSConnect'
MAIN_OBJ = '/org/gnome/Shell/Extensions/GSConnect'
MAIN_IFACE = 'org.gnome.Shell.Extensions.GSConnect'
SYSTEM_BUS = False
IS_OBJECT_MANAGER = True


def load(mock, parameters):
    for d in parameters.get('devices', []):
        path = MAIN_OBJ + '/Device/' + d['id']
        mock.AddObject(path, 'org.gnome.Shell.Extensions.GSConnect.Device',
                       {'Name': dbus.String(d['name']), 'Connected': dbus.Boolean(d.get('connected', True)),
                        'Paired': dbus.Boolean(True)}, [])
        dbusmock.get_object(path).AddMethod('org.gtk.Actions', 'Activate', 'sava{sv}', '', '')
