package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/scoutkit/scout/internal/mcpserver"
	"github.com/scoutkit/scout/tool"
)

var mcpCmd = &command{
	name:  "mcp",
	usage: "mcp [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network]",
	help: `Serves a toolset over the Model Context Protocol on stdin and stdout (JSON-RPC 2.0, one
message per line) until stdin ends, answering every request received before it ended (it
gives up, exit 1, when the client reads no answer for 10 s), or until SIGTERM or SIGINT,
which drop the answers not written; the tools' own defaults apply. Web pages read are cached
for the server's life.`,
	run: runMCP,
}

func runMCP(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.hostFlags(f)
	s.webFlags(f)
	pos, code, ok := f.parse(args)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		return f.usageError("takes no arguments, got %q", pos[0])
	}
	if err := s.check(); err != nil {
		return f.usageError("%v", err)
	}
	if _, err := tool.Tools(s.toolset); err != nil {
		return f.usageError("%v", err)
	}
	if s.cfg.Root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return f.fail("%v", err)
		}
		s.cfg.Root = wd
	}
	// A client stops its server by closing stdin (the requests it sent are
	// still answered), then with SIGTERM, which ends the calls still
	// running. A client that is gone (the reader of stdout closed) stops
	// them too.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f, ok := stdout.(*os.File); ok {
		// Answers to a client that is gone fail with EPIPE rather than
		// killing the server mid-way.
		signal.Ignore(syscall.SIGPIPE)
		var gone context.CancelFunc
		ctx, gone = context.WithCancel(ctx)
		defer gone()
		watchReader(ctx, f, gone)
	}
	in, out := io.NopCloser(stdin), nopWriteCloser{stdout}
	if err := mcpserver.Serve(ctx, s.cfg, s.toolset, version, in, out); err != nil && ctx.Err() == nil {
		return f.fail("%v", err)
	}
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
