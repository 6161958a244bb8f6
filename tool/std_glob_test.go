package tool

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

func TestStdGlobBreakers(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 20100 {
		m[fmt.Sprintf("f%05d.txt", i)] = &fstest.MapFile{}
	}
	m["a.py"] = &fstest.MapFile{}
	cfg := Config{FS: m}

	env := Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"*.go"}`))
	if env.Status != scout.StatusError || env.Error.Code != scout.CodeInternal || !strings.Contains(env.Text, "more than 20000 items") {
		t.Fatalf("no match before the count breaker: %s %+v %q", env.Status, env.Error, env.Text)
	}
	if d := env.Data.(map[string]any); d["aborted_reason"] != "count_limit" {
		t.Errorf("data = %v, want aborted_reason count_limit", d)
	}

	env = Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"*.py"}`))
	if env.Status != scout.StatusPartial || !strings.Contains(env.Text, "[Partial: Scanned more than 20000 items") {
		t.Fatalf("match before the count breaker: %s %q", env.Status, env.Text)
	}
	if d := env.Data.(map[string]any); d["aborted_reason"] != "count_limit" || fmt.Sprint(d["paths"]) != "[a.py]" {
		t.Errorf("data = %v", d)
	}
	if env.Stats.Visited < 20000 {
		t.Errorf("visited %d, want the breaker's 20000", env.Stats.Visited)
	}
}
