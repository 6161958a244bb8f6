package convert

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxHeap is the most a conversion of one hostile input may grow the heap.
const maxHeap = 256 << 20

// TestHostile converts inputs built to exhaust memory (found by attacking
// Scout: each took gigabytes) and checks the answer, a clear error or a
// text that says it is partial, and that the heap stays bounded.
func TestHostile(t *testing.T) {
	rels := `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId9" Type="hyperlink" Target="https://example.com/x" TargetMode="External"/></Relationships>`
	pdfObj := func(doc []byte, objs ...string) []byte {
		return append(doc, strings.Join(objs, "")...)
	}
	tests := []struct {
		name string
		ext  string
		data func(t testing.TB) []byte
		code errs.Code // the error's code; "" for a text
		want string    // in the error, or in the *errs.Partial's reason ("" for none)
		text string    // in the text
	}{
		{"docx: 2 Mi nested paragraphs", ".docx", func(t testing.TB) []byte { return docxOf(t, strings.Repeat("<w:p>", 2<<20)) },
			errs.TooLarge, "part word/document.xml nests elements more than 256 deep", ""},
		{"docx: 500 Ki nested tables", ".docx", func(t testing.TB) []byte { return docxOf(t, strings.Repeat("<w:tbl><w:tr><w:tc>", 500<<10)) },
			errs.TooLarge, "nests elements more than 256 deep", ""},
		{"docx: a tag of 2 MiB of attributes", ".docx", func(t testing.TB) []byte { return docxOf(t, "<w:p "+strings.Repeat(`a="" `, 400<<10)+"/>") },
			errs.TooLarge, "part word/document.xml has a tag longer than 1 MiB", ""},
		{"docx: a quote in a long tag does not hide its end", ".docx", func(t testing.TB) []byte {
			return docxOf(t, `<w:p w:x="'>'"><w:r><w:t>`+strings.Repeat("long text ", 200<<10)+`</w:t></w:r></w:p>`)
		}, "", "", "long text long text"},
		{"docx: 100 Ki links in a paragraph (each rewrote the paragraph)", ".docx", func(t testing.TB) []byte {
			return docxWith(t, "<w:p>"+strings.Repeat(`<w:hyperlink r:id="rId9"><w:r><w:t>a</w:t></w:r></w:hyperlink>`, 100<<10)+"</w:p>",
				map[string]string{"word/_rels/document.xml.rels": rels})
		}, "", "", "[a](https://example.com/x)[a](https://example.com/x)"},
		{"docx: 100 Ki empty parts (a zip directory of 5 MiB)", ".docx", func(t testing.TB) []byte {
			parts := make(map[string]string, 100<<10)
			for i := range 100 << 10 {
				parts[fmt.Sprint(i)+"/"] = "" // stored, not deflated: a compressor per part took a minute under -race
			}
			return docxWith(t, "<w:p/>", parts)
		}, errs.TooLarge, "the DOCX package: its central directory is 5.1MB, more than the limit of 4.0MB", ""},
		{"docx: two parts over one deflated stream (a zip bomb)", ".docx", func(t testing.TB) []byte {
			b := docxOf(t, "<w:p/>")
			last := bytes.LastIndex(b, []byte("PK\x01\x02")) // the central directory's last record
			binary.LittleEndian.PutUint32(b[last+42:], 0)    // its part's data is now the first part's
			return b
		}, errs.TooLarge, "the DOCX package: its entries overlap (entries share compressed data), the mark of a zip bomb", ""},
		// A markdown table pads each row to the widest: a last row of 1,000
		// cells made 100,000 rows of one 400 MB of padding (989 MiB of heap
		// and 10 s from 9 KB) before the output cut it to 16 MiB.
		{"docx: 100,000 rows of one cell, then one of 1,000", ".docx", func(t testing.TB) []byte {
			return docxOf(t, "<w:tbl>"+strings.Repeat("<w:tr><w:tc><w:p/></w:tc></w:tr>", 100_000)+"<w:tr>"+strings.Repeat("<w:tc><w:p/></w:tc>", 1000)+"</w:tr></w:tbl>")
		}, "", "conversion stopped after 16.0MB of text", "|  |  |"},
		{"pptx: 100,000 rows of one cell, then one of 1,000", ".pptx", func(t testing.TB) []byte {
			return pptxOf(t, []string{"<p:graphicFrame><a:graphic><a:graphicData><a:tbl>" + strings.Repeat("<a:tr><a:tc><a:txBody><a:p/></a:txBody></a:tc></a:tr>", 100_000) +
				"<a:tr>" + strings.Repeat("<a:tc><a:txBody><a:p/></a:txBody></a:tc>", 1000) + "</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>"}, nil)
		}, "", "conversion stopped after 16.0MB of text", "|  |  |"},
		{"doc: an HTML page of 400 Ki links saved as .doc", ".doc", func(testing.TB) []byte {
			return []byte("<html><body>" + strings.Repeat(`<a href="/x">l</a>`, 400<<10))
		}, "", "the HTML was cut at 100000 tags (the rest is not shown)", "[l](/x)[l](/x)"},
		{"epub: a chapter of 400 Ki links", ".epub", func(t testing.TB) []byte {
			return epubOf(t, "Links", strings.Repeat(`<a href="/x">l</a>`, 400<<10))
		}, "", "chapters converted in part: OEBPS/text/ch 1.xhtml (the HTML was cut at 100000 tags", "[l](/x)[l](/x)"},
		// The HTML parser holds a tag's attributes at 250 bytes each: a
		// chapter of one tag of 700,000, 7.5 MiB, took 206 MiB and 3 s.
		{"epub: a tag of 700,000 attributes", ".epub", func(t testing.TB) []byte {
			var b strings.Builder
			b.WriteString("<p>first</p><p ")
			for i := range 700_000 {
				fmt.Fprintf(&b, `a%d="" `, i)
			}
			return epubOf(t, "Attrs", b.String()+">x</p>")
		}, "", "chapters converted in part: OEBPS/text/ch 1.xhtml (the HTML was cut at 400000 attributes (the rest is not shown))", "first"},
		{"pptx: 2 Mi nested shapes", ".pptx", func(t testing.TB) []byte { return pptxOf(t, []string{strings.Repeat("<p:sp>", 2<<20)}, nil) },
			errs.TooLarge, "part ppt/slides/slide1.xml nests elements more than 256 deep", ""},
		{"rtf: 8 Mi nested groups", ".rtf", func(testing.TB) []byte { return []byte(`{\rtf1 ` + strings.Repeat("{", 8<<20)) },
			errs.TooLarge, "RTF groups nest more than 1024 deep", ""},
		{"pdf: 2 Mi nested graphics states, then text", ".pdf", func(testing.TB) []byte {
			return pdfFlate(strings.Repeat("q ", 2<<20) + "BT /F1 12 Tf 72 720 Td (deep) Tj ET")
		}, "", "", "deep"},
		{"pdf: a flood of operands", ".pdf", func(testing.TB) []byte { return pdfFlate(strings.Repeat("1 ", 4<<20)) },
			errs.Unsupported, "page 1 (content stream: more than 65536 operands or 4 MiB between two operators)", ""},
		{"pdf: a flood of closing brackets", ".pdf", func(testing.TB) []byte { return pdfFlate(strings.Repeat("]", 4<<20)) },
			errs.Unsupported, "more than 65536 operands", ""},
		{"pdf: a text array of 4 Mi elements", ".pdf", func(testing.TB) []byte { return pdfFlate("BT [" + strings.Repeat("(a) ", 4<<20) + "] TJ ET") },
			errs.Unsupported, "more than 65536 operands", ""},
		{"pdf: a page that cannot be read is left out", ".pdf", func(testing.TB) []byte {
			return pdfFlate("BT /F1 12 Tf 72 720 Td (first) Tj ET", strings.Repeat("1 ", 1<<17), "BT /F1 12 Tf 72 720 Td (third) Tj ET")
		}, "", "1 of 3 pages could not be read and are left out: page 2 (content stream: more than 65536 operands", "first\n\nthird"},
		{"pdf: a trailer /Size of 4 billion objects", ".pdf", func(testing.TB) []byte {
			return []byte(strings.Replace(string(pdfOf("x")), "/Size 6", "/Size 4000000000", 1))
		}, errs.TooLarge, "/Size 4000000000 is over 2097152 objects", ""},
		{"pdf: a cross-reference subsection at object 4 billion", ".pdf", func(testing.TB) []byte {
			return []byte(strings.Replace(string(pdfOf("x")), "xref\n0 6", "xref\n4000000000 6", 1))
		}, errs.TooLarge, "a cross-reference subsection reaches object 4000000006", ""},
		{"pdf: a cross-reference stream with 4 GB entries", ".pdf", func(testing.TB) []byte {
			return pdfObj(pdfOf("x"), "9 0 obj\n<< /Type /XRef /Size 6 /W [1 4000000000 1] /Length 0 >>\nstream\n\nendstream\nendobj\n")
		}, errs.TooLarge, "/W asks for entries of 4000000002 bytes", ""},
		{"pdf: a cross-reference stream index to object 4 billion", ".pdf", func(testing.TB) []byte {
			return pdfObj(pdfOf("x"), "9 0 obj\n<< /Type /XRef /Size 6 /Index [0 2 4000000000 1] /W [1 2 1] /Length 0 >>\nstream\n\nendstream\nendobj\n")
		}, errs.TooLarge, "/Index 4000000000 1 reaches past 2097152 objects", ""},
		{"pdf: an escaped name does not hide a key", ".pdf", func(testing.TB) []byte {
			return pdfObj(pdfOf("x"), "9 0 obj\n<< /Ty#70e /XR#65f /#53ize 4000000000 >>\nendobj\n")
		}, errs.TooLarge, "/Size 4000000000", ""},
		{"pdf: predictor columns of a trillion bytes", ".pdf", func(testing.TB) []byte {
			return pdfObj(pdfOf("x"), "9 0 obj\n<< /DecodeParms << /Predictor 12 /Columns 1000000000000 >> /Length 0 >>\nstream\n\nendstream\nendobj\n")
		}, errs.TooLarge, "/Columns 1000000000000 is over", ""},
		{"pdf: an object stream announcing billions of objects", ".pdf", func(testing.TB) []byte {
			return pdfObj(pdfOf("x"), "9 0 obj\n<< /Type /ObjStm /N 4000000000 /First 4 /Length 0 >>\nstream\n\nendstream\nendobj\n")
		}, errs.TooLarge, "/N 4000000000 is over 1048576", ""},
		{"pdf: an array of 300 Ki elements", ".pdf", func(testing.TB) []byte {
			return pdfObj(pdfOf("x"), "9 0 obj\n["+strings.Repeat("0 ", 300<<10)+"]\nendobj\n")
		}, errs.TooLarge, "an array or dictionary has more than 262144 entries", ""},
		{"pdf: an array of 4 Mi elements in a compressed object stream", ".pdf", func(testing.TB) []byte {
			z := deflate([]byte("10 0 [" + strings.Repeat("0 ", 4<<20) + "]"))
			return pdfObj(pdfOf("x"), fmt.Sprintf("9 0 obj\n<< /Type /ObjStm /N 1 /First 5 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(z), z))
		}, errs.TooLarge, "an array or dictionary has more than 262144 entries", ""},
		// The compound file reader gives each storage's children a path
		// copied from their parent's: 8,000 storages nested in a 1 MB file
		// took 515 MB and 7 s, and a storage inside itself as much.
		{"doc: 8,000 storages each inside the one before", ".doc", func(testing.TB) []byte { return cfbNested(8000, false) },
			errs.TooLarge, "not a valid DOC document: its storages nest too deep: the paths of its 8004 directory entries would hold more than 1048576 names", ""},
		{"doc: a storage inside itself among 8,000 entries", ".doc", func(testing.TB) []byte { return cfbNested(8000, true) },
			errs.TooLarge, "its storages nest too deep", ""},
		{"xls: 8,000 storages each inside the one before", ".xls", func(testing.TB) []byte { return cfbNested(8000, false) },
			errs.TooLarge, "not a valid XLS document: its storages nest too deep", ""},
		{"ppt: 8,000 storages each inside the one before", ".ppt", func(testing.TB) []byte { return cfbNested(8000, false) },
			errs.TooLarge, "not a valid PPT document: its storages nest too deep", ""},
		{"xlsx: an OLE file of 8,000 storages each inside the one before", ".xlsx", func(testing.TB) []byte { return cfbNested(8000, false) },
			errs.TooLarge, "not a valid XLS document: its storages nest too deep", ""},
		{"doc: 1,000 storages each inside the one before (500 Ki names) are read", ".doc", func(testing.TB) []byte { return cfbNested(1000, false) },
			errs.Unsupported, "not a valid DOC document: no WordDocument stream", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.data(t)
			var got string
			var err error
			grew := testfs.HeapPeak(func() { got, err = run(t, tt.ext, data) })
			if grew > maxHeap {
				t.Errorf("the heap grew by %d MiB", grew>>20)
			}
			var part *errs.Partial
			switch {
			case tt.code != "":
				if errs.CodeOf(err) != tt.code || !strings.Contains(fmt.Sprint(err), tt.want) {
					t.Fatalf("err = %s %v, want %s %q", errs.CodeOf(err), err, tt.code, tt.want)
				}
				return
			case tt.want != "":
				if !errors.As(err, &part) || !strings.Contains(part.Reason, tt.want) {
					t.Fatalf("err = %v, want a *errs.Partial saying %q", err, tt.want)
				}
			case err != nil:
				t.Fatalf("err = %v", err)
			}
			if !strings.Contains(got, tt.text) || len(got) > MaxOutput {
				t.Errorf("%d bytes of text, want at most %d containing %q: %.200q", len(got), MaxOutput, tt.text, got)
			}
		})
	}
}

// pdfLoops are PDFs whose structure loops, each small and each followed by
// the library without a bound: resolving a chain of compressed objects
// recursed until the stack overflow killed the process; the others ran
// until the conversion's deadline. The last two begin dictionaries that
// the library looks every later keyword up in (a CMap of 80,000 of them
// and 400,000 names, 1.7 MB, ran until the deadline).
func pdfLoops() []struct {
	name, want string
	data       []byte
} {
	inStream := func(stream byte) []byte { return []byte{2, 0, 0, 0, stream, 0, 0} }
	objStm := func(extends int) string {
		return fmt.Sprintf("<< /Type /ObjStm /N 1 /First 4 /Extends %d 0 R /Length 6 >>\nstream\n9 0 1 \nendstream", extends)
	}
	self := pdfOf("x")
	self = bytes.Replace(self, []byte("/Root 1 0 R >>"), fmt.Appendf(nil, "/Root 1 0 R /Prev %d >>", startxref(self)), 1)
	two := bytes.Replace(pdfOf("x"), []byte("/Root 1 0 R >>"), []byte("/Root 1 0 R /Prev XXXXXXXXXX >>"), 1)
	x2 := len(two)
	two = fmt.Appendf(bytes.Replace(two, []byte("XXXXXXXXXX"), fmt.Appendf(nil, "%010d", x2), 1),
		"xref\ntrailer\n<< /Size 6 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", startxref(pdfOf("x")), x2)
	dicts := strings.Repeat("<< >> begin ", 100) + strings.Repeat("x ", 1000)
	cmap := append(slices.Clone(pdfBasic), fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(dicts), dicts))
	cmap[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
	stream := pdfXrefStream(pdfBasic, nil, 7, "/Root 1 0 R")
	stream = pdfXrefStream(pdfBasic, nil, 7, fmt.Sprintf("/Root 1 0 R /Prev %d", startxref(stream)))
	return []struct {
		name, want string
		data       []byte
	}{
		{"an object in the object stream it is", "object 7 is stored in object stream 7, which is itself stored in an object stream",
			pdfXrefStream(pdfBasic, map[int][]byte{7: inStream(7)}, 8, "/Root 7 0 R")},
		{"two objects each in the other", "object 7 is stored in object stream 8, which is itself stored in an object stream",
			pdfXrefStream(pdfBasic, map[int][]byte{7: inStream(8), 8: inStream(7)}, 9, "/Root 7 0 R")},
		{"an object stream that extends itself", "the /Extends entries of object stream 6 lead back to object stream 6",
			pdfXrefStream(append(slices.Clone(pdfBasic), objStm(6)), map[int][]byte{8: inStream(6)}, 9, "/Root 8 0 R")},
		{"two object streams that extend each other", "the /Extends entries of object stream 6 lead back to object stream 6",
			pdfXrefStream(append(slices.Clone(pdfBasic), objStm(7), objStm(6)), map[int][]byte{10: inStream(6)}, 11, "/Root 10 0 R")},
		{"a cross-reference table whose /Prev is itself", "the /Prev entries of the cross-reference sections lead back to the section at byte", self},
		{"two cross-reference tables whose /Prev name each other", "the /Prev entries of the cross-reference sections lead back to the section at byte", two},
		{"a cross-reference stream whose /Prev is itself", "the /Prev entries of the cross-reference sections lead back to the section at byte", stream},
		{"a ToUnicode CMap that begins 100 dictionaries", "page 1 (font F1: ToUnicode: more than 64 dictionaries begun and not ended)",
			pdfXrefStream(cmap, nil, 8, "/Root 1 0 R")},
		{"a content stream that begins 100 dictionaries", "page 1 (content stream: more than 64 dictionaries begun and not ended)", pdfFlate(dicts)},
	}
}

// readCount is an io.ReaderAt that counts the reads made of it.
type readCount struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *readCount) ReadAt(p []byte, off int64) (int, error) {
	c.n.Add(1)
	return c.r.ReadAt(p, off)
}

