package grep

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestRunKernels checks the assembly loops of the line DFA against the
// portable one: from random states and positions, over text whose
// transitions are partly cached, each stops at the same byte in the same
// state.
func TestRunKernels(t *testing.T) {
	if !hasSIMD {
		t.Skip("no SIMD kernels on this platform")
	}
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
			for _, n := range []int{len(text) / 8, len(text)} { // partly, then fully cached
				for from := 0; from < n; {
					p := d.scan(text, from, n)
					if p < 0 {
						break
					}
					from = p + 1 + max(0, bytes.IndexByte(text[p+1:n], '\n'))
				}
				for range 2000 {
					i := r.IntN(len(text))
					s := int32(1+r.IntN(len(d.states)-1)) << 8
					end := i + r.IntN(len(text)-i+1)
					wi, ws := d.runPortable(text[:end], i, s)
					gi, gs := dfaRun(text[:end], i, uint(s), d.trans, d.skip)
					if gi != wi || int32(gs) != ws {
						t.Fatalf("dfaRun from %d in %d: (%d, %d), want (%d, %d)", i, s, gi, gs, wi, ws)
					}
					if len(d.states) <= 16 {
						gi, gs = dfaRunLanes(text[:end], i, uint(s), d.trans, d.skip, &d.lanes)
						if gi != wi || int32(gs) != ws {
							t.Fatalf("dfaRunLanes from %d in %d: (%d, %d), want (%d, %d)", i, s, gi, gs, wi, ws)
						}
					}
				}
			}
		})
	}
}
