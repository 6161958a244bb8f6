package grep

import (
	"unicode/utf8"
	"unsafe"

	"github.com/scoutkit/scout/internal/fsx"
)

// Line is one reported line: a matching line or a context line.
type Line struct {
	// Number is the 1-based line number.
	Number int
	// Text is the line without its terminator ("\n" or "\r\n"), as valid
	// UTF-8: each invalid byte is replaced by U+FFFD. When the line is
	// longer than Options.MaxColumns characters it is cut (see Cut).
	Text string
	// Spans are the matches on a matching line as half-open byte offsets
	// [start, end) into Text, in order; nil for context lines. Spans are
	// clipped to a cut Text; a match that lies wholly past the cut is
	// left out (it is still counted in Matches).
	Spans [][2]int
	// Matches is the number of matches the line adds to
	// FileResult.Matches: those on it, cut or not (a match that spans
	// lines counts on its first); 0 for a context line.
	Matches int
	// Match is true for a matching line, false for a context line.
	Match bool
	// Cut reports that Text was shortened to MaxColumns characters, or to
	// the part of a line longer than MaxLineBytes that its first window
	// holds (see FileResult.LongLines); no ellipsis is added.
	Cut bool
}

// Stop says why the search of a file ended before its end.
type Stop uint8

// The reasons for an early stop.
const (
	// StopNone: the whole file was searched (or FirstOnly found its match).
	StopNone Stop = iota
	// StopLimit: more matching lines exist than MaxMatchesPerFile let
	// through.
	StopLimit
	// StopNUL: a NUL byte after the binary window ended the search at the
	// start of the line that holds it (ripgrep's "binary quit"), or, in a
	// line longer than MaxLineBytes, at the start of the window that holds
	// it (the matches of the line's earlier windows stay reported). Not
	// reported when the search stopped before it (FirstOnly, the limit)
	// or when the NUL lies after the last line range.
	StopNUL
	// StopSize: a whole-file (multiline) search read only the first
	// MaxWholeBytes of the file.
	StopSize
)

// String returns "", "limit", "nul" or "size".
func (s Stop) String() string {
	switch s {
	case StopLimit:
		return "limit"
	case StopNUL:
		return "nul"
	case StopSize:
		return "size"
	}
	return ""
}

// FileResult is the outcome of searching one file. It owns its memory,
// though the texts and spans of its lines may share blocks with those of
// other results of the same Scanner (see lineMem).
type FileResult struct {
	// Lines are the matching and context lines in line order, each line
	// at most once even when contexts overlap. Empty with CountOnly. Its
	// size grows with the matches: set MaxMatchesPerFile or PartLines (and
	// MaxColumns) to bound the memory a file can take.
	Lines []Line
	// MatchLines is the number of matching lines: those reported, or all
	// of them with CountOnly (1 with FirstOnly).
	MatchLines int
	// Matches is the number of individual matches on those lines (as
	// `rg --count-matches`); in a whole-file search a match that spans
	// lines counts once.
	Matches int
	// Binary reports a NUL byte within the binary window: the file was
	// skipped and every other field is zero.
	Binary bool
	// Truncated reports that the search of the file stopped early; Stop
	// says why.
	Truncated bool
	// Stop is the reason for Truncated (StopNone when not truncated).
	Stop Stop
	// Encoding is "utf-16le", "utf-16be", "utf-32le" or "utf-32be" when
	// the file was decoded from a byte-order mark, "utf-8" when it began
	// with a UTF-8 byte-order mark (which is skipped), and "" otherwise
	// (the bytes are searched as UTF-8).
	Encoding string
	// LongLines counts the lines longer than MaxLineBytes, searched in
	// windows of that size that overlap by Margin, when the pattern can
	// match more than Margin bytes: such a match that crosses a window edge
	// is missed (or cut at the edge). 0 when the pattern's matches are at
	// most Margin bytes long (no unbounded repetition): each is then found
	// once, wherever it lies. Either way, the Text of such a line, matching
	// or context, holds at most the part of it that its first window holds
	// (Cut), and with FirstOnly, Matches counts the matches of its windows
	// up to the first that holds one.
	LongLines int
	// Resume, when not nil, ends a part of a file split by
	// Options.PartLines: the search stopped where the next part starts,
	// and SearchFrom goes on from there. nil when the search of the file
	// is done (Truncated and Stop say how).
	Resume *Resume
}

