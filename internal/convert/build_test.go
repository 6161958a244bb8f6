package convert

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/scoutkit/scout/internal/testfs"
)

// Builders of small documents for the tests: OOXML and EPUB are zips of
// XML, PDF is written object by object with a correct xref table, DOC is a
// hand-built compound file.

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

func docxOf(t testing.TB, body string) []byte {
	return docxWith(t, body, nil)
}

// docxWith builds a DOCX with extra parts (footnotes.xml ...).
func docxWith(t testing.TB, body string, extra map[string]string) []byte {
	files := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"word/document.xml":   `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`,
		"word/styles.xml": `<?xml version="1.0"?><w:styles ` + wNS + `>` +
			`<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>` +
			`<w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style></w:styles>`,
		"word/_rels/document.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/x" TargetMode="External"/></Relationships>`,
	}
	for k, v := range extra {
		files[k] = v
	}
	return testfs.Zip(testfs.Files(files)...)
}

const pNS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`

func pptxShape(ph, text string) string {
	phXML := ""
	if ph != "" {
		phXML = `<p:ph type="` + ph + `"/>`
	}
	var paras strings.Builder
	for _, line := range strings.Split(text, "\n") {
		paras.WriteString(`<a:p><a:r><a:t>` + line + `</a:t></a:r></a:p>`)
	}
	return `<p:sp><p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr>` + phXML + `</p:nvPr></p:nvSpPr><p:txBody>` + paras.String() + `</p:txBody></p:sp>`
}

// pptxOf builds a presentation whose slides are listed in presentation.xml
// in the given order but stored under names in reverse order, so that the
// test sees the order come from sldIdLst.
func pptxOf(t testing.TB, slides []string, notes map[int]string) []byte {
	files := map[string]string{}
	var ids, rels strings.Builder
	n := len(slides)
	for i, s := range slides {
		part := fmt.Sprintf("slide%d.xml", n-i)
		fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId%d"/>`, 256+i, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="slide" Target="slides/%s"/>`, i+1, part)
		files["ppt/slides/"+part] = `<?xml version="1.0"?><p:sld ` + pNS + `><p:cSld><p:spTree>` + s + `</p:spTree></p:cSld></p:sld>`
		if note, ok := notes[i]; ok {
			files["ppt/slides/_rels/"+part+".rels"] = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="notesSlide" Target="../notesSlides/notesSlide` + fmt.Sprint(i+1) + `.xml"/></Relationships>`
			files[fmt.Sprintf("ppt/notesSlides/notesSlide%d.xml", i+1)] = `<?xml version="1.0"?><p:notes ` + pNS + `><p:cSld><p:spTree>` + pptxShape("sldNum", "7") + pptxShape("body", note) + `</p:spTree></p:cSld></p:notes>`
		}
	}
	files["ppt/presentation.xml"] = `<?xml version="1.0"?><p:presentation ` + pNS + `><p:sldIdLst>` + ids.String() + `</p:sldIdLst></p:presentation>`
	files["ppt/_rels/presentation.xml.rels"] = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels.String() + `</Relationships>`
	return testfs.Zip(testfs.Files(files)...)
}

// xlsxOf builds a workbook with one sheet per map entry, in name order:
// strings go to the shared string table, numbers and booleans inline.
func xlsxOf(t testing.TB, sheets map[string][][]any) []byte {
	t.Helper()
	files := map[string]string{
		"_rels/.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
	}
	var list, rels, sst strings.Builder
	nsst := 0
	for i, name := range sortedKeys(sheets) {
		fmt.Fprintf(&list, `<sheet name="%s" sheetId="%d" r:id="rId%d"/>`, xmlText(name), i+1, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i+1, i+1)
		var data strings.Builder
		for r, row := range sheets[name] {
			fmt.Fprintf(&data, `<row r="%d">`, r+1)
			for c, v := range row {
				ref := columnName(c) + fmt.Sprint(r+1)
				switch v := v.(type) {
				case string:
					fmt.Fprintf(&data, `<c r="%s" t="s"><v>%d</v></c>`, ref, nsst)
					fmt.Fprintf(&sst, `<si><t>%s</t></si>`, xmlText(v))
					nsst++
				case bool:
					b := 0
					if v {
						b = 1
					}
					fmt.Fprintf(&data, `<c r="%s" t="b"><v>%d</v></c>`, ref, b)
				default:
					fmt.Fprintf(&data, `<c r="%s"><v>%v</v></c>`, ref, v)
				}
			}
			data.WriteString(`</row>`)
		}
		files[fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)] = `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
			data.String() + `</sheetData></worksheet>`
	}
	rels.WriteString(`<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`)
	files["xl/workbook.xml"] = `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>` +
		list.String() + `</sheets></workbook>`
	files["xl/_rels/workbook.xml.rels"] = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels.String() + `</Relationships>`
	files["xl/sharedStrings.xml"] = `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` + sst.String() + `</sst>`
	return testfs.Zip(testfs.Files(files)...)
}

// xmlText escapes s for XML text and attribute values.
func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func epubOf(t testing.TB, title string, chapters ...string) []byte {
	files := map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
	}
	var manifest, spine strings.Builder
	// The spine lists chapters in reverse file order to prove spine order wins.
	for i := range chapters {
		id := fmt.Sprintf("c%d", i)
		name := fmt.Sprintf("text/ch %d.xhtml", len(chapters)-i)
		fmt.Fprintf(&manifest, `<item id="%s" href="%s" media-type="application/xhtml+xml"/>`, id, strings.ReplaceAll(name, " ", "%20"))
		fmt.Fprintf(&spine, `<itemref idref="%s"/>`, id)
		files["OEBPS/"+name] = `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>` + chapters[i] + `</body></html>`
	}
	files["OEBPS/content.opf"] = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>` + title + `</dc:title><dc:creator>Ada</dc:creator></metadata><manifest>` + manifest.String() + `</manifest><spine>` + spine.String() + `</spine></package>`
	return testfs.Zip(testfs.Files(files)...)
}

// epubRaw builds an EPUB of a package document and chapters as given.
func epubRaw(t testing.TB, opf string, files map[string]string) []byte {
	f := map[string]string{
		"mimetype":               "application/epub+zip",
		"META-INF/container.xml": `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
		"OEBPS/content.opf":      opf,
	}
	for k, v := range files {
		f[k] = v
	}
	return testfs.Zip(testfs.Files(f)...)
}

