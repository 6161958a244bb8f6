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

// parse parses o's pattern with o's case and line flags; an invalid
// pattern gives the error Compile reports.
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
	tree, err := syntax.Parse(o.Pattern, flags)
	if err != nil {
		return nil, regexError(o.Pattern, err)
	}
	return tree, nil
}
