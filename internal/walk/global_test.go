package walk

import (
	"io/fs"
	"testing"
)

func TestLoadUserConfig(t *testing.T) {
	cases := []struct {
		name   string
		env    map[string]string
		files  map[string]string
		want   string
		reason string
	}{
		{"gitconfig", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/h/.gitconfig": "[core]\n\texcludesFile = /g/ign\n", "/g/ign": "*.x\n"},
			"*.x\n", "core.excludesFile in ~/.gitconfig"},
		{"tilde", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/h/.gitconfig": "[Core]\nExcludesFile = \"~/my ignore\" # comment\n", "/h/my ignore": "a\n"},
			"a\n", "section and key are case-insensitive; quotes, comment and ~/ are handled"},
		{"xdg default", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/h/.config/git/ignore": "b\n"},
			"b\n", "without core.excludesFile, ~/.config/git/ignore"},
		{"xdg home", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/x/git/ignore": "c\n", "/h/.config/git/ignore": "wrong\n"},
			"c\n", "$XDG_CONFIG_HOME/git/ignore"},
		{"global wins over xdg config", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/h/.config/git/config": "[core]\nexcludesfile=/one\n", "/h/.gitconfig": "[core]\nexcludesfile=/two\n",
				"/one": "1\n", "/two": "2\n"},
			"2\n", "~/.gitconfig is read after the XDG config"},
		{"system", map[string]string{"HOME": "/h"},
			map[string]string{"/etc/gitconfig": "[core]\nexcludesfile=/sys\n", "/sys": "s\n"},
			"s\n", "/etc/gitconfig unless GIT_CONFIG_NOSYSTEM"},
		{"nosystem", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/etc/gitconfig": "[core]\nexcludesfile=/sys\n", "/sys": "s\n"},
			"", "GIT_CONFIG_NOSYSTEM skips /etc/gitconfig"},
		{"GIT_CONFIG_GLOBAL", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/cfg"},
			map[string]string{"/cfg": "[core]\nexcludesfile=/e\n", "/e": "e\n", "/h/.gitconfig": "[core]\nexcludesfile=/no\n", "/no": "no\n"},
			"e\n", "GIT_CONFIG_GLOBAL replaces ~/.gitconfig"},
		{"subsection", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/h/.gitconfig": "[core \"x\"]\nexcludesfile=/no\n", "/no": "no\n"},
			"", "a subsection is not [core]"},
		{"other section", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/h/.gitconfig": "[user]\nexcludesfile=/no\n[core] excludesfile = /yes\n", "/no": "no\n", "/yes": "yes\n"},
			"yes\n", "keys outside [core] do not count; a key may follow the header"},
		{"missing file", map[string]string{"HOME": "/h", "GIT_CONFIG_NOSYSTEM": "1"},
			map[string]string{"/h/.gitconfig": "[core]\nexcludesfile=/gone\n"},
			"", "a configured file that does not exist gives nothing"},
		{"no home", map[string]string{"GIT_CONFIG_NOSYSTEM": "1"}, nil, "", "no HOME, no XDG: nothing"},
		{"GIT_CONFIG_SYSTEM", map[string]string{"HOME": "/h", "GIT_CONFIG_SYSTEM": "/s/cfg"},
			map[string]string{"/s/cfg": "[core]\nexcludesfile=/sys\n", "/sys": "s\n", "/etc/gitconfig": "[core]\nexcludesfile=/no\n", "/no": "no\n"},
			"s\n", "GIT_CONFIG_SYSTEM replaces /etc/gitconfig"},
	}
	for _, c := range cases {
		getenv := func(k string) string { return c.env[k] }
		readFile := func(name string) ([]byte, error) {
			if s, ok := c.files[name]; ok {
				return []byte(s), nil
			}
			return nil, fs.ErrNotExist
		}
		uc := loadUserConfig(&gitEnv{getenv: getenv, readFile: readFile})
		if got := c.files[uc.file]; got != c.want {
			t.Errorf("%s: file %q holds %q, want %q (%s)", c.name, uc.file, got, c.want, c.reason)
		}
	}
}
