package convert

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"math/rand"
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// decodedOPF is the package document as the converter read it before it
// streamed the document: decoded into a struct.
func decodedOPF(data string) (*opfPackage, error) {
	var opf struct {
		XMLName  xml.Name
		Title    []string `xml:"metadata>title"`
		Creators []string `xml:"metadata>creator"`
		Items    []struct {
			ID   string `xml:"id,attr"`
			Href string `xml:"href,attr"`
			Type string `xml:"media-type,attr"`
		} `xml:"manifest>item"`
		Spine []struct {
			IDRef string `xml:"idref,attr"`
		} `xml:"spine>itemref"`
	}
	if err := newDecoder(strings.NewReader(data)).Decode(&opf); err != nil {
		return nil, err
	}
	o := &opfPackage{Root: opf.XMLName.Local, Title: opf.Title, Creators: opf.Creators, Hrefs: map[string]string{}}
	for _, it := range opf.Items {
		if strings.Contains(it.Type, "html") {
			h, err := url.PathUnescape(it.Href)
			if err != nil {
				h = it.Href
			}
			o.Hrefs[it.ID] = resolvePart("OEBPS/", h)
		}
	}
	for _, r := range opf.Spine {
		o.Spine = append(o.Spine, r.IDRef)
	}
	return o, nil
}

