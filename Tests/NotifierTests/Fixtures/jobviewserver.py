'''KDE job view server mock template for python-dbusmock

Serves org.kde.JobViewServerV2.requestView (views implementing org.kde.JobViewV3) and, unless the
parameter "legacy_only" is set, nothing else; with "legacy_only" only the first interface,
org.kde.JobViewServer.requestView, whose views implement org.kde.JobViewV2. Each view is a mock
object, so its calls can be read back and its signals emitted through org.freedesktop.DBus.Mock.
With "refuse_first": N, the first N requestView calls are refused as a flood, as Plasma's guard does.
'''

BUS_NAME = 'org.kde.JobViewServer'
MAIN_OBJ = '/JobViewServer'
MAIN_IFACE = 'org.kde.JobViewServerV2'
SYSTEM_BUS = False

REFUSE = '''if self.refuse > 0:
    self.refuse -= 1
    raise dbus.exceptions.DBusException('too many', name='org.freedesktop.Notifications.Error.ExcessNotificationGeneration')
'''

V3_VIEW = REFUSE + '''path = "/org/kde/notificationmanager/jobs/JobView_%d" % self.next_job
self.next_job += 1
self.AddObject(path, "org.kde.JobViewV3", {}, [
    ("update", "a{sv}", "", ""),
    ("terminate", "usa{sv}", "", ""),
])
ret = dbus.ObjectPath(path)
'''

V2_VIEW = REFUSE + '''path = "/JobViewServer/JobView_%d" % self.next_job
self.next_job += 1
self.AddObject(path, "org.kde.JobViewV2", {}, [
    ("setInfoMessage", "s", "", ""),
    ("setPercent", "u", "", ""),
    ("setSuspended", "b", "", ""),
    ("setTotalAmount", "ts", "", ""),
    ("setProcessedAmount", "ts", "", ""),
    ("setDescriptionField", "uss", "b", "ret = True"),
    ("clearDescriptionField", "u", "", ""),
    ("terminate", "s", "", ""),
])
ret = dbus.ObjectPath(path)
'''


def load(mock, parameters):
    mock.next_job = 1
    mock.refuse = int(parameters.get('refuse_first', 0))
    if parameters.get('legacy_only'):
        mock.AddMethods('org.kde.JobViewServer', [('requestView', 'ssi', 'o', V2_VIEW)])
    else:
        mock.AddMethods(MAIN_IFACE, [('requestView', 'sia{sv}', 'o', V3_VIEW)])
