package main

import (
	"context"
	"flag"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/search"
)

var searchCmd = &command{
	name:  "search",
	usage: "search PATTERN [PATH...] [flags]",
	help: `Searches file contents for PATTERN, a regex (Go RE2 syntax), in the PATHs (files,
directories, globs, archive members; default the root), with the search tool's defaults:
hidden files are searched, .gitignore/.ignore rules apply, node_modules is left out unless a
PATH names it, files over 10 MB are skipped, 1 line of context is shown before and 3 after
each match. Unlike the tool, which pages 20 files and caps its text at 50 KB, it prints every
match, file by file as the files are searched (in no fixed order; --sort path orders them).
On a terminal, stderr shows the files and bytes searched while a search runs. A PATH naming
a file or archive member may end in line ranges (src/a.go:10-20, src/a.go:5-16,960-973):
only those lines of it are searched.`,
	run: runSearch,
}

// listFlag collects a repeatable string flag; check, when not nil,
// refuses a bad value, which makes it a usage error.
type listFlag struct {
	values []string
	check  func(v string) error
}

func (l *listFlag) String() string { return strings.Join(l.values, ",") }
func (l *listFlag) Set(v string) error {
	if l.check != nil {
		if err := l.check(v); err != nil {
			return err
		}
	}
	l.values = append(l.values, v)
	return nil
}

// notFlag is a bool flag that sets its target to false (--no-hidden).
type notFlag struct{ b *bool }

func (n notFlag) String() string   { return "" }
func (n notFlag) IsBoolFlag() bool { return true }
func (n notFlag) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if b {
		*n.b = false
	}
	return err
}

func runSearch(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	var s settings
	s.rootFlag(f)
	s.sharedFlags(f, "style", "context-before", "context-after")
	s.maxFilesizeFlag(f)
	s.zoekt.register(f)
	// The search's own checks, so that a bad -g or -t is a usage error.
	globs := listFlag{check: func(v string) error { _, err := search.CompileGlobs([]string{v}); return err }}
	types := listFlag{check: func(v string) error { _, err := search.CompileTypes([]string{v}); return err }}
	f.Var(&globs, "g", "search only files matching `GLOB` (repeatable; !GLOB leaves them out)")
	f.Var(&types, "t", "search only files of `TYPE`: go, py, js, ts, rust, md, ... (repeatable)")
	ignoreCase := f.Bool("i", false, "case-insensitive")
	after := f.Int("A", -1, "show `N` lines after each match (default 3, or --context-after)")
	before := f.Int("B", -1, "show `N` lines before each match (default 1, or --context-before)")
	both := f.Int("C", -1, "show `N` lines before and after each match")
	maxCount := f.Int("m", -1, "show at most `N` matching lines per file (default all)")
	files := f.Bool("l", false, "print only the paths of matching files")
	count := f.Bool("c", false, "print the number of matching lines per file")
	hidden := true
	f.BoolVar(&hidden, "hidden", true, "search hidden files and directories (the default)")
	f.Var(notFlag{&hidden}, "no-hidden", "leave out hidden files and directories")
	noIgnore := f.Bool("no-ignore", false, "also search files that .gitignore, .ignore and git excludes leave out")
	multiline := f.Bool("U", false, "multiline: a match may span lines and '.' matches newlines")
	sortBy := f.String("sort", "none", "print files in `ORDER`: none (as searched) or path")
	stats := f.Bool("stats", false, "print to stderr what was searched and how: files, matching lines, and with --zoekt whether the index answered or why not")
	pos, code, ok := f.parse(args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		return f.usageError("missing PATTERN")
	}
	if blank(pos[1:]) {
		return f.usageError("a PATH is empty: name a file, directory or glob, or leave PATHs out to search the root")
	}
	if err := s.check(); err != nil {
		return f.usageError("%v", err)
	}
	if *sortBy != "none" && *sortBy != "path" {
		return f.usageError("--sort must be none or path, got %q", *sortBy)
	}
	set := map[string]bool{} // -1 means unset: a value given is checked
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	for _, n := range []struct {
		name string
		v    int
	}{{"A", *after}, {"B", *before}, {"C", *both}} {
		if n.v < 0 && set[n.name] {
			return f.usageError("-%s must be 0 or more, got %d", n.name, n.v)
		}
	}
	if *maxCount < 1 && set["m"] {
		return f.usageError("-m must be 1 or more, got %d", *maxCount)
	}
	if *both >= 0 {
		*before, *after = *both, *both
	}
	req := scout.SearchRequest{
		Pattern:           pos[0],
		Paths:             pos[1:],
		IgnoreCase:        *ignoreCase,
		Multiline:         *multiline,
		DotAll:            *multiline,
		Before:            pick(*before, s.cfg.ContextBefore, pitext.ContextBefore),
		After:             pick(*after, s.cfg.ContextAfter, pitext.ContextAfter),
		Globs:             globs.values,
		Types:             types.values,
		Hidden:            hidden,
		NoIgnore:          *noIgnore,
		PruneDirs:         pitext.PruneNodeModules(pos[1:]),
		MaxFiles:          -1,
		MaxMatches:        -1,
		MaxMatchesPerFile: *maxCount,
		Unordered:         *sortBy == "none",
	}
	switch {
	case *files:
		req.Mode = scout.SearchFiles
	case *count:
		req.Mode = scout.SearchCount
	default:
		// Tags are printed in headings of matching lines only: reading each
		// file again for a tag that -l and -c never print took most of
		// their time.
		req.Tags = s.cfg.Style == format.StyleHashline
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sr := scout.Searcher{Workspace: scout.Workspace{Root: s.cfg.Root, FS: workspaceFS}, MaxFileSize: s.cfg.MaxFileSize, Workers: s.cfg.Workers, Resolvers: s.cfg.Resolvers, Index: s.cfg.Index}
	prog := startProgress(stderr, searchStatus)
	req.Progress = prog.add
	out := newOutput(stdout, prog)
	// format.SearchStream's rendering, into the output's buffer: not a
	// string per file, which took a fifth of the bytes a dense search
	// allocated, written to memory that no cache held.
	opts := &pitext.SearchOptions{Style: pitext.SearchStyle(s.cfg.Style), IgnoredHint: "--no-ignore searches what ignore files leave out; a PATH naming node_modules searches it", Paths: req.Paths}
	var (
		err error
		res *scout.SearchResult
	)
	st := pitext.Stream{Style: opts.Style, Mode: req.Mode}
	show := func(fm *scout.FileMatch) bool { return out.file(&st, fm) }
	if sr.Index != nil {
		// An index answers whole searches, not streams: search, then print
		// the files as a stream prints them.
		if res, err = sr.Search(ctx, req); err == nil {
			for i := range res.Files {
				res.Files[i].Single = res.Single // as a stream's files say
				if !show(&res.Files[i]) {
					break
				}
			}
		}
	} else {
		req.PartLines = partLines
		// show renders each file into out and keeps none of it.
		res, err = sr.StreamFunc(search.Lend(ctx), req, show)
	}
	if err == nil {
		out.write(st.End(res, opts))
	}
	prog.stop()
	if ferr := out.close(); err == nil && ferr != nil {
		err = ferr
	}
	if err == nil && *stats && res != nil {
		io.WriteString(stderr, "scout: "+statsNote(res)+"\n")
	}
	if err != nil {
		return f.fail("%v", err)
	}
	return 0
}

// workspaceFS replaces the OS directory --root in search and find when not
// nil: the tests' slow file systems.
var workspaceFS fs.FS

// pick returns the flag value, or the setting when the flag was not given
// (-1); a setting of 0 is the default def and a negative one none.
func pick(flagValue, setting, def int) int {
	if flagValue >= 0 {
		return flagValue
	}
	return pitext.SearchContext(setting, def)
}

// partLines is the most matching lines of a file printed at once: a file
// with more comes in parts (scout.SearchRequest.PartLines), so that one of
// millions of matching lines takes the memory of a part, not of the file.
// Tests make it small.
var partLines = 1024

// output writes the results to stdout: at once, a file at a time, when
// stdout is a terminal (clearing the progress line first); otherwise in
// blocks, written once they reach outBlock bytes and at least every
// flushEvery, so that a reader of the pipe sees the first results as they
// come and a large output costs few writes. Files are rendered straight
// into the block.
type output struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte // the block not written yet
	tty  bool
	prog *progress
	err  error
	done chan struct{}
	wg   sync.WaitGroup
}

