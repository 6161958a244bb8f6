package convert

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"
)

// convertXLSX renders each sheet as "## Name" and a markdown table whose
// header is the sheet's first row. Cells show their formatted values.
func convertXLSX(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	f, err := excelize.OpenReader(io.NewSectionReader(r, 0, size), excelize.Options{
		UnzipSizeLimit:    8 * maxPart,
		UnzipXMLSizeLimit: maxPart,
	})
	if err != nil {
		return "", malformed("XLSX", err)
	}
	defer f.Close()
	var out text
	for _, name := range f.GetSheetList() {
		rows, err := xlsxRows(ctx, f, name)
		if err != nil {
			return "", err
		}
		writeSheet(&out, name, rows)
		if out.full() {
			break
		}
	}
	return out.result(), nil
}

func xlsxRows(ctx context.Context, f *excelize.File, sheet string) ([][]string, error) {
	it, err := f.Rows(sheet)
	if err != nil {
		return nil, malformed("XLSX", fmt.Errorf("sheet %q: %w", sheet, err))
	}
	defer it.Close()
	var rows [][]string
	size := 0
	for n := 0; it.Next(); n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		cols, err := it.Columns()
		if err != nil {
			return nil, malformed("XLSX", fmt.Errorf("sheet %q: %w", sheet, err))
		}
		rows = append(rows, cols)
		for _, c := range cols {
			size += len(c) + 3
		}
		if size > MaxOutput {
			break
		}
	}
	if err := it.Error(); err != nil {
		return nil, malformed("XLSX", fmt.Errorf("sheet %q: %w", sheet, err))
	}
	return rows, nil
}

// writeSheet writes "## name" and the rows as a markdown table, leaving out
// empty rows at the end; an empty sheet is shown as "(empty sheet)".
func writeSheet(out *text, name string, rows [][]string) {
	for len(rows) > 0 && strings.TrimSpace(strings.Join(rows[len(rows)-1], "")) == "" {
		rows = rows[:len(rows)-1]
	}
	out.WriteString("## " + name + "\n\n")
	if len(rows) == 0 {
		out.WriteString("(empty sheet)\n\n")
		return
	}
	out.WriteString(mdTable(rows) + "\n")
}
