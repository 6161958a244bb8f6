package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/tool"
)

// flags is one subcommand's flag set: it prints the command's own help
// (to stdout for -h, exit 0) and reports every error as "scout CMD: ...".
type flags struct {
	*flag.FlagSet
	cmd    *command
	stdout io.Writer
	stderr io.Writer
	inert  []string // shared flags the command accepts and has no use for, by name
}

func newFlags(c *command, stdout, stderr io.Writer) *flags {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are printed by parse
	fs.Usage = func() {}
	return &flags{FlagSet: fs, cmd: c, stdout: stdout, stderr: stderr}
}

// parse parses args, flags and positional arguments mixed (everything
// after "--" is positional). Short flags take attached values as ripgrep's
// do (-C0, -A2, -m5) and bool short flags combine (-il). It returns the
// positional arguments, or ok false with the exit status: 0 after -h
// printed the help, 2 after a usage error.
func (f *flags) parse(args []string) (pos []string, code int, ok bool) {
	end := f.terminator(args)
	rest := args[min(end+1, len(args)):]
	args = f.expandShort(args[:end])
	for {
		err := f.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			f.help(f.stdout)
			return nil, 0, false
		}
		if err != nil {
			// The flag package has consumed the argument it refused.
			typed := ""
			if i := len(args) - len(f.Args()) - 1; i >= 0 && i < len(args) {
				typed = args[i]
			}
			return nil, f.usageError("%s", f.flagError(err, typed)), false
		}
		args = f.Args()
		if len(args) == 0 {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// terminator returns the index in args of the "--" that ends the flags,
// or len(args) when none does; a "--" that is a flag's value (-g --) ends
// nothing.
func (f *flags) terminator(args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return i
		}
		if len(a) < 2 || a[0] != '-' || strings.Contains(a, "=") {
			continue
		}
		if fl := f.Lookup(strings.TrimPrefix(a[1:], "-")); fl != nil && !isBool(fl) {
			i++ // its value
		}
	}
	return len(args)
}

// expandShort rewrites "-C0" as "-C", "0" when -C takes a value, and
// "-il" as "-i", "-l" when every letter is a bool flag; other arguments
// are left as they are.
func (f *flags) expandShort(args []string) []string {
	var out []string
	for _, a := range args {
		if len(a) < 3 || a[0] != '-' || a[1] == '-' || strings.Contains(a, "=") || f.Lookup(a[1:]) != nil {
			out = append(out, a)
			continue
		}
		if fl := f.Lookup(a[1:2]); fl != nil && !isBool(fl) {
			out = append(out, a[:2], a[2:])
			continue
		}
		split := make([]string, 0, len(a)-1)
		for _, r := range a[1:] {
			if fl := f.Lookup(string(r)); fl == nil || !isBool(fl) {
				split = nil
				break
			}
			split = append(split, "-"+string(r))
		}
		if split == nil {
			out = append(out, a) // the flag package reports it
			continue
		}
		out = append(out, split...)
	}
	return out
}

// flagName is a flag's name as the help spells it: -C, --read-limit.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagError words an error of the flag package with the flag named as the
// help names it (the package writes -read-limit, the help --read-limit),
// and an unknown flag as typed, the argument it refused.
func (f *flags) flagError(err error, typed string) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		typed, _, _ = strings.Cut(typed, "=")
		if typed != "--"+name {
			typed = "-" + name
		}
		return "unknown flag " + typed
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok && f.Lookup(name) != nil {
		return "flag " + flagName(name) + " needs a value"
	}
	for _, head := range []string{"invalid value ", "invalid boolean value "} {
		rest, ok := strings.CutPrefix(msg, head)
		if !ok {
			continue
		}
		value, err := strconv.QuotedPrefix(rest) // the value refused, quoted
		if err != nil {
			break
		}
		rest = strings.TrimPrefix(strings.TrimPrefix(rest[len(value):], " for"), " flag")
		name, why, _ := strings.Cut(strings.TrimPrefix(rest, " -"), ": ")
		fl := f.Lookup(name)
		if fl == nil {
			break
		}
		if why == "parse error" { // the flag package's own, for its typed flags
			why = "want " + valueKind(fl)
		}
		return "invalid value " + value + " for " + flagName(name) + ": " + why
	}
	return msg
}

// valueKind says what a flag of the flag package's types takes.
func valueKind(fl *flag.Flag) string {
	g, _ := fl.Value.(flag.Getter)
	if g == nil {
		return "a valid value"
	}
	switch g.Get().(type) {
	case bool:
		return "true or false"
	case int, int64, uint, uint64:
		return "a whole number"
	case float64:
		return "a number"
	}
	return "a valid value"
}

func isBool(fl *flag.Flag) bool {
	b, ok := fl.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// blank reports whether an argument is empty or only white space: a PATH
// or GLOB that names nothing, which the commands refuse as a usage error.
func blank(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return strings.TrimSpace(a) == "" })
}

// usageError prints a usage error and returns the exit status 2.
func (f *flags) usageError(format string, a ...any) int {
	fmt.Fprintf(f.stderr, "scout %s: %s\nRun 'scout %s -h' for its flags.\n", f.cmd.name, fmt.Sprintf(format, a...), f.cmd.name)
	return 2
}

// fail prints a run-time error and returns the exit status 1.
func (f *flags) fail(format string, a ...any) int {
	fmt.Fprintf(f.stderr, "scout %s: %s\n", f.cmd.name, fmt.Sprintf(format, a...))
	return 1
}

