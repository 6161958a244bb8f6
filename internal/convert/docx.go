package convert

import (
	"context"
	"encoding/xml"
	"io"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// convertDOCX renders word/document.xml: headings as #, list items as -,
// tables as markdown tables, hyperlinks as [text](url).
func convertDOCX(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	p, err := openPkg(ctx, "DOCX", r, size)
	if err != nil {
		return "", err
	}
	const main = "word/document.xml"
	if !p.has(main) {
		return "", malformed("DOCX", errMissing(main))
	}
	p.markup = &markup{}
	headings := docxHeadings(p)
	w := &docxWriter{headings: headings, links: p.rels(main), shown: &p.markup.shown}
	p.done = w.out.full
	if err := p.walk(main, w.token); err != nil {
		return stopped(&w.out, err)
	}
	for _, part := range []struct{ name, prefix string }{{"word/footnotes.xml", ""}, {"word/endnotes.xml", "e"}} {
		if !p.has(part.name) || w.out.full() {
			continue
		}
		notes, err := docxNotes(p, part.name, part.prefix, headings)
		if err != nil {
			return stopped(&w.out, err)
		}
		for _, n := range notes {
			w.out.WriteString(n + "\n\n")
		}
	}
	return w.out.result()
}

// docxNotes renders the footnotes or endnotes of a part as
// "[^id]: text", leaving out the separator notes.
func docxNotes(p *pkg, part, prefix string, headings map[string]int) ([]string, error) {
	var out []string
	var nw *docxWriter
	id := ""
	links := p.rels(part)
	err := p.walk(part, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "footnote" || t.Name.Local == "endnote" {
				id, nw = attr(t, "id"), nil
				if typ := attr(t, "type"); typ == "" || typ == "normal" {
					nw = &docxWriter{headings: headings, links: links, shown: &p.markup.shown}
				}
				return
			}
		case xml.EndElement:
			if (t.Name.Local == "footnote" || t.Name.Local == "endnote") && nw != nil {
				if s := tidy(nw.out.String()); s != "" {
					out = append(out, "[^"+prefix+id+"]: "+strings.ReplaceAll(s, "\n\n", "\n"))
				}
				nw = nil
				return
			}
		}
		if nw != nil {
			nw.token(tok)
		}
	})
	return out, err
}

type docxPara struct {
	b         text
	level     int // heading level, 0 for body text
	list      bool
	listLevel int
	linkURL   string // target of the open hyperlink, whose "[" is written
}

// docxTable is an open table. Its rows stop growing once their text
// passes MaxOutput (full), which would fill the output on its own.
type docxTable struct {
	rows [][]string
	row  []string
	cell []string // paragraphs of the open cell
	size int      // bytes held by rows, with their slice headers
	full bool
}

// addCell ends the open cell.
func (t *docxTable) addCell() {
	c := strings.Join(t.cell, "\n")
	t.cell = nil
	if t.full {
		return
	}
	t.row = append(t.row, c)
	t.size += len(c) + 16
}

// addRow ends the open row.
func (t *docxTable) addRow() {
	if t.full {
		return
	}
	t.rows = append(t.rows, t.row)
	t.row = nil
	if t.size += 24; t.size > outputCap {
		t.full = true
	}
}

type docxWriter struct {
	out      text
	headings map[string]int    // paragraph style id -> heading level
	links    map[string]string // relationship id -> target
	paras    []*docxPara       // open paragraphs (text boxes nest them)
	tables   []*docxTable      // open tables
	inText   bool
	inRun    int    // depth of open runs: tabs and breaks count only inside one
	fallback int    // depth inside mc:Fallback, whose content repeats mc:Choice
	shown    *int64 // bytes of text read (markup.shown)
}

func (w *docxWriter) para() *docxPara {
	if len(w.paras) == 0 {
		return nil
	}
	return w.paras[len(w.paras)-1]
}

func (w *docxWriter) token(tok xml.Token) {
	if skipFallback(tok, &w.fallback) {
		return
	}
	switch t := tok.(type) {
	case xml.StartElement:
		w.start(t)
	case xml.EndElement:
		w.end(t.Name.Local)
	case xml.CharData:
		if p := w.para(); p != nil && w.inText {
			p.b.Write(t)
			*w.shown += int64(len(t))
		}
	}
}

func (w *docxWriter) start(e xml.StartElement) {
	p := w.para()
	switch e.Name.Local {
	case "p":
		// The paragraph last closed at this depth is made new again: one
		// allocated for each took a fifth of the time of a part of empty
		// paragraphs. Its text is not: strings made of it are kept.
		if n := len(w.paras); n < cap(w.paras) && w.paras[:n+1][n] != nil {
			w.paras = w.paras[:n+1]
			*w.paras[n] = docxPara{}
		} else {
			w.paras = append(w.paras, &docxPara{})
		}
	case "pStyle":
		if p != nil {
			p.level = w.headings[attr(e, "val")]
		}
	case "numPr":
		if p != nil {
			p.list = true
		}
	case "ilvl":
		if p != nil {
			p.listLevel, _ = strconv.Atoi(attr(e, "val"))
			p.listLevel = min(max(p.listLevel, 0), 8)
		}
	case "r":
		w.inRun++
	case "t":
		w.inText = true
	case "tab":
		if p != nil && w.inRun > 0 {
			p.b.WriteByte('\t')
		}
	case "br", "cr":
		if p != nil && w.inRun > 0 {
			p.b.WriteByte('\n')
		}
	case "hyperlink":
		if p != nil {
			p.endLink()
			if p.linkURL = w.links[attr(e, "id")]; p.linkURL != "" {
				p.b.WriteByte('[')
			}
		}
	case "footnoteReference":
		if p != nil {
			p.b.WriteString("[^" + attr(e, "id") + "]")
		}
	case "endnoteReference":
		if p != nil {
			p.b.WriteString("[^e" + attr(e, "id") + "]")
		}
	case "tbl":
		w.tables = append(w.tables, &docxTable{})
	case "tr":
		if n := len(w.tables); n > 0 {
			w.tables[n-1].row = nil
		}
	case "tc":
		if n := len(w.tables); n > 0 {
			w.tables[n-1].cell = nil
		}
	}
}

