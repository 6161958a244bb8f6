package mcpserver

import (
	"bytes"
	"io"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/tool"
)

// TestIDKey: IDs that are one value share a key, whatever their spelling;
// others do not.
func TestIDKey(t *testing.T) {
	same := [][]string{
		{`1`, `1.0`, `1e0`, `1E+0`, `10e-1`, `0.1e1`, `1.000`, `100e-2`},
		{`0`, `-0`, `0.0`, `0e5`, `-0.000e-3`},
		{`-15e-1`, `-1.5`, `-1.50`, `-150E-2`},
		{`12345678901234567890`, `1234567890123456789e1`, `12345678901234567890.0`},
		{`1e400`, `10e399`, `0.1e401`},
		{`1e99999999999999999999`, `10e99999999999999999998`},
		{`"a"`, `"\u0061"`, `"\u0061"`},
		{`"é\n/"`, `"\u00e9\n\/"`, `"\u00E9\u000a/"`},
		{`"😀"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`},
		{`"\ufffd"`, `"` + "\uFFFD" + `"`},
		{`"\ud800"`, `"\uD800"`},
		{`"1"`},
		{`""`},
		{`12345678901234567891`},
		{`1.0000000000000000000001`},
		{`"\udc00"`},
		{`"\ud800\ud800"`},
		{`"\\u0061"`},
	}
	keys := map[string]int{}
	for i, ids := range same {
		for _, id := range ids {
			k := idKey([]byte(id))
			if j, ok := keys[k]; ok && j != i {
				t.Errorf("%s has the key %q of %s", id, k, same[j][0])
			}
			keys[k] = i
			if k0 := idKey([]byte(ids[0])); k != k0 {
				t.Errorf("%s has key %q, %s %q: want one", id, k, ids[0], k0)
			}
		}
	}
}

// TestProtocolCancelByValue: a cancellation names its call by the ID's
// value, whatever its spelling (a number as another number of that value,
// a string with escapes), and a request reusing a running call's ID so
// spelled is refused; IDs of other values (a string and a number, numbers
// past float64's precision) are apart.
func TestProtocolCancelByValue(t *testing.T) {
	tests := []struct {
		id, cancel string
		canceled   bool
	}{
		{`1`, `1`, true},
		{`1`, `1.0`, true},
		{`1.0`, `1`, true},
		{`1`, `1e0`, true},
		{`100`, `1E2`, true},
		{`-0`, `0`, true},
		{`12345678901234567890`, `12345678901234567891`, false},
		{`12345678901234567890`, `1234567890123456789e1`, true},
		{`"a"`, `"\u0061"`, true},
		{`"\u00e9"`, `"é"`, true},
		{`"1"`, `1`, false},
		{`1`, `"1"`, false},
		{`"a"`, `"A"`, false},
		{`"\ud800"`, `"\ufffd"`, false},
	}
	call := func(id string) string {
		return `{"jsonrpc": "2.0", "id": ` + id + `, "method": "tools/call", "params": {"name": "read", "arguments": {"path": "a.go"}}}`
	}
	for _, tt := range tests {
		w, open := gatedDial(t)
		w.send(call(tt.id))
		w.send(call(tt.cancel))
		w.send(`{"jsonrpc": "2.0", "id": "q", "method": "ping"}`)
		m := w.next()
		if dup := errCode(m) == codeInvalidRequest && m["id"] == nil; dup != tt.canceled {
			t.Errorf("%s while %s runs: answered %v; want it refused as a duplicate: %v", tt.cancel, tt.id, m, tt.canceled)
		}
		if m["id"] != "q" {
			if m := w.next(); m["id"] != "q" {
				t.Fatalf("answered %v, want the ping's answer", m)
			}
		}
		// Cancels the first call, or the second when it runs.
		w.send(`{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": ` + tt.cancel + `}}`)
		w.send(`{"jsonrpc": "2.0", "id": "p", "method": "ping"}`)
		if m := w.next(); m["id"] != "p" {
			t.Fatalf("answered %v, want the ping's answer", m)
		}
		open()
		w.in.(io.Closer).Close()
		rest, err := io.ReadAll(w.out)
		if err != nil {
			t.Fatal(err)
		}
		answered := strings.Contains(string(rest), `"id":`+tt.id+`,`)
		if answered == tt.canceled {
			t.Errorf("call %s, cancellation %s: the rest of the answers %s; want the call canceled: %v", tt.id, tt.cancel, rest, tt.canceled)
		}
	}
}

// TestAddExponent: an exponent plus a shift is the sum math/big makes,
// for exponents of any length (carries and borrows across their digits
// included).
func TestAddExponent(t *testing.T) {
	exps := []string{"", "0", "+0", "-0", "7", "+12", "-12", "000123", "999999999999999999", "-999999999999999999",
		"1000000000000000000", "-1000000000000000000", "+0001000000000000000000", "99999999999999999999999", "-99999999999999999999999",
		"100000000000000000000000", "-100000000000000000000000", "123456789012345678901234567890", "1000000000000000000000016777216"}
	shifts := []int64{0, 1, -1, 9, -9, 10, -10, 16777216, -16777216, 123456}
	for _, exp := range exps {
		for _, shift := range shifts {
			want := new(big.Int)
			if e := strings.TrimPrefix(exp, "+"); e != "" {
				want.SetString(e, 10)
			}
			want.Add(want, big.NewInt(shift))
			if got := addExponent(exp, shift); got != want.String() {
				t.Errorf("addExponent(%q, %d) = %s, want %s", exp, shift, got, want)
			}
		}
	}
}

// TestProtocolLongExponent: an ID with an exponent of millions of digits
// is keyed in linear time (math/big took minutes, while the server read
// nothing more).
func TestProtocolLongExponent(t *testing.T) {
	w := dial(t, tool.Config{FS: fixture(t)}, tool.Pi)
	exp := strings.Repeat("7", 8<<20)
	go io.WriteString(w.in, `{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1e`+exp+`}}`+"\n"+
		`{"jsonrpc": "2.0", "id": 1e-`+exp+`, "method": "tools/call", "params": {"name": "find", "arguments": {"paths": ["*.go"]}}}`+"\n"+
		`{"jsonrpc": "2.0", "id": "p", "method": "ping"}`+"\n")
	var got []string
	for range 2 {
		line := w.nextLine()
		if bytes.Contains(line, []byte(`"a.go`)) {
			line = []byte("the call's answer")
		}
		got = append(got, strings.TrimSpace(string(line)))
	}
	assert.ElementsMatch(t, []string{"the call's answer", `{"jsonrpc":"2.0","id":"p","result":{}}`}, got)
}
