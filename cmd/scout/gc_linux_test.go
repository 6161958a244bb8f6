package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	links := []byte("<html><head><title>links</title></head><body>\n")
	for i := range 1_000_000 {
		n := strconv.Itoa(i)
		links = append(links, "<a href=\"/p/"+n+"\">link "+n+"</a>\n"...)
	}
	feed := []byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>` + "\n")
	for i := range 380_000 {
		n := strconv.Itoa(i)
		feed = append(feed, "<item><title>item "+n+"</title><link>http://e.example/"+n+"</link></item>\n"...)
	}
	// 1 GiB of "a" after the page's start: gzip members decompress as
	// one stream, so one compressed MiB repeated makes it (compressing
	// the GiB took a minute under -race).
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	bomb := append(gz([]byte("<html><body><p>")), bytes.Repeat(gz(bytes.Repeat([]byte("a"), 1<<20)), 1024)...)
	bodies := map[string]struct {
		typ, enc string
		body     []byte
	}{
		"/links": {"text/html", "", links},
		"/feed":  {"application/rss+xml", "", feed},
		"/bomb":  {"text/html", "gzip", bomb},
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
		out, rss, err := peakRSS(t, env, bin, "call", "--allow-private-network", "read", `{"path":"`+srv.URL+p+`"}`)
		if err != "" || !bytes.Contains(out, []byte(`"status":"partial"`)) {
			t.Errorf("%s: %s, want a partial read (the body cut at its cap): %.300s", p, err, out)
			continue
		}
		const limit = 256 << 20
		t.Logf("%s: peak resident memory %d MB", p, rss>>20)
		if rss > limit {
			t.Errorf("%s: peak resident memory %d MB, want under %d MB", p, rss>>20, limit>>20)
		}
	}
}

// peakRSS runs the command args with env and returns its output, its peak
// resident memory in bytes and its failure ("" for none). It starts the
// command from a fresh copy of the test binary (TestPeakRSSHelper): Linux
// counts into a child's peak the peak of the memory it was started from,
// and this test process may be large (750 MB under -race, where every
// read seemed to peak at that).
func peakRSS(t *testing.T, env []string, args ...string) (out []byte, rss int64, failure string) {
	t.Helper()
	result := filepath.Join(t.TempDir(), "result.json")
	spec, _ := json.Marshal(peakSpec{Args: args, Result: result})
	helper := exec.Command(os.Args[0], "-test.run=^TestPeakRSSHelper$")
	helper.Env = append(env, peakEnv+"="+string(spec))
	if b, err := helper.CombinedOutput(); err != nil {
		t.Fatalf("the helper process: %v\n%s", err, b)
	}
	var s peakSpec
	if b, err := os.ReadFile(result); err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("the helper process left no result: %v", err)
	}
	return s.Out, s.RSS, s.Err
}

// peakEnv names the variable that makes TestPeakRSSHelper run a command.
const peakEnv = "SCOUT_TEST_PEAK_RSS"

// peakSpec is the command TestPeakRSSHelper runs (Args), the file it
// writes (Result) and what it writes there (Out, RSS, Err).
type peakSpec struct {
	Args   []string
	Result string
	Out    []byte
	RSS    int64
	Err    string
}

// TestPeakRSSHelper is the process peakRSS starts: it runs the command of
// $SCOUT_TEST_PEAK_RSS and writes its output and peak resident memory to
// the result file. Without the variable it is skipped.
func TestPeakRSSHelper(t *testing.T) {
	spec := os.Getenv(peakEnv)
	if spec == "" {
		t.Skip("a helper process of TestWebReadPeakMemory")
	}
	var s peakSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(s.Args[0], s.Args[1:]...)
	out, err := cmd.Output()
	s.Out = out
	if err != nil {
		s.Err = err.Error()
	}
	if cmd.ProcessState != nil {
		s.RSS = int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10
	}
	b, _ := json.Marshal(s)
	if err := os.WriteFile(s.Result, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
