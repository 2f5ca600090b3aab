package testscripts

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestConformanceWithoutSuite runs TestConformance in a child test process
// with the suite root pointing nowhere: it must fail, naming the missing
// suite (go test shows nothing of a passing package, and a cached skip
// would hide the suite for good), unless MINIVM_SKIP_LOX_SUITE=1 asks for
// a skip, which -v then shows.
func TestConformanceWithoutSuite(t *testing.T) {
	if os.Getenv("MINIVM_LOX_SUITE") != "" {
		t.Skip("the parent run already names a suite root")
	}
	missing := t.TempDir() + "/no-suite"
	run := func(extraEnv ...string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConformance$", "-test.v")
		cmd.Env = append(os.Environ(), append([]string{"MINIVM_LOX_SUITE=" + missing}, extraEnv...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	if err == nil || !strings.Contains(out, "no Lox conformance suite at "+missing) || !strings.Contains(out, "--- FAIL: TestConformance") {
		t.Errorf("without a suite: err %v, want a failure naming %s; output:\n%s", err, missing, out)
	}
	out, err = run("MINIVM_SKIP_LOX_SUITE=1")
	if err != nil || !strings.Contains(out, "--- SKIP: TestConformance") || !strings.Contains(out, "MINIVM_SKIP_LOX_SUITE=1") {
		t.Errorf("with MINIVM_SKIP_LOX_SUITE=1: err %v, want a skip; output:\n%s", err, out)
	}
}
