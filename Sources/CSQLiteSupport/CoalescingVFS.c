// A VFS over the platform's default one that gathers the WAL's small writes into one.
//
// SQLite appends a transaction to the WAL as frames, each written by two calls: the 24-byte frame header,
// then the page (4 KB here). A megabyte of events is about 520 `pwrite`s, and on Linux the calls, not the
// bytes, are most of what the kernel spends on them. This VFS keeps a WAL file's writes that follow one
// another in a buffer and hands them to the file in one call (at most 124 KB: the default VFS writes at
// most 128 KB less a byte per call, SQLite's largest page being 64 KB):
// - when the frame that commits a transaction is whole (its header says it commits: a non-zero database
//   size), so that a transaction is in the file before SQLite publishes it to other connections and
//   processes in the shared-memory index, and a write error reaches the transaction that caused it;
// - before anything else touches the file (a read, a write elsewhere, a sync, its size, a truncation, a
//   file control, closing it), so that everything SQLite does with the file sees what it wrote;
// - before the connection's database file publishes anything in shared memory or takes or gives up a
//   shared-memory lock (`xShmBarrier`, `xShmLock`): whatever SQLite wrote while it held the WAL's write lock
//   is in the file before another connection or process may write there, a transaction rolled back after
//   spilling pages into the WAL included, as is the tail of a padding frame SQLite publishes with FULL sync
//   (a failure there, where SQLite takes no error, is returned by the WAL's next call);
// - when the buffer is full.
// A commit header written anywhere but right after the buffered writes (SQLite rewriting a transaction's
// checksums) goes to the file at once. Every other file, and every other call, goes straight to the
// default VFS. What the file holds when SQLite publishes a commit, reads, syncs or checkpoints is
// exactly what it would hold without this VFS; a crash loses at most a transaction not yet committed,
// which SQLite's recovery ignores anyway.
#include "CSQLiteSupport.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { coalescingCapacity = 31 * 4096, frameHeaderSize = 24 };

typedef struct CoalescingFile {
    sqlite3_file base;
    /// The default VFS's file, in the memory right after this struct.
    sqlite3_file *real;
    /// The WAL's pending writes: `length` bytes for the file at `start`; NULL until the first.
    unsigned char *buffer;
    sqlite3_int64 start;
    int length;
    /// A WAL file: its writes are gathered.
    int isWAL;
    /// The last write was a commit frame's header: the next (its page) ends the transaction.
    int commitFollows;
    /// A failed write of gathered bytes no caller could be told of (at a barrier or lock): the next call's.
    int deferredError;
    /// A database file's WAL (opened by the same connection), and a WAL's database file; NULL when closed.
    struct CoalescingFile *linked;
} CoalescingFile;

static sqlite3_vfs *defaultVFS;
static sqlite3_vfs coalescingVFS;
static int registration = SQLITE_OK;
static pthread_once_t registrationOnce = PTHREAD_ONCE_INIT;

static int flush(CoalescingFile *file) {
    if (file->deferredError != SQLITE_OK) {
        int error = file->deferredError;
        file->deferredError = SQLITE_OK;
        return error;
    }
    if (file->length == 0) return SQLITE_OK;
    int length = file->length;
    file->length = 0;
    return file->real->pMethods->xWrite(file->real, file->buffer, length, file->start);
}

/// For a database file's shared-memory calls: its WAL's gathered bytes into the file first.
static void flushLinkedWAL(CoalescingFile *database) {
    CoalescingFile *wal = database->linked;
    if (wal == NULL || wal->length == 0) return;
    int rc = flush(wal);
    if (rc != SQLITE_OK) wal->deferredError = rc;
}

static int coalescingClose(sqlite3_file *handle) {
    CoalescingFile *file = (CoalescingFile *)handle;
    int flushed = flush(file);
    if (file->linked != NULL) file->linked->linked = NULL;
    file->linked = NULL;
    int closed = file->real->pMethods->xClose(file->real);
    free(file->buffer);
    file->buffer = NULL;
    return flushed != SQLITE_OK ? flushed : closed;
}

static int coalescingRead(sqlite3_file *handle, void *data, int amount, sqlite3_int64 offset) {
    CoalescingFile *file = (CoalescingFile *)handle;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xRead(file->real, data, amount, offset);
}

/// Whether `data` is a WAL frame header that commits a transaction (bytes 4–7: the database's size in
/// pages after the commit, zero in every other frame).
static int isCommitHeader(const void *data, int amount) {
    if (amount != frameHeaderSize) return 0;
    const unsigned char *bytes = data;
    return (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
}

static int coalescingWrite(sqlite3_file *handle, const void *data, int amount, sqlite3_int64 offset) {
    CoalescingFile *file = (CoalescingFile *)handle;
    if (!file->isWAL) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    int commitFollows = file->commitFollows;
    file->commitFollows = isCommitHeader(data, amount);
    int follows = file->length > 0 && offset == file->start + file->length;
    if (!follows || file->length + amount > coalescingCapacity) {
        int rc = flush(file);
        if (rc != SQLITE_OK) return rc;
        // A commit header that starts nothing new (a checksum rewrite), or a write the buffer cannot take.
        if (file->commitFollows || amount > coalescingCapacity) {
            return file->real->pMethods->xWrite(file->real, data, amount, offset);
        }
        if (file->buffer == NULL) {
            file->buffer = malloc(coalescingCapacity);
            if (file->buffer == NULL) return file->real->pMethods->xWrite(file->real, data, amount, offset);
        }
        file->start = offset;
    }
    memcpy(file->buffer + file->length, data, (size_t)amount);
    file->length += amount;
    return commitFollows ? flush(file) : SQLITE_OK;
}

static int coalescingTruncate(sqlite3_file *handle, sqlite3_int64 size) {
    CoalescingFile *file = (CoalescingFile *)handle;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xTruncate(file->real, size);
}

static int coalescingSync(sqlite3_file *handle, int flags) {
    CoalescingFile *file = (CoalescingFile *)handle;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xSync(file->real, flags);
}

static int coalescingFileSize(sqlite3_file *handle, sqlite3_int64 *size) {
    CoalescingFile *file = (CoalescingFile *)handle;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xFileSize(file->real, size);
}

static int coalescingLock(sqlite3_file *handle, int level) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xLock(file->real, level);
}

