package main

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/testfs"
)

// runCLI runs the command line in process.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestHelp: -h prints the command's help to stdout and exits 0; the help
// lists the command's own flags, each once, with at most one default, then
// on one line the shared flags it accepts without a use for them.
func TestHelp(t *testing.T) {
	tests := []struct {
		cmd   string
		flags []string // every flag the help lists, in order
		inert string   // the shared flags accepted with no effect
	}{
		{"search", []string{"-A", "-B", "-c", "-C", "--context-after", "--context-before", "-g", "--hidden", "-i", "-l", "-m", "--max-filesize", "--no-hidden", "--no-ignore", "--root", "--sort", "--stats", "--style", "-t", "-U", "--zoekt", "--zoekt-repo"}, "--read-limit N"},
		{"read", []string{"--allow-private-network", "--no-summaries", "--read-limit", "--root", "--style"}, "--context-after N, --context-before N"},
		{"find", []string{"--limit", "--no-hidden", "--no-ignore", "--root", "--timeout"}, "--context-after N, --context-before N, --read-limit N, --style STYLE"},
		{"call", []string{"--allow-private-network", "--context-after", "--context-before", "--max-filesize", "--no-web", "--read-limit", "--root", "--style", "--toolset", "--zoekt", "--zoekt-repo"}, ""},
		{"tools", []string{"--toolset"}, ""},
		{"version", nil, ""},
		{"mcp", []string{"--allow-private-network", "--context-after", "--context-before", "--max-filesize", "--no-web", "--read-limit", "--root", "--style", "--toolset", "--zoekt", "--zoekt-repo"}, ""},
	}
	flagLine := regexp.MustCompile(`^  (-{1,2}[a-zA-Z-]+)`)
	for _, tt := range tests {
		for _, h := range []string{"-h", "--help"} {
			code, out, errb := runCLI(tt.cmd, h)
			if code != 0 || errb != "" || !strings.HasPrefix(out, "Usage: scout "+tt.cmd) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want 0 and the help on stdout", tt.cmd, h, code, out, errb)
				continue
			}
			head := "\nAccepted as call and mcp accept them, with no effect on " + tt.cmd + ":\n  "
			out, inert, _ := strings.Cut(out, head)
			if inert != "" {
				inert = strings.TrimSuffix(inert, "\n")
			}
			if inert != tt.inert {
				t.Errorf("%s %s: accepted without effect %q, want %q", tt.cmd, h, inert, tt.inert)
			}
			var listed []string
			for _, line := range strings.Split(out, "\n") {
				if m := flagLine.FindStringSubmatch(line); m != nil {
					listed = append(listed, m[1])
					if n := strings.Count(line, "default"); n > 1 {
						t.Errorf("%s: %q says default %d times", tt.cmd, line, n)
					}
				}
			}
			if !slices.Equal(listed, tt.flags) {
				t.Errorf("%s %s lists %v, want %v", tt.cmd, h, listed, tt.flags)
			}
		}
	}
	code, out, _ := runCLI("-h")
	if code != 0 || !strings.Contains(out, "  scout version\n") {
		t.Errorf("scout -h: exit %d, %q; want 0 and scout version listed", code, out)
	}
	for _, v := range []string{"version", "--version"} {
		if code, out, errb := runCLI(v); code != 0 || out != "scout "+version+"\n" || errb != "" {
			t.Errorf("scout %s: exit %d, stdout %q, stderr %q; want 0 and the version", v, code, out, errb)
		}
	}
	if code, _, errb := runCLI(); code != 2 || !strings.Contains(errb, "Usage:") {
		t.Errorf("scout alone: exit %d, stderr %q; want the usage and 2", code, errb)
	}
}

