package main

import (
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
	commands["find"] = command{usage: "find GLOB [GLOB...] [--no-hidden] [--no-ignore] [--limit N] [--timeout SECONDS]", run: runFind}
}

func runFind(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const u = "find GLOB [GLOB...] [--no-hidden] [--no-ignore] [--limit N] [--timeout SECONDS]"
	fs := newFlagSet("find", stderr, u)
	var s settings
	s.register(fs, false)
	noHidden := fs.Bool("no-hidden", false, "leave out hidden files and directories")
	noIgnore := fs.Bool("no-ignore", false, "include files that .gitignore/.ignore leave out")
	limit := fs.Int("limit", 200, "maximum paths (1-200)")
	timeout := fs.Float64("timeout", 5, "timeout in seconds (0.5-60)")
	globs, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(globs) == 0 {
		fmt.Fprintf(stderr, "Usage: scout %s\n", u)
		return 2
	}
	if err := s.check(); err != nil {
		fmt.Fprintln(stderr, "scout find:", err)
		return 2
	}
	raw, _ := json.Marshal(map[string]any{"paths": globs, "hidden": !*noHidden, "gitignore": !*noIgnore, "limit": *limit, "timeout": *timeout})
	return printText(tool.Pi, "find", s, raw, stdout, stderr)
}

// printText runs a tool and prints its text: to stdout on success, to
// stderr with exit status 1 on error.
func printText(toolset, name string, s settings, raw []byte, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	env := tool.Call(ctx, s.cfg, toolset, name, raw)
	if env.Status == scout.StatusError {
		fmt.Fprintln(stderr, env.Text)
		return 1
	}
	fmt.Fprintln(stdout, env.Text)
	return 0
}
