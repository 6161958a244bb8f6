package grep

import (
	"context"
	"os"
	"testing"
)

func TestZZCJK(t *testing.T) {
	data, err := os.ReadFile("/tmp/h3scratch/cjk.txt")
	if err != nil {
		t.Skip()
	}
	p := os.Getenv("ZZP")
	m, _ := Compile(Options{Pattern: p, CountOnly: true})
	s := m.NewScanner()
	var res *FileResult
	for i := 0; i < 5; i++ {
		res, _ = s.SearchBytes(context.Background(), data)
	}
	t.Log(res.MatchLines)
}
