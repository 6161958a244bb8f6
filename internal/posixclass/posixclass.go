// Package posixclass holds the POSIX character classes of a bracket
// expression ("[[:digit:]]"), ASCII only, as git reads them and as they
// are in POSIX's C locale. The glob compiler and the gitignore matcher
// both read their classes here.
package posixclass

// Range is an inclusive range of bytes.
type Range struct{ Lo, Hi byte }

// classes are the classes by name. An array, not a map: it is data of the
// binary, with nothing to build when the program starts.
var classes = [...]struct {
	name   string
	ranges []Range
}{
	{"alnum", []Range{{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}},
	{"alpha", []Range{{'A', 'Z'}, {'a', 'z'}}},
	{"blank", []Range{{'\t', '\t'}, {' ', ' '}}},
	{"cntrl", []Range{{0, 31}, {127, 127}}},
	{"digit", []Range{{'0', '9'}}},
	{"graph", []Range{{33, 126}}},
	{"lower", []Range{{'a', 'z'}}},
	{"print", []Range{{32, 126}}},
	{"punct", []Range{{33, 47}, {58, 64}, {91, 96}, {123, 126}}},
	{"space", []Range{{'\t', '\r'}, {' ', ' '}}},
	{"upper", []Range{{'A', 'Z'}}},
	{"xdigit", []Range{{'0', '9'}, {'A', 'F'}, {'a', 'f'}}},
}

// Names lists the classes, for error messages.
const Names = "alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit"

// Lookup returns the ranges of the class name ("digit" for "[:digit:]"),
// sorted and disjoint, and false when there is no such class. The caller
// must not modify them.
func Lookup(name string) ([]Range, bool) {
	for _, c := range classes {
		if c.name == name {
			return c.ranges, true
		}
	}
	return nil, false
}
