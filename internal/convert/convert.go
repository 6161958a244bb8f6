// Package convert turns documents (.pdf .docx .pptx .xlsx .doc .ppt .xls
// .rtf .epub) into text or markdown, one Converter per format.
//
// Every converter reads through io.ReaderAt, honours ctx between pages,
// parts or records, caps what it inflates and what it emits, and never
// panics: a malformed document gives an error whose message says what is
// wrong (Notice turns it into read's "[Cannot read .pdf file: ...]").
//
// # Output
//
//   - PDF: the text of each page laid out from glyph positions (ledongthuc/pdf);
//     pages separated by a blank line. No OCR, no Form XObjects.
//   - DOCX: headings as #, list items as -, tables as markdown tables, links
//     as [text](url), footnotes and endnotes as [^id] at the end.
//   - PPTX: "<!-- Slide number: N -->", the title as #, shape text, tables,
//     "### Notes:".
//   - XLSX (own reader on archive/zip and encoding/xml) and XLS (own BIFF8
//     reader): "## Sheet" and a markdown table per sheet, the first row as
//     header.
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
// MaxOutput bytes of text; 64 MiB inflated per zip part and 512 MiB per
// XLSX workbook, 8 MiB per EPUB
// chapter; 256 MiB per OLE stream; 1 MiB of strings per PDF page; reads
// fail after MaxDuration.
package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/scoutkit/scout/internal/errs"
)

// MaxOutput is the most text a converter emits; the rest of the document is
// dropped with a closing notice.
const MaxOutput = 16 << 20

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

var builtin = map[string]Converter{
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

// For returns the built-in converter for ext (".pdf" or "pdf",
// case-insensitive), wrapped by Safe.
func For(ext string) (Converter, bool) {
	if !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	c, ok := builtin[strings.ToLower(ext)]
	if !ok {
		return nil, false
	}
	return Safe(c), true
}

// Extensions returns the extensions with a built-in converter, sorted.
func Extensions() []string {
	return slices.Sorted(maps.Keys(builtin))
}

// Safe wraps c so that a panic inside it (third-party parsers on hostile
// input) becomes an error, a canceled ctx is reported before any work,
// reads of the document fail once ctx is done or MaxDuration has passed,
// invalid UTF-8 in the output becomes U+FFFD, and output beyond MaxOutput
// is cut with a notice.
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
			text, err = "", errs.New(errs.Unsupported, "the document is malformed (%v)", p)
			if ce := ctx.Err(); ce != nil {
				text, err = "", ctxErr(ce)
			}
		}
	}()
	text, err = s.c.Convert(ctx, ctxReaderAt{r, ctx}, size)
	if err != nil {
		if ce := ctx.Err(); ce != nil {
			return "", ctxErr(ce)
		}
		return "", err
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	if len(text) > MaxOutput {
		text = cutUTF8(text, MaxOutput) + fmt.Sprintf("\n\n[Conversion stopped after %d MiB of text]", MaxOutput>>20)
	}
	return text, nil
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

// Notice renders a conversion failure as read shows it:
// "[Cannot read .pdf file: <message>]".
func Notice(ext string, err error) string {
	return fmt.Sprintf("[Cannot read %s file: %s]", strings.ToLower(ext), err)
}

func ctxErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return errs.Wrap(errs.Timeout, err, "document conversion stopped after its deadline (at most %v)", MaxDuration)
	}
	return errs.Wrap(errs.CodeOf(err), err, "document conversion stopped: %v", err)
}

// malformed reports a document that its format's parser rejects.
func malformed(format string, err error) error {
	return errs.Wrap(errs.Unsupported, err, "not a valid %s document: %v", format, err)
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

// text accumulates converter output and stops growing past MaxOutput, so
// a huge document cannot exhaust memory before Safe cuts it.
type text struct {
	strings.Builder
}

// full reports whether the output already reached MaxOutput.
func (t *text) full() bool { return t.Len() > MaxOutput }

// result returns the text with runs of blank lines collapsed to one and
// surrounding blank lines trimmed.
func (t *text) result() string { return tidy(t.String()) }

// tidy collapses runs of blank lines to one, trims trailing spaces on each
// line and trims leading and trailing blank lines.
func tidy(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	out := lines[:0]
	blank := true
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			if blank {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}
