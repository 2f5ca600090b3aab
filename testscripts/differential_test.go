package testscripts

// TestDifferential runs programs from the seeded generator (loxgen) under
// many collector configurations and requires the same stdout, stderr and
// exit status from each, and the status and error message the generator
// meant. When $CLOX names a clox binary, the programs without minivm's
// extensions must also give clox's output.
//
// By default it runs a few programs, each under the default configuration
// and three others, rotated by seed so that every configuration runs.
// MINIVM_DIFF_PROGRAMS=n runs seeds 1..n under every configuration (.ci/run
// uses 2000), from seed MINIVM_DIFF_FIRST on if set; MINIVM_DIFF_SEED=n
// runs seed n alone under every configuration, to replay a failure.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"minivm/testscripts/loxgen"
)

// diffConfigs are the configurations every program must agree under.
// Besides the default, each sets a 1 MB nursery (or a smaller heap), so
// that the generated programs' allocation really collects, and most
// verify the heap at every collection.
var diffConfigs = []config{
	{"default", nil},
	{"breadthFirst", []string{"-Xmn1m", "-Xgc:breadthFirstScanOrdering", "-Xcheck:gc"}},
	{"hierarchical", []string{"-Xmn1m", "-Xgc:hierarchicalScanOrdering", "-Xcheck:gc"}},
	{"recursive", []string{"-Xmn1m", "-Xgc:recursiveScanOrdering", "-Xcheck:gc"}},
	{"recursive0", []string{"-Xmn1m", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xcheck:gc"}},
	{"breadthFirst+stress", []string{"-Xmn1m", "-Xgc:breadthFirstScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"hierarchical+stress", []string{"-Xmn1m", "-Xgc:hierarchicalScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive+stress", []string{"-Xmn1m", "-Xgc:recursiveScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive0+stress", []string{"-Xmn1m", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
	{"gcthreads1", []string{"-Xmn1m", "-Xgcthreads1", "-Xcheck:gc"}},
	{"gcthreads2", []string{"-Xmn1m", "-Xgcthreads2", "-Xcheck:gc"}},
	{"gcthreads4", []string{"-Xmn1m", "-Xgcthreads4", "-Xcheck:gc"}},
	{"heap4m", []string{"-Xmx4m", "-Xmn1m", "-Xcheck:gc"}},
	{"heap1m", []string{"-Xmx1m", "-Xmn256k", "-Xcheck:gc"}},
	{"noTLAB", []string{"-Xmn1m", "-XX:-UseTLAB", "-Xgcthreads2", "-Xcheck:gc"}},
	{"tenure1", []string{"-Xmn256k", "-Xgc:scvTenureAge=1", "-Xcheck:gc"}},
}

// diffDefaultPrograms is how many programs go test ./... runs, and
// diffRotation how many configurations besides the default each runs.
const (
	diffDefaultPrograms = 40
	diffRotation        = 3
	diffWorkers         = 2
	diffRunTimeout      = 2 * time.Minute
)

// A diffResult is what one run of a program printed and how it ended.
type diffResult struct {
	stdout, stderr string
	exit           int
}

func (r diffResult) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.exit, r.stdout, r.stderr)
}

func TestDifferential(t *testing.T) {
	minivm, err := exec.LookPath("minivm")
	if err != nil {
		t.Fatalf("minivm is not on PATH (TestMain installs it): %v", err)
	}
	clox := os.Getenv("CLOX")
	seeds, all := diffSeeds(t)
	dir := t.TempDir()
	sem := make(chan struct{}, diffWorkers)
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			defer func() { <-sem }()
			p := loxgen.Generate(seed)
			script := filepath.Join(dir, fmt.Sprintf("seed%d.lox", seed))
			if err := os.WriteFile(script, []byte(p.Source), 0o666); err != nil {
				t.Fatal(err)
			}
			if msg := diffProgram(p, script, minivm, clox, diffConfigsFor(seed, all)); msg != "" {
				replay := fmt.Sprintf("MINIVM_DIFF_SEED=%d go test -count=1 -run '^TestDifferential$' ./testscripts/", seed)
				if clox != "" {
					replay = "CLOX=" + clox + " " + replay
				}
				t.Errorf("seed %d: %s\nreplay: %s\n--- program\n%s", seed, msg, replay, p.Source)
			}
		})
	}
}

