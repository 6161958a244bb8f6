package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// partsRun is how a test reads a file: the file system, and the buffer
// sizes of the Scanner.
type partsRun struct {
	name string
	fsys func(tb testing.TB, data []byte) (fs.FS, string)
	tune func(*Scanner)
}

// partsRuns read a file of the OS mapped or read (with the seek of the OS
// file), in small buffers or large, a file of an fs.FS that cannot seek,
// small or large enough to be mapped (which fsx.Map cannot), and one whose
// size is not known (0 bytes, as a file of /proc says).
var partsRuns = []partsRun{
	{"mapped", osFile, func(s *Scanner) { s.mapMin = 0 }},
	{"mapped/chunk8", osFile, func(s *Scanner) { s.mapMin, s.chunk, s.maxLine = 0, 8, 64 }},
	{"read", osFile, func(s *Scanner) { s.mapMin = -1 }},
	{"read/chunk8", osFile, func(s *Scanner) { s.mapMin, s.chunk, s.maxLine = -1, 8, 64 }},
	{"noseek/chunk16", noSeekFile, func(s *Scanner) { s.mapMin, s.chunk, s.maxLine = -1, 16, 256 }},
	{"unmappable/chunk16", noSeekFile, func(s *Scanner) { s.mapMin, s.chunk, s.maxLine = 0, 16, 256 }},
	{"size0/chunk16", sizeZeroFile, func(s *Scanner) { s.mapMin, s.chunk, s.maxLine = -1, 16, 256 }},
}

func osFile(tb testing.TB, data []byte) (fs.FS, string) {
	f := newMappedFile(tb, data)
	tb.Cleanup(f.remove)
	return mapDir.fsys, f.name
}

func noSeekFile(tb testing.TB, data []byte) (fs.FS, string) {
	return noSeekFS{fstest.MapFS{"f": {Data: data}}}, "f"
}

func sizeZeroFile(tb testing.TB, data []byte) (fs.FS, string) {
	return zeroFS{fstest.MapFS{"f": {Data: data}}}, "f"
}

// zeroFS says that its files have 0 bytes, as the files of /proc do.
type zeroFS struct{ fsys fs.FS }

func (z zeroFS) Open(name string) (fs.File, error) {
	f, err := z.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return zeroFile{f}, nil
}

type zeroFile struct{ fs.File }

func (f zeroFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	return zeroInfo{fi}, err
}

type zeroInfo struct{ fs.FileInfo }

func (zeroInfo) Size() int64 { return 0 }

// noSeekFS hides the Seek of its files.
type noSeekFS struct{ fsys fs.FS }

func (n noSeekFS) Open(name string) (fs.File, error) {
	f, err := n.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return struct{ fs.File }{f}, nil
}

// searchParts searches the file name of fsys in parts of n matching lines
// with a Scanner of m tuned by tune: the first part by SearchOpened, the
// rest by SearchFrom, either in one call (chain false) or one call per
// part, each opening the file again (chain true). It checks each part
// (Resume on all but the last, and n matching lines, or at most n in the
// last unless long is set: a line longer than the buffer makes the rest
// one part), and returns them joined into one result.
func searchParts(tb testing.TB, m *Matcher, tune func(*Scanner), fsys fs.FS, name string, n int, chain, long bool) *FileResult {
	tb.Helper()
	ctx := context.Background()
	s := m.NewScanner()
	tune(s)
	open := func() (fsx.Regular, error) { return fsx.OpenRegular(fsys, name) }
	res, err := s.SearchOpened(ctx, name, -1, open, nil)
	if err != nil {
		tb.Fatal(err)
	}
	joined := *res
	joined.Lines = slices.Clone(res.Lines)
	parts := 1
	add := func(p *FileResult) {
		joined.Lines = append(joined.Lines, p.Lines...)
		joined.MatchLines += p.MatchLines
		joined.Matches += p.Matches
		joined.Truncated, joined.Stop, joined.LongLines, joined.Resume = p.Truncated, p.Stop, p.LongLines, p.Resume
		parts++
	}
	check := func(p *FileResult) {
		if p.MatchLines > n && !long {
			tb.Fatalf("part %d holds %d matching lines, over %d", parts, p.MatchLines, n)
		}
		if p.Resume != nil && p.MatchLines != n {
			tb.Fatalf("part %d ends with %d matching lines; want %d", parts, p.MatchLines, n)
		}
	}
	check(res)
	for at := res.Resume; at != nil; {
		s2 := m.NewScanner()
		tune(s2)
		last, err := s2.SearchFrom(ctx, name, open, at, func(p *FileResult) bool {
			if p.Resume == nil {
				tb.Fatalf("a part given without Resume")
			}
			check(p)
			add(p)
			return !chain
		})
		if err != nil {
			tb.Fatal(err)
		}
		if chain && last.Resume != nil {
			at = last.Resume // given already
			continue
		}
		check(last)
		add(last)
		at = nil
	}
	joined.Resume = nil
	return &joined
}

