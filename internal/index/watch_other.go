//go:build !linux

package index

import "errors"

// newWatcher is not available here: the tracker keeps asking git.
func newWatcher(top string, started func(w watcher, ok bool)) (watcher, error) {
	return nil, errors.New("watching a tree needs Linux's inotify")
}
