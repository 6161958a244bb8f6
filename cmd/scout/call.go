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
	"strconv"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/jsonobj"
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
// thousands of results costs more than the search. The envelope around
// Data is written by hand (appendEnvelope): encoding/json's first use of a
// type reflects on it and every type it holds, which took a few tenths of
// a millisecond of each run of scout call.
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
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(env.Data); err != nil {
			return err
		}
		b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		data = func(w io.Writer) error { _, err := w.Write(b); return err }
	}
	head, tail, ok := appendEnvelope(env)
	if !ok {
		// What the hand-written encoding does not cover (params_input that
		// is not valid JSON) gets encoding/json's own result and error.
		rest := *env
		rest.Data = nil
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&rest); err != nil {
			return err
		}
		b := buf.Bytes()
		i := bytes.Index(b, []byte(`"data":null`))
		if i < 0 {
			return fmt.Errorf("envelope without a data field: %.40s", b)
		}
		i += len(`"data":`)
		head, tail = b[:i], b[i+len("null"):]
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	if err := data(w); err != nil {
		return err
	}
	_, err := w.Write(tail)
	return err
}

// appendEnvelope returns env's JSON, as json.Encoder without HTML escaping
// writes it, before and after the value of "data" (with the encoder's
// closing newline); false when params_input is not valid JSON, which
// encoding/json reports as an error. A Backend is rare (an index answered)
// and is encoded by encoding/json.
func appendEnvelope(env *scout.Envelope) (head, tail []byte, ok bool) {
	head = append(make([]byte, 0, 32), `{"status":`...)
	head = jsonobj.AppendString(head, string(env.Status))
	head = append(head, `,"data":`...)

	b := make([]byte, 0, 256+len(env.Text))
	b = append(b, `,"text":`...)
	b = jsonobj.AppendString(b, env.Text)
	st := env.Stats
	b = append(b, `,"stats":{"time_ms":`...)
	b = strconv.AppendInt(b, st.TimeMS, 10)
	b = append(b, `,"matched":`...)
	b = strconv.AppendInt(b, int64(st.Matched), 10)
	b = append(b, `,"visited":`...)
	b = strconv.AppendInt(b, int64(st.Visited), 10)
	if st.Skipped != 0 {
		b = append(b, `,"skipped":`...)
		b = strconv.AppendInt(b, int64(st.Skipped), 10)
	}
	if st.Files != 0 {
		b = append(b, `,"files":`...)
		b = strconv.AppendInt(b, int64(st.Files), 10)
	}
	if st.Bytes != 0 {
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, st.Bytes, 10)
	}
	c := &env.Context
	b = append(b, `},"context":{"cwd":`...)
	b = jsonobj.AppendString(b, c.Cwd)
	b = append(b, `,"params_input":`...)
	if c.ParamsInput == nil {
		b = append(b, "null"...)
	} else {
		buf := bytes.NewBuffer(b)
		if json.Compact(buf, c.ParamsInput) != nil {
			return nil, nil, false
		}
		b = buf.Bytes()
	}
	if c.PathResolved != "" {
		b = append(b, `,"path_resolved":`...)
		b = jsonobj.AppendString(b, c.PathResolved)
	}
	if c.PatternNormalized != "" {
		b = append(b, `,"pattern_normalized":`...)
		b = jsonobj.AppendString(b, c.PatternNormalized)
	}
	if c.Backend != nil {
		buf := bytes.NewBuffer(append(b, `,"backend":`...))
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(c.Backend) != nil {
			return nil, nil, false
		}
		b = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	b = append(b, '}')
	if e := env.Error; e != nil {
		b = append(b, `,"error":{"code":`...)
		b = jsonobj.AppendString(b, string(e.Code))
		b = append(b, `,"message":`...)
		b = jsonobj.AppendString(b, e.Message)
		b = append(b, '}')
	}
	return head, append(b, "}\n"...), true
}
