package scout

import (
	"io/fs"

	"github.com/scoutkit/scout/internal/pathutil"
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
	fsys, root, release, err := pathutil.Open(w.FS, w.Root)
	return fsys, root, release, exportErr(err)
}
