package convert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ledongthuc/pdf"
)

// convertPDF extracts the text of each page; pages are separated by a blank
// line. Glyphs are laid out from their positions: a new line when the
// baseline moves, a blank line for a paragraph gap, and a space where the
// horizontal gap between glyphs is wider than a fifth of the font size (PDF
// producers often position words instead of writing spaces). A PDF without
// a text layer (scanned images) gives an error that says so rather than an
// empty text.
func convertPDF(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if err := checkObjStms(r, size); err != nil {
		return "", malformed("PDF", err)
	}
	rd, err := pdf.NewReader(r, size)
	if err != nil {
		if strings.Contains(err.Error(), "encrypted") {
			return "", malformed("PDF", errors.New("the file is encrypted"))
		}
		return "", malformed("PDF", err)
	}
	pages, err := pdfPages(ctx, rd.Trailer().Key("Root").Key("Pages"))
	if err != nil {
		return "", err
	}
	var out text
	for i, p := range pages {
		if out.full() {
			break
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
		s, err := pageText(p)
		if err != nil {
			return "", malformed("PDF", fmt.Errorf("page %d: %w", i+1, err))
		}
		out.WriteString(s + "\n\n")
	}
	res := out.result()
	if res == "" {
		return "", malformed("PDF", errors.New("no text layer found (scanned images need OCR)"))
	}
	return res, nil
}

// Bounds of the page tree walk.
const (
	maxPDFNodes = 1 << 20
	maxPDFDepth = 64
)

// pdfPages lists the pages of the page tree in order. The library's own
// lookup (Reader.Page) loops forever on a tree that contains itself; this
// walk is bounded in depth and in nodes visited.
func pdfPages(ctx context.Context, root pdf.Value) ([]pdf.Page, error) {
	var pages []pdf.Page
	visited := 0
	var walk func(v pdf.Value, depth int) error
	walk = func(v pdf.Value, depth int) error {
		if visited++; visited > maxPDFNodes {
			return malformed("PDF", errors.New("the page tree has too many nodes (a cycle?)"))
		}
		if visited%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if depth > maxPDFDepth {
			return malformed("PDF", errors.New("the page tree is nested too deep (a cycle?)"))
		}
		kids := v.Key("Kids")
		switch {
		case v.Key("Type").Name() == "Pages" || kids.Kind() == pdf.Array:
			for i := 0; i < kids.Len(); i++ {
				if err := walk(kids.Index(i), depth+1); err != nil {
					return err
				}
			}
		case v.Kind() == pdf.Dict:
			pages = append(pages, pdf.Page{V: v})
		}
		return nil
	}
	if err := walk(root, 0); err != nil {
		return nil, err
	}
	return pages, nil
}

// pageText lays out the glyphs of one page.
func pageText(p pdf.Page) (s string, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = "", fmt.Errorf("bad content stream (%v)", r)
		}
	}()
	if err := checkStreams(p); err != nil {
		return "", err
	}
	// The library appends a pseudo glyph, "\n" decoded in the current
	// font, after every TJ; find what it looks like in each font to drop it.
	pseudo := map[string]string{}
	for _, name := range p.Fonts() {
		f := p.Font(name)
		base := f.BaseFont()
		if i := strings.IndexByte(base, '+'); i >= 0 {
			base = base[i+1:]
		}
		pseudo[base] = f.Encoder().Decode("\n")
	}
	var b strings.Builder
	var lineY, endX, size float64
	started, lastSpace := false, false
	for _, g := range p.Content().Text {
		if g.S == "" || g.S == "\n" || g.S == pseudo[g.Font] {
			continue
		}
		fs := math.Max(g.FontSize, 1)
		if started {
			switch dy := lineY - g.Y; {
			case math.Abs(dy) > 0.6*math.Max(fs, size):
				b.WriteByte('\n')
				if dy > 2*math.Max(fs, size) {
					b.WriteByte('\n')
				}
				lineY, lastSpace = g.Y, true
			case g.X-endX > 0.2*fs && !lastSpace && g.S != " ":
				b.WriteByte(' ')
			}
		} else {
			lineY, started = g.Y, true
		}
		b.WriteString(g.S)
		endX, size = g.X+g.W, fs
		lastSpace = g.S == " "
	}
	return strings.TrimSpace(b.String()), nil
}

