package convert

import (
	"bytes"
	"context"
	"testing"
	"unicode/utf8"

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
		if err != nil {
			if errs.CodeOf(err) == "" {
				t.Fatalf("uncoded error %v", err)
			}
			return
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 output %q", out)
		}
	})
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
	fuzzConverter(f, c, pdfOf("a\nb", "c"))
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
