package testscripts

// The conformance test runs the Crafting Interpreters Lox suite
// (../shared/lox/test, beside the repository) with the rules of
// ../shared/lox/run_suite.py --suite minivm: the same expectation comments,
// skip list, exit codes and stderr matching, each test run as its own
// minivm process from the suite root with the relative test path, as the
// official runner does.
//
// It runs the suite once per configuration (a set of extra flags). The
// first table always runs; stressConfigs run only with MINIVM_STRESS=1
// (.ci/run's stress step). Set MINIVM_RELAXED_SYNTAX=1 for run_suite.py's
// --relaxed-syntax and MINIVM_SUITE_TIMEOUT to change the per-file
// timeout. internal/loxsuite finds the suite (MINIVM_LOX_SUITE names
// another root) and fails the test when it is missing, unless
// MINIVM_SKIP_LOX_SUITE=1.
//
// go test caches a passing run keyed on these variables, but it does not
// look at files outside the module, so it replays the result after the
// suite's files change: run with -count=1 then.

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"minivm/internal/loxsuite"
)

// A config is one way of running the suite: minivm's extra flags.
type config struct {
	name  string
	flags []string
}

// configs always run (go test ./...). The default collector is listed
// explicitly too, so the table stays right when the default changes.
var configs = []config{
	{"default", nil},
	{"breadthFirst", []string{"-Xgc:breadthFirstScanOrdering"}},
	{"hierarchical", []string{"-Xgc:hierarchicalScanOrdering"}},
	{"breadthFirst+stress", []string{"-Xgc:breadthFirstScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"hierarchical+stress", []string{"-Xgc:hierarchicalScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive", []string{"-Xgc:recursiveScanOrdering"}},
	{"recursive+stress", []string{"-Xgc:recursiveScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive0+stress", []string{"-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
}

// stressConfigs run only with MINIVM_STRESS=1: slower or harsher settings
// that flush out missing roots and barriers.
var stressConfigs = []config{
	// Tenure at the first survival: most stores hit tenured objects, so
	// the barrier and the remembered set do the work.
	{"breadthFirst+stress+tenure1", []string{"-Xgc:breadthFirstScanOrdering", "-Xgc:stress", "-Xcheck:gc", "-Xgc:scvTenureAge=1"}},
	{"hierarchical+stress+tenure1", []string{"-Xgc:hierarchicalScanOrdering", "-Xgc:stress", "-Xcheck:gc", "-Xgc:scvTenureAge=1"}},
	// The smallest heap: real (not forced) nursery and global collections.
	{"smallHeap", []string{"-Xmx1m", "-Xmn256k", "-Xcheck:gc"}},
	// An odd interval: collections land at other allocation sites.
	{"stress7", []string{"-Xgc:stress=7", "-Xcheck:gc"}},
	// The evacuator's parameter corners: a one-frame stack (breadth-first),
	// small and large inside copies.
	{"recursive+stress+depth1", []string{"-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumStackDepth=1", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive+stress+inside64", []string{"-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumInsideCopySize=64", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive0+stress+inside131072", []string{"-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumInsideCopySize=131072", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive+stress+tenure1", []string{"-Xgc:recursiveScanOrdering", "-Xgc:stress", "-Xcheck:gc", "-Xgc:scvTenureAge=1"}},
	// Tiny class-metadata regions: many sub-allocator regions.
	{"stress+tinySuballocator", []string{"-Xgc:stress", "-Xcheck:gc", "-Xgc:suballocatorInitialSize=4k", "-Xgc:suballocatorIncrementSize=4k"}},
	{"recursive+stress+tinySuballocator+bruteForce", []string{"-Xgc:recursiveScanOrdering", "-Xgc:stress", "-Xcheck:gc", "-Xgc:suballocatorInitialSize=4k", "-Xgc:suballocatorIncrementSize=4k", "-Xgc:suballocatorQuickAllocDisable"}},
	// Hot-field scan ordering with depth-first evacuation.
	{"recursive0+hotFields+stress", []string{"-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:hotFieldScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	// Parallel GC: four GC threads, each scan ordering.
	{"breadthFirst+stress+threads4", []string{"-Xgcthreads4", "-Xgc:breadthFirstScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"hierarchical+stress+threads4", []string{"-Xgcthreads4", "-Xgc:hierarchicalScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	{"recursive+stress+threads4", []string{"-Xgcthreads4", "-Xgc:recursiveScanOrdering", "-Xgc:stress", "-Xcheck:gc"}},
	// Chain detection: depth-first and default width, one to four GC
	// threads, and a one-frame stack.
	{"chains0+stress+threads1", []string{"-Xgcthreads1", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains0+stress+threads2", []string{"-Xgcthreads2", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains0+stress+threads4", []string{"-Xgcthreads4", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains4096+stress+threads1", []string{"-Xgcthreads1", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumInsideCopyDistance=4096", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains4096+stress+threads2", []string{"-Xgcthreads2", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumInsideCopyDistance=4096", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains4096+stress+threads4", []string{"-Xgcthreads4", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumInsideCopyDistance=4096", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains0+depth1+stress+threads2", []string{"-Xgcthreads2", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumStackDepth=1", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains4096+depth1+stress+threads4", []string{"-Xgcthreads4", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumStackDepth=1", "-Xgc:stress", "-Xcheck:gc"}},
	{"chains0+depth1+stress+threads1", []string{"-Xgcthreads1", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveChainDetection", "-XXgc:recursiveMaximumStackDepth=1", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xgc:stress", "-Xcheck:gc"}},
	// Global collections (every 64th stress collection) in each mark
	// order, marking and compacting on one, two and four workers.
	{"markBreadthFirst+stress+threads1", []string{"-Xgcthreads1", "-Xgc:markScanOrdering=breadthFirst", "-Xgc:stress", "-Xcheck:gc"}},
	{"markBreadthFirst+stress+threads2", []string{"-Xgcthreads2", "-Xgc:markScanOrdering=breadthFirst", "-Xgc:stress", "-Xcheck:gc"}},
	{"markPrefetch+stress+threads2", []string{"-Xgcthreads2", "-Xgc:markScanOrdering=prefetch", "-Xgc:stress", "-Xcheck:gc"}},
	{"markPrefetch+stress+threads4", []string{"-Xgcthreads4", "-Xgc:markScanOrdering=prefetch", "-Xgc:stress", "-Xcheck:gc"}},
	{"markBreadthFirst+stress+threads4", []string{"-Xgcthreads4", "-Xgc:markScanOrdering=breadthFirst", "-Xgc:stress", "-Xcheck:gc"}},
	{"markPrefetch+stress+threads1", []string{"-Xgcthreads1", "-Xgc:markScanOrdering=prefetch", "-Xgc:stress", "-Xcheck:gc"}},
	{"markDepthFirst+stress+threads1", []string{"-Xgcthreads1", "-Xgc:markScanOrdering=depthFirst", "-Xgc:stress", "-Xcheck:gc"}},
	{"markDepthFirst+stress+threads2", []string{"-Xgcthreads2", "-Xgc:markScanOrdering=depthFirst", "-Xgc:stress", "-Xcheck:gc"}},
	{"markDepthFirst+stress+threads4", []string{"-Xgcthreads4", "-Xgc:markScanOrdering=depthFirst", "-Xgc:stress", "-Xcheck:gc"}},
}

// suiteTimeout bounds one test file: run_suite.py's --timeout default,
// or $MINIVM_SUITE_TIMEOUT (a Go duration such as 5m).
var suiteTimeout = 60 * time.Second

func stressEnabled() bool { return os.Getenv("MINIVM_STRESS") == "1" }

func TestConformance(t *testing.T) {
	root := loxsuite.Root(t)
	if s := os.Getenv("MINIVM_SUITE_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("MINIVM_SUITE_TIMEOUT: %v", err)
		}
		suiteTimeout = d
	}
	minivm, err := exec.LookPath("minivm")
	if err != nil {
		t.Fatalf("minivm is not on PATH (TestMain installs it): %v", err)
	}
	tests, skipped := loadSuite(t, root)
	all := configs
	if stressEnabled() {
		all = append(slices.Clip(all), stressConfigs...)
	}
	for _, cfg := range all {
		t.Run(cfg.name, func(t *testing.T) {
			var passed, failed atomic.Int64
			expectations := 0
			t.Run("suite", func(t *testing.T) {
				for _, lt := range tests {
					expectations += lt.expectations
					name := strings.TrimSuffix(strings.TrimPrefix(lt.path, "test/"), ".lox")
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						failures := lt.run(root, minivm, cfg.flags)
						if len(failures) == 0 {
							passed.Add(1)
							return
						}
						failed.Add(1)
						t.Errorf("FAIL %s\n  (cd %s && minivm %s)\n     %s", lt.path, root,
							strings.Join(append(slices.Clip(cfg.flags), lt.path), " "),
							strings.Join(failures, "\n     "))
					})
				}
			})
			t.Logf("suite=minivm flags=%q passed=%d failed=%d skipped=%d expectations=%d",
				cfg.flags, passed.Load(), failed.Load(), skipped, expectations)
		})
	}
}

// Expectation syntax and output matching, as in run_suite.py.
var (
	expectedOutput       = regexp.MustCompile(`// expect: ?(.*)`)
	expectedError        = regexp.MustCompile(`// (Error.*)`)
	errorLine            = regexp.MustCompile(`// \[((java|c) )?line (\d+)\] (Error.*)`)
	expectedRuntimeError = regexp.MustCompile(`// expect runtime error: (.+)`)
	syntaxError          = regexp.MustCompile(`\[.*line (\d+)\] (Error.+)`)
	stackTrace           = regexp.MustCompile(`\[line (\d+)\]`)
	nonTest              = regexp.MustCompile(`// nontest`)
	lineBreak            = regexp.MustCompile(`\r\n|\r|\n`)
)

// suiteStates is run_suite.py's "minivm" suite: everything passes except
// the early chapters and clox's one-byte operand limits.
var suiteStates = map[string]string{
	"test":                              "pass",
	"test/scanning":                     "skip",
	"test/expressions":                  "skip",
	"test/limit/loop_too_large.lox":     "skip",
	"test/limit/no_reuse_constants.lox": "skip",
	"test/limit/too_many_constants.lox": "skip",
	"test/limit/too_many_locals.lox":    "skip",
	"test/limit/too_many_upvalues.lox":  "skip",
}

// suiteLanguage selects "[c line N]" expectations (clox's), not "[java ...]".
const suiteLanguage = "c"

func testState(path string) (string, bool) {
	state, sub := "", ""
	for _, part := range strings.Split(path, "/") {
		if sub == "" {
			sub = part
		} else {
			sub += "/" + part
		}
		if s, ok := suiteStates[sub]; ok {
			state = s
		}
	}
	return state, state != ""
}

// splitLines mimics Dart's LineSplitter: split on \r\n, \r or \n, no
// trailing empty line.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	parts := lineBreak.Split(text, -1)
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

type expectedLine struct {
	line int
	text string
}

// loxTest is one suite file and what it expects.
type loxTest struct {
	path                 string // relative to the suite root, "test/..."
	expectedOutput       []expectedLine
	expectedErrors       map[string]bool
	expectedRuntimeError string
	hasRuntimeError      bool
	runtimeErrorLine     int
	expectedExitCode     int
	expectations         int
}

// loadSuite discovers and parses the runnable tests, as run_suite.py does.
func loadSuite(t *testing.T, root string) (tests []*loxTest, skipped int) {
	var paths []string
	err := filepath.WalkDir(filepath.Join(root, "test"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".lox") {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err == nil && !strings.Contains(rel, "benchmark") {
			paths = append(paths, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		state, ok := testState(path)
		if !ok {
			t.Fatalf("unknown test state for %q", path)
		}
		if state == "skip" {
			skipped++
			continue
		}
		lt := &loxTest{path: path, expectedErrors: map[string]bool{}}
		runnable, err := lt.parse(root)
		if err != nil {
			t.Errorf("TEST ERROR %s: %v", path, err)
			continue
		}
		if runnable {
			tests = append(tests, lt)
		}
	}
	if len(tests) == 0 {
		t.Fatalf("no tests found under %s", root)
	}
	return tests, skipped
}

func (lt *loxTest) parse(root string) (bool, error) {
	data, err := os.ReadFile(filepath.Join(root, lt.path))
	if err != nil {
		return false, err
	}
	for i, line := range splitLines(string(data)) {
		num := i + 1
		if nonTest.MatchString(line) {
			return false, nil
		}
		if m := expectedOutput.FindStringSubmatch(line); m != nil {
			lt.expectedOutput = append(lt.expectedOutput, expectedLine{num, m[1]})
			lt.expectations++
			continue
		}
		if m := expectedError.FindStringSubmatch(line); m != nil {
			lt.expectedErrors[fmt.Sprintf("[%d] %s", num, m[1])] = true
			lt.expectedExitCode = 65
			lt.expectations++
			continue
		}
		if m := errorLine.FindStringSubmatch(line); m != nil {
			if m[2] == "" || m[2] == suiteLanguage {
				lt.expectedErrors[fmt.Sprintf("[%s] %s", m[3], m[4])] = true
				lt.expectedExitCode = 65
				lt.expectations++
			}
			continue
		}
		if m := expectedRuntimeError.FindStringSubmatch(line); m != nil {
			lt.runtimeErrorLine = num
			lt.expectedRuntimeError = m[1]
			lt.hasRuntimeError = true
			lt.expectedExitCode = 70
			lt.expectations++
		}
	}
	if len(lt.expectedErrors) > 0 && lt.hasRuntimeError {
		return false, fmt.Errorf("cannot expect both compile and runtime errors")
	}
	return true, nil
}

// run runs the test and returns its failures (none: it passed).
func (lt *loxTest) run(root, minivm string, flags []string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, minivm, append(slices.Clip(flags), lt.path)...)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr // Stdin nil: /dev/null
	err := cmd.Run()
	if ctx.Err() != nil {
		return []string{fmt.Sprintf("Timed out after %s.", suiteTimeout)}
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			return []string{fmt.Sprintf("Cannot run %s: %v", minivm, err)}
		}
		code = ee.ExitCode()
	}
	var v validation
	out := splitLines(strings.ToValidUTF8(stdout.String(), "\uFFFD"))
	errLines := splitLines(strings.ToValidUTF8(stderr.String(), "\uFFFD"))
	if lt.hasRuntimeError {
		v.runtimeError(lt, errLines)
	} else {
		v.compileErrors(lt, errLines)
	}
	v.exitCode(lt, code, errLines)
	v.output(lt, out)
	return v.failures
}

type validation struct{ failures []string }

func (v *validation) fail(msg string, lines ...string) {
	v.failures = append(v.failures, msg)
	v.failures = append(v.failures, lines...)
}

func (v *validation) runtimeError(lt *loxTest, errLines []string) {
	if len(errLines) < 2 {
		v.fail(fmt.Sprintf("Expected runtime error '%s' and got none.", lt.expectedRuntimeError))
		return
	}
	if errLines[0] != lt.expectedRuntimeError {
		v.fail(fmt.Sprintf("Expected runtime error '%s' and got:", lt.expectedRuntimeError), errLines[0])
	}
	stack := errLines[1:]
	for _, line := range stack {
		if m := stackTrace.FindStringSubmatch(line); m != nil {
			if n, _ := strconv.Atoi(m[1]); n != lt.runtimeErrorLine {
				v.fail(fmt.Sprintf("Expected runtime error on line %d but was on line %d.",
					lt.runtimeErrorLine, n))
			}
			return
		}
	}
	v.fail("Expected stack trace and got:", stack...)
}

// relaxedSyntax is run_suite.py's --relaxed-syntax: a compile error on the
// expected line matches whatever its wording.
var relaxedSyntax = os.Getenv("MINIVM_RELAXED_SYNTAX") == "1"

func (v *validation) compileErrors(lt *loxTest, errLines []string) {
	found := map[string]bool{}
	unexpected := 0
	for _, line := range errLines {
		if m := syntaxError.FindStringSubmatch(line); m != nil {
			e := fmt.Sprintf("[%s] %s", m[1], m[2])
			if relaxedSyntax {
				var sameLine []string
				for want := range lt.expectedErrors {
					if !found[want] && strings.HasPrefix(want, "["+m[1]+"] ") {
						sameLine = append(sameLine, want)
					}
				}
				if len(sameLine) > 0 {
					e = slices.Min(sameLine)
				}
			}
			if lt.expectedErrors[e] {
				found[e] = true
			} else {
				if unexpected < 10 {
					v.fail("Unexpected error:", line)
				}
				unexpected++
			}
		} else if line != "" {
			if unexpected < 10 {
				v.fail("Unexpected output on stderr:", line)
			}
			unexpected++
		}
	}
	if unexpected > 10 {
		v.fail(fmt.Sprintf("(truncated %d more...)", unexpected-10))
	}
	var missing []string
	for e := range lt.expectedErrors {
		if !found[e] {
			missing = append(missing, e)
		}
	}
	slices.Sort(missing)
	for _, e := range missing {
		v.fail("Missing expected error: " + e)
	}
}

func (v *validation) exitCode(lt *loxTest, code int, errLines []string) {
	if code == lt.expectedExitCode {
		return
	}
	if len(errLines) > 10 {
		errLines = append(slices.Clip(errLines[:10]), "(truncated...)")
	}
	v.fail(fmt.Sprintf("Expected return code %d and got %d. Stderr:", lt.expectedExitCode, code), errLines...)
}

func (v *validation) output(lt *loxTest, out []string) {
	if len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	for i, line := range out {
		if i >= len(lt.expectedOutput) {
			v.fail(fmt.Sprintf("Got output '%s' when none was expected.", line))
			continue
		}
		if want := lt.expectedOutput[i]; want.text != line {
			v.fail(fmt.Sprintf("Expected output '%s' on line %d  and got '%s'.", want.text, want.line, line))
		}
	}
	for _, want := range lt.expectedOutput[min(len(out), len(lt.expectedOutput)):] {
		v.fail(fmt.Sprintf("Missing expected output '%s' on line %d.", want.text, want.line))
	}
}

// stressBenchmarks are the allocation-heavy Lox benchmarks
// (../shared/lox/benchmark); TestStressBenchmarks runs each under every
// benchmarkConfigs entry (MINIVM_STRESS=1 only: they take a while).
var stressBenchmarks = []string{"binary_trees", "trees", "instantiation", "zoo"}

var benchmarkConfigs = []config{
	{"breadthFirst-64m", []string{"-Xmx64m", "-Xgc:breadthFirstScanOrdering"}},
	{"hierarchical-64m", []string{"-Xmx64m", "-Xgc:hierarchicalScanOrdering"}},
	{"hierarchical-64m-verify", []string{"-Xmx64m", "-Xmn8m", "-Xgc:hierarchicalScanOrdering", "-Xcheck:gc"}},
	{"recursive-64m", []string{"-Xmx64m", "-Xgc:recursiveScanOrdering"}},
	{"recursive0-64m-verify", []string{"-Xmx64m", "-Xmn8m", "-Xgc:recursiveScanOrdering", "-XXgc:recursiveMaximumInsideCopyDistance=0", "-Xcheck:gc"}},
	// Identical output for 1, 2 and 4 GC threads.
	{"breadthFirst-threads1", []string{"-Xgcthreads1", "-Xmn4m", "-Xgc:breadthFirstScanOrdering"}},
	{"breadthFirst-threads2", []string{"-Xgcthreads2", "-Xmn4m", "-Xgc:breadthFirstScanOrdering"}},
	{"hierarchical-threads4", []string{"-Xgcthreads4", "-Xmn4m", "-Xgc:hierarchicalScanOrdering"}},
	{"recursive-threads1", []string{"-Xgcthreads1", "-Xmn4m", "-Xgc:recursiveScanOrdering"}},
	{"recursive-threads2", []string{"-Xgcthreads2", "-Xmn4m", "-Xgc:recursiveScanOrdering"}},
	{"recursive-threads4-verify", []string{"-Xgcthreads4", "-Xmn4m", "-Xgc:recursiveScanOrdering", "-Xcheck:gc"}},
}

// benchmarkTimeout bounds one benchmark run.
const benchmarkTimeout = 10 * time.Minute

// TestStressBenchmarks runs each benchmark with default flags, then under
// each configuration: every run must exit 0 with nothing on stderr and
// print what the default run printed (but the last line, the elapsed
// time).
func TestStressBenchmarks(t *testing.T) {
	if !stressEnabled() {
		t.Skip("set MINIVM_STRESS=1 to run the benchmarks under GC stress")
	}
	dir := filepath.Join(loxsuite.Root(t), "benchmark")
	minivm, err := exec.LookPath("minivm")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range stressBenchmarks {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			script := filepath.Join(dir, name+".lox")
			want := runBenchmark(t, minivm, nil, script)
			for _, cfg := range benchmarkConfigs {
				if got := runBenchmark(t, minivm, cfg.flags, script); got != want {
					t.Errorf("%s %s printed\n%s\nwant (as with default flags)\n%s", name, cfg.name, got, want)
				}
			}
		})
	}
}

// runBenchmark runs a benchmark and returns its output without the last
// line (the elapsed time).
func runBenchmark(t *testing.T, minivm string, flags []string, script string) string {
	ctx, cancel := context.WithTimeout(context.Background(), benchmarkTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, minivm, append(slices.Clip(flags), script)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("minivm %s: %s", strings.Join(append(slices.Clip(flags), filepath.Base(script)), " "), time.Since(start).Round(time.Millisecond))
	if err != nil || stderr.Len() > 0 {
		t.Errorf("minivm %s: %v\n%s", strings.Join(append(slices.Clip(flags), script), " "), err, stderr.String())
	}
	lines := splitLines(stdout.String())
	if len(lines) > 0 {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
