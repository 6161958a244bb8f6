//go:build cgo && unix

// A read-only SQLite VFS for one read. SQLite never opens a file by name
// through it: the database, its -wal and its -journal are descriptors that
// Scout opened through its traversal-safe file system (or copies in
// memory), so a path swapped for a symlink after that check cannot send
// SQLite elsewhere. Nothing is ever written: there is no shared memory
// (the connection runs in EXCLUSIVE locking mode, which keeps the WAL index
// on the heap), writes, truncation and deletion fail, and temporary files
// (sorting, grouping, recursive queries) live in memory under a byte budget
// instead of in a temp directory.
//
// Locks: a SHARED lock is taken as SQLite's own unix VFS takes it, so that
// a writer using rollback journals waits for the read, with open file
// description locks where the OS has them (they do not mix with the
// process's other locks on the file). Higher locks are granted without
// locking: SQLite asks for them only to open a WAL in EXCLUSIVE mode, and
// this VFS writes nothing.

#define _GNU_SOURCE // F_OFD_SETLK

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfs.h"

#define SQLITE_OK 0
#define SQLITE_ERROR 1
#define SQLITE_BUSY 5
#define SQLITE_NOMEM 7
#define SQLITE_READONLY 8
#define SQLITE_INTERRUPT 9
#define SQLITE_IOERR 10
#define SQLITE_NOTFOUND 12
#define SQLITE_FULL 13
#define SQLITE_CANTOPEN 14
#define SQLITE_IOERR_READ (SQLITE_IOERR | (1 << 8))
#define SQLITE_IOERR_SHORT_READ (SQLITE_IOERR | (2 << 8))
#define SQLITE_IOERR_FSTAT (SQLITE_IOERR | (7 << 8))
#define SQLITE_IOERR_DELETE (SQLITE_IOERR | (10 << 8))
#define SQLITE_IOERR_LOCK (SQLITE_IOERR | (15 << 8))

#define SQLITE_OPEN_READONLY 0x00000001
#define SQLITE_OPEN_MAIN_DB 0x00000100
#define SQLITE_OPEN_MAIN_JOURNAL 0x00000800
#define SQLITE_OPEN_WAL 0x00080000

#define SQLITE_LOCK_NONE 0
#define SQLITE_LOCK_SHARED 1

#define SQLITE_ACCESS_EXISTS 0

#define SQLITE_FCNTL_PDB 30

#define SQLITE_DENY 1
#define SQLITE_PRAGMA 19
#define SQLITE_READ 20
#define SQLITE_SELECT 21
#define SQLITE_FUNCTION 31
#define SQLITE_RECURSIVE 33

// The lock bytes of SQLite's file format.
#define PENDING_BYTE 0x40000000
#define RESERVED_BYTE (PENDING_BYTE + 1)
#define SHARED_FIRST (PENDING_BYTE + 2)
#define SHARED_SIZE 510

#ifdef F_OFD_SETLK
#define SETLK F_OFD_SETLK
#define GETLK F_OFD_GETLK
#else
#define SETLK F_SETLK
#define GETLK F_GETLK
#endif

// A temporary file is a list of chunks, so that growing it never copies.
#define CHUNK (64 << 10)

typedef struct source {
	int fd;             // descriptor, or -1 when mem holds the file
	unsigned char *mem; // the file in memory
	sqlite3_int64 size; // of mem
	int present;        // the file exists
} source;

struct scout_vfs {
	sqlite3_vfs base;
	sqlite3_vfs *os; // the default VFS, for time, randomness and sleep
	char name[64];
	source src[SCOUT_NSRC];
	sqlite3_int64 temp_max;  // bytes all temporary files may hold
	sqlite3_int64 temp_used; // bytes they hold
	int temp_full;           // a temporary file was refused room
	int canceled;
	int refs;   // Go's reference and one per open file
	sqlite3 *db; // the connection of the database, once opened
	// the last refusal of the authorizer: its action and arguments
	int refusedOp, refusedHas2;
	char refused1[128], refused2[128];
};

