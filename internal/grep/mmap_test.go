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
	"github.com/scoutkit/scout/internal/testfs"
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
		s.mapMin = 0 // mapped whether that pays here or not
		for _, size := range []int64{0, 100, int64(mapSize + 12345)} {
			write()
			open := func() (fsx.Regular, error) {
				f, err := fsx.OpenRegular(fsys, "big")
				if err == nil {
					err = os.Truncate(path, size) // after the open: the size searched is the old one
				}
				return f, err
			}
			res, err := s.SearchOpened(ctx, "big", -1, open, nil)
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

// TestFirstOnlyLongLineKept: a FirstOnly search of a file read (not
// mapped) whose buffer grew past a chunk for a long line without a match
// goes on in a buffer that still holds what it kept: the line as context
// (Before), or the long rest of the buffer after it. Both panicked with a
// slice out of range when the first chunk's end shrank the buffer to a
// chunk.
func TestFirstOnlyLongLineKept(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ first, second, before int }{
		{300 << 10, 3 << 20, 1}, // the first line kept as context: 512 KiB
		{600 << 10, 4 << 20, 0}, // 400 KiB of the second line kept
		{100 << 10, 200 << 10, 2},
	} {
		data := []byte(strings.Repeat("x", c.first) + "\n" + strings.Repeat("y", c.second) + "\na needle\nz\n")
		o := Options{Pattern: "needle", FirstOnly: true, Before: c.before}
		m, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.NewScanner().SearchBytes(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		f := newMappedFile(t, data)
		s := m.NewScanner()
		s.mapMin = -1 // read
		got, err := s.SearchFile(ctx, mapDir.fsys, f.name, -1)
		f.remove()
		if err != nil {
			t.Fatal(err)
		}
		if d := diff(want, got); d != "" || got.MatchLines != 1 {
			t.Errorf("%+v: %d matching lines\n%s", c, got.MatchLines, d)
		}
	}
	// The same in small buffers (searchAll's sized/chunk16: a first chunk
	// of 4 bytes, chunks of 16, a buffer of 64 for the first line).
	data := []byte(strings.Repeat("x", 40) + "\n" + strings.Repeat("y", 100) + "\nab\n")
	o := Options{Pattern: "ab", FirstOnly: true, Before: 1, BinaryScan: -1}
	if msg := searchAll(t, o, data, refSearch(o, data)); msg != "" {
		t.Error(msg)
	}
}

// TestSearchOpenedText: SearchOpened gives the caller the text of a file
// with a match, less a UTF-8 byte-order mark, as it reads it: in one piece
// when it held the file whole (read in one buffer, or mapped, stopped
// early or not), in the pieces it read from the file's start when read in
// pieces, the text before a first match past its first piece read again
// (where the file has ReadAt), and nothing for a file without a match, no
// end for one binary, or whose search read in pieces stopped before its
// end and that declined more. A text decoded from UTF-16 or UTF-32 is
// given as it is decoded, with or without a match, mapped or not. The
// result is the same as without the call.
func TestSearchOpenedText(t *testing.T) {
	utf16le := testfs.UTF16LE
	hits := strings.Repeat("a hit  \r\nno\n", 1000) // 12 KB
	miss := strings.Repeat("nothing here\n", 1000)
	late := miss + "a hit\n" + miss
	long := strings.Repeat("x", 3000) + " hit " + strings.Repeat("y", 10000) + "\n" + hits // a line over maxLine
	bom := "\xEF\xBB\xBF"
	small := func(s *Scanner) { s.chunk, s.maxLine = 1<<10, 4<<10 }
	tests := []struct {
		name   string
		data   string
		opts   Options
		tune   func(s *Scanner) // buffer sizes
		mapped bool
		want   *string // the text given with end; nil: none
		pieces bool    // given in several calls, not one
		// declineAt: text returns false at this call (0: never); it must
		// get no more calls, and no end.
		declineAt int
		// none: the text gets no call at all.
		none bool
		// noReadAt: the file opened has no ReadAt.
		noReadAt bool
		// decoded is the text of data decoded from UTF-16, which a text
		// given without an end begins; "": data is UTF-8.
		decoded string
	}{
		{name: "read whole", data: "a hit\nb\n", want: ptr("a hit\nb\n")},
		{name: "no match", data: "miss\n"},
		{name: "empty", data: ""},
		{name: "CRLF and blanks", data: hits, want: &hits},
		{name: "BOM", data: bom + "a hit\n", want: ptr("a hit\n")},
		{name: "two BOMs", data: bom + bom + "a hit\n", want: ptr(bom + "a hit\n")},
		{name: "UTF-16", data: "\xFF\xFEh\x00i\x00t\x00\n\x00", want: ptr("hit\n")},
		{name: "UTF-16, no match", data: "\xFF\xFEh\x00o\x00t\x00\n\x00", want: ptr("hot\n")},
		{name: "UTF-16, two marks", data: "\xFF\xFE\xFF\xFEh\x00i\x00t\x00", want: ptr(bom + "hit")},
		{name: "UTF-16BE", data: "\xFE\xFF\x00h\x00i\x00t\x00\n", want: ptr("hit\n")},
		{name: "UTF-32LE", data: "\xFF\xFE\x00\x00h\x00\x00\x00i\x00\x00\x00t\x00\x00\x00", want: ptr("hit")},
		{name: "in pieces, UTF-16", data: utf16le(hits), tune: small, want: &hits, pieces: true},
		{name: "in pieces, UTF-16, first match late", data: utf16le(late), tune: small, want: &late, pieces: true},
		{name: "in pieces, UTF-16, no match", data: utf16le(miss), tune: small, want: &miss, pieces: true},
		{name: "in pieces, UTF-16, stopped", data: utf16le(hits), opts: Options{MaxMatchesPerFile: 1}, tune: small, want: &hits, pieces: true},
		{name: "in pieces, UTF-16, declined", data: utf16le(hits), tune: small, declineAt: 2, decoded: hits},
		{name: "binary", data: "a hit\x00\n"},
		{name: "stopped in the only buffer", data: hits, opts: Options{MaxMatchesPerFile: 1}, want: &hits},
		{name: "first only, in the only buffer", data: hits, opts: Options{FirstOnly: true}, want: &hits},
		{name: "in pieces", data: hits, tune: small, want: &hits, pieces: true},
		{name: "in pieces, context", data: hits, opts: Options{Before: 3, After: 2}, tune: small, want: &hits, pieces: true},
		{name: "in pieces, a long line", data: long, tune: small, want: &long, pieces: true},
		{name: "in pieces, no match", data: miss, tune: small, none: true},
		{name: "in pieces, no match, a long line", data: strings.Repeat("x", 10000) + "\n" + miss, tune: small, none: true},
		{name: "in pieces, first match late", data: late, tune: small, want: &late, pieces: true},
		{name: "in pieces, first match late, no ReadAt", data: late, tune: small, noReadAt: true},
		{name: "in pieces, first match early, no ReadAt", data: hits, tune: small, noReadAt: true, want: &hits, pieces: true},
		{name: "in pieces, first match in the last piece", data: miss + "a hit", tune: small, want: ptr(miss + "a hit"), pieces: true},
		{name: "in pieces, first match late, BOM", data: bom + late, tune: small, want: &late, pieces: true},
		{name: "in pieces, first match late, stopped", data: late + late, opts: Options{MaxMatchesPerFile: 1}, tune: small,
			want: ptr(late + late), pieces: true},
		{name: "in pieces, first match late, first only", data: late, opts: Options{FirstOnly: true}, tune: small, want: &late, pieces: true},
		{name: "in pieces, no match in the line ranges", data: late, opts: Options{LineRanges: [][2]int{{1, 900}}}, tune: small, none: true},
		{name: "in pieces, NUL past the window before a match", data: miss + "\x00" + late, opts: Options{BinaryScan: 4 << 10}, tune: small, none: true},
		{name: "in pieces, late match, declined", data: late, tune: small, declineAt: 2},
		{name: "in pieces, BOM", data: bom + hits, tune: small, want: &hits, pieces: true},
		{name: "in pieces, stopped", data: hits, opts: Options{MaxMatchesPerFile: 1}, tune: small, want: &hits, pieces: true},
		{name: "in pieces, stopped, BOM", data: bom + hits, opts: Options{MaxMatchesPerFile: 1}, tune: small, want: &hits, pieces: true},
		{name: "in pieces, stopped, context", data: hits, opts: Options{MaxMatchesPerFile: 3, After: 2}, tune: small, want: &hits, pieces: true},
		{name: "in pieces, first only", data: hits, opts: Options{FirstOnly: true}, tune: small, want: &hits, pieces: true},
		{name: "in pieces, stopped, NUL ahead", data: hits[:5000] + "\x00" + hits, opts: Options{MaxMatchesPerFile: 1}, tune: small},
		{name: "in pieces, stopped, NUL past the window", data: hits + "\x00", opts: Options{MaxMatchesPerFile: 1, BinaryScan: 4 << 10},
			tune: small, want: ptr(hits + "\x00"), pieces: true},
		{name: "in pieces, declined", data: hits, tune: small, declineAt: 1},
		{name: "in pieces, stopped, declined", data: hits, opts: Options{MaxMatchesPerFile: 1}, tune: small, declineAt: 1},
		{name: "in pieces, stopped, declined read on, NUL ahead", data: hits + hits[:8000] + "\x00" + hits, opts: Options{MaxMatchesPerFile: 1},
			tune: small, declineAt: 2},
		{name: "mapped", data: hits, tune: small, mapped: true, want: &hits},
		{name: "mapped, BOM", data: bom + hits, tune: small, mapped: true, want: &hits},
		{name: "mapped, first match late", data: late, tune: small, mapped: true, want: &late},
		{name: "mapped, stopped", data: hits, opts: Options{MaxMatchesPerFile: 1}, tune: small, mapped: true, want: &hits},
		{name: "mapped, no match", data: miss, tune: small, mapped: true},
		{name: "mapped, UTF-16", data: utf16le(strings.Repeat("hit\n", 3000)), tune: small, mapped: true, want: ptr(strings.Repeat("hit\n", 3000)), pieces: true},
		{name: "whole file", data: hits, opts: Options{Multiline: true, Pattern: `hit\s+no`}, tune: small, want: &hits},
		{name: "whole file over the cap", data: hits, opts: Options{Multiline: true, Pattern: `hit\s+no`},
			tune: func(s *Scanner) { small(s); s.maxWhole = 4 << 10 }},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.opts.Pattern == "" {
				tt.opts.Pattern = "hit"
			}
			m, err := Compile(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			f := newMappedFile(t, []byte(tt.data))
			defer f.remove()
			search := func(text func([]byte, bool) bool) *FileResult {
				s := m.NewScanner()
				s.mapMin = -1
				if tt.tune != nil {
					tt.tune(s)
				}
				if tt.mapped {
					s.mapMin = 0
				}
				open := func() (fsx.Regular, error) {
					r, err := fsx.OpenRegular(mapDir.fsys, f.name)
					if tt.noReadAt && err == nil {
						r = struct{ fsx.Regular }{r}
					}
					return r, err
				}
				res, err := s.SearchOpened(ctx, f.name, -1, open, text)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			var given []byte
			calls, ends := 0, 0
			res := search(func(p []byte, end bool) bool {
				if ends > 0 {
					t.Errorf("a call after the end")
				}
				calls++
				if end {
					ends++
				}
				given = append(given, p...)
				return calls != tt.declineAt
			})
			if tt.declineAt > 0 && calls != tt.declineAt {
				t.Errorf("%d calls; want %d, the one that declined more the last", calls, tt.declineAt)
			}
			switch {
			case tt.want == nil && ends > 0:
				t.Errorf("the text was given to its end (%d bytes); want no end", len(given))
			case tt.want != nil && ends == 0:
				t.Errorf("no end given (%d calls, %d bytes); want %d bytes", calls, len(given), len(*tt.want))
			case tt.want != nil && string(given) != *tt.want:
				t.Errorf("text %q; want %q", trunc(string(given)), trunc(*tt.want))
			case tt.want != nil && (calls > 1) != tt.pieces:
				t.Errorf("given in %d calls; want several: %v", calls, tt.pieces)
			}
			text := strings.TrimPrefix(tt.data, bom)
			if tt.decoded != "" {
				text = tt.decoded
			}
			if tt.want == nil && calls > 0 && !strings.HasPrefix(text, string(given)) {
				t.Errorf("the text given without an end, %q, is not the start of the file's", trunc(string(given)))
			}
			if tt.none && calls > 0 {
				t.Errorf("%d bytes given in %d calls; want none", len(given), calls)
			}
			if d := diff(search(nil), res); d != "" {
				t.Errorf("the result differs from one without the call:\n%s", d)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func trunc(s string) string { return s[:min(len(s), 40)] }