// TestPDFPageTree checks that a page's resources come from the page tree
// as it is walked, not from its /Parent chain: a page that is its own
// /Parent converts, and a tree of one node over the pages, which holds
// their font, is read about once. The library's lookup read the node
// again for each page and each font: 4,000 such pages took 15 s, 20,000
// (1.9 MB) ran to the deadline.
func TestPDFPageTree(t *testing.T) {
	c, _ := For(".pdf")
	parent := pdfOf("x")
	old := []byte("/Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>")
	parent = bytes.Replace(parent, old, append([]byte("/Parent 4 0 R"), bytes.Repeat([]byte(" "), len(old)-len("/Parent 4 0 R"))...), 1)
	if got, err := c.Convert(context.Background(), bytes.NewReader(parent), int64(len(parent))); err != nil || got != "x" {
		t.Errorf("a page that is its own /Parent: %q %v, want its text", got, err)
	}
	// the reads made for a tree of n pages, with its text checked
	read := func(n int) int64 {
		kids := make([]string, n)
		objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
			"<< /Length 32 >>\nstream\nBT /F1 12 Tf 72 720 Td (p) Tj ET\nendstream"}
		for i := range n {
			kids[i] = fmt.Sprintf("%d 0 R", len(objs)+1)
			objs = append(objs, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>")
		}
		objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d /Resources << /Font << /F1 3 0 R >> >> >>", strings.Join(kids, " "), n)
		data := pdfXrefStream(objs, nil, len(objs)+2, "/Root 1 0 R")
		r := &readCount{r: bytes.NewReader(data)}
		got, err := c.Convert(context.Background(), r, int64(len(data)))
		if err != nil || !strings.HasPrefix(got, "p\n\np\n\n") || strings.Count(got, "p") != n {
			t.Errorf("%d pages: %d bytes of text, %d pages, %v; want each page's text", n, len(got), strings.Count(got, "p"), err)
		}
		return r.n.Load()
	}
	// linear: four times the pages take four times the reads (13 times
	// when each page read the node of them all, 4 KiB at a time)
	small, large := read(1000), read(4000)
	if large > 6*small {
		t.Errorf("1,000 pages took %d reads, 4,000 pages %d: want at most 6 times as many", small, large)
	}
}

