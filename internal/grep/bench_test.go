package grep

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

// benchPatterns are the patterns the engine is measured on: a literal, a
// case-insensitive literal, an alternation, no literal, an inner literal,
// a frequent word, a Unicode class, a word boundary and \w (Unicode).
var benchPatterns = []struct {
	name string
	o    Options
}{
	{"floor", Options{Pattern: "zqxjzqxj"}}, // walk + read: the floor
	{"literal", Options{Pattern: "ErrUnexpectedEOF"}},
	{"ignorecase", Options{Pattern: "errunexpectedeof", IgnoreCase: true, CountOnly: true}},
	{"alternation", Options{Pattern: "ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe", CountOnly: true}},
	{"noliteral", Options{Pattern: "[A-Z][a-z]+[0-9]{2,}[a-z]", CountOnly: true}},
	{"innerliteral", Options{Pattern: `func [A-Z][a-zA-Z]*\(ctx context\.Context`}},
	{"return", Options{Pattern: "return", MaxColumns: 512}},
	{"files", Options{Pattern: "func main", FirstOnly: true, CountOnly: true}},
	{"greek", Options{Pattern: `\p{Greek}`, CountOnly: true}},
	{"boundary", Options{Pattern: `\bi\b`, CountOnly: true}},
	{"wordclass", Options{Pattern: `\w+[0-9]\w`, CountOnly: true}},
}

