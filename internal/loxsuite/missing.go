package loxsuite

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// CheckMissing runs the named test of the calling test binary in a child
// process with the suite root pointing nowhere and checks the rule: the
// test fails naming the missing root; with MINIVM_SKIP_LOX_SUITE=1 it is a
// skip; with CI set as well it fails again. The child starts from the
// parent's environment without the variables the rule reads.
func CheckMissing(t *testing.T, test string) {
	t.Helper()
	missing := filepath.Join(t.TempDir(), "no-suite")
	var base []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "CI" && name != "MINIVM_SKIP_LOX_SUITE" && name != "MINIVM_LOX_SUITE" {
			base = append(base, kv)
		}
	}
	base = append(base, "MINIVM_LOX_SUITE="+missing)
	run := func(env ...string) (string, bool) {
		cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v", "-test.count=1")
		cmd.Env = append(base, env...)
		out, err := cmd.CombinedOutput()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatal(err)
		}
		return string(out), err == nil
	}
	named := "no Lox conformance suite at " + missing
	if out, ok := run(); ok || !strings.Contains(out, named) || !strings.Contains(out, "--- FAIL: "+test) {
		t.Errorf("%s without a suite: want a failure naming %s; output:\n%s", test, missing, out)
	}
	if out, ok := run("MINIVM_SKIP_LOX_SUITE=1"); !ok || !strings.Contains(out, "--- SKIP: "+test) || !strings.Contains(out, "MINIVM_SKIP_LOX_SUITE=1") {
		t.Errorf("%s with MINIVM_SKIP_LOX_SUITE=1: want a skip; output:\n%s", test, out)
	}
	if out, ok := run("MINIVM_SKIP_LOX_SUITE=1", "CI=true"); ok || !strings.Contains(out, named) || !strings.Contains(out, "--- FAIL: "+test) {
		t.Errorf("%s with MINIVM_SKIP_LOX_SUITE=1 and CI set: want a failure; output:\n%s", test, out)
	}
}
