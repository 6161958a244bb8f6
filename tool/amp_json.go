package tool

import (
	"bytes"
	"io"
	"runtime"
	"strconv"
	"strings"
	"unicode"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/jsonobj"
	"github.com/scoutkit/scout/internal/par"
)

// MarshalJSON writes the content-mode output by hand: it can hold hundreds
// of thousands of results, and reflection would cost more than the search.
// The output is what encoding/json would write for the struct tags.
func (d ampContentData) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	d.WriteJSON(&b)
	return b.Bytes(), nil
}

// WriteJSON writes the bytes of MarshalJSON to w in pieces (blocks of
// files encoded on all processors, written in order), so that a host
// writing the result out never holds it whole.
func (d ampContentData) WriteJSON(w io.Writer) error {
	b := d.appendHead(make([]byte, 0, 256))
	b = append(b, `,"results":[`...)
	if _, err := w.Write(b); err != nil {
		return err
	}
	h := d.hits
	if h == nil {
		h = &ampHits{starts: []int{0}}
	}
	// Blocks of files of about 64 KiB of JSON; a window of them is encoded
	// ahead of the writer, each into its own buffer. A written buffer goes
	// back to free for a later block (fresh memory costs a page fault per
	// 4 KiB).
	bounds := h.blocks(64 << 10)
	n := len(bounds) - 1
	done := make([]chan []byte, n)
	for i := range done {
		done[i] = make(chan []byte, 1)
	}
	window := 2 * runtime.GOMAXPROCS(0)
	free := make(chan []byte, window)
	encode := func(i int) {
		var b []byte
		select {
		case b = <-free:
		default:
			b = make([]byte, 0, 64<<10)
		}
		h.each(bounds[i], bounds[i+1], func(n int, f *scout.FileMatch, j int) bool {
			if n > 0 {
				b = append(b, ',')
			}
			b = h.appendResult(b, f, j)
			return true
		})
		done[i] <- b
	}
	stop := make(chan struct{})
	defer close(stop)
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), n) {
		go func() {
			for i := range next {
				encode(i)
			}
		}()
	}
	slots := make(chan struct{}, window) // blocks handed out and not yet written
	go func() {
		defer close(next)
		for i := range n {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	for i := range n {
		b := <-done[i]
		<-slots
		if len(b) > 0 {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		select {
		case free <- b[:0]:
		default:
		}
	}
	_, err := w.Write([]byte("]}"))
	return err
}

// appendHead appends the fields that every mode's JSON object starts with,
// from its opening brace, as encoding/json writes ampGrepData.
func (d *ampGrepData) appendHead(b []byte) []byte {
	b = append(b, `{"pattern":`...)
	b = jsonobj.AppendString(b, d.Pattern)
	b = append(b, `,"output_mode":`...)
	b = jsonobj.AppendString(b, d.OutputMode)
	b = append(b, `,"total_matches":`...)
	b = strconv.AppendInt(b, int64(d.TotalMatches), 10)
	b = append(b, `,"matches_count":`...)
	b = strconv.AppendInt(b, int64(d.MatchesCount), 10)
	if d.LowerBound {
		b = append(b, `,"total_is_lower_bound":true`...)
	}
	if d.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	if d.CutAt > 0 {
		b = append(b, `,"content_cut_at":`...)
		b = strconv.AppendInt(b, int64(d.CutAt), 10)
	}
	return b
}

// MarshalJSON writes the files-mode output by hand, as encoding/json would
// for the struct tags: a list of 100,000 paths through reflection, which
// then validates and copies what a marshaller returns, took longer than
// searching them on many processors.
func (d ampFilesData) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := d.WriteJSON(&b)
	return b.Bytes(), err
}

// WriteJSON writes the bytes of MarshalJSON to w in pieces.
func (d ampFilesData) WriteJSON(w io.Writer) error {
	b := append(d.appendHead(nil), `,"files":`...)
	if d.Files == nil {
		_, err := w.Write(append(b, "null}"...))
		return err
	}
	parts := encodeEach(len(d.Files), func(i int) int { return len(d.Files[i]) + 3 },
		func(b []byte, i int) []byte { return jsonobj.AppendString(b, wire(d.Files[i])) })
	return writeParts(w, append(b, '['), parts, "]}")
}

// MarshalJSON writes the count-mode output by hand, as ampFilesData's does:
// counts is an object whose keys keep the page's order.
func (d ampCountData) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := d.WriteJSON(&b)
	return b.Bytes(), err
}

