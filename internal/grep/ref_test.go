package grep

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// refSearch is the naive reference for line mode: split the data into
// lines, run regexp on each, then apply context, limits and ranges.
func refSearch(o Options, data []byte) *FileResult {
	res := &FileResult{}
	if enc, name := bomEncoding(data); enc != nil {
		data, _ = enc.NewDecoder().Bytes(data)
		res.Encoding = name
	} else if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
		data = data[3:]
		res.Encoding = "utf-8"
	}
	scan := o.BinaryScan
	if scan == 0 {
		scan = DefaultBinaryScan
	}
	nul := false // a late NUL ends the data; reported if the search gets there
	nulLine := 0
	if scan > 0 {
		if i := bytes.IndexByte(data, 0); i >= 0 {
			if i < scan {
				return &FileResult{Binary: true, Encoding: res.Encoding}
			}
			data = data[:bytes.LastIndexByte(data[:i], '\n')+1]
			nul = true
			nulLine = bytes.Count(data, []byte{'\n'}) + 1
		}
	}
	flags := ""
	if o.IgnoreCase {
		flags += "i"
	}
	if o.Multiline {
		flags += "m"
	}
	if o.DotAll {
		flags += "s"
	}
	src := o.Pattern
	if flags != "" {
		src = "(?" + flags + ")" + src
	}
	re, lineIdx := refMatches(src, data)
	var lines [][]byte
	full := data
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		l := data[:i]
		if len(l) > 0 && l[len(l)-1] == '\r' {
			l = l[:len(l)-1]
		}
		lines = append(lines, l)
		data = data[i+1:]
	}
	ranges := normRanges(o.LineRanges)
	inRange := func(n int) bool {
		if ranges == nil {
			return true
		}
		for _, r := range ranges {
			if n >= r[0] && n <= r[1] {
				return true
			}
		}
		return false
	}
	var hits []hit
	lastRange := int(^uint(0) >> 1)
	if ranges != nil {
		lastRange = ranges[len(ranges)-1][1]
	}
	whole := m0whole(o)
	if whole {
		hits = refWhole(re, full, inRange)
		lines = lines[:0]
		for _, l := range bytes.SplitAfter(full, []byte{'\n'}) {
			if len(l) > 0 {
				lines = append(lines, trimTerm(l))
			}
		}
	}
	for i, l := range lines {
		if whole {
			break // the hits come from refWhole
		}
		if !inRange(i + 1) {
			continue
		}
		if idx := lineIdx(i, l); idx != nil {
			h := hit{n: i + 1, count: len(idx)}
			for _, x := range idx {
				h.spans = append(h.spans, [2]int{x[0], x[1]})
			}
			hits = append(hits, h)
		}
	}
	if nul && nulLine <= lastRange && !(o.FirstOnly && len(hits) > 0) && !(!o.CountOnly && o.MaxMatchesPerFile > 0 && len(hits) > o.MaxMatchesPerFile) {
		res.Truncated, res.Stop = true, StopNUL
	}
	if o.CountOnly {
		if o.FirstOnly && len(hits) > 1 {
			hits = hits[:1]
		}
		for _, h := range hits {
			res.MatchLines++
			res.Matches += h.count
		}
		return res
	}
	limit := len(hits)
	if o.FirstOnly {
		limit = min(limit, 1)
	}
	if o.MaxMatchesPerFile > 0 && limit > o.MaxMatchesPerFile {
		limit = o.MaxMatchesPerFile
		res.Truncated, res.Stop = true, StopLimit
	}
	stopAt := len(lines) + 1 // first line that may not be reported
	if res.Stop == StopLimit {
		stopAt = hits[limit].n
	}
	show := map[int]bool{}
	isMatch := map[int][][2]int{}
	count := map[int]int{}
	for _, h := range hits[:limit] {
		isMatch[h.n], count[h.n] = h.spans, h.count
		for k := h.n - o.Before; k <= h.n+o.After; k++ {
			if k >= 1 && k <= len(lines) && k < stopAt && inRange(k) {
				show[k] = true
			}
		}
		res.MatchLines++
		res.Matches += h.count
	}
	for n := 1; n <= len(lines); n++ {
		if !show[n] {
			continue
		}
		spans, m := isMatch[n]
		l := refLine(lines[n-1], n, m, spans, o.MaxColumns)
		l.Matches = count[n]
		res.Lines = append(res.Lines, l)
	}
	return res
}

