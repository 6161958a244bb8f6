package mcpserver

import (
	"fmt"
	"testing"
)

func TestReadMembers(t *testing.T) {
	tests := []struct {
		obj  string
		want string // the values of a and b (s for the last), then the error
	}{
		{`{"a":1,"b":"x","c":3}`, `[1 "x"] <nil>`},
		{`{"b":2}`, `[ 2] <nil>`},
		{`{"c":1,"C":2,"c":3}`, `[ ] <nil>`},
		{`{"A":1,"b":2}`, `[ 2] member "A" has the wrong case: names are case-sensitive ("a")`},
		{`{"a":1,"a":2,"b":3,"B":4}`, `[null 3] member "a" is repeated: send it once`},
		{`{"\u0061":1,"a":2}`, `[null ] member "a" is repeated: send it once`},
		{`{"\u0041":1}`, `[ ] member "A" has the wrong case: names are case-sensitive ("a")`},
		{`{"ſ":1}`, `[] member "ſ" has the wrong case: names are case-sensitive ("s")`},
	}
	for i, tt := range tests {
		names := []string{"a", "b"}
		if i == len(tests)-1 {
			names = []string{"s"}
		}
		v, err := readMembers([]byte(tt.obj), names...)
		if got := fmt.Sprintf("%s %v", v, err); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.obj, got, tt.want)
		}
	}
}
