package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/mcpserver"
	"github.com/scoutkit/scout/tool"
)

var callCmd = &command{
	name:  "call",
	usage: "call [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network] TOOL [JSON|-]",
	help: `Runs one tool of a toolset with its arguments as JSON (from the argument, or stdin with -;
default {}) and prints its Standard Envelope as one line of JSON, as an agent host would get
it; the tools' own defaults apply. Exit status 1 when the Envelope is an error.`,
	run: runCall,
}

var toolsCmd = &command{
	name:  "tools",
	usage: "tools [--toolset NAME]",
	help:  `Prints the tool definitions of a toolset (name, description, JSON Schema of the arguments).`,
	run:   runTools,
}

func runCall(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.hostFlags(f)
	s.webFlags(f)
	pos, code, ok := f.parse(args)
	if !ok {
		return code
	}
	if len(pos) < 1 || len(pos) > 2 {
		return f.usageError("want TOOL and at most one JSON argument, got %d arguments", len(pos))
	}
	if err := s.check(); err != nil {
		return f.usageError("%v", err)
	}
	if s.toolset != "" && !slices.Contains(tool.Toolsets(), s.toolset) {
		// Not tool.Tools alone, which makes every tool's schema (a tenth of
		// a small call's time); it words the error as tools and mcp do.
		_, err := tool.Tools(s.toolset)
		return f.usageError("%v", err)
	}
	raw := []byte("{}")
	if len(pos) == 2 {
		raw = []byte(pos[1])
		if pos[1] == "-" {
			var err error
			if raw, err = io.ReadAll(io.LimitReader(stdin, mcpserver.MaxMessage+1)); err != nil {
				return f.usageError("reading stdin: %v", err)
			}
			if len(raw) > mcpserver.MaxMessage {
				return f.usageError("the arguments on stdin are over %d MiB, as no message to scout mcp may be; tool arguments are far smaller", mcpserver.MaxMessage>>20)
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	env := tool.Call(ctx, s.cfg, s.toolset, pos[0], raw)
	if err := writeEnvelope(stdout, env); err != nil {
		return f.fail("%v", err)
	}
	if env.Status == scout.StatusError {
		return 1
	}
	return 0
}

// runTools prints a toolset's definitions in the Anthropic shape (name,
// description, input_schema), byte for byte as testdata/tools/NAME.json
// holds them.
func runTools(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.toolsetFlag(f)
	pos, code, ok := f.parse(args)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		return f.usageError("takes no arguments, got %q", pos[0])
	}
	defs, err := tool.AnthropicTools(s.toolset)
	if err != nil {
		return f.usageError("%v", err)
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(defs); err != nil {
		return f.fail("%v", err)
	}
	return 0
}

// writeEnvelope writes env as one line of JSON, as json.Encoder would
// without HTML escaping, but writes a Data that marshals itself straight
// to w (streamed when it has a WriteJSON method): encoding/json would
// re-validate and copy its output, which for a search with hundreds of
// thousands of results costs more than the search.
func writeEnvelope(w io.Writer, env *scout.Envelope) error {
	var data func(io.Writer) error
	switch d := env.Data.(type) {
	case interface{ WriteJSON(io.Writer) error }:
		data = d.WriteJSON
	case json.Marshaler:
		b, err := d.MarshalJSON()
		if err != nil {
			return err
		}
		if len(b) == 0 {
			return fmt.Errorf("%T marshalled to nothing", env.Data)
		}
		data = func(w io.Writer) error { _, err := w.Write(b); return err }
	default:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(env)
	}
	rest := *env
	rest.Data = nil
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&rest); err != nil {
		return err
	}
	// Status is the first field and holds no "data" key: the first
	// "data":null is the Data field.
	b := head.Bytes()
	i := bytes.Index(b, []byte(`"data":null`))
	if i < 0 {
		return fmt.Errorf("envelope without a data field: %.40s", b)
	}
	i += len(`"data":`)
	if _, err := w.Write(b[:i]); err != nil {
		return err
	}
	if err := data(w); err != nil {
		return err
	}
	_, err := w.Write(b[i+len("null"):])
	return err
}
