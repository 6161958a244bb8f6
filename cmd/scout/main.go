// Command scout is the command line of the Scout file tools.
//
//	scout search PATTERN [PATH...] [flags]       human use; prints the rendered text
//	scout read PATH[:SELECTOR] [flags]
//	scout find GLOB [GLOB...] [flags]
//	scout call [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network] TOOL [JSON|-]   prints one Envelope as JSON
//	scout tools [--toolset NAME]                  prints the tool definitions (name, description, JSON Schema)
//	scout mcp [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network]   serves the toolset over MCP on stdio
//	scout version
//	scout help [COMMAND]
//
// Each command's -h (or scout help COMMAND) lists its flags. Exit status: 0 for success or partial,
// 1 for an error result, 2 for a usage error.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one subcommand: it parses its own flags and returns the exit
// status.
type command struct {
	name  string
	usage string // the synopsis after "scout "
	help  string // what the command does, for its -h
	run   func(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands are the subcommands in the order the usage lists them.
var commands = []*command{searchCmd, readCmd, findCmd, callCmd, toolsCmd, mcpCmd, versionCmd}

var versionCmd = &command{
	name:  "version",
	usage: "version",
	help:  "Prints Scout's version.",
	run:   runVersion,
}

func runVersion(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newFlags(c, stdout, stderr)
	pos, code, ok := f.parse(args)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		return f.usageError("takes no arguments, got %q", pos[0])
	}
	fmt.Fprintln(stdout, "scout", version)
	return 0
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--help":
		usage(stdout)
		return 0
	case "help":
		return runHelp(args[1:], stdin, stdout, stderr)
	case "--version":
		fmt.Fprintln(stdout, "scout", version)
		return 0
	}
	if c := lookup(args[0]); c != nil {
		return c.run(c, args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "scout: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

// runHelp is scout help [COMMAND]: alone, the usage; with a command, what
// scout COMMAND -h prints, as it prints it.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || len(args) == 1 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		usage(stdout)
		return 0
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "scout help: want one COMMAND (%s), got %d arguments\n", strings.Join(names, ", "), len(args))
		return 2
	}
	if c := lookup(args[0]); c != nil {
		return c.run(c, []string{"-h"}, stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "scout help: unknown command %q; the commands are %s\n", args[0], strings.Join(names, ", "))
	return 2
}

// lookup returns the command named name; nil when there is none.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

const version = "0.1.0"

func usage(w io.Writer) {
	fmt.Fprintln(w, "Scout: read-only file tools for agents and people.\n\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  scout %s\n", c.usage)
	}
	fmt.Fprintln(w, "  scout help [COMMAND]")
	fmt.Fprintln(w, "\nRun 'scout COMMAND -h' or 'scout help COMMAND' for a command's flags.")
}
