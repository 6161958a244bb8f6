package scout

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzEnumText decodes hostile text into each enum a request carries:
// a name round-trips through MarshalText; anything else is a
// CodeInvalidParam error whose message stays short however long the input.
func FuzzEnumText(f *testing.F) {
	for _, s := range []string{"", "content", "files", "count", "all", "dirs", "newest", "path", "tree", "Files", "0", "files\x00", "\xff", "\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range []interface {
			encoding.TextUnmarshaler
			encoding.TextMarshaler
		}{new(SearchMode), new(EntryKind), new(FindOrder)} {
			err := v.UnmarshalText([]byte(s))
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Code != CodeInvalidParam || e.Message == "" {
					t.Fatalf("%T %q: error without a code: %v", v, s, err)
				}
				if len(e.Message) > 1024 {
					t.Fatalf("%T: %d-byte input made a %d-byte message", v, len(s), len(e.Message))
				}
				continue
			}
			out, err := v.MarshalText()
			require.NoError(t, err)
			if s != "" && string(out) != s {
				t.Fatalf("%T %q: encodes back as %q", v, s, out)
			}
		}
	})
}

// FuzzSQLiteValueJSON decodes hostile JSON into a SQLiteValue: what
// decodes encodes, and decoding that again gives the same value (NaN and
// the infinities included), so the encoding is deterministic.
func FuzzSQLiteValueJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"null"}`, `{"type":"integer","int":5}`, `{"type":"real","real":1.5}`,
		`{"type":"real","real":"Infinity"}`, `{"type":"real","real":"-Infinity"}`, `{"type":"real","real":"NaN"}`,
		`{"type":"real","real":null}`, `{"type":"text","text":"x","rest":3,"next":":r1"}`, `{"type":"blob","size":9}`,
		`{"real":{}}`, `{"real":[1]}`, `{"real":1e999}`, `null`, `[]`, `{"real":"x","real":2}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v SQLiteValue
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		b, err := json.Marshal(v)
		require.NoError(t, err, "%q decoded as %+v", s, v)
		var again SQLiteValue
		require.NoError(t, json.Unmarshal(b, &again), "%q: re-decoding %s", s, b)
		if math.IsNaN(v.Real) != math.IsNaN(again.Real) || !math.IsNaN(v.Real) && v.Real != again.Real {
			t.Fatalf("%q: real %v came back as %v via %s", s, v.Real, again.Real, b)
		}
		v.Real, again.Real = 0, 0
		require.Equal(t, v, again, "%q via %s", s, b)
		b2, err := json.Marshal(again)
		require.NoError(t, err)
		var r1, r2 map[string]any
		require.NoError(t, json.Unmarshal(b, &r1))
		require.NoError(t, json.Unmarshal(b2, &r2))
		delete(r1, "real")
		delete(r2, "real")
		require.Equal(t, r1, r2)
	})
}
