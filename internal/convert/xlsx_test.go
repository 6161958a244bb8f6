package convert

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestXLSXAgainstExcelize compares our reader with what the excelize-based
// reader printed (testdata/xlsx_excelize.txtar): the same text, or, where
// a "<fixture>.want" section exists, the text it gives for the reasons in
// "<fixture>.why".
func TestXLSXAgainstExcelize(t *testing.T) {
	a, err := txtar.ParseFile("testdata/xlsx_excelize.txtar")
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]map[string]string{} // fixture -> part -> XML
	sections := map[string]string{}         // "fixture.excelize", ".want", ".why"
	var fixtures []string
	for _, f := range a.Files {
		if dir, part, ok := strings.Cut(f.Name, "/"); ok {
			if parts[dir] == nil {
				parts[dir] = map[string]string{}
			}
			parts[dir][part] = string(f.Data)
			continue
		}
		sections[f.Name] = string(f.Data)
		if name, ok := strings.CutSuffix(f.Name, ".excelize"); ok {
			fixtures = append(fixtures, name)
		}
	}
	if len(fixtures) < 10 {
		t.Fatalf("only %d fixtures in xlsx_excelize.txtar", len(fixtures))
	}
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			var data []byte
			if strings.HasSuffix(name, ".xlsx") {
				data = mustRead(t, "testdata/"+name)
			} else {
				data = testfs.Zip(testfs.Files(parts[name])...)
			}
			got, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			want, ok := sections[name+".want"]
			if !ok {
				want = sections[name+".excelize"]
			} else if sections[name+".why"] == "" {
				t.Errorf("%s.want has no %s.why", name, name)
			}
			if got+"\n" != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

const (
	xlsxNS   = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	relsNS   = `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"`
	relsType = `http://schemas.openxmlformats.org/officeDocument/2006/relationships/`
)

// xlsxWith builds a workbook with one sheet "S" whose sheetData holds
// rows; parts in extra are added or replace the defaults. The workbook's
// relationships name xl/sharedStrings.xml and xl/styles.xml when extra
// holds them.
func xlsxWith(t testing.TB, rows string, extra map[string]string) []byte {
	t.Helper()
	rels := `<Relationship Id="rId1" Type="` + relsType + `worksheet" Target="worksheets/sheet1.xml"/>`
	if _, ok := extra["xl/sharedStrings.xml"]; ok {
		rels += `<Relationship Id="rId2" Type="` + relsType + `sharedStrings" Target="sharedStrings.xml"/>`
	}
	if _, ok := extra["xl/styles.xml"]; ok {
		rels += `<Relationship Id="rId3" Type="` + relsType + `styles" Target="styles.xml"/>`
	}
	files := map[string]string{
		"_rels/.rels":                `<Relationships ` + relsNS + `><Relationship Id="rId1" Type="` + relsType + `officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<workbook ` + xlsxNS + `><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships ` + relsNS + `>` + rels + `</Relationships>`,
		"xl/worksheets/sheet1.xml":   `<worksheet ` + xlsxNS + `><sheetData>` + rows + `</sheetData></worksheet>`,
	}
	for k, v := range extra {
		files[k] = v
	}
	return testfs.Zip(testfs.Files(files)...)
}

func sstOf(items ...string) string {
	return `<sst ` + xlsxNS + `>` + strings.Join(items, "") + `</sst>`
}

// stylesOf gives cell formats 0.. the number format ids, with custom codes.
func stylesOf(codes map[int]string, ids ...int) string {
	var b strings.Builder
	b.WriteString(`<styleSheet ` + xlsxNS + `><numFmts>`)
	for id, code := range codes {
		fmt.Fprintf(&b, `<numFmt numFmtId="%d" formatCode="%s"/>`, id, xmlText(code))
	}
	b.WriteString(`</numFmts><cellStyleXfs><xf numFmtId="14"/><xf numFmtId="14"/></cellStyleXfs><cellXfs>`)
	for _, id := range ids {
		fmt.Fprintf(&b, `<xf numFmtId="%d" xfId="0"><alignment wrapText="1"/></xf>`, id)
	}
	b.WriteString(`</cellXfs></styleSheet>`)
	return b.String()
}