typedef struct file {
	sqlite3_file base;
	scout_vfs *vfs;
	source *src;            // the file read, or NULL for a temporary file
	int locked;             // this file holds the SHARED lock
	unsigned char **chunks; // a temporary file's chunks
	int nchunks;
	sqlite3_int64 size; // a temporary file's size
} file;

static void unref(scout_vfs *v) {
	if (__atomic_sub_fetch(&v->refs, 1, __ATOMIC_ACQ_REL) > 0) {
		return;
	}
	for (int i = 0; i < SCOUT_NSRC; i++) {
		if (v->src[i].fd >= 0) {
			close(v->src[i].fd);
		}
		free(v->src[i].mem);
	}
	free(v);
}

static int canceled(scout_vfs *v) { return __atomic_load_n(&v->canceled, __ATOMIC_ACQUIRE); }

// ---- files read: the database, its -wal and its -journal ----

static int srcClose(sqlite3_file *f) {
	file *p = (file *)f;
	unref(p->vfs);
	return SQLITE_OK;
}

static int srcRead(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
	file *p = (file *)f;
	source *s = p->src;
	if (canceled(p->vfs)) {
		return SQLITE_INTERRUPT;
	}
	int got = 0;
	if (s->fd < 0) {
		if (off < s->size) {
			got = (int)(s->size - off < amt ? s->size - off : amt);
			memcpy(buf, s->mem + off, got);
		}
	} else {
		while (got < amt) {
			ssize_t n = pread(s->fd, (char *)buf + got, amt - got, off + got);
			if (n < 0 && errno == EINTR) {
				continue;
			}
			if (n < 0) {
				return SQLITE_IOERR_READ;
			}
			if (n == 0) {
				break;
			}
			got += n;
		}
	}
	if (got < amt) {
		memset((char *)buf + got, 0, amt - got);
		return SQLITE_IOERR_SHORT_READ;
	}
	return SQLITE_OK;
}

static int srcWrite(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) { return SQLITE_READONLY; }

static int srcTruncate(sqlite3_file *f, sqlite3_int64 size) { return SQLITE_READONLY; }

static int okSync(sqlite3_file *f, int flags) { return SQLITE_OK; }

static int srcFileSize(sqlite3_file *f, sqlite3_int64 *size) {
	source *s = ((file *)f)->src;
	if (s->fd < 0) {
		*size = s->size;
		return SQLITE_OK;
	}
	struct stat st;
	if (fstat(s->fd, &st) != 0) {
		return SQLITE_IOERR_FSTAT;
	}
	*size = st.st_size;
	return SQLITE_OK;
}

static int setlk(int fd, short type, off_t start, off_t len) {
	struct flock l;
	memset(&l, 0, sizeof l);
	l.l_type = type;
	l.l_whence = SEEK_SET;
	l.l_start = start;
	l.l_len = len;
	int rc;
	do {
		rc = fcntl(fd, SETLK, &l);
	} while (rc != 0 && errno == EINTR);
	return rc;
}

// srcLock takes the SHARED lock of the database as SQLite's unix VFS does:
// a read lock on the pending byte, so that a writer waiting for readers to
// leave is not starved, then on the shared range. SQLite's busy handler
// retries on SQLITE_BUSY.
static int srcLock(sqlite3_file *f, int level) {
	file *p = (file *)f;
	if (canceled(p->vfs)) {
		return SQLITE_INTERRUPT;
	}
	if (level != SQLITE_LOCK_SHARED || p->locked || p->src->fd < 0 || p->src != &p->vfs->src[SCOUT_MAIN]) {
		return SQLITE_OK;
	}
	int fd = p->src->fd;
	if (setlk(fd, F_RDLCK, PENDING_BYTE, 1) != 0) {
		return errno == EAGAIN || errno == EACCES ? SQLITE_BUSY : SQLITE_IOERR_LOCK;
	}
	int rc = setlk(fd, F_RDLCK, SHARED_FIRST, SHARED_SIZE);
	int err = errno;
	setlk(fd, F_UNLCK, PENDING_BYTE, 1);
	if (rc != 0) {
		return err == EAGAIN || err == EACCES ? SQLITE_BUSY : SQLITE_IOERR_LOCK;
	}
	p->locked = 1;
	return SQLITE_OK;
}

