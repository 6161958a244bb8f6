package tool

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// TestCallNilContext: a nil ctx is an error Envelope that tells the host to
// pass context.Background(), for every tool, instead of a panic.
func TestCallNilContext(t *testing.T) {
	var nilCtx context.Context
	cfg := Config{FS: fstest.MapFS{"a.go": {Data: []byte("package a\n")}}}
	for _, ts := range Toolsets() {
		tools, err := Tools(ts)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			env := Call(nilCtx, cfg, ts, tl.Name, []byte(`{}`))
			if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam ||
				!strings.Contains(env.Text, "tool.Call was called with a nil context.Context: pass context.Background()") || env.Context.Cwd != "." {
				t.Errorf("%s/%s: envelope %+v, want an INVALID_PARAM error naming the nil context", ts, tl.Name, env)
			}
		}
	}
}
