package interp

// Language tests are Lox programs with inline expectations, in the format of
// the Crafting Interpreters suite (and checked with the same rules as
// shared/lox/run_suite.py):
//
//	print 1;            // expect: 1
//	nil();              // expect runtime error: Can only call functions and classes.
//	var a = ;           // [line 3] Error at ';': Expect expression.
//	                    // Error at ...: (compile error on this line)
//
// testdata/*.lox are minivm's own tests; TestSuite runs the shared
// conformance suite in-process.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"minivm/internal/loxsuite"
	"minivm/runtime/gc"
)

var (
	expectOutput       = regexp.MustCompile(`// expect: ?(.*)`)
	expectError        = regexp.MustCompile(`// (Error.*)`)
	expectErrorLine    = regexp.MustCompile(`// \[((java|c) )?line (\d+)\] (Error.*)`)
	expectRuntimeError = regexp.MustCompile(`// expect runtime error: (.+)`)
	syntaxError        = regexp.MustCompile(`\[.*line (\d+)\] (Error.+)`)
	stackTraceLine     = regexp.MustCompile(`\[line (\d+)\]`)
	nonTest            = regexp.MustCompile(`// nontest`)
)

// expectations of one test program.
type expectations struct {
	output       []string
	compileErrs  map[string]bool
	runtimeErr   string
	runtimeLine  int
	exitCode     int
	expectations int
}

func parseExpectations(src string) (*expectations, bool) {
	e := &expectations{compileErrs: map[string]bool{}}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i, line := range lines {
		num := i + 1
		if nonTest.MatchString(line) {
			return nil, false
		}
		if m := expectOutput.FindStringSubmatch(line); m != nil {
			e.output = append(e.output, m[1])
			e.expectations++
			continue
		}
		if m := expectError.FindStringSubmatch(line); m != nil {
			e.compileErrs[fmt.Sprintf("[%d] %s", num, m[1])] = true
			e.exitCode = ExitCompileError
			e.expectations++
			continue
		}
		if m := expectErrorLine.FindStringSubmatch(line); m != nil {
			if m[2] == "" || m[2] == "c" {
				e.compileErrs[fmt.Sprintf("[%s] %s", m[3], m[4])] = true
				e.exitCode = ExitCompileError
				e.expectations++
			}
			continue
		}
		if m := expectRuntimeError.FindStringSubmatch(line); m != nil {
			e.runtimeErr = m[1]
			e.runtimeLine = num
			e.exitCode = ExitRuntimeError
			e.expectations++
		}
	}
	return e, true
}

// runLox runs src in a fresh VM and returns its output, errors and exit
// code.
func runLox(t testing.TB, src string, opts Options) (stdout, stderr string, code int) {
	t.Helper()
	var out, errw bytes.Buffer
	opts.Stdout, opts.Stderr = &out, &errw
	vm, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	code = vm.RunScript(src)
	vm.Close()
	return out.String(), errw.String(), code
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// check compares a run with the expectations, with run_suite.py's rules,
// and returns the failures.
func (e *expectations) check(stdout, stderr string, code int) []string {
	var fails []string
	errLines := splitLines(stderr)
	if e.runtimeErr != "" {
		switch {
		case len(errLines) < 2:
			fails = append(fails, fmt.Sprintf("expected runtime error %q and got %q", e.runtimeErr, stderr))
		case errLines[0] != e.runtimeErr:
			fails = append(fails, fmt.Sprintf("expected runtime error %q and got %q", e.runtimeErr, errLines[0]))
		}
		if len(errLines) >= 2 {
			found := false
			for _, l := range errLines[1:] {
				if m := stackTraceLine.FindStringSubmatch(l); m != nil {
					found = true
					if m[1] != fmt.Sprint(e.runtimeLine) {
						fails = append(fails, fmt.Sprintf("expected runtime error on line %d but was on line %s", e.runtimeLine, m[1]))
					}
					break
				}
			}
			if !found {
				fails = append(fails, "expected a stack trace, got "+stderr)
			}
		}
	} else {
		found := map[string]bool{}
		for _, l := range errLines {
			if m := syntaxError.FindStringSubmatch(l); m != nil {
				k := fmt.Sprintf("[%s] %s", m[1], m[2])
				if e.compileErrs[k] {
					found[k] = true
				} else {
					fails = append(fails, "unexpected error: "+l)
				}
			} else if l != "" {
				fails = append(fails, "unexpected output on stderr: "+l)
			}
		}
		var missing []string
		for k := range e.compileErrs {
			if !found[k] {
				missing = append(missing, k)
			}
		}
		sort.Strings(missing)
		for _, k := range missing {
			fails = append(fails, "missing expected error: "+k)
		}
	}
	if code != e.exitCode {
		fails = append(fails, fmt.Sprintf("expected exit code %d and got %d (stderr %q)", e.exitCode, code, stderr))
	}
	out := splitLines(stdout)
	for i, l := range out {
		if i >= len(e.output) {
			fails = append(fails, fmt.Sprintf("got output %q when none was expected", l))
			continue
		}
		if l != e.output[i] {
			fails = append(fails, fmt.Sprintf("expected output %q and got %q", e.output[i], l))
		}
	}
	for i := len(out); i < len(e.output); i++ {
		fails = append(fails, fmt.Sprintf("missing expected output %q", e.output[i]))
	}
	return fails
}

// runFiles runs every test program in files and reports failures.
func runFiles(t *testing.T, files []string, opts Options) (passed int) {
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := parseExpectations(string(src))
		if !ok {
			continue
		}
		stdout, stderr, code := runLox(t, string(src), opts)
		if fails := e.check(stdout, stderr, code); len(fails) > 0 {
			t.Errorf("%s:\n\t%s", f, strings.Join(fails, "\n\t"))
			continue
		}
		passed++
	}
	return passed
}

