package convert

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/textio"
)

// pkg is an opened zip-based document (OOXML, EPUB).
type pkg struct {
	ctx    context.Context
	format string
	zip    *archive.ZipReader
	markup *markup     // the markup and bytes read against the text shown; nil: not bounded
	done   func() bool // whether the output is full: walk stops reading the part
}

// Bounds of the markup read from an Office document: at most
// markupBase tags and attributes (counted as the '<' and '=' of its XML
// parts) plus markupPerByte for each byte of text shown. Go's XML decoder
// reads 10 to 20 MB of tags a second: a part of 64 MiB of empty elements,
// which deflates to 100 KB, took 3 to 10 s and gave no text. Usual
// documents take 2 to 10 tags and attributes a byte of text, and a
// document of text alone two million (some 10,000 pictures, or 600,000
// styled empty cells of a sheet).
const markupPerByte = 64

// markupBase is 2 Mi; the tests lower it.
var markupBase int64 = 2 << 20

// maxInflate is the most bytes inflated from all the parts of a document
// together, 512 MiB, however often a part is read (an EPUB's spine or a
// presentation's slide list may name one part many times); the tests
// lower it.
var maxInflate int64 = 8 * maxPart

// markup counts the tags and attributes read from the parts of a
// document, the bytes inflated and the bytes of text they gave.
type markup struct {
	units    int64       // tags and attributes read
	inflated int64       // bytes inflated
	shown    int64       // bytes of text shown
	stop     *markupStop // the bound passed, in a part that every later read fails with
}

// markupStop is the error of a read past the markup bound or maxInflate:
// the document is read as far as that, its text with an *errs.Partial.
type markupStop struct {
	part         string
	units, shown int64
	inflated     bool // the stop is maxInflate's
}

func (e *markupStop) Error() string {
	if e.inflated {
		return fmt.Sprintf("reading stopped in part %s after the document's parts inflated to %s (Scout inflates at most that much of a document); the rest of the document is not shown",
			e.part, dirtree.FormatBytes(maxInflate))
	}
	return fmt.Sprintf("reading stopped in part %s after %d XML tags and attributes that gave %d bytes of text (Scout reads %d, and %d more for each byte of text); the rest of the document is not shown",
		e.part, markupBase+markupPerByte*e.shown, e.shown, markupBase, markupPerByte)
}

// asPartial returns the *errs.Partial of a conversion stopped by err, a
// *markupStop, or nil.
func asPartial(err error) *errs.Partial {
	var stop *markupStop
	if errors.As(err, &stop) {
		return &errs.Partial{Reason: stop.Error()}
	}
	return nil
}

// markupReader counts the tags and attributes of a part and the bytes
// inflated as they are read, and fails once either passes its bound.
type markupReader struct {
	r    io.Reader
	m    *markup
	part string
}