static int srcUnlock(sqlite3_file *f, int level) {
	file *p = (file *)f;
	if (level == SQLITE_LOCK_NONE && p->locked) {
		setlk(p->src->fd, F_UNLCK, SHARED_FIRST, SHARED_SIZE);
		p->locked = 0;
	}
	return SQLITE_OK;
}

// srcCheckReservedLock reports whether a writer holds the database's
// reserved lock, which tells a -journal being written from a hot one.
static int srcCheckReservedLock(sqlite3_file *f, int *out) {
	file *p = (file *)f;
	*out = 0;
	if (p->src->fd < 0) {
		return SQLITE_OK;
	}
	struct flock l;
	memset(&l, 0, sizeof l);
	l.l_type = F_WRLCK;
	l.l_whence = SEEK_SET;
	l.l_start = RESERVED_BYTE;
	l.l_len = 1;
	if (fcntl(p->src->fd, GETLK, &l) != 0) {
		return SQLITE_IOERR_LOCK;
	}
	*out = l.l_type != F_UNLCK;
	return SQLITE_OK;
}

static int notFound(sqlite3_file *f, int op, void *arg) { return SQLITE_NOTFOUND; }

// srcFileControl learns the connection from SQLITE_FCNTL_PDB, which SQLite
// sends the database file when a connection opens it.
static int srcFileControl(sqlite3_file *f, int op, void *arg) {
	file *p = (file *)f;
	if (op == SQLITE_FCNTL_PDB && p->src == &p->vfs->src[SCOUT_MAIN]) {
		p->vfs->db = *(sqlite3 **)arg;
		return SQLITE_OK;
	}
	return SQLITE_NOTFOUND;
}

static int sectorSize(sqlite3_file *f) { return 4096; }

static int noCharacteristics(sqlite3_file *f) { return 0; }

static const sqlite3_io_methods srcMethods = {
	1,
	srcClose,
	srcRead,
	srcWrite,
	srcTruncate,
	okSync,
	srcFileSize,
	srcLock,
	srcUnlock,
	srcCheckReservedLock,
	srcFileControl,
	sectorSize,
	noCharacteristics,
};

// ---- temporary files, in memory ----

static int tmpClose(sqlite3_file *f) {
	file *p = (file *)f;
	for (int i = 0; i < p->nchunks; i++) {
		free(p->chunks[i]);
	}
	free(p->chunks);
	__atomic_sub_fetch(&p->vfs->temp_used, (sqlite3_int64)p->nchunks * CHUNK, __ATOMIC_ACQ_REL);
	unref(p->vfs);
	return SQLITE_OK;
}

static int tmpRead(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
	file *p = (file *)f;
	if (canceled(p->vfs)) {
		return SQLITE_INTERRUPT;
	}
	int got = 0;
	while (got < amt && off + got < p->size) {
		sqlite3_int64 at = off + got;
		int in = (int)(at % CHUNK);
		int n = CHUNK - in;
		if (n > amt - got) {
			n = amt - got;
		}
		if (n > p->size - at) {
			n = (int)(p->size - at);
		}
		unsigned char *c = p->chunks[at / CHUNK];
		if (c) {
			memcpy((char *)buf + got, c + in, n);
		} else {
			memset((char *)buf + got, 0, n);
		}
		got += n;
	}
	if (got < amt) {
		memset((char *)buf + got, 0, amt - got);
		return SQLITE_IOERR_SHORT_READ;
	}
	return SQLITE_OK;
}

