package convert

import (
	"bytes"
	"context"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// gridOf is how the XLS reader laid a sheet's cells out before sheetOf: a
// slot for every column of each row that holds a cell, every row up to
// the last unless the grid would be huge.
func gridOf(cells map[[2]int]string, maxRow, maxCol int) [][]string {
	if maxRow < 0 {
		return nil
	}
	byRow := map[int][]string{}
	for k, v := range cells {
		row := byRow[k[0]]
		if row == nil {
			row = make([]string, maxCol+1)
			byRow[k[0]] = row
		}
		row[k[1]] = v
	}
	var out [][]string
	if (maxRow+1)*(maxCol+1) <= xlsDenseCells {
		for r := 0; r <= maxRow; r++ {
			out = append(out, byRow[r])
		}
		return out
	}
	for _, r := range slices.Sorted(maps.Keys(byRow)) {
		out = append(out, byRow[r])
	}
	return out
}

// TestXLSSheetOf: sheetOf gives the text the former grid gave, on random
// sheets, dense and sparse, under several output caps.
func TestXLSSheetOf(t *testing.T) {
	defer func(n int) { outputCap = n }(outputCap)
	rng := rand.New(rand.NewPCG(1, 2))
	values := []string{"a", " ", "b c", "|x|", "line\nbreak", "  "}
	for i := range 300 {
		cells := map[[2]int]string{}
		maxRow, maxCol := -1, -1
		rows, cols := 1+rng.IntN(50), 1+rng.IntN(20)
		if i%5 == 0 { // sparse: the grid would be huge
			cells[[2]int{xlsMaxRow - 1, 16}] = "last"
			maxRow, maxCol = xlsMaxRow-1, 16
		}
		for range rng.IntN(60) {
			r, c := rng.IntN(rows), rng.IntN(cols)
			cells[[2]int{r, c}] = values[rng.IntN(len(values))]
			maxRow, maxCol = max(maxRow, r), max(maxCol, c)
		}
		for _, limit := range []int{MaxOutput, 200, 40} {
			outputCap = limit
			var want, got text
			writeSheet(&want, "S", denseTable(gridOf(cells, maxRow, maxCol)))
			writeSheet(&got, "S", sheetOf(cells, maxRow, maxCol))
			if got.String() != want.String() || got.full() != want.full() {
				t.Fatalf("sheet %d, cap %d: %v\ngot  %q\nwant %q", i, limit, cells, got.String(), want.String())
			}
		}
	}
}

// TestXLSSheetMemory: a sheet with a label at column IV of each row held
// 4 KiB a row (a slot for each of its 256 columns), 18 MiB for 4,500 rows
// and 256 MiB for 65,536, and its text was allocated 7 times over (see
// the XLSX test of A and XFD); only the cells are held now, the text
// allocated about once.
func TestXLSSheetMemory(t *testing.T) {
	data := xlsColumn(4500, 255)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := convertXLS(context.Background(), bytes.NewReader(data), int64(len(data)))
	runtime.ReadMemStats(&after)
	if err != nil || len(got) < 3<<20 {
		t.Fatalf("%d bytes, err = %v", len(got), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 12<<20 { // 47 MiB before, 5 now
		t.Errorf("allocated %d MiB for %d MiB of text, want at most 12 MiB", alloc>>20, len(got)>>20)
	}
}
