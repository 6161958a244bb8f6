package tool

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
)

func TestHiddenDir(t *testing.T) {
	tests := []struct {
		pattern, dir, rest string
		hidden             bool
	}{
		{".github/workflows/*.yml", ".github/workflows", "*.yml", true},
		{".github/*/ci.yml", ".github", "*/ci.yml", true},
		{"src/.config/*.toml", "src/.config", "*.toml", true},
		{".git/HEAD", ".git", "HEAD", true},
		{".github", "", ".github", false}, // a literal name, no directory
		{"src/*.py", "src", "*.py", false},
		{"../*.py", "..", "*.py", false},       // ".." is not hidden
		{"./src/*.py", "./src", "*.py", false}, // nor is "."
		{"*/.x/*.py", "", "*/.x/*.py", false},  // after a glob character
		{"**/.github/*", "", "**/.github/*", false},
		{"{.a,.b}/*.py", "", "{.a,.b}/*.py", false},
	}
	for _, tt := range tests {
		dir, rest := literalDirs(tt.pattern)
		if dir != tt.dir || rest != tt.rest {
			t.Errorf("literalDirs(%q) = %q, %q; want %q, %q", tt.pattern, dir, rest, tt.dir, tt.rest)
		}
		if got := hasHiddenDir(tt.pattern); got != tt.hidden {
			t.Errorf("hasHiddenDir(%q) = %v, want %v", tt.pattern, got, tt.hidden)
		}
	}
}

// TestAmpGrepHiddenDirHint: the note of a grep whose glob names a hidden
// directory gives a path and glob that, passed, find the file; so does
// amplifier glob's pattern itself.
func TestAmpGrepHiddenDirHint(t *testing.T) {
	tree := fstest.MapFS{
		"sub/.github/workflows/ci.yml": {Data: []byte("on: push\n")},
		"sub/main.py":                  {Data: []byte("on = 1\n")},
	}
	for _, tr := range testfs.Trees(t, tree) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		env := Call(context.Background(), cfg, Amplifier, "grep", []byte(`{"pattern":"on","path":"sub","glob":".github/workflows/*.yml"}`))
		m := regexp.MustCompile(`pass "path": "([^"]+)", "glob": "([^"]+)"`).FindStringSubmatch(env.Text)
		if m == nil {
			t.Fatalf("%s: no hint in %q", tr.Name, env.Text)
		}
		args, _ := json.Marshal(map[string]string{"pattern": "on", "path": m[1], "glob": m[2]})
		env = Call(context.Background(), cfg, Amplifier, "grep", args)
		if env.Text != "sub/.github/workflows/ci.yml" {
			t.Errorf("%s: following the hint (%s) gave %q", tr.Name, args, env.Text)
		}
		env = Call(context.Background(), cfg, Amplifier, "glob", []byte(`{"pattern":".github/workflows/*.yml","path":"sub"}`))
		if env.Text != "sub/.github/workflows/ci.yml" {
			t.Errorf("%s: glob gave %q", tr.Name, env.Text)
		}
	}
}

// TestAmpGlobFiltered: an empty glob result that type or exclude made
// empty says so, with the number of entries they left out; one the
// pattern itself made empty says nothing more.
func TestAmpGlobFiltered(t *testing.T) {
	tree := fstest.MapFS{
		"src/a.ts":   {Data: []byte("a\n")},
		"src/b.ts":   {Data: []byte("b\n")},
		"src/x/c.go": {Data: []byte("c\n")},
	}
	tests := []struct {
		args, want, reason string
	}{
		{`{"pattern":"src/*.ts","exclude":["*.ts"]}`, "No files found matching 'src/*.ts' in '.'\nExclude left out all 2 entries matching 'src/*.ts'.", "exclude left out every match"},
		{`{"pattern":"src/*.ts","type":"dir"}`, "No files found matching 'src/*.ts' in '.'\nType 'dir' left out all 2 entries matching 'src/*.ts'.", "type left out every match"},
		{`{"pattern":"src/x","type":"file","exclude":"*.go"}`, "No files found matching 'src/x' in '.'\nType 'file' and exclude left out the 1 entry matching 'src/x'.", "both filters named"},
		{`{"pattern":"src/*.py","type":"file","exclude":["*.ts"]}`, "No files found matching 'src/*.py' in '.'", "nothing matches the pattern: no note"},
	}
	for _, tr := range testfs.Trees(t, tree) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, tt := range tests {
			env := Call(context.Background(), cfg, Amplifier, "glob", []byte(tt.args))
			if env.Text != tt.want {
				t.Errorf("%s: %s %s: %q, want %q", tr.Name, tt.reason, tt.args, env.Text, tt.want)
			}
		}
	}
}