// TestPDFLoops checks that each of pdfLoops is refused at once with an
// error that names the loop.
func TestPDFLoops(t *testing.T) {
	c, _ := For(".pdf")
	for _, tt := range pdfLoops() {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			_, err := c.Convert(ctx, bytes.NewReader(tt.data), int64(len(tt.data)))
			if errs.CodeOf(err) != errs.Unsupported || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %s %v, want UNSUPPORTED saying %q", errs.CodeOf(err), err, tt.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	ok := pdfXrefStream(pdfBasic, nil, 7, "/Root 1 0 R")
	if got, err := c.Convert(context.Background(), bytes.NewReader(ok), int64(len(ok))); err != nil || got != "hello world" {
		t.Errorf("the same PDF without a loop: %q %v", got, err)
	}
}

// TestPDFWork converts PDFs whose pages all draw one content stream, under
// a work bound lowered to 4 MiB: a stream of 1.2 MB with text stops after
// three pages with the text of those, one without text is an error.
func TestPDFWork(t *testing.T) {
	maxPDFWork = 4 << 20
	t.Cleanup(func() { maxPDFWork = 256 << 20 })
	shared := func(content string) []byte {
		z := deflate([]byte(content))
		objs := slices.Clone(pdfBasic)
		objs[1] = "<< /Type /Pages /Kids [" + strings.TrimSpace(strings.Repeat("3 0 R ", 20000)) + "] /Count 20000 >>"
		objs[3] = fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(z), z)
		return pdfXrefStream(objs, nil, 7, "/Root 1 0 R")
	}
	c, _ := For(".pdf")
	tests := []struct {
		name, content string
		code          errs.Code // of the error; "" for a text with a *errs.Partial
		want          string    // in the error or the reason
	}{
		{"text", "BT /F1 12 Tf 72 720 Td (page) Tj ET " + strings.Repeat("0 0 m ", 200000), "",
			"the pages after page 3 are not read: the pages draw more than 4.0MB of content streams and font maps in all"},
		{"no text", strings.Repeat("0 0 m ", 200000), errs.TooLarge, "the pages draw more than 4.0MB of content streams and font maps in all"},
	}
	for _, tt := range tests {
		data := shared(tt.content)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		got, err := c.Convert(ctx, bytes.NewReader(data), int64(len(data)))
		cancel()
		var part *errs.Partial
		switch {
		case tt.code != "":
			if errs.CodeOf(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: err = %s %v, want %s saying %q", tt.name, errs.CodeOf(err), err, tt.code, tt.want)
			}
		case !errors.As(err, &part) || !strings.Contains(part.Reason, tt.want) || got != "page\n\npage\n\npage":
			t.Errorf("%s: %q, %v; want three pages and a *errs.Partial saying %q", tt.name, got, err, tt.want)
		}
	}
}

