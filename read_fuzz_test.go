package scout_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/testfs"
)

var fuzzFS = fstest.MapFS{
	"a.txt":             {Data: []byte("one\ntwo\nthree\n")},
	"dir/b.go":          {Data: []byte("package b\n")},
	"dir/sub/c d.md":    {Data: []byte("# c\r\nd\r\n")},
	"it’s.txt":          {Data: []byte("curly\n")},
	"link":              {Data: []byte("../../etc"), Mode: 0o777 | 1<<27},
	"test:1-2":          {Data: []byte("colon\n")},
	"n.ipynb":           {Data: []byte(`{"nbformat":4,"cells":[]}`)},
	"café/menu.txt":     {Data: []byte("menu\n")},
	"deep/x/y/z/leaf.t": {Data: []byte("leaf\n")},
	"x.zip": {Data: testfs.Zip(
		testfs.Member{Name: "a", Body: "zipped\nlines\n"},
		testfs.Member{Name: "in.tgz", Body: string(testfs.Tgz(testfs.Member{Name: "b.txt", Body: "nested\n"}))},
		testfs.Member{Name: "d/n.ipynb", Body: `{"cells":[{"source":"c"}]}`},
		testfs.Member{Name: "d/k:1", Body: "colon\n"},
		testfs.Member{Name: "up", Link: "../a.txt"},
	)},
	"y.tgz": {Data: testfs.Tgz(testfs.Member{Name: "lib/y.go", Body: "package y\n"}, testfs.Member{Name: "../evil", Body: "x\n"})},
}

// FuzzReadPath reads arbitrary path strings over a MapFS and over the same
// tree on disk: no panic, every error is a *scout.Error with a code, and a
// result's path never leaves the root.
func FuzzReadPath(f *testing.F) {
	for _, s := range []string{"a.txt", "a.txt:2", "a.txt:0", "a.txt:5-3", "a.txt:3+0", "a.txt:1-2,3", "a.txt:raw", "a.txt:2:raw",
		"dir", "dir:1-2", "dir:1,3", "/", "///", ".", "..", "../a.txt", "/etc/passwd", "~", "~/x", "file:///scout-root/a.txt",
		`"a.txt"`, "\u00a0a.txt", "it's.txt", "cafe\u0301/menu.txt", "leaf.t", "a.txt, dir/b.go", "a.txt;dir/b.go", "test:1-2",
		"link/passwd", "n.ipynb", "a.txt:conflicts", "x.zip:a", "x.db:t", "skill://x", "www.", "a\x00b", "", ":", "a.txt:L1-L2",
		"dir/sub/c\\ d.md", "x.zip:a:2", "x.zip:in.tgz:b.txt", "x.zip:d", "x.zip:d/k:1:1", "x.zip:up", "x.zip:d/n.ipynb:raw", "y.tgz:lib/y.go:1-2", "y.tgz:"} {
		f.Add(s)
	}
	readers := []scout.Reader{
		{Workspace: scout.Workspace{FS: fuzzFS, Root: "/scout-root"}, NoWeb: true},
		{Workspace: scout.Workspace{Root: testfs.WriteDir(f, fuzzFS)}, NoWeb: true},
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, r := range readers {
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: p})
			if err != nil {
				var se *scout.Error
				if !errors.As(err, &se) || se.Code == "" || se.Message == "" {
					t.Fatalf("Read(%q): error %v is not a coded *scout.Error", p, err)
				}
				continue
			}
			checkInside(t, p, res)
			format.ReadText(res, nil)
		}
	})
}

func checkInside(t *testing.T, p string, res *scout.ReadResult) {
	t.Helper()
	// A delimited read's Path lists its parts as given; the parts are checked.
	if res.Kind != "multi" && (strings.HasPrefix(res.Path, "/") || res.Path == ".." || strings.HasPrefix(res.Path, "../")) {
		t.Fatalf("Read(%q) resolved outside the root: %q", p, res.Path)
	}
	for _, part := range res.Parts {
		if part.Result != nil {
			checkInside(t, p, part.Result)
		}
	}
}

// TestReadRangesDifferential reads random ranges of random files through the
// Reader and checks every shown line against a naive split of the file.
func TestReadRangesDifferential(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	pieces := []string{"a", "é", "日本", "\r\n", "\n", "\n\n", " x ", "\t"}
	for i := range 300 {
		var b strings.Builder
		for range rnd.Intn(80) {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		text := b.String()
		lines := strings.Split(text, "\n")
		if strings.HasSuffix(text, "\n") {
			lines = lines[:len(lines)-1]
		}
		if text == "" {
			lines = nil
		}
		start := 1 + rnd.Intn(len(lines)+2)
		sel := fmt.Sprintf("%d", start)
		if rnd.Intn(2) == 0 {
			sel = fmt.Sprintf("%d-%d", start, start+rnd.Intn(5))
		}
		raw := rnd.Intn(3) == 0
		if raw {
			sel += ":raw"
		}
		r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{"f.txt": {Data: []byte(text)}}}}
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: "f.txt:" + sel})
		if err != nil {
			t.Fatalf("case %d f.txt:%s: %v", i, sel, err)
		}
		if res.TotalLines != len(lines) {
			t.Fatalf("case %d %q: total %d, want %d", i, text, res.TotalLines, len(lines))
		}
		if start > len(lines) && len(lines) > 0 {
			if res.BeyondEnd != start {
				t.Fatalf("case %d %q :%s: want beyond-end %d, got %+v", i, text, sel, start, res)
			}
			continue
		}
		for _, blk := range res.Blocks {
			for _, l := range blk.Lines {
				want := lines[l.N-1]
				if !raw {
					want = strings.TrimSuffix(want, "\r")
				}
				if l.Text != want {
					t.Fatalf("case %d %q :%s: line %d = %q, want %q", i, text, sel, l.N, l.Text, want)
				}
			}
		}
	}
}
