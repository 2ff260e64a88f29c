#include <sqlite3.h>

/// Turns off SQLite's global memory statistics before the first connection opens. sqlite-nio's bundled
/// copy is compiled with SQLITE_DEFAULT_MEMSTATUS=0; the system library keeps them on, which takes a
/// process-wide mutex on every allocation. (`sqlite3_config` is variadic, so Swift cannot call it.)
/// Returns SQLITE_MISUSE once SQLite is initialised, which is harmless.
static inline int gatehouse_sqlite_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
