package walk

import (
	"bufio"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/scoutkit/scout/internal/fsx"
)

// gitEnv is where the git configuration outside any repository comes
// from: the environment and the OS files it names.
type gitEnv struct {
	getenv   func(string) string
	readFile func(name string) ([]byte, error) // an absolute OS path
}

// osEnv is the process's environment and file system.
var osEnv = &gitEnv{getenv: os.Getenv, readFile: readOSFile}

// userConfig is what git's system and global configuration say about the
// global excludes file.
type userConfig struct {
	home string // for "~/" in paths; "" when unknown
	// file is the global excludes file: core.excludesFile from the system
	// and global configuration, else $XDG_CONFIG_HOME/git/ignore
	// (default ~/.config/git/ignore); "" when there is none.
	file string
}

// loadUserConfig finds the global excludes file as git does:
// core.excludesFile from /etc/gitconfig ($GIT_CONFIG_SYSTEM instead;
// neither with GIT_CONFIG_NOSYSTEM), then $XDG_CONFIG_HOME/git/config
// (default ~/.config/git/config), then ~/.gitconfig ($GIT_CONFIG_GLOBAL
// instead of those two), the last one set winning; when none sets it,
// $XDG_CONFIG_HOME/git/ignore. Include directives are not followed.
func loadUserConfig(env *gitEnv) userConfig {
	home := env.getenv("HOME")
	xdg := env.getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var configs []string
	if env.getenv("GIT_CONFIG_NOSYSTEM") == "" {
		sys := env.getenv("GIT_CONFIG_SYSTEM")
		if sys == "" {
			sys = "/etc/gitconfig"
		}
		configs = append(configs, sys)
	}
	switch g := env.getenv("GIT_CONFIG_GLOBAL"); {
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
	uc := userConfig{home: home}
	for _, c := range configs {
		b, err := env.readFile(c)
		if err != nil {
			continue
		}
		if v, ok := configValue(string(b), "core", "excludesfile"); ok {
			uc.file = v
		}
	}
	if uc.file == "" && xdg != "" {
		uc.file = filepath.Join(xdg, "git", "ignore")
	}
	uc.file = uc.expandHome(uc.file)
	return uc
}

// expandHome expands a leading "~/" (git's "~" is the home directory);
// a path it cannot expand is returned as is.
func (uc userConfig) expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && uc.home != "" {
		return filepath.Join(uc.home, rest)
	}
	return p
}

// maxIgnoreFile is the size over which an ignore file is refused (git's
// bound is 100 MB): every path is matched against every rule, and the
// rules are compiled to about 16 bytes per byte. The largest ignore files
// of real projects are tens of kilobytes.
const maxIgnoreFile = 1 << 20

// readRuleFile reads the regular file name of fsys, an ignore file or a
// piece of git metadata. It refuses anything that is not a regular file
// without opening it for reading (a FIFO would block) and files over
// maxIgnoreFile, and it reads nothing from an empty file (so a /proc or
// /sys file, which reports size 0 and may block, is empty).
func readRuleFile(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsx.OpenRegular(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	switch size := f.Size(); {
	case size == 0:
		return nil, nil
	case size > maxIgnoreFile:
		return nil, &fs.PathError{Op: "read", Path: name, Err: fsx.ErrTooLarge}
	default:
		return io.ReadAll(io.LimitReader(f, size))
	}
}

// readOSFile reads an OS file with readRuleFile's rules.
func readOSFile(name string) ([]byte, error) {
	dir, base := filepath.Split(name)
	if dir == "" || base == "" {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	return readRuleFile(os.DirFS(dir), base)
}

// configValue returns the last value of section.key (both lower case) in a
// git config file. It knows sections, comments, quotes and escapes, which
// covers the core.excludesFile lines written by hand or by git config.
func configValue(content, section, key string) (string, bool) {
	var val string
	var found bool
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(content))
	sc.Buffer(nil, len(content)+1)
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
