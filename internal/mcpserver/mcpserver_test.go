package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

// serve runs a server on pipes and returns the client's ends; the server
// stops when the client closes its writer, and the cleanup checks that it
// did, cleanly.
func serve(t *testing.T, cfg tool.Config, toolset string) (*io.PipeReader, *io.PipeWriter) {
	t.Helper()
	s, err := New(cfg, toolset, "test")
	if err != nil {
		t.Fatal(err)
	}
	clientIn, clientOut, done := start(context.Background(), s)
	t.Cleanup(func() {
		clientOut.Close()
		go io.Copy(io.Discard, clientIn) // answers to calls canceled by the close
		waitServe(t, done, nil)
	})
	return clientIn, clientOut
}

// start runs s.Serve with ctx on pipes and returns the client's ends and
// Serve's result; the server's writer closes when Serve returns.
func start(ctx context.Context, s *Server) (*io.PipeReader, *io.PipeWriter, <-chan error) {
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := s.Serve(ctx, serverIn, serverOut)
		serverOut.Close()
		done <- err
	}()
	return clientIn, clientOut, done
}

// waitServe fails t unless Serve returns want within 10 s.
func waitServe(t *testing.T, done <-chan error, want error) {
	t.Helper()
	select {
	case err := <-done:
		if err != want {
			t.Errorf("Serve returned %v, want %v", err, want)
		}
	case <-time.After(10 * time.Second):
		t.Error("Serve still runs 10 s after its input closed or its ctx ended")
	}
}

// connect serves the toolset in memory and returns a connected client.
func connect(t *testing.T, cfg tool.Config, toolset string) *mcp.ClientSession {
	t.Helper()
	r, w := serve(t, cfg, toolset)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: r, Writer: w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func pngBytes(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 3))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func fixture(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"a.go":       {Data: []byte("package a\n\nfunc A() {}\n"), ModTime: testfs.Epoch},
		"src/b.go":   {Data: []byte("package src\n"), ModTime: testfs.Epoch.Add(time.Hour)},
		"README.md":  {Data: []byte("# hello\n"), ModTime: testfs.Epoch},
		"img/px.png": {Data: pngBytes(t), ModTime: testfs.Epoch},
	}
}

// trees returns the fixture as a MapFS config and as a real directory.
func trees(t *testing.T) map[string]tool.Config {
	m := fixture(t)
	cfgs := map[string]tool.Config{}
	for _, tr := range testfs.Trees(t, m) {
		cfgs[tr.Name] = tool.Config{FS: tr.FS, Root: tr.Root}
	}
	return cfgs
}

func TestListTools(t *testing.T) {
	for _, ts := range tool.Toolsets() {
		t.Run(ts, func(t *testing.T) {
			cs := connect(t, tool.Config{FS: fixture(t)}, ts)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tool.Tools(ts)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) != len(want) {
				t.Fatalf("listed %d tools, the toolset has %d", len(res.Tools), len(want))
			}
			byName := map[string]*mcp.Tool{}
			for _, mt := range res.Tools {
				byName[mt.Name] = mt
			}
			for _, w := range want {
				mt := byName[w.Name]
				if mt == nil {
					t.Fatalf("tool %s not listed", w.Name)
				}
				if mt.Description != w.Description {
					t.Errorf("%s: description %q, want the tool's own", w.Name, mt.Description)
				}
				got, _ := json.Marshal(mt.InputSchema)
				assert.JSONEq(t, string(w.Schema), string(got), "%s: schema", w.Name)
				a := mt.Annotations
				if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint {
					t.Errorf("%s: annotations %+v, want read-only, idempotent, not destructive", w.Name, a)
				}
				if a != nil && (a.OpenWorldHint == nil || *a.OpenWorldHint != (w.Name == "read")) {
					t.Errorf("%s: openWorldHint %v, want true only for read (it fetches URLs)", w.Name, a.OpenWorldHint)
				}
			}
		})
	}
}

func TestNoWebIsClosedWorld(t *testing.T) {
	cfg := tool.Config{FS: fixture(t)}
	cfg.NoWeb = true
	res, err := connect(t, cfg, tool.Pi).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mt := range res.Tools {
		if a := mt.Annotations; a == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint %v, want false when the host refuses web reads", mt.Name, a)
		}
	}
}

func TestNewUnknownToolset(t *testing.T) {
	_, err := New(tool.Config{}, "nope", "test")
	if scout.CodeOf(err) != scout.CodeInvalidParam || !strings.Contains(err.Error(), "toolsets: ") {
		t.Fatalf("got %v, want INVALID_PARAM listing the toolsets", err)
	}
}

