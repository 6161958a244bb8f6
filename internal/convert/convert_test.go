package convert

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

func run(t testing.TB, ext string, data []byte) (string, error) {
	t.Helper()
	c, ok := For(ext)
	if !ok {
		t.Fatalf("no converter for %s", ext)
	}
	return c.Convert(context.Background(), bytes.NewReader(data), int64(len(data)))
}

func TestGolden(t *testing.T) {
	docxBody := `<w:p><w:pPr><w:pStyle w:val="Titel"/></w:pPr><w:r><w:t>Report</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:pStyle w:val="berschrift1"/></w:pPr><w:r><w:t>Intro</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t xml:space="preserve">Plain </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:t>link</w:t></w:r></w:hyperlink><w:r><w:tab/><w:t>after tab</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>nested item</w:t></w:r></w:p>` +
		`<w:p><w:r><w:delText>deleted</w:delText><w:instrText>HYPERLINK x</w:instrText><w:t>kept</w:t><w:br/><w:t>next line</w:t></w:r></w:p>` +
		`<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice>` +
		`<mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent><w:t>anchor</w:t></w:r></w:p>` +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Qty</w:t></w:r></w:p></w:tc></w:tr>` +
		`<w:tr><w:tc><w:p><w:r><w:t>a|b</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>1</w:t></w:r></w:p><w:p><w:r><w:t>2</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`
	slide1 := pptxShape("ctrTitle", "Deck title") + pptxShape("", "first point\nsecond point") + pptxShape("sldNum", "1") +
		`<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>H1</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>H2</a:t></a:r></a:p></a:txBody></a:tc></a:tr>` +
		`<a:tr><a:tc><a:txBody><a:p><a:r><a:t>v1</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>v2</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
	slide2 := pptxShape("title", "Second") + pptxShape("body", "closing words")

	tests := []struct {
		reason string
		ext    string
		data   func(t testing.TB) []byte
		want   string
	}{
		{"docx: title and localized heading styles, link, tab runs only, list, deleted text and field codes dropped, text box once, table", ".docx",
			func(t testing.TB) []byte { return docxOf(t, docxBody) },
			"# Report\n\n# Intro\n\nPlain [link](https://example.com/x)\tafter tab\n\n  - nested item\n\nkept\nnext line\n\nboxed\nanchor\n\n| Name | Qty |\n| --- | --- |\n| a\\|b | 1<br>2 |"},
		{"docx: footnote and endnote references, notes at the end, separators skipped", ".docx",
			func(t testing.TB) []byte {
				return docxWith(t, `<w:p><w:r><w:t>Claim</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r><w:r><w:t> and more</w:t></w:r><w:r><w:endnoteReference w:id="1"/></w:r></w:p>`,
					map[string]string{
						"word/footnotes.xml": `<w:footnotes ` + wNS + `><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
							`<w:footnote w:id="2"><w:p><w:r><w:t>Source: a book.</w:t></w:r></w:p></w:footnote></w:footnotes>`,
						"word/endnotes.xml": `<w:endnotes ` + wNS + `><w:endnote w:id="1"><w:p><w:r><w:t>End note.</w:t></w:r></w:p></w:endnote></w:endnotes>`,
					})
			},
			"Claim[^2] and more[^e1]\n\n[^2]: Source: a book.\n\n[^e1]: End note."},
		{"pptx: slides in sldIdLst order, title, body, slide number dropped, table, notes", ".pptx",
			func(t testing.TB) []byte {
				return pptxOf(t, []string{slide1, slide2}, map[int]string{1: "speaker note"})
			},
			"<!-- Slide number: 1 -->\n# Deck title\nfirst point\nsecond point\n\n| H1 | H2 |\n| --- | --- |\n| v1 | v2 |\n\n<!-- Slide number: 2 -->\n# Second\nclosing words\n\n### Notes:\nspeaker note"},
		{"xlsx: one section per sheet, first row as header, empty sheet marked", ".xlsx",
			func(t testing.TB) []byte {
				return xlsxOf(t, map[string][][]any{"Data": {{"name", "n"}, {"x", 1}, {"y|z", 2.5}}, "Empty": nil})
			},
			"## Data\n\n| name | n |\n| --- | --- |\n| x | 1 |\n| y\\|z | 2.5 |\n\n## Empty\n\n(empty sheet)"},
		{"epub: title, authors, spine order, xhtml as markdown", ".epub",
			func(t testing.TB) []byte {
				return epubOf(t, "Book", "<h1>One</h1><p>First <em>chapter</em>.</p>", "<h2>Two</h2><ul><li>a</li></ul>")
			},
			"# Book\n\nAuthors: Ada\n\n# One\n\nFirst *chapter*.\n\n## Two\n\n- a"},
		{"rtf: tables skipped, escapes, unicode with fallback, code page bytes, fields keep results", ".rtf",
			func(testing.TB) []byte {
				return []byte(`{\rtf1\ansi\ansicpg1251\deff0{\fonttbl{\f0 Arial;}}{\colortbl;\red0\green0\blue0;}{\*\generator Test;}` +
					`{\info{\title T}}\pard Hello \b bold\b0  \{braces\} back\\slash\par` +
					`\uc1\u8364?uro and \'cf\'f0\'e8\par` +
					`{\field{\*\fldinst HYPERLINK "https://x"}{\fldrslt link text}}\par` + "\r\n" +
					`a\tab b\line c\emdash d\par}`)
			},
			"Hello bold {braces} back\\slash\n€uro and При\nlink text\na\tb\nc—d"},
		{"rtf: a font's \\fcharset overrides the document code page", ".rtf",
			func(testing.TB) []byte {
				return []byte(`{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fcharset0 Arial;}{\f1\fcharset204 Arial Cyr;}}` +
					`caf\'e9 {\f1 \'cf\'f0\'e8\'e2\'e5\'f2} caf\'e9\par}`)
			},
			"café Привет café"},
		{"rtf: table cells are separated by |, the row end drops the last separator", ".rtf",
			func(testing.TB) []byte {
				return []byte(`{\rtf1\trowd\cellx1000\cellx2000\pard\intbl a\cell b\cell\row\pard\intbl c\cell d\cell\row\pard after\par}`)
			},
			"a | b\nc | d\nafter"},
		{"rtf: surrogate pair from two \\u words", ".rtf",
			func(testing.TB) []byte { return []byte(`{\rtf1\uc1\u-10179?\u-8704? smile}`) },
			"😀 smile"},
		{"pdf: one text object per line, pages separated by a blank line", ".pdf",
			func(testing.TB) []byte { return pdfOf("Hello PDF\nsecond (line)", "Page two") },
			"Hello PDF\nsecond (line)\n\nPage two"},
		{"pdf: words positioned by TJ offsets and Td moves get spaces, kerning does not, a paragraph gap is a blank line", ".pdf",
			func(testing.TB) []byte {
				return pdfRaw("BT /F1 10 Tf 72 720 Td [(Hello)-600(World)] TJ 0 -12 Td [(Ke)30(rning)] TJ ET\n" +
					"BT /F1 10 Tf 72 690 Td (left) Tj 100 0 Td (right) Tj ET\n" +
					"BT /F1 10 Tf 72 600 Td (New paragraph) Tj ET\n")
			},
			"Hello World\nKerning\nleft right\n\nNew paragraph"},
		{"doc: 8-bit and UTF-16 pieces, field code dropped, table cells and row end", ".doc",
			func(testing.TB) []byte {
				return docOf(piece{"Hello \x13 HYPERLINK \"x\" \x14World\x15\r", true},
					piece{"Ünïcode ✓\r", false},
					piece{"c1\x07c2\x07\x07tail\x0Bbreak\r", true})
			},
			"Hello World\nÜnïcode ✓\nc1\tc2\ntail\nbreak"},
		{"doc: RTF saved as .doc is read as RTF", ".doc",
			func(testing.TB) []byte { return []byte("{\\rtf1 really rtf\\par}") }, "really rtf"},
		{"doc: DOCX saved as .doc is read as DOCX", ".doc",
			func(t testing.TB) []byte { return docxOf(t, `<w:p><w:r><w:t>really docx</w:t></w:r></w:p>`) }, "really docx"},
		{"xls: an HTML table saved as .xls is read as HTML", ".xls",
			func(testing.TB) []byte {
				return []byte("\ufeff<html><body><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>")
			}, "| a | b |\n|---|---|\n| 1 | 2 |"},
		{"xls: shared strings across CONTINUE, dates by format, RK/MULRK numbers, booleans, formula strings, charts skipped", ".xls",
			func(testing.TB) []byte { return xlsOf() },
			"## Data\n\n| name | Größe ✓ |  |\n| --- | --- | --- |\n| 2023-02-28 | 7 |  |\n| 1.5 | -3 | TRUE |\n| calc | inline | #DIV/0! |\n\n## Second\n\n(empty sheet)"},
		{"xls: a sparse sheet whose grid would be huge keeps only the rows with cells", ".xls",
			func(testing.TB) []byte { return xlsSparse() },
			"## S\n\n" + strings.TrimSuffix(mdTable([][]string{sparseRow("a", "b"), sparseRow("", "z")}, MaxOutput), "\n")},
		{"xls: a real BIFF8 workbook (fixture from pbnjay/grate, MIT)", ".xls",
			func(t testing.TB) []byte { return mustRead(t, "testdata/basic.xls") },
			""},
		{"ppt: slide list text with titles, master skipped, text box, notes, a record longer than the stream clamped", ".ppt",
			func(testing.TB) []byte { return pptOf() },
			"<!-- Slide number: 1 -->\n# Deck\nbody\nsecond\nthird\n\n<!-- Slide number: 2 -->\n# Zweite Folie ✓\n\n<!-- Slide number: 1 -->\ntext box\n### Notes:\nspeaker note\nx"},
		{"ppt: a real PowerPoint 97 file (fixture from richardlehane/mscfb, Apache-2.0)", ".ppt",
			func(t testing.TB) []byte { return gunzip(t, mustRead(t, "testdata/test.ppt.gz")) },
			""},
	}
	for _, tt := range tests {
		t.Run(tt.ext+"/"+tt.reason, func(t *testing.T) {
			got, err := run(t, tt.ext, tt.data(t))
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			want := tt.want
			if want == "" {
				want = string(mustRead(t, "testdata/"+strings.TrimPrefix(tt.ext, ".")+".golden"))
			}
			if got != strings.TrimRight(want, "\n") {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", tt.reason, got, want)
			}
		})
	}
}

func mustRead(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMalformed(t *testing.T) {
	valid := map[string]func(testing.TB) []byte{
		".docx": func(t testing.TB) []byte { return docxOf(t, `<w:p><w:r><w:t>x</w:t></w:r></w:p>`) },
		".pdf":  func(testing.TB) []byte { return pdfOf("x") },
		".doc":  func(testing.TB) []byte { return docOf(piece{"x\r", true}) },
	}
	tests := []struct {
		reason string
		ext    string
		data   func(t testing.TB) []byte
		want   string // substring of the error
	}{
		{"pdf: not a PDF at all", ".pdf", func(testing.TB) []byte { return []byte("hello") }, "not a valid PDF"},
		{"pdf: truncated in the middle", ".pdf", func(t testing.TB) []byte { b := valid[".pdf"](t); return b[:len(b)/2] }, "not a valid PDF"},
		{"pdf: a hex string left open at the end of a content stream (hangs the library's lexer)", ".pdf",
			func(testing.TB) []byte { return pdfRaw("BT /F1 12 Tf 72 720 Td (ok) Tj ET <4142") }, "unterminated hex string"},
		{"pdf: a page with a string over 4 MiB (the library holds it twice)", ".pdf",
			func(testing.TB) []byte { return pdfRaw("BT /F1 1 Tf (" + strings.Repeat("a", 4<<20+10) + ") Tj ET") }, "page 1 (content stream: a token of more than 4 MiB)"},
		{"pdf: a page tree that contains itself (hangs the library's page lookup)", ".pdf",
			func(testing.TB) []byte {
				return bytes.Replace(pdfOf("x"), []byte("/Kids [4 0 R]"), []byte("/Kids [2 0 R]"), 1)
			}, "the page tree"},
		{"pdf: no text layer", ".pdf", func(testing.TB) []byte { return pdfOf("") }, "no text layer"},
		{"docx: not a zip", ".docx", func(testing.TB) []byte { return []byte("PK\x03\x04garbage") }, "not a valid DOCX"},
		{"docx: zip without document.xml", ".docx", func(t testing.TB) []byte { return testfs.Zip(testfs.Files(map[string]string{"a.txt": "x"})...) }, "missing part word/document.xml"},
		{"docx: broken XML", ".docx", func(t testing.TB) []byte {
			return testfs.Zip(testfs.Files(map[string]string{"word/document.xml": "<w:document><w:body><w:p>\x00"})...)
		}, "not a valid DOCX"},
		{"pptx: no presentation.xml", ".pptx", func(t testing.TB) []byte { return testfs.Zip(testfs.Files(map[string]string{"x": "y"})...) }, "missing part ppt/presentation.xml"},
		{"xlsx: random bytes", ".xlsx", func(testing.TB) []byte { return []byte("not a workbook") }, "not a valid XLSX"},
		{"epub: no container", ".epub", func(t testing.TB) []byte {
			return testfs.Zip(testfs.Files(map[string]string{"mimetype": "application/epub+zip"})...)
		}, "missing part META-INF/container.xml"},
		{"rtf: wrong header", ".rtf", func(testing.TB) []byte { return []byte("plain text") }, `does not start with {\rtf`},
		{"doc: not a compound file", ".doc", func(testing.TB) []byte { return []byte("not ole") }, "not a valid DOC"},
		{"doc: compound file without WordDocument", ".doc", func(testing.TB) []byte {
			return cfbOf(map[string][]byte{"Other": []byte("x")})
		}, "no WordDocument stream"},
		{"doc: encrypted flag", ".doc", func(t testing.TB) []byte {
			return docWithFIB(t, func(wd []byte) { wd[0x0B] |= 0x01 })
		}, "encrypted"},
		{"doc: piece table outside the table stream", ".doc", func(t testing.TB) []byte {
			return docWithFIB(t, func(wd []byte) { wd[154+fcClxIndex*4+3] = 0x7F })
		}, "outside the table stream"},
		{"xls: an encrypted workbook", ".xls", func(t testing.TB) []byte {
			return cfbOf(map[string][]byte{"Workbook": biff(0x0809, make([]byte, 16), 0x002F, make([]byte, 6))})
		}, "encrypted"},
		{"xls: a compound file without a Workbook stream", ".xls", func(t testing.TB) []byte {
			return cfbOf(map[string][]byte{"Other": []byte("x")})
		}, "no Workbook stream"},
		{"xls: an Excel 5/95 workbook", ".xls", func(t testing.TB) []byte {
			return cfbOf(map[string][]byte{"Book": []byte("old")})
		}, "workbooks of Excel 5/95 (BIFF5) are not supported"},
		{"xls: a workbook without worksheets", ".xls", func(t testing.TB) []byte {
			return cfbOf(map[string][]byte{"Workbook": biff(0x0809, make([]byte, 16), 0x000A, []byte{})})
		}, "no worksheets"},
		{"ppt: not a compound file", ".ppt", func(testing.TB) []byte { return []byte("nope") }, "not a valid PPT"},
		{"ppt: a compound file without the PowerPoint Document stream", ".ppt", func(testing.TB) []byte {
			return cfbOf(map[string][]byte{"Other": []byte("x")})
		}, `no "PowerPoint Document" stream`},
		{"xls: not a compound file", ".xls", func(testing.TB) []byte { return []byte("nope") }, "not a valid XLS"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			_, err := run(t, tt.ext, tt.data(t))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("%s: err = %v, want it to contain %q", tt.reason, err, tt.want)
			}
			if c := errs.CodeOf(err); c != errs.Unsupported {
				t.Errorf("code = %s, want %s", c, errs.Unsupported)
			}
		})
	}
}

// docWithFIB builds a valid .doc, lets edit change its WordDocument FIB,
// and rebuilds the compound file.
func docWithFIB(t testing.TB, edit func(wd []byte)) []byte {
	t.Helper()
	le := func(b []byte, off int) uint32 {
		return uint32(b[off]) | uint32(b[off+1])<<8 | uint32(b[off+2])<<16 | uint32(b[off+3])<<24
	}
	b := docOf(piece{"x\r", true})
	// WordDocument is the second stream in name order ("1Table" < "WordDocument").
	dir := b[1024 : 1024+512]
	start := le(dir, 2*128+116)
	off := 512 * (int(start) + 1)
	edit(b[off : off+1024])
	return b
}

func TestFor(t *testing.T) {
	for _, ext := range []string{".pdf", "PDF", ".DocX", "rtf"} {
		if _, ok := For(ext); !ok {
			t.Errorf("For(%q) found nothing", ext)
		}
	}
	for _, ext := range []string{"", ".", ".txt", "pdf.", ".odt"} {
		if _, ok := For(ext); ok {
			t.Errorf("For(%q) found a converter", ext)
		}
	}
	if got := fmt.Sprint(Extensions()); got != "[.doc .docx .epub .pdf .ppt .pptx .rtf .xls .xlsx]" {
		t.Errorf("Extensions() = %s", got)
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, ext := range Extensions() {
		c, _ := For(ext)
		_, err := c.Convert(ctx, bytes.NewReader(nil), 0)
		if errs.CodeOf(err) != errs.Canceled {
			t.Errorf("%s: err = %v, want CANCELED", ext, err)
		}
	}
}

func TestSafe(t *testing.T) {
	tests := []struct {
		reason string
		c      Func
		want   string // error substring; "" for success
		out    string
	}{
		{"a panic becomes an UNSUPPORTED error", func(context.Context, io.ReaderAt, int64) (string, error) { panic("boom") }, "malformed (boom)", ""},
		{"an error passes through", func(context.Context, io.ReaderAt, int64) (string, error) { return "", errBoom }, "boom", ""},
		{"output over MaxOutput is cut and partial", func(context.Context, io.ReaderAt, int64) (string, error) {
			return strings.Repeat("é", MaxOutput), nil
		}, "conversion stopped after 16.0MB of text", "é"},
		{"a partial text passes through", func(context.Context, io.ReaderAt, int64) (string, error) {
			return "some", &errs.Partial{Reason: "page 2 left out"}
		}, "page 2 left out", "some"},
		{"a partial error without text is an error", func(context.Context, io.ReaderAt, int64) (string, error) {
			return "", &errs.Partial{Reason: "page 2 left out"}
		}, "page 2 left out", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			out, err := Safe(tt.c).Convert(context.Background(), bytes.NewReader(nil), 0)
			var part *errs.Partial
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want %q", err, tt.want)
				}
				if errors.As(err, &part) != (tt.out != "") {
					t.Fatalf("err = %#v: a *errs.Partial error comes with text, and only then", err)
				}
				if tt.out == "" {
					return
				}
			}
			if err != nil && part == nil || !strings.HasSuffix(out, tt.out) || len(out) > MaxOutput || !utf8.ValidString(out) {
				t.Fatalf("err = %v, len %d, suffix %q", err, len(out), out[max(0, len(out)-60):])
			}
		})
	}
}

