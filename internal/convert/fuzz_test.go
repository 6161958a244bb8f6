package convert

import (
	"bytes"
	"context"
	"maps"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/testfs"

	"github.com/scoutkit/scout/internal/errs"
)

// fuzzConverter checks that c never panics on arbitrary input, returns
// valid UTF-8 on success and a coded error otherwise. Our own converters
// are fuzzed unwrapped so that a panic in our code fails; third-party
// parsers are fuzzed behind Safe, which must turn their panics into errors.
func fuzzConverter(f *testing.F, c Converter, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := c.Convert(context.Background(), bytes.NewReader(data), int64(len(data)))
		checkConverted(t, out, err)
	})
}

// checkConverted fails t unless err is coded or out is valid UTF-8.
func checkConverted(t *testing.T, out string, err error) {
	t.Helper()
	if err != nil {
		if errs.CodeOf(err) == "" {
			t.Fatalf("uncoded error %v", err)
		}
		return
	}
	if !utf8.ValidString(out) {
		t.Fatalf("invalid UTF-8 output %q", out)
	}
}

func FuzzRTF(f *testing.F) {
	fuzzConverter(f, Func(convertRTF),
		[]byte(`{\rtf1\ansi\ansicpg932 \'82\'a0\u8364?{\*\x y}\bin3 abc\par}`),
		[]byte(`{\rtf1{\fonttbl{\f0 A;}}\uc2\u-10179xx\u-8704yy\'zz\`))
}

func FuzzDOC(f *testing.F) {
	fuzzConverter(f, Func(convertDOC), docOf(piece{"a\x13b\x14c\x15\x07\x07\r", true}, piece{"ü\r", false}))
}

func FuzzDOCX(f *testing.F) {
	fuzzConverter(f, Func(convertDOCX), docxOf(f, `<w:tbl><w:tr><w:tc><w:tbl><w:tr><w:tc><w:p><w:r><w:t>n</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl><w:p><w:hyperlink r:id="rId9"><w:r><w:t>l</w:t></w:r></w:hyperlink></w:p>`))
}

func FuzzPPTX(f *testing.F) {
	fuzzConverter(f, Func(convertPPTX), pptxOf(f, []string{pptxShape("title", "t")}, map[int]string{0: "n"}))
}

func FuzzEPUB(f *testing.F) {
	fuzzConverter(f, Func(convertEPUB), epubOf(f, "b", "<p>x</p>"))
}

func FuzzPDF(f *testing.F) {
	c, _ := For(".pdf")
	seeds := [][]byte{pdfOf("a\nb", "c"), pdfFlate("BT /F1 12 Tf 72 720 Td (z) Tj ET"), pdfXrefStream(pdfBasic, nil, 7, "/Root 1 0 R")}
	for _, l := range pdfLoops() {
		seeds = append(seeds, l.data)
	}
	fuzzConverter(f, c, seeds...)
}

func FuzzXLSX(f *testing.F) {
	fuzzConverter(f, Func(convertXLSX),
		xlsxOf(f, map[string][][]any{"S": {{"a", 1}}, "T": {{true, 2.5}}}),
		xlsxWith(f, `<row r="2"><c r="B2" s="1"><v>45000.5</v></c><c t="inlineStr"><is><r><t>a_x000D_</t></r></is></c><c r="D2" t="s"><v>0</v></c></row>`,
			map[string]string{"xl/styles.xml": stylesOf(map[int]string{164: "yyyy"}, 0, 22, 164), "xl/sharedStrings.xml": sstOf(`<si><t>x</t><rPh><t>y</t></rPh></si>`)}))
}

func FuzzXLS(f *testing.F) {
	fuzzConverter(f, Func(convertXLS), mustRead(f, "testdata/basic.xls"), xlsOf())
}

func FuzzPPT(f *testing.F) {
	fuzzConverter(f, Func(convertPPT), gunzip(f, mustRead(f, "testdata/test.ppt.gz")), pptOf())
}

// fuzzParts fuzzes the XML of up to four parts of a zip-based document, the
// others taken from base (FuzzDOCX and its kind fuzz the zip bytes, whose
// checksums turn most changes into a zip error); a name "" is unused.
func fuzzParts(f *testing.F, c Converter, base []byte, names [4]string) {
	files := zipParts(f, base)
	f.Add(files[names[0]], files[names[1]], files[names[2]], files[names[3]])
	f.Fuzz(func(t *testing.T, a, b, c2, d string) {
		fs := maps.Clone(files)
		for i, s := range []string{a, b, c2, d} {
			if names[i] != "" {
				fs[names[i]] = s
			}
		}
		data := testfs.Zip(testfs.Files(fs)...)
		out, err := c.Convert(context.Background(), bytes.NewReader(data), int64(len(data)))
		checkConverted(t, out, err)
	})
}

func FuzzDOCXParts(f *testing.F) {
	fuzzParts(f, Func(convertDOCX), docxWith(f,
		`<w:p><w:pPr><w:pStyle w:val="berschrift1"/><w:numPr/></w:pPr><w:r><w:t>h</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>n</w:t><w:footnoteReference w:id="1"/></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:hyperlink r:id="rId9"><w:r><w:t>l</w:t></w:r></w:hyperlink></w:p>`,
		map[string]string{"word/footnotes.xml": `<w:footnotes ` + wNS + `><w:footnote w:type="separator" w:id="0"/><w:footnote w:id="1"><w:p><w:r><w:t>fn</w:t></w:r></w:p></w:footnote></w:footnotes>`}),
		[4]string{"word/document.xml", "word/styles.xml", "word/footnotes.xml", "word/_rels/document.xml.rels"})
}

func FuzzPPTXParts(f *testing.F) {
	fuzzParts(f, Func(convertPPTX), pptxOf(f, []string{pptxShape("title", "t") + pptxShape("", "a\nb")}, map[int]string{0: "n"}),
		[4]string{"ppt/presentation.xml", "ppt/_rels/presentation.xml.rels", "ppt/slides/slide1.xml", "ppt/slides/_rels/slide1.xml.rels"})
}

func FuzzEPUBParts(f *testing.F) {
	base := epubOf(f, "b", "<h1>x</h1><p>a <em>b</em></p>", "<ul><li>c</li></ul><table><tr><td>d</td></tr></table>")
	// A spine naming a chapter again, and one missing; a chapter of
	// attributes; a package document in another encoding.
	f.Add(`<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`,
		opfOf(`<item id="a" href="text/ch%201.xhtml" media-type="application/xhtml+xml"/><item id="m" href="gone.xhtml" media-type="text/html"/>`,
			`<itemref idref="a"/><itemref idref="m"/><itemref idref="a"/><itemref idref="m"/>`),
		`<p a b=c d = 'e' f="g>" /x>t</p><p <q r>`, "")
	f.Add(`<container><rootfiles><rootfile full-path="META-INF/container.xml"/></rootfiles></container>`,
		`<?xml version="1.0" encoding="ISO-8859-1"?>`+opfOf(`<item id="a" href="text/ch 1.xhtml" media-type="application/xhtml+xml"/>`, `<itemref idref="a"/>`),
		"<p>caf\xe9</p>", "")
	// A package document in UTF-16 with unclosed meta elements; container.xml
	// naming a chapter; chapters in other encodings and nested deep.
	f.Add(`<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`,
		utf16LE(`<?xml version="1.0" encoding="UTF-16"?><package><metadata><meta name="a" content="b"><dc:title>t</dc:title></metadata><manifest><item id="a" href="text/ch%201.xhtml" media-type="text/html"></manifest><spine><itemref idref="a"></spine></package>`, true),
		utf16BE("<p>caf\u00e9</p>"), strings.Repeat("<div>", 600))
	f.Add(`<container><rootfiles><rootfile full-path="OEBPS/text/ch 1.xhtml"/></rootfiles></container>`, "",
		"<?xml version=\"1.0\" encoding=\"windows-1252\"?><p>\x93</p>", `<meta charset="x-unknown"><p>x</p>`)
	fuzzParts(f, Func(convertEPUB), base,
		[4]string{"META-INF/container.xml", "OEBPS/content.opf", "OEBPS/text/ch 1.xhtml", "OEBPS/text/ch 2.xhtml"})
}

// FuzzCutHTML checks that CutHTML returns a prefix of the page, counts the
// attributes of the tags it keeps within its bound, and is idempotent.
func FuzzCutHTML(f *testing.F) {
	for _, s := range []string{"<p a b=c d = 'e' f=\"g>\" /x>t</p>", "<a <b <c", "<p a='", "<p a=", "<p =x>", "1 < 2 <p/>", "<P\tA\nB\fC\rD>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		defer func(b, n, a int) { maxHTMLBytes, maxHTMLTags, maxHTMLAttrs = b, n, a }(maxHTMLBytes, maxHTMLTags, maxHTMLAttrs)
		maxHTMLBytes, maxHTMLTags, maxHTMLAttrs = 1<<10, 8, 8
		head, why := CutHTML(page)
		if !strings.HasPrefix(page, head) || (why == "") != (head == page) {
			t.Fatalf("CutHTML(%q) = %q, %q", page, head, why)
		}
		if again, why2 := CutHTML(head); again != head || why2 != "" {
			t.Fatalf("CutHTML(%q) = %q, %q; want it whole", head, again, why2)
		}
	})
}

// FuzzReadOPF checks that the package document read as a stream of
// tokens gives what decoding it into a struct gave.
func FuzzReadOPF(f *testing.F) {
	for _, s := range opfCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := decodedOPF(s)
		got, gerr := streamedOPF(t, s)
		if werr != nil || !strings.EqualFold(want.Root, "package") {
			if gerr == nil {
				t.Fatalf("read %+v; decoding failed (%v) or found root %q", got, werr, want.Root)
			}
			return
		}
		if gerr != nil {
			if errs.CodeOf(gerr) == errs.TooLarge {
				return // nested deeper than maxXMLDepth: decoding held it all
			}
			t.Fatalf("%v; decoding gave %+v", gerr, want)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("read %+v; decoding gave %+v", got, want)
		}
	})
}