func TestCallTool(t *testing.T) {
	tests := []struct {
		toolset, name, args string
		isError             bool
		reason              string
	}{
		{"pi", "find", `{"paths": ["**/*.go"]}`, false, "success: text and the Envelope"},
		{"pi", "find", `{"paths": "a.go"}`, true, "wrong field type: an error result the model sees"},
		{"pi", "find", `{"paths": ["nope/**"]}`, true, "missing path: an error result"},
		{"pi", "find", `{}`, true, "missing required argument"},
		{"pi", "find", `[1, 2]`, true, "arguments that are not an object"},
		{"pi", "find", `null`, true, "null arguments: an error Envelope, not a protocol error"},
		{"pi", "search", `{"paths": ".", "pattern": "func A"}`, false, "pi search"},
		{"pi", "read", `{"path": "a.go:1-2"}`, false, "pi read of a line range"},
		{"pi", "read", `{"path": "missing.go"}`, true, "pi read of a missing file"},
		{"amplifier", "glob", `{"pattern": "**/*.md"}`, false, "amplifier toolset"},
		{"amplifier", "grep", `{"pattern": "package", "output_mode": "content"}`, false, "amplifier grep, content mode"},
		{"amplifier", "grep", `{"pattern": "(", "output_mode": "content"}`, true, "a regex that does not compile"},
		{"standardized", "Glob", `{"pattern": "**/*.go", "limit": 1}`, false, "standardized toolset, partial result"},
	}
	for name, cfg := range trees(t) {
		t.Run(name, func(t *testing.T) {
			sessions := map[string]*mcp.ClientSession{}
			for _, tt := range tests {
				cs := sessions[tt.toolset]
				if cs == nil {
					cs = connect(t, cfg, tt.toolset)
					sessions[tt.toolset] = cs
				}
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.name, Arguments: json.RawMessage(tt.args)})
				if err != nil {
					t.Fatalf("%s: %v", tt.reason, err)
				}
				want := tool.Call(context.Background(), cfg, tt.toolset, tt.name, []byte(tt.args))
				if res.IsError != tt.isError || res.IsError != (want.Status == scout.StatusError) {
					t.Errorf("%s: isError %v, Envelope status %s", tt.reason, res.IsError, want.Status)
				}
				if len(res.Content) == 0 {
					t.Fatalf("%s: no content", tt.reason)
				}
				if text, ok := res.Content[0].(*mcp.TextContent); !ok || testfs.UntimedText(text.Text) != testfs.UntimedText(want.Text) {
					t.Errorf("%s: first content %#v, want the text %q", tt.reason, res.Content[0], want.Text)
				}
				assert.Equal(t, testfs.Untimed(t, want), testfs.Untimed(t, res.StructuredContent), "%s: structuredContent is the Envelope", tt.reason)
			}
		})
	}
}

// TestCallToolCredentials: the Envelope of a call echoes a URL's
// password redacted, as every Envelope does.
func TestCallToolCredentials(t *testing.T) {
	cs := connect(t, tool.Config{FS: fixture(t), NoWeb: true}, tool.Pi)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: json.RawMessage(`{"path":"https://user:secret@example.com/x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"params_input":{"path":"https://user:xxxxx@example.com/x"}`) || strings.Contains(string(b), "secret") {
		t.Errorf("the answer does not echo the URL redacted: %s", b)
	}
}

func TestReadImage(t *testing.T) {
	if _, err := tool.Lookup(tool.Pi, "read"); err != nil {
		t.Skip("the pi toolset has no read tool yet")
	}
	for name, cfg := range trees(t) {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, cfg, tool.Pi)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "img/px.png"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("reading a PNG failed: %v", res.Content)
			}
			if _, ok := res.Content[0].(*mcp.TextContent); !ok {
				t.Errorf("first content is %T, want text", res.Content[0])
			}
			var imgs []*mcp.ImageContent
			for _, c := range res.Content {
				if ic, ok := c.(*mcp.ImageContent); ok {
					imgs = append(imgs, ic)
				}
			}
			if len(imgs) != 1 || imgs[0].MIMEType != "image/png" || !bytes.Equal(imgs[0].Data, pngBytes(t)) {
				t.Fatalf("image content %+v, want the PNG's bytes once as image/png", imgs)
			}
		})
	}
}