// diffSeeds returns the seeds to run and whether each runs under every
// configuration.
func diffSeeds(t *testing.T) ([]uint64, bool) {
	if s := os.Getenv("MINIVM_DIFF_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MINIVM_DIFF_SEED: %v", err)
		}
		return []uint64{seed}, true
	}
	n, all := diffDefaultPrograms, false
	if s := os.Getenv("MINIVM_DIFF_PROGRAMS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("MINIVM_DIFF_PROGRAMS=%q: want a positive number of programs", s)
		}
		n, all = v, true
	}
	first := uint64(1)
	if s := os.Getenv("MINIVM_DIFF_FIRST"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MINIVM_DIFF_FIRST: %v", err)
		}
		first = v
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = first + uint64(i)
	}
	return seeds, all
}

// diffConfigsFor returns the configurations seed runs under: all of them,
// or the default and diffRotation others chosen by the seed.
func diffConfigsFor(seed uint64, all bool) []config {
	if all {
		return diffConfigs
	}
	cs := []config{diffConfigs[0]}
	others := diffConfigs[1:]
	for k := range diffRotation {
		cs = append(cs, others[(int(seed)*diffRotation+k)%len(others)])
	}
	return cs
}

// diffProgram runs p under each configuration (and clox, if it can) and
// returns what went wrong, or "".
func diffProgram(p *loxgen.Program, script, minivm, clox string, cfgs []config) string {
	base, err := diffRun(minivm, append(slices.Clip(cfgs[0].flags), script))
	if err != nil {
		return fmt.Sprintf("minivm %s: %v", cfgs[0].name, err)
	}
	if msg := diffExpect(p, base); msg != "" {
		return fmt.Sprintf("under %s: %s\n%s", cfgs[0].name, msg, base)
	}
	for _, cfg := range cfgs[1:] {
		r, err := diffRun(minivm, append(slices.Clip(cfg.flags), script))
		if err != nil {
			return fmt.Sprintf("minivm %s: %v", strings.Join(cfg.flags, " "), err)
		}
		if r != base {
			return fmt.Sprintf("%s and minivm %s differ\n=== %s\n%s=== %s\n%s",
				cfgs[0].name, strings.Join(cfg.flags, " "), cfgs[0].name, base, cfg.name, r)
		}
	}
	if clox != "" && p.Clox {
		r, err := diffRun(clox, []string{script})
		if err != nil {
			return fmt.Sprintf("clox: %v", err)
		}
		if r != base {
			return fmt.Sprintf("minivm and clox (%s) differ\n=== minivm\n%s=== clox\n%s", clox, base, r)
		}
	}
	return ""
}

// diffExpect checks a run against what the generator meant: the exit
// status, and for a deliberate error its message on stderr's first line.
func diffExpect(p *loxgen.Program, r diffResult) string {
	if r.exit != p.Exit {
		return fmt.Sprintf("exit %d, want %d", r.exit, p.Exit)
	}
	first, _, _ := strings.Cut(r.stderr, "\n")
	switch {
	case p.Exit == 0 && r.stderr != "":
		return "output on stderr"
	case !strings.Contains(first, p.Error):
		return fmt.Sprintf("stderr's first line does not hold %q", p.Error)
	}
	return ""
}

// diffRun runs bin with args and returns its output and exit status; err
// is set only when it could not run or did not end in time.
func diffRun(bin string, args []string) (diffResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), diffRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return diffResult{}, fmt.Errorf("no exit after %v", diffRunTimeout)
	}
	r := diffResult{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.exit = exit.ExitCode()
	case err != nil:
		return diffResult{}, err
	}
	return r, nil
}
