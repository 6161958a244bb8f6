package find

import "testing"

func TestTreeLess(t *testing.T) {
	tests := []struct {
		a, b   string
		want   bool
		reason string
	}{
		{"b.py", "a/x.py", true, "a directory's own file before a subdirectory's"},
		{"a/x.py", "b.py", false, "and not the other way"},
		{"src/z.py", "src/utils/io.py", true, "the same one level down"},
		{"a/x.py", "b/a.py", true, "subdirectories by name"},
		{"a.py", "b.py", true, "names byte-wise"},
		{"src", "src/a.py", true, "a directory before its contents"},
		{"x.py", "x.py", false, "equal"},
	}
	for _, tt := range tests {
		if got := treeLess(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: treeLess(%q, %q) = %v", tt.reason, tt.a, tt.b, got)
		}
	}
}
