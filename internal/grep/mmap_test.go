package grep

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// TestMappedShrinks: a file that is mapped and then shrinks under the
// search (to nothing, or past its first windows) fails with an error that
// says so, instead of the SIGBUS that would end the process, through every
// kind of code that reads the mapping (the binary check, the SIMD finder,
// the DFA); the same Scanner then searches the file again correctly.
func TestMappedShrinks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big")
	line := "Some text without the needle, line after line\n"
	data := strings.Repeat(line, (3*mapSize)/len(line)) + "a Zebra12x here\n"
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	write := func() {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write()
	f, err := fsx.OpenRegular(fsys, "big")
	if err != nil {
		t.Fatal(err)
	}
	mp, err := fsx.Map(f)
	f.Close()
	if errors.Is(err, fsx.ErrNoMap) {
		t.Skip("files are not mapped here")
	}
	if err != nil {
		t.Fatal(err)
	}
	mp.Close()

	ctx := context.Background()
	for _, pattern := range []string{"Zebra", "(?i)zebra", "[A-Z][a-z]+[0-9]{2,}[a-z]"} {
		m, err := Compile(Options{Pattern: pattern})
		if err != nil {
			t.Fatal(err)
		}
		s := m.NewScanner()
		for _, size := range []int64{0, 100, int64(mapSize + 12345)} {
			write()
			open := func() (fsx.Regular, error) {
				f, err := fsx.OpenRegular(fsys, "big")
				if err == nil {
					err = os.Truncate(path, size) // after the open: the size searched is the old one
				}
				return f, err
			}
			res, err := s.SearchOpened(ctx, "big", -1, open)
			if res != nil || errs.CodeOf(err) != errs.Internal || !strings.Contains(err.Error(), "shrank") {
				t.Fatalf("%q, cut to %d bytes: result %v, error %v; want no result and an error that says the file shrank", pattern, size, res, err)
			}
			write()
			res, err = s.SearchFile(ctx, fsys, "big", -1)
			if err != nil || res.MatchLines != 1 || len(res.Lines) != 1 || res.Lines[0].Text != "a Zebra12x here" {
				t.Fatalf("%q: the search after the fault: %v, %v", pattern, err, res)
			}
		}
	}
}

// mapDir is the directory of the files that searchMappedFile writes,
// opened with fsx.OpenDir; TestMain removes it.
var mapDir struct {
	once  sync.Once
	path  string
	fsys  fs.FS
	close func()
	err   error
	n     atomic.Int64
}

func TestMain(m *testing.M) {
	code := m.Run()
	if mapDir.path != "" {
		mapDir.close()
		os.RemoveAll(mapDir.path)
	}
	os.Exit(code)
}

// mappedFile is a file of the OS that holds data, searched through
// SearchFile and mapped whatever its size (where fsx.Map can; elsewhere it
// is read).
type mappedFile struct {
	tb   testing.TB
	name string
}

func newMappedFile(tb testing.TB, data []byte) mappedFile {
	tb.Helper()
	mapDir.once.Do(func() {
		if mapDir.path, mapDir.err = os.MkdirTemp("", "grep-mapped-"); mapDir.err == nil {
			mapDir.fsys, mapDir.close, mapDir.err = fsx.OpenDir(mapDir.path)
		}
	})
	if mapDir.err != nil {
		tb.Fatal(mapDir.err)
	}
	f := mappedFile{tb: tb, name: fmt.Sprintf("f%d", mapDir.n.Add(1))}
	if err := os.WriteFile(filepath.Join(mapDir.path, f.name), data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return f
}

func (f mappedFile) search(ctx context.Context, s *Scanner) (*FileResult, error) {
	s.mapMin = 0
	return s.SearchFile(ctx, mapDir.fsys, f.name, -1)
}

func (f mappedFile) remove() { os.Remove(filepath.Join(mapDir.path, f.name)) }

// TestFirstOnlyChunks: a FirstOnly search of a file over 64 KiB reads a
// first chunk of 64 KiB, then the rest in one go; the result is that of
// the whole data searched at once, wherever the match and a NUL lie,
// whether the file is read or mapped.
func TestFirstOnlyChunks(t *testing.T) {
	line := "some text without the word we look for\n"
	base := strings.Repeat(line, (300<<10)/len(line))
	ctx := context.Background()
	for _, at := range []int{0, 64<<10 - 30, 64 << 10, 64<<10 + 5, 200 << 10, -1} {
		for _, nul := range []int{-1, 10, 70 << 10, 250 << 10} {
			data := []byte(base)
			if at >= 0 {
				copy(data[at:], "a needle\n")
			}
			if nul >= 0 {
				data[nul] = 0
			}
			for _, o := range []Options{
				{Pattern: "needle", FirstOnly: true},
				{Pattern: "needle", FirstOnly: true, CountOnly: true},
				{Pattern: "ne+dle", FirstOnly: true, BinaryScan: 8 << 10},
				{Pattern: "(?i)NEEDLE", FirstOnly: true, CountOnly: true, BinaryScan: -1},
			} {
				m, err := Compile(o)
				if err != nil {
					t.Fatal(err)
				}
				want, err := m.NewScanner().SearchBytes(ctx, data)
				if err != nil {
					t.Fatal(err)
				}
				f := newMappedFile(t, data)
				for _, mapped := range []bool{false, true} {
					s := m.NewScanner()
					got, err := s.SearchFile(ctx, mapDir.fsys, f.name, -1) // under mapSize: read
					if mapped {
						got, err = f.search(ctx, s)
					}
					if err != nil {
						t.Fatal(err)
					}
					if d := diff(want, got); d != "" {
						t.Errorf("match at %d, NUL at %d, %+v, mapped %v:\n%s", at, nul, o, mapped, d)
					}
				}
				f.remove()
			}
		}
	}
}
