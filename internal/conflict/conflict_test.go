package conflict

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		want   []Block
		reason string
	}{
		{
			name:   "none",
			text:   "a\nb\n",
			reason: "a file without markers has no blocks",
		},
		{
			name: "two-way",
			text: "x\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> feature/x\ny\n",
			want: []Block{{ID: 1, Start: 2, Separator: 4, End: 6, OursLabel: "HEAD", TheirsLabel: "feature/x",
				Ours: []string{"a"}, Theirs: []string{"b"}}},
			reason: "labels follow one space; line numbers are 1-based",
		},
		{
			name: "diff3",
			text: "<<<<<<< ours\na\n||||||| base\no\n=======\nb\n>>>>>>> theirs",
			want: []Block{{ID: 1, Start: 1, BaseLine: 3, Separator: 5, End: 7, OursLabel: "ours", BaseLabel: "base",
				TheirsLabel: "theirs", Ours: []string{"a"}, Base: []string{"o"}, Theirs: []string{"b"}}},
			reason: "the base section sits between ||||||| and =======; no trailing newline is fine",
		},
		{
			name:   "crlf",
			text:   "<<<<<<<\r\na\r\n=======\r\nb\r\n>>>>>>>\r\n",
			want:   []Block{{ID: 1, Start: 1, Separator: 3, End: 5, Ours: []string{"a"}, Theirs: []string{"b"}}},
			reason: "CRLF markers match and CR is removed from bodies",
		},
		{
			name: "empty sides",
			text: "<<<<<<< a\n||||||| b\n=======\n>>>>>>> c\n",
			want: []Block{{ID: 1, Start: 1, BaseLine: 2, Separator: 3, End: 4, OursLabel: "a", BaseLabel: "b", TheirsLabel: "c",
				Base: []string{}}},
			reason: "empty sides are allowed; an empty base section is still a base",
		},
		{
			name:   "wrong marker size",
			text:   "<<<<<<<< a\nx\n========\ny\n>>>>>>>> b\n<<<<<< a\n======\n>>>>>> b\n",
			reason: "markers must be exactly seven characters",
		},
		{
			name:   "no space before label",
			text:   "<<<<<<<HEAD\na\n=======\nb\n>>>>>>>x\n",
			reason: "a label must follow one space",
		},
		{
			name:   "indented markers",
			text:   " <<<<<<< a\na\n =======\nb\n >>>>>>> b\n",
			reason: "markers must start at column 0",
		},
		{
			name:   "unclosed",
			text:   "<<<<<<< a\na\n=======\nb\n",
			reason: "a block without a closer is not reported",
		},
		{
			name: "restart",
			text: "<<<<<<< a\nstray\n<<<<<<< b\nx\n=======\ny\n>>>>>>> c\n",
			want: []Block{{ID: 1, Start: 3, Separator: 5, End: 7, OursLabel: "b", TheirsLabel: "c",
				Ours: []string{"x"}, Theirs: []string{"y"}}},
			reason: "a new opener abandons the open block",
		},
		{
			name:   "closer before separator",
			text:   "<<<<<<< a\nx\n>>>>>>> b\n=======\ny\n>>>>>>> c\n",
			reason: "an out-of-order closer abandons the block and later markers start nothing",
		},
		{
			name:   "double separator",
			text:   "<<<<<<< a\nx\n=======\ny\n=======\nz\n>>>>>>> c\n",
			reason: "a second separator abandons the block",
		},
		{
			name:   "base after separator",
			text:   "<<<<<<< a\nx\n=======\n||||||| o\nz\n>>>>>>> c\n",
			reason: "a base marker after the separator abandons the block",
		},
		{
			name: "two blocks",
			text: "<<<<<<< a\n1\n=======\n2\n>>>>>>> b\nmid\n<<<<<<< a\n3\n=======\n4\n>>>>>>> b\n",
			want: []Block{
				{ID: 1, Start: 1, Separator: 3, End: 5, OursLabel: "a", TheirsLabel: "b", Ours: []string{"1"}, Theirs: []string{"2"}},
				{ID: 2, Start: 7, Separator: 9, End: 11, OursLabel: "a", TheirsLabel: "b", Ours: []string{"3"}, Theirs: []string{"4"}},
			},
			reason: "IDs count blocks in file order",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			same(t, tt.want, Parse([]byte(tt.text)), tt.reason)
			lines := strings.Split(tt.text, "\n")
			same(t, tt.want, ParseLines(lines, 1), "ParseLines agrees with Parse: "+tt.reason)
		})
	}
}