// TestAmpGlobHiddenName: a pattern whose last segment starts with "."
// matches hidden names there, as a shell glob does; hidden directories the
// pattern does not name are still not looked in, and hidden entries stay
// out of patterns that do not spell them.
func TestAmpGlobHiddenName(t *testing.T) {
	tree := fstest.MapFS{
		".env":          {Data: []byte("k=v\n")},
		"a.py":          {Data: []byte("a\n")},
		".h/.x":         {Data: []byte("x\n")},
		".h/k.py":       {Data: []byte("k\n")},
		".h/.in/.y":     {Data: []byte("y\n")},
		"src/.rc":       {Data: []byte("r\n")},
		"src/.cfg/.z":   {Data: []byte("z\n")},
		"src/.cfg/z.py": {Data: []byte("z\n")},
	}
	tests := []struct {
		args string
		want []string
	}{
		{`{"pattern":".env"}`, []string{".env"}},
		{`{"pattern":"**/.env"}`, []string{".env"}},
		{`{"pattern":".*","type":"file"}`, []string{".env"}},
		{`{"pattern":"**/.*","type":"file"}`, []string{".env", "src/.rc"}},
		{`{"pattern":"**/.*","type":"dir"}`, []string{".h", "src/.cfg"}},
		{`{"pattern":"**/.rc"}`, []string{"src/.rc"}},
		{`{"pattern":".h/.*"}`, []string{".h/.in", ".h/.x"}},
		{`{"pattern":".h/*"}`, []string{".h/k.py"}},
		{`{"pattern":"**/.*","type":"file","exclude":[".env"]}`, []string{"src/.rc"}},
		{`{"pattern":"**/*.py"}`, []string{"a.py"}},
		{`{"pattern":"*"}`, []string{"a.py", "src"}},
	}
	for _, tr := range testfs.Trees(t, tree) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, tt := range tests {
			env := Call(context.Background(), cfg, Amplifier, "glob", []byte(tt.args))
			raw, _ := json.Marshal(env.Data)
			var data struct {
				Matches []struct{ Path string } `json:"matches"`
			}
			if err := json.Unmarshal(raw, &data); err != nil {
				t.Fatalf("%s %s: %v", tr.Name, tt.args, err)
			}
			var got []string
			for _, m := range data.Matches {
				got = append(got, m.Path)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: %s: %q, want %q (%s)", tr.Name, tt.args, got, tt.want, env.Text)
			}
		}
	}
}

func TestHasHiddenName(t *testing.T) {
	for pattern, want := range map[string]bool{
		".env": true, "**/.env": true, ".*": true, "src/.*rc": true, ".h/.x": true,
		"*.py": false, ".h/*": false, "..": false, "src/..": false, ".": false, "{.a,.b}": false, "": false,
	} {
		if got := hasHiddenName(pattern); got != want {
			t.Errorf("hasHiddenName(%q) = %v, want %v", pattern, got, want)
		}
	}
}

// TestAmpGlobClimbingPattern: a pattern whose leading directories climb
// out of path looks from the directory they name; one that climbs after a
// glob segment could never match, and is an INVALID_PARAM error (it found
// nothing, silently).
func TestAmpGlobClimbingPattern(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{"src/a.py": &fstest.MapFile{}, "b.py": &fstest.MapFile{}}, Root: "/proj"}
	for _, tc := range []struct {
		args string
		code scout.Code // "" for success
		want string     // in the text
	}{
		{`{"pattern":"../*.py","path":"src"}`, "", "b.py"},
		{`{"pattern":"src/../*.py"}`, "", "b.py"},
		{`{"pattern":"*/../*.py"}`, scout.CodeInvalidParam, "Pattern '*/../*.py' cannot match"},
		{`{"pattern":"**/..","path":"src"}`, scout.CodeInvalidParam, "Pattern '**/..' cannot match"},
	} {
		env := Call(context.Background(), cfg, Amplifier, "glob", []byte(tc.args))
		if tc.code == "" {
			assert.Equal(t, scout.StatusSuccess, env.Status, tc.args)
		} else if assert.Equal(t, scout.StatusError, env.Status, tc.args) {
			assert.Equal(t, tc.code, env.Error.Code, tc.args)
		}
		assert.Contains(t, env.Text, tc.want, tc.args)
	}
}
