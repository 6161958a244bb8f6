// Package textio reads the lines of a text in one streamed pass: it skips to
// the wanted lines by counting newlines over large buffers, keeps only the
// lines of the requested windows (each bounded in lines and bytes, and each
// line bounded in memory), and counts the total number of lines to the end,
// or, past Options.CountLimit, gives a lower bound of it.
//
// Lines are numbered from 1 and split on '\n'. A final '\n' ends the last
// line; it does not start an empty one, so "a\nb\n" has 2 lines and an empty
// text has 0. In display mode (not raw) one trailing '\r' is removed from each
// line and a line longer than the column cap is cut and marked. Invalid UTF-8
// is replaced by U+FFFD and reported as lossy, so every Line.Text is valid
// UTF-8.
//
// Memory is bounded by the read buffer and the windows' byte caps, never by
// the size of the text or the length of one line.
package textio

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// Window is one range of lines to collect.
type Window struct {
	Start int // first line wanted, 1-based; values below 1 mean 1
	End   int // last line wanted, inclusive; 0 means to the end of the text
	// MaxLines caps the lines collected; 0 means no cap besides End.
	MaxLines int
	// MaxBytes caps the bytes collected: each line's bytes in the text (its
	// whole length, however much of it a column cap keeps) plus one per
	// newline. The first line of a window is always collected, cut to
	// MaxBytes in raw mode, and in display mode so are the Lead lines and
	// the line after them, so every continuation makes progress. 0 means no
	// cap.
	MaxBytes int
	// Lead is the number of lines at the window's start that are context
	// before the first line asked for (display mode only). 0 means the
	// window starts with the lines asked for.
	Lead int
}

// Options controls how lines are kept.
type Options struct {
	// Raw keeps each line's bytes unchanged (only invalid UTF-8 is replaced):
	// no '\r' removal and no column cap.
	Raw bool
	// MaxColumns is the display cap in characters (runes) per line in display
	// mode; a longer line is cut to MaxColumns characters and marked Cut.
	// 0 means no cap.
	MaxColumns int
	// CountLimit bounds the bytes read past what the windows need: those
	// read only to count the lines after the last window, or to find the
	// end of a line of the last window already cut to its cap; and the
	// bytes of any one line, since no line is needed past its start (a
	// window shows it cut, and a line skipped on the way to a window is
	// only counted). Once that many have been read past the last window,
	// or one line has run that long without a '\n', Collect stops: the
	// line being read is the last one counted (collected cut, when a
	// window takes it) and Result.Total is a lower bound
	// (Result.TotalAtLeast), so that neither the first lines of a huge
	// file nor the lines after a huge line (a 100 GB run of NUL bytes)
	// cost a scan of it. 0 means the text is read to its end.
	CountLimit int64
}

// Stop says why a window ended before its End. It is set only when the
// text had a further line the window would otherwise have taken.
type Stop string

// The reasons a window stops.
const (
	StopNone  Stop = ""      // the window ended at End or at the end of the text
	StopLines Stop = "lines" // MaxLines was reached
	StopBytes Stop = "bytes" // MaxBytes was reached
)

// Line is one collected line.
type Line struct {
	N    int    // 1-based line number
	Text string // the line without its '\n' (see the package doc)
	// Cut reports that Text holds only the start of the line (column cap in
	// display mode, byte cap in raw mode).
	Cut bool
	// Bytes is the length of the whole line in bytes, without its '\n'.
	Bytes int
}

// Block is what one window collected.
type Block struct {
	Window Window
	Lines  []Line
	Stop   Stop
}

// Last returns the number of the last collected line, 0 when empty.
func (b *Block) Last() int {
	if len(b.Lines) == 0 {
		return 0
	}
	return b.Lines[len(b.Lines)-1].N
}

// Result is the outcome of Collect.
type Result struct {
	Blocks []Block // one per window, in the order given
	Total  int     // lines in the whole text; a lower bound when TotalAtLeast
	Bytes  int64   // bytes in the whole text; those read when TotalAtLeast
	Lossy  bool    // some collected line had invalid UTF-8, replaced by U+FFFD
	// TotalAtLeast reports that reading stopped at Options.CountLimit
	// before the end of the text, in line Total: the text has Total lines
	// or more, and when the last collected line is line Total, its Bytes is
	// a lower bound too. A window that starts after line Total was not
	// reached, and its block is empty.
	TotalAtLeast bool
}

