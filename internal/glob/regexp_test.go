package glob

import (
	"regexp"
	"testing"
)

func TestPatternRegexp(t *testing.T) {
	paths := []string{"a.go", "src/a.go", "src/x/b.go", "a.txt", "src/a.txt", ".hidden/c.go", "Makefile", "x/Makefile", "a{b}.go", "ab", "a/b/c/d.ts", "a/b.tsx"}
	for _, g := range []string{"*.go", "**/*.go", "src/**/*.go", "*.{ts,tsx}", "**/Makefile", "a?.go", "[ab]*", "a/**", "src/*", "\\*"} {
		for _, compile := range []func(string) (*Pattern, error){Compile, CompileFilter} {
			p, err := compile(g)
			if err != nil {
				t.Fatal(err)
			}
			re := regexp.MustCompile(p.Regexp())
			for _, path := range paths {
				if got, want := re.MatchString(path), p.Match(path); got != want {
					t.Errorf("%q (%s) on %q: Regexp %v, Match %v", g, p.Regexp(), path, got, want)
				}
			}
		}
	}
	if (*Pattern)(nil).Regexp() != "" {
		t.Error("nil Pattern: Regexp not empty")
	}
}
