package format

import (
	"testing"

	"github.com/scoutkit/scout"
)

func lines(start int, texts ...string) []scout.ReadLine {
	out := make([]scout.ReadLine, len(texts))
	for i, s := range texts {
		out[i] = scout.ReadLine{N: start + i, Text: s}
	}
	return out
}

func TestReadText(t *testing.T) {
	tests := []struct {
		name   string
		res    *scout.ReadResult
		style  string
		want   string
		reason string
	}{
		{"numbered", &scout.ReadResult{Kind: "text", Path: "a", Tag: "ABCD", TotalLines: 2, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "x", "y")}}},
			StyleNumbered, "1|x\n2|y", "numbered rows have no header"},
		{"hashline", &scout.ReadResult{Kind: "text", Path: "a", Tag: "ABCD", TotalLines: 2, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "x", "y")}}},
			"", "¶a#ABCD\n1:x\n2:y", "hashline is the default"},
		{"no tag", &scout.ReadResult{Kind: "text", Path: "a", TotalLines: 9, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "x")}}},
			StyleHashline, "1:x", "a text over 4 MiB has no header but keeps N: rows"},
		{"immutable", &scout.ReadResult{Kind: "text", Path: "m://x", Immutable: true, TotalLines: 1, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "x")}}},
			StyleHashline, "x", "immutable sources have no prefixes"},
		{"truncated bytes", &scout.ReadResult{Kind: "text", Path: "a", TotalLines: 9, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "x"), Truncated: scout.TruncBytes, ByteLimit: 153600, Next: 2}},
			Truncated: scout.TruncBytes, Next: 2},
			StylePlain, "x\n\n[Showing lines 1-1 of 9 (150KB limit). Use :2 to continue]", "the byte notice names the budget"},
		{"truncated without lines", &scout.ReadResult{Kind: "text", Path: "a", TotalLines: 9, Blocks: []scout.ReadBlock{{Start: 1, Truncated: scout.TruncLimit, Next: 4}}},
			StylePlain, "\n\n[6 more lines in file. Use :4 to continue]", "a host's truncated block without lines says how to go on (it panicked)"},
		{"truncated without lines or next", &scout.ReadResult{Kind: "text", Path: "a", Blocks: []scout.ReadBlock{{Truncated: "0"}}},
			StylePlain, "(empty file)", "an odd block a host decoded renders as its total says (it panicked)"},
		{"multi stopped", &scout.ReadResult{Kind: "text", Path: "a", TotalLines: 9000, Truncated: scout.TruncLimit, Blocks: []scout.ReadBlock{
			{Start: 1, End: 1, Lines: lines(1, "a")}, {Start: 10, End: 5000, Lines: lines(10, "b"), Truncated: scout.TruncLimit, Next: 11}}},
			StylePlain, "a\n\n…\n\nb\n[Range 10-5000 stopped at line 10 (limit). Use :11 to continue]", "a capped range of a multi-range says how to go on"},
		{"raw cut", &scout.ReadResult{Kind: "text", Path: "a", Raw: true, TotalLines: 1, Blocks: []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{{N: 1, Text: "abc", Cut: true, Bytes: 2048}}}}},
			StyleHashline, "abc\n\n[Line 1 is 2.0KB; only its first 3B fit the byte limit]", "a raw line cut at the budget is reported"},
		{"empty beyond", &scout.ReadResult{Kind: "text", Path: "a", Source: "file", BeyondEnd: 3},
			"", "Line 3 is beyond end of file: the file is empty.", "an empty file has no last line to suggest"},
		{"first line huge", &scout.ReadResult{Kind: "text", Path: "a", Source: "archive", BeyondEnd: 5, TotalLines: 1, TotalLinesAtLeast: true},
			"", "Line 5 was not reached: the archive entry's first line runs on for over 64 MiB without a line end (binary content such as a run of NUL bytes, or one huge line), and reading stopped in it. Use :1 to see its start.",
			"one hint when the line reading stopped in is the first (it said 'at least 1 lines. Use :1 ..., or :1 ...')"},
		{"binary", &scout.ReadResult{Kind: "binary", Path: "b", Bytes: 2048, MIME: "application/zip"},
			"", "[Cannot display binary file 'b' (2.0KB, application/zip)]", "binary files get one notice"},
		{"parts", &scout.ReadResult{Kind: "multi", Parts: []scout.ReadPart{{Path: "x", Error: "Path 'x' not found"},
			{Path: "y", Result: &scout.ReadResult{Kind: "binary", Path: "a.zip:y", Archive: "a.zip", Bytes: 3}}}},
			"", "Note: interpreted as 2 paths: x, y\n\n[Could not read x: Path 'x' not found]\n\n[Cannot read binary archive entry 'y' (3B)]", "each part after a blank line, failures inline"},
		{"partial document", &scout.ReadResult{Kind: "text", Path: "d.pdf", Source: "document", Immutable: true, TotalLines: 1, Incomplete: "page 2 is damaged",
			Notes: []string{"from the host"}, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "v")}}},
			"", "v\n\n[Note: Converted in part: page 2 is damaged. Note: from the host]", "a document converted in part says why, before the other notes"},
		{"image", &scout.ReadResult{Kind: "image", Path: "p.png", Image: &scout.ImageInfo{MIME: "image/png", Format: "png", Bytes: 2048, Width: 5, Height: 3, Channels: 4, Alpha: true}, ImageData: []byte{1}},
			"", "Read image file [image/png]", "an image with its bytes gets a note"},
		{"image metadata", &scout.ReadResult{Kind: "image", Path: "p.png", Image: &scout.ImageInfo{MIME: "image/png", Format: "png", Bytes: 2048, Width: 5, Height: 3, Channels: 4, Alpha: true}},
			"", "Image metadata [image/png]\n- bytes: 2048 (2.0KB)\n- dimensions: 5x3\n- channels: 4\n- alpha: yes", "an image without its bytes is described"},
		{"notes", &scout.ReadResult{Kind: "text", Path: "r", Immutable: true, TotalLines: 1, Notes: []string{"Extracted: /a"}, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "v")}}},
			"", "v\n\n[Note: Extracted: /a]", "resource notes are notices"},
	}
	for _, tt := range tests {
		if got := ReadText(tt.res, &ReadOptions{Style: tt.style}); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

// TestReadTextNilPayload: a result without the payload its Kind names
// renders as nothing, not a panic.
func TestReadTextNilPayload(t *testing.T) {
	for _, k := range []scout.ReadKind{scout.ReadKindSummary, scout.ReadKindImage, scout.ReadKindSQLite, scout.ReadKindConflicts, scout.ReadKindArchive, scout.ReadKindMulti} {
		if got := ReadText(&scout.ReadResult{Kind: k}, nil); got != "" && k != scout.ReadKindArchive && k != scout.ReadKindMulti {
			t.Errorf("%s: %q", k, got)
		}
	}
}
