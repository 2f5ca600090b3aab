package testscripts

import (
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// runs N S command [args...]
//
//	run command N times, like status S each time, and check that every
//	run prints the same stdout as the first; stdout and stderr then hold
//	the last run's. For failures that depend on timing: one run in a few
//	may be the one that crashes.
func init() { scriptCmds["runs"] = cmdRuns }

func cmdRuns(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: runs N S command [args...]")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		ts.Fatalf("runs: bad count %q", args[0])
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	var first string
	for i := 1; i <= n; i++ {
		got := 0
		if err := ts.Exec(args[2], args[3:]...); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				ts.Fatalf("%s: %v", args[2], err)
			}
			got = ee.ExitCode()
		}
		if got != want {
			ts.Fatalf("run %d of %d: %s exited with status %d, want %d", i, n, args[2], got, want)
		}
		out := ts.ReadFile("stdout")
		if i == 1 {
			first = out
		} else if out != first {
			ts.Fatalf("run %d of %d: stdout differs from the first run's", i, n)
		}
	}
}
