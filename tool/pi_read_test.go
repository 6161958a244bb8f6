package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

func TestPiRead(t *testing.T) {
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 2, 2)))
	m := fstest.MapFS{
		"a.txt":     {Data: []byte("one\ntwo\nthree\nfour\n")},
		"dir/b.txt": {Data: []byte("b\n")},
		"p.png":     {Data: pngBuf.Bytes()},
		"a.zip":     {Data: testfs.Zip(testfs.Member{Name: "src/x.txt", Body: "x\n"})},
	}
	tests := []struct {
		name   string
		cfg    Config
		args   string
		status scout.Status
		text   string // prefix of the text
		data   bool   // a result with data, whose kind is left out (file reads omit it)
		reason string
	}{
		{"hashline", Config{}, `{"path":"a.txt"}`, scout.StatusSuccess, "¶a.txt#", true, "default style is hashline"},
		{"plain", Config{Style: "plain"}, `{"path":"a.txt"}`, scout.StatusSuccess, "one\ntwo", true, "plain style has no prefixes"},
		{"partial", Config{ReadLimit: 2}, `{"path":"a.txt"}`, scout.StatusPartial, "¶a.txt#", true, "a read cut by the limit is partial"},
		{"directory", Config{}, `{"path":"dir"}`, scout.StatusSuccess, ".\n  - b.txt", true, "directories report isDirectory; kind is left out as for files"},
		{"archive directory", Config{}, `{"path":"a.zip:src"}`, scout.StatusSuccess, "x.txt (2B)", true, "a directory inside an archive reports isDirectory too"},
		{"image", Config{}, `{"path":"p.png"}`, scout.StatusSuccess, "Read image file [image/png]", true, "images fill Envelope.Images, and data has their bytes"},
		{"image apart", Config{ImagesApart: true}, `{"path":"p.png"}`, scout.StatusSuccess, "Read image file [image/png]", true, "images fill Envelope.Images, and data has their metadata only"},
		{"missing", Config{}, `{"path":"nope"}`, scout.StatusError, "Path 'nope' not found", false, "a missing path is an error envelope"},
		{"bad selector", Config{}, `{"path":"a.txt:0"}`, scout.StatusError, "Line selector 0 is invalid", false, "selector errors name the fix"},
		{"unknown arg", Config{}, `{"path":"a.txt","limit":5}`, scout.StatusError, "Unknown argument 'limit'", false, "unknown arguments are refused"},
		{"no path", Config{}, `{}`, scout.StatusError, "Path must not be empty", false, "path is required"},
		{"wrong type", Config{}, `{"path":5}`, scout.StatusError, "Invalid argument 'path'", false, "path must be a string"},
	}
	for _, tt := range tests {
		for _, mode := range []string{"mapfs", "dir"} {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				cfg := tt.cfg
				if mode == "mapfs" {
					cfg.FS, cfg.Root = m, "/r"
				} else {
					cfg.Root = testfs.WriteDir(t, m)
				}
				env := Call(context.Background(), cfg, Pi, "read", []byte(tt.args))
				if env.Status != tt.status || !strings.HasPrefix(env.Text, tt.text) {
					t.Fatalf("status %s text %q, want %s %q (%s)", env.Status, env.Text, tt.status, tt.text, tt.reason)
				}
				b, err := json.Marshal(env)
				if err != nil {
					t.Fatal(err)
				}
				var back struct {
					Data *struct {
						Kind         string `json:"kind"`
						IsDirectory  bool   `json:"isDirectory"`
						ResolvedPath string `json:"resolvedPath"`
						Result       struct {
							Image *struct {
								MIME string `json:"mime"`
							} `json:"image"`
							ImageData []byte `json:"image_data"`
						} `json:"result"`
					} `json:"data"`
				}
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatal(err)
				}
				if !tt.data {
					if back.Data != nil || env.Error == nil {
						t.Fatalf("error envelope with data %+v", back.Data)
					}
					return
				}
				if back.Data.Kind != "" || back.Data.IsDirectory != strings.HasSuffix(tt.name, "directory") {
					t.Fatalf("data %+v (%s)", back.Data, tt.reason)
				}
				if strings.HasPrefix(tt.name, "image") {
					var want []byte // the bytes in data
					if !tt.cfg.ImagesApart {
						want = pngBuf.Bytes()
					}
					if len(env.Images) != 1 || !bytes.Equal(env.Images[0].Data, pngBuf.Bytes()) || !bytes.Equal(back.Data.Result.ImageData, want) ||
						back.Data.Result.Image == nil || back.Data.Result.Image.MIME != "image/png" {
						t.Fatalf("Images %v, data's image %v and %d bytes (%s)", env.Images, back.Data.Result.Image, len(back.Data.Result.ImageData), tt.reason)
					}
				}
			})
		}
	}
}

