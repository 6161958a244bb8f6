//go:build unix

package mcpserver

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	_ "github.com/mattn/go-sqlite3"

	"github.com/scoutkit/scout/internal/jsonobj"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

// FuzzServe feeds a server arbitrary input streams over a tree of hostile
// files (documents, an archive, a database, a named pipe, symlinks out of
// the root and in a loop): it must not panic or hang, must answer every
// line with at most one valid JSON-RPC message (every request with its ID,
// no notification and no client answer), and must write nothing, in the
// tree or in the temporary, home and cache directories. The first argument
// picks the toolset.
func FuzzServe(f *testing.F) {
	root := hostileTree(f)
	elsewhere := f.TempDir() // TMPDIR, HOME and XDG_CACHE_HOME of the calls
	for _, v := range []string{"TMPDIR", "HOME", "XDG_CACHE_HOME"} {
		d := filepath.Join(elsewhere, v)
		if err := os.Mkdir(d, 0o755); err != nil {
			f.Fatal(err)
		}
		f.Setenv(v, d)
	}
	before, beforeElsewhere := testfs.TreeState(f, root), testfs.TreeState(f, elsewhere)
	toolsets := tool.Toolsets()
	for i, ts := range toolsets {
		for _, s := range fuzzSessions(ts) {
			f.Add(uint8(i), []byte(s))
		}
	}
	for _, s := range fuzzJunk {
		f.Add(uint8(0), []byte(s))
	}
	f.Fuzz(func(t *testing.T, ts uint8, stream []byte) {
		toolset := toolsets[int(ts)%len(toolsets)]
		s, err := New(tool.Config{Root: root, NoWeb: true}, toolset, "fuzz")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- s.Serve(ctx, bytes.NewReader(stream), &out) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Serve: %v", err)
			}
		case <-time.After(time.Minute):
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%s: no end a minute after the input ended\n%s", toolset, buf)
		}
		checkAnswers(t, stream, out.Bytes())
		if after := testfs.TreeState(t, root); !maps.Equal(before, after) {
			t.Fatalf("%s: the tree changed:\nbefore %v\nafter  %v", toolset, before, after)
		}
		if after := testfs.TreeState(t, elsewhere); !maps.Equal(beforeElsewhere, after) {
			t.Fatalf("%s: files were written outside the tree: %v", toolset, after)
		}
	})
}

// hostileTree writes the fuzzed server's root.
func hostileTree(f *testing.F) string {
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 3))); err != nil {
		f.Fatal(err)
	}
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	m := fstest.MapFS{
		"a.go":                {Data: []byte("package a\n\nfunc A() {}\n")},
		"src/b.go":            {Data: []byte("package src\n\n// needle\nfunc B() int { return 1 }\n")},
		"README.md":           {Data: []byte("# hello\n\nneedle\n")},
		".hidden/h.txt":       {Data: []byte("needle hidden\n")},
		".gitignore":          {Data: []byte("ignored.txt\n")},
		"ignored.txt":         {Data: []byte("needle ignored\n")},
		"node_modules/m/n.js": {Data: []byte("needle()\n")},
		"bin.dat":             {Data: []byte("\x00\x01\xff\xfeneedle\x00")},
		"crlf.txt":            {Data: []byte("one\r\ntwo\rthree\r\n\xff\n")},
		"img/px.png":          {Data: img.Bytes()},
		"hello.pdf":           {Data: read("../convert/testdata/hello.pdf")},
		"nb.ipynb":            {Data: read("../notebook/testdata/analysis.ipynb")},
		"docs.zip":            {Data: testfs.Zip(testfs.Files(map[string]string{"inner.txt": "needle\n", "sub/x.go": "package x\n"})...)},
		"docs.tgz":            {Data: testfs.Tgz(testfs.Files(map[string]string{"t.txt": "needle\n"})...)},
		"out":                 {Data: []byte("/etc"), Mode: fs.ModeSymlink},
		"loop":                {Data: []byte("."), Mode: fs.ModeSymlink},
		"dangling":            {Data: []byte("nowhere"), Mode: fs.ModeSymlink},
	}
	root := testfs.WriteDir(f, m)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		f.Fatal(err)
	}
	// A database, when cgo gives a driver to write it with.
	if db, err := sql.Open("sqlite3", filepath.Join(root, "data.db")); err == nil {
		_, err = db.Exec("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t(name) VALUES ('needle'), ('x')")
		db.Close()
		if err != nil {
			os.Remove(filepath.Join(root, "data.db"))
		}
	}
	return root
}

