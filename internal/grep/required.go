package grep

import (
	"regexp/syntax"
	"unicode/utf8"
)

// Literals is what a pattern's literal analysis says to a caller that
// finds candidate files by their literals (a trigram index).
type Literals struct {
	// MinRunes is the length in characters of the shortest literal of the
	// pattern's best required set (every match contains one of its
	// literals); 0 when no such set is known.
	MinRunes int
	// Exact reports that every match is one of a small set of literals:
	// the pattern is a literal or an alternation of literals (classes of a
	// few characters included).
	Exact bool
}

// RequiredLiterals analyses o's pattern with o's case and line flags, as
// Compile does. An invalid pattern gives Compile's error.
func RequiredLiterals(o Options) (Literals, error) {
	tree, err := parse(o)
	if err != nil {
		return Literals{}, err
	}
	in := analyze(tree.Simplify(), byLength)
	set := in.best(byLength)
	if len(set) == 0 || len(set) > maxSet {
		return Literals{}, nil
	}
	l := Literals{MinRunes: -1, Exact: in.pure && in.exact != nil}
	for _, x := range set {
		if n := utf8.RuneCountInString(x.s); l.MinRunes < 0 || n < l.MinRunes {
			l.MinRunes = n
		}
	}
	return l, nil
}

// parse parses o's pattern with o's case and line flags (Parse); an
// invalid pattern gives the error Compile reports.
func parse(o Options) (*syntax.Regexp, error) {
	flags := syntax.Perl
	if o.IgnoreCase {
		flags |= syntax.FoldCase
	}
	if o.Multiline {
		flags &^= syntax.OneLine
	}
	if o.DotAll {
		flags |= syntax.DotNL
	}
	return Parse(o.Pattern, flags)
}

// Parse parses pattern as Compile does, with flags: its Perl classes
// Unicode-aware (UnicodeClasses). An invalid pattern gives Compile's
// error, an *errs.Error with code InvalidParam in the terms of the
// pattern as written.
func Parse(pattern string, flags syntax.Flags) (*syntax.Regexp, error) {
	src, err := UnicodeClasses(pattern)
	if err != nil {
		return nil, err
	}
	if src != pattern {
		// Errors are reported in the terms of the pattern as written:
		// parsed with its ASCII classes (and without Rust's u flag).
		if _, err := syntax.Parse(stripU(pattern), flags); err != nil {
			return nil, regexError(pattern, err)
		}
	}
	tree, err := syntax.Parse(src, flags)
	if err != nil {
		return nil, regexError(pattern, err)
	}
	return tree, nil
}
