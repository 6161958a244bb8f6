package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	zipped, closeZip, err := openZip(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeZip()
	mem := memTree()
	var out bytes.Buffer
	if err := run(context.Background(), &out, []tree{{"memory", mem}, {"zip", zipped}}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"#### memory\n== find (every file)\nmain.go\ngo.mod\n", // newest first
		"(1 hidden entries left out)",                          // counted, not silently dropped
		"*3|// TODO: persist",                                  // search in memory
		"== read main.go:raw\npackage main\n",                  // read in memory
		"#### zip",
		"# src/\napp.py\nutil.py",   // find in the zip
		"*2|    # TODO: parse args", // search in the zip
		"== read README.md:raw\n# Zipped project",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "never listed") {
		t.Errorf("a hidden file was searched:\n%s", got)
	}
}

// TestZipFile opens a zip written to disk, as `customfs FILE.zip` does.
func TestZipFile(t *testing.T) {
	var b bytes.Buffer
	if err := writeZip(&b); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "p.zip")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	zfs, closeZip, err := openZip([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	defer closeZip()
	var out bytes.Buffer
	if err := run(context.Background(), &out, []tree{{"zip", zfs}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "*2|    # TODO: parse args") {
		t.Errorf("search in the zip file:\n%s", out.String())
	}
	if _, _, err := openZip([]string{filepath.Join(t.TempDir(), "missing.zip")}); err == nil {
		t.Error("a zip file that does not exist gave no error")
	}
	if _, _, err := openZip([]string{"main.go"}); err == nil {
		t.Error("a file that is not a zip gave no error")
	}
}
