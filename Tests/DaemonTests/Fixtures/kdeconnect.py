'''python-dbusmock template impersonating kdeconnectd: one paired device per `devices` parameter entry.

Parameters: {"devices": [{"id": "...", "name": "...", "reachable": true}], "fail": "message"}; with "fail" the device list
call answers with that D-Bus error. Each device has its object
(org.kde.kdeconnect.device: name, isReachable) and its share plugin (org.kde.kdeconnect.device.share.shareUrl).
'''
import dbus

BUS_NAME = 'org.kde.kdeconnect'
MAIN_OBJ = '/modules/kdeconnect'
MAIN_IFACE = 'org.kde.kdeconnect.daemon'
SYSTEM_BUS = False


def load(mock, parameters):
    devices = parameters.get('devices', [])
    reachable = [d['id'] for d in devices if d.get('reachable', True)]
    everyone = [d['id'] for d in devices]
    if parameters.get('fail'):
        mock.AddMethod(MAIN_IFACE, 'devices', 'bb', 'as',
                       'raise dbus.exceptions.DBusException(%r, name="org.kde.kdeconnect.Error")' % parameters['fail'])
    else:
        mock.AddMethod(MAIN_IFACE, 'devices', 'bb', 'as',
                       'ret = dbus.Array(%r if args[0] else %r, signature="s")' % (reachable, everyone))
    for d in devices:
        path = MAIN_OBJ + '/devices/' + d['id']
        mock.AddObject(path, 'org.kde.kdeconnect.device',
                       {'name': dbus.String(d['name']), 'isReachable': dbus.Boolean(d.get('reachable', True))}, [])
        mock.AddObject(path + '/share', 'org.kde.kdeconnect.device.share', {},
                       [('shareUrl', 's', '', ''), ('shareText', 's', '', '')])
