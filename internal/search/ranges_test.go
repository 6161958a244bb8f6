package search

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/testfs"
)

// rangesTree is the fixture of the line-range tests.
func rangesTree() fstest.MapFS {
	return fstest.MapFS{
		"src/a.ts":  {Data: []byte("needle 1\nx\nneedle 3\nneedle 4\nx\nneedle 6\n")},
		"src/b.ts":  {Data: []byte("needle b\n")},
		"top.txt":   {Data: []byte("needle top\n")},
		"c:1-2":     {Data: []byte("needle colon\n")},
		"d:5/f.txt": {Data: []byte("needle in d\n")},
		"a.zip":     {Data: testfs.Zip(testfs.Files(map[string]string{"m.txt": "needle m1\nx\nneedle m3\n"})...)},
	}
}

// TestEntryRanges searches entries with their own line selectors among
// others, over a MapFS and a directory, through the ordered scan of a page
// and the exhaustive one: each ranged file shows only its lines, the other
// entries are searched whole, a file asked for whole by another entry is
// searched whole, and an entry that names an existing path as a whole is
// that path.
func TestEntryRanges(t *testing.T) {
	tests := []struct {
		entries []string
		lines   [][2]int // Grep.LineRanges
		want    map[string]string
		single  bool
		reason  string
	}{
		{[]string{"src/a.ts:1-3", "top.txt"}, nil, map[string]string{"src/a.ts": "1m 2c 3m", "top.txt": "1m"}, false, "a ranged file among others: context outside the range dropped"},
		{[]string{"src/a.ts:5-16,960-973", "top.txt"}, nil, map[string]string{"src/a.ts": "5c 6m", "top.txt": "1m"}, false, "a range list"},
		{[]string{"top.txt", "src/a.ts:4"}, nil, map[string]string{"src/a.ts": "4m 5c 6m", "top.txt": "1m"}, false, "an open range, second"},
		{[]string{"src/a.ts:1-3"}, nil, map[string]string{"src/a.ts": "1m 2c 3m"}, true, "alone: a single-file scope"},
		{[]string{"src/a.ts"}, [][2]int{{1, 3}}, map[string]string{"src/a.ts": "1m 2c 3m"}, true, "the request's lines"},
		{[]string{"src/a.ts:1-2", "src/a.ts:6"}, nil, map[string]string{"src/a.ts": "1m 2c 6m"}, true, "two selectors of one file are joined: one file, a single-file scope"},
		{[]string{"src/a.ts:1-2", "src/a.ts"}, nil, map[string]string{"src/a.ts": "1m 2c 3m 4m 5c 6m"}, true, "a file also named whole is searched whole, once"},
		{[]string{"src/a.ts", "./src/a.ts", "top.txt"}, nil, map[string]string{"src/a.ts": "1m 2c 3m 4m 5c 6m", "top.txt": "1m"}, false, "two spellings of one file: one target"},
		{[]string{"src/a.ts:1-2", "src"}, nil, map[string]string{"src/a.ts": "1m 2c 3m 4m 5c 6m", "src/b.ts": "1m"}, false, "a file held by a directory entry is searched whole"},
		{[]string{"src/a.ts:1-2", "src/*.ts"}, nil, map[string]string{"src/a.ts": "1m 2c 3m 4m 5c 6m", "src/b.ts": "1m"}, false, "... by a glob entry"},
		{[]string{"src/a.ts:1-2", "src/*.go", "top.txt"}, nil, map[string]string{"src/a.ts": "1m 2c", "top.txt": "1m"}, false, "a glob that does not match it leaves its ranges"},
		{[]string{"src/a.ts:1-", "top.txt"}, nil, map[string]string{"src/a.ts": "1m 2c 3m 4m 5c 6m", "top.txt": "1m"}, false, "every line: as without a selector"},
		{[]string{"c:1-2", "top.txt"}, nil, map[string]string{"c:1-2": "1m", "top.txt": "1m"}, false, "a file named with a colon is that file"},
		{[]string{"c:1-2:2", "top.txt"}, nil, map[string]string{"top.txt": "1m"}, false, "... and takes a selector of its own"},
		{[]string{"d:5", "top.txt"}, nil, map[string]string{"d:5/f.txt": "1m", "top.txt": "1m"}, false, "a directory named with a colon"},
		{[]string{"a.zip:m.txt:3", "top.txt"}, nil, map[string]string{"a.zip:m.txt": "3m", "top.txt": "1m"}, false, "an archive member with a range among other paths"},
		{[]string{"a.zip:m.txt:3", "a.zip"}, nil, map[string]string{"a.zip:m.txt": "1m 2c 3m"}, false, "a member also held by its archive entry is searched whole"},
	}
	for _, tree := range openTrees(t, rangesTree()) {
		fsys, root := tree.FS, tree.Root
		for _, tt := range tests {
			for _, exhaustive := range []bool{false, true} {
				req := Request{Paths: tt.entries, Grep: grep.Options{Pattern: "needle", Before: 1, After: 1, LineRanges: tt.lines},
					PerFile: 20, PerFileOne: 200, MaxFiles: 20, Budget: 2000, MaxFileSize: -1}
				if exhaustive {
					req.MaxFiles, req.Budget = -1, -1
				}
				out, err := Run(context.Background(), fsys, root, req)
				require.NoError(t, err, "%s: %s", tree.Name, tt.reason)
				got := map[string]string{}
				for _, h := range out.Files {
					got[h.Path] = spec(h.Lines)
				}
				assert.Equal(t, tt.want, got, "%s, exhaustive %v: %s", tree.Name, exhaustive, tt.reason)
				assert.Len(t, out.Files, len(tt.want), "%s, exhaustive %v: each file once: %s", tree.Name, exhaustive, tt.reason)
				assert.Equal(t, tt.single, out.Scope.Single(), "%s: %s", tree.Name, tt.reason)
			}
			var streamed []string
			req := Request{Paths: tt.entries, Grep: grep.Options{Pattern: "needle", Before: 1, After: 1, LineRanges: tt.lines}, MaxFileSize: -1, Unordered: true}
			_, err := Stream(context.Background(), fsys, root, req, func(h Hit) bool {
				assert.Equal(t, tt.want[h.Path], spec(h.Lines), "%s, unordered stream: %s", tree.Name, tt.reason)
				streamed = append(streamed, h.Path)
				return true
			})
			require.NoError(t, err)
			assert.Len(t, streamed, len(tt.want), "%s, unordered stream: %s", tree.Name, tt.reason)
		}
	}
}