// TestOutputCap converts documents over the output cap, lowered to 256 KiB
// so that small documents reach it: the text is cut there and partial, and
// a table stops growing instead of holding all its rows.
func TestOutputCap(t *testing.T) {
	outputCap = 256 << 10
	t.Cleanup(func() { outputCap = MaxOutput })
	tests := []struct {
		name, ext  string
		data       func(t testing.TB) []byte
		want, text string
	}{
		{"docx: text over the output cap", ".docx", func(t testing.TB) []byte {
			p := "<w:p><w:r><w:t>" + strings.Repeat("words ", 20<<10) + "</w:t></w:r></w:p>"
			return docxOf(t, strings.Repeat(p, 3))
		}, "conversion stopped after 256.0KB of text", "words words"},
		{"docx: a table over the output cap stops growing", ".docx", func(t testing.TB) []byte {
			row := "<w:tr><w:tc><w:p><w:r><w:t>" + strings.Repeat("c", 1000) + "</w:t></w:r></w:p></w:tc></w:tr>"
			return docxOf(t, "<w:tbl>"+strings.Repeat(row, 20000)+"</w:tbl>") // 20 MB of cells
		}, "conversion stopped after 256.0KB of text", "| ccc"},
		{"rtf: text over the output cap", ".rtf", func(testing.TB) []byte { return []byte(`{\rtf1 ` + strings.Repeat("text ", 200<<10) + `}`) },
			"conversion stopped after 256.0KB of text", "text text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.data(t)
			var got string
			var err error
			grew := testfs.HeapPeak(func() { got, err = run(t, tt.ext, data) })
			var part *errs.Partial
			if !errors.As(err, &part) || !strings.Contains(part.Reason, tt.want) {
				t.Fatalf("err = %v, want a *errs.Partial saying %q", err, tt.want)
			}
			if !strings.Contains(got, tt.text) || len(got) > outputCap || len(got) < outputCap/2 {
				t.Errorf("%d bytes of text, want about %d containing %q", len(got), outputCap, tt.text)
			}
			if grew > 16<<20 { // the table's 20 MB would pass it twice over
				t.Errorf("the heap grew by %d MiB", grew>>20)
			}
		})
	}
}

