package testscripts

import (
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// simresults file ipct mpct config...
//
//	file is the Go benchmark format of `minivm bench -sim`: one result per
//	configuration, each with the counts (mutator and gc instructions, D1
//	and LL misses; instructions non-zero) and the Unit lines marking them
//	better=lower assume=exact, and every instruction count within ipct
//	percent, every miss count within mpct percent, of the first
//	configuration's (same options: the counts repeat but for what the Go
//	runtime's monitor thread does at wall-clock times).
func init() { scriptCmds["simresults"] = cmdSimResults }

var simUnits = []string{"mutator-instructions", "mutator-D1-misses", "mutator-LL-misses",
	"gc-instructions", "gc-D1-misses", "gc-LL-misses"}

func cmdSimResults(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 4 {
		ts.Fatalf("usage: simresults file ipct mpct config...")
	}
	instrPct, err := strconv.ParseFloat(args[1], 64)
	ts.Check(err)
	missPct, err := strconv.ParseFloat(args[2], 64)
	ts.Check(err)
	configs := args[3:]
	got := map[string]map[string]float64{} // config -> unit -> value
	results, units := benchConfigResults(ts, args[0])
	for _, rec := range results {
		c := rec.config
		if got[c] != nil {
			ts.Fatalf("%s: two results for config=%s", args[0], c)
		}
		got[c] = map[string]float64{}
		for _, u := range simUnits {
			v, ok := rec.Value(u)
			if !ok {
				ts.Fatalf("%s: result %q has no %s", args[0], rec.Name, u)
			}
			got[c][u] = v
		}
	}
	if len(got) != len(configs) {
		ts.Fatalf("%s: %d configurations, want %d", args[0], len(got), len(configs))
	}
	for _, u := range simUnits {
		if m := units.Get(u, "better"); m == nil || m.Value != "lower" {
			ts.Fatalf("%s: no Unit %s better=lower", args[0], u)
		}
		if m := units.Get(u, "assume"); m == nil || m.Value != "exact" {
			ts.Fatalf("%s: no Unit %s assume=exact", args[0], u)
		}
	}
	base := got[configs[0]]
	if base == nil || base["mutator-instructions"] == 0 || base["gc-instructions"] == 0 {
		ts.Fatalf("%s: config=%s has no instruction counts: %v", args[0], configs[0], base)
	}
	for _, c := range configs[1:] {
		for _, u := range simUnits {
			a, b := base[u], got[c][u]
			maxPct := missPct
			if strings.HasSuffix(u, "-instructions") {
				maxPct = instrPct
			}
			if d := math.Abs(b-a) / math.Max(a, 1) * 100; d > maxPct {
				ts.Fatalf("%s: %s: config=%s %v, config=%s %v (%.3f%% apart, want at most %v%%)",
					args[0], u, configs[0], a, c, b, d, maxPct)
			}
		}
	}
}

// buildminivm VAR
//
//	build minivm (go build ./cmd/minivm) into $WORK and set VAR to its
//	path. The minivm command of the scripts is the test binary, which go
//	test (but not go test -c) links without a symbol table; valgrind
//	needs one to see the functions minivm bench -sim splits its counts
//	at (without, bench -sim says so: TestReadSimParts). It is built with
//	its Go heap at a fixed address (GOEXPERIMENT=norandomizedheapbase64),
//	as bench -sim asks for repeatable counts.
func init() { scriptCmds["buildminivm"] = cmdBuildMinivm }

func cmdBuildMinivm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: buildminivm VAR")
	}
	bin := ts.MkAbs("minivm-with-symbols")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/minivm")
	cmd.Dir = ".." // the module root; tests run in their package's directory
	cmd.Env = append(os.Environ(), "GOEXPERIMENT=norandomizedheapbase64")
	if out, err := cmd.CombinedOutput(); err != nil {
		ts.Fatalf("go build ./cmd/minivm: %v\n%s", err, out)
	}
	ts.Setenv(args[0], bin)
}
