// Package index plans Scout's searches over a prebuilt index of a commit
// of the workspace (Searcher.Index): it decides whether the index can
// answer a request exactly and faster than a scan, translates the request
// into the index's terms, and hands the index's candidate files, together
// with the files changed since the indexed commit, to the ordinary search,
// which re-reads each one with Scout's own matcher. Results are therefore
// those of a scan, whatever the index returns beyond its candidates.
package index

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/grep"
)

// LineSafe rewrites a line-mode pattern (as Scout's matcher runs it: each
// line on its own, without its terminator, a UTF-8 byte-order mark skipped)
// for an engine that matches the whole text of a file with ^ and $ at line
// boundaries. The result never matches across a line end, and every line
// Scout's matcher matches holds a match of it: '.' and classes lose '\n';
// \A and \z become ^ and $; ^ may be followed by a byte-order mark and $
// preceded by a carriage return, and adjacent assertions, which hold at
// one place in any order, are put line starts first and line ends last so
// that the mark and the carriage return fall outside them. Case folding is lifted out of the pattern
// into fold (the engine's case-insensitive flag, which then applies to the
// whole pattern: a superset when only parts of it fold). A pattern that
// spells out a newline has no line-safe form: the error says so.
func LineSafe(pattern string, ignoreCase bool) (re string, fold bool, err error) {
	flags := syntax.Perl &^ syntax.OneLine
	if ignoreCase {
		flags |= syntax.FoldCase
	}
	tree, err := grep.Parse(pattern, flags)
	if err != nil {
		return "", false, err
	}
	out, fold, err := lineSafe(tree)
	if err != nil {
		return "", false, err
	}
	return out.String(), fold, nil
}

// lineSafe rewrites re in place (see LineSafe) and reports whether any
// part of it folds case.
func lineSafe(re *syntax.Regexp) (*syntax.Regexp, bool, error) {
	fold := re.Flags&syntax.FoldCase != 0
	re.Flags &^= syntax.FoldCase
	if re.Op == syntax.OpConcat {
		// \b^ would test the word boundary before the mark that ^ may be
		// followed by, $\b after the carriage return $ may be preceded by
		for i := 0; i < len(re.Sub); i++ {
			j := i
			for j < len(re.Sub) && assertionRank(re.Sub[j]) >= 0 {
				j++
			}
			slices.SortStableFunc(re.Sub[i:j], func(a, b *syntax.Regexp) int { return assertionRank(a) - assertionRank(b) })
			i = j
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return nil, false, errs.New(errs.InvalidParam, "the pattern spells out a newline: an index of lines cannot answer it")
			}
		}
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		re.Rune = withoutNewline(re.Rune)
		if len(re.Rune) == 0 {
			re.Op = syntax.OpNoMatch
		}
		re.Rune = widened(re.Rune)
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		// Scout's word boundaries are Unicode-aware, the engine's are
		// ASCII (\b between a space and "é" holds for one, not the
		// other): left out, a superset.
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}, fold, nil
	case syntax.OpBeginText, syntax.OpBeginLine:
		// ^\x{FEFF}?: the first line of a file may start with a byte-order
		// mark, which Scout skips.
		return concat(&syntax.Regexp{Op: syntax.OpBeginLine}, quest(literal(0xFEFF))), fold, nil
	case syntax.OpEndText, syntax.OpEndLine:
		// \r?$: a CRLF line ends before its CR for Scout.
		return concat(quest(literal('\r')), &syntax.Regexp{Op: syntax.OpEndLine}), fold, nil
	}
	for i, sub := range re.Sub {
		s, f, err := lineSafe(sub)
		if err != nil {
			return nil, false, err
		}
		re.Sub[i] = s
		fold = fold || f
	}
	return re, fold, nil
}

// assertionRank orders the assertions that may stand in any order at one
// place: line starts, then word boundaries, then line ends; -1 for what
// is not an assertion.
func assertionRank(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText:
		return 0
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		return 1
	case syntax.OpEndLine, syntax.OpEndText:
		return 2
	case syntax.OpCapture:
		return assertionRank(re.Sub[0])
	}
	return -1
}

// maxWide is how many ranges outside ASCII a class keeps in a line-safe
// pattern: Unicode's \w has hundreds, which would make the query long.
const maxWide = 32

// widened returns a class's ranges with those outside ASCII replaced by
// all of them when there are more than maxWide: a superset.
func widened(ranges []rune) []rune {
	wide := 0
	for i := 1; i < len(ranges); i += 2 {
		if ranges[i] >= utf8.RuneSelf {
			wide++
		}
	}
	if wide <= maxWide {
		return ranges
	}
	var out []rune
	for i := 0; i < len(ranges) && ranges[i] < utf8.RuneSelf; i += 2 {
		out = append(out, ranges[i], min(ranges[i+1], utf8.RuneSelf-1))
	}
	if n := len(out); n > 0 && out[n-1] == utf8.RuneSelf-1 {
		out[n-1] = unicode.MaxRune // adjacent: one range, as the printer expects
		return out
	}
	return append(out, utf8.RuneSelf, unicode.MaxRune)
}

// withoutNewline removes '\n' from a class's ranges.
func withoutNewline(ranges []rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo <= '\n' && '\n' <= hi {
			if lo < '\n' {
				out = append(out, lo, '\n'-1)
			}
			if hi > '\n' {
				out = append(out, '\n'+1, hi)
			}
			continue
		}
		out = append(out, lo, hi)
	}
	return out
}

func literal(r rune) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}}
}

func quest(sub *syntax.Regexp) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpQuest, Sub: []*syntax.Regexp{sub}}
}

func concat(subs ...*syntax.Regexp) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: subs}
}