func TestXLSXCells(t *testing.T) {
	wb1904 := func(v string) string {
		return `<workbook ` + xlsxNS + `><workbookPr date1904="` + v + `"/><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`
	}
	styles := stylesOf(map[int]string{164: `yyyy\-mm\-dd`, 165: `[h]:mm`, 166: `"hours"0`, 167: `0.0%`}, 0, 14, 22, 164, 165, 166, 167, 31)
	tests := []struct {
		reason string
		rows   string
		extra  map[string]string
		want   string // the table below "## S\n\n"
	}{
		{"a reference places the value in its column; missing cells are empty",
			`<row r="1"><c r="C1"><v>3</v></c><c r="A1"><v>1</v></c></row>`, nil,
			"| 1 |  | 3 |\n| --- | --- | --- |"},
		{"cells without a reference follow the previous cell",
			`<row r="1"><c r="B1"><v>2</v></c><c><v>3</v></c><c><v>4</v></c></row>`, nil,
			"|  | 2 | 3 | 4 |\n| --- | --- | --- | --- |"},
		{"lower-case references and two-letter columns are read",
			`<row r="1"><c r="a1"><v>1</v></c><c r="AB1"><v>28</v></c></row>`, nil,
			"| 1 |" + strings.Repeat("  |", 26) + " 28 |\n|" + strings.Repeat(" --- |", 28)},
		{"rows without a number follow the previous row; skipped rows are empty",
			`<row r="2"><c r="A2"><v>2</v></c></row><row><c r="A3"><v>3</v></c></row><row r="5"><c r="A5"><v>5</v></c></row>`, nil,
			"|  |\n| --- |\n| 2 |\n| 3 |\n|  |\n| 5 |"},
		{"a row given twice, out of order, is merged into its place",
			`<row r="2"><c r="A2"><v>2</v></c></row><row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="B2"><v>22</v></c></row>`, nil,
			"| 1 |  |\n| --- | --- |\n| 2 | 22 |"},
		{"empty rows at the end and styled cells without values do not count",
			`<row r="1"><c r="A1"><v>1</v></c><c r="D1" s="0"/></row><row r="2"><c r="A2" t="inlineStr"><is><t> </t></is></c></row><row r="9"/>`, nil,
			"| 1 |\n| --- |"},
		{"booleans, errors, formula strings, ISO dates, formulas without a cached value",
			`<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1" t="b"><v>0</v></c><c r="C1" t="e"><v>#N/A</v></c>` +
				`<c r="D1" t="str"><f>"a"&amp;"b"</f><v>ab</v></c><c r="E1" t="d"><v>2024-02-29T00:00:00</v></c><c r="F1"><f>1+1</f></c><c r="G1"><v>7</v></c></row>`, nil,
			"| TRUE | FALSE | #N/A | ab | 2024-02-29T00:00:00 |  | 7 |\n|" + strings.Repeat(" --- |", 7)},
		{"numbers keep 15 significant digits; a value that is not a number is shown as it is",
			`<row r="1"><c r="A1"><v>0.1</v></c><c r="B1"><v>0.30000000000000004</v></c><c r="C1"><v>1e20</v></c><c r="D1"><v>-2.5E-3</v></c><c r="E1" t="n"><v>n/a</v></c></row>`, nil,
			"| 0.1 | 0.3 | 1e+20 | -0.0025 | n/a |\n|" + strings.Repeat(" --- |", 5)},
		{"shared strings: plain, rich-text runs joined, phonetic guides left out, _xHHHH_ escapes decoded, pipes escaped",
			`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v> 2 </v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>`,
			map[string]string{"xl/sharedStrings.xml": sstOf(`<si><t>plain</t></si>`,
				`<si><r><rPr><b/></rPr><t>bo</t></r><r><t xml:space="preserve">ld </t></r><r><t>text</t></r></si>`,
				`<si><t>東京</t><rPh sb="0" eb="2"><t>とうきょう</t></rPh><phoneticPr fontId="0"/></si>`,
				`<si><t>a_x000A_b_x005F_x0041_</t></si>`, `<si><t>x|y</t></si>`)},
			"| plain | bold text | 東京 | a<br>b_x0041_ | x\\|y |\n|" + strings.Repeat(" --- |", 5)},
		{"inline strings, plain and rich",
			`<row r="1"><c r="A1" t="inlineStr"><is><t>in</t></is></c><c r="B1" t="inlineStr"><is><r><t>ri</t></r><r><rPr><i/></rPr><t>ch</t></r></is></c></row>`, nil,
			"| in | rich |\n| --- | --- |"},
		{"dates in the 1900 system by built-in and custom formats; percentages; other formats plain",
			`<row r="1"><c r="A1" s="1"><v>45351</v></c><c r="B1" s="2"><v>45351.75</v></c><c r="C1" s="3"><v>1</v></c><c r="D1" s="4"><v>0.5</v></c>` +
				`<c r="E1" s="5"><v>8</v></c><c r="F1" s="6"><v>0.075</v></c><c r="G1" s="7"><v>45351</v></c><c r="H1" s="0"><v>45351</v></c><c r="I1" s="40"><v>45351</v></c></row>`,
			map[string]string{"xl/styles.xml": styles},
			"| 2024-02-29 | 2024-02-29 18:00:00 | 1900-01-01 | 12:00:00 | 8 | 7.5% | 2024-02-29 | 45351 | 45351 |\n|" + strings.Repeat(" --- |", 9)},
		{"dates in the 1904 system (date1904=\"1\")",
			`<row r="1"><c r="A1" s="1"><v>0</v></c><c r="B1" s="1"><v>43889</v></c></row>`,
			map[string]string{"xl/styles.xml": styles, "xl/workbook.xml": wb1904("1")},
			"| 1904-01-01 | 2024-02-29 |\n| --- | --- |"},
		{"date1904=\"false\" keeps the 1900 system",
			`<row r="1"><c r="A1" s="1"><v>45351</v></c></row>`,
			map[string]string{"xl/styles.xml": styles, "xl/workbook.xml": wb1904("false")},
			"| 2024-02-29 |\n| --- |"},
		{"a sheet whose grid would be huge keeps only the rows with values, as the XLS reader does",
			`<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="BB1048576"><v>2</v></c></row>`, nil,
			"| 1 |" + strings.Repeat("  |", 53) + "\n|" + strings.Repeat(" --- |", 54) + "\n|" + strings.Repeat("  |", 53) + " 2 |"},
		{"a sheet whose grid is not huge keeps its empty rows",
			`<row r="1"><c r="A1"><v>1</v></c></row><row r="3"><c r="B3"><v>2</v></c></row>`, nil,
			"| 1 |  |\n| --- | --- |\n|  |  |\n|  | 2 |"},
		{"stray end tags neither stop the part nor the row",
			"", map[string]string{"xl/worksheets/sheet1.xml": `</x></y><worksheet><sheetData><row r="1"></b><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c></row></sheetData></worksheet>`},
			"| 1 | 2 |\n| --- | --- |"},
		{"a sheet without a name is named by its position",
			`<row r="1"><c r="A1"><v>1</v></c></row>`,
			map[string]string{"xl/workbook.xml": `<workbook ` + xlsxNS + `><sheets><sheet name="S" r:id="rId1"/><sheet name=" " r:id="rId1"/></sheets></workbook>`},
			"| 1 |\n| --- |\n\n## (sheet 2, without a name)\n\n| 1 |\n| --- |"},
		{"a shared string cell without an index is empty",
			`<row r="1"><c r="A1" t="s"/><c r="B1" t="s"><v></v></c><c r="C1"><v>3</v></c></row>`, nil,
			"|  |  | 3 |\n| --- | --- | --- |"},
		{"a chart sheet (no sheetData) is an empty sheet",
			"", map[string]string{"xl/worksheets/sheet1.xml": `<chartsheet ` + xlsxNS + `><sheetPr/><drawing r:id="rId1"/></chartsheet>`},
			"(empty sheet)"},
		{"prefixed element names (x:row, x:c) and strict OOXML relationship types are read",
			"", map[string]string{
				"_rels/.rels":   `<Relationships ` + relsNS + `><Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" Target="/book/main.xml"/></Relationships>`,
				"book/main.xml": `<x:workbook xmlns:x="http://purl.oclc.org/ooxml/spreadsheetml/main" xmlns:r="r"><x:sheets><x:sheet name="S" r:id="a"/></x:sheets></x:workbook>`,
				"book/_rels/main.xml.rels": `<Relationships ` + relsNS + `><Relationship Id="a" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet" Target="../sheets/one.xml"/>` +
					`<Relationship Id="b" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/sharedStrings" Target="strings.xml"/></Relationships>`,
				"book/strings.xml": `<x:sst xmlns:x="x"><x:si><x:t>shared</x:t></x:si></x:sst>`,
				"sheets/one.xml":   `<x:worksheet xmlns:x="x"><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
			},
			"| shared |\n| --- |"},
		{"XML entities and CDATA in text",
			`<row r="1"><c r="A1" t="inlineStr"><is><t>a &amp; b &lt;c&gt; &#x263A;</t></is></c><c r="B1" t="inlineStr"><is><t><![CDATA[<raw>]]></t></is></c></row>`, nil,
			"| a & b <c> ☺ | <raw> |\n| --- | --- |"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			data := xlsxWith(t, tt.rows, tt.extra)
			got, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			if want := "## S\n\n" + tt.want; got != want {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", tt.reason, got, want)
			}
		})
	}
}