// TestHelpCommand: scout help COMMAND prints what scout COMMAND -h
// prints, where it prints it, with its exit status; scout help alone the
// usage; an unknown COMMAND is a usage error naming the commands.
func TestHelpCommand(t *testing.T) {
	for _, c := range commands {
		code, out, errb := runCLI("help", c.name)
		wcode, wout, werrb := runCLI(c.name, "-h")
		if code != wcode || out != wout || errb != werrb || !strings.HasPrefix(out, "Usage: scout "+c.name) {
			t.Errorf("scout help %s: exit %d, stdout %q, stderr %q; want what -h gives: exit %d, stdout %q, stderr %q", c.name, code, out, errb, wcode, wout, werrb)
		}
	}
	_, usage, _ := runCLI("-h")
	if !strings.Contains(usage, "scout help [COMMAND]") {
		t.Errorf("the usage does not list help: %q", usage)
	}
	for _, args := range [][]string{{"help"}, {"help", "help"}, {"help", "--help"}, {"--help"}} {
		if code, out, errb := runCLI(args...); code != 0 || out != usage || errb != "" {
			t.Errorf("scout %v: exit %d, stdout %q, stderr %q; want 0 and the usage", args, code, out, errb)
		}
	}
	names := "search, read, find, call, tools, mcp, version"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"help", "nosuch"}, `scout help: unknown command "nosuch"; the commands are ` + names + "\n"},
		{[]string{"help", "-x"}, `scout help: unknown command "-x"; the commands are ` + names + "\n"},
		{[]string{"help", "search", "read"}, "scout help: want one COMMAND (" + names + "), got 2 arguments\n"},
	}
	for _, tt := range tests {
		if code, out, errb := runCLI(tt.args...); code != 2 || out != "" || errb != tt.want {
			t.Errorf("scout %v: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, out, errb, tt.want)
		}
	}
}

// TestSharedFlags: call, mcp and the human commands accept --style,
// --context-before, --context-after and --read-limit alike, also a command
// on which one has no effect, and refuse a bad value the same way.
func TestSharedFlags(t *testing.T) {
	root := writeTree(t, map[string][]byte{"a.txt": []byte("alpha\n")})
	shared := []string{"--root", root, "--style", "plain", "--context-before", "0", "--context-after", "2", "--read-limit", "10"}
	for _, args := range [][]string{
		{"find", "*.txt"},
		{"read", "a.txt"},
		{"search", "alpha"},
		{"call", "find", `{"paths":["*.txt"]}`},
	} {
		code, out, errb := runCLI(append(append([]string{args[0]}, shared...), args[1:]...)...)
		if code != 0 || errb != "" || !strings.Contains(out, "a.txt") && !strings.Contains(out, "alpha") {
			t.Errorf("%s with the shared flags: exit %d, stdout %q, stderr %q; want 0 and the result", args[0], code, out, errb)
		}
		code, _, errb = runCLI(args[0], "--style", "fancy", args[1])
		if code != 2 || !strings.Contains(errb, "--style must be") {
			t.Errorf("%s --style fancy: exit %d, stderr %q; want the usage error", args[0], code, errb)
		}
	}
}

