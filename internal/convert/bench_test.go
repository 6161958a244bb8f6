package convert

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkConvert converts ordinary documents of each format: the speed
// the bounds on hostile input must not cost.
func BenchmarkConvert(b *testing.B) {
	var body strings.Builder
	for i := range 500 {
		fmt.Fprintf(&body, `<w:p><w:pPr><w:pStyle w:val="berschrift1"/></w:pPr><w:r><w:t>Heading %d</w:t></w:r></w:p>`, i)
		body.WriteString(`<w:p><w:r><w:t xml:space="preserve">Some text of a paragraph with </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:t>a link</w:t></w:r></w:hyperlink><w:r><w:t> and more words after it.</w:t></w:r></w:p>`)
		if i%10 == 0 {
			body.WriteString(`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr>` +
				`<w:tr><w:tc><w:p><w:r><w:t>1</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>2</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`)
		}
	}
	var slides []string
	for i := range 100 {
		slides = append(slides, pptxShape("title", fmt.Sprint("Slide ", i))+pptxShape("body", "First point\nSecond point\nThird point"))
	}
	rows := make([][]any, 2000)
	for i := range rows {
		rows[i] = []any{fmt.Sprint("name ", i), float64(i), i%2 == 0}
	}
	var pages []string
	for i := range 50 {
		var p strings.Builder
		for j := range 45 {
			fmt.Fprintf(&p, "Page %d line %d: the quick brown fox jumps over the lazy dog\n", i, j)
		}
		pages = append(pages, p.String())
	}
	var chapters []string
	for i := range 20 {
		chapters = append(chapters, fmt.Sprintf("<h1>Chapter %d</h1>", i)+strings.Repeat("<p>Some prose of the chapter, with <em>emphasis</em>.</p>", 100))
	}
	rtf := `{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}` + strings.Repeat(`\pard\f0\fs24 Hello \b bold\b0  world, caf\'e9 na\u239?ve.\par `, 5000) + `}`
	docs := []struct {
		ext  string
		data []byte
	}{
		{".docx", docxOf(b, body.String())},
		{".pptx", pptxOf(b, slides, nil)},
		{".xlsx", xlsxOf(b, map[string][][]any{"Sheet": rows})},
		{".pdf", pdfOf(pages...)},
		{".epub", epubOf(b, "Book", chapters...)},
		{".rtf", []byte(rtf)},
	}
	for _, d := range docs {
		b.Run(d.ext[1:], func(b *testing.B) {
			b.SetBytes(int64(len(d.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := run(b, d.ext, d.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHostileMarkup converts documents whose 60 MB XML part of
// empty elements deflates to 100 KB, with the markup bound ("after") and
// without it ("before"), side by side: each bounded conversion stops after
// 2 Mi tags and attributes with a notice.
func BenchmarkHostileMarkup(b *testing.B) {
	const n = 60 << 20
	docs := []struct {
		name, ext string
		data      []byte
	}{
		{"docx-empty-paragraphs", ".docx", docxOf(b, strings.Repeat("<w:p/>", n/6))},
		{"pptx-empty-shapes", ".pptx", pptxOf(b, []string{strings.Repeat("<p:sp/>", n/7)}, nil)},
		{"xlsx-empty-cells", ".xlsx", xlsxWith(b, `<row r="1">`+strings.Repeat(`<c r="A1"/>`, n/11)+`</row>`, nil)},
	}
	for _, d := range docs {
		for _, bound := range []string{"before", "after"} {
			b.Run(d.name+"/"+bound, func(b *testing.B) {
				if bound == "before" {
					defer func(n int64) { markupBase = n }(markupBase)
					markupBase = 1 << 62
				}
				b.ReportAllocs()
				for b.Loop() {
					run(b, d.ext, d.data)
				}
			})
		}
	}
}
