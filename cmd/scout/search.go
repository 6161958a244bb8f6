package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

const searchUsage = "search PATTERN [PATH...] [-i] [-g GLOB]... [-t TYPE]... [-A N] [-B N] [-C N] [-l] [-c] [--hidden] [--no-ignore] [--max-filesize SIZE]"

func init() {
	commands["search"] = command{usage: searchUsage, run: runSearch}
}

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func runSearch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("search", stderr, searchUsage)
	var s settings
	s.register(fs, false)
	var globs, types listFlag
	fs.Var(&globs, "g", "include files matching this glob (repeatable; !GLOB excludes)")
	fs.Var(&types, "t", "search only files of this type: go, py, js, ts, rust, md, ... (repeatable)")
	ignoreCase := fs.Bool("i", false, "case-insensitive")
	after := fs.Int("A", -1, "context lines after each match (default: --context-after)")
	before := fs.Int("B", -1, "context lines before each match (default: --context-before)")
	both := fs.Int("C", -1, "context lines before and after each match")
	files := fs.Bool("l", false, "print only the paths of matching files")
	count := fs.Bool("c", false, "print the number of matching lines per file")
	hidden := fs.Bool("hidden", false, "search hidden files and directories")
	noIgnore := fs.Bool("no-ignore", false, "do not respect .gitignore, .ignore and git excludes")
	multiline := fs.Bool("U", false, "multiline: a match may span lines and '.' matches newlines")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintf(stderr, "Usage: scout %s\n", searchUsage)
		return 2
	}
	if err := s.check(); err != nil {
		fmt.Fprintln(stderr, "scout search:", err)
		return 2
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
		Before:            pick(*before, s.cfg.ContextBefore),
		After:             pick(*after, s.cfg.ContextAfter),
		Globs:             globs,
		Types:             types,
		Hidden:            *hidden,
		NoIgnore:          *noIgnore,
		MaxFiles:          -1,
		MaxMatches:        -1,
		MaxMatchesPerFile: -1,
		Tags:              s.cfg.Style != "plain",
	}
	switch {
	case *files:
		req.Mode = scout.SearchFiles
	case *count:
		req.Mode = scout.SearchCount
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sr := scout.Searcher{Workspace: scout.Workspace{Root: s.cfg.Root}, MaxFileSize: s.cfg.MaxFileSize, Workers: s.cfg.Workers, Resolvers: s.cfg.Resolvers}
	res, err := sr.Search(ctx, req)
	if err != nil {
		fmt.Fprintln(stderr, "scout search:", err)
		return 1
	}
	text, _ := format.SearchText(res, &format.SearchOptions{Plain: s.cfg.Style == "plain", MaxBytes: -1, IgnoredHint: "--no-ignore searches them"})
	fmt.Fprintln(stdout, text)
	return 0
}

// pick returns the flag value, or the setting when the flag was not given
// (-1); the settings use a negative value for "none".
func pick(flagValue, setting int) int {
	if flagValue >= 0 {
		return flagValue
	}
	return max(setting, 0)
}
