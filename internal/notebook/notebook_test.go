package notebook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string
		reason string
	}{
		{
			name: "v4 mixed",
			in: `{"cells":[
				{"cell_type":"markdown","metadata":{},"source":["# Title\n","Some text"]},
				{"cell_type":"code","execution_count":3,"metadata":{},"outputs":[{"output_type":"stream","text":["hidden\n"]}],"source":"import os\nprint(os.getcwd())"},
				{"cell_type":"raw","metadata":{},"source":[]},
				{"cell_type":"code","metadata":{},"outputs":[],"source":["x = 1\n"]}
			],"metadata":{},"nbformat":4,"nbformat_minor":5}`,
			want: "# %% [markdown] cell:0\n# Title\nSome text\n" +
				"# %% [code] cell:1\nimport os\nprint(os.getcwd())\n" +
				"# %% [raw] cell:2\n" +
				"# %% [code] cell:3\nx = 1\n",
			reason: "array and string sources; outputs hidden; an empty cell is its header alone; a trailing newline in a source stays",
		},
		{
			name:   "no cells",
			in:     `{"cells":[],"nbformat":4}`,
			want:   "",
			reason: "an empty notebook renders as nothing",
		},
		{
			name: "v3 worksheets",
			in: `{"nbformat":3,"worksheets":[{"cells":[
				{"cell_type":"heading","level":1,"source":["Intro"]},
				{"cell_type":"code","language":"python","input":["a = 2\n","a"],"outputs":[]}
			]},{"cells":[{"cell_type":"markdown","source":"second sheet"}]}]}`,
			want:   "# %% [markdown] cell:0\nIntro\n# %% [code] cell:1\na = 2\na\n# %% [markdown] cell:2\nsecond sheet",
			reason: "nbformat 3: heading is markdown, code source is in input, worksheets are numbered on",
		},
		{
			name:   "null source and missing type",
			in:     `{"cells":[{"source":null}]}`,
			want:   "# %% [code] cell:0",
			reason: "a null source is empty and a missing type shows as code",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(context.Background(), strings.NewReader(tt.in))
			if err != nil {
				t.Fatalf("%s: unexpected error %v", tt.reason, err)
			}
			if got != tt.want {
				t.Errorf("%s\n got: %q\nwant: %q", tt.reason, got, tt.want)
			}
		})
	}
}

func TestRenderErrors(t *testing.T) {
	huge, _ := json.Marshal(map[string]any{"cells": []any{
		map[string]any{"cell_type": "code", "source": strings.Repeat("x = 1\n", 10<<20/6)},
	}})
	tests := []struct {
		name   string
		in     []byte
		code   errs.Code
		substr string
		reason string
	}{
		{"empty", nil, errs.Unsupported, "the file is empty", "an empty file is not a notebook"},
		{"truncated", []byte(`{"cells":[{"cell_type":"code","source":"x`), errs.Unsupported, "not valid JSON", "a cut-off file says where JSON broke"},
		{"syntax", []byte(`{"cells":[,]}`), errs.Unsupported, "at byte 11", "a syntax error gives its offset"},
		{"not object", []byte(`[1,2]`), errs.Unsupported, "top level is a JSON array", "a top-level array is not a notebook"},
		{"no cells", []byte(`{"metadata":{}}`), errs.Unsupported, `no "cells" array`, "JSON without cells is not a notebook"},
		{"bad source", []byte(`{"cells":[{"cell_type":"code","source":42}]}`), errs.Unsupported, "cell 0: source must be", "a number is not a source"},
		{"bad cells type", []byte(`{"cells":{"a":1}}`), errs.Unsupported, `field "cells"`, "cells must be an array"},
		{"huge cell", huge, errs.TooLarge, "cell 0 is 10.0MB", "a 10 MB cell is refused with its size"},
		{"bad worksheet", []byte(`{"worksheets":[1]}`), errs.Unsupported, "a worksheet at byte 15 is a JSON number", "a worksheet must be an object"},
		{"bad cell", []byte(`{"cells":["x"]}`), errs.Unsupported, "cell 0 at byte 10 is a JSON string", "a cell must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(context.Background(), bytes.NewReader(tt.in))
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: got %v, want an *errs.Error", tt.reason, err)
			}
			if e.Code != tt.code || !strings.Contains(e.Message, tt.substr) || !strings.Contains(e.Message, ":raw") {
				t.Errorf("%s: got %s %q, want %s containing %q and a :raw hint", tt.reason, e.Code, e.Message, tt.code, tt.substr)
			}
		})
	}
}