// grow makes room for n bytes, within the VFS's budget.
static int grow(file *p, sqlite3_int64 n) {
	int need = (int)((n + CHUNK - 1) / CHUNK);
	if (need <= p->nchunks) {
		return SQLITE_OK;
	}
	sqlite3_int64 more = (sqlite3_int64)(need - p->nchunks) * CHUNK;
	if (__atomic_add_fetch(&p->vfs->temp_used, more, __ATOMIC_ACQ_REL) > p->vfs->temp_max) {
		__atomic_sub_fetch(&p->vfs->temp_used, more, __ATOMIC_ACQ_REL);
		__atomic_store_n(&p->vfs->temp_full, 1, __ATOMIC_RELEASE);
		return SQLITE_FULL;
	}
	unsigned char **c = realloc(p->chunks, need * sizeof *c);
	if (!c) {
		__atomic_sub_fetch(&p->vfs->temp_used, more, __ATOMIC_ACQ_REL);
		return SQLITE_NOMEM;
	}
	memset(c + p->nchunks, 0, (need - p->nchunks) * sizeof *c);
	p->chunks = c;
	p->nchunks = need;
	return SQLITE_OK;
}

static int tmpWrite(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
	file *p = (file *)f;
	if (canceled(p->vfs)) {
		return SQLITE_INTERRUPT;
	}
	int rc = grow(p, off + amt);
	if (rc != SQLITE_OK) {
		return rc;
	}
	for (int done = 0; done < amt;) {
		sqlite3_int64 at = off + done;
		int in = (int)(at % CHUNK);
		int n = CHUNK - in < amt - done ? CHUNK - in : amt - done;
		unsigned char **c = &p->chunks[at / CHUNK];
		if (!*c && !(*c = calloc(1, CHUNK))) {
			return SQLITE_NOMEM;
		}
		memcpy(*c + in, (const char *)buf + done, n);
		done += n;
	}
	if (off + amt > p->size) {
		p->size = off + amt;
	}
	return SQLITE_OK;
}

static int tmpTruncate(sqlite3_file *f, sqlite3_int64 size) {
	file *p = (file *)f;
	if (size < p->size) {
		p->size = size;
		int keep = (int)((size + CHUNK - 1) / CHUNK);
		for (int i = keep; i < p->nchunks; i++) {
			free(p->chunks[i]);
			p->chunks[i] = NULL;
		}
		__atomic_sub_fetch(&p->vfs->temp_used, (sqlite3_int64)(p->nchunks - keep) * CHUNK, __ATOMIC_ACQ_REL);
		p->nchunks = keep;
		// the cut chunk's tail reads as zeros if the file grows again
		if (keep > 0 && size % CHUNK && p->chunks[keep - 1]) {
			memset(p->chunks[keep - 1] + size % CHUNK, 0, CHUNK - size % CHUNK);
		}
	}
	return SQLITE_OK;
}

static int tmpFileSize(sqlite3_file *f, sqlite3_int64 *size) {
	*size = ((file *)f)->size;
	return SQLITE_OK;
}

static int tmpLock(sqlite3_file *f, int level) { return SQLITE_OK; }

static int tmpCheckReservedLock(sqlite3_file *f, int *out) {
	*out = 0;
	return SQLITE_OK;
}

static const sqlite3_io_methods tmpMethods = {
	1,
	tmpClose,
	tmpRead,
	tmpWrite,
	tmpTruncate,
	okSync,
	tmpFileSize,
	tmpLock,
	tmpLock,
	tmpCheckReservedLock,
	notFound,
	sectorSize,
	noCharacteristics,
};

// ---- the VFS ----

static int vfsOpen(sqlite3_vfs *base, const char *name, sqlite3_file *f, int flags, int *out) {
	scout_vfs *v = (scout_vfs *)base;
	file *p = (file *)f;
	memset(p, 0, sizeof *p);
	p->vfs = v;
	if (name == NULL) {
		p->base.pMethods = &tmpMethods;
	} else {
		int i;
		if (flags & SQLITE_OPEN_MAIN_DB) {
			i = SCOUT_MAIN;
		} else if (flags & SQLITE_OPEN_WAL) {
			i = SCOUT_WAL; // an absent -wal reads as empty
		} else if ((flags & SQLITE_OPEN_MAIN_JOURNAL) && v->src[SCOUT_JOURNAL].present) {
			i = SCOUT_JOURNAL;
		} else {
			return SQLITE_CANTOPEN;
		}
		p->src = &v->src[i];
		p->base.pMethods = &srcMethods;
		flags = SQLITE_OPEN_READONLY | (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL));
	}
	__atomic_add_fetch(&v->refs, 1, __ATOMIC_ACQ_REL);
	if (out) {
		*out = flags;
	}
	return SQLITE_OK;
}