func TestXLSXErrors(t *testing.T) {
	cell := func(c string) string { return `<row r="1">` + c + `</row>` }
	nested := strings.Repeat("<x>", 300) + strings.Repeat("</x>", 300)
	tests := []struct {
		reason string
		data   func(t testing.TB) []byte
		code   errs.Code
		want   string // substring of the message
	}{
		{"not a zip", func(testing.TB) []byte { return []byte("not a workbook") }, errs.Unsupported, "not a valid XLSX document: not a valid zip file"},
		{"a zip without a workbook part", func(t testing.TB) []byte { return testfs.Zip(testfs.Files(map[string]string{"a.xml": "<a/>"})...) },
			errs.Unsupported, "missing part xl/workbook.xml"},
		{"a workbook without sheets", func(t testing.TB) []byte {
			return xlsxWith(t, "", map[string]string{"xl/workbook.xml": `<workbook ` + xlsxNS + `><sheets/></workbook>`})
		}, errs.Unsupported, "xl/workbook.xml lists no sheets"},
		{"a sheet whose relationship is missing", func(t testing.TB) []byte {
			return xlsxWith(t, "", map[string]string{"xl/_rels/workbook.xml.rels": `<Relationships ` + relsNS + `/>`})
		}, errs.Unsupported, `sheet "S": its relationship "rId1" is not in xl/_rels/workbook.xml.rels`},
		{"a sheet whose part is missing", func(t testing.TB) []byte {
			b := xlsxWith(t, "", nil)
			return renamePart(t, b, "xl/worksheets/sheet1.xml", "xl/worksheets/other.xml")
		}, errs.Unsupported, `sheet "S": missing part xl/worksheets/sheet1.xml`},
		{"the shared strings part is named but missing", func(t testing.TB) []byte {
			b := xlsxWith(t, "", map[string]string{"xl/sharedStrings.xml": sstOf()})
			return renamePart(t, b, "xl/sharedStrings.xml", "xl/gone.xml")
		}, errs.Unsupported, "missing part xl/sharedStrings.xml"},
		{"a reference that starts with the row", func(t testing.TB) []byte { return xlsxWith(t, cell(`<c r="1A"><v>1</v></c>`), nil) },
			errs.Unsupported, `sheet "S": bad cell reference "1A" (want a column and a row, like C7)`},
		{"a reference without a row", func(t testing.TB) []byte { return xlsxWith(t, cell(`<c r="AB"><v>1</v></c>`), nil) },
			errs.Unsupported, `bad cell reference "AB"`},
		{"a reference with huge column letters", func(t testing.TB) []byte {
			return xlsxWith(t, cell(`<c r="`+strings.Repeat("Z", 1000)+`1"><v>1</v></c>`), nil)
		}, errs.Unsupported, `cell "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ..." lies beyond the last column XFD`},
		{"the column after XFD", func(t testing.TB) []byte { return xlsxWith(t, cell(`<c r="XFE1"><v>1</v></c>`), nil) },
			errs.Unsupported, `cell "XFE1" lies beyond the last column XFD`},
		{"more cells without references than columns", func(t testing.TB) []byte {
			return xlsxWith(t, cell(`<c r="XFD1"><v>1</v></c><c><v>2</v></c>`), nil)
		}, errs.Unsupported, "row 1 has more than 16384 cells"},
		{"row number 0", func(t testing.TB) []byte { return xlsxWith(t, `<row r="0"/>`, nil) },
			errs.Unsupported, `bad row number "0" (want 1 to 1048576)`},
		{"a row number past Excel's last row", func(t testing.TB) []byte { return xlsxWith(t, `<row r="1048577"/>`, nil) },
			errs.Unsupported, `bad row number "1048577"`},
		{"a row number that is not a number", func(t testing.TB) []byte { return xlsxWith(t, `<row r="+3"/>`, nil) },
			errs.Unsupported, `bad row number "+3"`},
		{"a cell outside a row", func(t testing.TB) []byte { return xlsxWith(t, `<c r="A1"><v>1</v></c>`, nil) },
			errs.Unsupported, "a cell outside a row"},
		{"a shared string index past the table", func(t testing.TB) []byte {
			return xlsxWith(t, cell(`<c r="B1" t="s"><v>7</v></c>`), map[string]string{"xl/sharedStrings.xml": sstOf(`<si><t>a</t></si>`)})
		}, errs.Unsupported, `cell B1: shared string "7" does not exist (the workbook has 1)`},
		{"a negative shared string index", func(t testing.TB) []byte { return xlsxWith(t, cell(`<c r="A1" t="s"><v>-1</v></c>`), nil) },
			errs.Unsupported, `cell A1: shared string "-1" does not exist (the workbook has 0)`},
		{"XML nested deeper than 256 elements", func(t testing.TB) []byte { return xlsxWith(t, cell(`<c r="A1">`+nested+`</c>`), nil) },
			errs.Unsupported, "part xl/worksheets/sheet1.xml nests elements more than 256 deep"},
		{"a sheet cut short inside an element", func(t testing.TB) []byte {
			return xlsxWith(t, "", map[string]string{"xl/worksheets/sheet1.xml": `<worksheet><sheetData><row r="1"><c r="A1"><v>1`})
		}, errs.Unsupported, `sheet "S": `},
		{"an encrypted workbook (an OLE file with EncryptionInfo)", func(testing.TB) []byte {
			return cfbOf(map[string][]byte{"EncryptionInfo": []byte("\x04\x00\x04\x00"), "EncryptedPackage": []byte("x")})
		}, errs.Unsupported, "the workbook is encrypted"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			data := tt.data(t)
			out, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
			if errs.CodeOf(err) != tt.code || !strings.Contains(fmt.Sprint(err), tt.want) {
				t.Fatalf("%s: got %q, %v (%s); want %s %q", tt.reason, out, err, errs.CodeOf(err), tt.code, tt.want)

			}
		})
	}
}