func (r *markupReader) Read(p []byte) (int, error) {
	if r.m.stop != nil {
		return 0, r.m.stop
	}
	room := maxInflate - r.m.inflated
	if room <= 0 && len(p) > 0 {
		r.m.stop = &markupStop{part: r.part, inflated: true}
		return 0, r.m.stop
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := r.r.Read(p)
	r.m.inflated += int64(n)
	r.m.units += int64(bytes.Count(p[:n], []byte("<")) + bytes.Count(p[:n], []byte("=")))
	if r.m.units > markupBase+markupPerByte*r.m.shown {
		r.m.stop = &markupStop{part: r.part, units: r.m.units, shown: r.m.shown}
		return 0, r.m.stop
	}
	return n, err
}

// pkgLimits are the limits of package archive for the zip of a package,
// but for 4 MiB of zip directory: no document comes near it (some 50,000
// parts). Each part is capped as it is opened (openCapped).
var pkgLimits = archive.Limits{MaxDirBytes: 4 << 20}

func openPkg(ctx context.Context, format string, r io.ReaderAt, size int64) (*pkg, error) {
	z, err := archive.OpenZip(r, size, pkgLimits)
	switch {
	case errs.CodeOf(err) == errs.TooLarge:
		return nil, errs.Wrap(errs.TooLarge, err, "the %s package: %v", format, err)
	case err != nil:
		return nil, malformed(format, err)
	}
	return &pkg{ctx: ctx, format: format, zip: z}, nil
}

// has reports whether the package holds name.
func (p *pkg) has(name string) bool { return p.zip.Has(name) }

// open opens a part, capped at maxPart inflated bytes.
func (p *pkg) open(name string) (io.ReadCloser, error) {
	return p.openCapped(name, maxPart)
}

// openCapped opens a part, capped at limit inflated bytes.
func (p *pkg) openCapped(name string, limit int64) (io.ReadCloser, error) {
	if !p.has(name) {
		return nil, malformed(p.format, errMissing(name))
	}
	rc, err := p.zip.Open(p.ctx, name, limit)
	if err != nil {
		return nil, p.partErr(name, err)
	}
	if p.markup != nil {
		return struct {
			io.Reader
			io.Closer
		}{&markupReader{r: rc, m: p.markup, part: name}, rc}, nil
	}
	return rc, nil
}

// partErr reports an error met reading a part. The zip reader's errors
// name the part and keep their code: TOO_LARGE past the part's cap,
// UNSUPPORTED for a part it cannot read (corrupt, encrypted), reported as
// a malformed document. Others (XML syntax) are a malformed document too.
func (p *pkg) partErr(name string, err error) error {
	switch errs.CodeOf(err) {
	case errs.Unsupported:
		return malformed(p.format, err)
	case errs.Internal:
		return malformed(p.format, fmt.Errorf("part %s: %w", errs.Echo(name), err))
	}
	return err
}

// Bounds of the XML walked: elements nested deeper than maxXMLDepth, or
// one tag (an element name and its attributes) longer than maxXMLTag
// bytes, stop the walk with a TOO_LARGE error. The decoder keeps a record
// of every open element and builds a tag's attributes in memory at several
// times the bytes they take in the part; no real document comes near
// either bound.
const (
	maxXMLDepth = 256
	maxXMLTag   = 1 << 20
)

// walk streams the XML tokens of a part to fn, checking ctx as it goes,
// up to the part's end or until the output is full (p.done). A part
// recorded as over maxPart fails before it is inflated. The tokens are
// raw: the converters look at local names alone, and the decoder's
// namespace translation and checks of end tags took 60% of its time (the
// tokens of well-formed XML are the same, but for their prefixes).
func (p *pkg) walk(name string, fn func(xml.Token)) error {
	if err := p.zip.Fits(name, maxPart); err != nil {
		return p.partErr(name, err)
	}
	rc, err := p.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := newDecoder(&tagReader{r: rc})
	depth := 0
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := p.ctx.Err(); err != nil {
				return err
			}
			if p.done != nil && p.done() {
				return nil // the rest would not be shown
			}
		}
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		var stop *markupStop
		if errors.As(err, &stop) {
			return stop
		}
		if errors.Is(err, errTagTooLong) {
			return errs.Wrap(errs.TooLarge, err, "part %s has a tag longer than %d MiB", errs.Echo(name), maxXMLTag>>20)
		}
		if err != nil {
			return p.partErr(name, err)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxXMLDepth {
				return errs.New(errs.TooLarge, "part %s nests elements more than %d deep", errs.Echo(name), maxXMLDepth)
			}
		case xml.EndElement:
			depth--
		}
		fn(tok)
	}
}

// tagReader passes XML through and fails a read once one tag, from its
// "<" to its ">" outside quoted attribute values, is longer than
// maxXMLTag: the decoder would hold all its attributes at once. Text,
// comments, CDATA and processing instructions are not limited.
type tagReader struct {
	r     io.Reader
	state byte // 0 outside tags, '<' just after one, 't' in a tag, a quote in a value, '!' in <! or <?
	n     int  // bytes of the open tag
}

var errTagTooLong = errors.New("tag too long")

func (t *tagReader) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	for i := 0; i < n; {
		switch t.state {
		case 0:
			j := bytes.IndexByte(b[i:n], '<')
			if j < 0 {
				i = n
				continue
			}
			i += j + 1
			t.state = '<'
		case '<':
			t.state, t.n = 't', 1
			if b[i] == '!' || b[i] == '?' {
				t.state = '!'
			}
		case '!':
			j := bytes.IndexByte(b[i:n], '>')
			if j < 0 {
				i = n
				continue
			}
			i += j + 1
			t.state = 0
		case 't':
			j := bytes.IndexAny(b[i:n], `"'>`)
			if j < 0 {
				t.n += n - i
				i = n
				break
			}
			t.n += j + 1
			if c := b[i+j]; c == '>' {
				t.state = 0
			} else {
				t.state = c
			}
			i += j + 1
		default: // in a quoted value
			j := bytes.IndexByte(b[i:n], t.state)
			if j < 0 {
				t.n += n - i
				i = n
				break
			}
			t.n += j + 1
			t.state = 't'
			i += j + 1
		}
		if t.n > maxXMLTag {
			return 0, errTagTooLong
		}
	}
	return n, err
}