// corpus builds a deterministic Go-like text of about n bytes.
func corpus(n int) []byte {
	words := []string{"func", "return", "if", "err", "!=", "nil", "{", "}", "ctx", "context.Context",
		"x", "y2", "Buffer", "ErrShortWrite", "Value12a", "for", "i", ":=", "range", "ÄÖü", "string"}
	r := rand.New(rand.NewPCG(5, 6))
	var b bytes.Buffer
	for b.Len() < n {
		for k := 2 + r.IntN(10); k > 0; k-- {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// BenchmarkSearchBytes measures the engine alone on an in-memory corpus.
func BenchmarkSearchBytes(b *testing.B) {
	benchEngine(b, corpus(8<<20))
}

// benchEngine runs every benchPatterns case over data with one Scanner,
// reporting the matching lines found.
func benchEngine(b *testing.B, data []byte) {
	for _, bp := range benchPatterns {
		b.Run(bp.name, func(b *testing.B) {
			m, err := Compile(bp.o)
			if err != nil {
				b.Fatal(err)
			}
			s := m.NewScanner()
			b.SetBytes(int64(len(data)))
			var res *FileResult
			for b.Loop() {
				if res, err = s.SearchBytes(context.Background(), data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.MatchLines), "matchlines")
		})
	}
}

// BenchmarkDenseLongLine searches one 1 MB line with a match every four
// bytes, in line mode and as one text (a pattern that may cross lines):
// each match's line is found without scanning the line again, and only
// the spans that can be shown are kept.
func BenchmarkDenseLongLine(b *testing.B) {
	data := []byte(strings.Repeat("ab c", 1<<18))
	for _, o := range []Options{
		{Pattern: "a.", MaxColumns: 500},
		{Pattern: "a.", DotAll: true, MaxColumns: 500},
		{Pattern: "a.", DotAll: true, CountOnly: true},
	} {
		m, err := Compile(o)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("whole=%v,count=%v", m.whole, o.CountOnly), func(b *testing.B) {
			s := m.NewScanner()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := s.SearchBytes(context.Background(), data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGoroot searches $GOROOT/src as a tool would: a WalkDir
// producer feeding one goroutine per worker, each with its own Scanner.
// Compare with `rg` on the same tree.
func BenchmarkGoroot(b *testing.B) {
	fsys := os.DirFS(testfs.GoSrc(b))
	for _, bp := range benchPatterns {
		b.Run(bp.name, func(b *testing.B) {
			m, err := Compile(bp.o)
			if err != nil {
				b.Fatal(err)
			}
			var total int
			for b.Loop() {
				total = searchTree(b, m, fsys, 2*runtime.GOMAXPROCS(0))
			}
			b.ReportMetric(float64(total), "matchlines")
		})
	}
}

type entry struct {
	path string
	size int64
}

// searchTree searches every non-hidden regular file of fsys and returns
// the number of matching lines.
func searchTree(tb testing.TB, m *Matcher, fsys fs.FS, workers int) int {
	ch := make(chan entry, 256)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := m.NewScanner()
			n := 0
			for e := range ch {
				res, err := s.SearchFile(context.Background(), fsys, e.path, -1)
				if err == nil {
					n += res.MatchLines
				}
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err == nil {
				ch <- entry{p, info.Size()}
			}
		}
		return nil
	})
	close(ch)
	wg.Wait()
	if err != nil {
		tb.Fatal(err)
	}
	return total
}

// BenchmarkGoText measures the engine alone on real text: the Go files
// of $GOROOT/src concatenated (up to 32 MiB).
func BenchmarkGoText(b *testing.B) {
	benchEngine(b, goText(b))
}

// goText returns the Go files of $GOROOT/src concatenated (up to 32
// MiB), or skips the benchmark.
func goText(b *testing.B) []byte {
	root := testfs.GoSrc(b)
	var data []byte
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && len(data) < 32<<20 {
			if c, err := os.ReadFile(p); err == nil {
				data = append(data, c...)
			}
		}
		return nil
	})
	if len(data) == 0 {
		b.Skip("no GOROOT/src")
	}
	return data
}

// BenchmarkLineDFA measures the line DFA's scan alone on the Go text,
// from one matching line to the next: DFAs of few states that leave their
// start state often (noliteral, 7 states; words) or rarely (greek), and
// one of more than 16 states (innerliteral).
func BenchmarkLineDFA(b *testing.B) {
	data := goText(b)
	for _, bp := range []struct{ name, pattern string }{
		{"noliteral", "[A-Z][a-z]+[0-9]{2,}[a-z]"},
		{"words", "[a-z]{4} [a-z]"},
		{"greek", `\p{Greek}`},
		{"innerliteral", `func [A-Z][a-zA-Z]*\(ctx context\.Context`},
	} {
		b.Run(bp.name, func(b *testing.B) {
			m, err := Compile(Options{Pattern: bp.pattern})
			if err != nil {
				b.Fatal(err)
			}
			d := newDFA(m.prog)
			b.SetBytes(int64(len(data)))
			lines := 0
			for b.Loop() {
				lines = 0
				for from := 0; from < len(data); {
					p := d.scan(data, from, len(data))
					if p < 0 {
						break
					}
					lines++
					j := bytes.IndexByte(data[p:], '\n')
					if j < 0 {
						break
					}
					from = p + j + 1
				}
			}
			b.ReportMetric(float64(lines), "matchlines")
		})
	}
}

// BenchmarkCancel cancels each of cancelCases at random moments (0-50 ms
// in) and reports the worst and the median time from the cancel to the
// search's return, over the searches that the cancel reached: the target
// is 100 ms at most.
func BenchmarkCancel(b *testing.B) {
	for i, c := range cancelCases {
		b.Run(strings.ReplaceAll(c.name, " ", "-"), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, uint64(i)))
			var lat []time.Duration
			for b.Loop() {
				if late, _ := searchUntilCanceled(b, i, time.Duration(r.IntN(50_000))*time.Microsecond); late >= 0 {
					lat = append(lat, late)
				} // else done before the cancel (a whole-file search stops at its cap)
			}
			if len(lat) == 0 {
				b.Skip("every search ended before its cancel")
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "worst-ms")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		})
	}
}

// BenchmarkCancelMapped is BenchmarkCancel on a mapped file of 256 MiB
// of each case's text (one line where the text has no newline), over the
// searches that the cancel reached.
func BenchmarkCancelMapped(b *testing.B) {
	for i, c := range cancelCases {
		b.Run(strings.ReplaceAll(c.name, " ", "-"), func(b *testing.B) {
			f := newMappedFile(b, bytes.Repeat([]byte(c.block), (256<<20)/len(c.block)))
			defer f.remove()
			r := rand.New(rand.NewPCG(1, uint64(i)))
			var lat []time.Duration
			for b.Loop() {
				late, err := searchUntilCanceledIn(b, i, time.Duration(r.IntN(50_000))*time.Microsecond, func(ctx context.Context, s *Scanner) error {
					_, err := f.search(ctx, s)
					return err
				})
				if err == nil {
					continue // done before the cancel (a whole-file search stops at its cap)
				}
				if errs.CodeOf(err) != errs.Canceled {
					b.Fatalf("error %v, want CANCELED", err)
				}
				lat = append(lat, late)
			}
			if len(lat) == 0 {
				b.Skip("every search ended before its cancel")
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "worst-ms")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		})
	}
}

