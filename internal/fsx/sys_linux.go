package fsx

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysCalls makes the system calls on a directory and the files opened
// through it. With direct set they bypass the Go scheduler's system call
// hand-off (RawSyscall): on a local file system a call returns in
// microseconds, and the hand-off (the scheduler's monitor taking the
// processor of a goroutine in a call and waking another thread) costs more
// than the call when a search makes tens of thousands of them. Elsewhere (a
// network or FUSE file system, where a call may block for long) they go
// through the scheduler, so that one blocked call never stalls the rest.
type sysCalls struct{ direct bool }

// localFS reports the file system types (as /proc/self/mountinfo names
// them) whose calls are made directly: disk and memory file systems of the
// kernel.
func localFS(fstype string) bool {
	switch fstype {
	case "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs",
		"tmpfs", "ramfs", "overlay", "squashfs", "erofs",
		"vfat", "msdos", "exfat", "ntfs3", "zfs", "bcachefs":
		return true
	}
	return false
}

// mounts tells, for the directories below a root, whether their file
// system is local. It is read once from /proc/self/mountinfo: the mount
// points at or above the root and those below it, each with its type.
type mounts struct {
	rootLocal bool
	below     []mountPoint // mount points below the root, deepest first
}

type mountPoint struct {
	rel   string // slash path relative to the root
	local bool
}

// readMounts builds the table for the directory real (an absolute path
// without symlinks) from the text of /proc/self/mountinfo. A later mount
// on the same point hides an earlier one. Without a readable table every
// directory counts as not local.
func readMounts(real, mountinfo string) mounts {
	var m mounts
	byPoint := map[string]bool{}
	var order []string
	for _, line := range strings.Split(mountinfo, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		fields, after := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(after) < 1 {
			continue
		}
		point := unescapeMount(fields[4])
		if _, seen := byPoint[point]; !seen {
			order = append(order, point)
		}
		byPoint[point] = localFS(after[0])
	}
	best := ""
	for _, point := range order {
		switch {
		case point == real || point == "/" || strings.HasPrefix(real, point+"/"):
			if len(point) >= len(best) {
				best, m.rootLocal = point, byPoint[point]
			}
		case strings.HasPrefix(point, real+"/") || real == "/":
			m.below = append(m.below, mountPoint{rel: strings.TrimPrefix(point[len(real):], "/"), local: byPoint[point]})
		}
	}
	slices.SortFunc(m.below, func(a, b mountPoint) int { return len(b.rel) - len(a.rel) })
	return m
}

// unescapeMount undoes the octal escapes (\040 for a space) of mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// sysFor returns how to make the calls on the directory rel (a slash path
// relative to the root, "." for the root): directly when it lies on a
// local file system.
func (m *mounts) sysFor(rel string) sysCalls {
	for _, p := range m.below {
		if rel == p.rel || strings.HasPrefix(rel, p.rel+"/") {
			return sysCalls{direct: p.local}
		}
	}
	return sysCalls{direct: m.rootLocal}
}

// cString returns name as a NUL-terminated C string, in buf when it fits
// (no allocation for a directory entry's name), else on the heap.
func cString(buf *[256]byte, name string) (*byte, error) {
	if len(name) >= len(buf) || strings.IndexByte(name, 0) >= 0 {
		return unix.BytePtrFromString(name)
	}
	copy(buf[:], name)
	buf[len(name)] = 0
	return &buf[0], nil
}

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

func (s sysCalls) openat(dirfd int, name string, flags int) (int, error) {
	if !s.direct {
		return unix.Openat(dirfd, name, flags, 0)
	}
	var buf [256]byte
	p, err := cString(&buf, name)
	if err != nil {
		return -1, err
	}
	fd, _, e := unix.RawSyscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags), 0, 0, 0)
	return int(fd), errnoErr(e)
}

func (s sysCalls) openat2(dirfd int, name string, how *unix.OpenHow) (int, error) {
	if !s.direct {
		return unix.Openat2(dirfd, name, how)
	}
	var buf [256]byte
	p, err := cString(&buf, name)
	if err != nil {
		return -1, err
	}
	fd, _, e := unix.RawSyscall6(unix.SYS_OPENAT2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(how)), unix.SizeofOpenHow, 0, 0)
	return int(fd), errnoErr(e)
}

func (s sysCalls) read(fd int, b []byte) (int, error) {
	if !s.direct || len(b) == 0 {
		return unix.Read(fd, b)
	}
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), errnoErr(e)
}

func (s sysCalls) getdents(fd int, b []byte) (int, error) {
	if !s.direct || len(b) == 0 {
		return unix.Getdents(fd, b)
	}
	n, _, e := unix.RawSyscall(unix.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), errnoErr(e)
}

func (s sysCalls) close(fd int) error {
	if !s.direct {
		return unix.Close(fd)
	}
	_, _, e := unix.RawSyscall(unix.SYS_CLOSE, uintptr(fd), 0, 0)
	return errnoErr(e)
}
