package tool

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// FuzzFollowRead follows the continuation hints of the read of an
// in-memory text (an internal URL's resource) from a line: the hints must
// end, each read going on at the line after the last shown (see
// followRows), whatever the text holds (long lines, control characters,
// CRs, invalid UTF-8, no final newline).
func FuzzFollowRead(f *testing.F) {
	f.Add("a\nb\nc\n", uint16(1), uint8(0), uint16(0))
	f.Add("x\r\ny\rz", uint16(2), uint8(3), uint16(100))
	f.Add("\x00\xff\n\n\n", uint16(3), uint8(1), uint16(7000))
	f.Add(strings.Repeat("long line "+strings.Repeat("y", 600)+"\n", 3), uint16(1), uint8(2), uint16(200))
	f.Fuzz(func(t *testing.T, text string, from uint16, wide uint8, repeat uint16) {
		// repeat copies of text make long texts from short inputs;
		// wide makes each copy's lines longer.
		text = strings.ReplaceAll(text, "\n", strings.Repeat("w", int(wide)*300)+"\n")
		if n := int(repeat) % 8000; n > 1 && len(text)*n < 4<<20 {
			text = strings.Repeat(text, n)
		}
		c := Config{FS: fstest.MapFS{}, Resolvers: map[string]scout.Resolver{"memory": memResolver{"memory://m": text}}}
		ref, _ := followRows(t, c, "memory://m", "memory://m:1", 1, nil)
		if len(ref) == 0 {
			return
		}
		start := 1 + int(from)%len(ref)
		followRows(t, c, "memory://m", "memory://m:"+strconv.Itoa(start), start, ref)
	})
}