func TestPiReadMeta(t *testing.T) {
	m := fstest.MapFS{
		"a.txt":    {Data: []byte("one\ntwo\nthree\nfour\n")},
		"wide.txt": {Data: []byte(strings.Repeat("x", 800) + "\n")},
	}
	for i := range 13 {
		m[fmt.Sprintf("dir/sub/f%02d.txt", i)] = &fstest.MapFile{Data: []byte("f\n")}
	}
	var long, many []testfs.Member // 600 names of 3,000 bytes, of which 85 fit a listing; 501 short ones
	for i := range 600 {
		long = append(long, testfs.Member{Name: fmt.Sprintf("%03d", i) + strings.Repeat("n", 2997)})
	}
	for i := range 501 {
		many = append(many, testfs.Member{Name: fmt.Sprintf("%03d", i)})
	}
	m["long.zip"], m["many.zip"] = &fstest.MapFile{Data: testfs.Zip(long...)}, &fstest.MapFile{Data: testfs.Zip(many...)}
	tests := []struct {
		name, path string
		cfg        Config
		want       string // details.meta as JSON, or a part of it
		reason     string
	}{
		{"file", "a.txt", Config{}, `{"source":{"type":"path","value":"a.txt"}}`, "the source is the backing path"},
		{"truncated", "a.txt", Config{ReadLimit: 2},
			`{"source":{"type":"path","value":"a.txt"},"truncation":{"direction":"head","truncatedBy":"lines","totalLines":4,"totalBytes":19,"outputLines":2,"shownRange":{"start":1,"end":2},"nextOffset":3}}`,
			"a cut read carries the shown range, totals and next offset"},
		{"capped dir", "dir", Config{}, `{"source":{"type":"path","value":"dir"},"limits":{"resultLimit":{"reached":12}}}`, "a capped listing sets limits"},
		{"capped archive", "many.zip", Config{}, `{"source":{"type":"path","value":"many.zip"},"limits":{"resultLimit":{"reached":500}}}`, "an archive listing past 500 entries sets limits"},
		{"long names", "long.zip", Config{},
			`{"source":{"type":"path","value":"long.zip"},"truncation":{"direction":"head","truncatedBy":"bytes","totalLines":600,"totalBytes":0,"outputLines":85,"shownRange":{"start":1,"end":85},"nextOffset":86}}`,
			"an archive listing its byte budget cut is truncated by bytes, not at the 500"},
		{"column cap", "wide.txt", Config{}, `{"source":{"type":"path","value":"wide.txt"},"limits":{"columnTruncated":{"maxColumn":768}}}`, "cut lines set columnTruncated"},
		{"internal", "omp://README.md:1", Config{}, `"source":{"type":"internal","value":"omp://README.md"}`, "an internal URL is an internal source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.FS, cfg.Root = m, "/r"
			args, _ := json.Marshal(map[string]string{"path": tt.path})
			env := Call(context.Background(), cfg, Pi, "read", args)
			if env.Error != nil {
				t.Fatalf("error %v (%s)", env.Error, tt.reason)
			}
			got, err := json.Marshal(env.Data.(*piReadData).Meta)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), tt.want) {
				t.Errorf("meta %s, want %s (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// TestPiReadFailedURL checks that a web read answered with an HTTP error
// status is pi's failed URL read (method "failed", the status in the
// notes, the header alone), a success, while the Reader's error and other
// fetch failures stay errors; a page that loads is paged with its header.
func TestPiReadFailedURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gone":
			http.Redirect(w, r, "/missing", http.StatusFound)
		case "/missing":
			http.Error(w, "no such page", http.StatusNotFound)
		case "/secret":
			w.WriteHeader(http.StatusForbidden)
		default:
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("hello\n"))
		}
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		path, status, text string
		notes              []string
		reason             string
	}{
		{"/missing", "success", "URL: " + srv.URL + "/missing\nContent-Type: text/plain\nMethod: failed\nNotes: Failed to fetch URL (HTTP 404)\n\n---",
			[]string{"Failed to fetch URL (HTTP 404)"}, "a 404 is a failed read, not an error"},
		{"/missing:5", "success", "URL: " + srv.URL + "/missing\nContent-Type: text/plain\nMethod: failed\nNotes: Failed to fetch URL (HTTP 404)\n\n---",
			[]string{"Failed to fetch URL (HTTP 404)"}, "a range of a failed URL shows the failure"},
		{"/gone", "success", "URL: " + srv.URL + "/missing\nContent-Type: text/plain\nMethod: failed\nNotes: Failed to fetch URL (HTTP 404)\n\n---",
			[]string{"Failed to fetch URL (HTTP 404)"}, "the header names the URL after redirects"},
		{"/secret", "success", "URL: " + srv.URL + "/secret\nContent-Type: text/plain\nMethod: failed\nNotes: Failed to fetch URL (HTTP 403)\n\n---",
			[]string{"Failed to fetch URL (HTTP 403)"}, "any error status, with an empty body"},
		{"/page.txt", "success", "URL: " + srv.URL + "/page.txt\nContent-Type: text/plain\nMethod: text\n\n---\n\nhello", nil, "a page that loads is unchanged"},
		{"/page.txt:3", "success", "Content-Type: text/plain\nMethod: text\n\n---\n\nhello", nil, "a line selector pages the header with the body (line 3 and the line before)"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"path": srv.URL + tt.path})
			env := Call(context.Background(), Config{FS: fstest.MapFS{}, Root: "/r", AllowPrivateNetwork: true}, Pi, "read", args)
			if string(env.Status) != tt.status || env.Text != tt.text {
				t.Fatalf("%s %q,\nwant %s %q (%s)", env.Status, env.Text, tt.status, tt.text, tt.reason)
			}
			d := env.Data.(*piReadData)
			if tt.notes != nil {
				assert.Equal(t, "failed", d.Method, tt.reason)
				assert.Equal(t, tt.notes, d.Notes, tt.reason)
				assert.Equal(t, "url", d.Kind, tt.reason)
				assert.Equal(t, &piSource{Type: "url", Value: srv.URL + strings.TrimSuffix(tt.path, ":5")}, d.Meta.Source, tt.reason)
			}
		})
	}
	// The Reader itself reports the status as an error.
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{}, Root: "/r"}, AllowPrivateNetwork: true}
	if _, err := r.Read(context.Background(), scout.ReadRequest{Path: srv.URL + "/missing"}); scout.CodeOf(err) != scout.CodeNotFound {
		t.Errorf("Reader.Read of a 404: %v, want a NOT_FOUND error", err)
	}
}

