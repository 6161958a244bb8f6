package search

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// deniedFS fails every Stat with the error of its path, as a host FS or
// the OS does for a path it refuses.
type deniedFS struct {
	fstest.MapFS
	errs map[string]error
}

func (d deniedFS) Stat(name string) (fs.FileInfo, error) {
	if err, ok := d.errs[name]; ok {
		return nil, err
	}
	return d.MapFS.Stat(name)
}

// TestStatErrorAccessDenied: only a path the FS refuses as outside the root
// is said to lead out through a symlink; a plain permission error keeps
// its own message.
func TestStatErrorAccessDenied(t *testing.T) {
	fsys := deniedFS{fstest.MapFS{}, map[string]error{
		"out":    &fs.PathError{Op: "stat", Path: "out", Err: fsx.ErrOutsideRoot},
		"locked": &fs.PathError{Op: "stat", Path: "locked", Err: fs.ErrPermission},
	}}
	for entry, want := range map[string]string{
		"out":    "Access denied: 'out' leads outside the project root through a symlink. Use a path inside the root.",
		"locked": "Cannot search 'locked': stat locked: permission denied",
	} {
		_, err := Resolve(context.Background(), fsys, "", []string{entry}, ResolveOptions{})
		if errs.CodeOf(err) != errs.AccessDenied || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ACCESS_DENIED %q", entry, err, want)
		}
	}
}