static int vfsDelete(sqlite3_vfs *base, const char *name, int syncDir) { return SQLITE_IOERR_DELETE; }

static int hasSuffix(const char *s, const char *suffix) {
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

// vfsAccess reports whether the -wal or -journal exists; nothing is
// writable.
static int vfsAccess(sqlite3_vfs *base, const char *name, int flags, int *out) {
	scout_vfs *v = (scout_vfs *)base;
	*out = 0;
	if (flags == SQLITE_ACCESS_EXISTS) {
		if (hasSuffix(name, "-wal")) {
			*out = v->src[SCOUT_WAL].present;
		} else if (hasSuffix(name, "-journal")) {
			*out = v->src[SCOUT_JOURNAL].present;
		}
	}
	return SQLITE_OK;
}

// vfsFullPathname keeps the name: it is never resolved.
static int vfsFullPathname(sqlite3_vfs *base, const char *name, int n, char *out) {
	size_t len = strlen(name);
	if ((int)len >= n) {
		return SQLITE_CANTOPEN;
	}
	memcpy(out, name, len + 1);
	return SQLITE_OK;
}

static void *dlOpen(sqlite3_vfs *base, const char *name) { return NULL; }

static void dlError(sqlite3_vfs *base, int n, char *msg) {
	if (n > 0) {
		strncpy(msg, "extensions are not loaded", n);
		msg[n - 1] = 0;
	}
}

static void (*dlSym(sqlite3_vfs *base, void *h, const char *sym))(void) { return NULL; }

static void dlClose(sqlite3_vfs *base, void *h) {}

static int randomness(sqlite3_vfs *base, int n, char *out) {
	sqlite3_vfs *os = ((scout_vfs *)base)->os;
	return os->xRandomness(os, n, out);
}

// vfsSleep sleeps in steps of at most 10 ms and returns early once the
// read is canceled, so that waiting on a lock ends with it.
static int vfsSleep(sqlite3_vfs *base, int us) {
	scout_vfs *v = (scout_vfs *)base;
	int left = us;
	while (left > 0 && !canceled(v)) {
		int step = left < 10000 ? left : 10000;
		v->os->xSleep(v->os, step);
		left -= step;
	}
	return us;
}

static int currentTime(sqlite3_vfs *base, double *t) {
	sqlite3_vfs *os = ((scout_vfs *)base)->os;
	return os->xCurrentTime(os, t);
}

static int lastError(sqlite3_vfs *base, int n, char *msg) { return 0; }

static int currentTimeInt64(sqlite3_vfs *base, sqlite3_int64 *t) {
	sqlite3_vfs *os = ((scout_vfs *)base)->os;
	if (os->iVersion >= 2 && os->xCurrentTimeInt64) {
		return os->xCurrentTimeInt64(os, t);
	}
	double d;
	int rc = os->xCurrentTime(os, &d);
	*t = (sqlite3_int64)(d * 86400000.0);
	return rc;
}

// ---- the authorizer ----

// The PRAGMAs a statement may run: those that report a setting, without a
// value, and those that describe the schema, with a table or index name or
// none. Other PRAGMAs set something, of the connection or of the process.
static const char *const reportPragmas[] = {
	"application_id", "auto_vacuum", "collation_list", "compile_options", "data_version",
	"database_list", "encoding", "foreign_keys", "freelist_count", "function_list",
	"module_list", "page_count", "page_size", "pragma_list", "schema_version", "user_version",
	NULL,
};
static const char *const schemaPragmas[] = {
	"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
	NULL,
};

// The functions a statement never calls: they load code or change what
// SQLite does beyond the statement.
static const char *const refusedFuncs[] = {"load_extension", "fts3_tokenizer", NULL};

static int listed(const char *const *list, const char *name) {
	for (; name && *list; list++) {
		if (strcasecmp(*list, name) == 0) {
			return 1;
		}
	}
	return 0;
}

static void keep(char *dst, const char *src) {
	dst[0] = 0;
	if (src) {
		strncpy(dst, src, 127);
		dst[127] = 0;
	}
}

// authorize allows reading a table or view, a function other than
// refusedFuncs, a recursive query and the PRAGMAs above; it refuses the
// rest (writing, ATTACH, transactions, PRAGMAs that set) and records why.
static int authorize(void *arg, int op, const char *a1, const char *a2, const char *dbName, const char *trigger) {
	scout_vfs *v = arg;
	switch (op) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_FUNCTION:
		if (!listed(refusedFuncs, a2)) {
			return SQLITE_OK;
		}
		break;
	case SQLITE_PRAGMA:
		if (listed(schemaPragmas, a1) || (listed(reportPragmas, a1) && a2 == NULL)) {
			return SQLITE_OK;
		}
		break;
	}
	v->refusedOp = op;
	v->refusedHas2 = a2 != NULL;
	keep(v->refused1, a1);
	keep(v->refused2, a2);
	return SQLITE_DENY;
}