const (
	// flushEvery is the longest a result waits in the buffer of a pipe.
	flushEvery = 100 * time.Millisecond
	// outBlock is the size from which the block is written; a block
	// that a file grew past outKeep is not kept for the next.
	outBlock = 64 << 10
	outKeep  = 1 << 20
)

func newOutput(stdout io.Writer, prog *progress) *output {
	o := &output{w: stdout, tty: isTerminal(stdout), prog: prog, done: make(chan struct{})}
	if !o.tty {
		o.wg.Go(func() {
			t := time.NewTicker(flushEvery)
			defer t.Stop()
			for {
				select {
				case <-o.done:
					return
				case <-t.C:
					o.mu.Lock()
					o.flush()
					o.mu.Unlock()
				}
			}
		})
	}
	return o
}

// file writes the text of fm that st renders; it returns false once
// writing failed (a closed pipe), which stops the search.
func (o *output) file(st *pitext.Stream, fm *scout.FileMatch) bool {
	return o.add(func(b []byte) []byte { return st.AppendFile(b, fm) })
}

// write writes s as file writes a file's text.
func (o *output) write(s string) bool {
	return o.add(func(b []byte) []byte { return append(b, s...) })
}

// add appends to the block what app appends, flushing the block when it
// is full or the output is a terminal.
func (o *output) add(app func([]byte) []byte) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return false
	}
	if o.tty {
		o.prog.clear()
	}
	o.buf = app(o.buf)
	if o.tty || len(o.buf) >= outBlock {
		o.flush()
	}
	return o.err == nil
}

// flush writes the block, unless writing failed before; o.mu is held.
func (o *output) flush() {
	if len(o.buf) == 0 || o.err != nil {
		return
	}
	_, o.err = o.w.Write(o.buf)
	o.buf = o.buf[:0]
	if cap(o.buf) > outKeep {
		o.buf = nil
	}
}

// close stops the flushing and writes what is left.
func (o *output) close() error {
	close(o.done)
	o.wg.Wait()
	o.flush()
	return o.err
}
