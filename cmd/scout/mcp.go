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
	usage: "mcp [--toolset NAME] [--root DIR] [--no-web]",
	help: `Serves a toolset over the Model Context Protocol on stdin and stdout (JSON-RPC 2.0, one
message per line) until stdin ends, answering every request received before it ended, or
until SIGTERM or SIGINT; the tools' own defaults apply. Web pages read are cached for the
server's life.`,
	run: runMCP,
}

func runMCP(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.hostFlags(f)
	f.BoolVar(&s.cfg.Reader.NoWeb, "no-web", false, "read refuses web URLs (http://, https://, www.)")
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
	// A client stops its server by closing stdin, then with SIGTERM: both
	// end the server cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in, out := io.NopCloser(stdin), nopWriteCloser{stdout}
	if err := mcpserver.Serve(ctx, s.cfg, s.toolset, version, in, out); err != nil && ctx.Err() == nil {
		return f.fail("%v", err)
	}
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
