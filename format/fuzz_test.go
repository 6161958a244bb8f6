package format

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/scoutkit/scout"
)

// styles are the line styles the fuzz targets render in.
var fuzzStyles = []string{"", StyleHashline, StyleNumbered, StylePlain}

// addJSON adds the JSON of each value as a seed.
func addJSON(f *testing.F, vs ...any) {
	for _, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0), int16(0))
	}
}

// FuzzReadText renders any read result a host could decode from JSON,
// odd ones included (rows shorter or longer than their columns, elided
// spans out of order, negative numbers): it must not panic, and renders
// valid UTF-8 from valid UTF-8.
func FuzzReadText(f *testing.F) {
	val := func(s string) scout.SQLiteValue { return scout.SQLiteValue{Type: "text", Text: s} }
	addJSON(f,
		&scout.ReadResult{Kind: "text", Path: "a", Tag: "ABCD", TotalLines: 2, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "x", "y")}}},
		&scout.ReadResult{Kind: "text", Path: "a", TotalLines: 9000, Truncated: scout.TruncLimit, Blocks: []scout.ReadBlock{
			{Start: 1, End: 1, Lines: lines(1, "a")}, {Start: 10, End: 5000, Lines: lines(10, "b"), Truncated: scout.TruncLimit, Next: 11}}},
		&scout.ReadResult{Kind: "summary", Path: "a.go", Tag: "ABCD", TotalLines: 9, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "func f() {", "}")}},
			Summary: &scout.ReadSummary{Language: "go", Lines: 9, Elided: []scout.ElidedSpan{{Start: 1, End: 5, Merged: true, Lines: 3}, {Start: 7, End: 8, Lines: 2}}, ElidedLines: 5}},
		&scout.ReadResult{Kind: "sqlite", Path: "a.db", SQLite: &scout.SQLiteView{Rows: &scout.SQLiteRows{Table: "t", Columns: []string{"a", "b"},
			Rows: [][]scout.SQLiteValue{{val("1"), val("x\ty")}, {{Type: "null"}, {Type: "real", Real: 1e300}}}, More: true, Limit: 2}, Next: ":t?offset=2"}},
		&scout.ReadResult{Kind: "sqlite", Path: "a.db", SQLite: &scout.SQLiteView{Rows: &scout.SQLiteRows{Table: "t", Key: "1", Columns: []string{"a", "b"},
			Rows: [][]scout.SQLiteValue{{val("1"), {Type: "text", Text: "long", Rest: 9}}}}}},
		&scout.ReadResult{Kind: "sqlite", Path: "a.db", SQLite: &scout.SQLiteView{Schema: &scout.SQLiteSchema{Table: scout.SQLiteTable{Name: "t", Rows: 9},
			SQL: "CREATE TABLE t(a)", Columns: []scout.SQLiteColumn{{Name: "a"}}, Samples: [][]scout.SQLiteValue{{val("v")}}}}},
		&scout.ReadResult{Kind: "sqlite", Path: "a.db", SQLite: &scout.SQLiteView{Tables: []scout.SQLiteTable{{Name: "t", Rows: 5, RowsEstimated: true}}, TotalTables: 3}},
		&scout.ReadResult{Kind: "archive", Path: "a.zip:d", Archive: "a.zip", TotalLines: 3, Truncated: scout.TruncLimit, Next: 3,
			Entries: []scout.DirEntry{{Path: "x", Line: 1, Size: 5}, {Path: "d", Dir: true, Line: 2}}},
		&scout.ReadResult{Kind: "multi", Parts: []scout.ReadPart{{Path: "x", Error: "Path 'x' not found"},
			{Path: "y", Result: &scout.ReadResult{Kind: "binary", Path: "a.zip:y", Archive: "a.zip", Bytes: 3}}}},
		&scout.ReadResult{Kind: "image", Path: "p.png", Image: &scout.ImageInfo{MIME: "image/png", Format: "png", Bytes: 2048, Width: 5, Height: 3, Channels: 4}},
		&scout.ReadResult{Kind: "conflicts", Path: "c", Conflicts: &scout.ReadConflicts{Blocks: []scout.ConflictBlock{{ID: 1, Start: 1, End: 5}}}},
	)
	f.Fuzz(func(t *testing.T, data []byte, style uint8, _ int16) {
		var r scout.ReadResult
		if json.Unmarshal(data, &r) != nil {
			return
		}
		o := &ReadOptions{Style: fuzzStyles[int(style)%len(fuzzStyles)]}
		text := ReadText(&r, o)
		if !utf8.ValidString(text) {
			t.Fatalf("ReadText of %s in %q: invalid UTF-8 %q", data, o.Style, text)
		}
	})
}