// maxContent caps the decoded content of one page, and maxPageText the
// bytes inside its strings: the library keeps some 80 bytes per glyph.
const (
	maxContent  = 64 << 20
	maxPageText = 1 << 20
)

// checkStreams refuses a page whose content or ToUnicode streams the
// library cannot lex safely: its lexer loops forever on a hex string left
// open at the end of a stream, and it lays out every glyph in memory.
func checkStreams(p pdf.Page) error {
	if err := scanStream(p.V.Key("Contents")); err != nil {
		return fmt.Errorf("content stream: %w", err)
	}
	for _, name := range p.Fonts() {
		if err := scanStream(p.Font(name).V.Key("ToUnicode")); err != nil {
			return fmt.Errorf("font %s: ToUnicode: %w", name, err)
		}
	}
	return nil
}

func scanStream(v pdf.Value) error {
	var rd io.Reader
	switch v.Kind() {
	case pdf.Stream:
		rd = v.Reader()
	case pdf.Array:
		var rs []io.Reader
		for i := 0; i < v.Len(); i++ {
			if v.Index(i).Kind() == pdf.Stream {
				rs = append(rs, v.Index(i).Reader())
			}
		}
		rd = io.MultiReader(rs...)
	default:
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(rd, maxContent+1))
	if err != nil {
		return err
	}
	if len(data) > maxContent {
		return fmt.Errorf("more than %d MiB", maxContent>>20)
	}
	closed, textBytes := scanContent(data)
	if !closed {
		return errors.New("unterminated hex string")
	}
	if textBytes > maxPageText {
		return fmt.Errorf("more than %d bytes of strings on one page", maxPageText)
	}
	return nil
}

// scanContent reports whether every hex string ("<...>") in a content
// stream is closed, skipping comments and literal strings as the library's
// lexer does, and counts the bytes inside strings.
func scanContent(data []byte) (closed bool, textBytes int) {
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '%':
			for i < len(data) && data[i] != '\r' && data[i] != '\n' {
				i++
			}
		case '(':
			depth, start := 1, i
			for i++; i < len(data) && depth > 0; i++ {
				switch data[i] {
				case '\\':
					i++
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			i--
			textBytes += max(0, i-start-1)
		case '<':
			if i+1 < len(data) && data[i+1] == '<' {
				i++
				continue
			}
			j := bytes.IndexByte(data[i+1:], '>')
			if j < 0 {
				return false, textBytes
			}
			i += j + 1
			textBytes += j / 2
		}
	}
	return true, textBytes
}

// maxObjStm caps the objects an object stream may announce: the library
// reads that many entries even past the end of the stream.
const maxObjStm = 1 << 20

// The object-stream patterns, compiled on first use (not at start-up).
var (
	objStmRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/Type\s*/ObjStm\b`) })
	countRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/N\s+(\d+)`) })
)

// checkObjStms scans the raw file for object-stream dictionaries and
// refuses one that announces more than maxObjStm objects.
func checkObjStms(r io.ReaderAt, size int64) error {
	const chunk, overlap = 1 << 20, 2048
	buf := make([]byte, chunk+overlap)
	for off := int64(0); off < size; off += chunk {
		n, err := r.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if err != nil && err != io.EOF {
			return err
		}
		b := buf[:n]
		for _, loc := range objStmRE().FindAllIndex(b, -1) {
			window := b[max(0, loc[0]-overlap/2):min(len(b), loc[1]+overlap/2)]
			for _, m := range countRE().FindAllSubmatch(window, -1) {
				if v, err := strconv.Atoi(string(m[1])); err != nil || v > maxObjStm {
					return fmt.Errorf("an object stream announces %s objects", m[1])
				}
			}
		}
	}
	return nil
}
