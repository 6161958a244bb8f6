package scout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestCallbackPanics: a host callback that panics (a stream's fn or loop
// body, a Progress func), which a search or a find calls from goroutines
// of its own, stops the call and panics again on the caller's goroutine
// with the same value, where the host can recover it; without that the
// panic ended the process.
func TestCallbackPanics(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 64 {
		m[fmt.Sprintf("d%d/f%03d.txt", i%8, i)] = &fstest.MapFile{Data: []byte(strings.Repeat("hello\n", 20))}
	}
	slow := testfs.SlowFS{MapFS: m, Delay: 250 * time.Millisecond} // a find long enough for Progress
	ws := scout.Workspace{FS: m}
	s := &scout.Searcher{Workspace: ws, Workers: 4}
	ctx := context.Background()
	calls := map[string]func(){
		"StreamFunc unordered": func() {
			s.StreamFunc(ctx, scout.SearchRequest{Pattern: "hello", Unordered: true}, func(*scout.FileMatch) bool { panic("host bug") })
		},
		"StreamFunc ordered": func() {
			s.StreamFunc(ctx, scout.SearchRequest{Pattern: "hello"}, func(*scout.FileMatch) bool { panic("host bug") })
		},
		"Stream loop body": func() {
			for range s.Stream(ctx, scout.SearchRequest{Pattern: "hello", Unordered: true}) {
				panic("host bug")
			}
		},
		"Stream Progress": func() {
			for range s.Stream(ctx, scout.SearchRequest{Pattern: "hello", Unordered: true, Progress: func(int64) { panic("host bug") }}) {
			}
		},
		"Search Progress": func() {
			s.Search(ctx, scout.SearchRequest{Pattern: "hello", Progress: func(int64) { panic("host bug") }})
		},
		"Find Progress": func() {
			(&scout.Finder{Workspace: scout.Workspace{FS: slow}}).Find(ctx, scout.FindRequest{Progress: func(scout.FindProgress) { panic("host bug") }})
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			got := func() (v any) {
				defer func() { v = recover() }()
				call()
				return nil
			}()
			assert.Equal(t, "host bug", got)
		})
	}
}
