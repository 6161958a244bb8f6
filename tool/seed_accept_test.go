package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// seedFixture is the tree of TestSeedAcceptance: a git work tree with
// files sized to the seeds' limits (20 files a page, 20 and 200 matches a
// file, 512 and 768 columns, 300 lines) and two directories whose
// modification times order find's and glob's results: fd, and amp/g,
// whose 201 files (3 lines each) pass amplifier glob's cap of 100 and any
// default page of grep's.
func seedFixture() fstest.MapFS {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s), ModTime: t0} }
	at := func(s string, sec int) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(s), ModTime: t0.Add(time.Duration(sec) * time.Second)}
	}
	lines := func(n int, f string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, f+"\n", i)
		}
		return b.String()
	}
	ctx := strings.Split(strings.TrimSuffix(lines(30, "line %d"), "\n"), "\n")
	ctx[4], ctx[8], ctx[19] = "MATCH five", "MATCH nine", "MATCH twenty"
	m := fstest.MapFS{
		".git/HEAD":     file("ref: refs/heads/main\n"),
		".gitignore":    file("ignored.txt\n"),
		"ignored.txt":   file("needle ignored\n"),
		".hidden.txt":   file("needle hidden\n"),
		"Case.txt":      file("Needle upper\nneedle lower\nNEEDLE caps\n"),
		"ctx.txt":       file(strings.Join(ctx, "\n") + "\n"),
		"lines10.txt":   file(lines(10, "L%d")),
		"big400.txt":    file(lines(400, "row %d")),
		"w1k.txt":       file(lines(400, "%04d"+strings.Repeat("y", 996))),
		"wide.txt":      file(strings.Repeat("x", 768) + "\n" + strings.Repeat("y", 769) + "\nshort\n"),
		"long.txt":      file("needle" + strings.Repeat("a", 506) + "\nneedle" + strings.Repeat("b", 507) + "\n"),
		"hot200.txt":    file(lines(200, "needle hot %d")),
		"hot201.txt":    file(lines(201, "needle hot %d")),
		"tpl.ts":        file("const u = `${platform}/x`;\nconst n = interface{};\nok{2}\n"),
		"multi/x.txt":   file(lines(21, "needle x %d")),
		"multi/y.txt":   file(lines(20, "needle y %d")),
		"emptydir":      &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: t0},
		"fd/x1.ts":      at("\n", 1),
		"fd/.dot.ts":    at("\n", 2),
		"fd/a/y.ts":     at("\n", 3),
		"fd/b/z.ts":     at("\n", 4),
		"fd/x2.ts":      at("\n", 5),
		"fd/a/keep.md":  at("\n", 2),
		"fd/build/o.ts": at("\n", 2),
	}
	for i := range 21 {
		m[fmt.Sprintf("many/f%02d.txt", i)] = file(fmt.Sprintf("needle %02d\n", i))
	}
	for i := 1; i <= 20; i++ {
		m[fmt.Sprintf("exact20/e%02d.txt", i)] = file(fmt.Sprintf("needle %02d\n", i))
	}
	for i := range 201 {
		m[fmt.Sprintf("amp/g/g%03d.txt", i)] = at(lines(3, "ampword %d"), i)
	}
	var zz strings.Builder
	for i := 1; i <= 59; i++ {
		fmt.Fprintf(&zz, "%s %d\n", map[bool]string{true: "zig", false: "zag"}[i%2 == 1], i)
	}
	m["zz/x.txt"] = file(zz.String())
	m["zz/y.txt"] = file("zig\n")
	m["amp/src/lib.rs"] = file("fn ampword() {}\n")
	m["amp/web/a.ts"] = file("ampword\n")
	m["amp/web/b.md"] = file("ampword\n")
	return m
}

