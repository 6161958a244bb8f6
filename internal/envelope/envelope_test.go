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
