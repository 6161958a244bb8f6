package grep

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
)

// DefaultBinaryScan is the size of the window at the start of a file in
// which a NUL byte marks the file as binary.
const DefaultBinaryScan = 64 << 10

// MaxPatternBytes caps the length of a pattern. Compiling costs about
// 0.4 KB of memory per pattern byte (a 4 MiB pattern took 1.9 GB and
// several seconds, before any search), while real patterns, even long
// alternations of identifiers, stay within a few KB.
const MaxPatternBytes = 64 << 10

// Options configures a Matcher. The zero value of every field except
// Pattern is a usable default.
type Options struct {
	// Pattern is the regular expression in Go RE2 syntax (see the package
	// documentation for how it differs from Rust's regex crate). An empty
	// pattern matches every line.
	Pattern string
	// IgnoreCase matches letters of either case (Unicode simple folding).
	IgnoreCase bool
	// Multiline makes ^ and $ match at line ends and lets a match span
	// lines. When the pattern can match a newline (a literal \n, or '.'
	// with DotAll, or a class such as \s) or anchors at the text's start
	// or end (\A, \z, (?-m)^ and $), the whole file is searched as one
	// text; otherwise the search stays line by line. Without Multiline or
	// DotAll, a pattern that spells a newline is an error (ErrNewline).
	Multiline bool
	// DotAll lets '.' match '\n' too (amplifier's multiline). It implies a
	// whole-file search when the pattern contains '.'.
	DotAll bool
	// Before and After are the numbers of context lines reported before
	// and after each matching line; 0 means none, negative values are
	// treated as 0.
	Before, After int
	// MaxColumns cuts the Text of a reported line to at most this many
	// characters (an invalid byte counts as one) and sets Line.Cut; spans
	// are clipped to the cut. 0 or negative means no cut.
	MaxColumns int
	// MaxMatchesPerFile stops reporting a file's lines after this many
	// matching lines; the file is then searched on only to learn whether
	// one more matching line exists (FileResult.Truncated). 0 or negative
	// means unlimited. Ignored when CountOnly is set.
	MaxMatchesPerFile int
	// CountOnly reports only MatchLines and Matches, never Lines: the
	// fastest path.
	CountOnly bool
	// FirstOnly stops each file at its first matching line (files with
	// matches). MatchLines is then 1 and Matches counts that line only
	// (in a line longer than MaxLineBytes, only the matches of its windows
	// up to the first that holds one: the rest of the line is not read).
	FirstOnly bool
	// LineRanges, when non-empty, restricts matches to lines inside these
	// inclusive 1-based [first, last] ranges; context lines outside them
	// are dropped too. last 0 means "to the end of the file"; a first
	// below 1, or a last other than 0 below first, is an INVALID_PARAM
	// error.
	LineRanges [][2]int
	// BinaryScan is the size of the window at the start of a file in which
	// a NUL byte marks the file binary and skips it; a NUL after the window
	// ends the search at its line (FileResult.Stop == StopNUL). 0 means
	// DefaultBinaryScan; negative turns binary detection off (NUL is then
	// an ordinary byte, as for ripgrep's --text).
	BinaryScan int
	// PartLines splits the result of a file searched by
	// Scanner.SearchOpened or Scanner.SearchFrom into parts of at most this
	// many matching lines (with their context), so that memory is bounded
	// by the part, not by the file: a part ends where the next one's first
	// matching line is found, after the after-context that comes before
	// it, exactly where MaxMatchesPerFile would stop (FileResult.Resume).
	// Never split: texts searched by SearchBytes or SearchReader,
	// CountOnly and FirstOnly searches, whole-file (multiline) searches,
	// texts decoded from UTF-16 or UTF-32, and the rest of a file from its
	// first line longer than MaxLineBytes on (one part). 0 or negative
	// means each file whole.
	PartLines int
}

// Matcher is a compiled search. It is immutable and safe for concurrent
// use; each goroutine searches through its own Scanner (NewScanner).
type Matcher struct {
	opts  Options
	prog  *program         // the pattern with the option flags
	rprog *reversedProgram // the pattern reversed, to find where a match starts
	whole bool             // search the whole file as one text (matches may span lines)
	spans bool             // a match can span lines (whole, and the pattern can match a newline)

	lits     litSet // required literals: every match contains one (empty: none)
	complete bool   // every occurrence of a literal in lits is a match (no verification); lits in the order the pattern prefers them
	plainLit []byte // the pattern is this one case-sensitive literal: spans by bytes.Index
	maxLen   int    // the most bytes a match takes; -1: no bound
	lead     int    // the most bytes of a match before the part of a literal of lits that the finder finds; -1: no bound or no lits

	ranges [][2]int     // normalised LineRanges (sorted, last resolved)
	growth *cacheGrowth // the room its scanners' match automata share to grow their caches
}