// TestErrorPrefix: every command's errors start with "scout CMD: ", usage
// errors exit 2 and run-time errors 1.
func TestErrorPrefix(t *testing.T) {
	root := writeTree(t, map[string][]byte{"a.txt": []byte("alpha\n")})
	tests := []struct {
		args   []string
		code   int
		want   string // in stderr after the prefix
		reason string
	}{
		{[]string{"search", "--nope"}, 2, "unknown flag --nope\n", "unknown flag, as typed"},
		{[]string{"search", "-nope"}, 2, "unknown flag -nope\n", "unknown flag, as typed"},
		{[]string{"search", "--nope=1", "x"}, 2, "unknown flag --nope\n", "unknown flag with a value"},
		{[]string{"search", "-g", "-nope", "--nope", "x"}, 2, "unknown flag --nope\n", "the flag refused, not -g's value"},
		{[]string{"search", "x", "--root", root, "-t", `a" for flag -g: b`}, 2, `invalid value "a\" for flag -g: b" for -t: Unknown file type`, "a value that reads as the message"},
		{[]string{"search", "x", "-A"}, 2, "flag -A needs a value", "missing value"},
		{[]string{"find", "*", "--limit"}, 2, "flag --limit needs a value", "missing value"},
		{[]string{"find", "--limit", "x", "*"}, 2, "invalid value \"x\" for --limit: want a whole number", "not a number"},
		{[]string{"find", "--timeout=x", "*"}, 2, "invalid value \"x\" for --timeout: want a number", "not a number"},
		{[]string{"search", "-i=maybe", "x"}, 2, "invalid value \"maybe\" for -i: want true or false", "not a boolean"},
		{[]string{"read", "--no-summaries=2", "a.txt"}, 2, "invalid value \"2\" for --no-summaries: want true or false", "not a boolean"},
		{[]string{"search"}, 2, "missing PATTERN", "no pattern"},
		{[]string{"search", "x", "--root", root, "-A", "-2"}, 2, "-A must be 0 or more", "bad value"},
		{[]string{"search", "x", "--root", root, "-A", "-1"}, 2, "-A must be 0 or more, got -1", "-1 is no default"},
		{[]string{"search", "x", "--root", root, "-C-1"}, 2, "-C must be 0 or more, got -1", "-1 is no default"},
		{[]string{"search", "x", "--root", root, "-m", "-1"}, 2, "-m must be 1 or more, got -1", "-1 is no default"},
		{[]string{"search", "x", "--sort", "size"}, 2, "--sort must be none or path", "bad sort"},
		{[]string{"search", "(", "--root", root}, 1, "Invalid regex", "bad pattern"},
		{[]string{"search", "x", "--root", root, "-t", "nope"}, 2, "invalid value \"nope\" for -t: Unknown file type 'nope'", "bad flag value"},
		{[]string{"search", "x", "--root", root, "-tgo", "-g", "["}, 2, "invalid value \"[\" for -g: Invalid glob", "bad flag value"},
		{[]string{"search", "x", "--root", root, "a.txt", ""}, 2, "a PATH is empty", "empty PATH: a usage error, as find's empty GLOB"},
		{[]string{"search", "x", "--root", root, " "}, 2, "a PATH is empty", "blank PATH"},
		{[]string{"read", "--root", root}, 2, "want one PATH", "no path"},
		{[]string{"read", "--root", root, "nope.txt"}, 1, "Path 'nope.txt' not found", "error result"},
		{[]string{"read", "--root", root, ""}, 2, "PATH is empty", "empty PATH: a usage error, as find's empty GLOB"},
		{[]string{"read", "--root", root, " \t"}, 2, "PATH is empty", "blank PATH"},
		{[]string{"read", "--read-limit", "0", "a.txt"}, 2, "invalid value \"0\" for --read-limit: want a number of lines, at least 1", "bad read limit"},
		{[]string{"find", "--root", root}, 2, "missing GLOB", "no glob"},
		{[]string{"find", "--limit", "500", "*"}, 2, "--limit must be 1 to 200, got 500", "limit over the tool's maximum"},
		{[]string{"find", "--root", root, "--timeout", "NaN", "*"}, 2, "--timeout must be 0.5 to 60 seconds, got NaN", "NaN is no number of seconds"},
		{[]string{"find", "--timeout", "0.1", "*"}, 2, "--timeout must be 0.5 to 60 seconds", "timeout under the minimum"},
		{[]string{"find", "--root", root, "nope/*.go"}, 1, "not found", "missing base"},
		{[]string{"find", "--root", root, "*", ""}, 2, "a GLOB is empty", "empty GLOB"},
		{[]string{"find", "--root", root, " "}, 2, "a GLOB is empty", "blank GLOB"},
		{[]string{"call", "--style", "fancy", "find"}, 2, "--style must be hashline, numbered, plain", "bad style"},
		{[]string{"call", "--style", "", "find"}, 2, "--style must be hashline, numbered, plain, got \"\"", "an empty style names none (it was the default)"},
		{[]string{"read", "--style=", "a.txt"}, 2, "--style must be hashline, numbered, plain, got \"\"", "an empty style names none (it was the default)"},
		{[]string{"mcp", "--style", ""}, 2, "--style must be hashline, numbered, plain, got \"\"", "an empty style names none (it was the default)"},
		{[]string{"call", "--toolset", "", "find", "{}"}, 2, "invalid value \"\" for --toolset: want a toolset: amplifier, pi, standardized", "an empty toolset names none (it was pi)"},
		{[]string{"tools", "--toolset="}, 2, "want a toolset: amplifier, pi, standardized", "an empty toolset names none (it was pi)"},
		{[]string{"mcp", "--toolset", ""}, 2, "want a toolset: amplifier, pi, standardized", "an empty toolset names none (it was pi)"},
		{[]string{"call"}, 2, "want TOOL", "no tool"},
		{[]string{"tools", "x"}, 2, "takes no arguments", "positional argument"},
		{[]string{"version", "--nope"}, 2, "unknown flag --nope\n", "unknown flag"},
		{[]string{"version", "x"}, 2, "takes no arguments", "positional argument"},
		{[]string{"tools", "--toolset", "nope"}, 2, "Unknown toolset 'nope'", "unknown toolset"},
		{[]string{"mcp", "--context-after", "-1"}, 2, "want a number of lines, 0 or more", "bad context"},
	}
	for _, tt := range tests {
		code, out, errb := runCLI(tt.args...)
		prefix := "scout " + tt.args[0] + ": "
		if code != tt.code || !strings.HasPrefix(errb, prefix) || !strings.Contains(errb, tt.want) || out != "" {
			t.Errorf("%s: %v: exit %d, stdout %q, stderr %q; want %d and %q%s...", tt.reason, tt.args, code, out, errb, tt.code, prefix, tt.want)
		}
		if tt.code == 2 && !strings.Contains(errb, "Run 'scout "+tt.args[0]+" -h' for its flags.") {
			t.Errorf("%s: a usage error does not point to -h: %q", tt.reason, errb)
		}
	}
}

