// Package testscripts holds minivm's regression suites: testscript (.txtar)
// files in testdata/ that run the minivm command, and the conformance test
// that runs the Crafting Interpreters Lox suite (../shared/lox) under each
// collector configuration.
//
// TestMain registers the command line (cli.Run) as the minivm command, so
// the scripts and the conformance test run the real command, each
// invocation in its own process, without building anything first.
//
// Scripts find the repository's examples/ in $EXAMPLES. Besides
// testscript's builtins they can use:
//
//	status N command [args...]
//	    run command like exec and check that it exits with status N
//	    (stdout and stderr are then checked as after exec)
//	jsonl-keys file records|summary key...
//	    file is JSON Lines: every line but the last (records) or the last
//	    line (summary) is an object with exactly these keys
//
// Run one suite with: go test ./testscripts -run 'TestScripts/cli_errors'
package testscripts

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"minivm/cmd/minivm/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"minivm": func() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

func TestScripts(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":     cmdStatus,
			"jsonl-keys": cmdJSONLKeys,
		},
	})
}

// cmdStatus: status N command [args...]
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdJSONLKeys: jsonl-keys file records|summary key...
func cmdJSONLKeys(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || (args[1] != "records" && args[1] != "summary") {
		ts.Fatalf("usage: jsonl-keys file records|summary key...")
	}
	lines := strings.Split(strings.TrimSuffix(ts.ReadFile(args[0]), "\n"), "\n")
	if len(lines) < 2 {
		ts.Fatalf("%s: want at least one record and a summary, got %d lines", args[0], len(lines))
	}
	check := lines[:len(lines)-1]
	if args[1] == "summary" {
		check = lines[len(lines)-1:]
	}
	want := slices.Sorted(slices.Values(args[2:]))
	for _, line := range check {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			ts.Fatalf("%s: not a JSON object: %v\n%s", args[0], err, line)
		}
		var got []string
		for k := range obj {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			ts.Fatalf("%s: keys\n  %s\nwant\n  %s\nin %s", args[0],
				strings.Join(got, " "), strings.Join(want, " "), line)
		}
	}
}