// bufSize is the read size: large, so that skipping lines is a few
// bytes.Count calls per megabyte.
const bufSize = 1 << 20

// ErrWindows reports windows that are not sorted and disjoint.
var ErrWindows = errors.New("textio: windows must be sorted by Start and must not overlap")

// Collect reads r to its end and returns the lines of the windows, which must
// be sorted by Start and disjoint. It checks ctx between buffers.
func Collect(ctx context.Context, r io.Reader, wins []Window, o Options) (*Result, error) {
	return collect(ctx, r, wins, o, bufSize)
}

func collect(ctx context.Context, r io.Reader, wins []Window, o Options, size int) (*Result, error) {
	c := &collector{o: o, res: &Result{Blocks: make([]Block, len(wins))}, n: 1, idleFrom: -1}
	prevEnd := 0
	for i, w := range wins {
		if w.Start < 1 {
			w.Start = 1
		}
		if w.Start <= prevEnd || (i > 0 && prevEnd == 0) {
			return nil, ErrWindows
		}
		prevEnd = w.End
		if w.End == 0 {
			prevEnd = 0
		}
		if w.End != 0 && w.End < w.Start {
			return nil, ErrWindows
		}
		c.res.Blocks[i].Window = w
	}
	buf := make([]byte, size)
	var last byte
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, err := io.ReadFull(r, buf)
		if k > 0 {
			c.feed(buf[:k])
			last = buf[k-1]
			c.res.Bytes += int64(k)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if o.CountLimit > 0 && (c.idleFrom >= 0 && c.res.Bytes-c.idleFrom >= o.CountLimit || int64(c.curLen) >= o.CountLimit) {
			// The line being read when reading stopped is a line too.
			if c.taking {
				c.stopped = true
				c.emit()
				c.n++
			} else if c.curLen > 0 {
				c.n++
			}
			c.res.Total, c.res.TotalAtLeast = c.n-1, true
			return c.res, nil
		}
	}
	// The text's last line has no '\n' when the text does not end in one.
	if c.res.Bytes > 0 && last != '\n' {
		c.endLine()
	}
	c.res.Total = c.n - 1
	return c.res, nil
}

// collector is the state of one pass.
type collector struct {
	o   Options
	res *Result
	n   int // number of the line being read
	w   int // index of the current or next window
	// cur is the kept start of line n when n is collected; curLen is the
	// whole length read so far; taking reports that line n is collected.
	cur    []byte
	curLen int
	taking bool
	// used counts the lines and bytes collected in window w.
	usedLines, usedBytes int
	// idleFrom is the offset in the text from which bytes are read only to
	// count lines or to find the end of a cut line of the last window (see
	// Options.CountLimit); -1 while they are read for a window.
	idleFrom int64
	// stopped reports that reading stopped in line n: it is cut.
	stopped bool
}

// wants reports whether line n belongs to window w and the window still
// takes lines; it advances past finished windows.
func (c *collector) wants() bool {
	for c.w < len(c.res.Blocks) {
		b := &c.res.Blocks[c.w]
		win := b.Window
		if b.Stop != StopNone || (win.End != 0 && c.n > win.End) {
			c.w++
			c.usedLines, c.usedBytes = 0, 0
			continue
		}
		if c.n < win.Start {
			return false
		}
		if win.MaxLines > 0 && c.usedLines >= win.MaxLines {
			b.Stop = StopLines
			continue
		}
		return true
	}
	return false
}

// keepCap is how many bytes of the current line are kept.
func (c *collector) keepCap() int {
	if c.o.Raw {
		if mb := c.res.Blocks[c.w].Window.MaxBytes; mb > 0 {
			return mb
		}
		return -1
	}
	if c.o.MaxColumns > 0 {
		return c.o.MaxColumns*utf8.UTFMax + utf8.UTFMax + 1
	}
	return -1
}

// nextStart is the first line of the next window, or 0 when no window
// remains.
func (c *collector) nextStart() int {
	if c.w < len(c.res.Blocks) {
		return max(c.res.Blocks[c.w].Window.Start, 1)
	}
	return 0
}