func TestParseLinesOffset(t *testing.T) {
	got := ParseLines([]string{"<<<<<<< a", "x", "=======", "y", ">>>>>>> b"}, 40)
	if len(got) != 1 {
		t.Fatalf("got %d blocks, want 1", len(got))
	}
	same(t, []int{40, 42, 44}, []int{got[0].Start, got[0].Separator, got[0].End},
		"a window starting at line 40 numbers its blocks from 40")
	got = ParseLines([]string{"<<<<<<<", "=======", ">>>>>>>"}, 0)
	same(t, 1, got[0].Start, "first < 1 counts as 1")
}

func TestWithin(t *testing.T) {
	blocks := Parse([]byte(many))
	if len(blocks) != 3 {
		t.Fatalf("got %d blocks, want 3", len(blocks))
	}
	got := Within(blocks, 6, 28)
	if len(got) != 1 || got[0].ID != 2 {
		t.Errorf("Within(6, 28) = %+v, want only block 2 with its ID kept", got)
	}
	if got := Within(blocks, 2, 4); len(got) != 0 {
		t.Errorf("Within(2, 4) = %+v, want none: a block cut by the window is not visible", got)
	}
}

const many = `<<<<<<< HEAD
ours one
=======
theirs one
>>>>>>> feature/x
keep
<<<<<<< HEAD
a
b
c
d
e
f
g
h
||||||| merged common ancestors
a
b
=======
a
b
c
d
e
f
g
h
>>>>>>> feature/x
<<<<<<< HEAD
same
||||||| base
same
=======
other
>>>>>>> feature/x
`

// FuzzParse checks that Parse never panics and that every block it reports
// is a real block of the input: ordered markers, bodies equal to the lines
// between them, and the same answer from ParseLines.
func FuzzParse(f *testing.F) {
	for _, s := range []string{many, "", "<<<<<<<\n=======\n>>>>>>>", "<<<<<<< a\r\n|||||||\r\n=======\r\n>>>>>>> b\r\n",
		"<<<<<<< a\n<<<<<<< b\n=======\n=======\n>>>>>>>\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		blocks := Parse([]byte(text))
		lines := strings.Split(text, "\n")
		for i := range lines {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
		same(t, blocks, ParseLines(strings.Split(text, "\n"), 1), "ParseLines agrees with Parse")
		prevEnd := 0
		for i, b := range blocks {
			if b.ID != i+1 || b.Start <= prevEnd || b.Separator <= b.Start || b.End <= b.Separator || b.End > len(lines) {
				t.Fatalf("bad block %+v after end %d in %d lines", b, prevEnd, len(lines))
			}
			prevEnd = b.End
			oursEnd := b.Separator
			if b.HasBase() {
				if b.BaseLine <= b.Start || b.BaseLine >= b.Separator {
					t.Fatalf("base marker outside ours..separator: %+v", b)
				}
				oursEnd = b.BaseLine
				same(t, lines[b.BaseLine:b.Separator-1], nonNil(b.Base), "base body")
			}
			same(t, lines[b.Start:oursEnd-1], nonNil(b.Ours), "ours body")
			same(t, lines[b.Separator:b.End-1], nonNil(b.Theirs), "theirs body")
			for _, m := range []struct {
				line int
				mark string
			}{{b.Start, oursMarker}, {b.Separator, sepMarker}, {b.End, theirsMarker}} {
				if !strings.HasPrefix(lines[m.line-1], m.mark) {
					t.Fatalf("line %d is not a %s marker: %q", m.line, m.mark, lines[m.line-1])
				}
			}
		}
	})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func same(t *testing.T, want, got any, reason string) {
	t.Helper()
	assert.Equal(t, want, got, reason)
}
