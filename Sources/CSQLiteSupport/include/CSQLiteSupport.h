#ifndef CSQLITESUPPORT_H
#define CSQLITESUPPORT_H

#include <sqlite3.h>

/// Leaves the WAL as it is when this connection closes, instead of checkpointing it into the database
/// (two fsyncs) and deleting it. sqlite3_db_config is variadic, which Swift cannot call.
static inline int openresponses_sqlite_skip_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// Makes the VFS that gathers each WAL file's writes into larger ones (CoalescingVFS.c) SQLite's default
/// for this process, once; later calls return what the first did (SQLITE_OK, or the registration's error).
int openresponses_sqlite_use_coalescing_vfs(void);

/// Starts `body(context, elsewhere_than, started_on)` on a new detached thread, created on another core than
/// the caller's when there is one (StoreThread.c says why): `elsewhere_than` is the caller's core it was kept
/// from (-1 when none was), `started_on` the core it started on (-1 when unknown); both are for tests. 0, or
/// an error number (ENOMEM, or what pthread_attr_init or pthread_create returned) when no thread was started.
int openresponses_start_store_thread(void (*body)(void *, int, int), void *context);

#endif