// refMemo holds the regexp of the last reference search and the matches
// it found in each line of that search's data: the tests search the same
// data with one pattern in many modes, and the regexp's matching (its
// backtracker allocates for each match) is most of their time under -race.
var refMemo struct {
	sync.Mutex
	src, data string
	re        refRegexp
	lines     map[int][][]int // by line index
}

// refMatches returns the regexp of src and the function giving the
// matches of regexp in line i of data, l: re.FindAllIndex(l, -1), found
// once per pattern, data and line.
func refMatches(src string, data []byte) (refRegexp, func(i int, l []byte) [][]int) {
	refMemo.Lock()
	defer refMemo.Unlock()
	if refMemo.re == nil || refMemo.src != src {
		refMemo.src, refMemo.re = src, mustRef(src)
		refMemo.data, refMemo.lines = "", nil
	}
	if refMemo.lines == nil || refMemo.data != string(data) {
		refMemo.data, refMemo.lines = string(data), map[int][][]int{}
	}
	re, lines := refMemo.re, refMemo.lines
	return re, func(i int, l []byte) [][]int {
		refMemo.Lock()
		defer refMemo.Unlock()
		idx, ok := lines[i]
		if !ok {
			idx = re.FindAllIndex(l, -1)
			lines[i] = idx
		}
		return idx
	}
}

// refLine decodes a line rune by rune (invalid bytes as U+FFFD), maps the
// spans, and cuts at maxCols characters.
func refLine(raw []byte, n int, match bool, spans [][2]int, maxCols int) Line {
	var text []byte
	pos := map[int]int{}
	for i := 0; i < len(raw); {
		r, w := utf8.DecodeRune(raw[i:])
		pos[i] = len(text)
		text = utf8.AppendRune(text, r)
		i += w
	}
	pos[len(raw)] = len(text)
	ln := Line{Number: n, Match: match}
	cut := len(text)
	if maxCols > 0 && utf8.RuneCount(text) > maxCols {
		cut = 0
		for range maxCols {
			_, w := utf8.DecodeRune(text[cut:])
			cut += w
		}
		ln.Cut = true
	}
	ln.Text = string(text[:cut])
	if match {
		ln.Spans = [][2]int{}
		for _, s := range spans {
			a, b := pos[s[0]], pos[s[1]]
			if a > cut || (a == cut && b > a) {
				break
			}
			ln.Spans = append(ln.Spans, [2]int{a, min(b, cut)})
		}
	}
	return ln
}

// diff describes the difference between two results, or "".
func diff(want, got *FileResult) string {
	if sameResult(want, got) {
		return ""
	}
	w, g := fmtResult(want), fmtResult(got)
	if w == g {
		return ""
	}
	return fmt.Sprintf("want:\n%s\ngot:\n%s", w, g)
}

func fmtResult(r *FileResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lines=%d matches=%d binary=%v trunc=%v stop=%q enc=%q long=%d\n",
		r.MatchLines, r.Matches, r.Binary, r.Truncated, r.Stop, r.Encoding, r.LongLines)
	for _, l := range r.Lines {
		spans := l.Spans
		if len(spans) == 0 {
			spans = nil
		}
		fmt.Fprintf(&b, "  %d match=%v cut=%v %q %v\n", l.Number, l.Match, l.Cut, l.Text, spans)
	}
	return b.String()
}

// searchAll runs o over data through every entry point and buffer size,
// and returns the first result that differs from want (or "").
func searchAll(t testing.TB, o Options, data []byte, want *FileResult) string {
	t.Helper()
	return searchVariants(t, o, data, want, true)
}