// TestAttachedValues: short flags take attached values and combine as
// ripgrep's do.
func TestAttachedValues(t *testing.T) {
	root := writeTree(t, map[string][]byte{
		"a.txt": []byte("one\nTwo\nthree\nfour\ntwo\nsix\n"),
		"b.txt": []byte("nothing\n"),
	})
	tests := []struct {
		attached, separate []string
	}{
		{[]string{"-C0"}, []string{"-C", "0"}},
		{[]string{"-A2"}, []string{"-A", "2"}},
		{[]string{"-B1", "-A0"}, []string{"-B", "1", "-A", "0"}},
		{[]string{"-m1"}, []string{"-m", "1"}},
		{[]string{"-il"}, []string{"-i", "-l"}},
		{[]string{"-ic"}, []string{"-i", "-c"}},
		{[]string{"-C=1"}, []string{"-C", "1"}},
		{[]string{"-gb.txt", "-tnope"}, []string{"-g", "b.txt", "-t", "nope"}},
	}
	for _, tt := range tests {
		base := []string{"search", "two", "--root", root, "--sort", "path"}
		c1, out1, err1 := runCLI(append(base, tt.attached...)...)
		c2, out2, err2 := runCLI(append(base, tt.separate...)...)
		if c1 != c2 || out1 != out2 || err1 != err2 {
			t.Errorf("%v: exit %d %q %q; %v: exit %d %q %q", tt.attached, c1, out1, err1, tt.separate, c2, out2, err2)
		}
	}
	if code, out, _ := runCLI("search", "two", "--root", root, "-C0", "a.txt"); code != 0 || out != "¶a.txt#"+tagOf(t, root, "a.txt")+"\n*5:two\n" {
		t.Errorf("-C0: exit %d, %q; want the match alone", code, out)
	}
	// A pattern after -- is never a flag.
	if code, out, _ := runCLI("search", "--root", root, "-l", "--", "-C0"); code != 0 || !strings.HasPrefix(out, "No matches found") {
		t.Errorf("-- -C0: exit %d, %q; want a search for -C0", code, out)
	}
	// Nor is any argument after it: a path starting with '-' included.
	for _, args := range [][]string{{"--", "-one", "-a.txt"}, {"-l", "--", "-one", "-a.txt"}, {"--sort", "path", "--", "-one", "-a.txt", "-i"}} {
		code, out, errb := runCLI(append([]string{"search", "--root", root}, args...)...)
		if code != 1 || !strings.Contains(errb, "-a.txt") || !strings.Contains(errb, "not found") {
			t.Errorf("%v: exit %d, %q %q; want a search for -one in the missing file -a.txt", args, code, out, errb)
		}
	}
}