// opfOf is a package document of the manifest and spine given.
func opfOf(manifest, spine string) string {
	return `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata><manifest>` + manifest + `</manifest><spine>` + spine + `</spine></package>`
}

// pdfOf writes a PDF with one page per string, each line drawn with
// Helvetica in its own text object, 14 points below the previous one.
func pdfOf(pages ...string) []byte {
	streams := make([]string, len(pages))
	for i, p := range pages {
		var content strings.Builder
		for j, line := range strings.Split(p, "\n") {
			line = strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(line)
			fmt.Fprintf(&content, "BT /F1 12 Tf 72 %d Td (%s) Tj ET\n", 720-14*j, line)
		}
		streams[i] = content.String()
	}
	return pdfRaw(streams...)
}

// pdfRaw writes a PDF with one page per content stream; /F1 is Helvetica
// with widths for the printable ASCII range (500 units each).
func pdfRaw(streams ...string) []byte { return pdfBuild(false, streams) }

// pdfFlate is pdfRaw with the content streams compressed (FlateDecode).
func pdfFlate(streams ...string) []byte { return pdfBuild(true, streams) }

// deflate compresses b as a FlateDecode stream holds it.
func deflate(b []byte) []byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

func pdfBuild(flate bool, streams []string) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.4\n")
	n := len(streams)
	kids := make([]string, n)
	for i := range streams {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [" +
		strings.TrimSpace(strings.Repeat("500 ", 95)) + "] >>")
	for i, content := range streams {
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 5+2*i))
		if flate {
			z := deflate([]byte(content))
			obj(fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(z), z))
			continue
		}
		obj(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content))
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// pdfXrefStream writes a PDF of the objects given (numbered from 1) and a
// cross-reference stream after them, of size entries of /W [1 4 2]: each
// object at its offset, then the entries of extra (object number to its 7
// bytes, type 2 for an object in an object stream); trailer is added to
// the stream's dictionary.
func pdfXrefStream(objs []string, extra map[int][]byte, size int, trailer string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	offs := map[int]int{}
	for i, o := range objs {
		offs[i+1] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := len(objs) + 1
	offs[x] = b.Len()
	var entries bytes.Buffer
	for i := range size {
		e := make([]byte, 7)
		if o, ok := offs[i]; ok {
			e[0] = 1
			binary.BigEndian.PutUint32(e[1:], uint32(o))
		}
		if x, ok := extra[i]; ok {
			e = x
		}
		entries.Write(e)
	}
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] %s /Length %d >>\nstream\n%s\nendstream\nendobj\n", x, size, trailer, entries.Len(), entries.Bytes())
	fmt.Fprintf(&b, "startxref\n%d\n%%%%EOF\n", offs[x])
	return b.Bytes()
}

