package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestWebReadPeakMemory reads the web bodies that used the most memory
// through the real command, as a user runs it (neither GOGC nor
// GOMEMLIMIT set), and takes its peak from Linux's rusage: a page of a
// million links, a feed of 380,000 items and a gzip bomb, each cut at the
// 20 MiB body cap. The promise is a peak
// under 256 MB on any single input; with GOGC=400 alone they peaked at
// 258-316 MB.
func TestWebReadPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and reads 20 MiB bodies")
	}
	var links, feed, bomb bytes.Buffer
	links.WriteString("<html><head><title>links</title></head><body>\n")
	for i := range 1_000_000 {
		fmt.Fprintf(&links, "<a href=\"/p/%d\">link %d</a>\n", i, i)
	}
	feed.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>` + "\n")
	for i := range 380_000 {
		fmt.Fprintf(&feed, "<item><title>item %d</title><link>http://e.example/%d</link></item>\n", i, i)
	}
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write([]byte("<html><body><p>"))
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	for range 1024 {
		zw.Write(chunk)
	}
	zw.Close()
	bodies := map[string]struct {
		typ, enc string
		body     []byte
	}{
		"/links": {"text/html", "", links.Bytes()},
		"/feed":  {"application/rss+xml", "", feed.Bytes()},
		"/bomb":  {"text/html", "gzip", bomb.Bytes()},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", b.typ)
		if b.enc != "" {
			w.Header().Set("Content-Encoding", b.enc)
		}
		w.Write(b.body)
	}))
	t.Cleanup(srv.Close)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			env = append(env, kv)
		}
	}
	bin := scoutBinary(t)
	for _, p := range []string{"/links", "/feed", "/bomb"} {
		cmd := exec.Command(bin, "call", "--allow-private-network", "read", `{"path":"`+srv.URL+p+`"}`)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil || !bytes.Contains(out, []byte(`"status":"partial"`)) {
			t.Errorf("%s: %v, want a partial read (the body cut at its cap): %.300s", p, err, out)
			continue
		}
		const limit = 256 << 20
		if rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10; rss > limit {
			t.Errorf("%s: peak resident memory %d MB, want under %d MB", p, rss>>20, limit>>20)
		}
	}
}
