// The read-only VFS of one read: see vfs.c. The declarations of the SQLite
// VFS interface that it needs are repeated here from sqlite3.h (their
// layout is part of SQLite's stable ABI), so that no SQLite header has to
// be on the include path: the SQLite library itself is linked in by the
// driver.

#ifndef SCOUT_VFS_H
#define SCOUT_VFS_H

typedef long long int sqlite3_int64;
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_file sqlite3_file;
typedef struct sqlite3_io_methods sqlite3_io_methods;
typedef struct sqlite3_vfs sqlite3_vfs;
typedef void (*sqlite3_syscall_ptr)(void);

struct sqlite3_file {
	const struct sqlite3_io_methods *pMethods;
};

struct sqlite3_io_methods {
	int iVersion;
	int (*xClose)(sqlite3_file *);
	int (*xRead)(sqlite3_file *, void *, int iAmt, sqlite3_int64 iOfst);
	int (*xWrite)(sqlite3_file *, const void *, int iAmt, sqlite3_int64 iOfst);
	int (*xTruncate)(sqlite3_file *, sqlite3_int64 size);
	int (*xSync)(sqlite3_file *, int flags);
	int (*xFileSize)(sqlite3_file *, sqlite3_int64 *pSize);
	int (*xLock)(sqlite3_file *, int);
	int (*xUnlock)(sqlite3_file *, int);
	int (*xCheckReservedLock)(sqlite3_file *, int *pResOut);
	int (*xFileControl)(sqlite3_file *, int op, void *pArg);
	int (*xSectorSize)(sqlite3_file *);
	int (*xDeviceCharacteristics)(sqlite3_file *);
	int (*xShmMap)(sqlite3_file *, int iPg, int pgsz, int, void volatile **);
	int (*xShmLock)(sqlite3_file *, int offset, int n, int flags);
	void (*xShmBarrier)(sqlite3_file *);
	int (*xShmUnmap)(sqlite3_file *, int deleteFlag);
	int (*xFetch)(sqlite3_file *, sqlite3_int64 iOfst, int iAmt, void **pp);
	int (*xUnfetch)(sqlite3_file *, sqlite3_int64 iOfst, void *p);
};

struct sqlite3_vfs {
	int iVersion;
	int szOsFile;
	int mxPathname;
	sqlite3_vfs *pNext;
	const char *zName;
	void *pAppData;
	int (*xOpen)(sqlite3_vfs *, const char *zName, sqlite3_file *, int flags, int *pOutFlags);
	int (*xDelete)(sqlite3_vfs *, const char *zName, int syncDir);
	int (*xAccess)(sqlite3_vfs *, const char *zName, int flags, int *pResOut);
	int (*xFullPathname)(sqlite3_vfs *, const char *zName, int nOut, char *zOut);
	void *(*xDlOpen)(sqlite3_vfs *, const char *zFilename);
	void (*xDlError)(sqlite3_vfs *, int nByte, char *zErrMsg);
	void (*(*xDlSym)(sqlite3_vfs *, void *, const char *zSymbol))(void);
	void (*xDlClose)(sqlite3_vfs *, void *);
	int (*xRandomness)(sqlite3_vfs *, int nByte, char *zOut);
	int (*xSleep)(sqlite3_vfs *, int microseconds);
	int (*xCurrentTime)(sqlite3_vfs *, double *);
	int (*xGetLastError)(sqlite3_vfs *, int, char *);
	int (*xCurrentTimeInt64)(sqlite3_vfs *, sqlite3_int64 *);
	int (*xSetSystemCall)(sqlite3_vfs *, const char *zName, sqlite3_syscall_ptr);
	sqlite3_syscall_ptr (*xGetSystemCall)(sqlite3_vfs *, const char *zName);
	const char *(*xNextSystemCall)(sqlite3_vfs *, const char *zName);
};

sqlite3_vfs *sqlite3_vfs_find(const char *zVfsName);
int sqlite3_vfs_register(sqlite3_vfs *, int makeDflt);
int sqlite3_vfs_unregister(sqlite3_vfs *);
int sqlite3_set_authorizer(sqlite3 *, int (*)(void *, int, const char *, const char *, const char *, const char *), void *);

// The files of a read: the database, its -wal and its -journal.
enum { SCOUT_MAIN, SCOUT_WAL, SCOUT_JOURNAL, SCOUT_NSRC };

// scout_vfs is one read's VFS: the files SQLite may read, each an open
// descriptor or a copy in memory, and the budget of its temporary files.
typedef struct scout_vfs scout_vfs;

// scout_vfs_new registers a VFS named name whose temporary files hold at
// most temp_max bytes in all; NULL when out of memory.
scout_vfs *scout_vfs_new(const char *name, sqlite3_int64 temp_max);
// scout_vfs_set_fd gives the VFS the descriptor fd as file i; the VFS
// closes it.
void scout_vfs_set_fd(scout_vfs *, int i, int fd);
// scout_vfs_set_mem gives the VFS size bytes at mem, from malloc, as file
// i; the VFS frees them.
void scout_vfs_set_mem(scout_vfs *, int i, unsigned char *mem, sqlite3_int64 size);
// scout_vfs_guard installs the authorizer on the connection that opened
// the VFS's database: it allows reading and nothing else, and records what
// it refused. It returns 0, or -1 when no connection has opened it.
int scout_vfs_guard(scout_vfs *);
// scout_vfs_refused returns the authorizer action code of the last
// refusal, 0 if none, with its two arguments (cut to 127 bytes, "" when
// absent, *has2 telling whether the second one was given).
int scout_vfs_refused(scout_vfs *, const char **arg1, const char **arg2, int *has2);
// scout_vfs_forget clears the last refusal.
void scout_vfs_forget(scout_vfs *);
// scout_vfs_cancel makes every later read, lock and sleep of the VFS fail
// at once.
void scout_vfs_cancel(scout_vfs *);
// scout_vfs_temp_full reports whether a temporary file was refused room.
int scout_vfs_temp_full(scout_vfs *);
// scout_vfs_release unregisters the VFS; it is freed with its files once
// SQLite has closed them.
void scout_vfs_release(scout_vfs *);

#endif
