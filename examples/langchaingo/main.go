// Command langchaingo runs Scout's tools in langchaingo: each tool of a
// toolset is a tools.Tool whose input is the tool's JSON arguments (its
// description shows the model their JSON Schema), so an agent can call it.
// Here a one-shot agent runs on a scripted model:
//
//	cd examples/langchaingo && go run . -root ../..
//
// It is its own module, so that Scout's go.mod does not carry langchaingo.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/scoutkit/scout/tool"
)

// Tools returns the tools of a Scout toolset as langchaingo tools that run
// with cfg (the project root and the host's settings).
func Tools(cfg tool.Config, toolset string) ([]lctools.Tool, error) {
	defs, err := tool.Tools(toolset)
	if err != nil {
		return nil, err
	}
	out := make([]lctools.Tool, len(defs))
	for i, d := range defs {
		out[i] = &scoutTool{cfg: cfg, toolset: toolset, name: d.Name,
			description: d.Description + "\nInput: one JSON object with the arguments, as this JSON Schema describes: " + string(d.Schema)}
	}
	return out, nil
}

// scoutTool is one Scout tool as a langchaingo tool.
type scoutTool struct {
	cfg               tool.Config
	toolset           string
	name, description string
}

var _ lctools.Tool = (*scoutTool)(nil)

func (t *scoutTool) Name() string        { return t.name }
func (t *scoutTool) Description() string { return t.description }

// Call runs the tool with input, its JSON arguments, and returns the text
// the model reads. A call the tool refuses (a bad argument, a missing path)
// is not an error: its text tells the model how to fix the call.
func (t *scoutTool) Call(ctx context.Context, input string) (string, error) {
	return tool.Call(ctx, t.cfg, t.toolset, t.name, []byte(input)).Text, nil
}

// script is what the scripted model answers, turn by turn: two tool calls
// (the second a mistake the model then sees explained) and an answer.
var script = []string{
	"Thought: find the Go files first.\nAction: find\nAction Input: {\"paths\": [\"**/*.go\"], \"limit\": 5}",
	"Thought: now the entry points.\nAction: search\nAction Input: {\"paths\": \".\", \"pattern\": \"func main\", \"i\": \"yes\"}",
	"Thought: i is a boolean.\nAction: search\nAction Input: {\"paths\": \".\", \"pattern\": \"func main\"}",
	"Final Answer: the entry point is main.go.",
}

// run runs a one-shot agent with Scout's pi tools on the scripted model
// and prints each step.
func run(ctx context.Context, w io.Writer, cfg tool.Config, model llms.Model) error {
	tools, err := Tools(cfg, tool.Pi)
	if err != nil {
		return err
	}
	exec := agents.NewExecutor(agents.NewOneShotAgent(model, tools), agents.WithMaxIterations(6), agents.WithReturnIntermediateSteps())
	out, err := exec.Call(ctx, map[string]any{"input": "Where is the program's entry point?"})
	if err != nil {
		return err
	}
	steps, _ := out["intermediateSteps"].([]schema.AgentStep)
	for _, s := range steps {
		fmt.Fprintf(w, "[%s %s]\n%s\n\n", s.Action.Tool, s.Action.ToolInput, s.Observation)
	}
	fmt.Fprintln(w, "answer:", out["output"])
	return nil
}

func main() {
	root := flag.String("root", ".", "the project to search")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, tool.Config{Root: *root}, fake.NewFakeLLM(script)); err != nil {
		fmt.Fprintln(os.Stderr, "langchaingo example:", err)
		os.Exit(1)
	}
}