var errBoom = errors.New("boom")

// TestPartial checks documents that convert in part: the text of what is
// there, and a *errs.Partial that names what is not.
func TestPartial(t *testing.T) {
	tests := []struct {
		reason, ext string
		data        func(testing.TB) []byte
		text, want  string
	}{
		{"a slide listed but missing", ".pptx", func(t testing.TB) []byte {
			data := pptxOf(t, []string{pptxShape("title", "One"), pptxShape("title", "Two")}, nil)
			return bytes.Replace(data, []byte("ppt/slides/slide1.xml"), []byte("ppt/slides/slideX.xml"), -1) // the second slide's part
		}, "# One", "1 of the 2 slides listed in the presentation are missing from the file"},
		{"a chapter in the spine but missing", ".epub", func(t testing.TB) []byte {
			data := epubOf(t, "Book", "<p>first</p>", "<p>second</p>")
			return bytes.Replace(data, []byte("ch 1.xhtml"), []byte("ch 9.xhtml"), -1) // the zip entry of the second chapter
		}, "first", "chapters named in the spine are missing from the book: "},
		{"a missing chapter's hostile name is quoted", ".epub", func(t testing.TB) []byte {
			return testfs.Zip(testfs.Files(map[string]string{
				"mimetype":               "application/epub+zip",
				"META-INF/container.xml": `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
				"OEBPS/content.opf": `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>` +
					`<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/><item id="b" href="b%0A*1%7Cfake.xhtml" media-type="application/xhtml+xml"/>` +
					`</manifest><spine><itemref idref="a"/><itemref idref="b"/></spine></package>`,
				"OEBPS/a.xhtml": `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>first</p></body></html>`,
			})...)
		}, "first", `missing from the book: "OEBPS/b\n*1|fake.xhtml"`},
	}
	for _, tt := range tests {
		got, err := run(t, tt.ext, tt.data(t))
		var part *errs.Partial
		if !errors.As(err, &part) || !strings.Contains(part.Reason, tt.want) || !strings.Contains(got, tt.text) {
			t.Errorf("%s: err = %v, text %q; want %q and a *errs.Partial %q", tt.reason, err, got, tt.text, tt.want)
		}
	}
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// testdata/hello.pdf is used by the web tests (a PDF served over HTTP); it
// must stay what the builder writes.
func TestHelloPDFFixture(t *testing.T) {
	want := pdfOf("Hello PDF")
	if testfs.Updating() {
		if err := os.WriteFile("testdata/hello.pdf", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := mustRead(t, "testdata/hello.pdf"); !bytes.Equal(got, want) {
		t.Fatal("testdata/hello.pdf differs from pdfOf(\"Hello PDF\"); run go test . -run TestHelloPDFFixture -args -update")
	}
}

func TestScanContent(t *testing.T) {
	flood := func(tok string, n int) string { return strings.Repeat(tok+" ", n) }
	tests := []struct {
		reason   string
		in       string
		operands bool
		want     string // error substring; "" for none
	}{
		{"closed hex string", "<48656c6c6f> Tj", true, ""},
		{"dictionary brackets are not hex strings", "<< /A 1 >> BDC", true, ""},
		{"open hex string at the end", "(x) Tj <4142", true, "unterminated hex string"},
		{"a < inside a literal string does not count", `(a < b) Tj`, true, ""},
		{"escaped parenthesis keeps the string open", `(a \) < b) Tj`, true, ""},
		{"nested parentheses", `(a (b) <) Tj`, true, ""},
		{"a < inside a comment does not count", "% <\n(x) Tj", true, ""},
		{"an open literal string at the end is the library's own business", "(abc", true, ""},
		{"operands up to the bound", flood("1", maxOperands) + "re", true, ""},
		{"operands without an operator", flood("1", maxOperands+1), true, "more than 65536 operands"},
		{"an operator ends the operands", flood("1 0 0 1 0 0 cm", maxOperands), true, ""},
		{"stray closing brackets push values", flood("]", maxOperands+1), true, "more than 65536 operands"},
		{"elements of an array count", "[" + flood("(a) 1", maxOperands) + "] TJ", true, "more than 65536 operands"},
		{"after begin a keyword may push a value", "<< >> begin /a 1 def " + flood("a", maxOperands+1), true, "more than 65536 operands"},
		{"null pushes a value", flood("null", maxOperands+1), true, "more than 65536 operands"},
		{"a keyword inside an array does not end the operands", flood("[ x", maxOperands), true, ""},
		{"long operands", "(" + strings.Repeat("a", maxPDFToken) + ") Tj", true, "a token of more than 4 MiB"},
		{"a CMap is not bounded by operands", "begin " + flood("<0001> <0041>", maxOperands), false, ""},
	}
	for _, tt := range tests {
		err := scanContent(context.Background(), strings.NewReader(tt.in), tt.operands)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: err = %v, want %q", tt.reason, err, tt.want)
		}
	}
}

// biff writes BIFF records: type, data, type, data, ...
func biff(recs ...any) []byte {
	var out []byte
	for i := 0; i+1 < len(recs); i += 2 {
		typ, data := recs[i].(int), recs[i+1].([]byte)
		out = append(out, byte(typ), byte(typ>>8), byte(len(data)), byte(len(data)>>8))
		out = append(out, data...)
	}
	return out
}

// TestDeadline checks that a conversion's reads fail once ctx is done, so
// that a parser looping over reads stops.
func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := Safe(Func(func(ctx context.Context, r io.ReaderAt, _ int64) (string, error) {
		cancel()
		for {
			if _, err := r.ReadAt(make([]byte, 1), 0); err != nil {
				return "", err
			}
		}
	}))
	_, err := c.Convert(ctx, bytes.NewReader([]byte("x")), 1)
	if errs.CodeOf(err) != errs.Canceled {
		t.Fatalf("err = %v", err)
	}
}

func TestZipBomb(t *testing.T) {
	_, err := run(t, ".epub", epubOf(t, "bomb", "<p>"+strings.Repeat("a", 9<<20)+"</p>"))
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "Archive entry 'OEBPS/text/ch 1.xhtml' decompresses to more than 8.0MB") {
		t.Fatalf("err = %v (%s), want TOO_LARGE", err, errs.CodeOf(err))
	}
}

// sparseRow is a 256-column row with first and last set.
func sparseRow(first, last string) []string {
	r := make([]string, 256)
	r[0], r[255] = first, last
	return r
}
