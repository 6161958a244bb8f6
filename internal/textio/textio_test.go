package textio

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// naive is the reference: split the whole text on '\n', no phantom last line.
func naive(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// want computes what Collect must return for windows over text, by the
// naive split, for windows without byte caps and a column cap.
func wantBlocks(text string, wins []Window, raw bool) ([][]Line, int) {
	lines := naive(text)
	var out [][]Line
	for _, w := range wins {
		var got []Line
		for n := max(w.Start, 1); n <= len(lines); n++ {
			if w.End != 0 && n > w.End {
				break
			}
			if w.MaxLines > 0 && len(got) == w.MaxLines {
				break
			}
			s := lines[n-1]
			full := len(s)
			if !raw {
				s = strings.TrimSuffix(s, "\r")
			}
			got = append(got, Line{N: n, Text: strings.ToValidUTF8(s, "\uFFFD"), Bytes: full})
		}
		out = append(out, got)
	}
	return out, len(lines)
}

func randomText(r *rand.Rand) string {
	pieces := []string{"a", "bc", "\n", "\r\n", "\n\n", "é", "日本", "\r", "x y", "\xff", "🙂"}
	var b strings.Builder
	n := r.Intn(60)
	for range n {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

func randomWindows(r *rand.Rand, total int) []Window {
	var ws []Window
	start := 1
	for len(ws) < 3 {
		start += r.Intn(4)
		if r.Intn(4) == 0 {
			ws = append(ws, Window{Start: start, MaxLines: r.Intn(5)})
			break
		}
		end := start + r.Intn(5)
		ws = append(ws, Window{Start: start, End: end, MaxLines: r.Intn(6)})
		start = end + 1
		if start > total+3 {
			break
		}
	}
	return ws
}

// TestCollectDifferential checks the streamed reader against the naive
// split over random texts (CRLF, lone CR, empty lines, no final newline,
// multi-byte runes split across buffers, invalid bytes), random windows and
// tiny buffer sizes.
func TestCollectDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range 3000 {
		text := randomText(r)
		total := len(naive(text))
		wins := randomWindows(r, total)
		raw := r.Intn(2) == 0
		size := 1 + r.Intn(7)
		limit := int64(r.Intn(3) * r.Intn(8)) // 0 (to the end) one time in three
		res, err := collect(context.Background(), strings.NewReader(text), wins, Options{Raw: raw, CountLimit: limit}, size)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		want, wantTotal := wantBlocks(text, wins, raw)
		switch {
		case res.TotalAtLeast && (limit == 0 || res.Total > wantTotal || res.Bytes > int64(len(text))):
			t.Fatalf("case %d %q limit %d: total at least %d after %d bytes, want a lower bound of %d before the end", i, text, limit, res.Total, res.Bytes, wantTotal)
		case !res.TotalAtLeast && (res.Total != wantTotal || res.Bytes != int64(len(text))):
			t.Fatalf("case %d %q: total %d, bytes %d; want %d, %d", i, text, res.Total, res.Bytes, wantTotal, len(text))
		}
		for _, b := range res.Blocks {
			if res.TotalAtLeast && (res.Total < b.Last() || b.Stop != StopNone && res.Total <= b.Last()) {
				t.Fatalf("case %d %q: total at least %d, but block %+v collected line %d (stop %q)", i, text, res.Total, b.Window, b.Last(), b.Stop)
			}
		}
		for j, b := range res.Blocks {
			if res.TotalAtLeast {
				// Nothing after line Total is read.
				for len(want[j]) > 0 && want[j][len(want[j])-1].N > res.Total {
					want[j] = want[j][:len(want[j])-1]
				}
			}
			if res.TotalAtLeast && len(b.Lines) > 0 && b.Last() == res.Total {
				// Reading stopped in the last line collected: it is cut.
				l := b.Lines[len(b.Lines)-1]
				w := want[j][len(b.Lines)-1]
				if l.N != w.N || !l.Cut || l.Bytes > w.Bytes {
					t.Fatalf("case %d %q: last line %+v, want a cut start of %+v", i, text, l, w)
				}
				b.Lines = b.Lines[:len(b.Lines)-1]
				want[j] = want[j][:len(b.Lines)]
			}
			if fmt.Sprint(b.Lines) != fmt.Sprint(want[j]) && !(len(b.Lines) == 0 && len(want[j]) == 0) {
				t.Fatalf("case %d %q raw=%v buf=%d window %+v:\n got %+v\nwant %+v", i, text, raw, size, b.Window, b.Lines, want[j])
			}
		}
	}
}

func TestCollect(t *testing.T) {
	long := strings.Repeat("é", 1000)
	tests := []struct {
		name   string
		text   string
		wins   []Window
		o      Options
		want   string // lines as N:text joined by |, then the stop reason
		total  int
		reason string
	}{
		{"empty", "", []Window{{Start: 1}}, Options{}, "", 0, "an empty text has no lines"},
		{"final newline", "a\nb\n", []Window{{Start: 1}}, Options{}, "1:a|2:b|", 2, "a final newline does not add a phantom line"},
		{"no final newline", "a\nb", []Window{{Start: 1}}, Options{}, "1:a|2:b|", 2, "the last line counts without a newline"},
		{"crlf display", "a\r\nb\r\n", []Window{{Start: 1}}, Options{}, "1:a|2:b|", 2, "display mode drops one trailing CR"},
		{"crlf raw", "a\r\nb\r\n", []Window{{Start: 1}}, Options{Raw: true}, "1:a\r|2:b\r|", 2, "raw keeps the bytes"},
		{"max lines", "1\n2\n3\n4\n", []Window{{Start: 2, MaxLines: 2}}, Options{}, "2:2|3:3|lines", 4, "MaxLines stops the window"},
		{"max lines at end", "1\n2\n3\n", []Window{{Start: 2, MaxLines: 2}}, Options{}, "2:2|3:3|", 3, "no stop is recorded when the text ends with the window"},
		{"max bytes", "aaaa\nbbbb\ncccc\n", []Window{{Start: 1, MaxBytes: 10}}, Options{}, "1:aaaa|2:bbbb|bytes", 3, "a line that does not fit ends the window"},
		{"first line over budget", "aaaaaaaaaa\nb\n", []Window{{Start: 1, MaxBytes: 4}}, Options{}, "1:aaaaaaaaaa|bytes", 2, "the first line is always kept in display mode, so continuations progress"},
		{"budget counts cut lines whole", "aaaaaaaaaa\nbb\nc\n", []Window{{Start: 1, MaxBytes: 14}}, Options{MaxColumns: 3}, "1:aaa~|2:bb|bytes", 3, "a line the column cap shortens costs its length in the text (11+3 fit, not 4+3+2)"},
		{"budget counts a CR", "aaaaa\r\nbbbbbb\n", []Window{{Start: 1, MaxBytes: 13}}, Options{}, "1:aaaaa|bytes", 2, "the budget counts the bytes read, CR included (7+7 > 13)"},
		{"raw first line cut", "aaaaaaaaaa\nb\n", []Window{{Start: 1, MaxBytes: 4}}, Options{Raw: true}, "1:aaaa~|bytes", 2, "raw mode cuts a first line longer than the budget"},
		{"lead over budget", "aaaaaaaaaa\nb\nc\n", []Window{{Start: 1, MaxBytes: 4, Lead: 1}}, Options{}, "1:aaaaaaaaaa|2:b|bytes", 3, "a context line over the budget does not push out the line asked for after it, whose continuation would show the same page again"},
		{"lead and asked line over budget", "aaaaaaaaaa\nbbbbbbbbbb\nc\n", []Window{{Start: 1, MaxBytes: 4, Lead: 1}}, Options{MaxColumns: 3}, "1:aaa~|2:bbb~|bytes", 3, "both are kept, each cut to the column cap for display"},
		{"lead ignored in raw", "aaaaaaaaaa\nb\n", []Window{{Start: 1, MaxBytes: 4, Lead: 1}}, Options{Raw: true}, "1:aaaa~|bytes", 2, "raw windows have no context; a lead changes nothing"},
		{"column cap", long + "\nx\n", []Window{{Start: 1}}, Options{MaxColumns: 768}, "1:" + strings.Repeat("é", 768) + "~|2:x|", 2, "the cap counts characters, not bytes"},
		{"column cap raw", long + "\n", []Window{{Start: 1}}, Options{Raw: true, MaxColumns: 768}, "1:" + long + "|", 1, "raw has no column cap"},
		{"two windows", "1\n2\n3\n4\n5\n6\n", []Window{{Start: 2, End: 2}, {Start: 5, End: 9}}, Options{}, "2:2||5:5|6:6|", 6, "windows are collected in one pass"},
		{"beyond end", "1\n2\n", []Window{{Start: 5}}, Options{}, "", 2, "a window past the end collects nothing"},
		{"invalid utf8", "a\xffb\n", []Window{{Start: 1}}, Options{}, "1:a\uFFFDb|", 1, "invalid bytes become U+FFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Collect(context.Background(), strings.NewReader(tt.text), tt.wins, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, b := range res.Blocks {
				for _, l := range b.Lines {
					s := fmt.Sprintf("%d:%s", l.N, l.Text)
					if l.Cut {
						s += "~"
					}
					parts = append(parts, s)
				}
				parts = append(parts, string(b.Stop))
			}
			got := strings.Join(parts, "|")
			if tt.want == "" && res.Total == 0 || tt.want == "" && len(res.Blocks[0].Lines) == 0 {
				got = ""
			}
			if got != tt.want || res.Total != tt.total {
				t.Errorf("got %q total %d, want %q total %d (%s)", got, res.Total, tt.want, tt.total, tt.reason)
			}
		})
	}
}

