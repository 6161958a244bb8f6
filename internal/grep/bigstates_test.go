package grep

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStateKeys: thread lists survive their keys, whatever the
// differences between instructions, and the key table finds each state by
// its key, again after a reset that reuses its blocks.
func TestStateKeys(t *testing.T) {
	lists := [][]uint32{
		nil,
		{0},
		{5, 4, 3, 2, 1},
		{1, 2, 3, 300, 299, 1 << 20, 0, 1<<32 - 1, 7},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		l := make([]uint32, r.IntN(5000))
		for i := range l {
			l[i] = r.Uint32N(1 << uint(1+r.IntN(31)))
		}
		lists = append(lists, l)
	}
	k := newStateKeys()
	for round := range 2 {
		var ids []int32
		for i, l := range lists {
			key := appendKey([]byte{byte(i)}, l)
			require.True(t, slices.Equal(l, keyInsts(nil, key)), "list %d", i)
			id, h := k.find(key)
			require.Zero(t, id, "list %d found before it was added", i)
			ids = append(ids, k.add(key, h))
		}
		held := k.held
		for i, l := range lists {
			key := appendKey([]byte{byte(i)}, l)
			id, _ := k.find(key)
			require.Equal(t, ids[i], id, "round %d, list %d", round, i)
			require.Equal(t, key, k.key(id))
		}
		k.reset()
		if round == 1 {
			assert.Equal(t, held, k.held, "the second round allocated blocks: the first round's were not reused")
		}
	}
}

// bigStateCases are patterns whose automaton states hold hundreds of
// threads (a chain of character classes, a counted repetition, a chain of
// pairs), for the tests below: they must give the same results whether
// the caches hold the states, flush them or step uncached.
var bigStateCases = []struct {
	pattern    string
	ignoreCase bool
}{
	{pattern: strings.Repeat("(?:a|b)", 600)},
	{pattern: strings.Repeat("[ab]", 400), ignoreCase: true},
	{pattern: "[ab]{500}"},
	{pattern: "[ab]{300}$"},
	{pattern: `\b[ab]{200}`},
	{pattern: "(?:ab|ba|aa){60}x"},
}

// bigStateText returns lines of random letters a and b of up to 2500
// bytes, some in capitals, some ending in x.
func bigStateText() []byte {
	r := rand.New(rand.NewPCG(3, 4))
	var b []byte
	for i := range 40 {
		n := r.IntN(2500)
		if i%5 == 0 {
			n = r.IntN(40)
		}
		line := abText(n + 1)[1:] // abText is deterministic: make lines differ
		line = line[min(len(line), i):] + line[:min(len(line), i)]
		if i%4 == 1 {
			line = strings.ToUpper(line)
		}
		if i%3 == 0 {
			line += "x"
		}
		b = append(append(b, line...), '\n')
	}
	return b
}

// TestBigStates compares the engine with the line-by-line regexp
// reference on big-state patterns in every mode, with the automata as
// they are, with match automata caches too small for a few states (they
// flush, then step uncached), and with a line automaton that gives up.
func TestBigStates(t *testing.T) {
	data := bigStateText()
	modes := []Options{
		{CountOnly: true},
		{CountOnly: true, FirstOnly: true},
		{Before: 1, After: 1, MaxColumns: 40},
		{MaxMatchesPerFile: 2},
	}
	setups := []struct {
		name  string
		setup func(s *Scanner)
	}{
		{"cached", nil},
		{"uncached", func(s *Scanner) {
			fwd, back := s.matchDFAs()
			shrinkCache(fwd, 16<<10)
			shrinkCache(back, 16<<10)
		}},
		{"no line DFA", func(s *Scanner) { s.dfa.byteLimit = 1 << 10 }},
		{"big line DFA states", func(s *Scanner) { s.dfa.keepLines() }},
	}
	for _, c := range bigStateCases {
		for _, mode := range modes {
			o := mode
			o.Pattern, o.IgnoreCase = c.pattern, c.ignoreCase
			want := refSearch(o, data)
			m, err := Compile(o)
			require.NoError(t, err)
			for _, st := range setups {
				s := m.NewScanner()
				if st.setup != nil {
					st.setup(s)
				}
				for run := range 2 { // the second run starts from the caches the first filled
					got, err := s.SearchBytes(context.Background(), data)
					require.NoError(t, err)
					if d := diff(want, got); d != "" {
						t.Fatalf("%.30s (ignore case %v), %s, %+v, run %d:\n%s", c.pattern, c.ignoreCase, st.name, mode, run, d)
					}
				}
				if st.name == "cached" {
					checkBudgets(t, s)
					checkLeft(t, s)
				}
				if st.name == "uncached" && c.pattern == bigStateCases[0].pattern && !o.FirstOnly {
					assert.True(t, s.fwd.raw, "the forward automaton did not go uncached: the setup tests nothing")
					assert.Negative(t, s.dfa.leave, "the match automata went uncached, and the line DFA still leaves them its big states")
				}
			}
		}
	}
}

