package tool

import "testing"

func TestHiddenDir(t *testing.T) {
	tests := []struct {
		pattern, dir string
		ok           bool
	}{
		{".github/workflows/*.yml", ".github", true},
		{".github/*/ci.yml", ".github", true},
		{"src/.config/*.toml", "src/.config", true},
		{".a/b/.c/d/*.x", ".a/b/.c", true}, // up to the last hidden one
		{".git/HEAD", ".git", true},
		{".github", "", false},      // a literal name, no directory
		{"src/*.py", "", false},     // no hidden directory
		{"../*.py", "", false},      // ".." is not hidden
		{"./src/*.py", "", false},   // nor is "."
		{"*/.x/*.py", "", false},    // after a glob character
		{"**/.github/*", "", false}, // likewise
		{"{.a,.b}/*.py", "", false}, // likewise
	}
	for _, tt := range tests {
		dir, ok := hiddenDir(tt.pattern)
		if dir != tt.dir || ok != tt.ok {
			t.Errorf("hiddenDir(%q) = %q, %v; want %q, %v", tt.pattern, dir, ok, tt.dir, tt.ok)
		}
	}
}
