package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/scoutkit/scout/tool"
)

// openAITools converts Scout's pi tools to the SDK's function tools.
func openAITools() ([]openai.ChatCompletionToolUnionParam, error) {
	defs, err := tool.OpenAITools(tool.Pi)
	if err != nil {
		return nil, err
	}
	out := make([]openai.ChatCompletionToolUnionParam, len(defs))
	for i, d := range defs {
		var params shared.FunctionParameters
		if err := json.Unmarshal(d.Function.Parameters, &params); err != nil {
			return nil, err
		}
		out[i] = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: d.Function.Name, Description: openai.String(d.Function.Description), Parameters: params,
		})
	}
	return out, nil
}

// runOpenAI asks the question through the Chat Completions API ("" base is
// OpenAI's own), running the model's tool calls, and prints the answer.
func runOpenAI(ctx context.Context, w io.Writer, cfg tool.Config, key, base, model string) error {
	tools, err := openAITools()
	if err != nil {
		return err
	}
	opts := []option.RequestOption{option.WithAPIKey(key)}
	if base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	client := openai.NewClient(opts...)
	params := openai.ChatCompletionNewParams{
		Model:    model,
		Tools:    tools,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
	}
	for range maxTurns {
		res, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			return err
		}
		if len(res.Choices) == 0 {
			return fmt.Errorf("the model answered nothing")
		}
		msg := res.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			fmt.Fprintln(w, "model:", msg.Content)
			return nil
		}
		params.Messages = append(params.Messages, msg.ToParam())
		for _, call := range msg.ToolCalls {
			args := []byte(call.Function.Arguments)
			env := tool.Call(ctx, cfg, tool.Pi, call.Function.Name, args)
			logCall(w, call.Function.Name, args, string(env.Status), env.Text)
			params.Messages = append(params.Messages, openai.ToolMessage(env.Text, call.ID))
		}
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}
