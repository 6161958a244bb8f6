//go:build unix

package scout_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestReadSymlinkedDir reads a directory through a symlink inside the
// root (and through a link to that link), as a file is read through one:
// the listing is the target's, under the name given. On the OS file system
// it was an INTERNAL_ERROR "open dl: not a directory".
func TestReadSymlinkedDir(t *testing.T) {
	m := fstest.MapFS{
		"d/in.txt":   {Data: []byte("inside\n")},
		"d/sub/x.go": {Data: []byte("package x\n")},
		"dl":         {Data: []byte("d"), Mode: fs.ModeSymlink | 0o777},
		"l2":         {Data: []byte("dl"), Mode: fs.ModeSymlink | 0o777},
	}
	for _, tree := range testfs.Trees(t, m) {
		r := scout.Reader{Workspace: scout.Workspace{FS: tree.FS, Root: tree.Root}}
		for _, p := range []string{"dl", "dl/", "l2", "dl:1-2"} {
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: p})
			if err != nil {
				t.Errorf("%s %s: %v", tree.Name, p, err)
				continue
			}
			text := format.ReadText(res, nil)
			if !strings.Contains(text, "in.txt") && p != "dl:1-2" || res.Kind != scout.ReadKindDirectory {
				t.Errorf("%s %s: %s %q", tree.Name, p, res.Kind, text)
			}
		}
	}
}
