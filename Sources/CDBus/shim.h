// libdbus (Debian: libdbus-1-dev), for the keychain-authenticate helper's talk with fprintd.
#include <dbus/dbus.h>

// The type codes are character-literal macros, which Swift does not import.
static const int CDBusTypeInvalid = DBUS_TYPE_INVALID;
static const int CDBusTypeString = DBUS_TYPE_STRING;
static const int CDBusTypeObjectPath = DBUS_TYPE_OBJECT_PATH;
static const int CDBusTypeBoolean = DBUS_TYPE_BOOLEAN;
static const int CDBusTypeArray = DBUS_TYPE_ARRAY;
