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
	dir := root
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, "", nil, &errs.Error{Code: errs.Internal, Message: "cannot determine the current directory: " + err.Error(), Err: err}
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", nil, &errs.Error{Code: errs.InvalidParam, Message: "invalid root " + dir + ": " + err.Error(), Err: err}
	}
	osfs, closeFn, err := fsx.OpenDir(abs)
	if err != nil {
		return nil, "", nil, &errs.Error{Code: errs.NotFound, Path: abs, Message: "Root directory '" + abs + "' cannot be opened: " + err.Error(), Err: err}
	}
	return osfs, abs, closeFn, nil
}

// CheckInside reports an ACCESS_DENIED error when the FS path p, or any
// symlink on the way to it, leads outside the tree. It needs fs.ReadLinkFS
// to see symlinks; without it the FS is trusted to contain its own paths.
func CheckInside(fsys fs.FS, p string) error {
	if _, ok := fsys.(fs.ReadLinkFS); !ok || p == "." {
		return nil
	}
	denied := errs.SymlinkOut(p, nil)
	rest := strings.Split(p, "/")
	cur := "."
	for hops := 0; len(rest) > 0; {
		next := path.Join(cur, rest[0])
		rest = rest[1:]
		info, err := fs.Lstat(fsys, next)
		if err != nil {
			return nil // missing parts are the caller's NOT_FOUND
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > 40 {
			return &errs.Error{Code: errs.InvalidParam, Path: p, Message: "Too many levels of symlinks in '" + p + "'."}
		}
		target, err := fs.ReadLink(fsys, next)
		if err != nil {
			return nil
		}
		if path.IsAbs(target) {
			return denied
		}
		resolved := path.Join(path.Dir(next), target)
		if resolved == ".." || strings.HasPrefix(resolved, "../") {
			return denied
		}
		rest = append(strings.Split(resolved, "/"), rest...)
		cur = "."
	}
	return nil
}