func TestCollectBadWindows(t *testing.T) {
	tests := []struct {
		wins   []Window
		reason string
	}{
		{[]Window{{Start: 5, End: 6}, {Start: 2, End: 3}}, "unsorted"},
		{[]Window{{Start: 1, End: 6}, {Start: 6, End: 8}}, "overlapping"},
		{[]Window{{Start: 1}, {Start: 6, End: 8}}, "a window after an open-ended one"},
		{[]Window{{Start: 5, End: 3}}, "end before start"},
	}
	for _, tt := range tests {
		if _, err := Collect(context.Background(), strings.NewReader("x"), tt.wins, Options{}); err != ErrWindows {
			t.Errorf("%s: err = %v, want ErrWindows", tt.reason, err)
		}
	}
}

// TestCollectLongLineBounded reads a 64 MiB line with no newline: memory stays
// bounded by the caps (checked through the kept text) and the total is 1.
func TestCollectLongLineBounded(t *testing.T) {
	r := &repeatReader{n: 64 << 20}
	res, err := Collect(context.Background(), r, []Window{{Start: 1, MaxLines: 300, MaxBytes: 150 << 10}}, Options{MaxColumns: 768})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || len(res.Blocks[0].Lines) != 1 {
		t.Fatalf("total %d lines %d", res.Total, len(res.Blocks[0].Lines))
	}
	l := res.Blocks[0].Lines[0]
	if !l.Cut || utf8.RuneCountInString(l.Text) != 768 || l.Bytes != 64<<20 {
		t.Fatalf("line cut=%v runes=%d bytes=%d", l.Cut, utf8.RuneCountInString(l.Text), l.Bytes)
	}
}