// TestReadImageOnce: the reply to a read of an image carries its bytes
// once, in the image content; structuredContent's data keeps the image's
// metadata.
func TestReadImageOnce(t *testing.T) {
	if _, err := tool.Lookup(tool.Pi, "read"); err != nil {
		t.Skip("the pi toolset has no read tool yet")
	}
	noise := image.NewGray(image.Rect(0, 0, 96, 96)) // noise: a PNG that does not compress
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise.Pix {
		noise.Pix[i] = uint8(rng.Uint32())
	}
	var b bytes.Buffer
	if err := png.Encode(&b, noise); err != nil {
		t.Fatal(err)
	}
	w := dial(t, tool.Config{FS: fstest.MapFS{"noise.png": {Data: b.Bytes()}}}, tool.Pi)
	w.send(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "noise.png"}}}`)
	line, err := w.out.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Result struct {
			Content           []map[string]any `json:"content"`
			StructuredContent struct {
				Data struct {
					Result map[string]json.RawMessage `json:"result"`
				} `json:"data"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &reply); err != nil {
		t.Fatal(err)
	}
	res := reply.Result
	if len(res.Content) != 2 || res.Content[1]["type"] != "image" {
		t.Fatalf("content %v, want the text and the image", res.Content)
	}
	b64 := base64.StdEncoding.EncodeToString(b.Bytes())
	if res.Content[1]["data"] != b64 {
		t.Fatalf("the image content is not the PNG's bytes")
	}
	if n := bytes.Count(line, []byte(b64)); n != 1 {
		t.Errorf("the reply holds the image's base64 %d times, want once", n)
	}
	if len(line) > len(b64)+2048 {
		t.Errorf("a reply of %d bytes for %d bytes of base64, want at most 2 KiB more", len(line), len(b64))
	}
	r := res.StructuredContent.Data.Result
	if _, ok := r["image_data"]; ok || !bytes.Contains(r["image"], []byte(`"mime":"image/png"`)) {
		t.Errorf("structuredContent's result %s: want its image's metadata and no image_data", r["image"])
	}
}

// slowFS delays every Open and counts them, so a test can see whether a
// canceled call keeps working.
type slowFS struct {
	fs.FS
	opens atomic.Int64
}

func (s *slowFS) Open(name string) (fs.File, error) {
	s.opens.Add(1)
	time.Sleep(2 * time.Millisecond)
	return s.FS.Open(name)
}

func TestCancelStopsWork(t *testing.T) {
	const files = 5000
	m := fstest.MapFS{}
	for i := range files {
		m[fmt.Sprintf("%sf%d.txt", strings.Repeat("d/", i%7), i)] = &fstest.MapFile{Data: []byte("needle\n")}
	}
	sfs := &slowFS{FS: m}
	cs := connect(t, tool.Config{FS: sfs}, tool.Amplifier)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "needle", "output_mode": "count"}})
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); sfs.opens.Load() < 20; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the call did not start")
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("canceled call returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the canceled call did not return")
	}
	// The server stops opening files after the cancellation, long before
	// the end: once no file was opened for 500 ms (however long a loaded
	// machine takes to get there; a search not canceled opens them all).
	n := sfs.opens.Load()
	for deadline, still := time.Now().Add(30*time.Second), 0; still < 5; still++ {
		if time.Now().After(deadline) {
			t.Fatalf("the server still opens files 30 s after the cancellation (%d of %d)", n, files)
		}
		time.Sleep(100 * time.Millisecond)
		if k := sfs.opens.Load(); k != n {
			n, still = k, -1
		}
	}
	if n >= files {
		t.Fatalf("opens: %d; want the work stopped before the end (%d files)", n, files)
	}

	// The session keeps serving.
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "glob", Arguments: map[string]any{"pattern": "*.none"}})
	if err != nil || res.IsError {
		t.Fatalf("call after the cancellation: %v %+v", err, res)
	}
}

// TestURLCache: a server fetches a web page once; paging it reads the
// server's cache. Two servers do not share a cache.
func TestURLCache(t *testing.T) {
	srvURL, requests := testfs.PageServer(t)
	read := func(cs *mcp.ClientSession, path, want string) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": path}})
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(text, want) {
			t.Fatalf("read %s: isError %v, %q; want %q", path, res.IsError, text, want)
		}
	}
	web := tool.Config{FS: fixture(t), AllowPrivateNetwork: true} // the test server listens on a loopback address
	cs := connect(t, web, tool.Pi)
	read(cs, srvURL+"/page.txt", "line 1")
	read(cs, srvURL+"/page.txt:301", "line 301")
	read(cs, srvURL+"/page.txt:350-360", "line 355")
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests for one page read three times through one server, want 1", n)
	}
	other := connect(t, web, tool.Pi)
	read(other, srvURL+"/page.txt:301", "line 301")
	if n := requests.Load(); n != 2 {
		t.Errorf("%d requests after a second server paged the page, want 2 (one cache per server)", n)
	}
}

func TestNoWebRefusesURLs(t *testing.T) {
	cfg := tool.Config{FS: fixture(t)}
	cfg.NoWeb = true
	res, err := connect(t, cfg, tool.Pi).CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "https://example.com/"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, "turned off by the host") {
		t.Errorf("no-web read: isError %v, %q", res.IsError, text)
	}
}
