package pathutil

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// Open returns the tree of a workspace, its absolute OS root ("" if
// unknown) and a function that releases what Open acquired. fsys nil means
// the OS directory root ("" is the current directory), opened so that ".."
// and symlinks cannot leave it.
func Open(fsys fs.FS, root string) (fs.FS, string, func(), error) {
	if fsys != nil {
		if root != "" {
			if abs, err := filepath.Abs(root); err == nil {
				root = abs
			}
		}
		return fsys, root, func() {}, nil
	}
	abs, err := AbsRoot(root)
	if err != nil {
		return nil, "", nil, err
	}
	osfs, closeFn, err := fsx.OpenDir(abs)
	if err != nil {
		return nil, "", nil, &errs.Error{Code: errs.NotFound, Path: abs, Message: errs.Sprintf("Root directory '%s' cannot be opened: %v", errs.Echo(abs), err), Err: err}
	}
	return osfs, abs, closeFn, nil
}

// AbsRoot returns the absolute form of the OS directory root ("" is the
// current directory) without opening it.
func AbsRoot(root string) (string, error) {
	dir := root
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", &errs.Error{Code: errs.Internal, Message: "cannot determine the current directory: " + err.Error(), Err: err}
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", &errs.Error{Code: errs.InvalidParam, Message: errs.Sprintf("invalid root %s: %v", errs.Echo(dir), err), Err: err}
	}
	return abs, nil
}

// Stat returns the FileInfo of the FS path p with symlinks followed, once
// CheckInside has followed them itself: a path that leads outside the tree
// through a symlink is an ACCESS_DENIED error, a symlink loop (more than
// MaxSymlinkHops links) an INVALID_PARAM error, and a missing path
// fs.ErrNotExist. Every stat of a path a caller gave goes through it: an
// FS that follows symlinks without a hop limit (fstest.MapFS recurses
// until its stack overflows) is never asked to follow a loop.
func Stat(fsys fs.FS, p string) (fs.FileInfo, error) {
	return Dirs(nil).Stat(fsys, p)
}

// Dirs remembers the directories that CheckInside found to be directories
// reached through no symlink, so that later paths under them are checked
// with an lstat of their own elements only: a caller that checks many
// paths of one tree at once (the files a search names) keeps one. nil
// remembers nothing. A Dirs is not safe for concurrent use.
type Dirs map[string]bool

// Stat is Stat, checking with d.
func (d Dirs) Stat(fsys fs.FS, p string) (fs.FileInfo, error) {
	_, info, err := d.checkInside(fsys, p)
	if err != nil || info != nil {
		return info, err
	}
	return fs.Stat(fsys, p)
}

// Exists reports whether the user path p, resolved against root (Resolve),
// is found by d.Stat; a path Resolve refuses does not exist.
func (d Dirs) Exists(fsys fs.FS, root, p string) bool {
	rp, err := Resolve(root, p)
	if err != nil {
		return false
	}
	_, err = d.Stat(fsys, rp)
	return err == nil
}

// ContainerOutside returns CheckInside's error for the first part of the
// user path p before one of its first maxContainerColons colons that leads
// outside the tree through a symlink, or through a loop ("ln.zip" of
// "ln.zip:m.txt", "x.db" of "x.db:t"); nil when none does. A tool calls it
// before it says such a path does not exist: a path that names something
// inside a container is refused as the container is, also by a tool that
// does not look inside containers. root is the OS root Resolve takes.
func ContainerOutside(fsys fs.FS, root, p string) error {
	if fsys == nil {
		return nil
	}
	colons := 0
	for i := 1; i < len(p) && colons < maxContainerColons; i++ {
		if p[i] != ':' {
			continue
		}
		colons++
		q, err := Resolve(root, p[:i])
		if err != nil {
			continue
		}
		if err := CheckInside(fsys, q); err != nil {
			return err
		}
	}
	return nil
}

// maxContainerColons bounds the prefixes ContainerOutside checks: a
// container path has one colon after its container ("a.zip:src/f.ts:5-9"
// has two), and each prefix costs a stat per name in it.
const maxContainerColons = 4

// MaxSymlinkHops is the number of symlinks CheckInside follows on the way
// to one path before it calls them a loop, as Linux does (ELOOP).
const MaxSymlinkHops = 40

// CheckInside reports an ACCESS_DENIED error when the FS path p, or any
// symlink on the way to it, leads outside the tree, and an INVALID_PARAM
// error when more than MaxSymlinkHops symlinks lie on the way (a loop). It
// needs fs.ReadLinkFS to see symlinks; without it the FS is trusted to
// contain its own paths.
func CheckInside(fsys fs.FS, p string) error {
	_, _, err := Dirs(nil).checkInside(fsys, p)
	return err
}

// RealPath returns the FS path that p leads to with every symlink on the
// way followed, or CheckInside's error. p itself when fsys reads no
// symlinks, or when a part of the way is missing.
func RealPath(fsys fs.FS, p string) (string, error) {
	real, _, err := Dirs(nil).checkInside(fsys, p)
	return real, err
}

// checkInside is CheckInside that also returns RealPath's path; when p was
// reached through no symlink, it also returns the FileInfo of p that its
// lstat got, which is then p's Stat. A nil FileInfo tells nothing.
func (d Dirs) checkInside(fsys fs.FS, p string) (string, fs.FileInfo, error) {
	if _, ok := fsys.(fs.ReadLinkFS); !ok || p == "." {
		return p, nil, nil
	}
	denied := errs.SymlinkOut(p, nil)
	rest := strings.Split(p, "/")
	cur := "."
	for hops := 0; len(rest) > 0; {
		next := path.Join(cur, rest[0])
		rest = rest[1:]
		if len(rest) > 0 && d[next] {
			cur = next
			continue
		}
		info, err := fs.Lstat(fsys, next)
		if err != nil {
			return p, nil, nil // missing parts are the caller's NOT_FOUND
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			if len(rest) == 0 && hops == 0 {
				return p, info, nil // p itself, named as the caller named it
			}
			if d != nil && len(rest) > 0 && info.IsDir() {
				d[next] = true // cur holds no symlink: next is a real path from the root
			}
			cur = next
			continue
		}
		if hops++; hops > MaxSymlinkHops {
			return "", nil, errs.SymlinkLoop(p, nil)
		}
		target, err := fs.ReadLink(fsys, next)
		if err != nil {
			return p, nil, nil
		}
		if path.IsAbs(target) {
			return "", nil, denied
		}
		resolved := path.Join(path.Dir(next), target)
		if resolved == ".." || strings.HasPrefix(resolved, "../") {
			return "", nil, denied
		}
		rest = append(strings.Split(resolved, "/"), rest...)
		cur = "."
	}
	return cur, nil, nil
}
