package pathutil

import (
	"slices"
	"testing"
)

// TestInput: a path string is itself when it exists as written, else its
// reading by Normalize; exists is asked only when Normalize changes it.
func TestInput(t *testing.T) {
	existing := []string{"~", " sp ", "a.txt"}
	tests := []struct{ in, want string }{
		{"a.txt\n", "a.txt"},
		{"~", "~"},       // a file named "~"
		{" sp ", " sp "}, // a name with blanks around it
		{" a.txt ", "a.txt"},
		{"a.txt", "a.txt"},
	}
	for _, tt := range tests {
		asked := false
		got := Input(tt.in, func(s string) bool { asked = true; return slices.Contains(existing, s) })
		if got != tt.want {
			t.Errorf("Input(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if asked && Normalize(tt.in) == tt.in {
			t.Errorf("Input(%q) asked whether it exists, though Normalize keeps it", tt.in)
		}
	}
}

// TestSlashHint: the hint is given only for a path with a '\' whose '/'
// reading exists, and names that reading.
func TestSlashHint(t *testing.T) {
	exists := func(s string) bool { return s == "dir/b.txt" }
	tests := []struct{ in, want string }{
		{`dir\b.txt`, `; paths are separated by '/', not '\': did you mean 'dir/b.txt'?`},
		{`nope\b.txt`, ""},
		{"dir/b.txt", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := SlashHint(tt.in, exists); got != tt.want {
			t.Errorf("SlashHint(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
