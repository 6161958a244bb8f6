// Command scout is the command line of the Scout file tools.
//
//	scout search PATTERN [PATH...] [flags]       human use; prints the rendered text
//	scout read PATH[:SELECTOR]
//	scout find GLOB [GLOB...]
//	scout call [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network] TOOL [JSON|-]   prints one Envelope as JSON
//	scout tools [--toolset NAME]                  prints the tool definitions
//	scout mcp [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network]   serves the toolset over MCP on stdio
//
// Exit status: 0 for success or partial, 1 for an error result, 2 for a usage error.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/tool"
)

// command is one subcommand: it parses its own flags and returns the exit status.
type command struct {
	usage string
	run   func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "scout", version)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "scout: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

const version = "0.1.0"

func usage(w io.Writer) {
	fmt.Fprintln(w, "Scout: read-only file tools for agents and people.\n\nUsage:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  scout %s\n", commands[n].usage)
	}
	fmt.Fprintln(w, "\nRun 'scout COMMAND -h' for a command's flags.")
}

// settings are the flags shared by call, mcp and the human commands.
type settings struct {
	toolset string
	cfg     tool.Config
}

func (s *settings) register(fs *flag.FlagSet, withToolset bool) {
	if withToolset {
		fs.StringVar(&s.toolset, "toolset", tool.DefaultToolset, "toolset: "+strings.Join(tool.Toolsets(), ", "))
	}
	fs.StringVar(&s.cfg.Root, "root", "", "project root and cwd (default: the current directory)")
	fs.StringVar(&s.cfg.Style, "style", "hashline", "pi text style: hashline or plain")
	fs.IntVar(&s.cfg.ContextBefore, "context-before", 1, "pi search: context lines before a match")
	fs.IntVar(&s.cfg.ContextAfter, "context-after", 3, "pi search: context lines after a match")
	fs.IntVar(&s.cfg.ReadLimit, "read-limit", 300, "pi read: default line limit (at most 3000)")
	fs.Func("max-filesize", "search: skip files larger than SIZE bytes (suffix K, M or G; none for no cap) (default 10M)", func(v string) error {
		n, err := parseSize(v)
		s.cfg.MaxFileSize = n
		return err
	})
}

// privateHelp is the help of --allow-private-network.
const privateHelp = "read: fetch URLs of loopback (localhost), private, link-local and cloud metadata addresses (refused by default)"

// webFlags registers the web flags of call and mcp.
func (s *settings) webFlags(fs *flag.FlagSet) {
	fs.BoolVar(&s.cfg.NoWeb, "no-web", false, "read refuses web URLs (http://, https://, www.)")
	fs.BoolVar(&s.cfg.AllowPrivateNetwork, "allow-private-network", false, privateHelp)
}

// parseSize reads a --max-filesize value: a whole number of bytes with an
// optional K, M or G suffix (powers of 1024), or "none" (-1: no cap).
func parseSize(v string) (int64, error) {
	if v == "none" {
		return -1, nil
	}
	shift := 0
	if v != "" {
		if i := strings.IndexByte("KMG", v[len(v)-1]&^0x20); i >= 0 {
			shift = 10 * (i + 1)
			v = v[:len(v)-1]
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("want a positive number of bytes with an optional K, M or G suffix (10M), or none")
	}
	return n << shift, nil
}

// check validates the shared flags and turns the CLI's explicit zero into
// the Config's "none" (a negative value).
func (s *settings) check() error {
	if s.cfg.Style != "hashline" && s.cfg.Style != "plain" {
		return fmt.Errorf("--style must be hashline or plain, got %q", s.cfg.Style)
	}
	if s.cfg.ContextBefore < 0 || s.cfg.ContextAfter < 0 {
		return fmt.Errorf("--context-before and --context-after must be 0 or more")
	}
	if s.cfg.ReadLimit < 1 {
		return fmt.Errorf("--read-limit must be at least 1, got %d", s.cfg.ReadLimit)
	}
	if s.cfg.ContextBefore == 0 {
		s.cfg.ContextBefore = -1
	}
	if s.cfg.ContextAfter == 0 {
		s.cfg.ContextAfter = -1
	}
	if s.cfg.Root != "" {
		st, err := os.Stat(s.cfg.Root)
		if err != nil {
			return fmt.Errorf("--root %s: %v", s.cfg.Root, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("--root %s is not a directory", s.cfg.Root)
		}
	}
	return nil
}

func newFlagSet(name string, stderr io.Writer, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: scout %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterspersed parses flags that may appear after positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
