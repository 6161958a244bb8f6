package zoekt

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// zoekt's query parser reads a regex with these flags: ^ and $ at line
// boundaries, and negated classes that may match '\n' (a line-safe pattern
// spells its classes out, so this does not matter).
const zoektFlags = syntax.ClassNL | syntax.PerlX | syntax.UnicodeGroups

// maxVariants bounds the case variants of a literal sent as alternatives.
const maxVariants = 64

// contentQuery returns the query atoms that select the files with a match
// of the line-safe pattern re, and the case flag to send ("case:yes" or
// "case:no"). The flag is never written into the regex: zoekt drops an
// inline (?i) on a literal.
//
// zoekt folds case by lowercasing both the text's trigrams and the query,
// so where a letter's Unicode fold orbit holds letters with different
// lowercase forms (s, S and ſ; σ, Σ and ς; µ and μ), a text spelt with the
// odd one is missed. Such letters are sent as all their lowercase forms:
// a literal (or a small set of them) as alternatives of each spelling, a
// regex with the letter turned into a class of its orbit.
func contentQuery(re string, fold bool) (string, string, error) {
	if !fold {
		if _, err := syntax.Parse(re, zoektFlags); err != nil {
			return "", "", err
		}
		return "case:yes", "content:" + escapeValue(re), nil
	}
	tree, err := syntax.Parse(re, zoektFlags)
	if err != nil {
		return "", "", err
	}
	tree = tree.Simplify()
	if lits, ok := literals(tree); ok {
		var variants []string
		for _, l := range lits {
			v := spellings(l)
			if v == nil || len(variants)+len(v) > maxVariants {
				variants = nil
				break
			}
			variants = append(variants, v...)
		}
		if variants != nil {
			atoms := make([]string, len(variants))
			for i, v := range variants {
				atoms[i] = "content:" + escapeValue(regexp.QuoteMeta(v))
			}
			if len(atoms) == 1 {
				return "case:no", atoms[0], nil
			}
			return "case:no", "(" + strings.Join(atoms, " or ") + ")", nil
		}
	}
	return "case:no", "content:" + escapeValue(orbitClasses(tree).String()), nil
}

// literals returns the strings a regex matches when they are few (at most
// 16) and the regex is made only of literals, concatenations,
// alternations and empty matches.
func literals(re *syntax.Regexp) ([]string, bool) {
	const max = 16
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		return []string{string(re.Rune)}, true
	case syntax.OpCapture:
		return literals(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			l, ok := literals(sub)
			if !ok || len(out)+len(l) > max {
				return nil, false
			}
			out = append(out, l...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			l, ok := literals(sub)
			if !ok || len(out)*len(l) > max {
				return nil, false
			}
			next := make([]string, 0, len(out)*len(l))
			for _, a := range out {
				for _, b := range l {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

// lowerForms returns the distinct lowercase forms of the letters r folds
// with, r's own first; one form for most letters.
func lowerForms(r rune) []rune {
	forms := []rune{unicode.ToLower(r)}
	for c := unicode.SimpleFold(r); c != r; c = unicode.SimpleFold(c) {
		l := unicode.ToLower(c)
		seen := false
		for _, f := range forms {
			seen = seen || f == l
		}
		if !seen {
			forms = append(forms, l)
		}
	}
	return forms
}

// spellings returns every spelling of s with each letter in each of its
// lowercase forms, or nil when there are more than maxVariants.
func spellings(s string) []string {
	out := []string{""}
	for _, r := range s {
		forms := lowerForms(r)
		if len(out)*len(forms) > maxVariants {
			return nil
		}
		next := make([]string, 0, len(out)*len(forms))
		for _, p := range out {
			for _, f := range forms {
				next = append(next, p+string(f))
			}
		}
		out = next
	}
	return out
}

// orbitClasses replaces, in literals, each letter with more than one
// lowercase form by the class of its whole fold orbit.
func orbitClasses(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpLiteral {
		var subs []*syntax.Regexp
		var run []rune
		flush := func() {
			if len(run) > 0 {
				subs = append(subs, &syntax.Regexp{Op: syntax.OpLiteral, Rune: run})
				run = nil
			}
		}
		for _, r := range re.Rune {
			if len(lowerForms(r)) == 1 {
				run = append(run, r)
				continue
			}
			flush()
			class := []rune{r, r}
			for c := unicode.SimpleFold(r); c != r; c = unicode.SimpleFold(c) {
				class = append(class, c, c)
			}
			subs = append(subs, &syntax.Regexp{Op: syntax.OpCharClass, Rune: class})
		}
		flush()
		if len(subs) == 1 {
			return subs[0]
		}
		return &syntax.Regexp{Op: syntax.OpConcat, Sub: subs}
	}
	for i, sub := range re.Sub {
		re.Sub[i] = orbitClasses(sub)
	}
	return re
}

// escapeValue writes a regex as the value of a zoekt query atom: its
// tokenizer ends an atom at a space, tab or newline and at a ')' that
// closes nothing, counts '(' and ')' inside classes too, and reads '"' as
// the start of a quoted string whose escapes it drops. A backslash pair
// is copied as it is. So: spaces become \x20, tab and newline \t and \n,
// '"' becomes \", and parentheses inside a class are escaped.
func escapeValue(re string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			b.WriteByte(c)
			b.WriteByte(re[i+1])
			i++
			continue
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal.
			if i+1 < len(re) && re[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(re) && re[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
			continue
		case c == ']' && inClass:
			inClass = false
		}
		switch c {
		case ' ':
			b.WriteString(`\x20`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '"':
			b.WriteString(`\"`)
		case '(', ')':
			if inClass {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