// TestRenderFileCap reads a notebook over the file cap, lowered to 1 MiB:
// the cap holds whatever the caller was told of the file's size.
func TestRenderFileCap(t *testing.T) {
	inputCap = 1 << 20
	t.Cleanup(func() { inputCap = MaxBytes })
	_, err := Render(context.Background(), strings.NewReader(`{"metadata":"`+strings.Repeat("x", 1<<20)+`"}`))
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "notebook is over the 1.0MB limit; read the file with the :raw selector") {
		t.Fatalf("err = %v, want TOO_LARGE", err)
	}
}

func TestRenderGolden(t *testing.T) {
	in, err := os.ReadFile("testdata/analysis.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/analysis.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Render(context.Background(), bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("a notebook with image outputs renders its sources only\n got: %q\nwant: %q", got, want)
	}
}

// FuzzRender checks that any input gives text or a coded error, never a
// panic, and that every rendered notebook starts with a cell header.
func FuzzRender(f *testing.F) {
	seed, _ := os.ReadFile("testdata/analysis.ipynb")
	for _, s := range []string{string(seed), `{"cells":[]}`, `{"worksheets":[{"cells":[{"input":"a"}]}]}`, `{"cells":[{"source":["a",1]}]}`, `nul`,
		`{"worksheets":[{"cells":[{"cell_type":"code","input":["x = 1\n"],"outputs":[{"text":["1"]}]}]},null,{"cells":null}],"cells":[{"cell_type":"raw","source":"r"}]}`,
		`{"metadata":` + strings.Repeat(`{"a":[`, 2000) + `{"cells":[{"source":"s"}]}` + strings.Repeat(`]}`, 2000) + `,"cells":[{"cell_type":"markdown","source":["\u0000\ud800","b"],"attachments":{"x.png":{"image/png":"AA=="}}}]}`,
		`{"cells":[{"source":"a"},{}` + strings.Repeat(`,{"source":"`+strings.Repeat("x", 100)+`"}`, 50) + `,{"source":"unterminated`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Render(context.Background(), bytes.NewReader(data))
		if err != nil {
			if errs.CodeOf(err) != errs.Unsupported && errs.CodeOf(err) != errs.TooLarge {
				t.Fatalf("unexpected code for %v", err)
			}
			return
		}
		if got != "" && !strings.HasPrefix(got, "# %% [") {
			t.Fatalf("rendered text does not start with a cell header: %q", got)
		}
	})
}

// TestSourceText decodes cell sources as a string or a []string decodes
// them, joined.
func TestSourceText(t *testing.T) {
	tests := []struct {
		json, want string
		err        bool
		reason     string
	}{
		{`"a\nb"`, "a\nb", false, "an escape"},
		{`"\ud800x\u00e9"`, "\ufffdxé", false, "a lone surrogate becomes U+FFFD"},
		{"\"a\xffb\"", "a\ufffdb", false, "invalid UTF-8 becomes U+FFFD"},
		{` [ "a" , null ,"b\"c", "" ] `, `ab"c`, false, "an array, a null element adds nothing"},
		{`[]`, "", false, "an empty array"},
		{`null`, "", false, "null"},
		{`["a", 1]`, "", true, "a number in the array"},
		{`[["a"]]`, "", true, "a nested array"},
		{`{"a": "b"}`, "", true, "an object"},
		{`7`, "", true, "a number"},
	}
	for _, tt := range tests {
		var c cell
		if err := json.Unmarshal([]byte(`{"source":`+tt.json+`}`), &c); err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if c.Source.text != tt.want || c.Source.size != len(tt.want) || (c.Source.err != nil) != tt.err || !c.Source.set {
			t.Errorf("%s: %s decodes to %+v, want %q (error %v)", tt.reason, tt.json, c.Source, tt.want, tt.err)
		}
	}
}

