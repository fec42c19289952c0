#ifndef KEYCHAIN_CSQLITE_SHIM_H
#define KEYCHAIN_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro over a cast of -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type ksqlite_transient(void) { return SQLITE_TRANSIENT; }
// SQLITE_STATIC likewise: the caller promises the bytes outlive the statement step.
static inline sqlite3_destructor_type ksqlite_static(void) { return SQLITE_STATIC; }

#endif