// pdfBasic are the objects of a one-page PDF of "hello world" for
// pdfXrefStream: catalog, pages, page, content, font.
var pdfBasic = []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
	"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
	"<< /Length 44 >>\nstream\nBT /F1 12 Tf 72 720 Td (hello world) Tj ET\nendstream",
	"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}

// startxref returns the offset that the startxref of a PDF names.
func startxref(doc []byte) int {
	var off int
	fmt.Sscanf(string(doc[bytes.LastIndex(doc, []byte("startxref\n"))+len("startxref\n"):]), "%d", &off)
	return off
}

// cfbOf writes a version-3 compound file holding the given streams, each
// padded to at least 4096 bytes so that no mini stream is needed.
func cfbOf(streams map[string][]byte) []byte {
	const sec = 512
	const (
		free   = 0xFFFFFFFF
		end    = 0xFFFFFFFE
		fatsec = 0xFFFFFFFD
	)
	names := sortedKeys(streams)
	le := binary.LittleEndian
	// Sector 0: FAT, sector 1: directory, then the streams.
	fat := make([]uint32, sec/4)
	for i := range fat {
		fat[i] = free
	}
	fat[0], fat[1] = fatsec, end
	next := uint32(2)
	starts := map[string]uint32{}
	var data bytes.Buffer
	for _, n := range names {
		s := streams[n]
		if len(s) < 4096 {
			s = append(s, make([]byte, 4096-len(s))...)
		}
		if len(s)%sec != 0 {
			s = append(s, make([]byte, sec-len(s)%sec)...)
		}
		streams[n] = s
		starts[n] = next
		count := uint32(len(s) / sec)
		for i := range count {
			if i == count-1 {
				fat[next+i] = end
			} else {
				fat[next+i] = next + i + 1
			}
		}
		next += count
		data.Write(s)
	}
	hdr := make([]byte, sec)
	copy(hdr, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	le.PutUint16(hdr[0x18:], 0x3E)
	le.PutUint16(hdr[0x1A:], 3)
	le.PutUint16(hdr[0x1C:], 0xFFFE)
	le.PutUint16(hdr[0x1E:], 9)
	le.PutUint16(hdr[0x20:], 6)
	le.PutUint32(hdr[0x2C:], 1)    // FAT sectors
	le.PutUint32(hdr[0x30:], 1)    // first directory sector
	le.PutUint32(hdr[0x38:], 4096) // mini stream cutoff
	le.PutUint32(hdr[0x3C:], end)  // first mini FAT sector
	le.PutUint32(hdr[0x44:], end)  // first DIFAT sector
	for i := range 109 {
		le.PutUint32(hdr[0x4C+4*i:], free)
	}
	le.PutUint32(hdr[0x4C:], 0)

	dir := make([]byte, sec)
	entry := func(i int, name string, typ byte, child, right, start uint32, size int) {
		e := dir[i*128 : (i+1)*128]
		u := utf16.Encode([]rune(name))
		for j, c := range u {
			le.PutUint16(e[2*j:], c)
		}
		le.PutUint16(e[64:], uint16(2*len(u)+2))
		e[66], e[67] = typ, 1
		le.PutUint32(e[68:], free)
		le.PutUint32(e[72:], right)
		le.PutUint32(e[76:], child)
		le.PutUint32(e[116:], start)
		le.PutUint32(e[120:], uint32(size))
	}
	entry(0, "Root Entry", 5, 1, free, end, 0)
	for i, n := range names {
		right := uint32(free)
		if i+1 < len(names) {
			right = uint32(i + 2)
		}
		entry(i+1, n, 2, free, right, starts[n], len(streams[n]))
	}
	var out bytes.Buffer
	out.Write(hdr)
	for _, v := range fat {
		binary.Write(&out, le, v)
	}
	out.Write(dir)
	out.Write(data.Bytes())
	return out.Bytes()
}

// piece is one run of a .doc piece table.
type piece struct {
	text       string
	compressed bool // 8-bit (cp1252) rather than UTF-16
}

// docOf writes a Word 97 document whose main text is the pieces in order.
func docOf(pieces ...piece) []byte {
	le := binary.LittleEndian
	wd := make([]byte, 1024)
	le.PutUint16(wd[0:], fibIdent)
	le.PutUint16(wd[2:], 0x00C1)
	le.PutUint16(wd[0x0A:], fibFlagTable1)
	le.PutUint16(wd[32:], 14) // csw
	le.PutUint16(wd[62:], 22) // cslw
	le.PutUint16(wd[152:], 0x5D)
	var cps []uint32
	var pcds [][]byte
	cp := uint32(0)
	for _, p := range pieces {
		fc := uint32(len(wd))
		var n int
		if p.compressed {
			b := []byte(p.text) // the tests use ASCII in 8-bit pieces
			wd = append(wd, b...)
			n = len(b)
			fc = fc*2 | 0x40000000
		} else {
			u := utf16.Encode([]rune(p.text))
			for _, c := range u {
				wd = le.AppendUint16(wd, c)
			}
			n = len(u)
		}
		cps = append(cps, cp)
		cp += uint32(n)
		pcd := make([]byte, 8)
		le.PutUint32(pcd[2:], fc)
		pcds = append(pcds, pcd)
	}
	cps = append(cps, cp)
	le.PutUint32(wd[64+3*4:], cp) // ccpText
	var clx bytes.Buffer
	clx.Write([]byte{0x01, 0x02, 0x00, 0xAA, 0xBB}) // one Prc to skip
	clx.WriteByte(0x02)
	binary.Write(&clx, le, uint32(len(cps)*4+len(pcds)*8))
	for _, c := range cps {
		binary.Write(&clx, le, c)
	}
	for _, p := range pcds {
		clx.Write(p)
	}
	table := make([]byte, 16)
	fcClx := uint32(len(table))
	table = append(table, clx.Bytes()...)
	le.PutUint32(wd[154+fcClxIndex*4:], fcClx)
	le.PutUint32(wd[154+(fcClxIndex+1)*4:], uint32(clx.Len()))
	return cfbOf(map[string][]byte{"WordDocument": wd, "1Table": table})
}

// pptRec writes one PowerPoint record; a container's body is its children.
func pptRec(verInst, typ uint16, body []byte) []byte {
	out := binary.LittleEndian.AppendUint16(nil, verInst)
	out = binary.LittleEndian.AppendUint16(out, typ)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(body)))
	return append(out, body...)
}