// cancelReader cancels the conversion once half of the document was
// read through it, and notes when.
type cancelReader struct {
	io.ReaderAt
	read, at int64
	cancel   func()
	once     sync.Once
	when     time.Time
}

func (c *cancelReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.ReaderAt.ReadAt(p, off)
	if c.read += int64(n); c.read >= c.at {
		c.once.Do(func() { c.cancel(); c.when = time.Now() })
	}
	return n, err
}

// TestCancelMidway cancels conversions of large documents once half of
// each was read and checks that each stops with a CANCELED error. The bound
// is generous, to catch a conversion that does not stop; the latencies,
// logged with -v, are what the converters achieve.
func TestCancelMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("converts large documents")
	}
	tests := []struct {
		name, ext string
		data      func() []byte
	}{
		{"pdf, 2 Mi nested graphics states", ".pdf", func() []byte { return pdfFlate(strings.Repeat("q ", 2<<20) + "BT /F1 12 Tf 72 720 Td (deep) Tj ET") }},
		{"pdf, 500 pages", ".pdf", func() []byte {
			var c strings.Builder
			for j := range 40 {
				fmt.Fprintf(&c, "BT /F1 12 Tf 72 %d Td (a line of text on the page) Tj ET\n", 720-14*j)
			}
			pages := make([]string, 500)
			for i := range pages {
				pages[i] = c.String()
			}
			return pdfFlate(pages...)
		}},
		{"docx, 60,000 paragraphs", ".docx", func() []byte {
			return docxOf(t, strings.Repeat("<w:p><w:r><w:t>some words of text here</w:t></w:r></w:p>", 60000))
		}},
		{"pptx, 1000 slides", ".pptx", func() []byte {
			slides := make([]string, 1000)
			for i := range slides {
				slides[i] = pptxShape("title", fmt.Sprint("slide ", i)) + pptxShape("body", "some body text\nmore text")
			}
			return pptxOf(t, slides, nil)
		}},
		{"xlsx, 30,000 rows", ".xlsx", func() []byte {
			rows := make([][]any, 30000)
			for i := range rows {
				rows[i] = []any{"cell a", float64(i), "cell c"}
			}
			return xlsxOf(t, map[string][][]any{"S": rows})
		}},
		{"epub, 100 chapters", ".epub", func() []byte {
			chapters := make([]string, 100)
			for i := range chapters {
				chapters[i] = "<p>" + strings.Repeat("chapter text ", 2000) + "</p>"
			}
			return epubOf(t, "book", chapters...)
		}},
		{"rtf, 4 MiB", ".rtf", func() []byte { return []byte(`{\rtf1 ` + strings.Repeat(`text \par `, 400<<10) + `}`) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.data()
			c, _ := For(tt.ext)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := &cancelReader{ReaderAt: bytes.NewReader(data), at: int64(len(data)) / 2, cancel: cancel}
			done := make(chan error, 1)
			go func() {
				_, err := c.Convert(ctx, r, int64(len(data)))
				done <- err
			}()
			select {
			case err := <-done:
				if errs.CodeOf(err) != errs.Canceled {
					t.Fatalf("err = %v, want CANCELED", err)
				}
				t.Logf("stopped %v after the cancel", time.Since(r.when).Round(100*time.Microsecond))
			case <-time.After(10 * time.Second):
				t.Fatal("the conversion did not stop within 10 s")
			}
		})
	}
}