static int coalescingUnlock(sqlite3_file *handle, int level) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int coalescingCheckReservedLock(sqlite3_file *handle, int *result) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int coalescingFileControl(sqlite3_file *handle, int op, void *argument) {
    CoalescingFile *file = (CoalescingFile *)handle;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    if (op == SQLITE_FCNTL_VFSNAME) {
        // Names this VFS before the default one, as SQLite's own shims do.
        rc = file->real->pMethods->xFileControl(file->real, op, argument);
        if (rc == SQLITE_OK) {
            char **name = argument;
            char *named = sqlite3_mprintf("openresponses/%z", *name);
            *name = NULL;  // freed by %z, whether or not the new name could be made
            if (named == NULL) return SQLITE_NOMEM;
            *name = named;
        }
        return rc;
    }
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int coalescingSectorSize(sqlite3_file *handle) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xSectorSize(file->real);
}

static int coalescingDeviceCharacteristics(sqlite3_file *handle) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int coalescingShmMap(sqlite3_file *handle, int region, int size, int extend, void volatile **memory) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, memory);
}

static int coalescingShmLock(sqlite3_file *handle, int offset, int count, int flags) {
    CoalescingFile *file = (CoalescingFile *)handle;
    flushLinkedWAL(file);
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void coalescingShmBarrier(sqlite3_file *handle) {
    CoalescingFile *file = (CoalescingFile *)handle;
    flushLinkedWAL(file);
    file->real->pMethods->xShmBarrier(file->real);
}

static int coalescingShmUnmap(sqlite3_file *handle, int deleteFlag) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static int coalescingFetch(sqlite3_file *handle, sqlite3_int64 offset, int amount, void **page) {
    CoalescingFile *file = (CoalescingFile *)handle;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xFetch(file->real, offset, amount, page);
}

static int coalescingUnfetch(sqlite3_file *handle, sqlite3_int64 offset, void *page) {
    CoalescingFile *file = (CoalescingFile *)handle;
    return file->real->pMethods->xUnfetch(file->real, offset, page);
}

static const sqlite3_io_methods coalescingMethods = {
    3, coalescingClose, coalescingRead, coalescingWrite, coalescingTruncate, coalescingSync, coalescingFileSize,
    coalescingLock, coalescingUnlock, coalescingCheckReservedLock, coalescingFileControl, coalescingSectorSize,
    coalescingDeviceCharacteristics, coalescingShmMap, coalescingShmLock, coalescingShmBarrier, coalescingShmUnmap,
    coalescingFetch, coalescingUnfetch,
};

static int coalescingOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *handle, int flags, int *outFlags) {
    (void)vfs;
    CoalescingFile *file = (CoalescingFile *)handle;
    memset(file, 0, sizeof *file);
    file->real = (sqlite3_file *)&file[1];
    int rc = defaultVFS->xOpen(defaultVFS, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        if (file->real->pMethods != NULL) file->real->pMethods->xClose(file->real);
        return rc;
    }
    // The default VFS of this platform gives version 3 (shared memory, memory mapping); anything less,
    // and the file is used as it is, without this layer.
    if (file->real->pMethods->iVersion < 3) {
        file->real->pMethods->xClose(file->real);
        return defaultVFS->xOpen(defaultVFS, name, handle, flags, outFlags);
    }
    file->isWAL = (flags & SQLITE_OPEN_WAL) != 0;
    file->base.pMethods = &coalescingMethods;
    if (file->isWAL && name != NULL) {
        // The connection's database file, opened through this VFS just before (SQLite opens a WAL with the
        // name it derived from the database's, which sqlite3_database_file_object reads back).
        sqlite3_file *database = sqlite3_database_file_object(name);
        if (database != NULL && database->pMethods == &coalescingMethods) {
            CoalescingFile *linked = (CoalescingFile *)database;
            linked->linked = file;
            file->linked = linked;
        }
    }
    return SQLITE_OK;
}

static void registerCoalescingVFS(void) {
    defaultVFS = sqlite3_vfs_find(NULL);
    if (defaultVFS == NULL) {
        registration = SQLITE_ERROR;
        return;
    }
    coalescingVFS = *defaultVFS;
    coalescingVFS.pNext = NULL;
    coalescingVFS.zName = "openresponses";
    coalescingVFS.szOsFile = (int)sizeof(CoalescingFile) + defaultVFS->szOsFile;
    coalescingVFS.xOpen = coalescingOpen;
    registration = sqlite3_vfs_register(&coalescingVFS, 1);
}

int openresponses_sqlite_use_coalescing_vfs(void) {
    pthread_once(&registrationOnce, registerCoalescingVFS);
    return registration;
}
