package convert

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// convertPPTX renders each slide in presentation order as
// "<!-- Slide number: N -->", its title as "# ...", the text of its shapes,
// its tables as markdown tables, then its speaker notes.
func convertPPTX(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	p, err := openPkg(ctx, "PPTX", r, size)
	if err != nil {
		return "", err
	}
	p.markup = &markup{}
	slides, missing, err := pptxSlides(p)
	if err != nil {
		return stopped(&text{}, err)
	}
	var out text
	// A slide listed again is shown again from its text read the first
	// time: read anew, one slide listed 500,000 times took 12 s.
	type slideText struct{ body, notes string }
	seen := map[string]slideText{}
	for i, s := range slides {
		if out.full() {
			break
		}
		st, ok := seen[s]
		if ok {
			fmt.Fprintf(&out, "<!-- Slide number: %d -->\n%s\n%s\n", i+1, st.body, st.notes)
			continue
		}
		body, err := pptxText(p, s)
		fmt.Fprintf(&out, "<!-- Slide number: %d -->\n%s\n", i+1, body)
		if err != nil {
			return stopped(&out, err)
		}
		var notes strings.Builder
		for _, target := range p.rels(s) {
			if strings.Contains(target, "notesSlide") && p.has(target) {
				text, err := pptxText(p, target)
				if err != nil {
					return stopped(&out, err)
				}
				if text = strings.TrimSpace(text); text != "" {
					out.WriteString("### Notes:\n" + text + "\n")
					notes.WriteString("### Notes:\n" + text + "\n")
				}
			}
		}
		out.WriteString("\n")
		seen[s] = slideText{body, notes.String()}
	}
	res, err := out.result()
	if err == nil && missing > 0 {
		err = &errs.Partial{Reason: fmt.Sprintf("%d of the %d slides listed in the presentation are missing from the file", missing, missing+len(slides))}
	}
	return res, err
}

// pptxSlides returns the slide part names in presentation order, and how
// many slides listed have no part.
func pptxSlides(p *pkg) ([]string, int, error) {
	const pres = "ppt/presentation.xml"
	if !p.has(pres) {
		return nil, 0, malformed("PPTX", errMissing(pres))
	}
	var doc struct {
		IDs []struct {
			RID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sldIdLst>sldId"`
	}
	if err := p.decodeXML(pres, &doc); err != nil {
		return nil, 0, err
	}
	rels := p.rels(pres)
	var out []string
	missing := 0
	for _, id := range doc.IDs {
		if t, ok := rels[id.RID]; ok && p.has(t) {
			out = append(out, t)
		} else {
			missing++
		}
	}
	return out, missing, nil
}

type pptxWriter struct {
	out     text
	shape   text // text of the open shape
	para    text // text of the open paragraph
	title   bool // the open shape is a title placeholder
	skip    bool // the open shape is a slide number, date, header or footer
	inShape int
	inText  bool
	table   *docxTable
	skipAlt int // depth inside mc:Fallback
}

// pptxText renders the shapes and tables of one slide or notes part.
func pptxText(p *pkg, part string) (string, error) {
	w := &pptxWriter{}
	p.done = w.out.full
	notes := strings.Contains(part, "notesSlide")
	err := p.walk(part, func(tok xml.Token) {
		if skipFallback(tok, &w.skipAlt) {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "sp":
				w.inShape++
				w.shape.Reset()
				w.title, w.skip = false, false
			case "ph":
				switch typ := attr(t, "type"); typ {
				case "title", "ctrTitle":
					w.title = !notes
				case "sldNum", "dt", "ftr", "hdr", "sldImg":
					w.skip = true
				}
			case "p":
				w.para.Reset()
			case "t":
				w.inText = true
			case "br":
				w.para.WriteByte('\n')
			case "tbl":
				w.table = &docxTable{}
			case "tr":
				if w.table != nil {
					w.table.row = nil
				}
			case "tc":
				if w.table != nil {
					w.table.cell = nil
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				w.inText = false
			case "p":
				s := strings.TrimSpace(w.para.String())
				switch {
				case w.table != nil:
					w.table.cell = append(w.table.cell, s)
				case w.inShape > 0:
					w.shape.WriteString(s + "\n")
				}
			case "sp":
				w.inShape = max(0, w.inShape-1)
				s := strings.TrimSpace(w.shape.String())
				if s == "" || w.skip {
					return
				}
				if w.title {
					s = "# " + strings.ReplaceAll(s, "\n", " ")
				}
				w.out.WriteString(s + "\n")
			case "tc":
				if w.table != nil {
					w.table.addCell()
				}
			case "tr":
				if w.table != nil {
					w.table.addRow()
				}
			case "tbl":
				if w.table != nil {
					w.out.WriteString("\n" + mdTable(w.table.rows, outputCap-w.out.Len()) + "\n")
					w.table = nil
				}
			}
		case xml.CharData:
			if w.inText {
				w.para.Write(t)
				p.markup.shown += int64(len(t))
			}
		}
	})
	return w.out.String(), err
}