// fuzzSessions are real sessions of a toolset: initialize, tools/list and
// calls of each tool, then the calls on the hostile files.
func fuzzSessions(toolset string) []string {
	head := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
`
	call := func(id int, name, args string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", id, name, args)
	}
	var calls [][2]string
	switch toolset {
	case tool.Pi:
		calls = [][2]string{
			{"search", `{"pattern":"needle","paths":"."}`},
			{"search", `{"pattern":"func (A|B)","paths":["src","a.go"],"i":true,"gitignore":false,"skip":1}`},
			{"read", `{"path":"a.go"}`},
			{"read", `{"path":"a.go:2-3"}`},
			{"find", `{"paths":["**/*.go"],"hidden":true,"limit":5}`},
			{"read", `{"path":"hello.pdf"}`},
			{"read", `{"path":"docs.zip:inner.txt"}`},
			{"read", `{"path":"docs.tgz"}`},
			{"read", `{"path":"nb.ipynb"}`},
			{"read", `{"path":"data.db:t:1"}`},
			{"read", `{"path":"img/px.png"}`},
			{"read", `{"path":"pipe"}`},
			{"read", `{"path":"out/passwd"}`},
			{"read", `{"path":"loop/loop/a.go"}`},
			{"read", `{"path":"omp://"}`},
			{"read", `{"path":"https://example.com/"}`},
			{"search", `{"pattern":"(a*)*b","paths":"docs.zip"}`},
			{"find", `{"paths":["loop/**"],"timeout":1}`},
		}
	case tool.Amplifier:
		calls = [][2]string{
			{"grep", `{"pattern":"needle","output_mode":"content","-n":true,"-C":2}`},
			{"grep", `{"pattern":"needle","path":"docs.zip","glob":"*.txt","head_limit":1,"offset":1}`},
			{"grep", `{"pattern":"a\nb","multiline":true,"type":"go"}`},
			{"glob", `{"pattern":"**/*","path":".","exclude":["*.go"]}`},
			{"glob", `{"pattern":"loop/**/*.go","type":"file"}`},
		}
	default:
		calls = [][2]string{
			{"Glob", `{"pattern":"**/*.go"}`},
			{"Glob", `{"pattern":"**/*","path":"loop","limit":200,"include_hidden":true,"include_ignored":true}`},
			{"Glob", `{"pattern":"{a,b,c}[!x]*","path":"out"}`},
		}
	}
	all := head
	var sessions []string
	for i, c := range calls {
		one := call(10+i, c[0], c[1])
		all += one
		sessions = append(sessions, head+one)
	}
	return append(sessions, all+`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
}

