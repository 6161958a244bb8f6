// Package convert turns documents (.pdf .docx .pptx .xlsx .doc .ppt .xls
// .rtf .epub) into text or markdown, one Converter per format.
//
// Every converter reads through io.ReaderAt, honours ctx between pages,
// parts or records, caps what it inflates and what it emits, and never
// panics: a malformed document gives an error whose message says what is
// wrong, and a document converted in part its text with an *errs.Partial
// error that says what is left out.
//
// # Output
//
//   - PDF: the text of each page laid out from glyph positions (ledongthuc/pdf);
//     pages separated by a blank line. No OCR, no Form XObjects.
//   - DOCX: headings as #, list items as -, tables as markdown tables, links
//     as [text](url), footnotes and endnotes as [^id] at the end.
//   - PPTX: "<!-- Slide number: N -->", the title as #, shape text, tables,
//     "### Notes:".
//   - XLSX (own reader on encoding/xml) and XLS (own BIFF8 reader):
//     "## Sheet" and a markdown table per sheet, the first row as header.
//   - DOC (own piece-table reader on mscfb): the main text; paragraphs,
//     table cells as tabs, field codes dropped, field results kept.
//   - PPT (own record walker on mscfb): slide text, text boxes, notes.
//   - RTF (own tokenizer): text with code pages, \uN, tables as "a | b".
//   - EPUB: title, authors, then the spine's XHTML as markdown.
//
// RTF, OOXML and HTML files saved under .doc, .xls or .ppt are read as
// what they are.
//
// # Limits
//
// MaxOutput bytes of text (more is an *errs.Partial); OOXML and EPUB
// packages are zips read by package archive, under its limits and checks
// (entries that overlap are refused) with 4 MiB of zip directory; 64 MiB
// inflated per zip part, 8 MiB per EPUB chapter; 512 MiB inflated from
// all the parts of a package and 2 Mi XML tags and attributes across them
// (DOCX, PPTX, XLSX, EPUB), and 64 more for each byte of text they give
// (past either, the text read so far and an *errs.Partial naming the
// part; an XLSX's shared strings are read as far as its cells use them,
// an EPUB chapter the spine names again is converted once); HTML (EPUB
// chapters, HTML saved as .doc or .xls) converted up to 8 MiB, 100,000
// start tags and 400,000 attributes, the rest left out (an *errs.Partial);
// 256 MiB per OLE stream; XML elements nested 256 deep and tags of 1 MiB;
// RTF groups nested 1024 deep; PDF: 2 Mi objects, 256 Ki entries per array
// or dictionary, 64 Ki operands of 4 MiB in all between two content
// operators, 64 MiB of content per page, 2 MiB per ToUnicode map, 64 MiB
// per object stream, 1024 saved graphics states; reads fail after
// MaxDuration. A bound crossed is a TOO_LARGE error (a PDF page over one is
// left out, see convertPDF).
package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

// MaxOutput is the most text a converter emits; the rest of the document is
// dropped with a closing notice.
const MaxOutput = 16 << 20

// outputCap is MaxOutput, the bound the converters apply; the tests lower
// it to reach it with small documents.
var outputCap = MaxOutput

// maxPart is the most bytes inflated from one part of a zip-based document.
const maxPart = 64 << 20

// MaxDuration bounds one conversion: reads of the document fail after it,
// which stops parsers that loop while reading a crafted file.
const MaxDuration = 2 * time.Minute

// Converter converts one document format to text or markdown.
type Converter interface {
	// Convert reads the size bytes of r and returns the document's text.
	Convert(ctx context.Context, r io.ReaderAt, size int64) (string, error)
}

// Func adapts a function to a Converter.
type Func func(ctx context.Context, r io.ReaderAt, size int64) (string, error)

// Convert calls f.
func (f Func) Convert(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	return f(ctx, r, size)
}

// builtin returns the converters by extension, made on first use.
var builtin = sync.OnceValue(func() map[string]Converter {
	return map[string]Converter{
		".pdf":  Func(convertPDF),
		".docx": Func(convertDOCX),
		".pptx": Func(convertPPTX),
		".xlsx": Func(convertXLSX),
		".epub": Func(convertEPUB),
		".rtf":  Func(convertRTF),
		".doc":  Func(convertDOC),
		".ppt":  Func(convertPPT),
		".xls":  Func(convertXLS),
	}
})

// For returns the built-in converter for ext (".pdf" or "pdf",
// case-insensitive), wrapped by Safe.
func For(ext string) (Converter, bool) {
	if !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	c, ok := builtin()[strings.ToLower(ext)]
	if !ok {
		return nil, false
	}
	return Safe(c), true
}

// Extensions returns the extensions with a built-in converter, sorted.
func Extensions() []string {
	return slices.Sorted(maps.Keys(builtin()))
}

// Safe wraps c so that a panic inside it (third-party parsers on hostile
// input) becomes an error, a canceled ctx is reported before any work,
// reads of the document fail once ctx is done or MaxDuration has passed,
// invalid UTF-8 in the output becomes U+FFFD, and output beyond MaxOutput
// is cut and reported with an *errs.Partial. A text with an *errs.Partial
// passes through; an *errs.Partial without text becomes an UNSUPPORTED
// error.
func Safe(c Converter) Converter {
	if s, ok := c.(safe); ok {
		return s
	}
	return safe{c}
}

type safe struct{ c Converter }