func (w *docxWriter) end(local string) {
	switch local {
	case "r":
		w.inRun = max(0, w.inRun-1)
	case "t":
		w.inText = false
	case "hyperlink":
		if p := w.para(); p != nil {
			p.endLink()
		}
	case "p":
		if len(w.paras) == 0 {
			return
		}
		p := w.paras[len(w.paras)-1]
		w.paras = w.paras[:len(w.paras)-1]
		p.endLink()
		w.emitPara(p)
	case "tc":
		if t := w.table(); t != nil {
			t.addCell()
		}
	case "tr":
		if t := w.table(); t != nil {
			t.addRow()
		}
	case "tbl":
		t := w.table()
		if t == nil {
			return
		}
		w.tables = w.tables[:len(w.tables)-1]
		if outer := w.table(); outer != nil {
			// A nested table is flattened into the enclosing cell.
			for _, r := range t.rows {
				outer.cell = append(outer.cell, strings.Join(r, " "))
			}
			return
		}
		if !w.out.full() {
			w.out.WriteString(mdTable(t.rows, outputCap-w.out.Len()) + "\n")
		}
		if t.full {
			w.out.cut = true
		}
	}
}

// endLink closes the open hyperlink: "[label" becomes "[label](url)".
func (p *docxPara) endLink() {
	if p.linkURL != "" {
		p.b.WriteString("](" + p.linkURL + ")")
		p.linkURL = ""
	}
}

func (w *docxWriter) table() *docxTable {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

func (w *docxWriter) emitPara(p *docxPara) {
	s := strings.TrimSpace(p.b.String())
	if t := w.table(); t != nil && len(w.paras) == 0 {
		t.cell = append(t.cell, s)
		return
	}
	if s == "" || w.out.full() {
		return
	}
	switch {
	case p.level > 0:
		s = strings.Repeat("#", p.level) + " " + strings.ReplaceAll(s, "\n", " ")
	case p.list:
		s = strings.Repeat("  ", p.listLevel) + "- " + s
	}
	if outer := w.para(); outer != nil {
		// A paragraph inside a text box joins its anchor paragraph.
		outer.b.WriteString(s + "\n")
		return
	}
	w.out.WriteString(s + "\n\n")
}

var headingStyle = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^heading\s*([1-9])$`) })

// docxHeadings maps paragraph style ids to heading levels from
// word/styles.xml (by the style's name, which is language-independent:
// "heading 1", "Title"), falling back to ids such as "Heading2".
func docxHeadings(p *pkg) map[string]int {
	levels := map[string]int{"Title": 1}
	for i := 1; i <= 9; i++ {
		levels["Heading"+strconv.Itoa(i)] = i
	}
	const styles = "word/styles.xml"
	if !p.has(styles) {
		return levels
	}
	// The style elements of the root element and the val of their name
	// elements (the last given), as decoding them into a struct takes
	// them; streamed, so that only the headings are held. A part that
	// cannot be read whole is left out.
	found := map[string]int{}
	depth, roots, id, name := 0, 0, "", ""
	err := p.walk(styles, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth == 1 {
				roots++
			}
			switch {
			case roots > 1:
			case depth == 2 && t.Name.Local == "style":
				id, _ = attrLast(t, "styleId")
				name = ""
			case depth == 3 && t.Name.Local == "name":
				if v, ok := attrLast(t, "val"); ok {
					name = v
				}
			}
		case xml.EndElement:
			if depth == 2 && roots == 1 && t.Name.Local == "style" {
				if m := headingStyle().FindStringSubmatch(name); m != nil {
					found[id] = int(m[1][0] - '0')
				} else if strings.EqualFold(name, "title") {
					found[id] = 1
				}
			}
			depth--
		}
	})
	if err != nil {
		return levels
	}
	maps.Copy(levels, found)
	return levels
}

// attrLast returns the value of the last attribute with the local name,
// as decoding into a struct field does.
func attrLast(e xml.StartElement, local string) (string, bool) {
	for i := len(e.Attr) - 1; i >= 0; i-- {
		if e.Attr[i].Name.Local == local {
			return e.Attr[i].Value, true
		}
	}
	return "", false
}

// stopped returns the text so far and an *errs.Partial for a conversion
// stopped by the markup bound; other errors pass through, without text.
func stopped(out *text, err error) (string, error) {
	if part := asPartial(err); part != nil {
		s, _ := out.result()
		return s, part
	}
	return "", err
}
