package grep

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp/syntax"
	"strconv"
	"strings"
	"testing"
)

func TestMaxMatchLen(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    int
	}{
		{"needle", 6},
		{"(?i)k", 3}, // the Kelvin sign
		{"(?i)s", 2}, // ſ
		{"é", 2},
		{"a|bcd|ef", 3},
		{"[a-z]{3}", 3},
		{"x{2,5}", 5},
		{"a?b??", 2},
		{".", 4},
		{`\d\d\d`, 3},
		{`^\bfoo$`, 3},
		{"(a|b){1000}", 1000},
		{"", 0},
		{"a*", -1},
		{"a+", -1},
		{"a.*z", -1},
		{"x{2,}", -1},
		{"(?:)*", 0},
	} {
		re, err := syntax.Parse(c.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := maxMatchLen(re.Simplify()); got != c.want {
			t.Errorf("maxMatchLen(%q) = %d, want %d", c.pattern, got, c.want)
		}
	}
}

// windowLines builds lines longer than the test window (64 bytes, margin
// 16): text placed at every offset of a filler line, so that a match lies
// before, across and after each window edge and each owned limit.
func windowLines(filler, text string, length int) []string {
	var lines []string
	for at := 0; at+len(text) <= length; at++ {
		l := strings.Repeat(filler, length/len(filler)+1)[:length]
		lines = append(lines, l[:at]+text+l[at+len(text):])
	}
	return lines
}

// TestLongLineWindows searches lines longer than a window of 64 bytes
// (margin 16) with matches at every offset, read and mapped, in content,
// count and files modes, and compares with the line-by-line reference:
// a match of at most the margin is found once, wherever it lies.
func TestLongLineWindows(t *testing.T) {
	cases := []struct {
		filler, text string
		patterns     []string
	}{
		{"x", "needle", []string{"needle", "(?i)NEEDLE", "ne{2}dle", "[n][e]{1,3}dle|zzz", "needle|pin", "e", "xn", `\bneedle`, `needle\b`}},
		{"é", "needle", []string{"needle", `n.{3}le`, "é", "ée", "(?i)Én", `.{1,3}dle`}},
		{"ab ", "12345", []string{`\d\d\d`, `\d{2}`, `[0-9]`, `\b\d`, "45 |ab", `ab(c|1)`}},
		{"a", "b", []string{"aa", "aaa", "ab", "a{3}b", "^a", "a$", "^", "$", `\b`, "a?"}},
		{"k", "K", []string{"(?i)K", "(?i)kk"}},
		// Alternations of literals that overlap: the finder's hits are the
		// matches, each as long as the pattern's preferred literal there.
		{"ab", "abb", []string{"ab?|b", "b|ab?", "abb|ab|b", "ba|ab??"}},
		{"aB", "AbB", []string{"(?i)ab?|b", "(?i)B|aB?", "(?i)abb|AB"}},
		// A literal in every few bytes: the walk skips to each (Matcher.lead).
		{"song ", "Kong", []string{"[a-z]ong", "[A-Z]ong", `\w{2}ng\b`, "(?i)kong", "[A-Z]?[a-z]on(g|e)"}},
	}
	// Where the long lines lie: among short lines, matching or not, and
	// next to each other (context across them).
	shapes := []func(line string) string{
		func(line string) string { return "short\n" + line + "\nshort x needle\n" + line + "\n" },
		func(line string) string { return "needle 1\n" + line + "\n" + line + "\nx\nneedle 2\r\n" + line },
	}
	modes := []Options{
		{MaxColumns: 10},
		{MaxColumns: 10, Before: 1, After: 1},
		{MaxColumns: 10, Before: 2, After: 3},
		{MaxColumns: 40, Before: 3},
		{CountOnly: true},
		{FirstOnly: true, CountOnly: true},
		{FirstOnly: true, MaxColumns: 10},
		{CountOnly: true, LineRanges: [][2]int{{2, 3}}},
		{MaxColumns: 10, MaxMatchesPerFile: 2},
	}
	ctx := context.Background()
	for _, c := range cases {
		type search struct {
			o Options
			s *Scanner
		}
		var searches []search
		for _, p := range c.patterns {
			for _, mode := range modes {
				o := mode
				o.Pattern = p
				m, err := Compile(o)
				if err != nil {
					t.Fatal(err)
				}
				searches = append(searches, search{o, m.NewScanner()})
			}
		}
		for i, line := range windowLines(c.filler, c.text, 230) {
			if i%7 != 0 && i > 120 {
				continue // enough offsets past the third window
			}
			data := []byte(shapes[i%len(shapes)](line))
			f := newMappedFile(t, data)
			for _, se := range searches {
				o, s := se.o, se.s
				want := refSearch(o, data)
				for _, mapped := range []bool{false, true} {
					s.chunk, s.maxLine, s.mapMin = 8, 64, -1
					var got *FileResult
					var err error
					if mapped {
						got, err = f.search(ctx, s)
					} else {
						got, err = s.SearchReader(ctx, iotestOneByte(data))
					}
					if err != nil {
						t.Fatal(err)
					}
					// A text of 40 columns is more than a 64-byte window
					// holds; FirstOnly does not read the rest of the line.
					if d := diff(windowed(want, got, o), got); d != "" {
						t.Fatalf("%q at %d in %q, %+v, mapped %v:\n%s", c.text, i, c.filler, o, mapped, d)
					}
				}
			}
			f.remove()
		}
	}
}