// checkBudgets checks that the automata of s hold no more than their
// budgets, and that the match automata did not go uncached.
func checkBudgets(t *testing.T, s *Scanner) {
	t.Helper()
	assert.LessOrEqual(t, s.dfa.bytes(), s.dfa.byteLimit, "line DFA")
	assert.LessOrEqual(t, len(s.dfa.states), s.dfa.limit, "line DFA")
	for _, d := range []*mdfa{s.fwd, s.back} {
		if d != nil {
			assert.LessOrEqual(t, d.bytes(), d.limit, "match DFA, back %v", d.back)
			assert.False(t, d.raw, "match DFA, back %v: went uncached", d.back)
		}
	}
}

// checkLeft checks that the line DFA of s holds no state larger than it
// leaves to the match automata.
func checkLeft(t *testing.T, s *Scanner) {
	t.Helper()
	if s.dfa.failed {
		return
	}
	for i := int32(1); i < int32(len(s.dfa.states)); i++ {
		require.Less(t, len(s.dfa.keys.key(i)), s.dfa.big, "the line DFA built a big state")
	}
}

// TestLeaveBigStates: on a line of random a and b, [ab]{1000} passes
// through states of up to 1000 threads before each match; the line DFA
// builds those of up to about bigLine threads only and leaves the line to
// the match automata, which count its matches as regexp does, with no
// state of the line DFA built beyond.
func TestLeaveBigStates(t *testing.T) {
	line := []byte(abText(20000) + "\n" + abText(999) + "\n")
	o := Options{Pattern: "[ab]{1000}", CountOnly: true}
	m, err := Compile(o)
	require.NoError(t, err)
	s := m.NewScanner()
	res, err := s.SearchBytes(context.Background(), line)
	require.NoError(t, err)
	assert.Equal(t, 1, res.MatchLines)
	assert.Equal(t, len(mustRef(o.Pattern).FindAllIndex(line, -1)), res.Matches)
	assert.False(t, s.dfa.failed)
	checkLeft(t, s)
	assert.Less(t, len(s.dfa.states), bigLine+8, "the line DFA built states past those it leaves")
	assert.NotNil(t, s.fwd, "the match automata did not take the line")
}

// TestBigStatesGrow: a forward automaton whose states need more than
// matchCacheBytes (a chain of 1500 classes: 1500 states of up to 1500
// threads) grows its cache from its Matcher's room and stays cached, with
// FindAllIndex's matches; with no room left, it flushes, with the same
// matches.
func TestBigStatesGrow(t *testing.T) {
	o := Options{Pattern: strings.Repeat("[ab]", 1500)}
	hay := []byte(abText(7000))
	var want [][2]int
	for _, x := range mustRef(o.Pattern).FindAllIndex(hay, -1) {
		want = append(want, [2]int{x[0], x[1]})
	}
	require.Len(t, want, 4)
	for _, room := range []int64{matchCacheGrowth, 0} {
		m, err := Compile(o)
		require.NoError(t, err)
		m.growth.left.Store(room)
		s := m.NewScanner()
		var got [][2]int
		s.eachMatch(hay, true, func(a, b int) bool { got = append(got, [2]int{a, b}); return true })
		assert.Equal(t, want, got, "room %d", room)
		fwd, _ := s.matchDFAs()
		if room > 0 {
			assert.Greater(t, fwd.limit, matchCacheBytes, "the cache did not grow")
			assert.Equal(t, room-int64(fwd.limit-matchCacheBytes), m.growth.left.Load(), "the growth taken from the Matcher's room")
			checkBudgets(t, s)
		} else {
			assert.Equal(t, matchCacheBytes, fwd.limit)
			assert.Greater(t, fwd.flushes, 2, "with no room, the forward automaton did not flush")
		}
	}
}

// TestRipgrepBigStates compares match counts with `rg --count-matches`
// on big-state patterns, and on one line of 64 KiB (a chain of 3000
// classes).
func TestRipgrepBigStates(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	dir := t.TempDir()
	texts := map[string][]byte{"lines.txt": bigStateText(), "line.txt": []byte(abText(64<<10) + "\n")}
	for name, data := range texts {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	cases := slices.Clone(bigStateCases)
	cases = append(cases, struct {
		pattern    string
		ignoreCase bool
	}{pattern: strings.Repeat("(?:a|b)", 3000)})
	for _, c := range cases {
		m, err := Compile(Options{Pattern: c.pattern, IgnoreCase: c.ignoreCase, CountOnly: true})
		require.NoError(t, err)
		s := m.NewScanner()
		for name, data := range texts {
			args := []string{"--count-matches", "--no-config"}
			if c.ignoreCase {
				args = append(args, "-i")
			}
			out, err := exec.Command(rg, append(args, "-e", c.pattern, filepath.Join(dir, name))...).Output()
			if err != nil && len(out) > 0 {
				t.Fatalf("rg: %v", err)
			}
			want := 0 // rg prints nothing without a match
			if s := strings.TrimSpace(string(out)); s != "" {
				want, err = strconv.Atoi(s)
				require.NoError(t, err)
			}
			res, err := s.SearchBytes(context.Background(), data)
			require.NoError(t, err)
			assert.Equal(t, want, res.Matches, "%.30s on %s", c.pattern, name)
		}
	}
}
