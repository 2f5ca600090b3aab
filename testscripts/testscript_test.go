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
//	jsonl-keys file records|nursery|global|summary key...
//	    file is JSON Lines: every line but the last (records), those of
//	    one "type" (nursery, global) or the last line (summary) is an
//	    object with exactly these keys; at least one line is checked
//	benchresults file n config...
//	    file is Go benchmark format (golang.org/x/perf/benchfmt, as
//	    benchstat reads it) without syntax errors, holding n results named
//	    Benchmark<Name>/config=<config>, n/len(configs) per configuration,
//	    each with an iteration count and value-unit pairs including ns/op,
//	    and Unit lines marking gc-KB/ms and contain64-% better=higher
//	simresults file maxpct config...
//	    file is the Go benchmark format of minivm bench -sim, one result
//	    per configuration, every count within maxpct% of the first
//	    configuration's (cmd_sim_test.go)
//	imagefile file png|svg
//	    file decodes as a PNG image, or parses as XML whose root is <svg>,
//	    of non-zero size
//	repeat file prefix piece n suffix
//	    write prefix, n copies of piece, then suffix to file; \n and \t in
//	    the three texts are a newline and a tab (large inputs are made
//	    by the script rather than kept in the repository)
//	runs N S command [args...]
//	    run command N times, each exiting with status S, and check that
//	    every run prints the same stdout (cmd_runs_test.go)
//
// Run one suite with: go test ./testscripts -run 'TestScripts/cli_errors'
package testscripts

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/perf/benchfmt"

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
		Cmds: scriptCmds,
	})
}

// scriptCmds are the commands scripts can use besides testscript's own.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"status":       cmdStatus,
	"jsonl-keys":   cmdJSONLKeys,
	"benchresults": cmdBenchResults,
	"imagefile":    cmdImageFile,
	"repeat":       cmdRepeat,
}

// cmdRepeat: repeat file prefix piece n suffix
func cmdRepeat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: repeat file prefix piece n suffix")
	}
	n, err := strconv.Atoi(args[3])
	if err != nil || n < 0 {
		ts.Fatalf("repeat: bad count %q", args[3])
	}
	unescape := strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace
	var b strings.Builder
	b.WriteString(unescape(args[1]))
	b.WriteString(strings.Repeat(unescape(args[2]), n))
	b.WriteString(unescape(args[4]))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o666))
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

// cmdJSONLKeys: jsonl-keys file records|nursery|global|summary key...
func cmdJSONLKeys(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || !slices.Contains([]string{"records", "nursery", "global", "summary"}, args[1]) {
		ts.Fatalf("usage: jsonl-keys file records|nursery|global|summary key...")
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
	checked := 0
	for _, line := range check {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			ts.Fatalf("%s: not a JSON object: %v\n%s", args[0], err, line)
		}
		if t := args[1]; (t == "nursery" || t == "global") && obj["type"] != t {
			continue
		}
		checked++
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
	if checked == 0 {
		ts.Fatalf("%s: no %s line", args[0], args[1])
	}
}

// configResult is a benchmark result named Name/config=CONFIG.
type configResult struct {
	config string
	*benchfmt.Result
}

// benchConfigResults reads file, Go benchmark format without syntax
// errors, whose every result is named Name/config=CONFIG, and returns the
// results and the Unit lines.
func benchConfigResults(ts *testscript.TestScript, file string) ([]configResult, benchfmt.UnitMetadataMap) {
	var results []configResult
	units := benchfmt.UnitMetadataMap{}
	r := benchfmt.NewReader(strings.NewReader(ts.ReadFile(file)), file)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			ts.Fatalf("%v", rec)
		case *benchfmt.UnitMetadata:
			units[rec.UnitMetadataKey] = rec
		case *benchfmt.Result:
			base, parts := rec.Name.Parts()
			if len(base) == 0 || len(parts) != 1 || !strings.HasPrefix(string(parts[0]), "/config=") {
				ts.Fatalf("%s: result name %q is not Name/config=NAME", file, rec.Name)
			}
			results = append(results, configResult{strings.TrimPrefix(string(parts[0]), "/config="), rec.Clone()})
		}
	}
	ts.Check(r.Err())
	return results, units
}

// cmdBenchResults: benchresults file n config...
func cmdBenchResults(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: benchresults file n config...")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	configs := args[2:]
	perConfig := map[string]int{}
	results, units := benchConfigResults(ts, args[0])
	n := len(results)
	for _, rec := range results {
		perConfig[rec.config]++
		if rec.Iters < 1 || len(rec.Values) < 2 {
			ts.Fatalf("%s: result %q: %d iterations, %d values", args[0], rec.Name, rec.Iters, len(rec.Values))
		}
		if _, ok := rec.Value("sec/op"); !ok { // benchfmt tidies ns/op
			ts.Fatalf("%s: result %q has no ns/op", args[0], rec.Name)
		}
	}
	if n != want {
		ts.Fatalf("%s: %d results, want %d", args[0], n, want)
	}
	for _, c := range configs {
		if perConfig[c] != want/len(configs) {
			ts.Fatalf("%s: %d results for config=%s, want %d", args[0], perConfig[c], c, want/len(configs))
		}
	}
	if len(perConfig) != len(configs) {
		ts.Fatalf("%s: results for configs %v, want %v", args[0], perConfig, configs)
	}
	for _, u := range []string{"gc-KB/ms", "contain64-%"} {
		if units.GetBetter(u) != 1 {
			ts.Fatalf("%s: no 'Unit %s better=higher' line", args[0], u)
		}
	}
}

// cmdImageFile: imagefile file png|svg
func cmdImageFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[1] != "png" && args[1] != "svg") {
		ts.Fatalf("usage: imagefile file png|svg")
	}
	data := []byte(ts.ReadFile(args[0]))
	if args[1] == "png" {
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			ts.Fatalf("%s: not a PNG image: %v", args[0], err)
		}
		if b := img.Bounds(); b.Dx() == 0 || b.Dy() == 0 {
			ts.Fatalf("%s: empty PNG image", args[0])
		}
		return
	}
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
		Height  string `xml:"height,attr"`
	}
	if err := xml.Unmarshal(data, &root); err != nil {
		ts.Fatalf("%s: not XML: %v", args[0], err)
	}
	if root.XMLName.Local != "svg" || root.Width == "" || root.Height == "" {
		ts.Fatalf("%s: root element <%s width=%q height=%q>, want <svg> with a size",
			args[0], root.XMLName.Local, root.Width, root.Height)
	}
}