func pptChars(s string) []byte {
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return pptRec(0, pptTextChars, b)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// pptOf writes a presentation with placeholder text in the slide list, a
// master, a slide with a text box, notes, and a record whose length runs
// past the end of the stream.
func pptOf() []byte {
	le := binary.LittleEndian
	header := func(t uint32) []byte { return pptRec(0, pptTextHeader, le.AppendUint32(nil, t)) }
	slwt := pptRec(0x000F, pptSlideListText, cat(
		pptRec(0, pptSlidePersist, make([]byte, 20)), header(pptTitle), pptChars("Deck"), header(1), pptRec(0, pptTextBytes, []byte("body\rsecond\vthird")),
		pptRec(0, pptSlidePersist, make([]byte, 20)), header(pptCTitle), pptChars("Zweite Folie ✓"),
	))
	doc := pptRec(0x000F, 0x03E8, slwt)
	master := pptRec(0x000F, pptMainMaster, pptChars("Click to edit Master title style"))
	slide := pptRec(0x000F, pptSlide, pptRec(0x000F, 0xF002, pptRec(0x000F, 0xF00D, pptChars("text box"))))
	notes := pptRec(0x000F, pptNotes, cat(pptChars("*"), pptChars("speaker note")))
	broken := []byte{0, 0, 0xA0, 0x0F, 0xF0, 0xFF, 0xFF, 0xFF, 'x', 0}
	stream := cat(doc, master, slide, notes, broken)
	return cfbOf(map[string][]byte{"PowerPoint Document": stream, "Current User": make([]byte, 64)})
}

// negRK is the RK encoding of the integer -3.
var negRK = func() uint32 { v := int32(-3); return uint32(v<<2) | 2 }()

// xlsOf writes a BIFF8 workbook with two worksheets and a chart sheet.
func xlsOf() []byte {
	le := binary.LittleEndian
	u16 := func(v ...int) []byte {
		var b []byte
		for _, x := range v {
			b = le.AppendUint16(b, uint16(x))
		}
		return b
	}
	f64 := func(v float64) []byte { return le.AppendUint64(nil, math.Float64bits(v)) }
	str := func(s string) []byte { return append(u16(len(s)), append([]byte{0}, s...)...) }
	sheet := func(name string, pos int) []byte {
		b := le.AppendUint32(nil, uint32(pos))
		return append(append(b, 0, 0, byte(len(name)), 0), name...)
	}
	chart := func(pos int) []byte { return append(le.AppendUint32(nil, uint32(pos)), 0, 2, 1, 0, 'C') }
	// Shared strings: "name" (8-bit), then "Größe ✓" whose characters
	// start 8-bit and continue 16-bit in a CONTINUE record.
	sst := cat(le.AppendUint32(nil, 2), le.AppendUint32(nil, 2), str("name"), u16(7), []byte{0}, []byte("Gr\xf6"))
	cont := cat([]byte{1}, u16('ß', 'e', ' ', '✓'))
	globals := func(p1, p2, p3 int) []byte {
		return biff(0x0809, make([]byte, 16),
			0x041E, cat(u16(164), str("yyyy-mm-dd")),
			0x00E0, cat(u16(0, 0), make([]byte, 16)), 0x00E0, cat(u16(0, 164), make([]byte, 16)), 0x00E0, cat(u16(0, 9), make([]byte, 16)),
			0x0022, u16(0),
			0x0085, sheet("Data", p1), 0x0085, chart(p3), 0x0085, sheet("Second", p2),
			0x00FC, sst, 0x003C, cont,
			0x000A, []byte{})
	}
	data := biff(0x0809, make([]byte, 16),
		0x00FD, cat(u16(0, 0, 0), le.AppendUint32(nil, 0)),
		0x00FD, cat(u16(0, 1, 0), le.AppendUint32(nil, 1)),
		0x0203, cat(u16(1, 0, 1), f64(44985)),
		0x027E, cat(u16(1, 1, 0), le.AppendUint32(nil, 7<<2|2)),
		0x00BD, cat(u16(2, 0), u16(0), le.AppendUint32(nil, 150<<2|3), u16(0), le.AppendUint32(nil, negRK), u16(1)),
		0x0205, cat(u16(2, 2, 0), []byte{1, 0}),
		0x0809, make([]byte, 16), 0x00FD, cat(u16(9, 9, 0), le.AppendUint32(nil, 0)), 0x000A, []byte{},
		0x0006, cat(u16(3, 0, 0), []byte{0, 0, 0, 0, 0, 0, 0xFF, 0xFF}, make([]byte, 6)),
		0x0207, str("calc"),
		0x0204, cat(u16(3, 1, 0), str("inline")),
		0x0006, cat(u16(3, 2, 0), []byte{2, 0, 7, 0, 0, 0, 0xFF, 0xFF}, make([]byte, 6)),
		0x000A, []byte{})
	second := biff(0x0809, make([]byte, 16), 0x000A, []byte{})
	g := len(globals(0, 0, 0))
	stream := cat(globals(g, g+len(data), g+len(data)+len(second)), data, second, biff(0x0809, make([]byte, 16), 0x000A, []byte{}))
	return cfbOf(map[string][]byte{"Workbook": stream})
}

// xlsSparse writes a sheet with cells at A1, IV1 and IV65536 only.
func xlsSparse() []byte {
	le := binary.LittleEndian
	u16 := func(v ...int) []byte {
		var b []byte
		for _, x := range v {
			b = le.AppendUint16(b, uint16(x))
		}
		return b
	}
	str := func(s string) []byte { return append(u16(len(s)), append([]byte{0}, s...)...) }
	globals := func(pos int) []byte {
		sheet := append(le.AppendUint32(nil, uint32(pos)), 0, 0, 1, 0, 'S')
		return biff(0x0809, make([]byte, 16), 0x0085, sheet, 0x000A, []byte{})
	}
	data := biff(0x0809, make([]byte, 16),
		0x0204, cat(u16(0, 0, 0), str("a")), 0x0204, cat(u16(0, 255, 0), str("b")), 0x0204, cat(u16(65535, 255, 0), str("z")),
		0x000A, []byte{})
	g := len(globals(0))
	return cfbOf(map[string][]byte{"Workbook": cat(globals(g), data)})
}

// xlsColumn writes an XLS of one sheet with a label "v" in column col of
// each of its first rows.
func xlsColumn(rows, col int) []byte {
	le := binary.LittleEndian
	u16 := func(v ...int) []byte {
		var b []byte
		for _, x := range v {
			b = le.AppendUint16(b, uint16(x))
		}
		return b
	}
	globals := func(pos int) []byte {
		sheet := append(le.AppendUint32(nil, uint32(pos)), 0, 0, 1, 0, 'S')
		return biff(0x0809, make([]byte, 16), 0x0085, sheet, 0x000A, []byte{})
	}
	recs := []any{0x0809, make([]byte, 16)}
	for r := range rows {
		recs = append(recs, 0x0204, cat(u16(r, col, 0), u16(1), []byte{0, 'v'}))
	}
	data := biff(append(recs, 0x000A, []byte{})...)
	g := len(globals(0))
	return cfbOf(map[string][]byte{"Workbook": cat(globals(g), data)})
}

// cfbNested writes a compound file whose directory holds n storages but
// no stream: each storage the child of the one before when self is
// false, else the first storage its own child and the others unlinked.
func cfbNested(n int, self bool) []byte {
	le := binary.LittleEndian
	const sec = 512
	dirSecs := (n + 1 + 3) / 4
	fatSecs := 1
	for (fatSecs+dirSecs+127)/128 > fatSecs {
		fatSecs++
	}
	// the FAT: its own sectors, then the directory's chain
	fat := make([]uint32, fatSecs*128)
	for i := range fat {
		fat[i] = 0xFFFFFFFF
	}
	for i := range fatSecs {
		fat[i] = 0xFFFFFFFD
	}
	for i := range dirSecs {
		fat[fatSecs+i] = uint32(fatSecs + i + 1)
	}
	fat[fatSecs+dirSecs-1] = 0xFFFFFFFE
	hdr := make([]byte, sec)
	copy(hdr, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	le.PutUint16(hdr[0x18:], 0x3E)
	le.PutUint16(hdr[0x1A:], 3)
	le.PutUint16(hdr[0x1C:], 0xFFFE)
	le.PutUint16(hdr[0x1E:], 9)
	le.PutUint16(hdr[0x20:], 6)
	le.PutUint32(hdr[0x2C:], uint32(fatSecs))
	le.PutUint32(hdr[0x30:], uint32(fatSecs)) // the first directory sector
	le.PutUint32(hdr[0x38:], 4096)
	le.PutUint32(hdr[0x3C:], 0xFFFFFFFE)
	le.PutUint32(hdr[0x44:], 0xFFFFFFFE)
	for i := range 109 {
		le.PutUint32(hdr[0x4C+4*i:], 0xFFFFFFFF)
		if i < fatSecs {
			le.PutUint32(hdr[0x4C+4*i:], uint32(i))
		}
	}
	dir := make([]byte, dirSecs*sec)
	for i := range dirSecs * 4 {
		e := dir[i*128 : (i+1)*128]
		for _, off := range []int{68, 72, 76} {
			le.PutUint32(e[off:], 0xFFFFFFFF)
		}
		if i > n {
			continue
		}
		name, typ, child := "d", byte(1), i+1
		switch {
		case i == 0:
			name, typ = "Root Entry", 5
		case self && i == 1:
			child = 1
		case self, i == n:
			child = -1
		}
		for j, c := range utf16.Encode([]rune(name)) {
			le.PutUint16(e[2*j:], c)
		}
		le.PutUint16(e[64:], uint16(2*len(name)+2))
		e[66], e[67] = typ, 1
		if child >= 0 {
			le.PutUint32(e[76:], uint32(child))
		}
		le.PutUint32(e[116:], 0xFFFFFFFE)
	}
	out := slices.Clone(hdr)
	for _, v := range fat {
		out = le.AppendUint32(out, v)
	}
	return append(out, dir...)
}