// partsText is a file of matching lines among others, with every kind of
// line end: CRLF, none at the end.
func partsText(lines int, eol string, final bool) []byte {
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		switch {
		case i%5 == 0:
			fmt.Fprintf(&b, "plain %d", i)
		case i%3 == 0:
			fmt.Fprintf(&b, "hit hit %d", i)
		default:
			fmt.Fprintf(&b, "a hit %d", i)
		}
		if i < lines || final {
			b.WriteString(eol)
		}
	}
	return []byte(b.String())
}

// TestParts: a search split into parts of 1, 2, 3 or 7 matching lines
// gives, joined, exactly the lines, counts and stop of the whole search,
// with contexts that overlap or not, limits, CRLF, a file without a final
// newline, a late NUL, a UTF-8 byte-order mark and line ranges, through
// mapped and read files, in one SearchFrom or one per part.
func TestParts(t *testing.T) {
	lf := partsText(60, "\n", true)
	nul := append(slices.Clone(lf[:len(lf)/2]), "x\x00y\nhit after\n"...)
	tests := []struct {
		name string
		data []byte
		opts Options
	}{
		{"no context", lf, Options{}},
		{"context 1/1", lf, Options{Before: 1, After: 1}},
		{"context 3/3, overlapping", lf, Options{Before: 3, After: 3}},
		{"context 0/3", lf, Options{After: 3}},
		{"context 3/0", lf, Options{Before: 3}},
		{"limit 10", lf, Options{Before: 1, After: 2, MaxMatchesPerFile: 10}},
		{"limit 7", lf, Options{After: 1, MaxMatchesPerFile: 7}},
		{"limit past the end", lf, Options{MaxMatchesPerFile: 1000}},
		{"CRLF", partsText(40, "\r\n", true), Options{Before: 1, After: 1}},
		{"no final newline", partsText(41, "\n", false), Options{After: 2}},
		{"late NUL", nul, Options{Before: 1, After: 1, BinaryScan: 16}},
		{"NUL off", nul, Options{After: 1, BinaryScan: -1}},
		{"byte-order mark", append([]byte("\xEF\xBB\xBF"), lf...), Options{Before: 2}},
		{"line ranges", lf, Options{Before: 1, After: 1, LineRanges: [][2]int{{4, 20}, {33, 50}}}},
		{"regexp", lf, Options{Pattern: `h.t \d*[12]$`, After: 1}},
		{"columns", lf, Options{MaxColumns: 4, Before: 1}},
		{"every line", lf, Options{Pattern: ".", Before: 2}},
	}
	for _, tt := range tests {
		if tt.opts.Pattern == "" {
			tt.opts.Pattern = "hit"
		}
		whole, err := Compile(tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range partsRuns {
			fsys, name := run.fsys(t, tt.data)
			s := whole.NewScanner()
			run.tune(s)
			want, err := s.SearchFile(context.Background(), fsys, name, -1)
			if err != nil {
				t.Fatal(err)
			}
			if want.MatchLines < 3 {
				t.Fatalf("%s: only %d matching lines", tt.name, want.MatchLines)
			}
			for _, n := range []int{1, 2, 3, 7} {
				o := tt.opts
				o.PartLines = n
				m, err := Compile(o)
				if err != nil {
					t.Fatal(err)
				}
				for _, chain := range []bool{false, true} {
					got := searchParts(t, m, run.tune, fsys, name, n, chain, false)
					if d := diff(want, got); d != "" {
						t.Fatalf("%s, %s, parts of %d (chain %v):\n%s", tt.name, run.name, n, chain, d)
					}
				}
			}
		}
	}
}

// TestPartsSplit: a file with more matching lines than PartLines stops at
// the part's end with Resume set (which the whole search has not), at the
// start of the line after the part's last line; a search that cannot
// split gives the file in one part.
func TestPartsSplit(t *testing.T) {
	data := []byte("hit 1\nhit 2\nx\nhit 3\nhit 4\n")
	tests := []struct {
		name string
		opts Options
		data []byte
		want *Resume // nil: one part
	}{
		{"split", Options{PartLines: 2}, data, &Resume{Offset: 12, Line: 3, Size: 26}},
		{"after-context to the next match", Options{PartLines: 2, After: 5}, data, &Resume{Offset: 14, Line: 4, Size: 26}},
		{"limit left", Options{PartLines: 1, MaxMatchesPerFile: 3}, data, &Resume{Offset: 6, Line: 2, Left: 2, Size: 26}},
		{"limit first", Options{PartLines: 2, MaxMatchesPerFile: 2}, data, nil},
		{"as many as the part", Options{PartLines: 4}, data, nil},
		{"count only", Options{PartLines: 1, CountOnly: true}, data, nil},
		{"first only", Options{PartLines: 1, FirstOnly: true}, data, nil},
		{"multiline", Options{PartLines: 1, Pattern: `hit \d\n`, Multiline: true}, data, nil},
		{"UTF-16", Options{PartLines: 1}, utf16le("hit 1\nhit 2\nhit 3\n"), nil},
	}
	for _, tt := range tests {
		if tt.opts.Pattern == "" {
			tt.opts.Pattern = "hit"
		}
		m, err := Compile(tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{"f": {Data: tt.data}}
		res, err := m.NewScanner().SearchFile(context.Background(), fsys, "f", -1)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want != nil {
			tt.want.Encoding = res.Encoding
		}
		if fmt.Sprint(res.Resume) != fmt.Sprint(tt.want) {
			t.Errorf("%s: Resume %+v; want %+v", tt.name, res.Resume, tt.want)
		}
		if tt.want != nil && res.Truncated {
			t.Errorf("%s: a part is Truncated (%v)", tt.name, res.Stop)
		}
	}
}

// TestPartsFileChanged: a file that changes between its parts is
// searched on as it was when its first part was searched: what was
// appended is left out (the parts join into the search of the file
// before), and a file that shrank, or that another took the place of,
// fails with an error that says so, mapped or read. A file rewritten in
// place to the same size is not told apart: its next parts are of the new
// text.
func TestPartsFileChanged(t *testing.T) {
	data := partsText(60, "\n", true)
	more := []byte("hit appended\nhit again\n")
	tests := []struct {
		name   string
		change func(path string) error
		err    string // "": searched on
	}{
		{"appended", func(path string) error {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = f.Write(more)
			return errors.Join(err, f.Close())
		}, ""},
		{"rewritten in place", func(path string) error {
			return os.WriteFile(path, bytes.ReplaceAll(data, []byte("a hit"), []byte("o hit")), 0o644)
		}, ""},
		{"shrank", func(path string) error { return os.Truncate(path, int64(len(data)-5)) }, "it shrank from"},
		{"emptied", func(path string) error { return os.Truncate(path, 0) }, "it shrank from"},
		{"replaced", func(path string) error {
			if err := os.WriteFile(path+".new", append(slices.Clone(data), more...), 0o644); err != nil {
				return err
			}
			return os.Rename(path+".new", path)
		}, "another file took its place"},
		{"replaced by a symlink", func(path string) error {
			if err := os.WriteFile(path+".other", data, 0o644); err != nil {
				return err
			}
			return errors.Join(os.Remove(path), os.Symlink(filepath.Base(path)+".other", path))
		}, "another file took its place"},
	}
	m, err := Compile(Options{Pattern: "hit", Before: 1, After: 1, PartLines: 5})
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := Compile(Options{Pattern: "hit", Before: 1, After: 1})
	ctx := context.Background()
	for _, tt := range tests {
		for _, run := range partsRuns[:4] { // the files of the OS
			t.Run(tt.name+"/"+run.name, func(t *testing.T) {
				fsys, name := run.fsys(t, data)
				path := filepath.Join(mapDir.path, name)
				t.Cleanup(func() { os.Remove(path + ".other") })
				s := whole.NewScanner()
				run.tune(s)
				want, err := s.SearchFile(ctx, fsys, name, -1)
				if err != nil {
					t.Fatal(err)
				}
				s = m.NewScanner()
				run.tune(s)
				open := func() (fsx.Regular, error) { return fsx.OpenRegular(fsys, name) }
				first, err := s.SearchOpened(ctx, name, -1, open, nil)
				if err != nil || first.Resume == nil {
					t.Fatalf("first part: %v, %+v", err, first)
				}
				got := *first
				got.Lines = slices.Clone(first.Lines)
				if err := tt.change(path); err != nil {
					t.Fatal(err)
				}
				add := func(p *FileResult) {
					got.Lines = append(got.Lines, p.Lines...)
					got.MatchLines += p.MatchLines
					got.Matches += p.Matches
					got.Truncated, got.Stop, got.Resume = p.Truncated, p.Stop, p.Resume
				}
				last, err := s.SearchFrom(ctx, name, open, first.Resume, func(p *FileResult) bool { add(p); return true })
				if tt.err != "" {
					if err == nil || !strings.Contains(err.Error(), tt.err) || errs.CodeOf(err) != errs.Internal || last != nil {
						t.Fatalf("got %v, %+v; want an Internal error saying %q", err, last, tt.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				add(last)
				if tt.name == "rewritten in place" {
					if l := got.Lines[len(got.Lines)-2]; !strings.HasPrefix(l.Text, "o hit") {
						t.Fatalf("the parts after the first: not the file as rewritten: %+v", l)
					}
					return
				}
				if d := diff(want, &got); d != "" {
					t.Fatal(d)
				}
			})
		}
	}
}

func utf16le(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, c := range []byte(s) {
		b = append(b, c, 0)
	}
	return b
}

// TestPartsLongLine: from a line longer than the buffer on, the file is
// one part, and the parts still join into the whole search.
func TestPartsLongLine(t *testing.T) {
	long := "hit " + strings.Repeat("x", 300) + " hit\n"
	data := []byte("hit 1\nhit 2\nhit 3\n" + long + "hit 4\nhit 5\nhit 6\n")
	tune := func(s *Scanner) { s.mapMin, s.chunk, s.maxLine = -1, 16, 64 }
	fsys := fstest.MapFS{"f": {Data: data}}
	o := Options{Pattern: "hit", Before: 1, After: 1}
	m, _ := Compile(o)
	s := m.NewScanner()
	tune(s)
	want, err := s.SearchFile(context.Background(), fsys, "f", -1)
	if err != nil || want.LongLines != 0 || want.MatchLines != 7 {
		t.Fatalf("whole: %v, %+v", err, want)
	}
	o.PartLines = 1
	pm, _ := Compile(o)
	got := searchParts(t, pm, tune, fsys, "f", 1, false, true)
	if d := diff(want, got); d != "" {
		t.Fatal(d)
	}
}

// FuzzParts checks that a search split into parts of 1 to 4 matching
// lines joins into the whole search, on arbitrary data and options.
func FuzzParts(f *testing.F) {
	f.Add([]byte("a\nb\r\nab é\na\n\nba\n"), uint8(0), uint64(0))
	f.Add([]byte("a\na\x00b\n\nba\na"), uint8(7), uint64(12345))
	f.Add([]byte("aa\r\naa\r\n\nAB\nab"), uint8(18), uint64(99))
	f.Fuzz(func(t *testing.T, data []byte, pi uint8, seed uint64) {
		if len(data) > 512 {
			return
		}
		r := rand.New(rand.NewPCG(seed, 5))
		o := randOptions(r, diffPatterns[int(pi)%len(diffPatterns)])
		n := 1 + r.IntN(4)
		whole, err := Compile(o)
		if err != nil {
			return
		}
		o.PartLines = n
		m, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range partsRuns {
			fsys, name := run.fsys(t, data)
			s := whole.NewScanner()
			run.tune(s)
			want, err := s.SearchFile(context.Background(), fsys, name, -1)
			if err != nil {
				t.Fatal(err)
			}
			got := searchParts(t, m, run.tune, fsys, name, n, seed%2 == 0, true)
			if d := diff(want, got); d != "" {
				t.Fatalf("%s, %+v:\n%s", run.name, o, d)
			}
		}
	})
}