// searchVariants is searchAll, through a mapped file of the OS only when
// mapped is set.
func searchVariants(t testing.TB, o Options, data []byte, want *FileResult, mapped bool) string {
	t.Helper()
	m, err := Compile(o)
	if err != nil {
		t.Fatalf("Compile(%+v): %v", o, err)
	}
	ctx := context.Background()
	type variant struct {
		name string
		run  func(*Scanner) (*FileResult, error)
	}
	variants := []variant{
		{"bytes", func(s *Scanner) (*FileResult, error) { return s.SearchBytes(ctx, data) }},
		{"reader", func(s *Scanner) (*FileResult, error) { return s.SearchReader(ctx, bytes.NewReader(data)) }},
		{"reader/chunk8", func(s *Scanner) (*FileResult, error) {
			s.chunk, s.maxLine = 8, 64
			return s.SearchReader(ctx, iotestOneByte(data))
		}},
		{"bytes/tinydfa", func(s *Scanner) (*FileResult, error) {
			s.dfa = newDFA(m.prog)
			s.dfa.limit = 3 // flushes, and soon the regexp fallback
			return s.SearchBytes(ctx, data)
		}},
		{"bytes/leave", func(s *Scanner) (*FileResult, error) {
			s.dfa = newDFA(m.prog)
			s.dfa.leave = 1 // nearly every line is left to the match automata
			s.dfa.reset()
			return s.SearchBytes(ctx, data)
		}},
		{"reader/chunk3", func(s *Scanner) (*FileResult, error) {
			s.chunk, s.maxLine = 3, 1<<20
			return s.SearchReader(ctx, bytes.NewReader(data))
		}},
		// A reader of known size, as a file read and not mapped: a long
		// line's buffer jumps to the rest of the file (growLine).
		{"sized/chunk8", func(s *Scanner) (*FileResult, error) {
			s.chunk, s.maxLine = 8, 64
			return searchSized(ctx, s, bytes.NewReader(data), len(data))
		}},
		{"sized1/chunk8", func(s *Scanner) (*FileResult, error) {
			s.chunk, s.maxLine = 8, 64
			return searchSized(ctx, s, iotestOneByte(data), len(data))
		}},
		// FirstOnly reads a first chunk of start bytes, then chunks: a long
		// line grows the buffer past a chunk in the first.
		{"sized/chunk16", func(s *Scanner) (*FileResult, error) {
			s.chunk, s.maxLine, s.start = 16, 64, 4
			return searchSized(ctx, s, bytes.NewReader(data), len(data))
		}},
	}
	if mapped {
		f := newMappedFile(t, data)
		defer f.remove()
		variants = append(variants,
			variant{"mapped", func(s *Scanner) (*FileResult, error) { return f.search(ctx, s) }},
			variant{"mapped/chunk8", func(s *Scanner) (*FileResult, error) {
				s.chunk, s.maxLine = 8, 64
				return f.search(ctx, s)
			}},
			variant{"mapped/chunk16", func(s *Scanner) (*FileResult, error) {
				s.chunk, s.maxLine, s.start = 16, 64, 4
				return f.search(ctx, s)
			}})
	}
	sc := m.NewScanner()
	for _, v := range variants {
		sc.chunk, sc.maxLine, sc.mapMin, sc.start, sc.dfa = readSize, MaxLineBytes, mapSize, streamStart, newDFA(m.prog)
		for rep := 0; rep < 2; rep++ { // the second run reuses buffers and caches
			got, err := v.run(sc)
			if err != nil {
				return fmt.Sprintf("%s: error %v", v.name, err)
			}
			if got.LongLines > 0 { // windows: only the "bytes" variants must agree
				continue
			}
			w := want
			if strings.HasSuffix(v.name, "chunk8") || strings.HasSuffix(v.name, "chunk16") { // maxLine 64
				if text := searched(data); bytes.IndexByte(text, 0) >= 0 && holdsLonger(text, 64) {
					continue // the windows before a NUL's are searched
				}
				w = windowed(want, got, o)
			}
			if d := diff(w, got); d != "" {
				return fmt.Sprintf("%s (run %d) pattern %q data %q opts %+v\n%s", v.name, rep, o.Pattern, data, o, d)
			}
		}
	}
	return ""
}

// searchSized searches r, which holds size bytes, as a file that is read
// and not mapped.
func searchSized(ctx context.Context, s *Scanner, r io.Reader, size int) (*FileResult, error) {
	res, err := s.search(ctx, r, nil, int64(size), how{})
	s.settle(res)
	return res, err
}

