package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

const readUsage = "read PATH[:SELECTOR] [--root DIR] [--style hashline|plain] [--read-limit N] [--no-summaries] [--allow-private-network]"

func init() {
	commands["read"] = command{usage: readUsage, run: runRead}
}

// runRead reads one path and prints its text. A range reads exactly its
// lines ("f.go:30-40" prints lines 30 to 40), unlike the pi read tool,
// which widens it.
func runRead(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("read", stderr, readUsage)
	var s settings
	s.register(fs, false)
	noSummaries := fs.Bool("no-summaries", false, "show source files as lines, not as code summaries")
	fs.BoolVar(&s.cfg.AllowPrivateNetwork, "allow-private-network", false, privateHelp)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "Usage: scout %s\n", readUsage)
		return 2
	}
	if err := s.check(); err != nil {
		fmt.Fprintln(stderr, "scout read:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r := scout.Reader{Workspace: scout.Workspace{Root: s.cfg.Root}, DefaultLimit: s.cfg.ReadLimit,
		NoSummaries: *noSummaries, AllowPrivateNetwork: s.cfg.AllowPrivateNetwork}
	res, err := r.Read(ctx, scout.ReadRequest{Path: pos[0]})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintln(stdout, format.ReadText(res, &format.ReadOptions{Style: s.cfg.Style}))
	return 0
}