// decodeXML unmarshals a part into v.
func (p *pkg) decodeXML(name string, v any) error {
	rc, err := p.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := newDecoder(rc).Decode(v); err != nil {
		return p.partErr(name, err)
	}
	return nil
}

// newDecoder returns a lenient decoder of r: an element HTML leaves open
// (<meta>, <br>) is closed, HTML's entities are known, and an encoding
// other than UTF-8 is decoded, as named by a UTF-16 or UTF-32 byte order
// mark (or the first "<?" in UTF-16), else by the XML declaration.
func newDecoder(r io.Reader) *xml.Decoder {
	r, decoded := decodeBOM(r)
	d := xml.NewDecoder(r)
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	d.CharsetReader = charset.NewReaderLabel
	if decoded {
		// The declaration names the encoding the mark gave ("UTF-16").
		d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	}
	return d
}

// decodeBOM returns a reader of r as UTF-8 when it starts with a UTF-16 or
// UTF-32 byte order mark, or with "<?" in UTF-16, and whether it did so.
func decodeBOM(r io.Reader) (io.Reader, bool) {
	br := bufio.NewReaderSize(r, 16)
	head, _ := br.Peek(4)
	switch enc, _ := textio.Sniff(head); {
	case enc == textio.UTF16LE, enc == textio.UTF16BE, enc == textio.UTF32LE, enc == textio.UTF32BE:
		return textio.Decode(br, enc), true
	case bytes.HasPrefix(head, []byte("<\x00?\x00")):
		return transform.NewReader(br, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()), true
	case bytes.HasPrefix(head, []byte("\x00<\x00?")):
		return transform.NewReader(br, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()), true
	}
	return br, false
}

// rels reads the relationships of a part: Id -> target resolved against
// the part's directory (external targets are kept as they are).
func (p *pkg) rels(part string) map[string]string {
	dir, file := path.Split(part)
	name := dir + "_rels/" + file + ".rels"
	out := map[string]string{}
	if !p.has(name) {
		return out
	}
	var doc struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
			Mode   string `xml:"TargetMode,attr"`
		} `xml:"Relationship"`
	}
	if p.decodeXML(name, &doc) != nil {
		return out
	}
	for _, r := range doc.Rel {
		t := r.Target
		if r.Mode != "External" {
			t = resolvePart(dir, t)
		}
		out[r.ID] = t
	}
	return out
}

// resolvePart resolves a relative part reference against dir.
func resolvePart(dir, ref string) string {
	if strings.HasPrefix(ref, "/") {
		return strings.TrimPrefix(path.Clean(ref), "/")
	}
	return strings.TrimPrefix(path.Clean("/"+dir+ref), "/")
}

// attr returns the value of the attribute with the local name.
func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// mdTable renders rows as a markdown table, the first row as the header,
// each row as wide as the widest, stopping after the row that passes limit
// bytes: the rest would be cut from the output, and a row of 1,000 cells
// under 100,000 rows of one, 9 KB in a DOCX, made 400 MB of padding.
func mdTable(rows [][]string, limit int) string {
	var out text
	writeTable(&out, denseTable(rows), len(rows), limit)
	return out.String()
}

// mdCell makes s safe inside a markdown table cell.
func mdCell(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\n", "<br>")
}

type errMissing string

func (e errMissing) Error() string { return "missing part " + string(e) }

// skipFallback tracks mc:Fallback elements (markup compatibility: the
// same content as the preceding mc:Choice, for older readers) and reports
// whether tok lies inside one and must be ignored.
func skipFallback(tok xml.Token, depth *int) bool {
	switch t := tok.(type) {
	case xml.StartElement:
		if t.Name.Local == "Fallback" || *depth > 0 {
			*depth++
			return true
		}
	case xml.EndElement:
		if *depth > 0 {
			*depth--
			return true
		}
	default:
		return *depth > 0
	}
	return false
}