// TestLongLineNote: a pattern whose matches may be longer than the
// overlap counts the long line (a match across a window edge may be
// missed); a bounded one does not.
func TestLongLineNote(t *testing.T) {
	data := []byte("x\n" + strings.Repeat("ab ", 100) + "\n")
	for _, c := range []struct {
		pattern string
		long    bool
	}{
		{"needle", false}, {`a[a-z_]{1,15}`, false}, {"(?i)b a|x", false}, {"", false},
		{"a.*z", true}, {"a+", true}, {`\w{17}`, true}, {"ab a{15}", true},
	} {
		for _, count := range []bool{false, true} {
			m, err := Compile(Options{Pattern: c.pattern, CountOnly: count})
			if err != nil {
				t.Fatal(err)
			}
			s := m.NewScanner()
			s.chunk, s.maxLine = 8, 64 // a margin of 16 bytes
			res, err := s.SearchReader(context.Background(), iotestOneByte(data))
			if err != nil {
				t.Fatal(err)
			}
			if (res.LongLines > 0) != c.long {
				t.Errorf("%q: LongLines %d, want a count: %v", c.pattern, res.LongLines, c.long)
			}
		}
	}
}

// TestLongLineRipgrep searches a 12 MiB line with matches around each edge
// of its real windows (4 MiB, overlapping by Margin), read and mapped,
// and compares the counts with ripgrep's (and the reference's).
func TestLongLineRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	if testing.Short() {
		t.Skip("12 MiB")
	}
	line := []byte(strings.Repeat("a", 12<<20))
	var at []int
	for _, edge := range []int{MaxLineBytes, 2*MaxLineBytes - Margin, 3*MaxLineBytes - 2*Margin} {
		for _, d := range []int{-Margin - 20, -Margin - 8, -Margin - 4, -Margin, -20, -9, -8, -7, -3, -1, 0, 1, 5} {
			at = append(at, edge+d)
		}
	}
	for _, p := range at {
		copy(line[p-1:], "a needle")
	}
	data := append([]byte("first a needle\n"), line...)
	data = append(data, "\nlast\n"...)
	dir := t.TempDir()
	name := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	for _, p := range []string{"needle", "a needle", "(?i)A NEEDLE", `e{2}d`, "a needle|x"} {
		out, err := exec.Command(rg, "--no-config", "--count-matches", "-e", p, name).Output()
		if err != nil {
			t.Fatalf("rg: %v", err)
		}
		want, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		ref := refSearch(Options{Pattern: p, CountOnly: true}, data)
		if want != ref.Matches || ref.MatchLines != 2 {
			t.Fatalf("%q: rg %d matches, the reference %d", p, want, ref.Matches)
		}
		m, err := Compile(Options{Pattern: p, CountOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, mapped := range []bool{false, true} {
			s := m.NewScanner()
			if !mapped {
				s.mapMin = -1
			}
			res, err := s.SearchFile(context.Background(), fsys, "long.txt", -1)
			if err != nil {
				t.Fatal(err)
			}
			if res.Matches != want || res.MatchLines != 2 || res.LongLines != 0 {
				t.Errorf("%q mapped %v: %s; rg finds %d matches", p, mapped, fmtResult(res), want)
			}
		}
	}
}

// longRangeLines builds a file from lines where "L" stands for a long line
// of 150 bytes (more than two test windows of 64) without a match, and
// "L3", "L100" for one with "needle" at that offset: in its first window,
// or in a later one.
func longRangeLines(lines ...string) []byte {
	var b strings.Builder
	for _, l := range lines {
		if at, ok := strings.CutPrefix(l, "L"); ok {
			long := []byte(strings.Repeat("x", 150))
			if n, err := strconv.Atoi(at); err == nil {
				copy(long[n:], "needle")
			}
			l = string(long)
		}
		b.WriteString(l + "\n")
	}
	return []byte(b.String())
}

// TestLongLineRangesContext searches long lines (windows of 64 bytes)
// with context before and after them, line ranges that cut through that
// context, a limit of matching lines or FirstOnly, read and mapped, and
// compares with the reference: the context lines before a long line out
// of the ranges are kept for a match after it, those kept before a long
// line count by their numbers, a long line whose match past its first
// window is over the limit is not shown as context, and after-context
// goes on past a long line once the search has stopped.
func TestLongLineRangesContext(t *testing.T) {
	type search struct {
		data   []byte
		ranges [][2]int
		before int
		after  int
		max    int  // MaxMatchesPerFile
		first  bool // FirstOnly
	}
	searches := []search{
		// Line 3 (long, out of the ranges) ends the buffer that holds
		// line 1: it comes before the match in line 4.
		{longRangeLines("a", "a", "L100", "L100", "b needle"), [][2]int{{1, 1}, {4, 6}}, 3, 0, 0, false},
		{longRangeLines("b needle", "L", "a", "L", "L100"), [][2]int{{3, 3}, {5, 6}}, 2, 0, 0, false},
		{longRangeLines("a", "L", "L", "a", "L", "L3", "L3"), [][2]int{{4, 4}, {6, 7}}, 3, 2, 0, false},
		{longRangeLines("L", "L", "L", "L", "L", "L100", "L3", "L3"), [][2]int{{4, 4}, {6, 8}}, 3, 2, 0, false},
		// Line 2 is out of the ranges: of the lines kept before line 3,
		// only line 1 is shown, too far from line 4 for two lines before.
		{longRangeLines("a", "a", "L", "b needle"), [][2]int{{1, 1}, {3, 4}}, 2, 0, 0, false},
		{longRangeLines("b needle", "a", "L", "L", "L100", "L140", "b needle"), [][2]int{{1, 3}, {7, 7}}, 3, 0, 0, false},
		// The match of line 3 lies past its first window, shown as
		// context after line 2: the limit stops before it.
		{longRangeLines("L", "L3", "L100", "a"), nil, 0, 3, 1, false},
		{longRangeLines("b needle", "a", "L", "L100"), [][2]int{{1, 3}, {4, 4}}, 1, 3, 1, false},
		// After the first match, the after-context goes on past the end
		// of long line 2 (was a slice panic: where it ended was lost).
		{longRangeLines("b needle", "L", "b needle", "L"), nil, 0, 3, 0, true},
	}
	r := rand.New(rand.NewPCG(3, 4))
	kinds := []string{"a", "b needle", "", "c needle\r", "L", "L3", "L60", "L100", "L145"}
	for range 3000 {
		var s search
		lines := make([]string, 2+r.IntN(9))
		for i := range lines {
			lines[i] = kinds[r.IntN(len(kinds))]
		}
		s.data = longRangeLines(lines...)
		for k := 1 + r.IntN(3); k > 0; k-- {
			a := 1 + r.IntN(len(lines))
			s.ranges = append(s.ranges, [2]int{a, a + r.IntN(3)})
		}
		s.before, s.after = r.IntN(6), r.IntN(5)
		if r.IntN(5) == 0 {
			s.max = 1 + r.IntN(3)
		}
		s.first = r.IntN(7) == 0
		searches = append(searches, s)
	}
	ctx := context.Background()
	for i, se := range searches {
		for _, p := range []string{"needle", "ne{1,3}dle", "x{3}n", "^", "e$"} {
			o := Options{Pattern: p, MaxColumns: []int{10, 0, 40}[i%3], FirstOnly: se.first, Before: se.before, After: se.after, LineRanges: se.ranges, MaxMatchesPerFile: se.max}
			m, err := Compile(o)
			if err != nil {
				t.Fatal(err)
			}
			want := refSearch(o, se.data)
			s := m.NewScanner()
			for _, mapped := range []bool{false, true} {
				if mapped && i%10 != 0 && i >= 6 {
					continue // a mapped file for the table and every tenth search
				}
				s.chunk, s.maxLine, s.mapMin = 8, 64, -1
				var got *FileResult
				if mapped {
					f := newMappedFile(t, se.data)
					got, err = f.search(ctx, s)
					f.remove()
				} else {
					got, err = s.SearchReader(ctx, iotestOneByte(se.data))
				}
				if err != nil {
					t.Fatal(err)
				}
				if d := diff(windowed(want, got, o), got); d != "" {
					t.Fatalf("search %d %q in %q, %+v, mapped %v:\n%s", i, p, se.data, o, mapped, d)
				}
			}
		}
	}
}