// help prints the command's usage, description and flags. A flag's usage
// text states its default itself; the flag package's own "(default ...)"
// is not added.
func (f *flags) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: scout %s\n\n%s\n", f.cmd.usage, f.cmd.help)
	type row struct{ name, usage string }
	var rows []row
	width := 0
	var inert []string
	f.VisitAll(func(fl *flag.Flag) {
		arg, usage := flag.UnquoteUsage(fl)
		name := "--" + fl.Name
		if len(fl.Name) == 1 {
			name = "-" + fl.Name
		}
		if arg != "" {
			name += " " + arg
		}
		if slices.Contains(f.inert, fl.Name) {
			inert = append(inert, name)
			return
		}
		width = max(width, len(name))
		rows = append(rows, row{name, usage})
	})
	if len(rows) > 0 {
		sort.SliceStable(rows, func(i, j int) bool {
			return strings.ToLower(strings.TrimLeft(rows[i].name, "-")) < strings.ToLower(strings.TrimLeft(rows[j].name, "-"))
		})
		fmt.Fprintln(w, "\nFlags:")
		for _, r := range rows {
			fmt.Fprintf(w, "  %-*s  %s\n", width, r.name, r.usage)
		}
	}
	if len(inert) > 0 {
		fmt.Fprintf(w, "\nAccepted as call and mcp accept them, with no effect on %s:\n  %s\n", f.cmd.name, strings.Join(inert, ", "))
	}
}

// settings are the host settings of the tools: the project root and the
// text and search settings a model cannot change. Each command registers
// the ones it uses.
type settings struct {
	toolset string
	cfg     tool.Config
	zoekt   zoektSettings
}

func (s *settings) toolsetFlag(f *flags) {
	s.toolset = tool.DefaultToolset
	f.Func("toolset", "the `NAME`d toolset: "+strings.Join(tool.Toolsets(), ", ")+" (default "+tool.DefaultToolset+")", func(v string) error {
		if v == "" {
			// The tool package reads "" as the default toolset; given on
			// the command line it names none.
			return fmt.Errorf("want a toolset: %s", strings.Join(tool.Toolsets(), ", "))
		}
		s.toolset = v
		return nil
	})
}

func (s *settings) rootFlag(f *flags) {
	f.StringVar(&s.cfg.Root, "root", "", "the project root `DIR`, also the working directory (default the current directory)")
}

// styles are the --style values.
var styles = []string{format.StyleHashline, format.StyleNumbered, format.StylePlain}

func (s *settings) styleFlag(f *flags) {
	f.StringVar(&s.cfg.Style, "style", format.StyleHashline, "line `STYLE` of search and read text: hashline (N:text under ¶path#TAG or \"# path#TAG\" headings), numbered (N|text) or plain (pi's plain mode: N|text in search, the text alone in read) (default hashline)")
}

func (s *settings) contextFlags(f *flags) {
	f.Func("context-before", "`N` context lines before a match in search (default 1)", func(v string) error {
		return contextLines(v, &s.cfg.ContextBefore)
	})
	f.Func("context-after", "`N` context lines after a match in search (default 3)", func(v string) error {
		return contextLines(v, &s.cfg.ContextAfter)
	})
}

// contextLines sets a Config context setting from a flag's number of
// lines, 0 for none.
func contextLines(v string, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("want a number of lines, 0 or more")
	}
	*dst = pitext.ContextSetting(n)
	return nil
}

func (s *settings) readLimitFlag(f *flags) {
	f.Func("read-limit", "`N` lines shown by a read without a range (default 300, at most 3000)", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("want a number of lines, at least 1")
		}
		s.cfg.ReadLimit = n
		return nil
	})
}

func (s *settings) maxFilesizeFlag(f *flags) {
	f.Func("max-filesize", "skip files larger than `SIZE` bytes in search, with a K, M or G suffix, or none for no cap (default 10M)", func(v string) error {
		n, err := parseSize(v)
		s.cfg.MaxFileSize = n
		return err
	})
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

// check validates the settings given.
func (s *settings) check() error {
	if !slices.Contains(styles, s.cfg.Style) { // every command that checks has --style, default hashline
		return fmt.Errorf("--style must be %s, got %q", strings.Join(styles, ", "), s.cfg.Style)
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
	return s.zoekt.apply(&s.cfg)
}

// webFlags are the flags of the hosts that serve read (call, mcp): --no-web
// and --allow-private-network.
func (s *settings) webFlags(f *flags) {
	f.BoolVar(&s.cfg.NoWeb, "no-web", false, "read refuses web URLs (http://, https://, www.)")
	s.privateFlag(f)
}

// privateFlag is --allow-private-network.
func (s *settings) privateFlag(f *flags) {
	f.BoolVar(&s.cfg.AllowPrivateNetwork, "allow-private-network", false, "read fetches URLs of loopback (localhost), private, link-local and cloud metadata addresses, which it refuses by default")
}

// sharedFlags registers the tool settings that call, mcp and every human
// command accept alike, so that one set of settings suits every command:
// --style, --context-before, --context-after and --read-limit. Those not
// named in used are accepted and have no effect on the command; its help
// lists them apart.
func (s *settings) sharedFlags(f *flags, used ...string) {
	s.styleFlag(f)
	s.contextFlags(f)
	s.readLimitFlag(f)
	for _, name := range []string{"style", "context-before", "context-after", "read-limit"} {
		if !slices.Contains(used, name) {
			f.inert = append(f.inert, name)
		}
	}
}

// hostFlags registers the settings of call and mcp: the toolset, the root
// and every tool setting.
func (s *settings) hostFlags(f *flags) {
	s.toolsetFlag(f)
	s.rootFlag(f)
	s.sharedFlags(f, "style", "context-before", "context-after", "read-limit")
	s.maxFilesizeFlag(f)
	s.zoekt.register(f)
}
