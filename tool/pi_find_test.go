package tool

import (
	"context"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
)

// TestPiFindRefusesOSRoot: with the project root at "/", a find that would
// walk "/" is refused with pi's error, before any walk.
func TestPiFindRefusesOSRoot(t *testing.T) {
	for _, args := range []string{
		`{"paths":["/"],"timeout":0.5}`,                      // the root itself
		`{"paths":["*.scout-none"],"timeout":0.5}`,           // a bare glob searches from the root
		`{"paths":["/etc/*.conf","/usr/*.h"],"timeout":0.5}`, // the bases share only the root
	} {
		env := Call(context.Background(), Config{Root: "/"}, Pi, "find", []byte(args))
		if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam ||
			!strings.HasPrefix(env.Text, "Searching from root directory '/' is not allowed") {
			t.Errorf("%s: %s %q", args, env.Status, env.Text)
		}
	}
}