// TestInterpretCanceled checks that the content interpreter itself stops
// on a canceled ctx (within 256 operators), not only the reads around it.
func TestInterpretCanceled(t *testing.T) {
	data := pdfFlate(strings.Repeat("q Q ", 1<<20) + "BT /F1 12 Tf 72 720 Td (never) Tj ET")
	rd, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var page pdfPage
	pdfPages(context.Background(), rd.Trailer().Key("Root").Key("Pages"), func(p pdfPage) error { page = p; return nil })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	defer func() {
		if a, ok := recover().(pdfAbort); !ok || a.err != context.Canceled {
			t.Fatalf("recovered %v, want a pdfAbort", a)
		}
	}()
	interpretPage(ctx, page, func(s string, _, _, _, _ float64) { t.Fatalf("drew %q after the cancel", s) })
	t.Fatal("the interpreter ran to the end")
}

// TestHostilePartName: a part named by the package itself (a slide's
// target) shows quoted in an error when it holds a newline, so it cannot
// forge a line of the message.
func TestHostilePartName(t *testing.T) {
	data := testfs.Zip(testfs.Files(map[string]string{
		"ppt/presentation.xml":            `<?xml version="1.0"?><p:presentation ` + pNS + `><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
		"ppt/_rels/presentation.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="slide" Target="slides/s&#10;*1|fake.xml"/></Relationships>`,
		"ppt/slides/s\n*1|fake.xml":       `<?xml version="1.0"?><p:sld ` + pNS + `><p:cSld><p:spTree>` + strings.Repeat("<p:sp>", 1000) + `</p:spTree></p:cSld></p:sld>`,
	})...)
	_, err := run(t, ".pptx", data)
	want := `part "ppt/slides/s\n*1|fake.xml" nests elements more than 256 deep`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
}

// TestDOCXRecordedOverCap: a document.xml the zip records as over maxPart
// fails with the error the cap gives, before it is inflated (3 million
// tiny paragraphs, 108 MB of XML, took some 8 s to reach the cap). The
// part here holds a few bytes but records maxPart+1: inflated, it would be
// a corrupt zip, not TOO_LARGE.
func TestDOCXRecordedOverCap(t *testing.T) {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	body := []byte(`<w:document ` + wNS + `><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`)
	f, err := w.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Store, CRC32: crc32.ChecksumIEEE(body),
		CompressedSize64: uint64(len(body)), UncompressedSize64: maxPart + 1})
	if err != nil {
		t.Fatal(err)
	}
	f.Write(body)
	w.Close()
	_, err = convertDOCX(context.Background(), bytes.NewReader(b.Bytes()), int64(b.Len()))
	if want := "Archive entry 'word/document.xml' decompresses to more than 64.0MB, Scout's limit"; errs.CodeOf(err) != errs.TooLarge || err == nil || err.Error() != want {
		t.Errorf("err = %v (%s), want TOO_LARGE %q", err, errs.CodeOf(err), want)
	}
}

