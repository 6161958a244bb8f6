package tool

import (
	"context"
	"testing"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// BenchmarkPiFindGOROOT is `scout call find '{"paths":["**/*.go"],"limit":200}'`
// on $GOROOT/src (about 7,700 .go files in 1,300 directories): a walk that
// lstats every match for its mtime and keeps the 200 newest.
func BenchmarkPiFindGOROOT(b *testing.B) {
	c := Config{Root: testfs.GoSrc(b), Style: "plain"}
	args := []byte(`{"paths":["**/*.go"],"limit":200}`)
	for b.Loop() {
		env := Call(context.Background(), c, Pi, "find", args)
		if env.Status == scout.StatusError {
			b.Fatal(env.Error)
		}
	}
}