// TestPiReadURLCredentials: pi's read of a URL with a password, a page
// or a failed read, shows the password redacted ("user:xxxxx@") in its
// text, its data and the arguments it echoes, as a call that fails
// before the read (bad arguments, an unknown tool) echoes them.
func TestPiReadURLCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, p, _ := r.BasicAuth(); p != "secret" {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/missing" {
			http.Error(w, "no such page", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("hello\n"))
	}))
	t.Cleanup(srv.Close)
	shown := strings.Replace(srv.URL, "://", "://user:xxxxx@", 1)
	for _, path := range []string{"/page.txt", "/missing"} {
		args, _ := json.Marshal(map[string]string{"path": strings.Replace(srv.URL, "://", "://user:secret@", 1) + path})
		env := Call(context.Background(), Config{FS: fstest.MapFS{}, Root: "/r", AllowPrivateNetwork: true}, Pi, "read", args)
		data, err := json.Marshal(env.Data)
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, scout.StatusSuccess, env.Status, path)
		assert.True(t, strings.HasPrefix(env.Text, "URL: "+shown+path+"\n"), "%s: %s", path, env.Text)
		assert.Contains(t, string(data), `"url":"`+shown+path+`"`, path)
		assert.Equal(t, `{"path":"`+shown+path+`"}`, string(env.Context.ParamsInput), path)
		assert.NotContains(t, env.Text+string(data)+env.Context.PathResolved, "secret", path)
	}
	for _, name := range []string{"read", "nope"} {
		args := `{"path":"https://tok@example.com/x","limit":"many"}`
		env := Call(context.Background(), Config{FS: fstest.MapFS{}, Root: "/r"}, Pi, name, []byte(args))
		assert.Equal(t, scout.StatusError, env.Status, name)
		assert.Equal(t, `{"path":"https://xxxxx@example.com/x","limit":"many"}`, string(env.Context.ParamsInput), name)
	}
}