// fuzzJunk are hostile streams: wrong types, huge and odd IDs, junk
// arguments, invalid UTF-8, partial and unframed lines, cancellations and
// duplicate IDs.
var fuzzJunk = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`, // no final newline
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\r\n  \n\t\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r\n",
	`{"jsonrpc":"2.0","id":1,"method":"pi` + "\n" + `ng"}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n",
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]` + "\n[\n",
	`{"jsonrpc":"2.0","id":` + strings.Repeat("9", 5000) + `,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":-0.0e-999999999,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1e999999999,"method":"tools/list"}` + "\n",
	`{"jsonrpc":"2.0","id":"` + strings.Repeat("é", 3000) + `","method":"ping"}` + "\n",
	"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"ping\"}\n\xff\xfe\xfd\n",
	`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":[1],"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":true,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n",
	`{"JSONRPC":"2.0","ID":1,"METHOD":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping","method":null}` + "\n",
	`{"jsonrpc":"2.0","id":1,"Method":"ping"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized","Id":2}` + "\n" + `{"jsonrpc":"2.0","id":3,"result":{},"Result":1}` + "\n" + `{"jsonrpc":"2.0","id":4,"\u006d\u0065thod":"ping","paramſ":{}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"Name":"read","arguments":{"path":"a.go"}}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find","arguments":{"paths":["*"]},"name":"read"}}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","PROTOCOLVERSION":"1"}}` + "\n",
	`{"jsonrpc":2,"id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":["ping"]}` + "\n" + `{"jsonrpc":"1.0","id":1,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":8,"error":{"code":1,"message":"x"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/progress","params":5}` + "\n",
	`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}` + "\n" + `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.go"}}},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}},1,[],{"jsonrpc":"2.0","id":3,"method":"initialize"}]` + "\n" + `[]` + "\n" + `[{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.go"}}}` + "\n",
	`{"jsonrpc":"2.0","id":9}` + "\n" + `{"jsonrpc":"2.0","Id":10,"params":{}}` + "\n" + `{"jsonrpc":"2.0","id":11,"ERROR":null}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"read"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":"a.go"}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":[1,2]}}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":null}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"pattern":5,"paths":{"a":[1]},"i":"yes","skip":-1e300}}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find","arguments":{"paths":"*","limit":1e308,"timeout":-1}}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find","arguments":{"paths":[null,5,""]}}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.go:99999999999999999999999-1"}}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"data.db:t:1;DROP TABLE t"}}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"pattern":"(((a{1000}){1000}){1000})","paths":"."}}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"pattern":"[","paths":"."}}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"pattern":"needle","paths":"."}}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.go"}}}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"a.go"}}}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"initialize","params":"x"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":[]}}` + "\n",
	"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\u00a0{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\u0085\n\x00\n",
	"\xef\xbb\xbf\n \xef\xbb\xbf \n\xef\xbb\xbf\xef\xbb\xbf{}\n",
	"Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
}

// checkAnswers checks the server's output for a stream: each message is
// one line of UTF-8 JSON, a JSON-RPC 2.0 result or error; each line of the
// stream is answered at most once, a request with its ID (a tools/call that
// a cancellation may have stopped perhaps not at all, one whose ID a
// running call holds perhaps with a null ID), a line that is no request
// with its valid ID or null, a notification or an answer of the client's
// not at all. When the stream may have initialized revision 2025-03-26, a
// batch is answered with at most one line: an array of answers to its
// messages, each at most once, or a single error.
func checkAnswers(t *testing.T, stream, out []byte) {
	t.Helper()
	want, maybe := map[string]int{}, map[string]int{}
	least, most := 0, 0
	lines := splitLines(stream)
	type callLine struct{ raw, key string }
	var toolCalls []callLine
	canceling := false
	batches := bytes.Contains(stream, []byte(batchRevision))
	raws := map[string]int{}
	for _, l := range lines {
		if batches && isBatch(l) {
			most++
			maybe["null"]++
			jsonobj.Elements(l, func(e []byte) bool {
				c := classify(e)
				if c.kind == kindAnswer || c.kind == kindRequest {
					maybe[c.key]++
					maybe["null"]++
				}
				if c.kind == kindRequest && c.method == "tools/call" {
					raws[c.raw]++
				}
				canceling = canceling || c.kind == kindNotification && c.method == "notifications/cancelled"
				return true
			})
			continue
		}
		c := classify(l)
		switch c.kind {
		case kindNone:
		case kindAnswer:
			want[c.key]++
			least++
			most++
		case kindNotification:
			canceling = canceling || c.method == "notifications/cancelled"
		case kindRequest:
			if c.method == "tools/call" {
				toolCalls = append(toolCalls, callLine{c.raw, c.key})
				continue
			}
			want[c.key]++
			least++
			most++
		}
	}
	for _, c := range toolCalls {
		raws[c.raw]++
	}
	for _, c := range toolCalls {
		dup := raws[c.raw] > 1
		switch {
		case !dup && !canceling:
			want[c.key]++
			least++
		case dup:
			maybe[c.key]++
			maybe["null"]++
			if !canceling {
				least++
			}
		default:
			maybe[c.key]++
		}
		most++
	}

	got := map[string]int{}
	n := 0
	if len(out) > 0 && out[len(out)-1] != '\n' {
		t.Fatalf("the output does not end with a newline: %q", tail(out))
	}
	for msg := range bytes.SplitSeq(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if len(out) == 0 {
			break
		}
		n++
		if !batches || msg[0] != '[' {
			got[checkMessage(t, msg)]++
			continue
		}
		var answers []json.RawMessage
		if err := json.Unmarshal(msg, &answers); err != nil || len(answers) == 0 {
			t.Fatalf("answer %q: no array of answers: %v", msg, err)
		}
		for _, a := range answers {
			got[checkMessage(t, a)]++
		}
	}
	if n < least || n > most {
		t.Fatalf("%d answers to %d lines, want %d to %d:\n%s", n, len(lines), least, most, tail(out))
	}
	for k, g := range got {
		if g < want[k] || g > want[k]+maybe[k] {
			t.Fatalf("%d answers with ID %s, want %d to %d:\n%s", g, k, want[k], want[k]+maybe[k], tail(out))
		}
	}
	for k, w := range want {
		if got[k] < w {
			t.Fatalf("%d answers with ID %s, want %d:\n%s", got[k], k, w, tail(out))
		}
	}
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}

// isBatch reports whether a line (not nil) is a batch, as the server
// reads it.
func isBatch(l []byte) bool {
	l = bytes.ToValidUTF8(bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(l), []byte("\uFEFF"))), []byte("\uFFFD"))
	return len(l) > 0 && l[0] == '[' && json.Valid(l)
}

