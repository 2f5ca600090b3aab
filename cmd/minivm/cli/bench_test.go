package cli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The end-to-end paths of bench and gcplot (processes, output formats,
// exit codes) are in testscripts/testdata/bench.txtar and gcplot.txtar;
// these are the pieces.

func TestBenchName(t *testing.T) {
	for in, want := range map[string]string{
		"binary_trees.lox":        "BinaryTrees",
		"dir/linked_list.lox":     "LinkedList",
		"dom-tree.lox":            "DomTree",
		"fib.lox":                 "Fib",
		"3d_points":               "3dPoints",
		"___.lox":                 "Script",
		"/tmp/x/Already_Camel.lx": "AlreadyCamel",
	} {
		if got := benchName(in); got != want {
			t.Errorf("benchName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseBenchConfig(t *testing.T) {
	c, err := parseBenchConfig("evac=-Xgc:recursiveScanOrdering  -Xmn8m")
	if err != nil || c.name != "evac" || !slices.Equal(c.flags, []string{"-Xgc:recursiveScanOrdering", "-Xmn8m"}) {
		t.Errorf("got %+v, %v", c, err)
	}
	if c, err := parseBenchConfig("base="); err != nil || c.name != "base" || len(c.flags) != 0 {
		t.Errorf("empty flags: got %+v, %v", c, err)
	}
	for in, want := range map[string]string{
		"evac":                 "want NAME=FLAGS",
		"=-Xmn8m":              "the name must be",
		"a/b=-Xmn8m":           "the name must be",
		"x=-Xfoo":              "unrecognized option '-Xfoo'",
		"x=-Xmn8m script.lox":  "'script.lox' is not an option",
		"x=-Xmx4m -Xmn4m":      "exceeds half the maximum heap size",
		"x=-help":              "do not run a script",
		"x=-- -Xmn8m":          "'--' is not an option",
		"x=-Xgc:scvTenureAge=": "",
	} {
		_, err := parseBenchConfig(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseBenchConfig(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestParseSubArgs(t *testing.T) {
	var got []string
	set := func(name string) func(string) error {
		return func(v string) error { got = append(got, name+"="+v); return nil }
	}
	flags := map[string]func(string) error{"o": set("o"), "count": set("count")}
	pos, err := parseSubArgs([]string{"a", "-count", "3", "b", "--o=x.png", "-count=4", "--", "-c"}, flags)
	if err != nil || !slices.Equal(pos, []string{"a", "b", "-c"}) ||
		!slices.Equal(got, []string{"count=3", "o=x.png", "count=4"}) {
		t.Errorf("pos %q, flags %q, err %v", pos, got, err)
	}
	if _, err := parseSubArgs([]string{"-x"}, flags); err == nil || err.Error() != "unknown flag '-x'" {
		t.Errorf("unknown flag: %v", err)
	}
	if _, err := parseSubArgs([]string{"a", "-o"}, flags); err == nil || !strings.Contains(err.Error(), "needs a value") {
		t.Errorf("missing value: %v", err)
	}
	if _, err := parseSubArgs([]string{"a", "-help", "-x"}, flags); err != errHelp {
		t.Errorf("-help: %v", err)
	}
}

func TestSig3(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 1203.45: "1203", 70.71: "70.7", 0.1234: "0.123", 5: "5.00", -12.34: "-12.3",
	} {
		if got := sig3(v); got != want {
			t.Errorf("sig3(%v) = %q, want %q", v, got, want)
		}
	}
}

// summarize, the fallback for a stats file without a summary, agrees with
// the summary the heap writes at exit.
func TestSummarizeMatchesFinish(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.lox")
	stats := filepath.Join(dir, "stats.jsonl")
	src := `var keep = nil;
for (var i = 0; i < 20000; i = i + 1) {
  var t = [i, i, [i]];
  if (i / 100 == 0) keep = [t, keep];
}
gc();
`
	if err := os.WriteFile(script, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"-Xmn256k", "-Xgc:statsFile=" + stats, script}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	sf, err := readStatsFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	if !sf.hasSummary {
		t.Fatal("the stats file has no summary object")
	}
	if len(sf.records) < 2 {
		t.Fatalf("want collections, got %d records", len(sf.records))
	}
	got, want := summarize(sf.records), sf.summary
	if got.GCCount != want.GCCount || got.NurseryCount != want.NurseryCount ||
		got.GlobalCount != want.GlobalCount || got.CopiedBytes != want.CopiedBytes {
		t.Errorf("counts: got %+v\nwant %+v", got, want)
	}
	near := func(what string, a, b, tol float64) {
		if math.Abs(a-b) > tol {
			t.Errorf("%s: summarize %v, heap %v", what, a, b)
		}
	}
	near("gc_ms", got.GCMs, want.GCMs, 0.01)
	near("nursery_ms", got.NurseryMs, want.NurseryMs, 0.01)
	near("kb_per_ms", got.KBPerMs, want.KBPerMs, 0.01*want.KBPerMs+0.01)
	near("contain_64", got.Contain64, want.Contain64, 0.01)
	near("contain_128", got.Contain128, want.Contain128, 0.01)
	near("contain_256", got.Contain256, want.Contain256, 0.01)
	near("inside_pct", got.InsidePct, want.InsidePct, 0.01)
}

func TestReadStatsFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"notjson.jsonl": "{\"gc\":0,\"type\":\"nursery\"}\nnope\n",
		"other.jsonl":   "{\"hello\": 1}\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
		if _, err := readStatsFile(p); err == nil || !strings.Contains(err.Error(), "not a stats record") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := readStatsFile(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing: %v", err)
	}
}

// Without valgrind on the PATH, -sim is one line naming the package to
// install, and the usage exit code.
func TestBenchSimNoValgrind(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	script := filepath.Join(t.TempDir(), "s.lox")
	if err := os.WriteFile(script, []byte("print 1;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := runBench([]string{"-sim", script}, &stdout, &stderr)
	want := "minivm bench: -sim needs valgrind's callgrind: exec: \"valgrind\": executable file not found in $PATH (apt-get install valgrind)\n"
	if code != ExitUsage || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q; want exit %d, stderr %q", code, stderr.String(), stdout.String(), ExitUsage, want)
	}
}

func TestParseCacheGeometry(t *testing.T) {
	for in, ok := range map[string]bool{
		"32768,8,64": true, "1048576,16,64": true, "33554432,16,64": true, "12582912,12,64": true,
		"32768,3,64": false, "32768,8,48": false, "32768,8": false, "0,8,64": false,
		"32k,8,64": false, "32768,8,64,1": false, "64,1,8": false,
	} {
		if _, err := parseCacheGeometry("LL", in); (err == nil) != ok {
			t.Errorf("parseCacheGeometry(%q): %v", in, err)
		}
	}
}

func TestCutBoolFlag(t *testing.T) {
	args, ok := cutBoolFlag([]string{"-count", "2", "--sim", "a.lox", "--", "-sim"}, "sim")
	if !ok || !slices.Equal(args, []string{"-count", "2", "a.lox", "--", "-sim"}) {
		t.Errorf("got %q, %v", args, ok)
	}
	if _, ok := cutBoolFlag([]string{"a.lox", "--", "-sim"}, "sim"); ok {
		t.Error("-sim after -- is a script")
	}
}

// The parts callgrind writes at the collections' start and end add up to
// the mutator's and the collector's counts, less the Go scheduler's self
// cost; what comes before the interpreter starts is not counted.
func TestReadSimParts(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cg.out")
	part := func(name, trigger, totals string) {
		// The scheduler's 4 Ir and 1 D1mr are left out; the call line's
		// 3 Ir are f's, not main's; fn=(1) is main again.
		text := "# callgrind format\nversion: 1\ncmd: minivm -Xgc:statsFile=x\n" +
			"desc: D1 cache: 4096 B, 64 B, 2-way associative\ndesc: Trigger: " + trigger +
			"\npositions: line\nevents: Ir D1mr DLmr\n\nfn=(1) main\n5 1 2\ncfn=(2) runtime.schedule\ncalls=1 3\n* 7\n" +
			"fn=(2)\n+1 3 1\nfn=(1)\n6 0\nfn=(3) runtime.schedule'2\n-2 1\n" +
			"totals: " + totals + "\n"
		if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	part(out+".1", "--dump-before="+simStart, "1000 100 10") // start-up: not counted
	part(out+".2", "--dump-before="+simGCStart[0], "50 5 1") // mutator
	part(out+".3", "--dump-before="+simGCStart[1], "20 2")   // nursery, then global
	part(out+".4", "--dump-before="+simGCStart[2], "10 1")   // global
	part(out+".5", "--dump-before="+simGCEnd, "30 3 3")      // global
	part(out+".6", "--dump-before="+simGCEnd, "7 1 0")       // mutator (the summary)
	part(out, "Program termination", "4 1 1")                // mutator
	b := &bench{sim: &simSetup{}}
	c, err := b.readSimParts(out)
	if err != nil {
		t.Fatal(err)
	}
	if m := c.mutator; m["Ir"] != 49 || m["D1mr"] != 4 || m["DLmr"] != 2 {
		t.Errorf("mutator %v", m)
	}
	if g := c.gc; g["Ir"] != 48 || g["D1mr"] != 3 || g["DLmr"] != 3 {
		t.Errorf("gc %v", g)
	}
	if c.collections != 1 {
		t.Errorf("%d collections, want 1", c.collections)
	}
	if b.sim.caches["D1"] != "4096 B, 64 B, 2-way associative" {
		t.Errorf("caches %v", b.sim.caches)
	}
	// A run that ends inside a collection lost the collection's end.
	for i := 3; i <= 6; i++ {
		os.Remove(out + "." + strconv.Itoa(i))
	}
	if _, err := b.readSimParts(out); err == nil || !strings.Contains(err.Error(), "ended inside a collection") {
		t.Errorf("no end: %v", err)
	}
	// A run whose interpreter never started (callgrind lost the trigger)
	// is an error, not zero counts.
	part(out+".1", "--dump-before="+simGCStart[0], "1000 100 10")
	if _, err := b.readSimParts(out); err == nil || !strings.Contains(err.Error(), "stripped") {
		t.Errorf("no start: %v", err)
	}
	if _, err := b.readSimParts(filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), "cannot open") {
		t.Errorf("missing output: %v", err)
	}
}