// renamePart returns the zip b with one entry renamed.
func renamePart(t testing.TB, b []byte, from, to string) []byte {
	t.Helper()
	files := zipParts(t, b)
	if data, ok := files[from]; ok {
		delete(files, from)
		files[to] = data
	}
	return testfs.Zip(testfs.Files(files)...)
}

// zipParts returns the entries of the zip b by name.
func zipParts(t testing.TB, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = string(data)
	}
	return files
}

// zipBomb returns the zip b with part replaced by head and then spaces up
// to size inflated bytes. The deflate stream repeats one compressed block
// of spaces, so that building it costs little.
func zipBomb(t testing.TB, b []byte, part, head string, size int) []byte {
	t.Helper()
	const chunk = 1 << 20
	var block bytes.Buffer
	fw, _ := flate.NewWriter(&block, flate.BestCompression)
	fw.Write(bytes.Repeat([]byte(" "), chunk))
	fw.Flush() // ends the block on a byte boundary, so that copies of it follow one another
	var stream bytes.Buffer
	fw, _ = flate.NewWriter(&stream, flate.BestCompression)
	fw.Write([]byte(head))
	fw.Flush()
	for range size / chunk {
		stream.Write(block.Bytes())
	}
	fw, _ = flate.NewWriter(&stream, flate.BestCompression)
	fw.Close() // the final, empty block

	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		if f.Name == part {
			w, err := zw.CreateRaw(&zip.FileHeader{Name: part, Method: zip.Deflate,
				CompressedSize64: uint64(stream.Len()), UncompressedSize64: uint64(len(head) + size/chunk*chunk)})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(stream.Bytes())
			continue
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestXLSXBounds(t *testing.T) {
	t.Run("a row of 10,000 cells is read whole", func(t *testing.T) {
		var row strings.Builder
		row.WriteString(`<row r="1">`)
		for i := range 10000 {
			fmt.Fprintf(&row, `<c><v>%d</v></c>`, i)
		}
		row.WriteString(`</row><row r="2"><c r="NTP2"><v>last</v></c></row>`) // NTP is column 10,000
		data := xlsxWith(t, row.String(), nil)
		got, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(got, "\n")
		if len(lines) != 5 || !strings.HasPrefix(lines[2], "| 0 | 1 | 2 |") || !strings.HasSuffix(lines[2], "| 9999 |") ||
			!strings.HasSuffix(lines[4], "|  | last |") || strings.Count(lines[4], "|") != 10001 {
			t.Errorf("the 10,000-column table is wrong: %d lines, %.80q ... %.80q", len(lines), lines[2], lines[len(lines)-1])
		}
	})
	t.Run("cells at column XFD on many rows stop the sheet past MaxOutput, with the notice, and later sheets are left out", func(t *testing.T) {
		rows := strings.Repeat(`<row><c r="XFD1"><v>1</v></c></row>`, 2000)
		data := xlsxWith(t, rows, map[string]string{
			"xl/workbook.xml": `<workbook ` + xlsxNS + `><sheets><sheet name="S" sheetId="1" r:id="rId1"/><sheet name="Later" sheetId="2" r:id="rId1"/></sheets></workbook>`,
		})
		got, err := run(t, ".xlsx", data)
		var part *errs.Partial
		if !errors.As(err, &part) || part.Reason != "conversion stopped after 16.0MB of text; the rest of the document is not shown" {
			t.Fatalf("err = %v, want a *errs.Partial", err)
		}
		if len(got) < MaxOutput-1000 || len(got) > MaxOutput || strings.Contains(got, "## Later") {
			t.Errorf("got %d bytes ending %q; want about %d bytes, no second sheet", len(got), got[max(0, len(got)-80):], MaxOutput)
		}
	})
	// A row was held as a slot for each of its columns: rows with cells at
	// A and XFD took 16,384 slots (16 bytes each) for 49 KB of text, 14
	// times the text allocated (177 MiB of heap for 16 MiB); only the
	// cells are held now. The text was then allocated about 7 times over:
	// a string for each cell written, a copy at each growth of the output
	// and one more to tidy it; now once.
	t.Run("rows with cells at A and XFD allocate in proportion to their text", func(t *testing.T) {
		outputCap = 2 << 20
		t.Cleanup(func() { outputCap = MaxOutput })
		data := xlsxWith(t, strings.Repeat(`<row><c r="A1"><v>1</v></c><c r="XFD1"><v>2</v></c></row>`, 20000), nil)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
		runtime.ReadMemStats(&after)
		var part *errs.Partial
		if !errors.As(err, &part) || len(got) < outputCap-100 || !strings.HasPrefix(got, "## S\n\n| 1 |  |  |") {
			t.Fatalf("%d bytes, err = %v; want the cap's and an *errs.Partial", len(got), err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*uint64(outputCap) {
			t.Errorf("allocated %.1f MiB for %.1f MiB of text, want at most twice it", float64(alloc)/(1<<20), float64(len(got))/(1<<20))
		}
	})
	t.Run("sheets past the 10,000th are counted, not read", func(t *testing.T) {
		data := xlsxWith(t, `<row r="1"><c r="A1"><v>1</v></c></row>`, map[string]string{
			"xl/workbook.xml": `<workbook ` + xlsxNS + `><sheets>` + strings.Repeat(`<sheet name="S" r:id="rId1"/>`, xlsxMaxSheets+5) + `</sheets></workbook>`,
		})
		got, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
		var part *errs.Partial
		if !errors.As(err, &part) || part.Reason != "5 more sheets not shown: at most 10000 are read" {
			t.Fatalf("err = %v, want a *errs.Partial", err)
		}
		if n := strings.Count(got, "## S\n\n| 1 |\n| --- |"); n != xlsxMaxSheets {
			t.Errorf("%d sheets shown, output ends %q", n, got[max(0, len(got)-80):])
		}
	})
	t.Run("the workbook's inflation budget covers all its parts", func(t *testing.T) {
		defer func(n int64) { maxInflate = n }(maxInflate)
		maxInflate = 1100 // enough for the relationships, the workbook and the first row, not for the whole sheet
		data := xlsxWith(t, `<row r="1"><c r="A1"><v>1</v></c></row>`+strings.Repeat(`<row><c><v>2</v></c></row>`, 100), nil)
		got, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
		var part *errs.Partial
		if !errors.As(err, &part) || part.Reason != "reading stopped in part xl/worksheets/sheet1.xml after the document's parts inflated to 1.1KB (Scout inflates at most that much of a document); the rest of the document is not shown" {
			t.Errorf("err = %v, want a *errs.Partial for the budget", err)
		}
		if !strings.HasPrefix(got, "## S\n\n| 1 |\n| --- |\n| 2 |") {
			t.Errorf("got %q, want the rows read", got)
		}
	})
	t.Run("a sheet that inflates past the cap on one part (a zip bomb) is refused", func(t *testing.T) {
		data := zipBomb(t, xlsxWith(t, "", nil), "xl/worksheets/sheet1.xml", `<worksheet><sheetData>`, 4<<20)
		if len(data) > 64<<10 {
			t.Fatalf("the bomb takes %d bytes", len(data))
		}
		p, err := openPkg(context.Background(), "XLSX", bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		b := &xlsxBook{p: p, partCap: 1 << 20} // maxPart (64 MiB) works alike, slowly under -race
		err = b.load()
		if err == nil {
			_, err = b.sheetRows(b.sheets[0].part)
		}
		if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "Archive entry 'xl/worksheets/sheet1.xml' decompresses to more than 1.0MB") {
			t.Errorf("err = %v (%s), want TOO_LARGE for the part", err, errs.CodeOf(err))
		}
	})
	t.Run("a canceled context stops a sheet being streamed", func(t *testing.T) {
		data := xlsxWith(t, strings.Repeat(`<row><c><v>1</v></c></row>`, 5000), nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := convertXLSX(ctx, bytes.NewReader(data), int64(len(data)))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestXLSXMislabelled(t *testing.T) {
	got, err := run(t, ".xlsx", mustRead(t, "testdata/basic.xls"))
	if want := strings.TrimRight(string(mustRead(t, "testdata/xls.golden")), "\n"); err != nil || got != want {
		t.Errorf("an Excel 97-2003 workbook saved as .xlsx: got %q, %v; want it read as XLS:\n%s", got, err, want)
	}
}

// TestXLSXThroughFS converts a real workbook opened the way read opens
// files, from an fstest.MapFS and from a real directory.
func TestXLSXThroughFS(t *testing.T) {
	data := mustRead(t, "testdata/xlsx_grate_basic.xlsx")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.xlsx"), data, 0o444); err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{"b.xlsx": &fstest.MapFile{Data: data, Mode: 0o444}}
	for name, fsys := range map[string]fs.FS{"MapFS": m, "TempDir": os.DirFS(dir)} {
		t.Run(name, func(t *testing.T) {
			ra, err := fsx.OpenReaderAt(fsys, "b.xlsx", 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			defer ra.Close()
			c, _ := For(".xlsx")
			got, err := c.Convert(context.Background(), ra, ra.Size())
			if err != nil || !strings.Contains(got, "| 4 | Tests | 2.4e-08 | 0.0001 |") {
				t.Errorf("got %q, %v", got, err)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b.xlsx")); err != nil || !bytes.Equal(b, data) {
		t.Error("the workbook changed")
	}
}

// FuzzXLSXParts fuzzes the XML of a workbook's parts (FuzzXLSX fuzzes the
// zip bytes, whose checksums turn most changes into a zip error).
func FuzzXLSXParts(f *testing.F) {
	f.Add(`<workbook><workbookPr date1904="1"/><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`,
		`<row r="2"><c r="B2" s="1"><v>45000.5</v></c><c t="inlineStr"><is><r><t>a_x000D_</t></r></is></c><c r="D2" t="s"><v>0</v></c><c r="E2" t="b"><v>1</v></c></row><row><c r="XFD3"><v>1</v></c></row>`,
		`<sst><si><t>x</t><rPh><t>y</t></rPh></si><si><r><t>a</t></r><r><t>b</t></r></si></sst>`,
		stylesOf(map[int]string{164: "yyyy", 165: `"d"0`}, 0, 22, 164, 165))
	f.Fuzz(func(t *testing.T, workbook, rows, sst, styles string) {
		data := xlsxWith(t, rows, map[string]string{"xl/workbook.xml": workbook, "xl/sharedStrings.xml": sst, "xl/styles.xml": styles})
		out, err := convertXLSX(context.Background(), bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if errs.CodeOf(err) != errs.Unsupported {
				t.Fatalf("error %v has code %s, want UNSUPPORTED", err, errs.CodeOf(err))
			}
			return
		}
		if !strings.HasPrefix(out, "## ") {
			t.Fatalf("output %.80q does not start with a sheet", out)
		}
	})
}
