package walk

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// LoadGlobalExcludes returns the contents of the user's global gitignore,
// for Options.GlobalExcludes, as git finds it: core.excludesFile from
// /etc/gitconfig (unless GIT_CONFIG_NOSYSTEM is set), then
// $XDG_CONFIG_HOME/git/config (default ~/.config/git/config), then
// ~/.gitconfig (or $GIT_CONFIG_GLOBAL instead of those two), the last one
// set winning; when none sets it, $XDG_CONFIG_HOME/git/ignore (default
// ~/.config/git/ignore). It returns "" when there is no such file.
// Include directives of git config files are not followed.
func LoadGlobalExcludes() string {
	return loadGlobalExcludes(os.Getenv, os.ReadFile)
}

func loadGlobalExcludes(getenv func(string) string, readFile func(string) ([]byte, error)) string {
	home := getenv("HOME")
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var configs []string
	if getenv("GIT_CONFIG_NOSYSTEM") == "" {
		configs = append(configs, "/etc/gitconfig")
	}
	switch g := getenv("GIT_CONFIG_GLOBAL"); {
	case g != "":
		configs = append(configs, g)
	default:
		if xdg != "" {
			configs = append(configs, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			configs = append(configs, filepath.Join(home, ".gitconfig"))
		}
	}
	file := ""
	for _, c := range configs {
		b, err := readFile(c)
		if err != nil {
			continue
		}
		if v, ok := configValue(string(b), "core", "excludesfile"); ok {
			file = v
		}
	}
	switch {
	case file == "" && xdg != "":
		file = filepath.Join(xdg, "git", "ignore")
	case strings.HasPrefix(file, "~/") && home != "":
		file = filepath.Join(home, file[2:])
	}
	if file == "" {
		return ""
	}
	b, err := readFile(file)
	if err != nil {
		return ""
	}
	return string(b)
}

// configValue returns the last value of section.key (both lower case) in a
// git config file. It knows sections, comments, quotes and escapes, which
// covers the core.excludesFile lines written by hand or by git config.
func configValue(content, section, key string) (string, bool) {
	var val string
	var found bool
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(content))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			name := strings.TrimSpace(line[1:end])
			if i := strings.IndexAny(name, " \t\""); i >= 0 {
				name = name[:i] + "\x00" // a subsection: never "core"
			}
			cur = strings.ToLower(name)
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		k, v, hasEq := strings.Cut(line, "=")
		if cur != section || !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		if !hasEq {
			continue // a bare key is boolean true, not a path
		}
		val, found = unquoteConfig(strings.TrimSpace(v)), true
	}
	return val, found
}

// unquoteConfig removes quotes, escapes and a trailing comment from a git
// config value.
func unquoteConfig(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimRight(b.String(), " \t")
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimRight(b.String(), " \t")
}
