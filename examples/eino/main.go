// Command eino runs Scout's tools in the eino agent framework: each tool of
// a toolset is a components/tool.InvokableTool (its name, description and
// JSON Schema in Info, the call in InvokableRun), so a ChatModel can be
// told of them and a ToolsNode can run the calls the model makes. Here a
// scripted assistant message stands for the model:
//
//	cd examples/eino && go run . -root ../..
//
// It is its own module, so that Scout's go.mod does not carry eino.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	einotool "github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

	"github.com/scoutkit/scout/tool"
)

// Tools returns the tools of a Scout toolset as eino tools that run with
// cfg (the project root and the host's settings).
func Tools(cfg tool.Config, toolset string) ([]einotool.BaseTool, error) {
	defs, err := tool.Tools(toolset)
	if err != nil {
		return nil, err
	}
	out := make([]einotool.BaseTool, len(defs))
	for i, d := range defs {
		var params jsonschema.Schema
		if err := json.Unmarshal(d.Schema, &params); err != nil {
			return nil, fmt.Errorf("%s: schema: %w", d.Name, err)
		}
		out[i] = &scoutTool{cfg: cfg, toolset: toolset, info: &schema.ToolInfo{
			Name: d.Name, Desc: d.Description, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(&params),
		}}
	}
	return out, nil
}

// scoutTool is one Scout tool as an eino InvokableTool.
type scoutTool struct {
	cfg     tool.Config
	toolset string
	info    *schema.ToolInfo
}

var _ einotool.InvokableTool = (*scoutTool)(nil)

func (t *scoutTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// InvokableRun runs the call and returns the text the model reads. A call
// the tool refuses (a bad argument, a missing path) is not an error: its
// text tells the model how to fix the call.
func (t *scoutTool) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...einotool.Option) (string, error) {
	return tool.Call(ctx, t.cfg, t.toolset, t.info.Name, []byte(argumentsInJSON)).Text, nil
}

// run lets a ToolsNode run the calls of one scripted assistant message and
// prints the tool messages.
func run(ctx context.Context, w io.Writer, cfg tool.Config) error {
	tools, err := Tools(cfg, tool.Pi)
	if err != nil {
		return err
	}
	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: tools})
	if err != nil {
		return err
	}
	call := func(id, name, args string) schema.ToolCall {
		return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
	}
	msg := schema.AssistantMessage("", []schema.ToolCall{
		call("1", "find", `{"paths": ["**/*.go"], "limit": 5}`),
		call("2", "search", `{"paths": ".", "pattern": "func main"}`),
		call("3", "search", `{"paths": ".", "pattern": "x", "i": "yes"}`), // a mistake the model sees
	})
	results, err := node.Invoke(ctx, msg)
	if err != nil {
		return err
	}
	for _, r := range results {
		fmt.Fprintf(w, "[%s %s]\n%s\n\n", r.ToolName, r.ToolCallID, r.Content)
	}
	return nil
}

func main() {
	root := flag.String("root", ".", "the project to search")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, tool.Config{Root: *root}); err != nil {
		fmt.Fprintln(os.Stderr, "eino example:", err)
		os.Exit(1)
	}
}
