package notebook_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/scoutkit/scout/internal/notebook"
)

func ExampleRender() {
	text, err := notebook.Render(context.Background(), strings.NewReader(`{"nbformat":4,"cells":[
		{"cell_type":"markdown","source":["# Notes"]},
		{"cell_type":"code","source":["print(1)"],"outputs":[{"output_type":"stream","text":"1\n"}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(text)
	// Output:
	// # %% [markdown] cell:0
	// # Notes
	// # %% [code] cell:1
	// print(1)
}
