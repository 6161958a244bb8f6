package pitext

// The context lines pi search shows around a match when the host sets none.
const (
	ContextBefore = 1
	ContextAfter  = 3
)

// ContextSetting is the host setting (tool.Config's ContextBefore or
// ContextAfter) for n context lines, n >= 0: the setting's 0 is the
// default, so none (n = 0) is -1.
func ContextSetting(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// SearchContext is the number of context lines a host setting gives: def
// for 0, none for a negative setting.
func SearchContext(setting, def int) int {
	switch {
	case setting == 0:
		return def
	case setting < 0:
		return 0
	}
	return setting
}