func (s safe) Convert(ctx context.Context, r io.ReaderAt, size int64) (text string, err error) {
	if err := ctx.Err(); err != nil {
		return "", ctxErr(err)
	}
	ctx, cancel := context.WithTimeout(ctx, MaxDuration)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			text, err = "", errs.New(errs.Unsupported, "the document is malformed (%s)", errs.Echo(fmt.Sprint(p)))
			if ce := ctx.Err(); ce != nil {
				text, err = "", ctxErr(ce)
			}
		}
	}()
	text, err = s.c.Convert(ctx, ctxReaderAt{r, ctx}, size)
	var part *errs.Partial
	if err != nil {
		if ce := ctx.Err(); ce != nil {
			return "", ctxErr(ce)
		}
		if !errors.As(err, &part) {
			return "", err
		}
		if text == "" {
			return "", errs.New(errs.Unsupported, "%s", part.Reason)
		}
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	if len(text) > outputCap {
		text = cutUTF8(text, outputCap)
		if part == nil {
			err = outputCut()
		}
	}
	return text, err
}

// outputCut is the Partial of a text cut at MaxOutput.
func outputCut() *errs.Partial {
	return &errs.Partial{Reason: "conversion stopped after " + dirtree.FormatBytes(int64(outputCap)) + " of text; the rest of the document is not shown"}
}

// ctxReaderAt fails reads once ctx is done.
type ctxReaderAt struct {
	r   io.ReaderAt
	ctx context.Context
}

func (c ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}

func ctxErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return errs.Wrap(errs.Timeout, err, "document conversion stopped after its deadline (at most %v)", MaxDuration)
	}
	return errs.Wrap(errs.CodeOf(err), err, "document conversion stopped: %v", err)
}

// malformed reports a document that its format's parser rejects.
// A cause over one of the bounds of the format's reader keeps its
// TOO_LARGE code.
func malformed(format string, err error) error {
	code := errs.Unsupported
	if errs.CodeOf(err) == errs.TooLarge {
		code = errs.TooLarge
	}
	return errs.Wrap(code, err, "not a valid %s document: %v", format, err)
}

// tidied returns what tidy makes of s when that is s without its leading
// and trailing blank lines: no line ends in white space, and no two blank
// lines follow each other between lines of text.
func tidied(s string) (string, bool) {
	start, end := -1, 0 // the first line of text, the end of the last
	blank := 0          // empty lines since the last line of text
	for i := 0; i < len(s); {
		e := strings.IndexByte(s[i:], '\n')
		if e < 0 {
			e = len(s)
		} else {
			e += i
		}
		switch {
		case i == e:
			blank++
		case s[e-1] == ' ' || s[e-1] == '\t' || s[e-1] == '\r':
			return "", false
		case start >= 0 && blank > 1:
			return "", false
		default:
			if start < 0 {
				start = i
			}
			end, blank = e, 0
		}
		i = e + 1
	}
	if start < 0 {
		return "", true
	}
	return s[start:end], true
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// text accumulates converter output up to MaxOutput bytes; what is written
// past that is dropped, so a huge document cannot exhaust memory, and the
// cut is reported by result.
type text struct {
	b   strings.Builder
	cut bool
}

func (t *text) WriteString(s string) (int, error) {
	if room := outputCap - t.b.Len(); len(s) > room {
		s, t.cut = s[:max(room, 0)], true
	}
	return t.b.WriteString(s)
}

func (t *text) Write(p []byte) (int, error) {
	n := len(p)
	if room := outputCap - t.b.Len(); len(p) > room {
		p, t.cut = p[:max(room, 0)], true
	}
	t.b.Write(p)
	return n, nil
}

func (t *text) WriteByte(c byte) error {
	if t.b.Len() >= outputCap {
		t.cut = true
		return nil
	}
	return t.b.WriteByte(c)
}

func (t *text) WriteRune(r rune) (int, error) {
	if t.b.Len()+utf8.RuneLen(r) > outputCap {
		t.cut = true
		return 0, nil
	}
	return t.b.WriteRune(r)
}

// grow makes room for n more bytes, or as many as MaxOutput leaves: a
// large table written at once takes one buffer of its size, not a copy at
// each growth (twice the output at its peak).
func (t *text) grow(n int) {
	if n = min(n, outputCap-t.b.Len()); n > 0 {
		t.b.Grow(n)
	}
}

func (t *text) Len() int       { return t.b.Len() }
func (t *text) String() string { return t.b.String() }
func (t *text) Reset()         { t.b.Reset(); t.cut = false }

// full reports whether the output reached MaxOutput: the converter stops.
func (t *text) full() bool { return t.cut || t.b.Len() >= outputCap }

// result returns the text with runs of blank lines collapsed to one and
// surrounding blank lines trimmed, and a *errs.Partial error when the text
// reached MaxOutput.
func (t *text) result() (string, error) {
	s := tidy(t.b.String())
	if t.full() {
		return s, outputCut()
	}
	return s, nil
}

// tidy collapses runs of blank lines to one, trims trailing spaces on each
// line and trims leading and trailing blank lines. It copies s once,
// whatever its number of lines, and not at all when only its ends change
// (a sheet's tables, most text): the output at MaxOutput was held twice.
func tidy(s string) string {
	if t, ok := tidied(s); ok {
		return t
	}
	return tidyCopy(s)
}

// tidyCopy is tidy, copying s.
func tidyCopy(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false // a blank line since the last line written
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		line = strings.TrimRight(line, " \t\r")
		switch {
		case line == "":
			gap = true
			continue
		case b.Len() > 0 && gap:
			b.WriteString("\n\n")
		case b.Len() > 0:
			b.WriteByte('\n')
		}
		b.WriteString(line)
		gap = false
	}
	return b.String()
}