// Resume is where the search of a file split into parts goes on: the
// start of a line, all lines before it searched and none of them due to be
// reported with the next part.
type Resume struct {
	// Offset is the byte offset of the line in the file.
	Offset int64
	// Line is its 1-based number.
	Line int
	// Left is how many more matching lines Options.MaxMatchesPerFile lets
	// through; 0 means no limit.
	Left int
	// Encoding is FileResult.Encoding of the search that stopped here.
	Encoding string
	// Size is the size of the file when its search began, and File its
	// identity (the zero FileID: unknown); SearchFrom searches that file
	// as far as it reached then.
	Size int64
	File fsx.FileID
}

// lineMem hands out the texts and spans of reported lines from shared
// blocks, one allocation for many lines instead of one or two each (most
// lines are short, and a dense search reports millions). A block is only
// appended to, never written again where it was handed out (except by the
// next search of a scanner that lends them, LendAll), so each text stays
// immutable and each span slice the line's own (its capacity ends at its
// length). A text longer than textBlock/8 gets its own allocation,
// as do spans over spanBlock/8. A result keeps the blocks of its lines,
// up to textBlock plus spanBlock pairs more than it needs.
type lineMem struct {
	text  []byte
	spans [][2]int
}

const (
	textBlock = 16 << 10 // bytes
	spanBlock = 1 << 10  // spans
)

// str returns b as a string.
func (lm *lineMem) str(b []byte) string {
	if len(b) == 0 || len(b) > textBlock/8 {
		return string(b)
	}
	if len(b) > cap(lm.text)-len(lm.text) {
		lm.text = make([]byte, 0, textBlock)
	}
	n := len(lm.text)
	lm.text = append(lm.text, b...)
	return unsafe.String(&lm.text[n], len(b))
}

// spanSlots returns an empty slice with room for n > 0 spans.
func (lm *lineMem) spanSlots(n int) [][2]int {
	switch {
	case n > spanBlock/8:
		return make([][2]int, 0, n)
	case n > cap(lm.spans)-len(lm.spans):
		lm.spans = make([][2]int, 0, spanBlock)
	}
	k := len(lm.spans)
	lm.spans = lm.spans[:k+n]
	return lm.spans[k : k : k+n]
}

// makeLine builds a reported line from raw bytes (terminator removed) and
// spans into raw, its text and spans from lm.
func (lm *lineMem) makeLine(raw []byte, number int, match bool, spans [][2]int, maxCols int) Line {
	ln := Line{Number: number, Match: match}
	limit := len(raw)
	if maxCols > 0 && limit > maxCols {
		limit = colEnd(raw, maxCols)
	}
	ln.Cut = limit < len(raw)
	if utf8.Valid(raw[:limit]) {
		ln.Text = lm.str(raw[:limit])
		ln.Spans = lm.clip(spans, limit, nil)
		return ln
	}
	// Lossy decoding: every invalid byte becomes U+FFFD; pos maps raw
	// offsets to Text offsets.
	buf := make([]byte, 0, limit+8)
	pos := make([]int, limit+1)
	i := 0
	for i < limit {
		r, w := utf8.DecodeRune(raw[i:limit])
		for k := 0; k < w; k++ {
			pos[i+k] = len(buf)
		}
		buf = utf8.AppendRune(buf, r)
		i += w
	}
	for ; i <= limit; i++ {
		pos[i] = len(buf)
	}
	ln.Text = lm.str(buf)
	ln.Spans = lm.clip(spans, len(buf), func(x int) int {
		if x >= len(pos) {
			return int(^uint(0) >> 1) // past the decoded part
		}
		return pos[x]
	})
	return ln
}

// clip returns spans clipped as appendClipped does, in slots of lm.
func (lm *lineMem) clip(spans [][2]int, cut int, conv func(int) int) [][2]int {
	if len(spans) == 0 {
		return spans[:0:0] // nil stays nil
	}
	out := appendClipped(lm.spanSlots(len(spans)), spans, cut, conv)
	return out[:len(out):len(out)]
}

// colEnd returns the byte offset in raw just past its first n characters,
// an invalid byte counting as one (it decodes to one U+FFFD); len(raw) when
// raw holds fewer.
func colEnd(raw []byte, n int) int {
	i := 0
	for ; n > 0 && i < len(raw); n-- {
		if raw[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, w := utf8.DecodeRune(raw[i:])
		i += w
	}
	return i
}

// appendClipped maps spans through conv (nil: identity), clips them to
// [0, cut] and appends them to out; spans starting at or past the cut are
// dropped unless empty at the cut itself.
func appendClipped(out, spans [][2]int, cut int, conv func(int) int) [][2]int {
	for _, s := range spans {
		a, b := s[0], s[1]
		if conv != nil {
			a, b = conv(a), conv(b)
		}
		if a > cut || (a == cut && b > a) {
			break
		}
		out = append(out, [2]int{a, min(b, cut)})
	}
	return out
}
