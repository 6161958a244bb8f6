package dirtree

import (
	"context"
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
)

// fuzzTree decodes a tree from data, three bytes and a name per entry: a
// byte whose low bits pick the parent (the root or one of the
// directories so far) and whose high bit makes a directory, a byte of
// age (few values, so that ages tie), a name length and the name's
// bytes. Names a MapFS cannot hold are skipped.
func fuzzTree(data []byte) fstest.MapFS {
	m := fstest.MapFS{}
	dirs := []string{"."}
	for len(data) >= 3 {
		kind, age, n := data[0], data[1], int(data[2]%8)+1
		data = data[3:]
		n = min(n, len(data))
		name := string(data[:n])
		data = data[n:]
		p := path.Join(dirs[int(kind&0x7f)%len(dirs)], name)
		if name == "" || name == "." || name == ".." || strings.Contains(name, "/") || !fs.ValidPath(p) || m[p] != nil {
			continue
		}
		mod := now.Add(-time.Duration(age%6) * time.Hour)
		if kind&0x80 != 0 {
			m[p] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: mod}
			dirs = append(dirs, p)
		} else {
			m[p] = &fstest.MapFile{Data: make([]byte, int(age)*37), Mode: 0o644, ModTime: mod}
		}
	}
	return m
}

// FuzzWindows: for any tree (ties in age, names of any bytes, deep or
// wide), a tree built for a window of rows is that window of the whole
// tree, whatever rows the builder keeps as it lists (maxKeptSub), with
// the same totals; the whole tree's Bytes is the length of its rendered
// text, and its rows are numbered by their lines.
func FuzzWindows(f *testing.F) {
	f.Add([]byte("\x80\x01\x02srcX\x00\x03a.go\x01\x03\x03b.go\x00\x00\x01c\x81\x02\x02d1\x02\x04\x02e\n"), uint8(0), uint8(0), uint8(255))
	f.Add([]byte(strings.Repeat("\x00\x01\x01aa\x80\x00\x01bb\x01\x02\x01cc\x02\x03\x01dd", 6)), uint8(3), uint8(5), uint8(2))
	f.Add([]byte("\x80\x00\x00.git\x81\x00\x00x\x00\x00\x09.DS_Store\x00\x05\x03caf\xc3\xa9"), uint8(1), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, skip, rows, kept uint8) {
		m := fuzzTree(data)
		whole, err := Build(context.Background(), m, ".", []string{"node_modules"}, 0, 0, now)
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		lines := Render(whole, now)
		if whole.Rows != len(whole.Entries) {
			t.Fatalf("Rows %d, %d entries", whole.Rows, len(whole.Entries))
		}
		if got := len(strings.Join(lines, "\n")); whole.Bytes != got {
			t.Fatalf("Bytes %d, rendered %d:\n%s", whole.Bytes, got, strings.Join(lines, "\n"))
		}
		for i, e := range whole.Entries {
			if e.Line != i+2 {
				t.Fatalf("entry %d: line %d", i, e.Line)
			}
		}
		defer func(n int) { maxKeptSub = n }(maxKeptSub)
		if kept < 64 {
			maxKeptSub = int(kept)
		}
		part, err := Build(context.Background(), m, ".", []string{"node_modules"}, int(skip), int(rows), now)
		if err != nil {
			t.Fatalf("Build of a window: %v", err)
		}
		end := len(whole.Entries)
		if rows > 0 {
			end = min(int(skip)+int(rows), end)
		}
		want := *whole
		want.Entries = whole.Entries[min(int(skip), end):end]
		if len(want.Entries) == 0 {
			want.Entries = nil
		}
		if !assert.ObjectsAreEqual(&want, part) {
			assert.Equal(t, &want, part, "skip %d, rows %d, keep %d", skip, rows, kept)
			t.FailNow()
		}
	})
}