// TestCollectCountLimit: the first lines of a huge text (a text head,
// then a 100 GB hole of NULs) are read without reading the rest, and a
// line past the hole is not looked for past 64 MiB into it; the total is
// then a lower bound.
func TestCollectCountLimit(t *testing.T) {
	head := strings.Repeat("a line of text\n", 5000)
	const hole = 100 << 30
	for _, tt := range []struct {
		wins      []Window
		wantLines int
		wantTotal int
		reason    string
	}{
		{Plan([]Range{{Start: 1, End: 5}}, PlanOptions{Before: 1, After: 3}), 8, 5001, "a range: its lines and context, then the count stops"},
		{Plan(nil, PlanOptions{}), 300, 5001, "an open-ended read of 300 lines"},
		{Plan([]Range{{Start: 4990, End: 5000}}, PlanOptions{Before: 1, After: 3}), 12, 5001, "a range that reaches the hole: lines 4989-5000; the hole's line, 64 MiB read, is over the byte budget and ends the window"},
		{Plan([]Range{{Start: 4990, End: 5000}}, PlanOptions{Raw: true}), 11, 5001, "... raw: the range exactly, then the count stops in the hole"},
		{Plan([]Range{{Start: 6000}}, PlanOptions{Before: 1}), 0, 5001, "a range past the hole's line: reading stops 64 MiB into it, line 6000 not reached"},
		{Plan([]Range{{Start: 6000}}, PlanOptions{Raw: true}), 0, 5001, "... raw"},
		{Plan([]Range{{Start: 5002, End: 5010}}, PlanOptions{Before: 1, After: 3}), 1, 5001, "a range whose context takes the hole's line: it is shown cut, line 5002 not reached"},
		{Plan([]Range{{Start: 5001, End: 5001}, {Start: 6000, End: 6001}}, PlanOptions{}), 1, 5001, "two ranges: the hole's line cut, the second range not reached"},
	} {
		r := &countingReader{r: io.MultiReader(strings.NewReader(head), &zeroReader{n: hole})}
		res, err := Collect(context.Background(), r, tt.wins, Options{MaxColumns: MaxColumns, CountLimit: 64 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Blocks[0].Lines) != tt.wantLines || !res.TotalAtLeast || res.Total != tt.wantTotal {
			t.Errorf("%s: %d lines, total %d (at least: %v); want %d lines, at least %d", tt.reason, len(res.Blocks[0].Lines), res.Total, res.TotalAtLeast, tt.wantLines, tt.wantTotal)
		}
		for _, b := range res.Blocks {
			if b.Last() == 5001 && !b.Lines[len(b.Lines)-1].Cut || len(res.Blocks) > 1 && len(res.Blocks[1].Lines) > 0 {
				t.Errorf("%s: blocks %+v, want the hole's line cut and nothing after it", tt.reason, res.Blocks)
			}
		}
		if r.n > int64(len(head))+64<<20+2*bufSize {
			t.Errorf("%s: read %d bytes, want at most the head, the count limit and a buffer", tt.reason, r.n)
		}
	}
}

// TestCollectCountLimitLongLine: a first line of 100 GB is shown cut
// without being read to its end.
func TestCollectCountLimitLongLine(t *testing.T) {
	r := &countingReader{r: &repeatReader{n: 100 << 30}}
	res, err := Collect(context.Background(), r, Plan(nil, PlanOptions{}), Options{MaxColumns: MaxColumns, CountLimit: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Blocks[0]
	if len(b.Lines) != 1 || !b.Lines[0].Cut || len(b.Lines[0].Text) != MaxColumns || res.Total != 1 || !res.TotalAtLeast || b.Stop != StopNone {
		t.Errorf("block %+v, total %d (at least %v); want line 1 cut to %d characters, at least 1 line", b.Window, res.Total, res.TotalAtLeast, MaxColumns)
	}
	if r.n > 64<<20+2*bufSize {
		t.Errorf("read %d bytes, want at most the count limit and a buffer", r.n)
	}
}

type zeroReader struct{ n int64 }

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), z.n))
	clear(p[:k])
	z.n -= int64(k)
	return k, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}

func TestCollectCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Collect(ctx, strings.NewReader("a"), nil, Options{}); err == nil {
		t.Fatal("want a context error")
	}
}

type repeatReader struct{ n int64 }

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	for i := range p[:k] {
		p[i] = 'x'
	}
	r.n -= int64(k)
	return k, nil
}

func TestPlan(t *testing.T) {
	tests := []struct {
		name   string
		ranges []Range
		o      PlanOptions
		want   string
		reason string
	}{
		{"default", nil, PlanOptions{}, "[{1 0 300 153600 0}]", "open-ended default: 300 lines, max(50KB, 300×512) bytes"},
		{"host limit", nil, PlanOptions{Limit: 10}, "[{1 0 10 51200 0}]", "the byte budget never drops below 50KB"},
		{"limit clamp", nil, PlanOptions{Limit: 99999}, "[{1 0 3000 1536000 0}]", "limits above 3000 are clamped"},
		{"in-memory head", nil, PlanOptions{Limit: MaxLimit, HeadBytes: 50 << 10}, "[{1 0 3000 51200 0}]", "in-memory sources are head-truncated at 50KB"},
		{"in-memory open range", []Range{{650, 0}}, PlanOptions{Limit: MaxLimit, HeadBytes: 50 << 10, Before: 1, After: 3}, "[{649 0 3000 51200 1}]", "paging an in-memory source keeps its 50KB budget"},
		{"in-memory huge range", []Range{{1, 5000}}, PlanOptions{Limit: MaxLimit, HeadBytes: 50 << 10, Before: 1, After: 3}, "[{1 5003 3000 51200 0}]", "so does a bounded range"},
		{"range exact", []Range{{41, 60}}, PlanOptions{}, "[{41 60 20 51200 0}]", "no context asked: the range exactly"},
		{"range widened", []Range{{41, 60}}, PlanOptions{Before: 1, After: 3}, "[{40 63 24 51200 1}]", "1 line before, 3 after"},
		{"range from 1", []Range{{1, 5}}, PlanOptions{Before: 1, After: 3}, "[{1 8 8 51200 0}]", "no leading context at line 1"},
		{"open range", []Range{{51, 0}}, PlanOptions{Before: 1, After: 3}, "[{50 0 301 154112 1}]", "open-ended: leading context only, on top of the default limit (pi's maxLinesToCollect = limit + context), so :51 shows lines 51-350 after line 50"},
		{"huge context", []Range{{5, 9}}, PlanOptions{Before: math.MaxInt, After: math.MaxInt}, "[{1 1073741832 3000 1536000 4}]", "context is bounded: no overflow"},
		{"raw exact", []Range{{41, 60}}, PlanOptions{Raw: true, Before: 1, After: 3}, "[{41 60 20 51200 0}]", "raw ranges are exact"},
		{"multi exact", []Range{{5, 16}, {960, 973}}, PlanOptions{Before: 1, After: 3}, "[{5 16 12 51200 0} {960 973 14 51200 0}]", "multi-ranges are read without context"},
		{"unlimited", nil, PlanOptions{Unlimited: true}, "[{1 0 0 0 0}]", "unlimited windows have no caps"},
		{"unlimited range", []Range{{41, 60}}, PlanOptions{Unlimited: true, Before: 1, After: 3}, "[{40 63 0 0 1}]", "ranges still get context"},
		{"huge range", []Range{{1, 100000}}, PlanOptions{After: 3}, "[{1 100003 3000 1536000 0}]", "a range collects at most 3000 lines"},
		{"open range, limit 1", []Range{{5, 0}}, PlanOptions{Limit: 1, Before: 1}, "[{4 0 2 51200 1}]", "a limit of 1 still shows the line asked for after its context, so :6 continues (it showed line 4 alone and said :5, forever)"},
		{"open range at the cap", []Range{{5, 0}}, PlanOptions{Limit: MaxLimit, Before: 1}, "[{4 0 3000 1536000 1}]", "the context counts within the 3000 lines a window shows at most"},
		{"lead at line 2", []Range{{2, 0}}, PlanOptions{Before: 5}, "[{1 0 301 154112 1}]", "the lead is only the lines there are before the start"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(Plan(tt.ranges, tt.o)); got != tt.want {
			t.Errorf("%s: got %s, want %s (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

func TestSniffDecode(t *testing.T) {
	tests := []struct {
		name   string
		in     []byte
		enc    Encoding
		binary bool
		text   string
		reason string
	}{
		{"utf8", []byte("héllo"), UTF8, false, "héllo", "plain UTF-8 passes through"},
		{"bom", []byte("\xEF\xBB\xBFhi"), UTF8BOM, false, "hi", "the UTF-8 BOM is dropped"},
		{"utf16le", []byte{0xFF, 0xFE, 'h', 0, 'i', 0}, UTF16LE, false, "hi", "UTF-16LE with a BOM is decoded, its NULs are not binary"},
		{"utf16be", []byte{0xFE, 0xFF, 0, 'h', 0, 'i'}, UTF16BE, false, "hi", "UTF-16BE with a BOM"},
		{"utf32le", []byte{0xFF, 0xFE, 0, 0, 'h', 0, 0, 0}, UTF32LE, false, "h", "UTF-32LE is told apart from UTF-16LE"},
		{"utf32be", []byte{0, 0, 0xFE, 0xFF, 0, 0, 0, 'h'}, UTF32BE, false, "h", "UTF-32BE"},
		{"binary", []byte("PK\x03\x04\x00\x00"), UTF8, true, "", "a NUL without a BOM is binary"},
	}
	for _, tt := range tests {
		enc, bin := Sniff(tt.in)
		if enc != tt.enc || bin != tt.binary {
			t.Errorf("%s: Sniff = %s %v, want %s %v (%s)", tt.name, enc, bin, tt.enc, tt.binary, tt.reason)
			continue
		}
		if bin {
			continue
		}
		b, err := io.ReadAll(Decode(bytes.NewReader(tt.in), enc))
		if err != nil || string(b) != tt.text {
			t.Errorf("%s: Decode = %q %v, want %q (%s)", tt.name, b, err, tt.text, tt.reason)
		}
	}
}

// FuzzCollect compares Collect with the naive split for any text, window and
// buffer size.
func FuzzCollect(f *testing.F) {
	f.Add("a\nb\r\nc", 2, 3, 1, false, 4)
	f.Add("", 1, 0, 0, true, 1)
	f.Add("é\n\n日本\xff\n", 1, 2, 5, false, 2)
	f.Fuzz(func(t *testing.T, text string, start, end, maxLines int, raw bool, size int) {
		if start < 1 || start > 1000 || end < 0 || end > 1000 || (end != 0 && end < start) || maxLines < 0 || maxLines > 1000 || size < 1 || size > 64 {
			return
		}
		wins := []Window{{Start: start, End: end, MaxLines: maxLines}}
		res, err := collect(context.Background(), strings.NewReader(text), wins, Options{Raw: raw}, size)
		if err != nil {
			t.Fatal(err)
		}
		want, total := wantBlocks(text, wins, raw)
		if res.Total != total || fmt.Sprint(res.Blocks[0].Lines) != fmt.Sprint(want[0]) && len(want[0])+len(res.Blocks[0].Lines) > 0 {
			t.Fatalf("%q %+v raw=%v size=%d:\n got %d %+v\nwant %d %+v", text, wins[0], raw, size, res.Total, res.Blocks[0].Lines, total, want[0])
		}
	})
}