// TestEntryRangesErrors: a line selector needs one file, archive member or
// resource, whatever the other entries; a missing one is an error even
// among others; the request's lines need one path and no selector.
func TestEntryRangesErrors(t *testing.T) {
	tests := []struct {
		entries []string
		lines   [][2]int
		code    errs.Code
		msg     string
	}{
		{[]string{"src:1-2", "top.txt"}, nil, errs.InvalidParam, "Line-range selector requires a single file: src is a directory"},
		{[]string{"src/*.ts:1-2", "top.txt"}, nil, errs.InvalidParam, "Line-range selector requires a single file, not a glob: src/*.ts"},
		{[]string{"a.zip:1-2", "top.txt"}, nil, errs.InvalidParam, "Line-range selector requires a single file: a.zip is an archive; name one member, e.g. a.zip:path/in/archive:50-100"},
		{[]string{"a.zip:*.txt:1", "top.txt"}, nil, errs.InvalidParam, "Line-range selector requires a single file, not a glob: a.zip:*.txt"},
		{[]string{"top.txt", "nope.ts:1-2"}, nil, errs.NotFound, "Path not found for line-range selector: nope.ts"},
		{[]string{"a.zip:nope.txt:1-2", "top.txt"}, nil, errs.NotFound, "Path not found for line-range selector: a.zip:nope.txt"},
		{[]string{"src/a.ts:raw", "top.txt"}, nil, errs.InvalidParam, "Invalid selector ':raw' after 'src/a.ts': a search path takes line ranges only, e.g. src/a.ts:50-100"},
		{[]string{"src/a.ts:5:raw"}, nil, errs.InvalidParam, "Invalid selector ':5:raw' after 'src/a.ts': a search path takes line ranges only, e.g. src/a.ts:50-100"},
		{[]string{"src/a.ts:0", "top.txt"}, nil, errs.InvalidParam, "Line selector 0 is invalid; lines are 1-indexed. Use :1."},
		{[]string{"src/a.ts:5-3"}, nil, errs.InvalidParam, "Invalid range 5-3: end must be >= start."},
		{[]string{"src/a.ts:1-2"}, [][2]int{{3, 4}}, errs.InvalidParam, "Line ranges given twice: for the whole search and as the selector of 'src/a.ts:1-2'; give them once, e.g. src/a.ts:50-100"},
		{[]string{"src/a.ts", "top.txt"}, [][2]int{{3, 4}}, errs.InvalidParam, "Line-range selector requires a single file: line ranges given for the whole search need one path; to restrict one of several paths, append its ranges to it, e.g. src/main.go:50-100"},
		{[]string{"src"}, [][2]int{{3, 4}}, errs.InvalidParam, "Line-range selector requires a single file: src is a directory"},
		{[]string{"nope.ts"}, [][2]int{{3, 4}}, errs.NotFound, "Path not found for line-range selector: nope.ts"},
		{[]string{"src/a.ts"}, [][2]int{{0, 4}}, errs.InvalidParam, "Invalid line range 0-4: lines are numbered from 1"},
	}
	for _, tree := range openTrees(t, rangesTree()) {
		fsys, root := tree.FS, tree.Root
		for _, tt := range tests {
			_, err := Run(context.Background(), fsys, root, Request{Paths: tt.entries, Grep: grep.Options{Pattern: "needle", LineRanges: tt.lines}, MaxFileSize: -1})
			require.Error(t, err, "%s: %q", tree.Name, tt.entries)
			assert.Equal(t, tt.code, errs.CodeOf(err), "%s: %q", tree.Name, tt.entries)
			assert.Equal(t, tt.msg, err.Error(), "%s: %q", tree.Name, tt.entries)
		}
	}
}
