// Command llmapis runs Scout's tools with the official OpenAI and
// Anthropic Go SDKs: it sends the tool definitions (tool.OpenAITools,
// tool.AnthropicTools), runs each tool call the model makes with
// tool.Call and sends the Envelope's text back, until the model answers.
//
//	cd examples/llmapis && go run . -api openai -root ../..
//	cd examples/llmapis && go run . -api anthropic -root ../..
//
// With OPENAI_API_KEY or ANTHROPIC_API_KEY set it asks the real API (-model
// picks the model); without, a scripted model served on a local port
// answers, so the round trip runs offline. It is its own module, so that
// Scout's go.mod does not carry the SDKs.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"github.com/scoutkit/scout/tool"
)

// maxTurns bounds the round trips with the model.
const maxTurns = 8

// question is what the model is asked.
const question = "Which Go files does this project have, and where is func main? Use the tools."

func main() {
	api := flag.String("api", "openai", "the API to talk to: openai or anthropic")
	model := flag.String("model", "", "the model (default gpt-4.1 or claude-sonnet-4-5)")
	root := flag.String("root", ".", "the project the tools read")
	flag.Parse()
	cfg := tool.Config{Root: *root}
	ctx := context.Background()
	var err error
	switch *api {
	case "openai":
		key, base := os.Getenv("OPENAI_API_KEY"), ""
		if key == "" {
			srv := httptest.NewServer(scriptedOpenAI())
			defer srv.Close()
			key, base = "scripted", srv.URL
			fmt.Println("(no OPENAI_API_KEY: a scripted model answers)")
		}
		err = runOpenAI(ctx, os.Stdout, cfg, key, base, or(*model, "gpt-4.1"))
	case "anthropic":
		key, base := os.Getenv("ANTHROPIC_API_KEY"), ""
		if key == "" {
			srv := httptest.NewServer(scriptedAnthropic())
			defer srv.Close()
			key, base = "scripted", srv.URL
			fmt.Println("(no ANTHROPIC_API_KEY: a scripted model answers)")
		}
		err = runAnthropic(ctx, os.Stdout, cfg, key, base, or(*model, "claude-sonnet-4-5"))
	default:
		err = fmt.Errorf("-api must be openai or anthropic, got %q", *api)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "llmapis:", err)
		os.Exit(1)
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// logCall prints a tool call and the start of its result.
func logCall(w io.Writer, name string, args []byte, status, text string) {
	if len(text) > 300 {
		text = text[:300] + "..."
	}
	fmt.Fprintf(w, "[tool] %s %s -> %s\n%s\n\n", name, args, status, text)
}