// Small heaps keep the tests fast (a VM populates its nursery at start) and
// make collections frequent.
var (
	testHeap   = gc.Config{MaxHeap: 64 << 20, NurserySize: 1 << 20, InitialHeap: 8 << 20}
	stressHeap = gc.Config{MaxHeap: 64 << 20, NurserySize: 1 << 20, InitialHeap: 8 << 20, StressInterval: 1, Verify: true}
)

func testdataFiles(t *testing.T) []string {
	files, err := filepath.Glob("testdata/*.lox")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test programs: %v", err)
	}
	return files
}

// TestLox runs minivm's own language tests.
func TestLox(t *testing.T) {
	runFiles(t, testdataFiles(t), Options{Heap: testHeap, Args: []string{"one", "two"}})
}

// TestLoxStress runs them with a collection at every allocation and heap
// verification, under each nursery collector, to flush out missing roots
// and barriers.
func TestLoxStress(t *testing.T) {
	for _, c := range collectors {
		t.Run(string(c), func(t *testing.T) {
			cfg := stressHeap
			cfg.Collector = c
			runFiles(t, testdataFiles(t), Options{Heap: cfg, Args: []string{"one", "two"}})
		})
	}
}

var collectors = []gc.Collector{gc.BreadthFirst, gc.Hierarchical, gc.Recursive}

// suiteSkip: the early chapters' tests (not for a full interpreter) and
// clox's one-byte operand limits, which minivm does not have; the same
// list as run_suite.py --suite minivm.
var suiteSkip = []string{
	"test/scanning/", "test/expressions/",
	"test/limit/loop_too_large.lox", "test/limit/no_reuse_constants.lox",
	"test/limit/too_many_constants.lox", "test/limit/too_many_locals.lox",
	"test/limit/too_many_upvalues.lox",
}

// suiteFiles lists the programs of the conformance suite at root but
// suiteSkip's.
func suiteFiles(t *testing.T, root string) []string {
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "test"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lox") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, s := range suiteSkip {
			if strings.HasPrefix(rel, s) {
				return nil
			}
		}
		files = append(files, path)
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance programs under %s: %v", root, err)
	}
	return files
}

// TestSuite runs the conformance suite in-process with run_suite.py's
// rules. internal/loxsuite finds the suite; without it the test fails.
func TestSuite(t *testing.T) {
	files := suiteFiles(t, loxsuite.Root(t))
	passed := runFiles(t, files, Options{Heap: testHeap})
	t.Logf("suite: %d passed of %d", passed, len(files))
}

// TestSuiteStress runs the suite collecting at every allocation.
func TestSuiteStress(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	files := suiteFiles(t, loxsuite.Root(t))
	for _, c := range collectors {
		t.Run(string(c), func(t *testing.T) {
			cfg := stressHeap
			cfg.Collector = c
			passed := runFiles(t, files, Options{Heap: cfg})
			t.Logf("suite under stress: %d passed of %d", passed, len(files))
		})
	}
}