// streamedOPF reads data as the package document OEBPS/content.opf.
func streamedOPF(t testing.TB, data string) (*opfPackage, error) {
	z := testfs.Zip(testfs.Files(map[string]string{"OEBPS/content.opf": data})...)
	p, err := openPkg(context.Background(), "EPUB", bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	return readOPF(p, "OEBPS/content.opf")
}

// opfCases are package documents, well formed and not, that the
// streaming reader must read as decoding into a struct did.
var opfCases = []string{
	opfOf(`<item id="a" href="a%20b.xhtml" media-type="application/xhtml+xml"/><item id="i" href="i.png" media-type="image/png"/>`, `<itemref idref="a"/><itemref idref="i"/>`),
	// Unclosed meta and link elements, closed by the decoder.
	`<package><metadata><dc:title>T<!-- c --> one</dc:title><meta name="cover" content="x"><link href="y"><dc:creator>A</dc:creator><dc:creator>B<b>old</b>!</dc:creator></metadata><manifest><item id="a" href="a.xhtml" media-type="text/html"></manifest><spine><itemref idref="a"></spine></package>`,
	// Mismatched end tags, attributes named twice, namespaced ones, entities.
	`<opf:package xmlns:opf="x"><opf:metadata><title>a &amp; &eacute;</title></opf:metadata><manifest><item id="a" x:id="b" href="../b.xhtml" href="c.xhtml" media-type="html"/></manifest><spine><itemref idref="a" idref="b"></itemref></spine></package>`,
	`<package><metadata><title>x</metadata><manifest><item id=a href=a.xhtml media-type=html></item></manifest></package>trailing <garbage`,
	`<package><spine><itemref idref="a"/></spine><manifest><item id="a" href="/abs/a.xhtml" media-type="application/xhtml+xml"/></manifest><metadata><title><![CDATA[<c>]]></title></metadata></package>`,
	`<package><metadata><title>t</title><metadata><title>nested</title></metadata></metadata><manifest><manifest><item id="n" href="n.xhtml" media-type="html"/></manifest></manifest></package>`,
	`<package><metadata><title>a</title></metadata>`,
	`<?xml version="1.0" encoding="ISO-8859-1"?><package><metadata><title>caf` + "\xe9" + `</title></metadata></package>`,
	`</x><package/>`,
	`<package><a></b></c></package>`,
	`<Package><metadata><title>x</title></metadata></Package>`,
	``,
	`just text`,
}

// TestReadOPF checks that the package document read as a stream of
// tokens gives what decoding it into a struct gave, on documents well
// formed and not, and on random cuts and mutations of them.
func TestReadOPF(t *testing.T) {
	cases := append([]string{}, opfCases...)
	rng := rand.New(rand.NewSource(1))
	for range 2000 {
		s := opfCases[rng.Intn(len(opfCases))]
		if s == "" {
			continue
		}
		b := []byte(s)
		switch rng.Intn(3) {
		case 0:
			b = b[:rng.Intn(len(b))]
		case 1:
			b[rng.Intn(len(b))] = "<>/=\"' a&;!?"[rng.Intn(12)]
		case 2:
			i := rng.Intn(len(b))
			b = append(b[:i:i], b[rng.Intn(len(b)):]...)
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want, werr := decodedOPF(c)
		got, gerr := streamedOPF(t, c)
		if werr != nil || !strings.EqualFold(want.Root, "package") {
			if gerr == nil {
				t.Errorf("%q: read %+v; decoding failed (%v) or found root %+v", c, got, werr, want)
			}
			continue
		}
		if gerr != nil {
			t.Errorf("%q: %v; decoding gave %+v", c, gerr, want)
			continue
		}
		assert.Equal(t, want, got, "%q", c)
	}
}

func utf16LE(s string, bom bool) string {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

func utf16BE(s string) string {
	b := []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}

// TestEPUBEncodings checks package documents and chapters in encodings
// other than UTF-8.
func TestEPUBEncodings(t *testing.T) {
	item := `<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>`
	chapter := func(c string) []byte {
		return epubRaw(t, opfOf(item, `<itemref idref="a"/>`), map[string]string{"OEBPS/a.xhtml": c})
	}
	tests := []struct {
		name string
		data []byte
		text string
		why  string // a notice the text comes with
	}{
		{"opf in UTF-16 with a mark", epubRaw(t, utf16LE(`<?xml version="1.0" encoding="UTF-16"?>`+strings.Replace(opfOf(item, `<itemref idref="a"/>`), "<dc:title>T", "<dc:title>Tëst", 1), true),
			map[string]string{"OEBPS/a.xhtml": "<p>text</p>"}), "# Tëst\n\ntext", ""},
		{"opf in UTF-16 big endian", epubRaw(t, utf16BE(opfOf(item, `<itemref idref="a"/>`)), map[string]string{"OEBPS/a.xhtml": "<p>text</p>"}), "# T\n\ntext", ""},
		{"opf in UTF-16 without a mark", epubRaw(t, utf16LE(`<?xml version="1.0" encoding="UTF-16"?>`+opfOf(item, `<itemref idref="a"/>`), false),
			map[string]string{"OEBPS/a.xhtml": "<p>text</p>"}), "# T\n\ntext", ""},
		{"chapter in UTF-16", chapter(utf16LE(`<html><body><p>naïve €</p></body></html>`, true)), "naïve €", ""},
		{"chapter in UTF-16 big endian", chapter(utf16BE(`<html><body><p>naïve</p></body></html>`)), "naïve", ""},
		{"chapter declared ISO-8859-1", chapter(`<?xml version="1.0" encoding="ISO-8859-1"?><html><body><p>caf` + "\xe9" + `</p></body></html>`), "café", ""},
		{"chapter with a meta charset", chapter(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"/></head><body><p>` + "\x93q\x94" + `</p></body></html>`), "“q”", ""},
		{"chapter with a meta charset attribute", chapter(`<html><head><meta charset="iso-8859-15"></head><body><p>` + "\xa4" + `</p></body></html>`), "€", ""},
		{"chapter declared UTF-8", chapter(`<?xml version="1.0" encoding="utf-8"?><p>café</p>`), "café", ""},
		{"chapter declaring UTF-16 in ASCII", chapter(`<?xml version="1.0" encoding="UTF-16"?><p>café</p>`), "café", ""},
		{"chapter in an unknown encoding", chapter(`<?xml version="1.0" encoding="x-klingon"?><p>text</p>`), "text",
			`chapters in an encoding Scout does not read, read as UTF-8: OEBPS/a.xhtml (x-klingon)`},
	}
	for _, tt := range tests {
		got, err := run(t, ".epub", tt.data)
		var part *errs.Partial
		switch {
		case tt.why == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.why != "" && (!errors.As(err, &part) || !strings.Contains(part.Reason, tt.why)):
			t.Errorf("%s: err = %v; want a notice %q", tt.name, err, tt.why)
		}
		if !strings.Contains(got, tt.text) {
			t.Errorf("%s: text %q; want %q", tt.name, got, tt.text)
		}
	}
}

// TestEPUBNotAPackage checks that container.xml naming a part that is not
// a package document is an error that names the part.
func TestEPUBNotAPackage(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"META-INF/container.xml", `container.xml names META-INF/container.xml as the package document, but its root element is <container>, not <package>`},
		{"OEBPS/a.xhtml", `container.xml names OEBPS/a.xhtml as the package document, but its root element is <html>, not <package>`},
		{"mimetype", `container.xml names mimetype as the package document, which holds no XML element`},
	} {
		data := testfs.Zip(testfs.Files(map[string]string{
			"mimetype":               "application/epub+zip",
			"META-INF/container.xml": `<container><rootfiles><rootfile full-path="` + tt.path + `"/></rootfiles></container>`,
			"OEBPS/content.opf":      opfOf(`<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>`, `<itemref idref="a"/>`),
			"OEBPS/a.xhtml":          `<html><body><p>text</p></body></html>`,
		})...)
		got, err := run(t, ".epub", data)
		if errs.CodeOf(err) != errs.Unsupported || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %q, %v; want UNSUPPORTED %q", tt.path, got, err, tt.want)
		}
	}
}

// TestEPUBDeepChapter checks that a chapter nesting elements deeper than
// the HTML parser takes is left out with a notice, the others shown.
func TestEPUBDeepChapter(t *testing.T) {
	data := epubOf(t, "B", "<p>first</p>", strings.Repeat("<div>", 600)+"deep", "<p>third</p>")
	got, err := run(t, ".epub", data)
	var part *errs.Partial
	if !errors.As(err, &part) || !strings.Contains(part.Reason, `chapters converted in part: OEBPS/text/ch 2.xhtml (it nests elements more than 512 deep and is not shown)`) {
		t.Errorf("err = %v; want a notice naming the chapter", err)
	}
	if !strings.Contains(got, "first") || !strings.Contains(got, "third") || strings.Contains(got, "deep") {
		t.Errorf("text %q; want the first and third chapters", got)
	}
}

// TestOOXMLUTF16 checks that an OOXML part in UTF-16 with a byte order
// mark is decoded.
func TestOOXMLUTF16(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-16"?><w:document ` + wNS + `><w:body><w:p><w:r><w:t>naïve</w:t></w:r></w:p></w:body></w:document>`
	for name, part := range map[string]string{"le": utf16LE(doc, true), "be": utf16BE(doc)} {
		got, err := run(t, ".docx", docxWith(t, "", map[string]string{"word/document.xml": part}))
		if err != nil || !strings.Contains(got, "naïve") {
			t.Errorf("%s: %q, %v; want naïve", name, got, err)
		}
	}
}