// windowed returns want as a search in windows gives it where a line is
// longer than a window: the text of such a line holds at most its first
// window (Cut; so does a line as long as the window whose end was not read
// yet), and FirstOnly counts the matches of the windows up to the
// first that holds one.
func windowed(want, got *FileResult, o Options) *FileResult {
	w := *want
	if o.FirstOnly && got.Matches >= 1 && got.Matches <= want.Matches {
		w.Matches = got.Matches
	}
	if len(got.Lines) != len(want.Lines) {
		return &w
	}
	w.Lines = slices.Clone(want.Lines)
	for i, g := range got.Lines {
		l := &w.Lines[i]
		if g.Cut && len(g.Text) <= len(l.Text) && strings.HasPrefix(l.Text, g.Text) {
			l.Text, l.Cut, l.Spans = g.Text, true, new(lineMem).clip(l.Spans, len(g.Text), nil)
		}
	}
	return &w
}

// searched returns data as the engine searches it: decoded to UTF-8 when a
// byte-order mark says UTF-16 or UTF-32 (a NUL and the lengths of lines
// are those of the decoded text).
func searched(data []byte) []byte {
	if enc, _ := bomEncoding(data); enc != nil {
		text, _ := enc.NewDecoder().Bytes(data)
		return text
	}
	return data
}

// holdsLonger reports that data holds a line longer than n bytes.
func holdsLonger(data []byte, n int) bool {
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		if len(l) > n {
			return true
		}
	}
	return false
}

// oneByteReader returns one byte per Read call.
type oneByteReader struct{ data []byte }

func iotestOneByte(b []byte) *oneByteReader { return &oneByteReader{b} }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.data[0]
	r.data = r.data[1:]
	return 1, nil
}

type hit struct {
	n     int      // line number
	spans [][2]int // into the line without terminator
	count int      // matches counted on this line
}

func m0whole(o Options) bool {
	m, err := Compile(o)
	return err == nil && m.whole
}

// trimTerm removes a "\n" or "\r\n" terminator.
func trimTerm(l []byte) []byte {
	if bytes.HasSuffix(l, []byte("\r\n")) {
		return l[:len(l)-2]
	}
	return bytes.TrimSuffix(l, []byte{'\n'})
}

// refWhole is the reference of whole-file mode: every line a match of the
// whole text touches is a matching line; a match counts on its first line.
func refWhole(re refRegexp, data []byte, inRange func(int) bool) []hit {
	lineOf := func(p int) int { return bytes.Count(data[:p], []byte{'\n'}) + 1 }
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	byLine := map[int]*hit{}
	var order []int
	for _, x := range re.FindAllIndex(data, -1) {
		a, b := x[0], x[1]
		if a == len(data) && (len(data) == 0 || data[len(data)-1] == '\n') {
			continue // past the last line
		}
		first, last := lineOf(a), lineOf(a)
		if b > a {
			last = lineOf(b - 1)
		}
		for n := first; n <= last; n++ {
			if !inRange(n) {
				continue
			}
			ls := starts[n-1]
			le := len(data)
			if n < len(starts) {
				le = starts[n] - 1
			}
			text := trimTerm(data[ls:min(le+1, len(data))])
			h := byLine[n]
			if h == nil {
				h = &hit{n: n}
				byLine[n] = h
				order = append(order, n)
			}
			h.spans = append(h.spans, [2]int{min(max(a, ls)-ls, len(text)), min(b-ls, len(text))})
			if n == first {
				h.count++
			}
		}
	}
	var out []hit
	for _, n := range order {
		out = append(out, *byLine[n])
	}
	if out == nil {
		out = []hit{}
	}
	return out
}

func sameResult(a, b *FileResult) bool {
	if a.MatchLines != b.MatchLines || a.Matches != b.Matches || a.Binary != b.Binary ||
		a.Truncated != b.Truncated || a.Stop != b.Stop || a.Encoding != b.Encoding ||
		a.LongLines != b.LongLines || len(a.Lines) != len(b.Lines) {
		return false
	}
	for i := range a.Lines {
		x, y := a.Lines[i], b.Lines[i]
		if x.Number != y.Number || x.Text != y.Text || x.Match != y.Match || x.Cut != y.Cut || x.Matches != y.Matches || len(x.Spans) != len(y.Spans) {
			return false
		}
		for k := range x.Spans {
			if x.Spans[k] != y.Spans[k] {
				return false
			}
		}
	}
	return true
}
