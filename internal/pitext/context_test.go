package pitext

import "testing"

// TestContextSetting: a number of context lines becomes a host setting
// that SearchContext turns back into it; none is -1, since 0 is the
// default.
func TestContextSetting(t *testing.T) {
	tests := []struct {
		n, setting int
		reason     string
	}{
		{0, -1, "none is negative: 0 is the default"},
		{1, 1, "a count is itself"},
		{7, 7, "a count is itself"},
	}
	for _, tt := range tests {
		if got := ContextSetting(tt.n); got != tt.setting {
			t.Errorf("%s: ContextSetting(%d) = %d, want %d", tt.reason, tt.n, got, tt.setting)
		}
		if got := SearchContext(ContextSetting(tt.n), ContextAfter); got != tt.n {
			t.Errorf("%s: SearchContext(ContextSetting(%d)) = %d, want it back", tt.reason, tt.n, got)
		}
	}
}

func TestSearchContext(t *testing.T) {
	tests := []struct {
		setting, def, want int
		reason             string
	}{
		{0, ContextBefore, 1, "0 is the default"},
		{0, ContextAfter, 3, "0 is the default"},
		{-1, 3, 0, "negative is none"},
		{-5, 3, 0, "any negative is none"},
		{2, 3, 2, "a count is itself"},
	}
	for _, tt := range tests {
		if got := SearchContext(tt.setting, tt.def); got != tt.want {
			t.Errorf("%s: SearchContext(%d, %d) = %d, want %d", tt.reason, tt.setting, tt.def, got, tt.want)
		}
	}
}