// TestSearchLineRanges: a PATH may end in line ranges, alone (printed as
// one file) or among other paths (file by file); a file named with a
// colon is that file.
func TestSearchLineRanges(t *testing.T) {
	root := writeTree(t, map[string][]byte{
		"a.txt":   []byte("two\nx\ntwo\ntwo\n"),
		"b.txt":   []byte("two\n"),
		"log:1-2": []byte("two\n"),
	})
	a, b, log := tagOf(t, root, "a.txt"), tagOf(t, root, "b.txt"), tagOf(t, root, "log:1-2")
	tests := []struct {
		paths []string
		want  string
	}{
		{[]string{"a.txt:2-3"}, "¶a.txt#" + a + "\n2:x\n*3:two\n"},
		{[]string{"a.txt:3-3,1-2", "b.txt"}, "# a.txt#" + a + "\n*1:two\n2:x\n*3:two\n\n# b.txt#" + b + "\n*1:two\n"},
		{[]string{"a.txt:4", "b.txt"}, "# a.txt#" + a + "\n*4:two\n\n# b.txt#" + b + "\n*1:two\n"},
		{[]string{"log:1-2"}, "¶log:1-2#" + log + "\n*1:two\n"},
	}
	for _, tt := range tests {
		args := append([]string{"search", "two", "--root", root, "--sort", "path"}, tt.paths...)
		if code, out, errb := runCLI(args...); code != 0 || out != tt.want {
			t.Errorf("search two %v: exit %d %q %s; want %q", tt.paths, code, out, errb, tt.want)
		}
	}
	if code, _, errb := runCLI("search", "two", "--root", root, "a.txt", "nope.txt:1-2"); code != 1 || !strings.Contains(errb, "Path not found for line-range selector: nope.txt") {
		t.Errorf("a missing path with ranges among others: exit %d, %q; want 1 and NOT_FOUND", code, errb)
	}
}

// TestSearchOneFile: entries that name one file, however many (ranges of
// it, a second spelling, a missing path beside it), or one archive member,
// print its lines under the single-file header, as the search tool prints
// them (SearchResult.Single); other scopes print each file under its
// heading.
func TestSearchOneFile(t *testing.T) {
	root := writeTree(t, map[string][]byte{
		"a.txt":    []byte("two\nx\ntwo\ntwo\n"),
		"src/m.go": []byte("// two\n"),
		"z.zip":    testfs.Zip(testfs.Member{Name: "x.ts", Body: "two\n"}),
		"t.tar":    []byte("not a tar: two\n"),
	})
	// read takes t.tar for an archive, which it is not: its tag is computed.
	a, m, tt := tagOf(t, root, "a.txt"), tagOf(t, root, "src/m.go"), hashline.Tag([]byte("not a tar: two\n"))
	tests := []struct {
		paths  []string
		want   string
		single bool
	}{
		{[]string{"a.txt"}, "¶a.txt#" + a + "\n*1:two\n2:x\n*3:two\n*4:two\n", true},
		{[]string{"a.txt:1-1", "a.txt:4-4"}, "¶a.txt#" + a + "\n*1:two\n...\n*4:two\n", true},
		{[]string{"a.txt", "./a.txt"}, "¶a.txt#" + a + "\n*1:two\n2:x\n*3:two\n*4:two\n", true},
		{[]string{"a.txt:1-1", "a.txt"}, "¶a.txt#" + a + "\n*1:two\n2:x\n*3:two\n*4:two\n", true},
		{[]string{"a.txt:3", "nope.txt"}, "¶a.txt#" + a + "\n*3:two\n*4:two\n\nSkipped missing paths: nope.txt\n", true},
		{[]string{"z.zip:x.ts"}, "*1|two\n", true},
		{[]string{"t.tar"}, "¶t.tar#" + tt + "\n*1:not a tar: two\n", true},
		{[]string{"a.txt:1-1", "src/m.go"}, "# a.txt#" + a + "\n*1:two\n\n# src/m.go#" + m + "\n*1:// two\n", false},
		{[]string{"src"}, "# src/m.go#" + m + "\n*1:// two\n", false},
		{[]string{"z.zip"}, "# z.zip:x.ts\n*1|two\n", false},
	}
	for _, tc := range tests {
		args := append([]string{"search", "two", "--root", root, "--sort", "path"}, tc.paths...)
		code, out, errb := runCLI(args...)
		if code != 0 || out != tc.want {
			t.Errorf("search two %v: exit %d %q %s; want %q", tc.paths, code, out, errb, tc.want)
		}
		if !tc.single {
			continue
		}
		// The same text as the tool's.
		in, _ := json.Marshal(map[string]any{"pattern": "two", "paths": tc.paths})
		_, call, _ := runCLI("call", "--root", root, "search", string(in))
		var env struct{ Text string }
		if err := json.Unmarshal([]byte(call), &env); err != nil || env.Text+"\n" != out {
			t.Errorf("search two %v: %q; the tool says %q (%v)", tc.paths, out, env.Text, err)
		}
	}
}