int scout_vfs_guard(scout_vfs *v) {
	if (!v->db) {
		return -1;
	}
	return sqlite3_set_authorizer(v->db, authorize, v) == SQLITE_OK ? 0 : -1;
}

int scout_vfs_refused(scout_vfs *v, const char **a1, const char **a2, int *has2) {
	*a1 = v->refused1;
	*a2 = v->refused2;
	*has2 = v->refusedHas2;
	return v->refusedOp;
}

void scout_vfs_forget(scout_vfs *v) { v->refusedOp = 0; }

scout_vfs *scout_vfs_new(const char *name, sqlite3_int64 temp_max) {
	sqlite3_vfs *os = sqlite3_vfs_find(NULL);
	scout_vfs *v = calloc(1, sizeof *v);
	if (!v || !os) {
		free(v);
		return NULL;
	}
	v->os = os;
	strncpy(v->name, name, sizeof v->name - 1);
	for (int i = 0; i < SCOUT_NSRC; i++) {
		v->src[i].fd = -1;
	}
	v->temp_max = temp_max;
	v->refs = 1;
	sqlite3_vfs *b = &v->base;
	b->iVersion = 2;
	b->szOsFile = sizeof(file);
	b->mxPathname = 4096;
	b->zName = v->name;
	b->pAppData = v;
	b->xOpen = vfsOpen;
	b->xDelete = vfsDelete;
	b->xAccess = vfsAccess;
	b->xFullPathname = vfsFullPathname;
	b->xDlOpen = dlOpen;
	b->xDlError = dlError;
	b->xDlSym = dlSym;
	b->xDlClose = dlClose;
	b->xRandomness = randomness;
	b->xSleep = vfsSleep;
	b->xCurrentTime = currentTime;
	b->xGetLastError = lastError;
	b->xCurrentTimeInt64 = currentTimeInt64;
	if (sqlite3_vfs_register(b, 0) != SQLITE_OK) {
		free(v);
		return NULL;
	}
	return v;
}

void scout_vfs_set_fd(scout_vfs *v, int i, int fd) {
	v->src[i].fd = fd;
	v->src[i].present = 1;
}

void scout_vfs_set_mem(scout_vfs *v, int i, unsigned char *mem, sqlite3_int64 size) {
	v->src[i].mem = mem;
	v->src[i].size = size;
	v->src[i].present = 1;
}

void scout_vfs_cancel(scout_vfs *v) { __atomic_store_n(&v->canceled, 1, __ATOMIC_RELEASE); }

int scout_vfs_temp_full(scout_vfs *v) { return __atomic_load_n(&v->temp_full, __ATOMIC_ACQUIRE); }

void scout_vfs_release(scout_vfs *v) {
	sqlite3_vfs_unregister(&v->base);
	unref(v);
}
