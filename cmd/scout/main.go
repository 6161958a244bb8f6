// Command scout is the command line of the Scout file tools.
//
//	scout search PATTERN [PATH...] [flags]       human use; prints the rendered text
//	scout read PATH[:SELECTOR] [flags]
//	scout find GLOB [GLOB...] [flags]
//	scout call [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network] TOOL [JSON|-]   prints one Envelope as JSON
//	scout tools [--toolset NAME]                  prints the tool definitions (name, description, JSON Schema)
//	scout mcp [--toolset NAME] [--root DIR] [--no-web] [--allow-private-network]   serves the toolset over MCP on stdio
//	scout version
//
// Each command's -h lists its flags. Exit status: 0 for success or partial,
// 1 for an error result, 2 for a usage error.
package main

import (
	"fmt"
	"io"
	"os"
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
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	case "--version":
		fmt.Fprintln(stdout, "scout", version)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(c, args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "scout: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

const version = "0.1.0"

func usage(w io.Writer) {
	fmt.Fprintln(w, "Scout: read-only file tools for agents and people.\n\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  scout %s\n", c.usage)
	}
	fmt.Fprintln(w, "\nRun 'scout COMMAND -h' for a command's flags.")
}
