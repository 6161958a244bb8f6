package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
)

func init() {
	commands["call"] = command{usage: "call [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network] TOOL [JSON|-]", run: runCall}
	commands["tools"] = command{usage: "tools [--toolset NAME]", run: runTools}
}

func runCall(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const u = "call [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network] TOOL [JSON|-]"
	fs := newFlagSet("call", stderr, u)
	var s settings
	s.register(fs, true)
	s.webFlags(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintf(stderr, "Usage: scout %s\n", u)
		return 2
	}
	if err := s.check(); err != nil {
		fmt.Fprintln(stderr, "scout call:", err)
		return 2
	}
	raw := []byte("{}")
	if len(pos) == 2 {
		raw = []byte(pos[1])
		if pos[1] == "-" {
			if raw, err = io.ReadAll(stdin); err != nil {
				fmt.Fprintln(stderr, "scout call: reading stdin:", err)
				return 2
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	env := tool.Call(ctx, s.cfg, s.toolset, pos[0], raw)
	if err := writeEnvelope(stdout, env); err != nil {
		fmt.Fprintln(stderr, "scout call:", err)
		return 1
	}
	if env.Status == scout.StatusError {
		return 1
	}
	return 0
}

// runTools prints a toolset's definitions in the Anthropic shape (name,
// description, input_schema), byte for byte as testdata/tools/NAME.json
// holds them.
func runTools(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const u = "tools [--toolset NAME]"
	fs := newFlagSet("tools", stderr, u)
	toolset := fs.String("toolset", tool.DefaultToolset, "toolset to print")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "Usage: scout %s\n", u)
		return 2
	}
	defs, err := tool.AnthropicTools(*toolset)
	if err != nil {
		fmt.Fprintln(stderr, "scout tools:", err)
		return 2
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(defs); err != nil {
		fmt.Fprintln(stderr, "scout tools:", err)
		return 1
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
