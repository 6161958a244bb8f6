package grep

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRequiredLiterals(t *testing.T) {
	for _, tc := range []struct {
		pattern    string
		ignoreCase bool
		want       Literals
	}{
		{"MaxHeaderBytes", false, Literals{MinRunes: 14, Exact: true}},
		{"errorf", true, Literals{MinRunes: 6, Exact: true}},
		{"foo|barbaz", false, Literals{MinRunes: 3, Exact: true}},
		{`func \(\w+ \*\w+\) Close\(\)`, false, Literals{MinRunes: 9}},
		{`[A-Z][a-z]+[0-9]{2,}[a-z]`, false, Literals{}},
		{`ab.`, false, Literals{MinRunes: 2}},
		{`σσσ`, false, Literals{MinRunes: 3, Exact: true}},
		{`\w+_test\(`, false, Literals{MinRunes: 6}},
		{``, false, Literals{}},
		{`x*`, false, Literals{}},
		{`(?:abc|de)f`, false, Literals{MinRunes: 3, Exact: true}},
		{`a\x{FFFD}bcd`, false, Literals{}}, // U+FFFD also matches invalid bytes: no literal is trusted
		// The index takes the longest set, however many literals (the
		// prefilter takes quxZed|quuxZed|corgeZed, or a@example|...).
		{`(?:foo|bar|baz)(?:qux|quux|corge){3}Zed`, false, Literals{MinRunes: 9}},
		{`[a-c]{20}@example`, false, Literals{MinRunes: 10}},
		{`(?:ab|ba|aa){500}x`, false, Literals{MinRunes: 5}},
	} {
		got, err := RequiredLiterals(Options{Pattern: tc.pattern, IgnoreCase: tc.ignoreCase})
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		assert.Equal(t, tc.want, got, "RequiredLiterals(%q, i=%v)", tc.pattern, tc.ignoreCase)
	}
	if _, err := RequiredLiterals(Options{Pattern: "a("}); err == nil {
		t.Error("RequiredLiterals(a() succeeded")
	}
}
