package search

import (
	"bytes"
	"context"
	"encoding/binary"
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
	"github.com/scoutkit/scout/internal/grep"
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
		{[]string{"a.zip:src/nope.txt"}, nil, nil, "Path 'a.zip:src/nope.txt' not found inside archive", "alone, its own error naming the whole entry, as read names it"},
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

// openDeniedFS fails the Open of the files in its set with a permission
// error, as the OS does for a file its mode forbids reading.
type openDeniedFS struct {
	fstest.MapFS
	denied map[string]bool
}

func (d openDeniedFS) Open(name string) (fs.File, error) {
	if d.denied[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.Open(name)
}

// unreadableTree holds archives that cannot be read: not archives at all,
// a truncated zip, a zip with a corrupt member, a zip over a limit (its
// entries overlap), a tar link, a tar corrupt after its first member;
// beside a good zip and tar and a text file.
func unreadableTree() fstest.MapFS {
	good := testfs.Zip(testfs.Files(map[string]string{"src/x.txt": "needle\n", "logo.png": "\x00needle"})...)
	flate := testfs.Zip(testfs.Member{Name: "f.txt", Body: strings.Repeat("hello world ", 500)})
	for i := 40; i < 60; i++ {
		flate[i] ^= 0xff // the deflate stream of f.txt
	}
	lines := strings.Repeat("aaaaaaa\n", 1<<20)
	overlap := testfs.Zip(testfs.Member{Name: "a", Body: lines}, testfs.Member{Name: "b", Body: lines})
	second := bytes.LastIndex(overlap, []byte("PK\x01\x02"))
	binary.LittleEndian.PutUint32(overlap[second+42:], 0) // b's record is a's
	return fstest.MapFS{
		"bad.zip":    {Data: []byte("junk")},
		"bad.tgz":    {Data: []byte("junk")},
		"bad.tar":    {Data: []byte(strings.Repeat("garbage ", 100))},
		"bad.tar.gz": {Data: []byte("junk")},
		"cut.tar":    {Data: cutTar()},
		"trunc.zip":  {Data: good[:100]},
		"flate.zip":  {Data: flate},
		"over.zip":   {Data: overlap},
		"link.tar":   {Data: testfs.Tar(testfs.Member{Name: "x.txt", Body: "needle\n"}, testfs.Member{Name: "lnk", Link: "x.txt"})},
		"good.zip":   {Data: good},
		"good.tgz":   {Data: testfs.Tgz(testfs.Files(map[string]string{"src/x.txt": "needle\n"})...)},
		"top.txt":    {Data: []byte("needle\n")},
	}
}

// cutTar is a tar whose first member, x.txt, is whole and whose second
// header is corrupt.
func cutTar() []byte {
	b := testfs.Tar(testfs.Member{Name: "x.txt", Body: "needle\n"}, testfs.Member{Name: "y.txt", Body: "needle\n"})
	copy(b[1024+148:], "garbage!") // the second header's checksum
	return b
}

// TestResolveUnreadableArchive: an entry naming a member, a directory or a
// glob inside an archive that cannot be read (not a valid zip, tar or
// gzip stream, truncated, a corrupt member, a link) is left out as
// unreadable, and one in an archive over a limit as too large, with what
// failed; the other entries are searched. When nothing else remains, the
// error names them all. A bare archive name that is not an archive is a
// file, and one over a limit still an archive; failures that are not the
// archive's own (cancellation, a permission error, a bad glob) stay
// errors.
func TestResolveUnreadableArchive(t *testing.T) {
	unreadable := func(path, why string) BadMember {
		return BadMember{Path: path, Reason: SkipError, Code: errs.Unsupported, Why: why}
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		entries []string
		ctx     context.Context
		targets []string // Target.Path, with "(archive)" for an archive target
		bad     []BadMember
		code    errs.Code
		err     string
		reason  string
	}{
		{entries: []string{"bad.zip:src/x.txt", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("bad.zip:src/x.txt", "not a valid zip file")},
			reason: "a member of a file that is not a zip is left out; the other entry is searched"},
		{entries: []string{"bad.zip:src/", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("bad.zip:src/", "not a valid zip file")},
			reason: "a directory inside it, named as given"},
		{entries: []string{"bad.zip:**/*.go", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("bad.zip:**/*.go", "not a valid zip file")},
			reason: "a glob from its root"},
		{entries: []string{"trunc.zip:src/x.txt", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("trunc.zip:src/x.txt", "not a valid zip file")},
			reason: "a truncated zip"},
		{entries: []string{"bad.tgz:src/x.txt", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("bad.tgz:src/x.txt", "not a valid gzip stream (unexpected EOF)")},
			reason: "a .tgz that is not gzip"},
		{entries: []string{"bad.tar:**/*.txt", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("bad.tar:**/*.txt", "it is corrupt or truncated (archive/tar: invalid tar header)")},
			reason: "a glob from the root of a file that is not a tar: its first header is no tar header"},
		{entries: []string{"bad.tar:src/", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("bad.tar:src/", "it is corrupt or truncated (archive/tar: invalid tar header)")},
			reason: "a directory inside it"},
		{entries: []string{"flate.zip:f.txt", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("flate.zip:f.txt", "Archive entry 'f.txt' is corrupt: flate: corrupt input before offset 9")},
			reason: "a corrupt member of a valid zip"},
		{entries: []string{"link.tar:lnk", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{unreadable("link.tar:lnk", "Archive entry 'lnk' is a link to 'x.txt'; read link.tar:x.txt instead")},
			reason: "a link member, with the member to read instead"},
		{entries: []string{"over.zip:a", "top.txt"}, targets: []string{"top.txt"},
			bad:    []BadMember{{Path: "over.zip:a", Reason: SkipTooLarge, Why: "its entries overlap (entries share compressed data), the mark of a zip bomb, so it is not read"}},
			reason: "an archive over a limit: too large, with the limit"},
		{entries: []string{"bad.zip:a", "good.zip:logo.png", "good.zip:src/x.txt", "bad.tgz:b"}, targets: []string{"good.zip:src/x.txt"},
			bad:    []BadMember{unreadable("bad.zip:a", "not a valid zip file"), {Path: "good.zip:logo.png", Reason: SkipBinary}, unreadable("bad.tgz:b", "not a valid gzip stream (unexpected EOF)")},
			reason: "unreadable and binary members together, in order"},
		{entries: []string{"bad.zip:src/x.txt"}, code: errs.Unsupported,
			err:    "Cannot search archive member(s): bad.zip:src/x.txt (not a valid zip file). Search supports text members only.",
			reason: "alone, the error names it"},
		{entries: []string{"bad.zip:a", "good.zip:logo.png", "over.zip:b"}, code: errs.Unsupported,
			err:    "Cannot search archive member(s): bad.zip:a (not a valid zip file), good.zip:logo.png (binary), over.zip:b (its entries overlap (entries share compressed data), the mark of a zip bomb, so it is not read). Search supports text members only.",
			reason: "nothing else: the error names them all"},
		{entries: []string{"bad.zip", "bad.zip:src/x.txt"}, targets: []string{"bad.zip"},
			bad:    []BadMember{unreadable("bad.zip:src/x.txt", "not a valid zip file")},
			reason: "a bare name that is not an archive is searched as a file"},
		{entries: []string{"bad.tar", "bad.tar:src/x.txt"}, targets: []string{"bad.tar"},
			bad:    []BadMember{unreadable("bad.tar:src/x.txt", "it is corrupt or truncated (archive/tar: invalid tar header)")},
			reason: "a tar too: its first header decides, as a zip's directory does"},
		{entries: []string{"bad.tgz", "bad.tar.gz"}, targets: []string{"bad.tgz", "bad.tar.gz"},
			reason: "and a .tgz or .tar.gz that is not gzip"},
		{entries: []string{"cut.tar", "cut.tar:**/*.txt"}, targets: []string{"cut.tar (archive)", "cut.tar (archive)"},
			reason: "a tar whose first header reads is an archive, corrupt further on or not: the search counts it unreadable"},
		{entries: []string{"cut.tar:x.txt", "cut.tar:y.txt", "top.txt"}, targets: []string{"cut.tar:x.txt", "top.txt"},
			bad:    []BadMember{unreadable("cut.tar:y.txt", "it is corrupt or truncated (archive/tar: invalid tar header)")},
			reason: "a member after the corrupt header is unreadable, one before it is read"},
		{entries: []string{"over.zip"}, targets: []string{"over.zip (archive)"},
			reason: "a bare archive over a limit is an archive, which the search counts as too large"},
		{entries: []string{"good.tgz:**/*.txt", "good.zip:src/"}, targets: []string{"good.tgz (archive)", "good.zip (archive)"},
			reason: "readable archives are targets"},
		{entries: []string{"bad.zip:src/x.txt", "top.txt"}, ctx: canceled, code: errs.Canceled,
			err: "context canceled", reason: "a canceled search stays an error"},
		{entries: []string{"bad.zip:[", "top.txt"}, code: errs.InvalidParam,
			err: "", reason: "a bad glob stays an error"},
	}
	for _, tree := range openTrees(t, unreadableTree()) {
		for _, tt := range tests {
			t.Run(tree.Name+"/"+tt.reason, func(t *testing.T) {
				ctx := tt.ctx
				if ctx == nil {
					ctx = context.Background()
				}
				sc, err := Resolve(ctx, tree.FS, tree.Root, tt.entries, ResolveOptions{})
				if tt.code != "" {
					require.Error(t, err)
					assert.Equal(t, tt.code, errs.CodeOf(err))
					if tt.err != "" {
						assert.Equal(t, tt.err, err.Error())
					}
					return
				}
				require.NoError(t, err)
				var got []string
				for _, tg := range sc.Targets {
					if tg.Archive {
						tg.Path += " (archive)"
					}
					got = append(got, tg.Path)
				}
				assert.Equal(t, tt.targets, got)
				assert.Equal(t, tt.bad, sc.BadMembers)
				assert.Empty(t, sc.Missing)
			})
		}
	}
}

// TestResolveArchiveDenied: an archive the FS refuses to open is the
// entry's error, not an unreadable archive.
func TestResolveArchiveDenied(t *testing.T) {
	fsys := openDeniedFS{unreadableTree(), map[string]bool{"good.zip": true}}
	_, err := Resolve(context.Background(), fsys, "", []string{"good.zip:src/x.txt", "top.txt"}, ResolveOptions{})
	require.Error(t, err)
	assert.Equal(t, errs.AccessDenied, errs.CodeOf(err))
	assert.Contains(t, err.Error(), "permission denied")
}

// TestRunUnreadableArchive: an archive over a limit named bare is counted
// as too large by the search, as one that goes over a cap part way is; a
// tar corrupt after its first member is searched up to there and counted
// unreadable, with its error; a file named .tar or .tgz that is none is
// searched as a file; the other entries are searched.
func TestRunUnreadableArchive(t *testing.T) {
	tests := []struct {
		paths   []string
		pattern string
		files   []string
		skipped map[string]int
		err     string // the message of the one error kept, if any
	}{
		{[]string{"over.zip", "top.txt"}, "needle", []string{"top.txt"}, map[string]int{SkipTooLarge: 1}, ""},
		{[]string{"cut.tar", "top.txt"}, "needle", []string{"cut.tar:x.txt", "top.txt"}, map[string]int{SkipError: 1},
			"Cannot read archive 'cut.tar': it is corrupt or truncated (archive/tar: invalid tar header)"},
		{[]string{"bad.tar", "bad.tgz", "bad.tar.gz"}, "garbage|junk", []string{"bad.tar", "bad.tar.gz", "bad.tgz"}, map[string]int{}, ""},
	}
	for _, tree := range openTrees(t, unreadableTree()) {
		for _, tt := range tests {
			req := Request{Paths: tt.paths, Grep: grep.Options{Pattern: tt.pattern}, MaxFileSize: -1, MaxFiles: -1, Budget: -1}
			out, err := Run(context.Background(), tree.FS, tree.Root, req)
			require.NoError(t, err, tree.Name)
			var got []string
			for _, h := range out.Files {
				got = append(got, h.Path)
			}
			assert.Equal(t, tt.files, got, "%s %v", tree.Name, tt.paths)
			skipped := map[string]int{}
			for k, n := range out.Skipped {
				if n > 0 {
					skipped[k] = n
				}
			}
			assert.Equal(t, tt.skipped, skipped, "%s %v", tree.Name, tt.paths)
			var msgs []string
			for _, e := range out.Errors {
				msgs = append(msgs, e.Error())
			}
			if tt.err == "" {
				assert.Empty(t, msgs, "%s %v", tree.Name, tt.paths)
			} else {
				assert.Equal(t, []string{tt.err}, msgs, "%s %v", tree.Name, tt.paths)
			}
		}
	}
}
