package scout

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// Workspace is the tree a tool works on. Finder, Searcher and Reader each
// embed one; its zero value is the current directory.
//
// Paths given to a tool are slash-separated and relative to the root, as in
// io/fs; an absolute OS path is accepted when it lies inside Root and is
// rejected with ACCESS_DENIED otherwise. Display paths in results are always
// relative to the root.
//
// Optional abilities of FS are used when present: fs.ReadLinkFS (symlinks
// are listed, never followed), fs.StatFS, fs.ReadDirFS, and io.ReaderAt on
// opened files (archives and databases are then read in place instead of
// being copied into memory).
type Workspace struct {
	// FS is the tree. nil means the OS directory Root, opened with
	// os.OpenRoot, so that ".." and symlinks cannot escape it.
	FS fs.FS
	// Root is the OS directory that FS stands for. It maps absolute input
	// paths to FS paths. "" means the current directory when FS is nil; when
	// FS is set, "" means absolute input paths are refused.
	Root string
}

// open returns the FS to use, the absolute root ("" if unknown) and a
// function that releases what open acquired.
func (w Workspace) open() (fs.FS, string, func(), error) {
	if w.FS != nil {
		root := w.Root
		if root != "" {
			if abs, err := filepath.Abs(root); err == nil {
				root = abs
			}
		}
		return w.FS, root, func() {}, nil
	}
	dir := w.Root
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, "", nil, &Error{Code: CodeInternal, Message: "cannot determine the current directory: " + err.Error(), Err: err}
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", nil, &Error{Code: CodeInvalidParam, Message: "invalid root " + dir + ": " + err.Error(), Err: err}
	}
	fsys, closeFn, err := fsx.OpenDir(abs)
	if err != nil {
		return nil, "", nil, &Error{Code: CodeNotFound, Path: abs, Message: "Root directory '" + abs + "' cannot be opened: " + err.Error(), Err: err}
	}
	return fsys, abs, closeFn, nil
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
			return &Error{Code: CodeInvalidParam, Path: p, Message: "Too many levels of symlinks in '" + p + "'."}
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

// OpenFS returns the workspace's tree, the same one the tools use, and a
// function that releases it. Hosts use it to check paths before a call.
func (w Workspace) OpenFS() (fs.FS, func(), error) {
	fsys, _, release, err := w.open()
	return fsys, release, err
}