// TestMarkupBound converts Office documents whose XML parts hold many
// tags for little text, under a markup bound lowered to 64 Ki tags and
// attributes: reading stops there, with the text read so far and a notice
// (an error when there is none), and the bytes allocated stay a fraction
// of what reading the whole part took (about 290 bytes an empty paragraph,
// 3 s for a part of 64 MiB). Usual documents read whole.
func TestMarkupBound(t *testing.T) {
	markupBase = 64 << 10
	t.Cleanup(func() { markupBase = 2 << 20 })
	para := `<w:p w:rsidR="00A1" w:rsidRDefault="00B2"><w:pPr><w:pStyle w:val="Normal"/><w:spacing w:after="0"/></w:pPr>` +
		`<w:r w:rsidRPr="00C3"><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:b/><w:sz w:val="20"/></w:rPr><w:t xml:space="preserve">Some words </w:t></w:r>` +
		`<w:proofErr w:type="spellStart"/><w:r><w:rPr><w:i/></w:rPr><w:t>of text.</w:t></w:r></w:p>`
	sheet := func(rows string, extra map[string]string) func(t testing.TB) []byte {
		return func(t testing.TB) []byte { return xlsxWith(t, rows, extra) }
	}
	tests := []struct {
		name  string
		ext   string
		data  func(t testing.TB) []byte
		want  string // in the error or the *errs.Partial's reason; "" for none
		text  string // in the text
		alloc uint64 // the most bytes allocated
	}{
		{"docx: 256 Ki empty paragraphs", ".docx", func(t testing.TB) []byte { return docxOf(t, strings.Repeat("<w:p/>", 1<<18)) },
			"reading stopped in part word/document.xml after 65536 XML tags and attributes that gave 0 bytes of text (Scout reads 65536, and 64 more for each byte of text); the rest of the document is not shown", "", 9 << 20}, // 12 MiB with a paragraph allocated for each
		{"docx: text, then 256 Ki empty runs", ".docx", func(t testing.TB) []byte {
			return docxOf(t, `<w:p><w:r><w:t>first</w:t></w:r></w:p><w:p>`+strings.Repeat("<w:r><w:rPr><w:b/></w:rPr></w:r>", 1<<18)+`</w:p>`)
		}, "reading stopped in part word/document.xml after 65856 XML tags and attributes that gave 5 bytes of text", "first", 24 << 20},
		{"docx: 256 Ki styles", ".docx", func(t testing.TB) []byte {
			return docxWith(t, `<w:p><w:r><w:t>body</w:t></w:r></w:p>`, map[string]string{
				"word/styles.xml": `<w:styles ` + wNS + `>` + strings.Repeat(`<w:style w:type="character" w:styleId="x"/>`, 1<<18) + `</w:styles>`})
		}, "reading stopped in part word/styles.xml", "", 32 << 20},
		{"docx: 20,000 formatted paragraphs (30 tags and attributes for 19 bytes of text) read whole", ".docx", func(t testing.TB) []byte {
			return docxOf(t, strings.Repeat(para, 20000))
		}, "", "Some words of text.", 0},
		{"pptx: 256 Ki empty shapes", ".pptx", func(t testing.TB) []byte { return pptxOf(t, []string{strings.Repeat("<p:sp/>", 1<<18)}, nil) },
			"reading stopped in part ppt/slides/slide1.xml after 65536 XML tags", "<!-- Slide number: 1 -->", 32 << 20},
		// Each listing read the slide anew: 122 MiB allocated.
		{"pptx: a slide listed 15,000 times is read once", ".pptx", func(t testing.TB) []byte {
			files := zipParts(t, pptxOf(t, []string{pptxShape("", "x")}, nil))
			files["ppt/presentation.xml"] = strings.Replace(files["ppt/presentation.xml"], `<p:sldId id="256" r:id="rId1"/>`, strings.Repeat(`<p:sldId id="256" r:id="rId1"/>`, 15000), 1)
			return testfs.Zip(testfs.Files(files)...)
		}, "", "<!-- Slide number: 15000 -->\nx", 16 << 20},
		{"xlsx: 256 Ki empty cells", ".xlsx", sheet(`<row r="1"><c r="A1"><v>1</v></c>`+strings.Repeat(`<c r="B1" s="0"/>`, 1<<18)+`</row>`, nil),
			"reading stopped in part xl/worksheets/sheet1.xml after 65920 XML tags and attributes that gave 6 bytes of text", "## S\n\n| 1 |", 16 << 20},
		{"xlsx: 256 Ki styles", ".xlsx", sheet(`<row r="1"><c r="A1"><v>1</v></c></row>`, map[string]string{
			"xl/styles.xml": `<styleSheet ` + xlsxNS + `>` + strings.Repeat(`<font/>`, 1<<18) + `</styleSheet>`}),
			"reading stopped in part xl/styles.xml", "", 16 << 20},
		{"xlsx: 256 Ki shared strings, the first used, are not read", ".xlsx", sheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, map[string]string{
			"xl/sharedStrings.xml": sstOf(strings.Repeat(`<si><t>x</t></si>`, 1<<18))}),
			"", "| x |", 4 << 20},
		{"xlsx: 256 Ki shared strings, the last used", ".xlsx", sheet(`<row r="1"><c r="A1" t="s"><v>262143</v></c></row>`, map[string]string{
			"xl/sharedStrings.xml": sstOf(strings.Repeat(`<si><t>x</t></si>`, 1<<18))}),
			"reading stopped in part xl/sharedStrings.xml", "", 16 << 20},
		{"epub: a chapter of 256 Ki empty paragraphs", ".epub", func(t testing.TB) []byte { return epubOf(t, "B", "<p>first</p>", strings.Repeat("<p/>", 1<<18)) },
			"reading stopped in part OEBPS/text/ch 1.xhtml after 65856 XML tags and attributes that gave 5 bytes of text", "# B\n\nAuthors: Ada\n\nfirst", 48 << 20},
		{"epub: a manifest of 64 Ki items", ".epub", func(t testing.TB) []byte {
			return epubRaw(t, opfOf(strings.Repeat(`<item id="c" href="c.xhtml" media-type="application/xhtml+xml"/>`, 1<<16), ""), nil)
		}, "reading stopped in part OEBPS/content.opf after 65536 XML tags", "", 32 << 20},
		// Each chapter was converted anew for each time the spine named it:
		// 8,000 times a chapter of one word allocated 111 MiB (2 Mi times,
		// 94 s).
		{"epub: a spine naming one chapter 8,000 times converts it once", ".epub", func(t testing.TB) []byte {
			return epubRaw(t, opfOf(`<item id="c" href="c.xhtml" media-type="application/xhtml+xml"/>`, strings.Repeat(`<itemref idref="c"/>`, 8000)),
				map[string]string{"OEBPS/c.xhtml": `<html><body><p>word</p></body></html>`})
		}, "", "T\n\nword\n\nword\n\nword", 16 << 20},
		{"epub: a spine naming 20 missing chapters 1,000 times lists 10", ".epub", func(t testing.TB) []byte {
			var items strings.Builder
			for i := range 20 {
				fmt.Fprintf(&items, `<item id="c%d" href="c%d.xhtml" media-type="application/xhtml+xml"/>`, i, i)
			}
			var spine strings.Builder
			for i := range 20_000 {
				fmt.Fprintf(&spine, `<itemref idref="c%d"/>`, i%20)
			}
			return epubRaw(t, opfOf(items.String()+`<item id="x" href="x.xhtml" media-type="application/xhtml+xml"/>`, `<itemref idref="x"/>`+spine.String()),
				map[string]string{"OEBPS/x.xhtml": `<p>here</p>`})
		}, `chapters named in the spine are missing from the book: OEBPS/c0.xhtml, OEBPS/c1.xhtml, OEBPS/c2.xhtml, OEBPS/c3.xhtml, OEBPS/c4.xhtml, OEBPS/c5.xhtml, OEBPS/c6.xhtml, OEBPS/c7.xhtml, OEBPS/c8.xhtml, OEBPS/c9.xhtml and 10 more`, "here", 0},
		{"epub: 100 chapters read whole", ".epub", func(t testing.TB) []byte {
			chapters := make([]string, 100)
			for i := range chapters {
				chapters[i] = fmt.Sprintf(`<h1 id="h%d" class="c">Chapter %d</h1>`, i, i) + strings.Repeat(`<p class="x">Some prose of the chapter, with <em>emphasis</em>.</p>`, 30)
			}
			return epubOf(t, "B", chapters...)
		}, "", "# Chapter 99", 0},
		{"xlsx: 20,000 rows of numbers read whole", ".xlsx", sheet(strings.Repeat(`<row><c s="0"><v>1.5</v></c><c s="0"><v>2</v></c><c><v>3</v></c></row>`, 20000), nil),
			"", "| 1.5 | 2 | 3 |", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.data(t)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := run(t, tt.ext, data)
			runtime.ReadMemStats(&after)
			var part *errs.Partial
			switch {
			case tt.want == "":
				require.NoError(t, err)
			case tt.text == "":
				require.Error(t, err)
				assert.Equal(t, errs.Unsupported, errs.CodeOf(err), "%v", err)
				assert.Contains(t, err.Error(), tt.want)
			default:
				require.ErrorAs(t, err, &part)
				assert.Contains(t, part.Reason, tt.want)
			}
			assert.Contains(t, got, tt.text)
			if alloc := after.TotalAlloc - before.TotalAlloc; tt.alloc > 0 && alloc > tt.alloc {
				t.Errorf("allocated %d MiB, want at most %d MiB", alloc>>20, tt.alloc>>20)
			}
		})
	}
}

