package search

import "context"

type lentKey struct{}

// Lend returns ctx marked for a caller of the root's StreamFunc whose fn
// reads each file only while it is called and keeps nothing of it (the
// command line, which renders the file and drops it): the lines of the
// file it is given are then lent, in memory reused for the next file,
// instead of allocated for each (a dense search allocated more for them
// than for anything else).
func Lend(ctx context.Context) context.Context {
	return context.WithValue(ctx, lentKey{}, true)
}

// Lent reports whether ctx was marked by Lend.
func Lent(ctx context.Context) bool {
	b, _ := ctx.Value(lentKey{}).(bool)
	return b
}
