package notebook

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkRender renders the test notebook (image outputs, few cells) and
// one of 2000 code and markdown cells.
func BenchmarkRender(b *testing.B) {
	small, err := os.ReadFile("testdata/analysis.ipynb")
	if err != nil {
		b.Fatal(err)
	}
	var big strings.Builder
	big.WriteString(`{"nbformat":4,"metadata":{},"cells":[`)
	for i := range 2000 {
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `{"cell_type":"code","metadata":{},"outputs":[{"output_type":"stream","text":["out %d\n"]}],"source":["x = %d\n","print(x)\n"]}`, i, i)
	}
	big.WriteString("]}")
	for _, nb := range []struct {
		name string
		data []byte
	}{{"small", small}, {"2000cells", []byte(big.String())}} {
		b.Run(nb.name, func(b *testing.B) {
			b.SetBytes(int64(len(nb.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Render(context.Background(), bytes.NewReader(nb.data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
