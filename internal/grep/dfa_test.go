package grep

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestRun checks the line DFA's per-byte loops (the assembly ones where
// they run) against a plain step loop: from random states and positions,
// over text whose transitions are partly cached, each stops at the same
// byte in the same state.
func TestRun(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	text := corpus(1 << 16)
	text = append(text, "Ab12c\r\nΑβγ x\xff\xfe Value12a\r\rq\n"...)
	for range 2000 {
		text = append(text, byte(r.IntN(256)))
	}
	for _, p := range []string{
		"[A-Z][a-z]+[0-9]{2,}[a-z]", // few states
		"[a-z]{4} [a-z]",
		`\p{Greek}`,
		`func [A-Z][a-zA-Z]*\(ctx context\.Context`, // more than 16 states
		`\bx\b`,
		"^ *return",
		"(?i)errshortwrite|value",
		`[^\x00-\x7f]{2}`,
	} {
		t.Run(p, func(t *testing.T) {
			m, err := Compile(Options{Pattern: p})
			if err != nil {
				t.Fatal(err)
			}
			d := newDFA(m.prog)
			type run func(data []byte, i int, s int32) (int, int32)
			runs := map[string]run{"run": d.run}
			if hasSIMD {
				runs["dfaRun"] = func(data []byte, i int, s int32) (int, int32) {
					i, si := dfaRun(data, i, uint(s), d.trans, d.skip)
					return i, int32(si)
				}
				runs["dfaRunLanes"] = func(data []byte, i int, s int32) (int, int32) {
					if len(d.states) > 16 {
						return d.run(data, i, s)
					}
					i, si := dfaRunLanes(data, i, uint(s), d.trans, d.skip, &d.lanes)
					return i, int32(si)
				}
			}
			for _, n := range []int{len(text) / 8, len(text)} { // partly, then fully cached
				for from := 0; from < n; {
					p := d.scan(text, from, n)
					if p < 0 {
						break
					}
					j := bytes.IndexByte(text[p:n], '\n')
					if j < 0 {
						break
					}
					from = p + j + 1
				}
				for range 2000 {
					i := r.IntN(len(text))
					s := int32(1+r.IntN(len(d.states)-1)) << 8
					end := i + r.IntN(len(text)-i+1)
					wi, ws := i, s
					for ; wi < end && d.trans[int(ws)|int(text[wi])] > 0; wi++ {
						ws = d.trans[int(ws)|int(text[wi])]
					}
					for name, f := range runs {
						if gi, gs := f(text[:end], i, s); gi != wi || gs != ws {
							t.Fatalf("%s from %d in state %d: (%d, %d), want (%d, %d)", name, i, s, gi, gs, wi, ws)
						}
					}
				}
			}
		})
	}
}

// TestBuildSkip checks that a state's skip tables accept only bytes that
// keep the state, and all of them when their high nibbles need at most 8
// distinct sets of low nibbles.
func TestBuildSkip(t *testing.T) {
	m, err := Compile(Options{Pattern: "a"})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		name  string
		stays func(b int) bool
		exact bool
	}{
		{"none", func(int) bool { return false }, true},
		{"all", func(int) bool { return true }, true},
		{"not A-Z or newline", func(b int) bool { return (b < 'A' || b > 'Z') && b != '\n' && b != '\r' }, true},
		{"a-z", func(b int) bool { return b >= 'a' && b <= 'z' }, true},
		{"random", func(int) bool { return r.IntN(2) == 0 }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDFA(m.prog)
			if !hasSIMD {
				d.skip = make([]byte, skipBytes*len(d.states))
			}
			s := d.start
			want := make([]bool, 256)
			for b := range 256 {
				want[b] = c.stays(b)
				d.trans[int(s)|b] = s + 256 // another state
				if want[b] {
					d.trans[int(s)|b] = s
				}
			}
			d.buildSkip(s)
			tab := d.skip[s>>3:][:skipBytes]
			for b := range 256 {
				got := tab[b&15]&tab[16+b>>4] != 0
				if got && !want[b] || c.exact && got != want[b] {
					t.Errorf("byte %#x: skipped %v, keeps the state %v", b, got, want[b])
				}
			}
		})
	}
}
