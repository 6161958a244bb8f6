package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
)

// anthropicTools converts Scout's pi tools to the SDK's tools.
func anthropicTools() ([]anthropic.ToolUnionParam, error) {
	defs, err := tool.AnthropicTools(tool.Pi)
	if err != nil {
		return nil, err
	}
	out := make([]anthropic.ToolUnionParam, len(defs))
	for i, d := range defs {
		var schema map[string]any
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			return nil, err
		}
		in := anthropic.ToolInputSchemaParam{Properties: schema["properties"], ExtraFields: map[string]any{}}
		for _, r := range schema["required"].([]any) {
			in.Required = append(in.Required, r.(string))
		}
		for k, v := range schema {
			if k != "type" && k != "properties" && k != "required" {
				in.ExtraFields[k] = v
			}
		}
		out[i] = anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{Name: d.Name, Description: anthropic.String(d.Description), InputSchema: in}}
	}
	return out, nil
}

// runAnthropic asks the question through the Messages API ("" base is
// Anthropic's own), running the model's tool calls, and prints the answer.
func runAnthropic(ctx context.Context, w io.Writer, cfg tool.Config, key, base, model string) error {
	tools, err := anthropicTools()
	if err != nil {
		return err
	}
	opts := []option.RequestOption{option.WithAPIKey(key)}
	if base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	client := anthropic.NewClient(opts...)
	msgs := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(question))}
	for range maxTurns {
		res, err := client.Messages.New(ctx, anthropic.MessageNewParams{Model: model, MaxTokens: 2048, Tools: tools, Messages: msgs})
		if err != nil {
			return err
		}
		msgs = append(msgs, res.ToParam())
		var results []anthropic.ContentBlockParamUnion
		for _, block := range res.Content {
			switch b := block.AsAny().(type) {
			case anthropic.TextBlock:
				fmt.Fprintln(w, "model:", b.Text)
			case anthropic.ToolUseBlock:
				env := tool.Call(ctx, cfg, tool.Pi, b.Name, b.Input)
				logCall(w, b.Name, b.Input, string(env.Status), env.Text)
				results = append(results, anthropic.NewToolResultBlock(b.ID, env.Text, env.Status == scout.StatusError))
			}
		}
		if len(results) == 0 {
			return nil
		}
		msgs = append(msgs, anthropic.NewUserMessage(results...))
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}