// TestRenderLargeSources renders notebooks of 16 MiB whose one cell or
// field holds it all, and checks that the heap grows by at most five
// times the notebook (the decoder's buffer doubles as it holds a value):
// a source of 4 Mi one-letter strings took 286 MB as a []string, one of
// 5 Mi empty strings 329 MB (a notebook of 60 MiB took 1 GB); now sources
// are decoded as they are read and kept to MaxCellBytes (68 and 31 MB).
func TestRenderLargeSources(t *testing.T) {
	tests := []struct {
		name, notebook, want string // want: in the error; "" for none
	}{
		{"a source array", `{"cells":[{"source":[` + strings.Repeat(`"x",`, 4<<20) + `"x"]}]}`, "notebook cell 0 is 4.0MB, over the 1.0MB per-cell limit"},
		{"a source string", `{"cells":[{"source":"` + strings.Repeat("x", 16<<20) + `"}]}`, "notebook cell 0 is 16.0MB, over the 1.0MB per-cell limit"},
		{"an input array", `{"worksheets":[{"cells":[{"cell_type":"code","input":[` + strings.Repeat(`"x",`, 4<<20) + `"x"]}]}]}`, "notebook cell 0 is 4.0MB"},
		{"an array of empty strings", `{"cells":[{"source":[` + strings.Repeat(`"",`, 5<<20) + `"x"]}]}`, ""},
		{"metadata", `{"metadata":"` + strings.Repeat("x", 16<<20) + `","cells":[{"source":"x"}]}`, ""},
	}
	for _, tt := range tests {
		var err error
		grew := testfs.HeapPeak(func() { _, err = Render(context.Background(), strings.NewReader(tt.notebook)) })
		if tt.want == "" && err != nil || tt.want != "" && (errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
		if grew > 5*uint64(len(tt.notebook)) {
			t.Errorf("%s: the heap grew by %d MiB for a notebook of %d MiB", tt.name, grew>>20, len(tt.notebook)>>20)
		}
	}
}

// TestRenderManyCells renders a notebook of 100,000 empty cells (such
// notebooks took 1.5 GB per 16 MiB when decoded whole) under an output cap
// lowered to 256 KiB: they are decoded a cell at a time and cut at the
// cap, the rest reported.
func TestRenderManyCells(t *testing.T) {
	outputCap = 256 << 10
	t.Cleanup(func() { outputCap = MaxOutput })
	var in strings.Builder
	in.WriteString(`{"nbformat":4,"cells":[{}`)
	for range 100000 {
		in.WriteString(`,{}`)
	}
	in.WriteString(`]}`)
	got, err := Render(context.Background(), strings.NewReader(in.String()))
	var part *errs.Partial
	if !errors.As(err, &part) || !strings.Contains(part.Reason, "the notebook renders to more than 256.0KB of text: cells from 11") {
		t.Fatalf("err = %v, want an *errs.Partial", err)
	}
	if len(got) < outputCap || len(got) > outputCap+64 || !strings.HasPrefix(got, "# %% [code] cell:0\n# %% [code] cell:1\n") {
		t.Errorf("%d bytes of text: %.60q", len(got), got)
	}
}

// TestRenderManyCellsAlloc renders a notebook of 1 Mi empty cells (3 MB)
// under an output cap lowered to 2 MiB and counts the bytes allocated:
// about 3 times the text (its chunks and the string they are joined
// into). A cell decoded into a new value and formatted with fmt, and a
// builder grown by a quarter at a time, allocated 12 times the text (198
// MB for 16 MiB).
func TestRenderManyCellsAlloc(t *testing.T) {
	outputCap = 2 << 20
	t.Cleanup(func() { outputCap = MaxOutput })
	in := `{"nbformat":4,"cells":[{}` + strings.Repeat(`,{}`, 1<<20) + `]}`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := Render(context.Background(), strings.NewReader(in))
	runtime.ReadMemStats(&after)
	var part *errs.Partial
	if !errors.As(err, &part) || len(got) < outputCap {
		t.Fatalf("%d bytes, err = %v; want the cap's and an *errs.Partial", len(got), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(outputCap) {
		t.Errorf("allocated %.1f MiB for %.1f MiB of text, want at most 4 times it", float64(alloc)/(1<<20), float64(len(got))/(1<<20))
	}
}

// TestRenderCanceled cancels a render of many cells midway.
func TestRenderCanceled(t *testing.T) {
	var in strings.Builder
	in.WriteString(`{"cells":[{"source":"x"}`)
	for range 1 << 19 {
		in.WriteString(`,{"source":"x"}`)
	}
	in.WriteString(`]}`)
	ctx, cancel := context.WithCancel(context.Background())
	r := &cancelAt{r: strings.NewReader(in.String()), at: 1 << 20, cancel: cancel}
	_, err := Render(ctx, r)
	if errs.CodeOf(err) != errs.Canceled || !strings.Contains(err.Error(), "notebook rendering stopped: context canceled") {
		t.Fatalf("err = %v, want CANCELED", err)
	}
	if r.read > 2<<20 {
		t.Errorf("%d bytes read after the cancel at 1 MiB", r.read)
	}
	t.Logf("stopped %v after the cancel", time.Since(r.when).Round(10*time.Microsecond))
}

// cancelAt cancels once at bytes were read through it, and notes when.
type cancelAt struct {
	r      io.Reader
	read   int
	at     int
	cancel func()
	when   time.Time
}

func (c *cancelAt) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.read += n; c.read >= c.at && c.when.IsZero() {
		c.cancel()
		c.when = time.Now()
	}
	return n, err
}

// TestRenderDeepValues: an output, attachment or metadata nested over
// encoding/json's 10,000 levels is valid JSON that is never rendered: the
// notebook renders as usual (the value is skipped, as every output is).
// Such a value must still end, and an error past it gives the file's
// offset.
func TestRenderDeepValues(t *testing.T) {
	deep := func(n int) string { return strings.Repeat(`[{"a":`, n) + `"x]}\"["` + strings.Repeat(`}]`, n) }
	cells := `{"cell_type":"markdown","source":["# T"]},{"cell_type":"code","source":"x = 1","outputs":[{"output_type":"execute_result","data":{"application/json":` + deep(20000) + `}}]},{"cell_type":"code","source":["y"]}`
	want := "# %% [markdown] cell:0\n# T\n# %% [code] cell:1\nx = 1\n# %% [code] cell:2\ny"
	for _, nb := range []string{
		`{"cells":[` + cells + `]}`,
		`{"metadata":` + deep(30000) + `,"cells":[` + cells + `]}`,
		`{"worksheets":[{"metadata":` + deep(11000) + `,"cells":[` + cells + `]}]}`,
	} {
		got, err := Render(context.Background(), strings.NewReader(nb))
		if err != nil || got != want {
			t.Errorf("%.60s...: got %q, %v; want %q", nb, got, err, want)
		}
	}
	for _, c := range []struct{ nb, substr string }{
		{`{"cells":[{"source":"a","outputs":` + deep(20000)[:100000] + `}]}`, "unexpected end of JSON input"},
		{`{"metadata":` + deep(20000) + `,"cells":[,]}`, fmt.Sprintf("at byte %d", len(`{"metadata":`+deep(20000)+`,"cells":[`)+1)},
		{`{"cells":[{"source":` + deep(100) + `}]}`, "cell 0: source must be a string or an array of strings"},
	} {
		_, err := Render(context.Background(), strings.NewReader(c.nb))
		if errs.CodeOf(err) != errs.Unsupported || !strings.Contains(err.Error(), c.substr) {
			t.Errorf("%.60s...: err = %v, want %q", c.nb, err, c.substr)
		}
	}
}