// feed takes the next bytes of the text, buf; c.res.Bytes counts those
// before it.
func (c *collector) feed(buf []byte) {
	p := buf
	for len(p) > 0 {
		if !c.taking && c.curLen == 0 {
			// At the start of line n.
			if !c.wants() {
				next := c.nextStart()
				if next == 0 {
					if c.idleFrom < 0 {
						c.idleFrom = c.offset(buf, p)
					}
					c.n += bytes.Count(p, nl)
					c.skipPartial(p)
					return
				}
				// Skip to the start of line next.
				p = c.skipLines(p, next-c.n)
				continue
			}
			c.taking = true
		}
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		if c.taking {
			if c.keep(seg) && c.idleFrom < 0 && c.w == len(c.res.Blocks)-1 {
				c.idleFrom = c.offset(buf, p)
			}
		}
		c.curLen += len(seg)
		if i < 0 {
			return
		}
		c.endLine()
		p = p[i+1:]
	}
}

// offset returns the offset in the text of p, a suffix of buf.
func (c *collector) offset(buf, p []byte) int64 {
	return c.res.Bytes + int64(len(buf)-len(p))
}

var nl = []byte{'\n'}

// skipPartial records that the current line continues past p's last newline
// when nothing more is collected.
func (c *collector) skipPartial(p []byte) {
	if j := bytes.LastIndexByte(p, '\n'); j >= 0 {
		c.curLen = len(p) - j - 1
	} else {
		c.curLen += len(p)
	}
}

// skipLines advances over k newlines of p (or all of p if it holds fewer)
// and returns the rest.
func (c *collector) skipLines(p []byte, k int) []byte {
	if cnt := bytes.Count(p, nl); cnt < k {
		c.n += cnt
		c.skipPartial(p)
		return nil
	}
	for ; k > 0; k-- {
		i := bytes.IndexByte(p, '\n')
		p = p[i+1:]
		c.n++
	}
	c.curLen = 0
	return p
}

// keep appends what the cap lets through of seg, a piece of the line being
// taken; full reports that the cap dropped some of it.
func (c *collector) keep(seg []byte) (full bool) {
	limit := c.keepCap()
	if limit < 0 {
		c.cur = append(c.cur, seg...)
		return false
	}
	room := limit - len(c.cur)
	if room > 0 {
		c.cur = append(c.cur, seg[:min(room, len(seg))]...)
	}
	return len(seg) > room
}

// endLine finishes line n.
func (c *collector) endLine() {
	if c.taking {
		c.emit()
		c.idleFrom = -1
	}
	c.n++
	c.cur = c.cur[:0]
	c.curLen = 0
	c.taking = false
}

func (c *collector) emit() {
	b := &c.res.Blocks[c.w]
	text := c.cur
	cut := len(text) < c.curLen || c.stopped
	if cut {
		// Drop a rune split by the byte cap.
		text = trimPartialRune(text)
	}
	if !c.o.Raw {
		if !cut && len(text) > 0 && text[len(text)-1] == '\r' {
			text = text[:len(text)-1]
		}
	}
	s := string(text)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		c.res.Lossy = true
	}
	if !c.o.Raw && c.o.MaxColumns > 0 {
		if t, ok := CapRunes(s, c.o.MaxColumns); ok {
			s, cut = t, true
		}
	}
	// The budget counts the line's bytes in the text, as they are read: a
	// line the column cap shortens for display costs its whole length.
	size := len(s)
	if !c.o.Raw {
		size = c.curLen
	}
	// The first line asked for is collected whatever its size, after the
	// context before it, so that the page shows it and its continuation
	// goes past it.
	keep := 0
	if !c.o.Raw {
		keep = max(b.Window.Lead, 0)
	}
	if mb := b.Window.MaxBytes; mb > 0 && c.usedLines > keep && c.usedBytes+size+1 > mb {
		// The line does not fit: the window ends before it.
		b.Stop = StopBytes
		return
	}
	b.Lines = append(b.Lines, Line{N: c.n, Text: s, Cut: cut, Bytes: c.curLen})
	c.usedLines++
	c.usedBytes += size + 1
	if c.o.Raw && cut && !c.stopped {
		// Raw mode cut the window's first line at the byte cap.
		b.Stop = StopBytes
	}
}

// trimPartialRune removes an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return b
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// CapRunes cuts s to n runes, as a line is cut to the display cap
// (Options.MaxColumns); ok reports whether s was longer.
func CapRunes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i], true
		}
		count++
	}
	return s, false
}