// BenchmarkLongLine searches one 64 MiB line (16 windows), read and
// mapped: a rare literal (one match, across a window edge), a frequent
// one counted, a pattern with a frequent inner literal counted, one
// without a literal counted, and one with an unbounded repetition.
// Compare with `rg --count-matches` on the same file.
func BenchmarkLongLine(b *testing.B) {
	line := bytes.Repeat([]byte("some words of a long line "), (64<<20)/26)
	copy(line[MaxLineBytes-3:], "a needle")
	line = append(line, '\n')
	name := filepath.Join(b.TempDir(), "long.txt")
	if err := os.WriteFile(name, line, 0o644); err != nil {
		b.Fatal(err)
	}
	fsys, closeFn, err := fsx.OpenDir(filepath.Dir(name)) // whose files fsx.Map maps
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	for _, o := range []Options{
		{Pattern: "needle", MaxColumns: 512},
		{Pattern: "words", CountOnly: true},
		{Pattern: "[a-z]ong", CountOnly: true},
		{Pattern: "[a-z]{4} [a-z]", CountOnly: true},
		{Pattern: "n.*e", CountOnly: true},
	} {
		m, err := Compile(o)
		if err != nil {
			b.Fatal(err)
		}
		for _, mapped := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/mapped=%v", o.Pattern, mapped), func(b *testing.B) {
				s := m.NewScanner()
				s.mapMin = -1
				if mapped {
					s.mapMin = 0 // whether that pays here or not
				}
				b.SetBytes(int64(len(line)))
				for b.Loop() {
					if _, err := s.SearchFile(context.Background(), fsys, "long.txt", -1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// bigStatePatterns are patterns whose automaton states are huge: a state
// of a chain of 3000 character classes holds up to 3000 threads, and a
// search passes through 3000 such states before each match.
var bigStatePatterns = []struct {
	name string
	o    Options
}{
	{"chain3000/count", Options{Pattern: strings.Repeat("(?:a|b)", 3000), CountOnly: true}},
	{"chain3000/files", Options{Pattern: strings.Repeat("(?:a|b)", 3000), CountOnly: true, FirstOnly: true}},
	{"chain3000/content", Options{Pattern: strings.Repeat("(?:a|b)", 3000), MaxColumns: 512}},
	{"chain3000/ignorecase", Options{Pattern: strings.Repeat("[ab]", 3000), IgnoreCase: true, CountOnly: true}},
	{"repeat1000/count", Options{Pattern: "[ab]{1000}", CountOnly: true}},
	{"pairs500x/count", Options{Pattern: "(?:ab|ba|aa){500}x", CountOnly: true}},
}

// BenchmarkBigStates searches a 256 KiB line of random letters a and b
// for each of bigStatePatterns, and a text of such lines of 4 KiB.
// Compare with `rg --count-matches` on the same text.
func BenchmarkBigStates(b *testing.B) {
	line := []byte(abText(256<<10) + "\n")
	var lines []byte
	for i := 0; i < len(line)-1; i += 4 << 10 {
		lines = append(append(lines, line[i:i+4<<10]...), '\n')
	}
	for _, bp := range bigStatePatterns {
		for _, text := range []struct {
			name string
			data []byte
		}{{"line", line}, {"lines", lines}} {
			b.Run(bp.name+"/"+text.name, func(b *testing.B) {
				m, err := Compile(bp.o)
				if err != nil {
					b.Fatal(err)
				}
				s := m.NewScanner()
				b.SetBytes(int64(len(text.data)))
				var res *FileResult
				for b.Loop() {
					if res, err = s.SearchBytes(context.Background(), text.data); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Matches), "matches")
			})
		}
	}
}

// BenchmarkBigStatesFresh is what a command-line search for one of
// bigStatePatterns costs the engine: it compiles the pattern and searches
// a 2 MB line of random letters a and b with a new scanner, whose automata
// build every state they pass through.
func BenchmarkBigStatesFresh(b *testing.B) {
	line := []byte(abText(2_000_000) + "\n")
	for _, bp := range bigStatePatterns {
		if !bp.o.CountOnly || bp.o.FirstOnly || bp.o.IgnoreCase {
			continue
		}
		b.Run(strings.TrimSuffix(bp.name, "/count"), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			var res *FileResult
			for b.Loop() {
				m, err := Compile(bp.o)
				if err != nil {
					b.Fatal(err)
				}
				if res, err = m.NewScanner().SearchBytes(context.Background(), line); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Matches), "matches")
		})
	}
}