// FuzzSearchText renders any search result a host could decode from
// JSON: it must not panic, renders valid UTF-8, and with a byte cap
// reports a cut only when the lines were over it.
func FuzzSearchText(f *testing.F) {
	addJSON(f,
		&scout.SearchResult{Mode: scout.SearchContent, Files: []scout.FileMatch{{Path: "a.go", Tag: "ABCD", MatchLines: 1, Matches: 1,
			Lines: []scout.LineMatch{{Line: 1, Text: "ctx"}, {Line: 2, Text: "m", Match: true}, {Line: 9, Text: "cut", Match: true, Cut: true}}}}},
		&scout.SearchResult{Mode: scout.SearchContent, Single: true, Files: []scout.FileMatch{{Path: "a", MatchLines: 1, Lines: []scout.LineMatch{{Line: 3, Text: "x", Match: true}}}}},
		&scout.SearchResult{Mode: scout.SearchFiles, Files: []scout.FileMatch{{Path: "a"}, {Path: "b\nc"}}, MissingPaths: []string{"m"}},
		&scout.SearchResult{Mode: scout.SearchCount, Files: []scout.FileMatch{{Path: "a", MatchLines: 4}}, Skipped: map[scout.SkipReason]int{scout.SkipTooLarge: 2}},
		&scout.SearchResult{Mode: scout.SearchContent},
	)
	f.Fuzz(func(t *testing.T, data []byte, style uint8, maxBytes int16) {
		var r scout.SearchResult
		if json.Unmarshal(data, &r) != nil {
			return
		}
		o := &SearchOptions{Style: fuzzStyles[int(style)%len(fuzzStyles)], MaxBytes: int(maxBytes), Notes: []string{"note"}}
		text, cut := SearchText(&r, o)
		if !utf8.ValidString(text) {
			t.Fatalf("SearchText of %s: invalid UTF-8 %q", data, text)
		}
		if full, _ := SearchText(&r, &SearchOptions{Style: o.Style, MaxBytes: -1, Notes: o.Notes}); cut && len(full) <= int(maxBytes) {
			t.Fatalf("SearchText of %s cut at %d bytes a text of %d:\n%s", data, maxBytes, len(full), text)
		}
	})
}

// FuzzFindText renders any find result a host could decode from JSON: it
// must not panic and renders valid UTF-8.
func FuzzFindText(f *testing.F) {
	addJSON(f,
		&scout.FindResult{Entries: []scout.FindEntry{{Path: "a/b.go"}, {Path: "a/c", Dir: true}}, Scope: ".", Pattern: "**", Matched: 9, Truncated: scout.TruncLimit},
		&scout.FindResult{Scope: "x", ExactFile: true, Entries: []scout.FindEntry{{Path: "x"}}},
		&scout.FindResult{Scope: ".", MissingPaths: []string{"m"}, Truncated: scout.TruncTimeout, Skipped: map[scout.SkipReason]int{scout.SkipUnreadable: 1}},
	)
	f.Fuzz(func(t *testing.T, data []byte, _ uint8, maxBytes int16) {
		var r scout.FindResult
		if json.Unmarshal(data, &r) != nil {
			return
		}
		text, _ := FindText(&r, &FindOptions{MaxBytes: int(maxBytes)})
		if !utf8.ValidString(text) {
			t.Fatalf("FindText of %s: invalid UTF-8 %q", data, text)
		}
	})
}

// FuzzSearchStreamParts: files of any lines (numbers out of order or
// repeated, empty files, odd text) print the same through a SearchStream
// whole or in parts of k lines; a file searched alone prints as
// SearchText prints it, whole or in parts.
func FuzzSearchStreamParts(f *testing.F) {
	addJSON(f,
		&scout.SearchResult{Files: []scout.FileMatch{{Path: "src/b.go", Tag: "BBBB", Lines: []scout.LineMatch{{Line: 2, Text: "b", Match: true}, {Line: 3, Text: "c "},
			{Line: 9, Text: "d", Match: true}, {Line: 20, Text: "g\t", Match: true, Cut: true}}}, {Path: "a.txt", Lines: []scout.LineMatch{{Line: 1, Text: "*", Match: true}}}},
			MaxColumns: 3, MissingPaths: []string{"x"}},
		&scout.SearchResult{Files: []scout.FileMatch{{Path: "x", Lines: []scout.LineMatch{{Line: 5, Match: true}, {Line: 4}, {Line: 5}, {Line: 0}, {Line: -3, Match: true}}}, {Path: "empty"}}},
	)
	f.Fuzz(func(t *testing.T, data []byte, style uint8, k int16) {
		var r scout.SearchResult
		if json.Unmarshal(data, &r) != nil {
			return
		}
		r.Mode, r.Single = scout.SearchContent, false
		var files []scout.FileMatch
		for _, f := range r.Files {
			if len(f.Lines) > 0 { // a stream yields no file without lines
				f.More, f.Single = false, false
				files = append(files, f)
			}
		}
		n := int(k)%8 + 1
		if n < 1 {
			n = -n + 1
		}
		o := &SearchOptions{Style: fuzzStyles[int(style)%len(fuzzStyles)]}
		end := r
		end.Files = nil
		want := streamText(o, files, &end)
		var parts []scout.FileMatch
		for _, f := range files {
			parts = append(parts, inParts(f, n)...)
		}
		if got := streamText(o, parts, &end); got != want {
			t.Fatalf("in parts of %d lines:\n%s\nwhole:\n%s", n, got, want)
		}
		if len(files) == 0 {
			return
		}
		one := files[0]
		one.Single = true
		single := end
		single.Single, single.Files = true, []scout.FileMatch{one}
		text, _ := SearchText(&single, &SearchOptions{Style: o.Style, MaxBytes: -1})
		if got := streamText(o, inParts(one, n), &end); got != text+"\n" {
			t.Fatalf("a file searched alone, in parts of %d lines:\n%q\nSearchText:\n%q", n, got, text+"\n")
		}
	})
}
