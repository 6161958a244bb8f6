package mcpserver

import (
	"context"
	"io"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/tool"
)

// BenchmarkHandle decodes and answers one message: a ping, an initialize,
// and tools/calls of an unknown tool (answered once their params are
// decoded, so that no call runs) with small and 1 MiB arguments.
func BenchmarkHandle(b *testing.B) {
	s, err := New(tool.Config{FS: fstest.MapFS{}}, tool.Pi, "bench")
	if err != nil {
		b.Fatal(err)
	}
	c := newSession(s, context.Background(), io.Discard)
	go c.writeOut()
	b.Cleanup(func() {
		c.out.close()
		c.cancel()
	})
	call := func(args string) string {
		return `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"nope","arguments":` + args + `}}`
	}
	paths := `"src/a.go"` + strings.Repeat(`,"src/a.go"`, (1<<20)/11)
	for _, bm := range []struct{ name, line string }{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"bench","version":"1.0.0"}}}`},
		{"tools/call", call(`{"pattern":"func (A|B)","paths":["src","a.go"],"i":true,"gitignore":false,"skip":1}`)},
		{"tools/call 1 MiB string", call(`{"path":"` + strings.Repeat("x", 1<<20) + `"}`)},
		{"tools/call 1 MiB array", call(`{"paths":[` + paths + `]}`)},
	} {
		b.Run(bm.name, func(b *testing.B) {
			line := []byte(bm.line)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				c.handle(line)
			}
		})
	}
}
