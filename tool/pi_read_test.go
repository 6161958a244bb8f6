package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"
	"testing/fstest"

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
	}
	tests := []struct {
		name     string
		cfg      Config
		args     string
		status   scout.Status
		text     string // prefix of the text
		dataKind string
		reason   string
	}{
		{"hashline", Config{}, `{"path":"a.txt"}`, scout.StatusSuccess, "¶a.txt#", "file", "default style is hashline"},
		{"plain", Config{Style: "plain"}, `{"path":"a.txt"}`, scout.StatusSuccess, "one\ntwo", "file", "plain style has no prefixes"},
		{"partial", Config{ReadLimit: 2}, `{"path":"a.txt"}`, scout.StatusPartial, "¶a.txt#", "file", "a read cut by the limit is partial"},
		{"directory", Config{}, `{"path":"dir"}`, scout.StatusSuccess, ".\n  - b.txt", "directory", "directories report isDirectory"},
		{"image", Config{}, `{"path":"p.png"}`, scout.StatusSuccess, "Read image file [image/png]", "file", "images fill Envelope.Images"},
		{"missing", Config{}, `{"path":"nope"}`, scout.StatusError, "Path 'nope' not found", "", "a missing path is an error envelope"},
		{"bad selector", Config{}, `{"path":"a.txt:0"}`, scout.StatusError, "Line selector 0 is invalid", "", "selector errors name the fix"},
		{"unknown arg", Config{}, `{"path":"a.txt","limit":5}`, scout.StatusError, "Unknown argument 'limit'", "", "unknown arguments are refused"},
		{"no path", Config{}, `{}`, scout.StatusError, "Path must not be empty", "", "path is required"},
		{"wrong type", Config{}, `{"path":5}`, scout.StatusError, "Invalid argument 'path'", "", "path must be a string"},
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
							ImageData []byte `json:"imageData"`
						} `json:"result"`
					} `json:"data"`
				}
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatal(err)
				}
				if tt.dataKind == "" {
					if back.Data != nil || env.Error == nil {
						t.Fatalf("error envelope with data %+v", back.Data)
					}
					return
				}
				if back.Data.Kind != tt.dataKind || back.Data.IsDirectory != (tt.dataKind == "directory") {
					t.Fatalf("data %+v (%s)", back.Data, tt.reason)
				}
				if tt.name == "image" && (len(env.Images) != 1 || !bytes.Equal(back.Data.Result.ImageData, pngBuf.Bytes())) {
					t.Fatalf("image bytes missing from Images or data (%s)", tt.reason)
				}
			})
		}
	}
}
