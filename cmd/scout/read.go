package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/signal"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/tool"
)

var readCmd = &command{
	name:  "read",
	usage: "read PATH[:SELECTOR] [flags]",
	help: `Reads a file, directory, archive member, SQLite database, notebook, image, document or URL,
as the read tool does (the same text and defaults): a selector picks lines (:50, :50-100,
:50+20, :5-16,960-973), :raw shows the bytes as they are, :conflicts lists merge conflicts; a
read without a range shows 300 lines and a large source file as a code summary.`,
	run: runRead,
}

func runRead(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.rootFlag(f)
	s.styleFlag(f)
	s.readLimitFlag(f)
	f.BoolVar(&s.cfg.NoSummaries, "no-summaries", false, "show source files as lines, not as code summaries")
	s.privateFlag(f)
	pos, code, ok := f.parse(args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return f.usageError("want one PATH, got %d arguments", len(pos))
	}
	if err := s.check(); err != nil {
		return f.usageError("%v", err)
	}
	raw, _ := json.Marshal(map[string]string{"path": pos[0]})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	env := tool.Call(ctx, s.cfg, tool.Pi, "read", raw)
	if env.Status == scout.StatusError {
		return f.fail("%s", env.Text)
	}
	io.WriteString(stdout, env.Text+"\n")
	return 0
}