// Compile checks and compiles the options. An invalid pattern gives an
// *errs.Error with code InvalidParam whose message reads
// "Invalid regex: <reason> at position N" (N is a 0-based character offset
// into Pattern); so does a pattern longer than MaxPatternBytes.
func Compile(o Options) (*Matcher, error) {
	if len(o.Pattern) > MaxPatternBytes {
		return nil, errs.New(errs.InvalidParam, "Invalid regex: the pattern is %d bytes, over the cap of %d bytes (64 KiB): use a shorter pattern, or split the alternatives over several searches", len(o.Pattern), MaxPatternBytes)
	}
	if o.Before < 0 {
		o.Before = 0
	}
	if o.After < 0 {
		o.After = 0
	}
	if o.BinaryScan == 0 {
		o.BinaryScan = DefaultBinaryScan
	}
	if err := checkRanges(o.LineRanges); err != nil {
		return nil, err
	}
	tree, err := parse(o)
	if err != nil {
		return nil, err
	}
	tree = tree.Simplify()
	prog, err := syntax.Compile(tree)
	if err != nil {
		return nil, regexError(o.Pattern, err)
	}
	if !o.Multiline && !o.DotAll && hasLiteralNewline(tree) {
		return nil, &errs.Error{Code: errs.InvalidParam, Err: ErrNewline,
			Message: "Invalid regex: the pattern spells a newline (\\n), but no line holds one: a match spans lines only in multiline mode. Turn multiline on, or take the \\n out"}
	}
	m := &Matcher{opts: o, prog: newProgram(prog), rprog: &reversedProgram{tree: tree}, ranges: normRanges(o.LineRanges), maxLen: maxMatchLen(tree),
		growth: newCacheGrowth()}
	// A search is line by line unless it is multiline (as ripgrep's -U)
	// and a match can contain a newline (a literal one, a class such as
	// \s or [^a], a DotAll '.') or the pattern anchors at the text's start
	// or end (\A, \z, (?-m)^ and $): those hold at the file's ends only.
	m.spans = spansLines(o, tree)
	m.whole = m.spans || o.Multiline && anchorsText(tree)
	info := analyze(tree, byPrefilter)
	if info.pure && info.exact.usable(1) && info.exact.foldExact() && !info.exact.hasByte('\r') {
		// The pattern is a literal or an alternation of literals: an
		// occurrence is a match, no verification needed (unless it holds
		// a CR, which may be part of a line terminator; or it is folded
		// and holds a letter whose case folding leaves ASCII: k, s). Even
		// one byte is worth it (bytes.IndexByte); as a mere candidate
		// filter a literal needs two.
		m.lits, m.complete = info.exact, true
		if len(m.lits) == 1 && !m.lits[0].fold {
			m.plainLit = []byte(m.lits[0].s)
		}
	} else if b := info.best(byPrefilter); b.use() > 0 {
		m.lits = b
	}
	if !m.whole && m.lits.hasByte('\n') {
		// A line never contains its newline: such a literal cannot mark a
		// candidate line.
		m.lits, m.complete, m.plainLit = nil, false, nil
	}
	m.lead = -1
	if len(m.lits) > 0 && m.maxLen >= 0 {
		m.lead = m.maxLen - m.lits.score()
	}
	return m, nil
}

// SpansLines reports whether a match of o's pattern can span lines in the
// search Compile(o) makes: the search is multiline (Multiline or DotAll)
// and the pattern can match a newline. Otherwise every match lies within
// one line, even when the whole file is searched as one text (a pattern
// that only anchors at its ends). It parses the pattern and builds no
// matcher; false when Compile would refuse the pattern as too long or
// invalid.
func SpansLines(o Options) bool {
	if !o.Multiline && !o.DotAll || len(o.Pattern) > MaxPatternBytes {
		return false
	}
	tree, err := parse(o)
	return err == nil && spansLines(o, tree.Simplify())
}

// spansLines is SpansLines of o with its pattern parsed and simplified.
func spansLines(o Options, tree *syntax.Regexp) bool {
	return (o.Multiline || o.DotAll) && canMatchNewline(tree)
}

// ErrNewline is the cause of the error of a pattern that spells a newline
// without Multiline or DotAll (ripgrep's "the literal '\\n' is not
// allowed"): callers may name their own multiline switch.
var ErrNewline = errors.New("pattern spells a newline outside multiline mode")

// regexError turns a regexp/syntax error into the InvalidParam error.
func regexError(pattern string, err error) error {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return errs.Wrap(errs.InvalidParam, err, "Invalid regex: %v", err)
	}
	pos := -1
	switch {
	case se.Expr == "":
	case strings.HasSuffix(pattern, se.Expr):
		pos = len(pattern) - len(se.Expr)
	default:
		pos = strings.Index(pattern, se.Expr)
	}
	msg := string(se.Code)
	if se.Expr != "" {
		msg += ": `" + errs.Echo(se.Expr) + "`"
	}
	if pos >= 0 {
		msg += fmt.Sprintf(" at position %d", utf8.RuneCountInString(pattern[:pos]))
	}
	switch {
	case strings.HasPrefix(se.Expr, "(?=") || strings.HasPrefix(se.Expr, "(?!") ||
		strings.HasPrefix(se.Expr, "(?<=") || strings.HasPrefix(se.Expr, "(?<!"):
		msg += "; look-around is not supported (RE2 syntax): match the text around it too, or leave it out"
	case se.Code == syntax.ErrInvalidEscape && len(se.Expr) == 2 && se.Expr[1] >= '1' && se.Expr[1] <= '9':
		msg += "; backreferences are not supported (RE2 syntax): spell the repeated text out"
	}
	return errs.Wrap(errs.InvalidParam, err, "Invalid regex: %s", msg)
}

