package tool

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestSeedCorners checks seeds 000 and 004 at corners TestSeedAcceptance
// leaves open (line ends, case folding, context windows that meet, lines
// over the column cap in context, names with spaces, colons and non-ASCII
// letters, ties in find's order, hidden paths named), through tool.Call
// over a MapFS and over a directory, each row quoting its rule; rows read
// as TestSeedAcceptance's do.
func TestSeedCorners(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s), ModTime: t0} }
	var n20 strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&n20, "n%d\n", i)
	}
	tree := fstest.MapFS{
		"crlf.txt":        file("one\r\nfoo two\r\nthree\r\n"),
		"lf.txt":          file("one\nfoo two\nthree\n"),
		"uni/ü.txt":       file("Straße STRASSE\nİstanbul\nΣίσυφος ΣΊΣΥΦΟΣ\n"),
		"n.txt":           file(n20.String()),
		"ctxlong.txt":     file(strings.Repeat("c", 600) + "\nhit\n" + strings.Repeat("d", 513) + "\n"),
		"trail.txt":       file("foo  \t\nbar\n"),
		"spacecut.txt":    file("hit" + strings.Repeat(" ", 600) + "end\n"),
		"spaceend.txt":    file(strings.Repeat("c", 510) + " \t \nhit" + strings.Repeat(" ", 600) + "\n" + strings.Repeat("d", 512) + "\t\t\n"),
		"wide/far.txt":    file("hit" + strings.Repeat(" \t", 1500) + "\n"),
		"wide/farend.txt": file("hit" + strings.Repeat(" ", 3000) + "end" + strings.Repeat(" ", 9) + "\n"),
		"my dir/f 1.txt":  file("needle in space\n"),
		"col:on.txt":      file("needle:colon\n"),
		"tie/b.txt":       file("x\n"),
		"tie/a.txt":       file("x\n"),
		"tie/c.txt":       file("x\n"),
		".hdir/in/f.txt":  file("x\n"),
		".hdir/.g":        file("x\n"),
		"tie":             &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: t0},
		".hdir":           &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: t0},
		".hdir/in":        &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: t0},
		"flat/sub/deep.x": file("x\n"),
		"flat/top.x":      file("x\n"),
	}
	rows := []struct {
		rule       string
		tool, args string
		status     scout.Status
		code       string
		text       string
		has, lacks []string
	}{
		{rule: "000: *LINE:content; a CRLF file shows its lines without the CR, and $ matches before it",
			tool: "search", args: `{"pattern":"two$","paths":"crlf.txt"}`, status: scout.StatusSuccess,
			text: "¶crlf.txt#D490\n1:one\n*2:foo two\n3:three"},
		{rule: "000 (DESIGN: the tag is of the LF-normalised text): the LF file has the CRLF file's tag",
			tool: "search", args: `{"pattern":"two$","paths":"lf.txt"}`, status: scout.StatusSuccess,
			text: "¶lf.txt#D490\n1:one\n*2:foo two\n3:three"},
		{rule: "000: i: case-insensitive search (non-ASCII letters fold: σ, ς and Σ)",
			tool: "search", args: `{"pattern":"σίσυφος σίσυφος|STRAßE","paths":"uni/ü.txt","i":true}`, status: scout.StatusSuccess,
			text: "¶uni/ü.txt#D05C\n*1:Straße STRASSE\n2:İstanbul\n*3:Σίσυφος ΣΊΣΥΦΟΣ"},
		{rule: "000: i defaults to false (non-ASCII letters keep their case)",
			tool: "search", args: `{"pattern":"σίσυφος","paths":"uni/ü.txt"}`, status: scout.StatusSuccess,
			text: "No matches found"},
		{rule: "000: context 1 before, 3 after: windows that meet run on without '...'",
			tool: "search", args: `{"pattern":"^n1$|^n6$","paths":"n.txt"}`, status: scout.StatusSuccess,
			text: "¶n.txt#52BC\n*1:n1\n2:n2\n3:n3\n4:n4\n5:n5\n*6:n6\n7:n7\n8:n8\n9:n9"},
		{rule: "000: ... one line apart they are split by a line that is exactly '...'",
			tool: "search", args: `{"pattern":"^n1$|^n7$","paths":"n.txt"}`, status: scout.StatusSuccess,
			text: "¶n.txt#52BC\n*1:n1\n2:n2\n3:n3\n4:n4\n...\n6:n6\n*7:n7\n8:n8\n9:n9\n10:n10"},
		{rule: "000: a match inside another's context is a match line, and the context runs on from the last",
			tool: "search", args: `{"pattern":"^n3$|^n4$","paths":"n.txt"}`, status: scout.StatusSuccess,
			text: "¶n.txt#52BC\n2:n2\n*3:n3\n*4:n4\n5:n5\n6:n6\n7:n7"},
		{rule: "000: no context before line 1, none after the last line",
			tool: "search", args: `{"pattern":"^n20$|^n1$","paths":"n.txt"}`, status: scout.StatusSuccess,
			text: "¶n.txt#52BC\n*1:n1\n2:n2\n3:n3\n4:n4\n...\n19:n19\n*20:n20"},
		{rule: "000: Line truncation: 512 characters per emitted line (context lines too) plus …",
			tool: "search", args: `{"pattern":"hit","paths":"ctxlong.txt"}`, status: scout.StatusPartial,
			text: "¶ctxlong.txt#" + "…", has: []string{"\n1:" + strings.Repeat("c", 512) + "…\n*2:hit\n3:" + strings.Repeat("d", 512) + "…\n\n[Some lines truncated to 512 chars]", `"linesTruncated":true`}},
		{rule: "000: ... the 512 characters shown of a cut line keep their white space (trailing blanks of the line's end are no trailing blanks of the cut)",
			tool: "search", args: `{"pattern":"hit","paths":"spacecut.txt"}`, status: scout.StatusPartial,
			text: "¶spacecut.txt#" + "…", has: []string{"\n*1:hit" + strings.Repeat(" ", 509) + "…\n\n[Some lines truncated to 512 chars]", "*1│hit" + strings.Repeat(" ", 509) + "…"}},
		{rule: "000 (notes §2.2: lines are trim_end()ed, then cut at 512): a line over 512 characters only by its trailing white space is not cut, context lines too",
			tool: "search", args: `{"pattern":"hit","paths":"spaceend.txt"}`, status: scout.StatusSuccess,
			text: "¶spaceend.txt#" + "…", has: []string{"\n1:" + strings.Repeat("c", 510) + "\n*2:hit\n3:" + strings.Repeat("d", 512) + "\n"}, lacks: []string{"…", "[Some lines", `"linesTruncated"`, `"columnTruncated"`, "│hit "}},
		{rule: "000 (notes §2.2): ... however far the trailing white space runs; a line with more after it is cut, keeping the white space before the cut",
			tool: "search", args: `{"pattern":"hit","paths":"wide"}`, status: scout.StatusPartial,
			text: "# wide/far.txt#" + "…", has: []string{"\n*1:hit\n\n# wide/farend.txt#", "\n*1:hit" + strings.Repeat(" ", 509) + "…\n\n[Some lines truncated to 512 chars]", `*1│hit\n\n# wide/farend.txt\n*1│hit`, "│hit" + strings.Repeat(" ", 509) + "…"}},
		{rule: "000 (notes §2.2: lines are trim_end()ed): trailing spaces and tabs are not shown",
			tool: "search", args: `{"pattern":"foo","paths":"trail.txt"}`, status: scout.StatusSuccess,
			text: "¶trail.txt#D2DF\n*1:foo\n2:bar"},
		{rule: "000: search.ts trims [the pattern]: leading and trailing spaces are lost",
			tool: "search", args: `{"pattern":"  foo\t","paths":"trail.txt"}`, status: scout.StatusSuccess,
			text: "¶trail.txt#D2DF\n*1:foo\n2:bar", has: []string{`"pattern_normalized":"foo"`}},
		{rule: "000: One file path ... a directory path whose name has a space: # <path>#TAG headings",
			tool: "search", args: `{"pattern":"needle","paths":"my dir"}`, status: scout.StatusSuccess,
			text: "# my dir/f 1.txt#8AC2\n*1:needle in space", has: []string{`"scopePath":"my dir"`}},
		{rule: "000: a file whose name holds a colon is a file, not a selector",
			tool: "search", args: `{"pattern":"needle","paths":"col:on.txt"}`, status: scout.StatusSuccess,
			text: "¶col:on.txt#A7CE\n*1:needle:colon"},
		{rule: "000: a glob's file headings name the file as the root sees it (non-ASCII letters as they are)",
			tool: "search", args: `{"pattern":"İstanbul","paths":"**/*.txt"}`, status: scout.StatusSuccess,
			text: "# uni/ü.txt#D05C\n1:Straße STRASSE\n*2:İstanbul\n3:Σίσυφος ΣΊΣΥΦΟΣ"},
		{rule: "004: Sort order: most recent mtime first (equal times: by path)",
			tool: "find", args: `{"paths":["tie"]}`, status: scout.StatusSuccess,
			text: "# tie/\na.txt\nb.txt\nc.txt"},
		{rule: "004: hidden: false leaves out hidden entries below a path, not the hidden directory the path names",
			tool: "find", args: `{"paths":[".hdir"],"hidden":false}`, status: scout.StatusSuccess,
			text: "# .hdir/\nin/\n\n# .hdir/in/\nf.txt", has: []string{`"skipped":{"hidden":1}`}},
		{rule: "004: hidden defaults to true",
			tool: "find", args: `{"paths":[".hdir"]}`, status: scout.StatusSuccess,
			has: []string{"# .hdir/\n", ".g\n", "in/"}},
		{rule: "004: glob later in the path => split at the first glob-bearing segment (non-recursive below it)",
			tool: "find", args: `{"paths":["flat/*.x"]}`, status: scout.StatusSuccess,
			text: "# flat/\ntop.x"},
		{rule: "004: a base spelled with .. inside the root is that directory",
			tool: "find", args: `{"paths":["flat/sub/../*.x"]}`, status: scout.StatusSuccess,
			text: "# flat/\ntop.x", has: []string{`"scopePath":"flat"`}},
		{rule: "004: scopePath: display form of the ... merged roots: each entry as pi's toScopeDisplay shows it (relative, cleaned, a trailing / only when given), as search's",
			tool: "find", args: `{"paths":["./flat/*.x","tie","flat/sub/"]}`, status: scout.StatusSuccess,
			has: []string{`"scopePath":"flat/*.x, tie, flat/sub/"`, `"pattern_normalized":"{flat/*.x,tie/**/*,flat/sub/**/*}"`}},
		{rule: "004: scopePath of several entries, the missing one left out",
			tool: "find", args: `{"paths":["nope","tie","flat"]}`, status: scout.StatusSuccess,
			has: []string{`"scopePath":"tie, flat"`, `"missingPaths":["nope"]`}},
		{rule: "004: scopePath of several entries of which one remains: its searched root",
			tool: "find", args: `{"paths":["nope","flat/*.x"]}`, status: scout.StatusSuccess,
			text: "# flat/\ntop.x\n\nSkipped missing paths: nope", has: []string{`"scopePath":"flat"`}},
		{rule: "004 (DESIGN: .. escapes fail): a base that leaves the root is refused, not searched",
			tool: "find", args: `{"paths":["flat/../../x/*.x"]}`, status: scout.StatusError, code: "ACCESS_DENIED",
			text: "Access denied: 'flat/../../x' is outside the project root…"},
		{rule: "000 (DESIGN: .. escapes fail): a path that leaves the root is refused, not searched",
			tool: "search", args: `{"pattern":"x","paths":"flat/../../x"}`, status: scout.StatusError, code: "ACCESS_DENIED",
			text: "Access denied: 'flat/../../x' is outside the project root…"},
	}
	for _, tr := range testfs.Trees(t, tree) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for i, r := range rows {
			t.Run(fmt.Sprintf("%02d_%s/%s", i, r.tool, tr.Name), func(t *testing.T) {
				env := Call(context.Background(), cfg, Pi, r.tool, []byte(r.args))
				code, data, fail := mismatch(env, r.status, r.code, r.text, nil, r.lacks)
				js := string(data) + `"pattern_normalized":"` + env.Context.PatternNormalized + `"`
				for _, h := range r.has {
					fail = fail || !strings.Contains(env.Text+"\n"+js, h)
				}
				if fail {
					t.Errorf("pi %s %s\n got %s %s %q\ndata %s\nrule: %s", r.tool, r.args, env.Status, code, env.Text, data, r.rule)
				}
			})
		}
	}
}