// TestMaxInflate: the bytes inflated from all the parts of a document are
// bounded: a book whose 1,000 chapters of 8 MiB of spaces deflate to 8 KiB
// each inflated 8 GB (until the conversion's deadline), and a presentation
// of such slides alike. Reading stops with the text so far and a notice
// naming the part.
func TestMaxInflate(t *testing.T) {
	maxInflate = 64 << 10
	t.Cleanup(func() { maxInflate = 8 * maxPart })
	spaces := strings.Repeat(" ", 16<<10)
	slide := pptxShape("", "s"+spaces)
	tests := []struct {
		name, ext string
		data      func(t testing.TB) []byte
		want      string // in the *errs.Partial's reason
		text      string // at the end of the text
	}{
		{"epub: chapters of spaces", ".epub", func(t testing.TB) []byte {
			chapters := make([]string, 10)
			for i := range chapters {
				chapters[i] = fmt.Sprintf("<p>c%d</p>", i) + spaces
			}
			return epubOf(t, "B", chapters...)
		}, "reading stopped in part OEBPS/text/ch 7.xhtml after the document's parts inflated to 64.0KB (Scout inflates at most that much of a document)", "c3"},
		{"pptx: slides of spaces", ".pptx", func(t testing.TB) []byte {
			return pptxOf(t, slices.Repeat([]string{slide}, 10), nil)
		}, "reading stopped in part ppt/slides/slide7.xml after the document's parts inflated to 64.0KB", "s\n\n<!-- Slide number: 4 -->"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := run(t, tt.ext, tt.data(t))
			var part *errs.Partial
			require.ErrorAs(t, err, &part)
			assert.Contains(t, part.Reason, tt.want)
			assert.True(t, strings.HasSuffix(got, tt.text), "the text ends %q, want %q", got[max(0, len(got)-40):], tt.text)
		})
	}
}

// TestOutputFullStopsReading: once the output is full, the rest of a part
// is not decoded: 16 MB of paragraphs (DOCX) or shapes (PPTX) under an
// output cap lowered to 256 KiB allocated 28 and 101 MiB decoding text
// that was cut.
func TestOutputFullStopsReading(t *testing.T) {
	outputCap = 256 << 10
	t.Cleanup(func() { outputCap = MaxOutput })
	tests := []struct {
		ext  string
		data func(t testing.TB) []byte
	}{
		{".docx", func(t testing.TB) []byte {
			return docxOf(t, strings.Repeat("<w:p><w:r><w:t>"+strings.Repeat("words ", 160)+"</w:t></w:r></w:p>", 16000))
		}},
		{".pptx", func(t testing.TB) []byte {
			return pptxOf(t, []string{strings.Repeat(pptxShape("body", strings.Repeat("words ", 160)), 16000)}, nil)
		}},
	}
	for _, tt := range tests {
		data := tt.data(t)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := run(t, tt.ext, data)
		runtime.ReadMemStats(&after)
		var part *errs.Partial
		if !errors.As(err, &part) || !strings.Contains(part.Reason, "conversion stopped after 256.0KB of text") || len(got) < outputCap-2000 {
			t.Errorf("%s: %d bytes, err = %v; want the cap's and an *errs.Partial", tt.ext, len(got), err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Errorf("%s: allocated %d MiB, want at most 16 MiB", tt.ext, alloc>>20)
		}
	}
}

// TestDOCXStylesStreamed: the heading styles are streamed from
// word/styles.xml, holding only the headings: 200,000 styles (units under
// the markup bound) were decoded into a list of all of them, 22 MiB of
// heap at the peak.
func TestDOCXStylesStreamed(t *testing.T) {
	data := docxWith(t, `<w:p><w:pPr><w:pStyle w:val="h"/></w:pPr><w:r><w:t>body</w:t></w:r></w:p>`, map[string]string{
		"word/styles.xml": `<w:styles ` + wNS + `>` + strings.Repeat(`<w:style w:type="character" w:styleId="x"><w:name w:val="n"/></w:style>`, 200_000) +
			`<w:style w:type="paragraph" w:styleId="h"><w:name w:val="heading 2"/></w:style></w:styles>`})
	var got string
	var err error
	grew := testfs.HeapPeak(func() { got, err = run(t, ".docx", data) })
	require.NoError(t, err)
	assert.Equal(t, "## body", got)
	if grew > 12<<20 {
		t.Errorf("the heap grew by %d MiB, want at most 12", grew>>20)
	}
}
