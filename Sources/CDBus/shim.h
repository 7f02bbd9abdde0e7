#ifndef ENGRAM_CDBUS_SHIM_H
#define ENGRAM_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