// IsGroupError reports whether err is a compile error for an unclosed or
// unopened group, the case in which pi retries with EscapeParens.
func IsGroupError(err error) bool {
	var se *syntax.Error
	return errors.As(err, &se) && (se.Code == syntax.ErrMissingParen || se.Code == syntax.ErrUnexpectedParen)
}

// SanitizeBraces escapes the braces of pattern that cannot be part of a
// repetition, as pi does before compiling: a '{' that
// does not start {N}, {N,} or {N,M} becomes \{, and every other '}'
// becomes \}. Escapes are copied unchanged, and \p{..}, \P{..}, \x{..} and
// \u{..} are copied whole.
func SanitizeBraces(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			n := 2
			if strings.IndexByte("pPxu", pattern[i+1]) >= 0 && i+2 < len(pattern) && pattern[i+2] == '{' {
				if j := strings.IndexByte(pattern[i+2:], '}'); j >= 0 {
					n = 2 + j + 1
				}
			}
			b.WriteString(pattern[i : i+n])
			i += n
		case c == '{':
			if n := repetitionLen(pattern[i:]); n > 0 {
				b.WriteString(pattern[i : i+n])
				i += n
				continue
			}
			b.WriteString(`\{`)
			i++
		case c == '}':
			b.WriteString(`\}`)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// repetitionLen returns the length of the {N}, {N,} or {N,M} at the start
// of s, or 0.
func repetitionLen(s string) int {
	i := 1
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if digits() == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		digits()
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}

// EscapeParens escapes every unescaped '(' and ')' of pattern: pi's retry
// after an unclosed or unopened group error (see IsGroupError).
func EscapeParens(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			b.WriteString(pattern[i : i+2])
			i++
		case c == '(' || c == ')':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// WithRanges returns a copy of m that keeps only the lines inside ranges, as
// Options.LineRanges does, sharing m's compiled pattern: a file searched
// with its own ranges costs no compilation. nil ranges means every line.
// The error is Compile's for a range that starts before line 1 or ends
// before its start.
func (m *Matcher) WithRanges(ranges [][2]int) (*Matcher, error) {
	if err := checkRanges(ranges); err != nil {
		return nil, err
	}
	c := *m
	c.opts.LineRanges = ranges
	c.ranges = normRanges(ranges)
	return &c, nil
}

// WithMaxMatchesPerFile returns a copy of m that stops reporting a file's
// lines after n matching lines, as Options.MaxMatchesPerFile does, sharing
// m's compiled pattern.
func (m *Matcher) WithMaxMatchesPerFile(n int) *Matcher {
	c := *m
	c.opts.MaxMatchesPerFile = n
	return &c
}

// checkRanges rejects a line range that starts before line 1 or ends
// before its start.
func checkRanges(ranges [][2]int) error {
	for _, r := range ranges {
		switch {
		case r[0] < 1:
			return errs.New(errs.InvalidParam, "Invalid line range %d-%d: lines are numbered from 1", r[0], r[1])
		case r[1] != 0 && r[1] < r[0]:
			return errs.New(errs.InvalidParam, "Invalid line range %d-%d: the end must be at least the start (or 0: to the end of the file)", r[0], r[1])
		}
	}
	return nil
}

// normRanges sorts and merges the line ranges, which checkRanges checked;
// an open end becomes maxInt.
func normRanges(in [][2]int) [][2]int {
	var out [][2]int
	for _, r := range in {
		if r[1] == 0 {
			r[1] = int(^uint(0) >> 1)
		}
		out = append(out, r)
	}
	for i := 1; i < len(out); i++ { // insertion sort: lists are tiny
		for j := i; j > 0 && out[j][0] < out[j-1][0]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r[0] <= merged[n-1][1]+1 {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// inRanges reports whether line n is allowed by the ranges (all lines
// when there are none).
func (m *Matcher) inRanges(n int) bool {
	if m.ranges == nil {
		return true
	}
	for _, r := range m.ranges {
		if n >= r[0] && n <= r[1] {
			return true
		}
	}
	return false
}

// readsWhole reports whether a search with m reads every file to its end:
// it stops at no first matching line, number of lines, part or last line
// of the ranges.
func (m *Matcher) readsWhole() bool {
	o := &m.opts
	return !o.FirstOnly && m.ranges == nil && (o.CountOnly || o.MaxMatchesPerFile <= 0 && o.PartLines <= 0)
}

// lastRangeLine is the last line any range allows (maxInt without ranges).
func (m *Matcher) lastRangeLine() int {
	if m.ranges == nil {
		return int(^uint(0) >> 1)
	}
	return m.ranges[len(m.ranges)-1][1]
}