// tagOf returns the hashline tag of a file, as a read shows it.
func tagOf(t *testing.T, root, name string) string {
	t.Helper()
	_, out, _ := runCLI("read", "--root", root, name)
	first, _, _ := strings.Cut(out, "\n")
	_, tag, ok := strings.Cut(first, "#")
	if !ok {
		t.Fatalf("read %s: no tag in %q", name, out)
	}
	return tag
}

// TestNotices: the command line's notices name its flags; a tool's
// notices, also through call, name the tool's arguments.
func TestNotices(t *testing.T) {
	root := writeTree(t, map[string][]byte{
		"a.txt": []byte("x\n"), "b.txt": []byte("x\n"), ".hidden.txt": []byte("x\n"),
		".gitignore": []byte("ignored.txt\n"), "ignored.txt": []byte("x\n"), ".git/HEAD": []byte("ref: refs/heads/main\n"),
	})
	tests := []struct {
		args      []string
		want, not []string
		reason    string
	}{
		{[]string{"find", "*.txt", "--limit", "1"}, []string{"Use --limit 2 for more"}, []string{"limit="}, "the limit notice names --limit"},
		{[]string{"find", "*.md", "--no-hidden"}, []string{"drop --no-hidden", "--no-ignore"}, []string{"gitignore:", "hidden:"}, "left out entries name flags"},
		{[]string{"search", "nomatch", "--no-hidden"}, []string{"Not searched:", "--no-ignore searches what ignore files leave out"}, []string{"gitignore:"}, "what was not searched names --no-ignore"},
		{[]string{"call", "find", `{"paths": ["*.txt"], "limit": 1}`}, []string{"Use limit=2 for more"}, []string{"--limit"}, "the tool's notice names its argument"},
		{[]string{"call", "search", `{"paths": ".", "pattern": "nomatch"}`}, []string{"pass gitignore: false"}, []string{"--no-ignore"}, "the tool's notice names its argument"},
	}
	for _, tt := range tests {
		code, out, errb := runCLI(append(tt.args, "--root", root)...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tt.args, code, errb)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: %v: output lacks %q:\n%s", tt.reason, tt.args, w, out)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: %v: output holds %q:\n%s", tt.reason, tt.args, n, out)
			}
		}
	}
}

// TestStyles: --style prints the same kind of line in search and read,
// as the tools print them: a search in the plain style keeps pi's plain
// mode's numbers; numbered is selectable.
func TestStyles(t *testing.T) {
	root := writeTree(t, map[string][]byte{"a.txt": []byte("one\ntwo\n")})
	tag := tagOf(t, root, "a.txt")
	tests := []struct {
		style, search, read string
	}{
		{"hashline", "¶a.txt#" + tag + "\n1:one\n*2:two\n", "¶a.txt#" + tag + "\n1:one\n2:two\n"},
		{"numbered", "1|one\n*2|two\n", "1|one\n2|two\n"},
		{"plain", "1|one\n*2|two\n", "one\ntwo\n"},
	}
	for _, tt := range tests {
		if code, out, errb := runCLI("search", "two", "a.txt", "--root", root, "--style", tt.style); code != 0 || out != tt.search {
			t.Errorf("search --style %s: exit %d %q %s; want %q", tt.style, code, out, errb, tt.search)
		}
		if code, out, errb := runCLI("read", "a.txt", "--root", root, "--style", tt.style); code != 0 || out != tt.read {
			t.Errorf("read --style %s: exit %d %q %s; want %q", tt.style, code, out, errb, tt.read)
		}
	}
}

// gateFS is a file system whose file gate (or, when gate is "", whose
// files after the first opened) cannot be opened until release is closed:
// a search that waits for them cannot end before then.
type gateFS struct {
	fstest.MapFS
	gate    string
	opened  *atomic.Int32
	release chan struct{}
}

func (g gateFS) Open(name string) (fs.File, error) {
	if g.gate != "" && name == g.gate || g.gate == "" && strings.HasSuffix(name, ".txt") && g.opened.Add(1) > 1 {
		<-g.release
	}
	return g.MapFS.Open(name)
}

