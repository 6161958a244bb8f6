// Command agentloop is a minimal agent loop over Scout's pi toolset. A
// scripted model stands in for an LLM: each turn it answers with tool
// calls (a name and JSON arguments, as the model APIs deliver them); the
// loop runs them with tool.Call, shows the model each Envelope's text,
// and stops when the model answers without a tool call.
//
//	go run ./examples/agentloop [-root DIR]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
)

func main() {
	root := flag.String("root", ".", "the project directory")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, tool.Config{Root: *root}, &scripted{}); err != nil {
		fmt.Fprintln(os.Stderr, "agentloop:", err)
		os.Exit(1)
	}
}

// toolCall is one call a model asked for.
type toolCall struct {
	Name      string
	Arguments json.RawMessage
}

// toolResult is what the model is shown for a call.
type toolResult struct {
	Call    toolCall
	Text    string
	IsError bool
}

// model is the LLM side: given the tools offered and the results of its
// previous calls, it returns the next calls, or none and its answer.
type model interface {
	Next(tools []tool.OpenAITool, results []toolResult) (calls []toolCall, answer string)
}

// maxTurns bounds a conversation whose model never stops calling tools.
const maxTurns = 10

func run(ctx context.Context, w io.Writer, cfg tool.Config, m model) error {
	// The definitions an OpenAI-style API takes ("tools": [...]);
	// tool.AnthropicTools gives the Anthropic shape.
	defs, err := tool.OpenAITools(tool.Pi)
	if err != nil {
		return err
	}
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Function.Name
	}
	fmt.Fprintf(w, "tools offered: %s\n", strings.Join(names, ", "))

	var results []toolResult
	for turn := 1; turn <= maxTurns; turn++ {
		calls, answer := m.Next(defs, results)
		if len(calls) == 0 {
			fmt.Fprintf(w, "\nmodel: %s\n", answer)
			return nil
		}
		for _, c := range calls {
			env := tool.Call(ctx, cfg, tool.Pi, c.Name, c.Arguments)
			fmt.Fprintf(w, "\n[turn %d] %s %s -> %s\n%s\n", turn, c.Name, c.Arguments, env.Status, env.Text)
			results = append(results, toolResult{Call: c, Text: env.Text, IsError: env.Status == scout.StatusError})
		}
	}
	return errors.New("the model was still calling tools after the last turn")
}

// scripted plays a model that looks for TODO comments: it lists the Go
// files, searches them, reads the first hit, and makes one mistake on the
// way (a wrong argument type), which it corrects from the error text.
type scripted struct{}

func (scripted) Next(tools []tool.OpenAITool, results []toolResult) ([]toolCall, string) {
	offered := map[string]bool{}
	for _, t := range tools {
		offered[t.Function.Name] = true
	}
	if !offered["find"] || !offered["search"] || !offered["read"] {
		return nil, "I need the find, search and read tools."
	}
	call := func(name, args string) []toolCall { return []toolCall{{name, json.RawMessage(args)}} }
	switch len(results) {
	case 0:
		return call("find", `{"paths": ["**/*.go"], "limit": 20}`), ""
	case 1:
		return call("search", `{"pattern": "TODO", "paths": ["**/*.go"], "i": "yes"}`), ""
	case 2:
		if !results[1].IsError {
			return nil, "unexpected: the wrong argument type was accepted"
		}
		return call("search", `{"pattern": "TODO", "paths": ["**/*.go"], "i": true}`), ""
	case 3:
		if path := firstFile(results[2].Text); path != "" {
			return call("read", fmt.Sprintf(`{"path": %q}`, path)), ""
		}
		return nil, "There are no TODO comments in the Go files."
	}
	return nil, fmt.Sprintf("Done after %d tool calls: the TODO above is the first to address.", len(results))
}

// firstFile returns the first file of a pi search text, as a model reads
// it: each file is headed "# path#TAG" ("# path" when it has no tag). ""
// means there is none.
func firstFile(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if name, ok := strings.CutPrefix(line, "# "); ok {
			return untag(name)
		}
	}
	return ""
}

// untag drops the "#TAG" (four hex digits) the hashline style appends to
// a file name.
func untag(name string) string {
	i := strings.LastIndexByte(name, '#')
	if i <= 0 || len(name)-i != 5 || strings.Trim(name[i+1:], "0123456789ABCDEF") != "" {
		return name
	}
	return name[:i]
}
