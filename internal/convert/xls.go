package convert

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/pbnjay/grate/xls"
)

// mergedMarks are the strings grate puts in the continuation cells of a
// merged range.
var mergedMarks = map[string]bool{"→": true, "⇥": true, "↓": true, "⤓": true}

// convertXLS renders each sheet of a BIFF8 workbook like convertXLSX.
//
// grate opens workbooks by file name only, so the bytes are copied to a
// private temporary file that is removed before returning.
func convertXLS(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	if c, ok := mislabelled(r, size); ok {
		return c(ctx, r, size)
	}
	tmp, err := os.CreateTemp("", "scout-*.xls")
	if err != nil {
		return "", fmt.Errorf("cannot create a temporary copy: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = io.Copy(tmp, io.NewSectionReader(r, 0, size))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("cannot create a temporary copy: %w", err)
	}
	wb, err := xls.Open(tmp.Name())
	if err != nil {
		return "", malformed("XLS", err)
	}
	defer wb.Close()
	names, err := wb.List()
	if err != nil {
		return "", malformed("XLS", err)
	}
	var out text
	for _, name := range names {
		sheet, err := wb.Get(name)
		if err != nil {
			return "", malformed("XLS", fmt.Errorf("sheet %q: %w", name, err))
		}
		var rows [][]string
		size := 0
		for n := 0; sheet.Next() && size <= MaxOutput; n++ {
			if n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return "", err
				}
			}
			row := sheet.Strings()
			for i, c := range row {
				if mergedMarks[c] {
					row[i] = ""
				}
				size += len(c) + 3
			}
			rows = append(rows, row)
		}
		if err := sheet.Err(); err != nil {
			return "", malformed("XLS", fmt.Errorf("sheet %q: %w", name, err))
		}
		writeSheet(&out, name, rows)
		if out.full() {
			break
		}
	}
	return out.result(), nil
}