// firstWrite is a writer that reports its first write.
type firstWrite struct {
	mu    sync.Mutex
	b     bytes.Buffer
	first chan struct{}
	once  sync.Once
}

func (w *firstWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.first) })
	return w.b.Write(p)
}

func (w *firstWrite) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// withTerminals makes the writers in ttys terminals and sets the search
// and find file system for one test.
func withTerminals(t *testing.T, fsys fs.FS, ttys ...io.Writer) {
	t.Helper()
	oldTerm, oldFS, oldDelay := isTerminal, workspaceFS, progressDelay
	isTerminal = func(w io.Writer) bool { return slices.Contains(ttys, w) }
	workspaceFS = fsys
	progressDelay = 0
	t.Cleanup(func() { isTerminal, workspaceFS, progressDelay = oldTerm, oldFS, oldDelay })
}

// TestSearchStreams: matches are printed while the search still runs,
// in either order; the totals come at the end.
func TestSearchStreams(t *testing.T) {
	want := map[string]string{
		"a/hit.txt":  "# a/hit.txt\n*1|needle\n",
		"z/gate.txt": "# z/gate.txt\n*1|needle too\n",
	}
	for _, sortBy := range []string{"none", "path"} {
		t.Run(sortBy, func(t *testing.T) {
			// In path order a/hit.txt comes first whatever is opened first;
			// as searched, whichever file is opened first.
			gate := ""
			if sortBy == "path" {
				gate = "z/gate.txt"
			}
			g := gateFS{fstest.MapFS{"a/hit.txt": {Data: []byte("needle\n")}, "z/gate.txt": {Data: []byte("needle too\n")}}, gate, new(atomic.Int32), make(chan struct{})}
			out := &firstWrite{first: make(chan struct{})}
			withTerminals(t, g, out)
			done := make(chan int)
			go func() {
				done <- run([]string{"search", "needle", "--sort", sortBy, "--style", "plain"}, nil, out, io.Discard)
			}()
			select {
			case <-out.first:
			case code := <-done:
				t.Fatalf("the search ended (exit %d) before the gate opened", code)
			case <-time.After(30 * time.Second):
				close(g.release)
				<-done // the search must end before the cleanup restores the globals
				t.Fatalf("no output in 30 s while the search waits on a file: the matches are not streamed")
			}
			first := out.String()
			if first != want["a/hit.txt"] && (sortBy == "path" || first != want["z/gate.txt"]) {
				t.Errorf("first output %q, want one file's match (a/hit.txt's in path order)", first)
			}
			close(g.release)
			if code := <-done; code != 0 {
				t.Fatalf("exit %d", code)
			}
			second := want["z/gate.txt"]
			if first == second {
				second = want["a/hit.txt"]
			}
			if got := out.String(); got != first+"\n"+second {
				t.Errorf("output %q, want both files, %q first", got, first)
			}
		})
	}
}

// TestProgress: on a terminal, stderr shows the files and bytes searched
// (or the entries walked) and is cleared at the end; otherwise nothing.
func TestProgress(t *testing.T) {
	m := fstest.MapFS{"a.txt": {Data: []byte("needle\n")}, "b.txt": {Data: []byte("other\n")}}
	for _, tty := range []bool{true, false} {
		slow := testfs.SlowFS{MapFS: m, Delay: 300 * time.Millisecond}
		var stdout, stderr bytes.Buffer
		var ttys []io.Writer
		if tty {
			ttys = append(ttys, &stderr)
		}
		withTerminals(t, slow, ttys...)
		if code := run([]string{"search", "needle"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "needle") {
			t.Fatalf("search: exit %d, %q", code, stdout.String())
		}
		if code := run([]string{"find", "*.txt"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "b.txt") {
			t.Fatalf("find: exit %d, %q", code, stdout.String())
		}
		errs := stderr.String()
		if !tty {
			if errs != "" {
				t.Errorf("stderr is not a terminal, yet it got %q", errs)
			}
			continue
		}
		for _, want := range []string{"\r\x1b[Ksearched ", " files, ", " s", "\r\x1b[Kwalked ", " entries, "} {
			if !strings.Contains(errs, want) {
				t.Errorf("terminal stderr %q lacks %q", errs, want)
			}
		}
		if !strings.HasSuffix(errs, "\r\x1b[K") {
			t.Errorf("the progress line is not cleared at the end: %q", errs)
		}
	}
}
