package tool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
)

// A host's tool loop: give the model the definitions, run each call it
// makes with Call, and show the model the Envelope's Text. Failures are
// error Envelopes too, with a Code to branch on and a Text that says how to
// fix the call.
func ExampleCall() {
	defs, err := tool.AnthropicTools(tool.Pi) // or tool.OpenAITools
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range defs {
		fmt.Println("tool:", d.Name, json.Valid(d.InputSchema))
	}

	cfg := tool.Config{FS: fstest.MapFS{
		"main.go": {Data: []byte("package main\n\n// TODO: flags\nfunc main() {}\n")},
	}}
	for _, call := range []struct{ name, args string }{
		{"find", `{"paths": ["**/*.go"]}`},
		{"search", `{"pattern": "TODO", "paths": ["."]}`},
		{"read", `{"path": "nope.go"}`},
		{"read", `{"path": 42}`},
	} {
		env := tool.Call(context.Background(), cfg, tool.Pi, call.name, []byte(call.args))
		fmt.Printf("%s %s: %s\n", call.name, env.Status, env.Text)
		if env.Status == scout.StatusError {
			fmt.Println("  code:", env.Error.Code)
		}
	}
	// Output:
	// tool: find true
	// tool: read true
	// tool: search true
	// find success: main.go
	// search success: # main.go#5CF7
	// 2:
	// *3:// TODO: flags
	// 4:func main() {}
	// read error: Path 'nope.go' not found
	//   code: NOT_FOUND
	// read error: Invalid argument 'path': must be a string, got a number 42.
	//   code: INVALID_PARAM
}
