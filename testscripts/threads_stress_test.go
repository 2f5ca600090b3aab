package testscripts

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestStressThreads runs the racing threads of threads_race.txtar many
// times under every collector, with verification and stress collections:
// a rare interleaving that corrupts the heap or crashes the VM shows up
// here rather than once in a while in CI.
func TestStressThreads(t *testing.T) {
	if !stressEnabled() {
		t.Skip("set MINIVM_STRESS=1 to run the racing threads many times")
	}
	minivm, err := exec.LookPath("minivm")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(filepath.Join("testdata", "threads_race.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	script := filepath.Join(t.TempDir(), "race.lox")
	if err := os.WriteFile(script, files["race.lox"], 0o666); err != nil {
		t.Fatal(err)
	}
	configs := [][]string{
		{"-Xmn1m", "-Xcheck:gc", "-Xgcthreads2"},
		{"-Xgc:stress=3", "-Xcheck:gc", "-Xgc:breadthFirstScanOrdering", "-Xgcthreads4"},
		{"-Xgc:stress=5", "-Xcheck:gc", "-Xgc:hierarchicalScanOrdering", "-Xgcthreads2"},
		{"-Xgc:stress=9", "-Xcheck:gc", "-Xgc:recursiveScanOrdering", "-Xgcthreads3"},
		{"-Xmn1m", "-Xcheck:gc", "-XX:-UseTLAB", "-Xgc:recursiveScanOrdering"},
	}
	for round := 0; round < 8; round++ {
		for _, flags := range configs {
			ctx, cancel := context.WithTimeout(context.Background(), benchmarkTimeout)
			cmd := exec.CommandContext(ctx, minivm, append(append([]string(nil), flags...), script)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			cancel()
			if err != nil || stderr.Len() > 0 || stdout.String() != string(files["race.out"]) {
				t.Fatalf("round %d, minivm %s: %v\nstdout:\n%s\nstderr:\n%s", round, strings.Join(flags, " "), err, stdout.String(), stderr.String())
			}
		}
	}
}
