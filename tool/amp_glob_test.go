package tool

import "testing"

func TestHiddenDir(t *testing.T) {
	tests := []struct {
		pattern, dir, rest string
		ok                 bool
	}{
		{".github/workflows/*.yml", ".github/workflows", "*.yml", true},
		{".github/*/ci.yml", ".github", "*/ci.yml", true},
		{"src/.config/*.toml", "src/.config", "*.toml", true},
		{".git/HEAD", ".git", "HEAD", true},
		{".github", "", "", false},      // a literal name, no directory
		{"src/*.py", "", "", false},     // no hidden directory
		{"../*.py", "", "", false},      // ".." is not hidden
		{"./src/*.py", "", "", false},   // nor is "."
		{"*/.x/*.py", "", "", false},    // after a glob character
		{"**/.github/*", "", "", false}, // likewise
	}
	for _, tt := range tests {
		dir, rest, ok := hiddenDir(tt.pattern)
		if dir != tt.dir || rest != tt.rest || ok != tt.ok {
			t.Errorf("hiddenDir(%q) = %q, %q, %v; want %q, %q, %v", tt.pattern, dir, rest, ok, tt.dir, tt.rest, tt.ok)
		}
	}
}
