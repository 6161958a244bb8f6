package convert

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/ledongthuc/pdf"
)

// convertPDF extracts the text of each page; pages are separated by a blank
// line. A PDF without a text layer (scanned images) gives an error that
// says so rather than an empty text.
func convertPDF(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	rd, err := pdf.NewReader(r, size)
	if err != nil {
		if strings.Contains(err.Error(), "encrypted") {
			return "", malformed("PDF", errors.New("the file is encrypted"))
		}
		return "", malformed("PDF", err)
	}
	var out text
	n := rd.NumPage()
	for i := 1; i <= n && !out.full(); i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		p := rd.Page(i)
		if p.V.IsNull() {
			// Count overstates the pages actually present.
			break
		}
		s, err := p.GetPlainText(nil) // nil: the page's own fonts

		if err != nil {
			return "", malformed("PDF", err)
		}
		out.WriteString(strings.TrimSpace(s) + "\n\n")
	}
	res := out.result()
	if res == "" {
		return "", malformed("PDF", errors.New("no text layer found (scanned images need OCR)"))
	}
	return res, nil
}
