package tool

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestPiReadCorners checks seed 001's read at the corners that the other
// pi read tests leave open: an open range with its leading context (the
// default limit counts from the line asked for), continuation hints that
// must show the line they name when a context line alone fills the page,
// through the tool, over MapFS and a directory.
func TestPiReadCorners(t *testing.T) {
	huge := strings.Repeat("z", 200<<10)
	m := fstest.MapFS{
		"ten.txt":   {Data: []byte(lines(10))},
		"l400.txt":  {Data: []byte(lines(400))},
		"huge1.txt": {Data: []byte(huge + "\nsecond\nthird\n")},
		"big.zip":   {Data: testfs.Zip(testfs.Member{Name: "big1.txt", Body: strings.Repeat("q", 60<<10) + "\nsecond\nthird\n"})},
		"bin.dat":   {Data: []byte("abc\x00def\nghi\n")},
		"p:5":       {Data: []byte("one\ntwo\n")},
		"x":         {Data: []byte("plain x\n")},
		"x:raw":     {Data: []byte("literal\n")},
		"crlf.txt":  {Data: []byte("a\r\nb\r\nc\r\n")},
		"lf.txt":    {Data: []byte("a\nb\nc\n")},
		"bom.txt":   {Data: []byte("\xef\xbb\xbfhello\nworld\n")},
		"odd.zip": {Data: testfs.Zip(
			testfs.Member{Name: "a:b.txt", Body: "colon\nsecond\n"},
			testfs.Member{Name: `win\path.txt`, Body: "backslash\n"},
			testfs.Member{Name: "x.zip:y.txt", Body: "tricky\n"},
		)},
	}
	rows := []seed001Row{
		// Open ranges: the limit counts from the line asked for.
		{rule: "Default open-ended limit is min(read.defaultLimit, DEFAULT_MAX_LINES); explicit ranges expand by RANGE_LEADING_CONTEXT_LINES = 1 on the constrained side: :101 shows 300 lines from 101, after line 100",
			path: "l400.txt:101", status: scout.StatusSuccess, text: "¶l400.txt#…",
			has: []string{"\n100:l100\n101:l101\n", "\n400:l400"}, lacks: []string{"99:l99", "Use :"}},
		{rule: "the same with a page left over: the notice continues after the 300th line asked for",
			path: "l400.txt:51", status: scout.StatusPartial, text: "¶l400.txt#…",
			has: []string{"\n50:l50\n51:l51\n", "\n350:l350\n\n[Showing lines 50-350 of 400. Use :351 to continue]", `"shownRange":{"start":50,"end":350}`, `"nextOffset":351`}},
		{rule: "read.defaultLimit clamped to [1, DEFAULT_MAX_LINES]: a limit of 1 shows the line asked for after its context, and its continuation goes on (it showed line 4 and said :5, forever)",
			cfg: Config{ReadLimit: 1}, path: "ten.txt:5", status: scout.StatusPartial,
			text: "¶ten.txt#6E7D\n4:l4\n5:l5\n\n[Showing lines 4-5 of 10. Use :6 to continue]"},
		{rule: "a limit of 1 from line 1: no context, one line",
			cfg: Config{ReadLimit: 1}, path: "ten.txt", status: scout.StatusPartial,
			text: "¶ten.txt#6E7D\n1:l1\n\n[Showing lines 1-1 of 10. Use :2 to continue]"},

		// A context line over the byte budget.
		{rule: "Local streamed byte budget max(DEFAULT_MAX_BYTES, maxLinesToCollect * 512): a first line over it ends the page, whose notice says :2",
			path: "huge1.txt", status: scout.StatusPartial, text: "¶huge1.txt#…",
			has: []string{"…\n\n[Showing lines 1-1 of 3 (150KB limit). Use :2 to continue. Some lines truncated to 768 chars]"}},
		{rule: "following it shows line 2 after line 1, its context, though line 1 alone is over the budget (it showed line 1 alone and said :2 again)",
			path: "huge1.txt:2", status: scout.StatusPartial, text: "¶huge1.txt#…",
			has: []string{"…\n2:second\n\n[Showing lines 1-2 of 3 (151KB limit). Use :3 to continue. Some lines truncated to 768 chars]"}},
		{rule: "the same in an archive entry (in-memory, 50 KB head)",
			path: "big.zip:big1.txt:2", status: scout.StatusPartial, text: "¶big.zip:big1.txt#…",
			has: []string{"…\n2:second\n\n[Showing lines 1-2 of 3 (50KB limit). Use :3 to continue. Some lines truncated to 768 chars]"}},
		{rule: "a bounded range after the huge line: its line after the context line, the budget (50 KB for 5 lines) ending the trailing context",
			path: "huge1.txt:2-2", status: scout.StatusPartial, text: "¶huge1.txt#…",
			has: []string{"…\n2:second\n\n[Showing lines 1-2 of 3 (50KB limit). Use :3 to continue. Some lines truncated to 768 chars]"}},

		// Selector errors, in pi's words.
		{rule: "pi-behaviour §1.7: N+0 or a missing count gives Invalid range N+0: count must be >= 1. (ParseSelector's doc says so too)",
			path: "ten.txt:5+", status: scout.StatusError, code: "INVALID_PARAM", text: "Invalid range 5+0: count must be >= 1."},
		{rule: ":0 throws Line selector 0 is invalid; lines are 1-indexed. Use :1. (a 0 in any range of a list, or after L)",
			path: "ten.txt:5,L0-3", status: scout.StatusError, code: "INVALID_PARAM", text: "Line selector 0 is invalid; lines are 1-indexed. Use :1."},
		{rule: "- end must be >= start (in a list too)",
			path: "ten.txt:1-2,10-5", status: scout.StatusError, code: "INVALID_PARAM", text: "Invalid range 10-5: end must be >= start."},

		// Names that end in a selector (pi-behaviour §7, #4618: an existing
		// file literally named test:1-2 wins over the :1-2 selector).
		{rule: ":range:raw or :raw:range ... raw output, after a file named like a selector (p:5): the file, read raw (it was the missing 'p', lines 5-, raw)",
			path: "p:5:raw", status: scout.StatusSuccess, text: "one\ntwo"},
		{rule: "the compound after such a name: the name is the path",
			path: "p:5:2-2:raw", status: scout.StatusSuccess, text: "two"},
		{rule: "a compound whose path exists is read as the compound, though the name before its last chunk exists too (x and x:raw)",
			path: "x:raw:1", status: scout.StatusSuccess, text: "plain x"},
		{rule: "neither reading exists: the compound's path is named",
			path: "q:5:raw", status: scout.StatusError, code: "NOT_FOUND", text: "Path 'q' not found"},
		{rule: "the literal name wins over its selector reading",
			path: "x:raw", status: scout.StatusSuccess, text: "¶x:raw#…"},

		// Line ends and byte-order marks.
		{rule: "hashline: CRs are not shown, and the tag is the LF text's (DESIGN: xxHash32 of the LF-normalised text)",
			path: "crlf.txt", status: scout.StatusSuccess, text: "¶crlf.txt#D988\n1:a\n2:b\n3:c"},
		{rule: "the same text with LF line ends: the same tag",
			path: "lf.txt", status: scout.StatusSuccess, text: "¶lf.txt#D988\n1:a\n2:b\n3:c"},
		{rule: "a UTF-8 byte-order mark is not shown as text; the result says it was there",
			path: "bom.txt:2", status: scout.StatusSuccess, text: "¶bom.txt#…", has: []string{"\n1:hello\n2:world", `"encoding":"utf-8-bom"`}, lacks: []string{"\ufeff"}},

		// Multi-range edges.
		{rule: "A range past the end becomes [Range 999-1000 is beyond end of file (10 lines total); skipped] (an open-ended one named by its start)",
			path: "ten.txt:20,2-3", status: scout.StatusSuccess, text: "¶ten.txt#6E7D\n2:l2\n3:l3\n[Range 20 is beyond end of file (10 lines total); skipped]"},
		{rule: ":range:raw with several ranges: raw blocks joined by the elision line",
			path: "ten.txt:9-12,2-3:raw", status: scout.StatusSuccess, text: "l2\nl3\n\n…\n\nl9\nl10"},

		// Archive members with odd names.
		{rule: "A member path ends at the next ':' after which a selector follows (a member named a:b.txt)",
			path: "odd.zip:a:b.txt:2", status: scout.StatusSuccess, text: "¶odd.zip:a:b.txt#…", has: []string{"\n1:colon\n2:second"}},
		{rule: "Archive paths normalize / (a member stored with a backslash is read by its slash path)",
			path: "odd.zip:win/path.txt", status: scout.StatusSuccess, text: "¶odd.zip:win/path.txt#…", has: []string{"\n1:backslash"}},
		{rule: "a member whose name looks like an archive path",
			path: "odd.zip:x.zip:y.txt:raw", status: scout.StatusSuccess, text: "tricky"},

		// A binary file: its notice suggests nothing that fails.
		{rule: "a NUL in the first 64 KiB is binary (DESIGN's engine); the notice gives no hint, since search skips the file too (DESIGN: every continuation hint must work when followed)",
			path: "bin.dat", status: scout.StatusSuccess, text: "[Cannot display binary file 'bin.dat' (12B, application/octet-stream)]"},
	}
	for _, tr := range testfs.Trees(t, m) {
		for i, r := range rows {
			t.Run(fmt.Sprintf("%02d_%s/%s", i, r.path, tr.Name), func(t *testing.T) {
				r.check(t, Config{FS: tr.FS, Root: tr.Root})
			})
		}
		// An empty path, given or not, says how to fix the call, as a blank
		// one does.
		for _, args := range []string{`{}`, `{"path":""}`, `{"path":"  "}`, `{"path":null}`} {
			env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Pi, "read", []byte(args))
			if want := `Path must not be empty: pass a file or directory, e.g. "README.md" or "src/main.go:10-40".`; env.Error == nil || env.Error.Code != scout.CodeInvalidParam || env.Text != want {
				t.Errorf("%s: read %s gave %s %q, want INVALID_PARAM %q", tr.Name, args, env.Status, env.Text, want)
			}
		}
		// The search the notice once suggested finds nothing in it.
		env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Pi, "search", []byte(`{"pattern":"def","paths":["bin.dat"]}`))
		if !strings.Contains(env.Text, "No matches found") || !strings.Contains(env.Text, "1 binary") {
			t.Errorf("%s: pi search in bin.dat gave %q; if search now reads binary files, the binary read notice may suggest it again", tr.Name, env.Text)
		}
	}
}
