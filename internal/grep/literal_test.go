package grep

import (
	"math/rand/v2"
	"regexp/syntax"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnalyzerProducts: an analyzer that has multiplied many sets gives
// each product as a fresh one computes it, and keeps one per distinct pair
// of sets: the keys tell apart sets that differ in where a literal ends
// ("a"+"bc", "ab"+"c"), in a fold flag or in their number of literals.
func TestAnalyzerProducts(t *testing.T) {
	pool := []lit{{s: "a"}, {s: "ab"}, {s: "bc"}, {s: "c"}, {s: "a", fold: true}, {s: "abc"}, {}, {s: "\x00\x01"}, {s: "é"}}
	r := rand.New(rand.NewPCG(11, 12))
	set := func() litSet {
		var s litSet
		for range r.IntN(4) {
			s = append(s, pool[r.IntN(len(pool))])
		}
		return s
	}
	fresh := func() *analyzer { return &analyzer{better: byPrefilter, products: map[string]litSet{}} }
	shared := fresh()
	for range 3000 {
		s, u := set(), set()
		want := fresh().product(s, u)
		require.Equal(t, want, shared.product(s, u), "%q × %q", s, u)
		for i, l := range want {
			require.NotContains(t, want[i+1:], l, "%q × %q: a repeat", s, u)
		}
	}
	p := fresh()
	a := p.product(litSet{{s: "a"}}, litSet{{s: "bc"}})
	b := p.product(litSet{{s: "ab"}}, litSet{{s: "c"}})
	assert.Equal(t, a, b, "the same literal either way")
	assert.Len(t, p.products, 2, "two pairs of sets, two keys")
}

// TestAnalyzeShared: a pattern analyzes the same whether its repeated
// parts are one node (x{n}: the analyzer reuses its info) or copies.
func TestAnalyzeShared(t *testing.T) {
	for _, p := range []string{"[ab]{40}", "(?:ab|ba|aa){30}x", "(?:foo|ba[rz]){5}qux", "(?i)(?:k[ab]){9}", "(?:a[bc]d?){12}"} {
		re, err := syntax.Parse(p, syntax.Perl)
		require.NoError(t, err)
		re = re.Simplify()
		cp := copyTree(re)
		for _, better := range []order{byPrefilter, byLength} {
			assert.Equal(t, analyze(cp, better), analyze(re, better), p)
		}
		assert.Less(t, len(nodes(re, map[*syntax.Regexp]bool{})), len(nodes(cp, map[*syntax.Regexp]bool{})), "%s: no node shared", p)
	}
}

// nodes adds the nodes of re to seen.
func nodes(re *syntax.Regexp, seen map[*syntax.Regexp]bool) map[*syntax.Regexp]bool {
	seen[re] = true
	for _, s := range re.Sub {
		nodes(s, seen)
	}
	return seen
}

// copyTree copies re node by node: no node of the copy is shared.
func copyTree(re *syntax.Regexp) *syntax.Regexp {
	c := *re
	c.Sub = nil
	for _, s := range re.Sub {
		c.Sub = append(c.Sub, copyTree(s))
	}
	return &c
}
