package pathutil

import (
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// Input returns the path a request's path string s names, the one rule of
// Read, Search and Find: s as written when Normalize would change it and s
// exists as written (a name with a trailing space, a directory named "~"),
// else Normalize(s). exists reports whether a path exists as written; it
// is called only when Normalize changes s.
func Input(s string, exists func(string) bool) string {
	n := Normalize(s)
	if n != s && exists(s) {
		return s
	}
	return n
}

// SlashHint returns the hint that the not-found error of p ends with when p
// holds a '\' and its reading with '/' in place of each '\' exists (exists
// reports it): paths are slash-separated, and a '\' is a name's byte (in a
// glob, it quotes the next character). "" otherwise.
func SlashHint(p string, exists func(string) bool) string {
	if !strings.Contains(p, `\`) {
		return ""
	}
	slashed := strings.ReplaceAll(p, `\`, "/")
	if !exists(slashed) {
		return ""
	}
	return "; paths are separated by '/', not '\\': did you mean '" + errs.Echo(slashed) + "'?"
}