// WriteJSON writes the bytes of MarshalJSON to w in pieces.
func (d ampCountData) WriteJSON(w io.Writer) error {
	b := append(d.appendHead(nil), `,"counts":`...)
	o := d.Counts
	if o == nil {
		_, err := w.Write(append(b, "null}"...))
		return err
	}
	parts := encodeEach(len(o.paths), func(i int) int { return len(o.paths[i]) + 10 }, func(b []byte, i int) []byte {
		b = jsonobj.AppendString(b, wire(o.paths[i]))
		b = append(b, ':')
		return strconv.AppendInt(b, int64(o.counts[i]), 10)
	})
	return writeParts(w, append(b, '{'), parts, "}}")
}

// encodeEach encodes the n elements that enc appends, separated by commas,
// in parts of consecutive elements, on all processors. size(i) is about
// the bytes of element i, with its comma: each part's buffer is made at
// that size (fresh memory costs a page fault per 4 KiB, and a buffer grown
// twofold touches twice what it holds).
func encodeEach(n int, size func(i int) int, enc func(b []byte, i int) []byte) [][]byte {
	const part = 4096 // elements per part
	parts := make([][]byte, (n+part-1)/part)
	par.Range(len(parts), 1, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			from, to := p*part, min(n, (p+1)*part)
			c := 0
			for i := from; i < to; i++ {
				c += size(i)
			}
			pb := make([]byte, 0, c)
			for i := from; i < to; i++ {
				if i > 0 {
					pb = append(pb, ',')
				}
				pb = enc(pb, i)
			}
			parts[p] = pb
		}
	})
	return parts
}

// writeParts writes head, the parts and tail to w.
func writeParts(w io.Writer, head []byte, parts [][]byte, tail string) error {
	if _, err := w.Write(head); err != nil {
		return err
	}
	for _, pb := range parts {
		if _, err := w.Write(pb); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, tail)
	return err
}

// blocks splits h.files into runs of whole files whose results take about
// size bytes of JSON (a guess from the lines' lengths), as the bounds of
// the runs: 0, ..., len(h.files).
func (h *ampHits) blocks(size int) []int {
	bounds := []int{0}
	est := 0
	for i := range h.files {
		f := &h.files[i]
		k := 0
		for _, l := range f.Lines {
			k += len(l.Text) + len(f.Path) + 48
		}
		if h.context { // lines are repeated in the context of their neighbours
			k *= 2
		}
		est += k
		if est >= size || i == len(h.files)-1 {
			bounds = append(bounds, i+1)
			est = 0
		}
	}
	return bounds
}

// appendResult appends the result that starts at line j of f as a JSON
// object: file, line_number (its first line, unless noNumbers), content
// (its lines joined by "\n") and, with context, the lines around it.
// Contents end without trailing white space, as amplifier's results do
// (the text keeps the lines as they are, as ripgrep prints them).
func (h *ampHits) appendResult(b []byte, f *scout.FileMatch, j int) []byte {
	l := &f.Lines[j]
	b = append(b, `{"file":`...)
	b = jsonobj.AppendString(b, wire(f.Path))
	if !h.noNumbers {
		b = append(b, `,"line_number":`...)
		b = strconv.AppendInt(b, int64(l.Line), 10)
	}
	b = append(b, `,"content":`...)
	content := l.Text
	if end := h.end(f, j); end > j+1 {
		var sb strings.Builder
		for k := j; k < end; k++ {
			if k > j {
				sb.WriteByte('\n')
			}
			sb.WriteString(f.Lines[k].Text)
		}
		content = sb.String()
	}
	b = jsonobj.AppendString(b, strings.TrimRightFunc(content, unicode.IsSpace))
	if h.context {
		b = append(b, `,"context":[`...)
		lo, hi := h.window(f, j)
		for k := lo; k < hi; k++ {
			c := &f.Lines[k]
			if k > lo {
				b = append(b, ',')
			}
			b = append(b, `{"line_number":`...)
			b = strconv.AppendInt(b, int64(c.Line), 10)
			b = append(b, `,"content":`...)
			b = jsonobj.AppendString(b, strings.TrimRightFunc(c.Text, unicode.IsSpace))
			b = append(b, `,"is_match":`...)
			b = strconv.AppendBool(b, c.Match)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}
