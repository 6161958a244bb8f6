// Command zoekt times, side by side and in one run, ripgrep, Scout's scan
// and Scout on a zoekt index, on one tree, for the cases of the zoekt
// research: each counts every matching line of every file (Amplifier's
// grep in count mode), as a new process per call (rg; scout call, with and
// without --zoekt) and in a long-lived `scout mcp` (with and without
// --zoekt: the webserver warm, the changed set watched). It checks that
// every command finds the same lines and files, and prints a Markdown
// table of medians over rotated rounds, the time of the first search of
// each query in the long-lived server (before it has learned anything
// about the query) beside the first search of the query in the scanning
// server, and the backend each Scout with --zoekt reported (the
// envelope's context.backend). bench/zoekt.sh builds the trees and the
// index and runs it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

type query struct {
	name, pattern string
	ignoreCase    bool
	glob, typ     string
}

var queries = []query{
	{name: "lit", pattern: "Errorf"},
	{name: "rare", pattern: "MaxHeaderBytes"},
	{name: "none", pattern: "zqxjkvbwnomatch"},
	{name: "ci", pattern: "errorf", ignoreCase: true},
	{name: "relit", pattern: `func \(\w+ \*\w+\) Close\(\)`},
	{name: "test", pattern: `\w+_test\(`},
	{name: "glob", pattern: "Errorf", glob: "*_test.go"},
	{name: "type", pattern: `func main\(\)`, typ: "go"},
	{name: "count", pattern: "err"},
	{name: "nolit", pattern: `[A-Z][a-z]+[0-9]{2,}[a-z]`},
}

// tally is what a command found: matching lines and files.
type tally struct{ lines, files int }

// backend is the envelope's context.backend.
type backend struct {
	Index    bool
	Fallback string
}

func (b *backend) String() string {
	switch {
	case b == nil:
		return "?"
	case b.Index:
		return "index"
	}
	return "scan: " + b.Fallback
}

func main() {
	root := flag.String("root", "", "the tree (a git work tree indexed by zoekt)")
	url := flag.String("zoekt", "", "zoekt webserver URLs, comma-separated")
	bin := flag.String("scout", "scout", "the scout binary")
	rounds := flag.Int("rounds", 5, "timed rounds per query")
	only := flag.String("only", "", "comma-separated query names to run (default all)")
	flag.Parse()
	if *root == "" || *url == "" {
		fmt.Fprintln(os.Stderr, "usage: zoekt -root DIR -zoekt URL [-scout BIN] [-rounds N] [-only a,b]")
		os.Exit(2)
	}
	scan := newMCP(*bin, "--root", *root)
	defer scan.close()
	idx := newMCP(*bin, "--root", *root, "--zoekt", *url)
	defer idx.close()
	// Let the indexed server watch the tree, as it does from its second
	// search on, with a query of no other row.
	// Then let it set up its watches and ask git for the changes once, in
	// the background (about half a second of CPU on a 1 GB tree), so that
	// the first rows do not share the processors with that.
	for range 2 {
		idx.grep(query{pattern: "bench warm-up"})
	}
	time.Sleep(5 * time.Second)

	var callPlan, mcpPlan *backend
	type command struct {
		name string
		run  func(q query) tally
	}
	commands := []command{
		{"rg", func(q query) tally { return rg(*root, q) }},
		{"scout call", func(q query) tally { t, _ := cli(*bin, *root, "", q); return t }},
		{"call+zoekt", func(q query) tally { t, b := cli(*bin, *root, *url, q); callPlan = b; return t }},
		{"mcp scan", func(q query) tally { t, _ := scan.grep(q); return t }},
		{"mcp+zoekt", func(q query) tally { t, b := idx.grep(q); mcpPlan = b; return t }},
	}
	fmt.Printf("| query | lines / files | %s | first ms: mcp scan | mcp+zoekt | scan ÷ zoekt: call | mcp | mcp first | rg ÷ mcp+zoekt | call plan | mcp plan |\n", strings.Join(names(commands, func(c command) string { return c.name + " ms" }), " | "))
	fmt.Printf("|---|---|%s---|---|---|---|---|---|---|---|\n", strings.Repeat("---|", len(commands)))
	for _, q := range queries {
		if *only != "" && !strings.Contains(","+*only+",", ","+q.name+",") {
			continue
		}
		times := make([][]time.Duration, len(commands))
		var want tally
		mismatch := ""
		// The first search of the query in the indexed server, timed; then a
		// warm-up round of the others and rotated timed rounds.
		start := time.Now()
		want, _ = idx.grep(q)
		first := time.Since(start)
		start = time.Now()
		scan.grep(q)
		scanFirst := time.Since(start)
		for i, c := range commands {
			if got := c.run(q); got != want {
				mismatch += fmt.Sprintf(" %s found %d/%d!", commands[i].name, got.lines, got.files)
			}
		}
		time.Sleep(500 * time.Millisecond)
		for r := range *rounds {
			for k := range commands {
				i := (k + r) % len(commands)
				start := time.Now()
				got := commands[i].run(q)
				times[i] = append(times[i], time.Since(start))
				if got != want {
					mismatch += fmt.Sprintf(" %s found %d/%d!", commands[i].name, got.lines, got.files)
				}
			}
		}
		med := make([]time.Duration, len(commands))
		cells := make([]string, len(commands))
		for i := range commands {
			med[i] = median(times[i])
			cells[i] = ms(med[i])
		}
		fmt.Printf("| %s `%s`%s | %d / %d%s | %s | %s | %s | %.1f× | %.1f× | %.1f× | %.1f× | %s | %s |\n", q.name, q.pattern, flags(q), want.lines, want.files, mismatch,
			strings.Join(cells, " | "), ms(scanFirst), ms(first), ratio(med[1], med[2]), ratio(med[3], med[4]), ratio(scanFirst, first), ratio(med[0], med[4]), callPlan, mcpPlan)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func names[T any](xs []T, f func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func flags(q query) string {
	s := ""
	if q.ignoreCase {
		s += " -i"
	}
	if q.glob != "" {
		s += " -g " + q.glob
	}
	if q.typ != "" {
		s += " -t " + q.typ
	}
	return s
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(max(b, time.Microsecond)) }

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "zoekt bench:", err)
		os.Exit(1)
	}
}

