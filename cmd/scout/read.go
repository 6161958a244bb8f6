package main

import (
	"context"
	"io"
	"os"
	"os/signal"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/pitext"
)

var readCmd = &command{
	name:  "read",
	usage: "read PATH[:SELECTOR] [flags]",
	help: `Reads a file, directory, archive member, SQLite database, notebook, image, document or URL,
with the read tool's text and defaults: a selector picks lines (:50, :50-100, :50+20,
:5-16,960-973), exactly those (the read tool adds a line before and three after a range),
:raw shows the bytes as they are, :conflicts lists merge conflicts; a read without a range
shows 300 lines (a directory up to 3000 rows and 50 KB) and a large source file as a code
summary.`,
	run: runRead,
}

func runRead(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.rootFlag(f)
	s.sharedFlags(f, "style", "read-limit")
	f.BoolVar(&s.cfg.NoSummaries, "no-summaries", false, "show source files as lines, not as code summaries")
	s.privateFlag(f)
	pos, code, ok := f.parse(args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return f.usageError("want one PATH, got %d arguments", len(pos))
	}
	if blank(pos) {
		return f.usageError("PATH is empty: name a file or directory, e.g. README.md or src/main.go:10-40")
	}
	if err := s.check(); err != nil {
		return f.usageError("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r := scout.Reader{Workspace: scout.Workspace{Root: s.cfg.Root}, DefaultLimit: s.cfg.ReadLimit,
		NoSummaries: s.cfg.NoSummaries, AllowPrivateNetwork: s.cfg.AllowPrivateNetwork}
	pitext.ReadSettings(&r)
	res, err := r.Read(ctx, scout.ReadRequest{Path: pos[0]})
	if err != nil {
		return f.fail("%v", err)
	}
	io.WriteString(stdout, format.ReadText(res, &format.ReadOptions{Style: s.cfg.Style})+"\n")
	return 0
}
