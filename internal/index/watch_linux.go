package index

import (
	"context"
	"errors"
	"path"
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/walk"
)

// inotify watches every directory of a work tree that a default walk
// enters (ignored directories and .git are left out).
type inotify struct {
	top string
	fd  int

	mu      sync.Mutex
	dirs    map[int32]string // watch descriptor -> directory, relative to top ("" for top)
	skipped []string         // the directories the first walk left out, relative to top
	closed  bool
	buf     []byte
}

const watchMask = syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE |
	syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF |
	syscall.IN_ONLYDIR | syscall.IN_DONT_FOLLOW | syscall.IN_EXCL_UNLINK

// newWatcher starts watching top in the background and calls started
// when the watches are in place (ok false when they cannot be: the watch
// limit, fs.inotify.max_user_watches, is reached).
func newWatcher(top string, started func(w watcher, ok bool)) (watcher, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	w := &inotify{top: top, fd: fd, dirs: map[int32]string{}, buf: make([]byte, 64<<10)}
	go func() {
		var skipped []string
		err := w.watchTree("", nil, func(d string) { skipped = append(skipped, d) })
		w.mu.Lock()
		w.skipped = skipped
		w.mu.Unlock()
		started(w, err == nil)
	}()
	return w, nil
}

// watchTree adds a watch on the directory dir (relative to top) and every
// directory below it that a default walk enters, and passes the files it
// finds in them, ignored ones too, to file (when not nil) and the
// directories it leaves out (ignored ones, not .git) to skip: a directory
// is listed after its watch is in place, so a file created meanwhile is
// seen one way or the other.
func (w *inotify) watchTree(dir string, file, skip func(p string)) error {
	if err := w.add(dir); err != nil {
		return err
	}
	fsys, release, err := fsx.OpenDir(filepath.Join(w.top, filepath.FromSlash(dir)))
	if err != nil {
		return nil // gone meanwhile: its parent's event recorded it
	}
	defer release()
	var addErr error
	// The override sees every entry of a directory entered, before the
	// ignore rules; it decides none.
	var mu sync.Mutex
	seen := map[string]bool{} // directories seen, true once entered
	over := func(p string, isDir bool) walk.Decision {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case isDir:
			seen[p] = false
		case file != nil:
			file(path.Join(dir, p))
		}
		return walk.Undecided
	}
	_, err = walk.Walk(context.Background(), fsys, ".", walk.Options{Hidden: true, Sorted: true, Override: over}, func(e walk.Entry) error {
		if !e.Type.IsDir() {
			return nil
		}
		mu.Lock()
		seen[e.Path] = true
		mu.Unlock()
		if addErr = w.add(path.Join(dir, e.Path)); addErr != nil {
			return addErr
		}
		return nil
	})
	switch {
	case addErr != nil:
		return addErr
	case err != nil && errs.CodeOf(err) != errs.NotFound:
		return err // not listed: what it holds is not watched
	}
	if skip != nil {
		for p, entered := range seen {
			if !entered {
				skip(path.Join(dir, p))
			}
		}
	}
	return nil // gone meanwhile: its parent's event recorded it
}

// unwatched returns the directories the watches left out.
func (w *inotify) unwatched() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.skipped
}

// add watches one directory. A directory that vanished is no error.
func (w *inotify) add(dir string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("closed")
	}
	wd, err := syscall.InotifyAddWatch(w.fd, filepath.Join(w.top, filepath.FromSlash(dir)), watchMask)
	switch {
	case err == syscall.ENOENT || err == syscall.ENOTDIR:
		return nil
	case err != nil:
		return err
	}
	w.dirs[int32(wd)] = dir
	return nil
}

func (w *inotify) drain(fn func(p string, dir bool)) bool {
	var created []string
	ok := func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.closed {
			return false
		}
		for {
			n, err := syscall.Read(w.fd, w.buf)
			if err == syscall.EAGAIN || err == syscall.EINTR || n <= 0 {
				return err == syscall.EAGAIN || n == 0
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
				name := w.buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)]
				off += syscall.SizeofInotifyEvent + int(ev.Len)
				for len(name) > 0 && name[len(name)-1] == 0 {
					name = name[:len(name)-1]
				}
				if ev.Mask&syscall.IN_Q_OVERFLOW != 0 {
					return false
				}
				dir, known := w.dirs[ev.Wd]
				if ev.Mask&syscall.IN_IGNORED != 0 {
					delete(w.dirs, ev.Wd)
					continue
				}
				if !known || len(name) == 0 {
					if ev.Mask&(syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF) != 0 && known {
						fn(dir, true)
					}
					continue
				}
				p := path.Join(dir, string(name))
				isDir := ev.Mask&syscall.IN_ISDIR != 0
				switch {
				case isDir && ev.Mask&syscall.IN_MOVED_FROM != 0:
					return false // the watches below it now have the wrong names
				case isDir && ev.Mask&(syscall.IN_CREATE|syscall.IN_MOVED_TO) != 0:
					created = append(created, p)
				case isDir:
					fn(p, true)
				default:
					fn(p, false)
				}
			}
		}
	}()
	if !ok {
		return false
	}
	// Watch the new directories, and take their files as changed.
	for _, d := range created {
		// A directory it leaves out is new too: its files are changed.
		if err := w.watchTree(d, func(p string) { fn(p, false) }, func(p string) { fn(p, true) }); err != nil {
			return false
		}
	}
	return true
}

func (w *inotify) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		syscall.Close(w.fd)
	}
}