// args are Amplifier grep's arguments for q.
func args(q query) map[string]any {
	a := map[string]any{"pattern": q.pattern, "output_mode": "count"}
	if q.ignoreCase {
		a["-i"] = true
	}
	if q.glob != "" {
		a["glob"] = q.glob
	}
	if q.typ != "" {
		a["type"] = q.typ
	}
	return a
}

func rg(root string, q query) tally {
	a := []string{"-c"}
	if q.ignoreCase {
		a = append(a, "-i")
	}
	if q.glob != "" {
		a = append(a, "-g", q.glob)
	}
	if q.typ != "" {
		a = append(a, "-t", q.typ)
	}
	cmd := exec.Command("rg", append(a, "-e", q.pattern, ".")...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil && len(out) > 0 {
		check(err)
	}
	var t tally
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		i := strings.LastIndexByte(line, ':')
		if i < 0 {
			continue
		}
		n, err := strconv.Atoi(line[i+1:])
		check(err)
		t.lines += n
		t.files++
	}
	return t
}

// envelope is the part of Scout's answer the bench reads.
type envelope struct {
	Status string
	Data   struct {
		Counts map[string]int `json:"counts"`
	}
	Context struct {
		Backend *backend `json:"backend"`
	}
}

func (e *envelope) tally() tally {
	var t tally
	for _, n := range e.Data.Counts {
		t.lines += n
		t.files++
	}
	return t
}

func cli(bin, root, url string, q query) (tally, *backend) {
	a := []string{"call", "--toolset", "amplifier", "--root", root}
	if url != "" {
		a = append(a, "--zoekt", url)
	}
	b, err := json.Marshal(args(q))
	check(err)
	out, err := exec.Command(bin, append(a, "grep", string(b))...).Output()
	check(err)
	var e envelope
	check(json.Unmarshal(out, &e))
	return e.tally(), e.Context.Backend
}

// mcp is a running `scout mcp` server.
type mcp struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func newMCP(bin string, extra ...string) *mcp {
	cmd := exec.Command(bin, append([]string{"mcp", "--toolset", "amplifier"}, extra...)...)
	in, err := cmd.StdinPipe()
	check(err)
	out, err := cmd.StdoutPipe()
	check(err)
	cmd.Stderr = os.Stderr
	check(cmd.Start())
	m := &mcp{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	m.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}})
	fmt.Fprintln(m.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

func (m *mcp) call(method string, params any) json.RawMessage {
	m.id++
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.id, "method": method, "params": params})
	check(err)
	_, err = m.in.Write(append(b, '\n'))
	check(err)
	for {
		line, err := m.out.ReadBytes('\n')
		check(err)
		var resp struct {
			ID     int
			Result json.RawMessage
			Error  *struct{ Message string }
		}
		check(json.Unmarshal(line, &resp))
		if resp.ID != m.id {
			continue
		}
		if resp.Error != nil {
			check(fmt.Errorf("%s: %s", method, resp.Error.Message))
		}
		return resp.Result
	}
}

func (m *mcp) grep(q query) (tally, *backend) {
	res := m.call("tools/call", map[string]any{"name": "grep", "arguments": args(q)})
	var r struct {
		StructuredContent envelope
	}
	check(json.Unmarshal(res, &r))
	return r.StructuredContent.tally(), r.StructuredContent.Context.Backend
}

func (m *mcp) close() {
	m.in.Close()
	m.cmd.Wait()
}
