package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in     string
		want   int64
		ok     bool
		reason string
	}{
		{"512", 512, true, "plain bytes"},
		{"10K", 10 << 10, true, "kibibytes"},
		{"10m", 10 << 20, true, "lower-case suffix"},
		{"2G", 2 << 30, true, "gibibytes"},
		{"none", -1, true, "no cap"},
		{"0", 0, false, "zero is no size"},
		{"-5", 0, false, "negative"},
		{"", 0, false, "empty"},
		{"M", 0, false, "suffix alone"},
		{"10Q", 0, false, "unknown suffix"},
		{"9999999999G", 0, false, "overflow"},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%s: parseSize(%q) = %d, %v; want %d, ok %v", tt.reason, tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// TestSearchMaxFilesize: --max-filesize sets the size cap of the human
// search and of call; a skipped file is named in the text.
func TestSearchMaxFilesize(t *testing.T) {
	root := writeTree(t, map[string][]byte{"big.txt": bytes.Repeat([]byte("filler line\n"), 200), "small.txt": []byte("needle\n")})
	big := writeTree(t, map[string][]byte{"big.txt": append(bytes.Repeat([]byte("filler line\n"), 200), "needle\n"...)})
	tests := []struct {
		args   []string
		want   string
		reason string
	}{
		{[]string{"search", "needle", "--root", root}, "small.txt", "default cap"},
		{[]string{"search", "needle", "--root", big, "--max-filesize", "1K"}, "too large", "a file over the cap is counted"},
		{[]string{"search", "needle", "--root", big, "--max-filesize", "none"}, "needle", "no cap"},
		{[]string{"call", "--root", big, "--max-filesize", "1K", "search", `{"paths": ".", "pattern": "needle"}`}, "too large", "call takes the cap too"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if code := run(tt.args, strings.NewReader(""), &out, &errb); code != 0 {
			t.Errorf("%s: exit %d: %s", tt.reason, code, &errb)
			continue
		}
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("%s: output %q lacks %q", tt.reason, &out, tt.want)
		}
	}
}