// splitLines splits a stream as the server reads it: at each LF, without
// the line's trailing CRs and LFs, blank lines dropped. A line over
// MaxMessage is kept as nil (it is answered with a parse error).
func splitLines(stream []byte) [][]byte {
	var lines [][]byte
	for len(stream) > 0 {
		l := stream
		if i := bytes.IndexByte(stream, '\n'); i >= 0 {
			l, stream = stream[:i+1], stream[i+1:]
		} else {
			stream = nil
		}
		if len(l) > MaxMessage {
			lines = append(lines, nil)
			continue
		}
		if l = bytes.TrimSpace(bytes.TrimRight(l, "\r\n")); len(l) > 0 {
			lines = append(lines, l)
		}
	}
	return lines
}

const (
	kindNone         = iota // no answer: a client's answer
	kindAnswer              // an error answered with key
	kindNotification        // no answer
	kindRequest             // answered with key
)

// line is a line of the stream as JSON-RPC sees it.
type line struct {
	kind   int
	key    string // the answer's ID, as sentKey has it
	raw    string // a request's ID's value, as valueKey has it
	method string
}

// classify reads a line as JSON-RPC has it: the members jsonrpc, id,
// method and params by their exact names. A member of those (or result,
// error) repeated or named in another case makes an invalid request,
// answered with the ID when it is valid and sent once, else null; but a
// line with an ID and a result or an error and no method, in any case, is
// a client's answer.
func classify(l []byte) line {
	if l == nil {
		return line{kind: kindAnswer, key: "null"}
	}
	l = bytes.ToValidUTF8(bytes.TrimSpace(bytes.TrimPrefix(l, []byte("\uFEFF"))), []byte("\uFFFD"))
	if len(l) == 0 {
		return line{kind: kindNone}
	}
	if l[0] != '{' || !json.Valid(l) {
		return line{kind: kindAnswer, key: "null"}
	}
	var members []struct {
		name  string
		value json.RawMessage
	}
	d := json.NewDecoder(bytes.NewReader(l))
	d.Token() // {
	for d.More() {
		k, _ := d.Token()
		var v json.RawMessage
		d.Decode(&v)
		members = append(members, struct {
			name  string
			value json.RawMessage
		}{k.(string), v})
	}
	var version, method string
	var id []byte
	typeErr, bad, anyMethod, anyID, anyResult := false, false, false, false, false
	seen := map[string]bool{}
	for _, m := range members {
		anyMethod = anyMethod || strings.EqualFold(m.name, "method")
		anyID = anyID || strings.EqualFold(m.name, "id")
		anyResult = anyResult || strings.EqualFold(m.name, "result") || strings.EqualFold(m.name, "error")
		for _, k := range []string{"jsonrpc", "id", "method", "params", "result", "error"} {
			bad = bad || m.name == k && seen[k] || m.name != k && strings.EqualFold(m.name, k)
		}
		seen[m.name] = true
		str := func(s *string) {
			switch {
			case m.value[0] == '"':
				json.Unmarshal(m.value, s)
			case string(m.value) != "null":
				typeErr = true
			}
		}
		switch m.name {
		case "jsonrpc":
			str(&version)
		case "method":
			str(&method)
		case "id":
			if id == nil {
				id = bytes.TrimSpace(m.value)
			} else {
				id = []byte("null") // repeated: no ID to answer with
			}
		}
	}
	valid := len(id) > 0 && (id[0] == '"' || id[0] == '-' || '0' <= id[0] && id[0] <= '9')
	answer := line{kind: kindAnswer, key: "null"}
	if valid {
		answer.key = sentKey(id)
	}
	switch {
	case !anyMethod && anyID && anyResult:
		return line{kind: kindNone}
	case bad || typeErr:
		return answer
	case version != "2.0" || method == "":
		return answer
	case len(id) == 0:
		return line{kind: kindNotification, method: method}
	case !valid:
		return answer
	}
	return line{kind: kindRequest, key: sentKey(id), raw: valueKey(id), method: method}
}

