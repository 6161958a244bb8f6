package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/scoutkit/scout/internal/mcpserver"
	"github.com/scoutkit/scout/tool"
)

func init() {
	commands["mcp"] = command{usage: mcpUsage, run: runMCP}
}

const mcpUsage = "mcp [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network]"

// runMCP serves the toolset on stdio. Web pages read are cached for the
// server's life (see mcpserver.New); --no-web refuses web URLs,
// --allow-private-network allows those of private addresses.
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const u = mcpUsage
	fs := newFlagSet("mcp", stderr, u)
	var s settings
	s.register(fs, true)
	s.webFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "Usage: scout %s\n", u)
		return 2
	}
	if err := s.check(); err != nil {
		fmt.Fprintln(stderr, "scout mcp:", err)
		return 2
	}
	if _, err := tool.Tools(s.toolset); err != nil {
		fmt.Fprintln(stderr, "scout mcp:", err)
		return 2
	}
	if s.cfg.Root == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintln(stderr, "scout mcp:", err)
			return 1
		}
		s.cfg.Root = wd
	}
	// A client stops its server by closing stdin, then with SIGTERM: both
	// end the server cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in, out := io.NopCloser(stdin), nopWriteCloser{stdout}
	if err := mcpserver.Serve(ctx, s.cfg, s.toolset, version, in, out); err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "scout mcp:", err)
		return 1
	}
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
