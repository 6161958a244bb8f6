package format

import (
	"strings"
	"testing"

	"github.com/scoutkit/scout"
)

// TestNamesQuoted renders results whose names hold a newline (the forged
// heading and match row "a" / "*1|fake"), a control byte and an invalid
// byte: every render shows each name in its quoted form, on its own line,
// and no line comes from a name.
func TestNamesQuoted(t *testing.T) {
	const forged = "a\n*1|fake"
	hit := []scout.LineMatch{{Line: 1, Text: "hello", Match: true}}
	files := []scout.FileMatch{{Path: forged, Tag: "5BF9", Lines: hit}, {Path: "b\xffc", Lines: hit}}
	tests := []struct {
		name, got string
		want      []string
	}{
		{"search hashline", searchText(&scout.SearchResult{Files: files, MissingPaths: []string{"m\x01"}}, nil),
			[]string{`# "a\n*1|fake"#5BF9`, `# "b\xffc"`, `Skipped missing paths: "m\x01"`}},
		{"search plain", searchText(&scout.SearchResult{Files: files}, &SearchOptions{Style: StylePlain}),
			[]string{`# "a\n*1|fake"`}},
		{"search single", searchText(&scout.SearchResult{Files: files[:1], Single: true}, nil),
			[]string{`¶"a\n*1|fake"#5BF9`}},
		{"search files", searchText(&scout.SearchResult{Files: files, Mode: scout.SearchFiles}, nil),
			[]string{`"a\n*1|fake"`, `"b\xffc"`}},
		{"search count", searchText(&scout.SearchResult{Files: []scout.FileMatch{{Path: forged, MatchLines: 1}}, Mode: scout.SearchCount}, nil),
			[]string{`"a\n*1|fake":1`}},
		{"search skipped member", searchText(&scout.SearchResult{Files: files, SkippedPaths: []scout.SkippedPath{{Path: "a.zip:x\ny", Reason: scout.SkipBinary, Named: true}}}, nil),
			[]string{`Skipped archive entries (search supports text members only): "a.zip:x\ny" (binary)`}},
		{"stream files", (&SearchStream{Mode: scout.SearchFiles}).File(&files[0]), []string{`"a\n*1|fake"`}},
		{"stream heading", (&SearchStream{}).File(&files[0]), []string{`# "a\n*1|fake"#5BF9`}},
		{"find grouped", findText(&scout.FindResult{Entries: []scout.FindEntry{{Path: forged}, {Path: "d\x01/x\ny"}, {Path: "d\x01/s\n", Dir: true}}, MissingPaths: []string{"m\x01"}}),
			[]string{`"a\n*1|fake"`, `# "d\x01"/`, `"x\ny"`, `"s\n"/`, `Skipped missing paths: "m\x01"`}},
		{"find exact", findText(&scout.FindResult{Entries: []scout.FindEntry{{Path: forged}}, ExactFile: true}), []string{`"a\n*1|fake"`}},
		{"archive listing", ReadText(&scout.ReadResult{Kind: scout.ReadKindArchive, Path: "a.zip", Archive: "a.zip", TotalLines: 3, Truncated: scout.TruncLimit, Next: 3,
			Entries: []scout.DirEntry{{Path: "x\ny", Size: 6, Line: 1}, {Path: "d\n", Dir: true, Line: 2}}}, nil),
			[]string{`"x\ny" (6B)`, `"d\n"/`, "[Showing lines 1-2 of 3. Use a.zip:/:3 to continue]"}},
		{"archive dir notice", ReadText(&scout.ReadResult{Kind: scout.ReadKindArchive, Path: "a.zip:d\n", Archive: "a.zip", TotalLines: 3, Next: 2,
			Entries: []scout.DirEntry{{Path: "x", Line: 1}}}, nil),
			[]string{`[2 more lines in listing. Use a.zip:"d\n"/:2 to continue]`}},
		{"read heading and suffix", ReadText(&scout.ReadResult{Kind: scout.ReadKindText, Path: forged, Tag: "5BF9", TotalLines: 1,
			SuffixResolution: &scout.SuffixResolution{From: "x\n", To: forged}, Blocks: []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{{N: 1, Text: "hello"}}}}}, nil),
			[]string{`[Path '"x\n"' not found; resolved to '"a\n*1|fake"' via suffix match]`, `¶"a\n*1|fake"#5BF9`}},
		{"read binary", ReadText(&scout.ReadResult{Kind: scout.ReadKindBinary, Path: forged, MIME: "x"}, nil),
			[]string{`[Cannot display binary file '"a\n*1|fake"' (0B, x)]`}},
		{"read skipped paths", ReadText(&scout.ReadResult{Kind: scout.ReadKindDirectory, Path: ".", TotalLines: 1,
			Blocks:       []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{{N: 1, Text: "."}}}},
			SkippedPaths: []scout.SkippedPath{{Path: "p\n/", Reason: scout.SkipIgnored}, {Path: "u\n", Reason: scout.SkipUnreadable}}}, nil),
			[]string{`[Not listed: "p\n/" (always pruned). Could not list: "u\n"]`}},
		{"sqlite tables", ReadText(&scout.ReadResult{Kind: scout.ReadKindSQLite, SQLite: &scout.SQLiteView{Tables: []scout.SQLiteTable{{Name: forged, Rows: 1}}}}, nil),
			[]string{`"a\n*1|fake" (1 rows)`}},
		{"sqlite sample header", ReadText(&scout.ReadResult{Kind: scout.ReadKindSQLite, SQLite: &scout.SQLiteView{Schema: &scout.SQLiteSchema{Table: scout.SQLiteTable{Name: "t"},
			Columns: []scout.SQLiteColumn{{Name: forged}}, Samples: [][]scout.SQLiteValue{{{Type: "text", Text: "v"}}}}}}, nil),
			[]string{`| "a\n*1|fake" |`}},
		{"sqlite row", ReadText(&scout.ReadResult{Kind: scout.ReadKindSQLite, SQLite: &scout.SQLiteView{Rows: &scout.SQLiteRows{Table: "t", Key: "1",
			Columns: []string{forged}, Rows: [][]scout.SQLiteValue{{{Type: "text", Text: "v"}}}}}}, nil),
			[]string{`"a\n*1|fake": v`}},
		{"read parts", ReadText(&scout.ReadResult{Kind: scout.ReadKindMulti, Parts: []scout.ReadPart{{Path: "x\ny", Error: "not found"}}}, nil),
			[]string{`Note: interpreted as 1 paths: "x\ny"`, `[Could not read "x\ny": not found]`}},
	}
	for _, tt := range tests {
		lines := strings.Split(tt.got, "\n")
		for _, l := range lines {
			if strings.HasPrefix(l, "*1|fake") || l == "y" || strings.HasPrefix(l, "y ") || strings.ContainsAny(l, "\x01\ufffd") || strings.IndexByte(l, 0xff) >= 0 {
				t.Errorf("%s: a name forged the line %q:\n%s", tt.name, l, tt.got)
			}
		}
		for _, w := range tt.want {
			found := false
			for _, l := range lines {
				found = found || l == w || strings.HasPrefix(l, w+"#") || strings.HasPrefix(l, w+"  ")
			}
			if !found {
				t.Errorf("%s: no line %q in:\n%s", tt.name, w, tt.got)
			}
		}
	}
}

// searchText is the text SearchText returns.
func searchText(r *scout.SearchResult, o *SearchOptions) string {
	text, _ := SearchText(r, o)
	return text
}

func findText(r *scout.FindResult) string {
	text, _ := FindText(r, nil)
	return text
}
