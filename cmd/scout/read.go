package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/scoutkit/scout/tool"
)

func init() {
	commands["read"] = command{usage: "read PATH[:SELECTOR] [--root DIR] [--style hashline|plain] [--read-limit N] [--no-summaries] [--allow-private-network]", run: runRead}
}

func runRead(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const u = "read PATH[:SELECTOR] [--root DIR] [--style hashline|plain] [--read-limit N] [--no-summaries] [--allow-private-network]"
	fs := newFlagSet("read", stderr, u)
	var s settings
	s.register(fs, false)
	noSummaries := fs.Bool("no-summaries", false, "show source files as lines, not as code summaries")
	fs.BoolVar(&s.cfg.AllowPrivateNetwork, "allow-private-network", false, privateHelp)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "Usage: scout %s\n", u)
		return 2
	}
	if err := s.check(); err != nil {
		fmt.Fprintln(stderr, "scout read:", err)
		return 2
	}
	s.cfg.NoSummaries = *noSummaries
	raw, _ := json.Marshal(map[string]string{"path": pos[0]})
	return printText(tool.Pi, "read", s, raw, stdout, stderr)
}
