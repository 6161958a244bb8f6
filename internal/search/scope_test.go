package search

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
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

// TestResolveMany: a long list of entries, resolved on several processors,
// gives the scope of resolving them one after another: targets and missing
// entries in order, duplicates once, globs, directories, archives, their
// members and the members left out, and the first error in order.
func TestResolveMany(t *testing.T) {
	m := fstest.MapFS{"a.zip": {Data: testfs.Zip(testfs.Files(map[string]string{"m.txt": "x", "b.bin": "\x00\x01"})...)}}
	var entries []string
	for i := range 300 {
		p := fmt.Sprintf("d%d/e%d/f%d.go", i%5, i%7, i)
		m[p] = &fstest.MapFile{Data: []byte("x")}
		entries = append(entries, p)
		switch i % 50 {
		case 3:
			entries = append(entries, p) // a duplicate
		case 7:
			entries = append(entries, fmt.Sprintf("gone%d.go", i))
		case 11:
			entries = append(entries, "d1/**/*.go", "d2", "a.zip", "a.zip:m.txt", "a.zip:b.bin")
		}
	}
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	for _, tree := range openTrees(t, m) {
		fsys, root := tree.FS, tree.Root
		for _, c := range []struct {
			entries []string
			reason  string
		}{
			{entries, "files, duplicates, missing files, a glob, a directory, an archive and a member"},
			{append(slices.Clone(entries[:100]), "", "d3"), "an empty entry: the first error in order"},
			{append(slices.Clone(entries[:100]), "a.zip:gone.txt", ""), "a missing member, then an empty entry: the error"},
		} {
			resolve := func(min int) (*Scope, error) {
				defer func(old int) { minPreResolve = old }(minPreResolve)
				minPreResolve = min
				return Resolve(context.Background(), fsys, root, c.entries, ResolveOptions{})
			}
			want, wantErr := resolve(1 << 30) // in order, one by one
			got, err := resolve(8)
			assert.Equal(t, wantErr, err, "%s: %s", tree.Name, c.reason)
			assert.Equal(t, globless(want), globless(got), "%s: %s", tree.Name, c.reason)
			if wantErr == nil {
				assert.Len(t, got.Missing, 6, "%s: %s", tree.Name, c.reason)
				assert.Len(t, got.BadMembers, 1, "%s: %s", tree.Name, c.reason)
			}
		}
	}
}

// openTrees returns testfs.Trees of m, the directory opened as an FS (and
// closed when the test ends).
func openTrees(t *testing.T, m fstest.MapFS) []testfs.Tree {
	trees := testfs.Trees(t, m)
	for i := range trees {
		if trees[i].FS == nil {
			fsys, release, err := fsx.OpenDir(trees[i].Root)
			require.NoError(t, err)
			t.Cleanup(release)
			trees[i].FS = fsys
		}
	}
	return trees
}

// globless returns the targets of sc with each compiled glob replaced by
// whether there is one (a compiled pattern holds caches that differ).
func globless(sc *Scope) []any {
	if sc == nil {
		return nil
	}
	var out []any
	for _, t := range sc.Targets {
		hasGlob := t.Glob != nil
		t.Glob = nil
		out = append(out, t, hasGlob)
	}
	return append(out, sc.Missing, sc.BadMembers)
}

// TestResolveMissingMember: a member that an existing archive does not
// hold is a missing entry, as a missing file is: left out (and listed)
// when other entries exist, its own NOT_FOUND error when it is the only
// one, and "Path not found" with the others when every entry is missing.
func TestResolveMissingMember(t *testing.T) {
	m := fstest.MapFS{
		"a.zip": {Data: testfs.Zip(testfs.Files(map[string]string{"src/m.txt": "x"})...)},
		"f.txt": {Data: []byte("x")},
	}
	tests := []struct {
		entries     []string
		targets     []string // Target.Path
		missing     []string
		err, reason string
	}{
		{[]string{"a.zip:src/nope.txt", "f.txt"}, []string{"f.txt"}, []string{"a.zip:src/nope.txt"}, "", "a missing member beside a file is skipped"},
		{[]string{"f.txt", "a.zip:nodir/*.txt"}, []string{"f.txt"}, []string{"a.zip:nodir/*.txt"}, "", "a glob below a missing directory of the archive too"},
		{[]string{"a.zip:src/m.txt", "a.zip:src/nope.txt"}, []string{"a.zip:src/m.txt"}, []string{"a.zip:src/nope.txt"}, "", "beside a member that exists"},
		{[]string{"a.zip:src/nope.txt"}, nil, nil, "Path 'src/nope.txt' not found inside archive", "alone, the archive's own error"},
		{[]string{"a.zip:src/nope.txt", "gone.txt"}, nil, nil, "Path not found: a.zip:src/nope.txt, gone.txt", "all missing"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			sc, err := Resolve(context.Background(), m, "", tt.entries, ResolveOptions{})
			if tt.err != "" {
				require.Error(t, err)
				assert.Equal(t, errs.NotFound, errs.CodeOf(err))
				assert.Equal(t, tt.err, err.Error())
				return
			}
			require.NoError(t, err)
			var got []string
			for _, tg := range sc.Targets {
				got = append(got, tg.Path)
			}
			assert.Equal(t, tt.targets, got)
			assert.Equal(t, tt.missing, sc.Missing)
		})
	}
}
