// The system SQLite, for the Feeds module's read-only, Foundation-free reader.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import.
static inline void (*csqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
