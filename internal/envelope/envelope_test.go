package envelope

import (
	"encoding/json"
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestError(t *testing.T) {
	tests := []struct {
		err    error
		params string
		want   string
		reason string
	}{
		{fs.ErrNotExist, `{"path":"x"}`, `{"status":"error","data":null,"text":"file does not exist","stats":{"time_ms":0,"matched":0,"visited":0},"context":{"cwd":".","params_input":{"path":"x"}},"error":{"code":"NOT_FOUND","message":"file does not exist"}}`, "the code of any error, the arguments as given"},
		{errors.New("bad"), `{not json`, `{"status":"error","data":null,"text":"bad","stats":{"time_ms":0,"matched":0,"visited":0},"context":{"cwd":".","params_input":null},"error":{"code":"INTERNAL_ERROR","message":"bad"}}`, "invalid arguments are recorded as null"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(Error(tt.err, json.RawMessage(tt.params)))
		require.NoError(t, err)
		assert.JSONEq(t, tt.want, string(b), tt.reason)
	}
}

// TestParams: the arguments echoed are as given, but a string value that
// holds URLs with credentials shows them redacted, encoded again;
// anything else, names and spacing included, keeps its bytes; the echo
// is valid JSON, null for arguments that are not.
func TestParams(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{`{"path":"https://user:secret@host/x:10-20"}`, `{"path":"https://user:xxxxx@host/x:10-20"}`, "a read path with a selector"},
		{"{ \"path\" :\n \"https://u:p@h/\" , \"limit\": 5 }", "{ \"path\" :\n \"https://u:xxxxx@h/\" , \"limit\": 5 }", "spacing kept"},
		{`{"path":"https:\/\/u:p\u0040h\/x"}`, `{"path":"https://u:xxxxx@h/x"}`, "an escaped URL, encoded again"},
		{`{"a":"\u00e9\/","path":"HTTP://tok@h/","b":"x@y"}`, `{"a":"\u00e9\/","path":"HTTP://xxxxx@h/","b":"x@y"}`, "a username alone; other strings as given"},
		{`{"paths":["a",{"u":"http://u:p@h"}],"n":[1,"www.u:p@h.example/x"]}`, `{"paths":["a",{"u":"http://u:xxxxx@h"}],"n":[1,"www.u:xxxxx@h.example/x"]}`, "at any depth; a www. URL"},
		{`{"https://u:p@h/":"https://u:p@h/"}`, `{"https://u:p@h/":"https://u:xxxxx@h/"}`, "a member's name is no argument"},
		{`{"path":"  https://u:p@h/<a>&"}`, `{"path":"  https://u:xxxxx@h/<a>&"}`, "leading spaces kept, HTML not escaped"},
		{`{"q":"say \"hi\" @ https://u:p@h","path":"dir/https://u:p@h","p":"ftp://u:p@h"}`, `{"q":"say \"hi\" @ https://u:xxxxx@h","path":"dir/https://u:xxxxx@h","p":"ftp://u:xxxxx@h"}`, "a URL anywhere in a string, of any scheme"},
		{`{"path":"f.txt, https://u:p@h/x","paths":"a, www.tok@h"}`, `{"path":"f.txt, https://u:xxxxx@h/x","paths":"a, xxxxx@h"}`, "a delimited path list"},
		{`{"path":"skill://u:p@deploy"}`, `{"path":"skill://u:xxxxx@deploy"}`, "an internal URL"},
		{`{"path":"https://user:pa/ss@host/x"}`, `{"path":"https://user:xxxxx@host/x"}`, "a password with an unescaped '/'"},
		{`"https://u:p@h"`, `"https://u:xxxxx@h"`, "a top-level string"},
		{`{"path":"https://host/x"}`, `{"path":"https://host/x"}`, "no credentials"},
		{``, `null`, "none"},
		{`{bad`, `null`, "not JSON"},
		{"{\"path\":\"\xff\"}", `null`, "not UTF-8"},
	}
	for _, tt := range tests {
		got := Params(json.RawMessage(tt.in))
		assert.Equal(t, tt.want, string(got), tt.reason)
		assert.True(t, json.Valid(got), tt.reason)
	}
	b, err := json.Marshal(Error(errors.New("bad"), json.RawMessage(`{"path":"https://u:secret@h/"}`)))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"params_input":{"path":"https://u:xxxxx@h/"}`, "an error Envelope echoes through Params")
}
