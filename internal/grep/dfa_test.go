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
