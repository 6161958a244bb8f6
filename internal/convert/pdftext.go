package convert

import (
	"context"

	"github.com/ledongthuc/pdf"
)

// The text operators of a page's content stream, run on the library's
// interpreter (pdf.Interpret) as the library's Page.Content runs them, with
// the same arithmetic, but with bounds: each glyph goes to the layout as it
// is drawn instead of into a list of all of them, rectangles are not kept,
// at most maxGStates graphics states are saved (q), each font is read once
// per page, and ctx is checked every 256 operators.

// maxGStates bounds the saved graphics states. Deeper q operators are
// counted, not saved: their Q restores nothing, which on a real page never
// happens (PDF allows 28).
const maxGStates = 1024

type pdfMatrix [3][3]float64

var pdfIdent = pdfMatrix{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func (x pdfMatrix) mul(y pdfMatrix) pdfMatrix {
	var z pdfMatrix
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				z[i][j] += x[i][k] * y[k][j]
			}
		}
	}
	return z
}

// pdfFont is what the text operators need of a font, read once.
type pdfFont struct {
	enc         pdf.TextEncoding
	first, last int
	widths      []float64
}

func (f *pdfFont) width(code int) float64 {
	if f == nil || code < f.first || code > f.last || code-f.first >= len(f.widths) {
		return 0
	}
	return f.widths[code-f.first]
}

type identity struct{}

func (identity) Decode(raw string) string { return raw }

// pdfGState is the graphics state the text operators use.
type pdfGState struct {
	Tc, Tw, Th, Tl, Tfs, Trise float64
	font                       *pdfFont
	Tm, Tlm, CTM               pdfMatrix
}

// interpretPage runs the text operators of a page and passes each glyph
// drawn to glyph: its text, font size, position and width in points. It
// panics on a malformed operator (as the library does) and with a pdfAbort
// when ctx is done.
func interpretPage(ctx context.Context, p pdfPage, glyph func(s string, size, x, y, w float64)) {
	strm := p.V.Key("Contents")
	if strm.Kind() == pdf.Null {
		return
	}
	fonts := map[string]*pdfFont{}
	font := func(name string) *pdfFont {
		if f, ok := fonts[name]; ok {
			return f
		}
		lf := p.font(name)
		f := &pdfFont{enc: lf.Encoder(), first: lf.FirstChar(), last: lf.LastChar(), widths: lf.Widths()}
		if f.enc == nil {
			f.enc = identity{}
		}
		fonts[name] = f
		return f
	}
	g := pdfGState{Th: 1, CTM: pdfIdent}
	var enc pdf.TextEncoding = identity{}
	// show draws s; the library also shows "\n" after each TJ, which
	// moves the text position but is no glyph of the page.
	show := func(s string, draw bool) {
		n := 0
		for _, ch := range enc.Decode(s) {
			var w0 float64
			if n < len(s) {
				w0 = g.font.width(int(s[n]))
			}
			n++
			if draw {
				trm := pdfMatrix{{g.Tfs * g.Th, 0, 0}, {0, g.Tfs, 0}, {0, g.Trise, 1}}.mul(g.Tm).mul(g.CTM)
				glyph(string(ch), trm[0][0], trm[2][0], trm[2][1], w0/1000*trm[0][0])
			}
			tx := (w0/1000*g.Tfs + g.Tc) * g.Th
			g.Tm = pdfMatrix{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(g.Tm)
		}
	}
	var stack []pdfGState
	unsaved := 0 // q operators past maxGStates
	ops := 0
	pdf.Interpret(strm, func(stk *pdf.Stack, op string) {
		if ops++; ops%256 == 0 {
			if err := ctx.Err(); err != nil {
				panic(pdfAbort{err})
			}
		}
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		need := func(n int) {
			if len(args) != n {
				panic("bad " + op + " operator")
			}
		}
		switch op {
		case "cm":
			need(6)
			var m pdfMatrix
			for i := 0; i < 6; i++ {
				m[i/2][i%2] = args[i].Float64()
			}
			m[2][2] = 1
			g.CTM = m.mul(g.CTM)
		case "q":
			if len(stack) < maxGStates {
				stack = append(stack, g)
			} else {
				unsaved++
			}
		case "Q":
			switch {
			case unsaved > 0:
				unsaved--
			case len(stack) > 0:
				g = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
		case "BT":
			g.Tm, g.Tlm = pdfIdent, pdfIdent
		case "T*":
			g.Tlm = pdfMatrix{{1, 0, 0}, {0, 1, 0}, {0, -g.Tl, 1}}.mul(g.Tlm)
			g.Tm = g.Tlm
		case "Tc":
			need(1)
			g.Tc = args[0].Float64()
		case "TD", "Td":
			need(2)
			if op == "TD" {
				g.Tl = -args[1].Float64()
			}
			g.Tlm = pdfMatrix{{1, 0, 0}, {0, 1, 0}, {args[0].Float64(), args[1].Float64(), 1}}.mul(g.Tlm)
			g.Tm = g.Tlm
		case "Tf":
			need(2)
			g.font = font(args[0].Name())
			enc = g.font.enc
			g.Tfs = args[1].Float64()
		case "\"", "'", "Tj":
			if op == "\"" {
				need(3)
				g.Tw, g.Tc = args[0].Float64(), args[1].Float64()
				args = args[2:]
			}
			need(1)
			if op != "Tj" {
				g.Tlm = pdfMatrix{{1, 0, 0}, {0, 1, 0}, {0, -g.Tl, 1}}.mul(g.Tlm)
				g.Tm = g.Tlm
			}
			show(args[0].RawString(), true)
		case "TJ":
			if len(args) == 0 {
				panic("bad TJ operator")
			}
			v := args[0]
			for i := 0; i < v.Len(); i++ {
				x := v.Index(i)
				if x.Kind() == pdf.String {
					show(x.RawString(), true)
				} else {
					tx := -x.Float64() / 1000 * g.Tfs * g.Th
					g.Tm = pdfMatrix{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(g.Tm)
				}
			}
			show("\n", false)
		case "TL":
			need(1)
			g.Tl = args[0].Float64()
		case "Ts":
			need(1)
			g.Trise = args[0].Float64()
		case "Tw":
			need(1)
			g.Tw = args[0].Float64()
		case "Tz":
			need(1)
			g.Th = args[0].Float64() / 100
		}
	})
}