// TestSeedAcceptance checks the seeds' stated behaviour at their edges,
// through tool.Call over a MapFS and over a directory: each row quotes the
// rule it checks. text is the whole text, or a prefix when it ends in "…";
// has lists pieces the text or the data's JSON must hold; lacks, pieces
// they must not.
func TestSeedAcceptance(t *testing.T) {
	type row struct {
		rule       string // the seed's words
		set, tool  string
		args       string
		status     scout.Status
		code       string // error code; "" when not an error
		text       string
		has, lacks []string
	}
	const (
		notice21 = "Showing files 1-20 of 21. Use skip=20 for the next page, or narrow paths/pattern."
	)
	rows := []row{
		// 000 search
		{rule: "000: context defaults 1 before, 3 after; *LINE:content for matches, LINE:content for context; a gap is '...'",
			set: Pi, tool: "search", args: `{"pattern":"MATCH","paths":"ctx.txt"}`, status: scout.StatusSuccess,
			text: "¶ctx.txt#8F4F\n4:line 4\n*5:MATCH five\n6:line 6\n7:line 7\n8:line 8\n*9:MATCH nine\n10:line 10\n11:line 11\n12:line 12\n...\n19:line 19\n*20:MATCH twenty\n21:line 21\n22:line 22\n23:line 23"},
		{rule: "000: i: case-insensitive search. Defaults to false",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"Case.txt"}`, status: scout.StatusSuccess,
			text: "¶Case.txt#B1DD\n1:Needle upper\n*2:needle lower\n3:NEEDLE caps"},
		{rule: "000: i: case-insensitive search",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"Case.txt","i":true}`, status: scout.StatusSuccess,
			text: "¶Case.txt#B1DD\n*1:Needle upper\n*2:needle lower\n*3:NEEDLE caps"},
		{rule: "000: 20 files a page; Use skip=<N> for the next page when more files remain (21 files)",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"many"}`, status: scout.StatusPartial,
			has: []string{"\n\n" + notice21, `"fileLimitReached":true`, `"fileCount":20`}, lacks: []string{"f20.txt"}},
		{rule: "000: 20 files a page (exactly 20: no next page)",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"exact20"}`, status: scout.StatusSuccess,
			has: []string{"# exact20/e20.txt#D574\n*1:needle 20"}, lacks: []string{"Showing files", "fileLimitReached"}},
		{rule: "000: skip is a file-page offset",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"many","skip":20}`, status: scout.StatusSuccess,
			text: "# many/f20.txt#D574\n*1:needle 20"},
		{rule: "000: skip ... File-page offset for multi-file results (several exact files are one)",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":["exact20/e01.txt","exact20/e02.txt"],"skip":1}`, status: scout.StatusSuccess,
			has: []string{"# exact20/e02.txt#", "\n*1:needle 02"}, lacks: []string{"e01.txt#", "¶"}},
		{rule: "000: skip past the last file: No matches found",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"many","skip":21}`, status: scout.StatusSuccess,
			text: "No matches found"},
		{rule: "000: search.ts floors finite numbers",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"many","skip":19.9}`, status: scout.StatusSuccess,
			text: "# many/f19.txt#A9F6\n*1:needle 19\n\n# many/f20.txt#D574\n*1:needle 20"},
		{rule: "000: Single-file searches ignore [skip]",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"lines10.txt:1","skip":3}`, status: scout.StatusSuccess,
			text: "No matches found"},
		{rule: "000: 200 [matches] for single-file scopes (200: not trimmed)",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"hot200.txt"}`, status: scout.StatusSuccess,
			has: []string{"*200:needle hot 200", `"matchCount":200`}, lacks: []string{"perFileLimitReached"}},
		{rule: "000: perFileLimitReached — a hot file was trimmed to the per-file match cap (201 in one file)",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"hot201.txt"}`, status: scout.StatusPartial,
			has: []string{"*200:needle hot 200", `"matchCount":200`, `"perFileLimitReached":true`}, lacks: []string{"*201:"}},
		{rule: "000: 20 [matches a file] for multi-file scopes",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"multi"}`, status: scout.StatusPartial,
			has: []string{"*20:needle x 20\n\n# multi/y.txt", "*20:needle y 20", `"perFileLimitReached":true`, `{"path":"multi/x.txt","count":20}`}, lacks: []string{"*21:"}},
		{rule: "000: one or more matched lines were shortened to 512 chars plus …",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"long.txt"}`, status: scout.StatusPartial,
			has: []string{"*1:needle" + strings.Repeat("a", 506) + "\n", "*2:needle" + strings.Repeat("b", 506) + "…\n", `"linesTruncated":true`}},
		{rule: "000: gitignore: Respect .gitignore during directory scans. Defaults to true; hidden:true is hard-coded",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"."}`, status: scout.StatusPartial,
			has: []string{"# .hidden.txt#"}, lacks: []string{"ignored.txt"}},
		{rule: "000: gitignore: false",
			set: Pi, tool: "search", args: `{"pattern":"needle ignored","paths":".","gitignore":false}`, status: scout.StatusSuccess,
			has: []string{"# ignored.txt#"}},
		{rule: "000: Pattern must not be empty when trimmed pattern is empty",
			set: Pi, tool: "search", args: `{"pattern":"  ","paths":"."}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Pattern must not be empty"},
		{rule: "000: Skip must be a non-negative number",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":".","skip":-1}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Skip must be a non-negative number"},
		{rule: "000: paths is an array — pass [\"a\", \"b\"] not [\"a,b\"]",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":["ctx.txt,Case.txt"]}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: `paths is an array — pass ["a", "b"] not ["a,b"]…`},
		{rule: "000: comma-joined multi-path entries outside brace expansion [are rejected] (inside braces: a glob)",
			set: Pi, tool: "search", args: `{"pattern":"needle x 1$|needle y 1$","paths":"multi/{x,y}.txt"}`, status: scout.StatusSuccess,
			text: "# multi/x.txt#9789\n*1:needle x 1\n2:needle x 2\n3:needle x 3\n4:needle x 4\n\n# multi/y.txt#74F5\n*1:needle y 1\n2:needle y 2\n3:needle y 3\n4:needle y 4"},
		{rule: "000: comma-joined multi-path entries are rejected after trimming/quote stripping",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":[" \"ctx.txt,Case.txt\" "]}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: `paths is an array — pass ["a", "b"] not ["a,b"]: the entry "ctx.txt,Case.txt" holds several paths; pass them as separate elements: ["ctx.txt", "Case.txt"].`},
		{rule: "000: Path not found: ... when a filesystem-backed resolved base path is missing",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"nope.txt"}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found: nope.txt"},
		{rule: "000: Path not found: ... when a filesystem-backed resolved base path is missing (a lone glob: its base, as find names it)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"nope/*.txt"}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found: nope"},
		{rule: "000: Path not found: ... the resolved base path (a glob below an existing directory, given as ./)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"./multi/nope/**/*.txt"}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found: multi/nope"},
		{rule: "004: Single missing paths still hard-fail (a glob: Path not found names its base)",
			set: Pi, tool: "find", args: `{"paths":["./multi/nope/**/*.txt"]}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found: multi/nope"},
		{rule: "000: Missing entries are skipped non-fatally unless all are missing",
			set: Pi, tool: "search", args: `{"pattern":"needle lower","paths":["nope","Case.txt"]}`, status: scout.StatusSuccess,
			text: "¶Case.txt#B1DD\n1:Needle upper\n*2:needle lower\n3:NEEDLE caps\n\nSkipped missing paths: nope"},
		{rule: "000: Path not found ... when every multi-path filesystem entry is missing",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":["nope1","nope2"]}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found: nope1, nope2"},
		{rule: "000: regex failures ... are normalized to Invalid regex: ...",
			set: Pi, tool: "search", args: `{"pattern":"a[b","paths":"ctx.txt"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Invalid regex: …"},
		{rule: "000: patterns like ${platform} become searchable instead of failing",
			set: Pi, tool: "search", args: `{"pattern":"${platform}","paths":"tpl.ts"}`, status: scout.StatusSuccess,
			text: "¶tpl.ts#B433\n*1:const u = `${platform}/x`;\n2:const n = interface{};\n3:ok{2}"},
		{rule: "000: the native layer also auto-escapes braces that cannot be valid repetition quantifiers; a{2,4} remain unchanged",
			set: Pi, tool: "search", args: `{"pattern":"interface{}|k{2}|\\${x}","paths":"tpl.ts"}`, status: scout.StatusSuccess,
			text: "¶tpl.ts#B433\n1:const u = `${platform}/x`;\n*2:const n = interface{};\n3:ok{2}"},
		{rule: "000: Line-range selector requires a single file, not a glob",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"*.txt:1-2"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Line-range selector requires a single file, not a glob: *.txt"},
		{rule: "000: Line-range selector requires a single file: ... is a directory",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"many:1-2"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Line-range selector requires a single file: many is a directory"},
		{rule: "000: a line-range selector ... to a single file/archive/internal-resource input (an entry that is only a selector names no file)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":":1-2"}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found: :1-2"},
		{rule: "000: Internal URLs cannot contain glob characters (checked before the line-range selector)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"omp://*.md:1-3"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Glob patterns are not supported for internal URLs: omp://*.md…"},
		{rule: "000: caps matches per file to 20 for multi-file scopes (context stops before the first match cut off)",
			set: Pi, tool: "search", args: `{"pattern":"^zig","paths":"zz"}`, status: scout.StatusPartial,
			has: []string{"38:zag 38\n*39:zig 39\n40:zag 40\n\n# zz/y.txt#", `"perFileLimitReached":true`}, lacks: []string{"41:", "42:"}},
		{rule: "000: Path not found for line-range selector",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"nope.txt:1-2"}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found for line-range selector: nope.txt"},
		{rule: "000: a line-range selector such as :5-16,960-973 ... to constrain matches",
			set: Pi, tool: "search", args: `{"pattern":"MATCH","paths":"ctx.txt:1-5,19-20"}`, status: scout.StatusSuccess,
			text: "¶ctx.txt#8F4F\n4:line 4\n*5:MATCH five\n...\n19:line 19\n*20:MATCH twenty"},
		{rule: "000: enables multiline only when pattern contains \\n or an actual newline (an actual newline)",
			set: Pi, tool: "search", args: `{"pattern":"4\nMATCH f","paths":"ctx.txt"}`, status: scout.StatusSuccess,
			text: "¶ctx.txt#8F4F\n3:line 3\n*4:line 4\n*5:MATCH five\n6:line 6\n7:line 7\n8:line 8"},
		{rule: "000: The model prompt explicitly documents literal-brace escaping such as interface\\{\\}",
			set: Pi, tool: "search", args: `{"pattern":"interface\\{\\}","paths":"tpl.ts"}`, status: scout.StatusSuccess,
			text: "¶tpl.ts#B433\n1:const u = `${platform}/x`;\n*2:const n = interface{};\n3:ok{2}"},
		{rule: "000: wraps a single string paths value into a one-element list ... after trimming/quote stripping",
			set: Pi, tool: "search", args: `{"pattern":"needle lower","paths":" \"Case.txt\" "}`, status: scout.StatusSuccess,
			text: "¶Case.txt#B1DD\n1:Needle upper\n*2:needle lower\n3:NEEDLE caps"},
		{rule: "000: search.ts ... rejects negative or non-finite values (1e400, Infinity to JSON.parse)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"many","skip":1e400}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Skip must be a non-negative number"},
		{rule: "000: Empty strings ... are rejected after trimming",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":["Case.txt",""]}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "`paths` must contain non-empty paths or globs"},
		{rule: "000: gitignore:false only affects native directory traversal. It does not disable ... explicit-file handling (a gitignored file named is searched)",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"ignored.txt"}`, status: scout.StatusSuccess,
			has: []string{"¶ignored.txt#", "\n*1:needle ignored"}},
		{rule: "000: caps matches per file to 20 for multi-file scopes (a single glob-like path is one)",
			set: Pi, tool: "search", args: `{"pattern":"needle","paths":"hot20*.txt"}`, status: scout.StatusPartial,
			has: []string{"# hot200.txt#", "*20:needle hot 20\n\n# hot201.txt#", `"perFileLimitReached":true`}, lacks: []string{"*21:", "¶"}},
		{rule: "000: glob metacharacters (*, ?, [, {) are rejected for internal URLs (?)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"omp://a?b"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Glob patterns are not supported for internal URLs: omp://a?b…"},
		{rule: "000: glob metacharacters (*, ?, [, {) are rejected for internal URLs ([)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"omp://[ab]"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Glob patterns are not supported for internal URLs: omp://[ab]…"},
		{rule: "000: glob metacharacters (*, ?, [, {) are rejected for internal URLs ({)",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"omp://{a,b}"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Glob patterns are not supported for internal URLs: omp://{a,b}…"},
		{rule: "000: Final text truncation: truncateHead() default byte cap 50 * 1024 bytes (200 matches of 512 characters; the hint is one search can follow)",
			set: Pi, tool: "search", args: `{"pattern":"^0","paths":"w1k.txt"}`, status: scout.StatusPartial,
			has:   []string{"\n\n[Showing lines 1-99 of 201 (50KB limit); narrow paths or pattern to see the rest. Some lines truncated to 512 chars]", `"truncated":true`, `"truncatedBy":"bytes"`},
			lacks: []string{"*100:", "Use :"}},
		{rule: "000 (notes §2.1): only line-range selectors like \":50-100\" are supported (no \":raw\"/\":conflicts\")",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"ctx.txt:raw"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: `paths entry "ctx.txt:raw" — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")`},
		{rule: "000 (notes §1.7): a line-range selector of 0 is refused",
			set: Pi, tool: "search", args: `{"pattern":"x","paths":"ctx.txt:0"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Line selector 0 is invalid; lines are 1-indexed. Use :1."},
		{rule: "000: missingPaths — multi-path entries skipped; scopePath is the scope searched (pi partitions the missing entries out first)",
			set: Pi, tool: "search", args: `{"pattern":"needle lower","paths":["nope","Case.txt"]}`, status: scout.StatusSuccess,
			has: []string{`"scopePath":"Case.txt"`, `"missingPaths":["nope"]`}},
		{rule: "000: scopePath of several existing entries, the missing one left out",
			set: Pi, tool: "search", args: `{"pattern":"needle lower","paths":["Case.txt","nope","lines10.txt"]}`, status: scout.StatusSuccess,
			has: []string{`"scopePath":"Case.txt, lines10.txt"`, `"missingPaths":["nope"]`, "# Case.txt#B1DD\n1:Needle upper\n*2:needle lower"}},
		{rule: "000 (notes §2.2): .git is always pruned, gitignore: false too",
			set: Pi, tool: "search", args: `{"pattern":"refs/heads","paths":".","gitignore":false}`, status: scout.StatusSuccess,
			text: "No matches found…", lacks: []string{".git"}},

		// 001 read
		{rule: "001: Explicit ranges expand by 1 leading / 3 trailing on the constrained sides",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:3-5"}`, status: scout.StatusSuccess,
			text: "¶lines10.txt#244E\n2:L2\n3:L3\n4:L4\n5:L5\n6:L6\n7:L7\n8:L8\n\n[2 more lines in file. Use :9 to continue]"},
		{rule: "001: :A+C C lines starting at A; end line A + C - 1",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:L4+2"}`, status: scout.StatusSuccess,
			text: "¶lines10.txt#244E\n3:L3\n4:L4\n5:L5\n6:L6\n7:L7\n8:L8\n\n[2 more lines in file. Use :9 to continue]"},
		{rule: "001: :N start at line N, open-ended (leading context only)",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:9"}`, status: scout.StatusSuccess,
			text: "¶lines10.txt#244E\n8:L8\n9:L9\n10:L10"},
		{rule: "001: Out-of-bounds line reads do not throw ... Use :1 ... or Use :<last line>",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:11"}`, status: scout.StatusSuccess,
			text: "Line 11 is beyond end of file (10 lines total). Use :1 to read from the start, or :10 to read the last line."},
		{rule: "001: line numbers are 1-indexed; :0 throws",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:0"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Line selector 0 is invalid; lines are 1-indexed. Use :1."},
		{rule: "001: + counts must be >= 1",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:4+0"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Invalid range 4+0: count must be >= 1."},
		{rule: "001: - end must be >= start",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:6-3"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Invalid range 6-3: end must be >= start."},
		{rule: "001: :R1,R2,... Multiple ranges, sorted and merged before reading",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:8-9,2-3"}`, status: scout.StatusSuccess,
			text: "¶lines10.txt#244E\n2:L2\n3:L3\n\n…\n\n8:L8\n9:L9"},
		{rule: "001: :R1,R2,... merged (adjacent ranges make one range, with its context)",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:2-3,4-5"}`, status: scout.StatusSuccess,
			text: "¶lines10.txt#244E\n1:L1\n2:L2\n3:L3\n4:L4\n5:L5\n6:L6\n7:L7\n8:L8\n\n[2 more lines in file. Use :9 to continue]"},
		{rule: "001: Default open-ended limit is min(read.defaultLimit, DEFAULT_MAX_LINES) (300)",
			set: Pi, tool: "read", args: `{"path":"big400.txt"}`, status: scout.StatusPartial,
			has: []string{"\n300:row 300\n\n[Showing lines 1-300 of 400. Use :301 to continue]"}, lacks: []string{"301:row"}},
		{rule: "001: Local streamed byte budget for line reads: max(DEFAULT_MAX_BYTES, maxLinesToCollect * 512) (300 lines: 150 KB, 153 lines of 1001 bytes; the 768-column display cut does not stretch it)",
			set: Pi, tool: "read", args: `{"path":"w1k.txt"}`, status: scout.StatusPartial,
			has:   []string{"\n153:0153y", "\n\n[Showing lines 1-153 of 400 (150KB limit). Use :154 to continue. Some lines truncated to 768 chars]", `"reason":"bytes","startLine":1,"endLine":153`},
			lacks: []string{"\n154:"}},
		{rule: "001: the byte budget of a range counts its context lines: :10-109 collects 1+100+3 lines, max(50 KB, 104*512) = 52 KB",
			set: Pi, tool: "read", args: `{"path":"w1k.txt:10-109"}`, status: scout.StatusPartial,
			has: []string{"¶w1k.txt#", "\n9:0009y", "\n61:0061y", "\n\n[Showing lines 9-61 of 400 (52KB limit). Use :62 to continue. Some lines truncated to 768 chars]"}},
		{rule: "001: :raw Raw/verbatim mode. Disables structural summaries and line prefixes",
			set: Pi, tool: "read", args: `{"path":"lines10.txt:raw"}`, status: scout.StatusSuccess,
			text: "L1\nL2\nL3\nL4\nL5\nL6\nL7\nL8\nL9\nL10"},
		{rule: "001 (notes): a line over 768 units becomes slice(0,768)+…",
			set: Pi, tool: "read", args: `{"path":"wide.txt"}`, status: scout.StatusSuccess,
			has: []string{"1:" + strings.Repeat("x", 768) + "\n", "2:" + strings.Repeat("y", 768) + "…\n3:short", "[Some lines truncated to 768 chars]"}},
		{rule: "001: Empty directories render as (empty directory)",
			set: Pi, tool: "read", args: `{"path":"emptydir"}`, status: scout.StatusSuccess,
			text: "(empty directory)"},
		{rule: "001: Missing local ... paths first attempt unique suffix resolution; if no unique match exists they error",
			set: Pi, tool: "read", args: `{"path":"nothere.txt"}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path 'nothere.txt' not found"},
		{rule: "001: [Path '...' not found; resolved to '...' via suffix match]",
			set: Pi, tool: "read", args: `{"path":"a/y.ts"}`, status: scout.StatusSuccess,
			text: "[Path 'a/y.ts' not found; resolved to 'fd/a/y.ts' via suffix match]\n…"},

		// 004 find
		{rule: "004: most recent mtime first; grouped by directory, # <dir>/ then basenames; hidden defaults to true",
			set: Pi, tool: "find", args: `{"paths":["fd/**/*.ts"]}`, status: scout.StatusSuccess,
			text: "# fd/\nx2.ts\n.dot.ts\nx1.ts\n\n# fd/b/\nz.ts\n\n# fd/a/\ny.ts\n\n# fd/build/\no.ts"},
		{rule: "004: src/*.ts stays rooted at src with a non-recursive *.ts segment",
			set: Pi, tool: "find", args: `{"paths":["fd/*.ts"],"hidden":false}`, status: scout.StatusSuccess,
			text: "# fd/\nx2.ts\nx1.ts"},
		{rule: "004: Directory matches carry a trailing /; no glob => implicit **/*",
			set: Pi, tool: "find", args: `{"paths":["fd/a"]}`, status: scout.StatusSuccess,
			text: "# fd/a/\ny.ts\nkeep.md"},
		{rule: "004: limit: Max returned paths (limit 5 of 6)",
			set: Pi, tool: "find", args: `{"paths":["fd/**/*.ts"],"limit":5}`, status: scout.StatusPartial,
			has: []string{"[5 results limit reached. Use limit=10 for more]", `"resultLimitReached":true`}, lacks: []string{"x1.ts"}},
		{rule: "004: limit: finite positive inputs are floored",
			set: Pi, tool: "find", args: `{"paths":["fd/**/*.ts"],"limit":1.9}`, status: scout.StatusPartial,
			text: "# fd/\nx2.ts\n\n[1 results limit reached. Use limit=2 for more]"},
		{rule: "004: Limit must be a positive number",
			set: Pi, tool: "find", args: `{"paths":["fd"],"limit":0}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Limit must be a positive number…"},
		{rule: "004: timeout: clamped to 0.5..60 (1e400, Infinity to JSON.parse, is 60 s, not an error)",
			set: Pi, tool: "find", args: `{"paths":["fd/b"],"timeout":1e400}`, status: scout.StatusSuccess,
			text: "# fd/b/\nz.ts"},
		{rule: "004: Exact file inputs return that file path as one line",
			set: Pi, tool: "find", args: `{"paths":["fd/x1.ts"]}`, status: scout.StatusSuccess,
			text: "fd/x1.ts"},
		{rule: "004: Empty result text: No files found matching pattern",
			set: Pi, tool: "find", args: `{"paths":["fd/**/*.zz"]}`, status: scout.StatusSuccess,
			text: "No files found matching pattern…"},
		{rule: "004: Single missing paths still hard-fail",
			set: Pi, tool: "find", args: `{"paths":["nope"]}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Path not found: nope"},
		{rule: "004: Multi-path partial miss: appends Skipped missing paths: ...",
			set: Pi, tool: "find", args: `{"paths":["nope","fd/b"]}`, status: scout.StatusSuccess,
			text: "# fd/b/\nz.ts\n\nSkipped missing paths: nope"},
		{rule: "004: [normalizePathLikeInput strips quotes;] Empty normalized entries fail with `paths` must contain non-empty globs or paths",
			set: Pi, tool: "find", args: `{"paths":["\" \""]}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "`paths` must contain non-empty globs or paths…"},
		{rule: "004: comma-joined multi-path entries such as [\"a,b\"] are rejected (quotes stripped first)",
			set: Pi, tool: "find", args: `{"paths":["\"fd/x1.ts,fd/x2.ts\""]}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: `paths is an array — pass ["a", "b"] not ["a,b"]…`},
		{rule: "004: `paths` must contain non-empty globs or paths",
			set: Pi, tool: "find", args: `{"paths":[" "]}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "`paths` must contain non-empty globs or paths…"},
		{rule: "004: limit: finite positive inputs are floored then clamped to 1..200 (0.5: floored to 0, clamped to 1)",
			set: Pi, tool: "find", args: `{"paths":["fd/**/*.ts"],"limit":0.5}`, status: scout.StatusPartial,
			text: "# fd/\nx2.ts\n\n[1 results limit reached. Use limit=2 for more]"},
		{rule: "004 (DESIGN: every continuation hint must work): a limit equal to the matches is not reached",
			set: Pi, tool: "find", args: `{"paths":["fd/**/*.ts"],"limit":6}`, status: scout.StatusSuccess,
			text: "# fd/\nx2.ts\n.dot.ts\nx1.ts\n\n# fd/b/\nz.ts\n\n# fd/a/\ny.ts\n\n# fd/build/\no.ts", has: []string{`"resultLimitReached":false`}},
		{rule: "004: glob in the first segment => search from . and ... prefix it with **/",
			set: Pi, tool: "find", args: `{"paths":["?/y.ts"]}`, status: scout.StatusSuccess,
			text: "# fd/a/\ny.ts"},
		{rule: "004: appends Skipped missing paths: ... after the empty-result line",
			set: Pi, tool: "find", args: `{"paths":["nope","fd/**/*.zz"]}`, status: scout.StatusSuccess,
			text: "No files found matching pattern\nSkipped missing paths: nope", has: []string{`"missingPaths":["nope"]`, `"fileCount":0,"files":[]`}},
		{rule: "004: details: scopePath, fileCount, files, truncated, resultLimitReached, missingPaths",
			set: Pi, tool: "find", args: `{"paths":["nope","fd/b"]}`, status: scout.StatusSuccess,
			has: []string{`{"fileCount":1,"files":["fd/b/z.ts"],"missingPaths":["nope"],"resultLimitReached":false,"scopePath":"fd/b",`, `"truncated":false`}},
		{rule: "004 (notes §3.2): .git is always pruned, gitignore: false too",
			set: Pi, tool: "find", args: `{"paths":["**/HEAD"],"gitignore":false}`, status: scout.StatusSuccess,
			text: "No files found matching pattern…", lacks: []string{".git"}},

		// 002 Glob
		{rule: "002: 目录与文件按字母序排序; include_hidden=false 跳过以 . 开头的文件; build pruned",
			set: Standardized, tool: "Glob", args: `{"pattern":"**/*.ts","path":"fd"}`, status: scout.StatusSuccess,
			has:   []string{"Found 4 files matching '**/*.ts' in 'fd'\n(Scanned ", "\n\nfd/x1.ts\nfd/x2.ts\nfd/a/y.ts\nfd/b/z.ts", `"truncated":false`},
			lacks: []string{".dot.ts", "o.ts", "aborted_reason"}},
		{rule: "002: limit 截断 => status partial, data.truncated=true (limit 3 of 4)",
			set: Standardized, tool: "Glob", args: `{"pattern":"**/*.ts","path":"fd","limit":3}`, status: scout.StatusPartial,
			has: []string{"Found 3 files", "fd/a/y.ts", `"truncated":true`}, lacks: []string{"fd/b/z.ts", "aborted_reason"}},
		{rule: "002: limit equal to the matches: no truncation",
			set: Standardized, tool: "Glob", args: `{"pattern":"**/*.ts","path":"fd","limit":4}`, status: scout.StatusSuccess,
			has: []string{`"truncated":false`}},
		{rule: "002: limit 非法 (1-200): 201",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","limit":201}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "limit must be an integer between 1 and 200."},
		{rule: "002: limit 非法 (1-200): 0",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","limit":0}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "limit must be an integer between 1 and 200."},
		{rule: "002: limit 非法: an integer (1.5)",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","limit":1.5}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "limit must be an integer between 1 and 200."},
		{rule: "002: limit 非法: between 1 and 200 (-1)",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","limit":-1}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "limit must be an integer between 1 and 200."},
		{rule: "002: limit 非法: an integer (true)",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","limit":true}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "limit must be an integer between 1 and 200."},
		{rule: "002: limit (1-200): 200 is allowed",
			set: Standardized, tool: "Glob", args: `{"pattern":"**/*.ts","path":"fd","limit":200}`, status: scout.StatusSuccess,
			has: []string{"Found 4 files"}},
		{rule: "002: limit (1-200): at 200 the truncation notice suggests no higher limit",
			set: Standardized, tool: "Glob", args: `{"pattern":"*.txt","path":"amp/g","limit":200}`, status: scout.StatusPartial,
			has: []string{"Found 200 files", "\n[Truncated: showing the first 200 of 201 matches (limit=200). Narrow the pattern or path for the rest.]\n\namp/g/g000.txt\n", `"truncated":true`}, lacks: []string{"raise limit", "g200.txt"}},
		{rule: "002: limit (1-200): 1 is allowed, keeping the walk's first",
			set: Standardized, tool: "Glob", args: `{"pattern":"**/*.ts","path":"fd","limit":1}`, status: scout.StatusPartial,
			has: []string{"Found 1 files", "\n\nfd/x1.ts", `{"paths":["fd/x1.ts"],"truncated":true}`}},
		{rule: "002: pattern 缺失 (empty)",
			set: Standardized, tool: "Glob", args: `{"pattern":"","path":"fd"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Missing required parameter 'pattern'."},
		{rule: "002: pattern 缺失",
			set: Standardized, tool: "Glob", args: `{"path":"fd"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Missing required parameter 'pattern'."},
		{rule: "002: 路径不存在",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","path":"nope"}`, status: scout.StatusError, code: "NOT_FOUND",
			text: "Search root 'nope' does not exist."},
		{rule: "002: 非目录",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","path":"fd/x1.ts"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Search root 'fd/x1.ts' is not a directory."},
		{rule: "002: 越权访问",
			set: Standardized, tool: "Glob", args: `{"pattern":"*","path":"../x"}`, status: scout.StatusError, code: "ACCESS_DENIED",
			text: "Access denied. Path must be within project root."},
		{rule: "002: **/foo 也会匹配 foo",
			set: Standardized, tool: "Glob", args: `{"pattern":"**/x1.ts","path":"fd"}`, status: scout.StatusSuccess,
			has: []string{"\n\nfd/x1.ts"}},
		{rule: "002: pattern 永远相对 path; * 不跨目录: './' names no file (it matched every file below path)",
			set: Standardized, tool: "Glob", args: `{"pattern":"./","path":"fd"}`, status: scout.StatusSuccess,
			text: "No files found matching './' in 'fd'\n(Scanned …"},
		{rule: "002: 当没有匹配时: No files found matching '{pattern}' in '{path}'",
			set: Standardized, tool: "Glob", args: `{"pattern":"**/*.zz","path":"fd"}`, status: scout.StatusSuccess,
			text: "No files found matching '**/*.zz' in 'fd'\n(Scanned …"},

		// 003 amplifier
		{rule: "003: offset: Skip first N results before applying head_limit; total_matches is all, matches_count after pagination",
			set: Amplifier, tool: "grep", args: `{"pattern":"MATCH","path":"ctx.txt","output_mode":"content","head_limit":1,"offset":1}`, status: scout.StatusPartial,
			has: []string{`"total_matches":3,"matches_count":1`, `"line_number":9`}, lacks: []string{`"context"`, `"line_number":5`}},
		{rule: "003: context field only appears when -A, -B, or -C options are used",
			set: Amplifier, tool: "grep", args: `{"pattern":"MATCH","path":"ctx.txt","output_mode":"content","-C":1,"head_limit":1}`, status: scout.StatusPartial,
			has: []string{`"context":[{"line_number":4,"content":"line 4","is_match":false},{"line_number":5,"content":"MATCH five","is_match":true},{"line_number":6,"content":"line 6","is_match":false}]`}},
		{rule: "003: head_limit: Limit output to first N results (files_with_matches, 20 of 21)",
			set: Amplifier, tool: "grep", args: `{"pattern":"needle","path":"many","head_limit":20}`, status: scout.StatusPartial,
			has: []string{`"total_matches":21,"matches_count":20`}, lacks: []string{"f20.txt"}},
		{rule: "003: head_limit: (21 of 21: all)",
			set: Amplifier, tool: "grep", args: `{"pattern":"needle","path":"many","head_limit":21}`, status: scout.StatusSuccess,
			has: []string{`"total_matches":21,"matches_count":21`, "many/f20.txt"}},
		{rule: "003: count: total_matches is sum of ALL file counts, matches_count is sum after pagination",
			set: Amplifier, tool: "grep", args: `{"pattern":"needle","path":"multi","output_mode":"count","head_limit":1}`, status: scout.StatusPartial,
			has: []string{`"total_matches":41,"matches_count":21,"counts":{"multi/x.txt":21}}`}},
		{rule: "003: -i: Case insensitive search",
			set: Amplifier, tool: "grep", args: `{"pattern":"NEEDLE","path":"Case.txt","output_mode":"count","-i":true}`, status: scout.StatusSuccess,
			has: []string{`"counts":{"Case.txt":3}`}},
		{rule: "003: Non-existent paths are reported",
			set: Amplifier, tool: "grep", args: `{"pattern":"x","path":"nope"}`, status: scout.StatusError, code: "NOT_FOUND"},
		{rule: "003: Invalid patterns return clear error messages",
			set: Amplifier, tool: "grep", args: `{"pattern":"a[b"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Invalid regex: …"},
		{rule: "003: glob results sorted by modification time (newest first); type file",
			set: Amplifier, tool: "glob", args: `{"pattern":"**/*.ts","path":"fd/a","type":"file"}`, status: scout.StatusSuccess,
			has: []string{`"count":1,"matches":[{"path":"fd/a/y.ts","type":"file","size":1}]`}},
		{rule: "003: glob newest first; exclude patterns",
			set: Amplifier, tool: "glob", args: `{"pattern":"*.ts","path":"fd","exclude":["x1*"]}`, status: scout.StatusSuccess,
			text: "fd/x2.ts"},
		{rule: "003: pattern (required): Regular expression pattern to search for",
			set: Amplifier, tool: "grep", args: `{"path":"ctx.txt"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Missing argument 'pattern': …"},
		{rule: "003: -i: Case insensitive search (without it, case matters)",
			set: Amplifier, tool: "grep", args: `{"pattern":"needle","path":"Case.txt","output_mode":"count"}`, status: scout.StatusSuccess,
			has: []string{`"total_matches":1,"matches_count":1,"counts":{"Case.txt":1}}`}},
		{rule: "003: -A: Lines of context after each match",
			set: Amplifier, tool: "grep", args: `{"pattern":"MATCH","path":"ctx.txt","output_mode":"content","-A":1,"head_limit":1}`, status: scout.StatusPartial,
			has: []string{`"context":[{"line_number":5,"content":"MATCH five","is_match":true},{"line_number":6,"content":"line 6","is_match":false}]}]`}},
		{rule: "003: -B: Lines of context before each match",
			set: Amplifier, tool: "grep", args: `{"pattern":"MATCH","path":"ctx.txt","output_mode":"content","-B":2,"offset":2}`, status: scout.StatusSuccess,
			has: []string{`"results":[{"file":"ctx.txt","line_number":20,"content":"MATCH twenty","context":[{"line_number":18,"content":"line 18","is_match":false},{"line_number":19,"content":"line 19","is_match":false},{"line_number":20,"content":"MATCH twenty","is_match":true}]}]`}},
		{rule: "003: -A/-B/-C: Context lines with flexible -A/-B/-C options (-A or -B sets its side of -C, as in ripgrep 14)",
			set: Amplifier, tool: "grep", args: `{"pattern":"MATCH","path":"ctx.txt","output_mode":"content","-C":2,"-A":0,"-B":1,"head_limit":1}`, status: scout.StatusPartial,
			has: []string{`"context":[{"line_number":4,"content":"line 4","is_match":false},{"line_number":5,"content":"MATCH five","is_match":true}]}]`}},
		{rule: "003: -A/-B/-C: -C alone sets both sides",
			set: Amplifier, tool: "grep", args: `{"pattern":"MATCH","path":"ctx.txt","output_mode":"content","-C":1,"head_limit":1}`, status: scout.StatusPartial,
			has: []string{`"context":[{"line_number":4,"content":"line 4","is_match":false},{"line_number":5,"content":"MATCH five","is_match":true},{"line_number":6,"content":"line 6","is_match":false}]}]`}},
		{rule: `003: type: File type to search (e.g., "js", "py", "rust")`,
			set: Amplifier, tool: "grep", args: `{"pattern":"ampword","path":"amp","type":"rust"}`, status: scout.StatusSuccess,
			has: []string{`"total_matches":1,"matches_count":1,"files":["amp/src/lib.rs"]}`}},
		{rule: `003: glob: Glob pattern to filter files ("**/*.{test.py,spec.py}")`,
			set: Amplifier, tool: "grep", args: `{"pattern":"ampword","path":"amp","glob":"**/*.{rs,md}"}`, status: scout.StatusSuccess,
			has: []string{`"files":["amp/src/lib.rs","amp/web/b.md"]}`}},
		{rule: "003: head_limit: (default: 0 = unlimited): files_with_matches",
			set: Amplifier, tool: "grep", args: `{"pattern":"ampword","path":"amp/g"}`, status: scout.StatusSuccess,
			has: []string{`"total_matches":201,"matches_count":201`, `"amp/g/g200.txt"]}`}},
		{rule: "003: head_limit: (default: 0 = unlimited): content",
			set: Amplifier, tool: "grep", args: `{"pattern":"ampword","path":"amp/g","output_mode":"content","head_limit":0}`, status: scout.StatusSuccess,
			has: []string{`"total_matches":603,"matches_count":603`, `{"file":"amp/g/g200.txt","line_number":3,"content":"ampword 3"}]}`}},
		{rule: "003: head_limit: (default: 0 = unlimited): count",
			set: Amplifier, tool: "grep", args: `{"pattern":"ampword","path":"amp/g","output_mode":"count","head_limit":0}`, status: scout.StatusSuccess,
			has: []string{`"total_matches":603,"matches_count":603`, `"amp/g/g200.txt":3}}`}},
		{rule: "003: glob: pattern (required)",
			set: Amplifier, tool: "glob", args: `{"path":"fd"}`, status: scout.StatusError, code: "INVALID_PARAM",
			text: "Missing required argument 'pattern': …"},
		{rule: "003: glob: Non-existent paths are reported",
			set: Amplifier, tool: "glob", args: `{"pattern":"*","path":"nope"}`, status: scout.StatusError, code: "NOT_FOUND"},
		{rule: "003: glob: Multiple exclusion patterns",
			set: Amplifier, tool: "glob", args: `{"pattern":"**/*.ts","path":"fd","exclude":["x1*","y.ts"]}`, status: scout.StatusSuccess,
			text: "fd/x2.ts\nfd/b/z.ts\nfd/build/o.ts"},
		{rule: "003: glob: Type filtering (file/dir/any)",
			set: Amplifier, tool: "glob", args: `{"pattern":"*","path":"fd","type":"any"}`, status: scout.StatusSuccess,
			has: []string{`{"path":"fd/x1.ts","type":"file","size":1}`, `{"path":"fd/a","type":"dir","size":null}`}},
		{rule: "003: glob: Results are truncated at max_results with indication (the newest kept)",
			set: Amplifier, tool: "glob", args: `{"pattern":"*.txt","path":"amp/g"}`, status: scout.StatusPartial,
			text: "amp/g/g200.txt\namp/g/g199.txt\n…", has: []string{`"count":100,`, "amp/g/g101.txt", "[Showing the 100 newest of 201 matches."}, lacks: []string{"amp/g/g100.txt"}},
	}
	for _, tr := range testfs.Trees(t, seedFixture()) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for i, r := range rows {
			t.Run(fmt.Sprintf("%02d_%s_%s/%s", i, r.set, r.tool, tr.Name), func(t *testing.T) {
				env := Call(context.Background(), cfg, r.set, r.tool, []byte(r.args))
				code, data, fail := mismatch(env, r.status, r.code, r.text, r.has, r.lacks)
				if fail {
					t.Errorf("%s %s %s\n got %s %s %q\ndata %s\nrule: %s", r.set, r.tool, r.args, env.Status, code, env.Text, data, r.rule)
				}
			})
		}
	}
}

// mismatch compares env with a row of an acceptance table: its status and
// error code ("" when not an error); its text whole, or its start when
// text ends in "…" ("" checks nothing); the pieces the text or the data's
// JSON must hold (has) and must not (lacks). It returns the code and the
// data's JSON for the report.
func mismatch(env *scout.Envelope, status scout.Status, code, text string, has, lacks []string) (string, []byte, bool) {
	data, _ := json.Marshal(env.Data)
	got := env.Text + "\n" + string(data)
	gotCode := ""
	if env.Error != nil {
		gotCode = string(env.Error.Code)
	}
	fail := env.Status != status || gotCode != code
	if want, prefix := strings.CutSuffix(text, "…"); text != "" {
		fail = fail || prefix && !strings.HasPrefix(env.Text, want) || !prefix && env.Text != want
	}
	for _, h := range has {
		fail = fail || !strings.Contains(got, h)
	}
	for _, l := range lacks {
		fail = fail || strings.Contains(got, l)
	}
	return gotCode, data, fail
}
