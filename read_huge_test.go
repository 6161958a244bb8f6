package scout_test

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

// hugeFS holds one file, "huge.txt": a text head of 5000 lines, then a
// 100 GB hole of NUL bytes, made up as it is read; read counts the bytes
// served.
type hugeFS struct{ read *atomic.Int64 }

const hugeHole = 100 << 30

var hugeHead = strings.Repeat("a line of the text head\n", 5000)

func (h hugeFS) Open(name string) (fs.File, error) {
	switch name {
	case ".":
		return &hugeDir{}, nil
	case "huge.txt":
		return &hugeFile{r: io.MultiReader(strings.NewReader(hugeHead), io.LimitReader(zeros{}, hugeHole)), read: h.read}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

type hugeFile struct {
	r    io.Reader
	read *atomic.Int64
}

func (f *hugeFile) Stat() (fs.FileInfo, error) { return hugeInfo{}, nil }
func (f *hugeFile) Close() error               { return nil }
func (f *hugeFile) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.read.Add(int64(n))
	return n, err
}

type hugeInfo struct{}

func (hugeInfo) Name() string       { return "huge.txt" }
func (hugeInfo) Size() int64        { return int64(len(hugeHead)) + hugeHole }
func (hugeInfo) Mode() fs.FileMode  { return 0o644 }
func (hugeInfo) ModTime() time.Time { return time.Time{} }
func (hugeInfo) IsDir() bool        { return false }
func (hugeInfo) Sys() any           { return nil }

type hugeDir struct{}

func (*hugeDir) Stat() (fs.FileInfo, error) { return dirInfo{}, nil }
func (*hugeDir) Read([]byte) (int, error)   { return 0, io.EOF }
func (*hugeDir) Close() error               { return nil }

type dirInfo struct{ hugeInfo }

func (dirInfo) Name() string      { return "." }
func (dirInfo) Mode() fs.FileMode { return fs.ModeDir | 0o755 }
func (dirInfo) IsDir() bool       { return true }

// TestReadHugeFile: the first lines of a file with a text head and a
// 100 GB hole come without reading the hole, and a line past the hole is
// not looked for past 64 MiB into it; the total is a lower bound, and the
// text says so, never claiming an end it did not see.
func TestReadHugeFile(t *testing.T) {
	tests := []struct {
		path, first, notice, reason string
		before, lines, beyond       int
	}{
		{"huge.txt:1-5", "1:a line", "[at least 4996 more lines in file. Use :6 to continue]", "a range: exactly its lines", 0, 5, 0},
		{"huge.txt", "1:a line", "[Showing lines 1-300 of at least 5001. Use :301 to continue]", "no selector: the first 300 lines", 0, 300, 0},
		{"huge.txt:4999", "4999:a line", "[Showing lines 4999-5000 of at least 5001 (150KB limit). Use :5001 to continue]", "into the hole: its line, 64 MiB read, is over the byte budget, so the page ends before it", 0, 2, 0},
		{"huge.txt:5001", "5001:", "[Reading stopped in line 5001, which runs on for over 64 MiB without a line end; the lines after it are not read. Some lines truncated to 768 chars]", "the hole's line first: its start is shown cut", 0, 1, 0},
		{"huge.txt:1-5:raw", "a line", "[at least 4996 more lines in file. Use :6 to continue]", "raw", 0, 5, 0},
		{"huge.txt:6000", "Line 6000 was not reached: reading stopped in line 5001", "the file has at least 5001 lines. Use :5001 to see the start of that line, or :1 to read from the start.", "past the hole", 0, 0, 6000},
		{"huge.txt:6000:raw", "Line 6000 was not reached", "Use :5001 to see the start of that line, or :1 to read from the start.", "past the hole, raw", 0, 0, 6000},
		{"huge.txt:5002", "Line 5002 was not reached", "the file has at least 5001 lines. Use :5001 to see the start of that line, or :1 to read from the start.", "the line after the hole's, whose context line is the hole's", 1, 0, 5002},
		{"huge.txt:1-2,6000-6001", "1:a line", "[Range 6000-6001 was not reached: reading stopped in line 5001, over 64 MiB without a line end; skipped]\n\n[The file has at least 5001 lines (not counted to its end)]", "two ranges, the second past the hole", 0, 2, 0},
	}
	for _, tt := range tests {
		var read atomic.Int64
		r := scout.Reader{Workspace: scout.Workspace{FS: hugeFS{&read}}}
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path, Before: tt.before})
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		text := format.ReadText(res, nil)
		n := 0
		for _, b := range res.Blocks {
			n += len(b.Lines)
		}
		if n != tt.lines || res.BeyondEnd != tt.beyond || !res.TotalLinesAtLeast || res.TotalLines != 5001 || !strings.HasPrefix(text, tt.first) || !strings.HasSuffix(text, tt.notice) {
			t.Errorf("%s: %d lines, beyond end %d, total %d (at least %v), text %.60q...%q; want %d lines, beyond end %d, at least 5001, %q...%q", tt.reason, n, res.BeyondEnd, res.TotalLines, res.TotalLinesAtLeast, text, text[max(0, len(text)-120):], tt.lines, tt.beyond, tt.first, tt.notice)
		}
		if got := read.Load(); got > int64(len(hugeHead))+80<<20 {
			t.Errorf("%s: read %d MB of the file, want the head and at most 64 MB past it", tt.reason, got>>20)
		}
	}
}

// TestReadSparseFile: the same with a real sparse file on disk, where the
// hole is the OS's.
func TestReadSparseFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sparse.txt")
	if err := os.WriteFile(name, []byte(hugeHead), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, int64(len(hugeHead))+hugeHole); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	r := scout.Reader{Workspace: scout.Workspace{Root: dir}}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "sparse.txt:1-5"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Blocks[0].Lines) != 5 || !res.TotalLinesAtLeast || res.TotalLines != 5001 {
		t.Errorf("%d lines, total %d (at least %v); want 5 lines and at least 5001", len(res.Blocks[0].Lines), res.TotalLines, res.TotalLinesAtLeast)
	}
	// A line past the hole is not looked for to its end (it took 80 s).
	res, err = r.Read(context.Background(), scout.ReadRequest{Path: "sparse.txt:6000"})
	if err != nil {
		t.Fatal(err)
	}
	if res.BeyondEnd != 6000 || !res.TotalLinesAtLeast || res.TotalLines != 5001 {
		t.Errorf("line 6000: beyond end %d, total %d (at least %v); want line 6000 not reached, at least 5001 lines", res.BeyondEnd, res.TotalLines, res.TotalLinesAtLeast)
	}
}