// valueKey groups the IDs that are one value, as the server's running
// calls hold them: a string's decoded text (lone surrogates, which decode
// to U+FFFD, are grouped with it), a number's exact value (one with an
// exponent past 10000 grouped with all such, so that the check does not
// compute it).
func valueKey(id []byte) string {
	if id[0] == '"' {
		var s string
		json.Unmarshal(id, &s)
		return "string " + s
	}
	if _, e, ok := strings.Cut(strings.ToLower(string(id)), "e"); ok {
		if x, err := strconv.Atoi(e); err != nil || x > 10000 || x < -10000 {
			return "number huge"
		}
	}
	r, ok := new(big.Rat).SetString(string(id))
	if !ok {
		return "invalid " + string(id)
	}
	return "number " + r.RatString()
}

// sentKey is an ID's value: a string's text, a number's digits as sent, or
// "null".
func sentKey(id []byte) string {
	d := json.NewDecoder(bytes.NewReader(id))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return "invalid " + string(id)
	}
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "string " + v
	case json.Number:
		return "number " + string(v)
	}
	return fmt.Sprintf("%T %s", v, id)
}

// checkMessage checks one message of the server's and returns its ID's
// key.
func checkMessage(t *testing.T, msg []byte) string {
	t.Helper()
	if !utf8.Valid(msg) {
		t.Fatalf("answer not in UTF-8: %q", msg)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("answer %q: %v", msg, err)
	}
	id, ok := m["id"]
	if !ok || string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("answer %s lacks an ID or jsonrpc 2.0", msg)
	}
	key := sentKey(id)
	if !strings.HasPrefix(key, "string ") && !strings.HasPrefix(key, "number ") && key != "null" {
		t.Fatalf("answer %s: the ID is no string, number or null", msg)
	}
	res, isResult := m["result"]
	rerr, isError := m["error"]
	if isResult == isError || len(m) != 3 {
		t.Fatalf("answer %s: want jsonrpc, id and one of result and error", msg)
	}
	if isError {
		var e struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(rerr, &e); err != nil || e.Code == nil || e.Message == nil || *e.Message == "" {
			t.Fatalf("answer %s: the error wants a code and a message", msg)
		}
		return key
	}
	var r struct {
		Content           []map[string]any `json:"content"`
		StructuredContent *struct {
			Status string `json:"status"`
			Text   string `json:"text"`
		} `json:"structuredContent"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatalf("answer %s: the result: %v", msg, err)
	}
	if sc := r.StructuredContent; sc != nil {
		if sc.Status != "success" && sc.Status != "partial" && sc.Status != "error" || r.IsError != (sc.Status == "error") {
			t.Fatalf("answer %s: status %q with isError %v", msg, sc.Status, r.IsError)
		}
		if len(r.Content) == 0 || r.Content[0]["type"] != "text" || r.Content[0]["text"] != sc.Text || sc.Text == "" {
			t.Fatalf("answer %s: the first content is not the envelope's text", msg)
		}
	}
	return key
}
