package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/pitext"
)

var findCmd = &command{
	name:  "find",
	usage: "find GLOB [GLOB...] [flags]",
	help: `Finds the files and directories matching the GLOBs (* and ? within a name, ** across
directories, {a,b}, [abc]; a bare *.go means **/*.go), newest first, grouped by directory,
with the find tool's defaults: hidden entries are included, .gitignore/.ignore rules apply,
node_modules is left out unless a GLOB names it, at most 200 entries, 5 seconds.
On a terminal, stderr shows the entries walked while a find runs.`,
	run: runFind,
}

// The find tool's bounds, which the flags share.
const (
	findMaxLimit   = 200
	findMinTimeout = 0.5
	findMaxTimeout = 60
)

func runFind(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.rootFlag(f)
	s.sharedFlags(f)
	noHidden := f.Bool("no-hidden", false, "leave out hidden files and directories")
	noIgnore := f.Bool("no-ignore", false, "also list what .gitignore, .ignore and git excludes leave out")
	limit := f.Int("limit", findMaxLimit, "list at most `N` entries, 1 to 200 (default 200)")
	timeout := f.Float64("timeout", 5, "stop after `SECONDS`, 0.5 to 60, and list what was found (default 5)")
	globs, code, ok := f.parse(args)
	if !ok {
		return code
	}
	switch {
	case len(globs) == 0:
		return f.usageError("missing GLOB")
	case blank(globs):
		return f.usageError("a GLOB is empty: name what to find, e.g. '**/*.go'")
	case *limit < 1 || *limit > findMaxLimit:
		return f.usageError("--limit must be 1 to %d, got %d", findMaxLimit, *limit)
	case !(*timeout >= findMinTimeout && *timeout <= findMaxTimeout): // NaN too
		return f.usageError("--timeout must be %g to %g seconds, got %g", findMinTimeout, float64(findMaxTimeout), *timeout)
	}
	if err := s.check(); err != nil {
		return f.usageError("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var visited atomic.Int64
	prog := startProgress(stderr, func(_ *progress, d time.Duration) string {
		return fmt.Sprintf("walked %d entries, %.1f s", visited.Load(), d.Seconds())
	})
	fd := scout.Finder{Workspace: scout.Workspace{Root: s.cfg.Root, FS: workspaceFS}}
	res, err := fd.Find(ctx, scout.FindRequest{
		Patterns:  globs,
		Recursive: true,
		Hidden:    !*noHidden,
		NoIgnore:  *noIgnore,
		PruneDirs: pitext.PruneNodeModules(globs),
		Limit:     *limit,
		Timeout:   time.Duration(*timeout * float64(time.Second)),
		Progress:  func(p scout.FindProgress) { visited.Store(int64(p.Visited)) },
	})
	prog.stop()
	if err != nil {
		return f.fail("%v", err)
	}
	text, _ := format.FindText(res, findOptions(*timeout))
	fmt.Fprintln(stdout, text)
	return 0
}

// findHints say how to include what a find left out, in flags.
var findHints = map[scout.SkipReason]string{
	scout.SkipIgnored: "--no-ignore lists what ignore files leave out; a GLOB naming node_modules lists it",
	scout.SkipHidden:  "drop --no-hidden to list them",
}

// findOptions render a find for people: the find tool's text, uncapped,
// with its notices in flags rather than tool arguments.
func findOptions(timeout float64) *format.FindOptions {
	return &format.FindOptions{
		MaxBytes: -1,
		MaxLimit: findMaxLimit,
		Hints:    findHints,
		LimitNotice: func(n, next int) string {
			if next == 0 {
				return fmt.Sprintf("%d results limit reached; narrow the GLOB for the rest", n)
			}
			return fmt.Sprintf("%d results limit reached. Use --limit %d for more", n, next)
		},
		TimeoutNote: func(n int) string {
			return fmt.Sprintf("find timed out after %ss; listing the %d entries found. Raise --timeout (at most %g) or narrow the GLOB", strconv.FormatFloat(timeout, 'f', -1, 64), n, float64(findMaxTimeout))
		},
	}
}
