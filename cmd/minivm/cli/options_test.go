package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"minivm/runtime/gc"
	"minivm/runtime/gc/xlog"
)

// Every row must carry the setter its kind needs, and nothing else, and
// every spelling must be reachable.
func TestOptionTable(t *testing.T) {
	seen := map[string]bool{}
	for i := range options {
		o := &options[i]
		setters := 0
		for _, set := range []bool{o.flag != nil, o.size != nil, o.num != nil, o.text != nil} {
			if set {
				setters++
			}
		}
		var want bool
		switch o.kind {
		case kindFlag:
			want = o.flag != nil
		case kindSize:
			want = o.size != nil
		case kindInt:
			want = o.num != nil && (o.hi == 0 || o.lo <= o.hi)
		case kindText, kindTail:
			want = o.text != nil
		}
		if !want || setters != 1 {
			t.Errorf("%s: setters do not match its kind", o.name)
		}
		if o.help == "" || !strings.HasPrefix(o.name, "-") {
			t.Errorf("%s: needs help text and a leading '-'", o.name)
		}
		if o.kind != kindFlag && o.meta == "" {
			t.Errorf("%s: a valued option needs a placeholder", o.name)
		}
		for _, n := range append([]string{o.name}, o.aliases...) {
			if seen[n] {
				t.Errorf("%s spelled twice", n)
			}
			seen[n] = true
		}
		if o.kind == kindFlag {
			if got, _ := lookup(o.name); got != o {
				t.Errorf("%s: lookup finds %v", o.name, got)
			}
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[uintptr]string{
		0: "0", 1000: "1000", 1024: "1k", 1536: "1536", 256 << 10: "256k",
		64 << 20: "64m", 1 << 30: "1g", 32 << 30: "32g", 3 << 40: "3t",
	} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// Each option writes its field; defaults come from gc.DefaultConfig, and
// -Xms / -Xmn defaults shrink with -Xmx.
func TestParseSetsConfig(t *testing.T) {
	def := gc.DefaultConfig()
	for _, tc := range []struct {
		args  []string
		check func(c gc.Config) bool
	}{
		{nil, func(c gc.Config) bool {
			return c.MaxHeap == def.MaxHeap && c.InitialHeap == def.InitialHeap &&
				c.NurserySize == def.NurserySize && c.Collector == def.Collector &&
				c.TenureAge == def.TenureAge && c.GCThreads == def.GCThreads &&
				c.StressInterval == 0 && !c.Verify && c.Log == nil && c.StatsFile == nil
		}},
		{[]string{"-Xmx16m"}, func(c gc.Config) bool {
			return c.MaxHeap == 16<<20 && c.InitialHeap == 16<<20 && c.NurserySize == 4<<20
		}},
		{[]string{"-Xmx1m"}, func(c gc.Config) bool { return c.NurserySize == 256<<10 }},
		{[]string{"-Xms8m", "-Xmn4m"}, func(c gc.Config) bool {
			return c.InitialHeap == 8<<20 && c.NurserySize == 4<<20
		}},
		{[]string{"-Xmx16m", "-Xmn8m"}, func(c gc.Config) bool { return c.NurserySize == 8<<20 }},
		{[]string{"-Xmx32g"}, func(c gc.Config) bool { return c.MaxHeap == 32<<30 }},
		{[]string{"-Xgc:breadthFirstScanOrdering"}, func(c gc.Config) bool { return c.Collector == gc.BreadthFirst }},
		{[]string{"-Xgc:breadthFirstScanOrdering", "-Xgc:hierarchicalScanOrdering"}, func(c gc.Config) bool {
			return c.Collector == gc.Hierarchical
		}},
		{[]string{"-Xgc:recursiveScanOrdering"}, func(c gc.Config) bool { return c.Collector == gc.Recursive }},
		{[]string{"-Xgc:scvTenureAge=1"}, func(c gc.Config) bool { return c.TenureAge == 1 }},
		{[]string{"-Xgc:scvTenureAge=14"}, func(c gc.Config) bool { return c.TenureAge == 14 }},
		{[]string{"-Xgc:stress"}, func(c gc.Config) bool { return c.StressInterval == 1 }},
		{[]string{"-Xgc:stress=50"}, func(c gc.Config) bool { return c.StressInterval == 50 }},
		{[]string{"-Xcheck:gc"}, func(c gc.Config) bool { return c.Verify }},
		{[]string{"-Xgcthreads4"}, func(c gc.Config) bool { return c.GCThreads == 4 }},
		{nil, func(c gc.Config) bool {
			return !c.NoTLAB && !c.NoResizeTLAB && c.TLABInitialSize == 0 && c.TLABMaximumSize == 0 &&
				c.TLABWasteTargetPercent == 1 && c.TLABRefillWasteFraction == 64 // HotSpot's
		}},
		{[]string{"-Xgc:tlhInitialSize=2k", "-Xgc:tlhMaximumSize=1M"}, func(c gc.Config) bool {
			return c.TLABInitialSize == 2<<10 && c.TLABMaximumSize == 1<<20
		}},
		{[]string{"-XX:-UseTLAB"}, func(c gc.Config) bool { return c.NoTLAB }},
		{[]string{"-XX:-UseTLAB", "-XX:+UseTLAB"}, func(c gc.Config) bool { return !c.NoTLAB }},
		{[]string{"-XX:-ResizeTLAB"}, func(c gc.Config) bool { return c.NoResizeTLAB }},
		{[]string{"-XX:-ResizeTLAB", "-XX:+ResizeTLAB"}, func(c gc.Config) bool { return !c.NoResizeTLAB }},
		{[]string{"-XX:TLABWasteTargetPercent=100"}, func(c gc.Config) bool { return c.TLABWasteTargetPercent == 100 }},
		{[]string{"-XX:TLABRefillWasteFraction=1"}, func(c gc.Config) bool { return c.TLABRefillWasteFraction == 1 }},
	} {
		inv, err := parse(append(tc.args, "x.lox"))
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !tc.check(inv.cfg) {
			t.Errorf("%q: wrong config %+v", tc.args, inv.cfg)
		}
	}
}

// logged parses a command line, opens its log on buffers and logs a line
// at info for gc and gc,heap and at trace for gc,tlab; it returns what
// stdout, stderr and each file received (uptimes removed), and the
// warnings.
func logged(t *testing.T, args ...string) (map[string]string, []string) {
	t.Helper()
	inv, err := parse(append(args, "x.lox"))
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	bufs := map[string]*bytes.Buffer{"stdout": {}, "stderr": {}}
	l, err := inv.log.Open(bufs["stdout"], bufs["stderr"], func(path string) (io.Writer, error) {
		bufs[path] = &bytes.Buffer{}
		return bufs[path], nil
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	l.Log(xlog.Info, "gc", "pause")
	l.Log(xlog.Info, "gc,heap", "heap")
	l.Log(xlog.Trace, "gc,tlab", "tlab")
	out := map[string]string{}
	for k, b := range bufs {
		out[k] = regexp.MustCompile(`(?m)^\[[0-9.]+s\]`).ReplaceAllString(b.String(), "")
	}
	return out, inv.warnings
}

// The -Xlog options and -verbose:gc reach the outputs they name.
func TestLogOptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want map[string]string
	}{
		{nil, map[string]string{"stdout": "", "stderr": ""}},
		{[]string{"-verbose:gc"}, map[string]string{"stdout": "[info][gc] pause\n", "stderr": ""}},
		{[]string{"-Xlog:gc"}, map[string]string{"stdout": "[info][gc] pause\n", "stderr": ""}},
		{[]string{"-Xlog:gc*"}, map[string]string{"stdout": "[info][gc] pause\n[info][gc,heap] heap\n", "stderr": ""}},
		{[]string{"-Xlog"}, map[string]string{"stdout": "[info][gc] pause\n[info][gc,heap] heap\n", "stderr": ""}},
		{[]string{"-Xlog:gc+tlab=trace:stderr"}, map[string]string{"stdout": "", "stderr": "[trace][gc,tlab] tlab\n"}},
		{[]string{"-Xlog:gc+tlab"}, map[string]string{"stdout": "", "stderr": ""}},
		{[]string{"-Xlog:gc:file=gc.log", "-Xlog:gc+heap:gc.log"}, map[string]string{"stdout": "", "stderr": "", "gc.log": "[info][gc] pause\n[info][gc,heap] heap\n"}},
		{[]string{"-Xlog:gc", "-Xlog:gc+heap:file=h.log::filecount=1"}, map[string]string{"stdout": "[info][gc] pause\n", "stderr": "", "h.log": "[info][gc,heap] heap\n"}},
		{[]string{"-Xlog:gc:stderr", "-Xlog:disable", "-Xlog:gc+heap"}, map[string]string{"stdout": "[info][gc,heap] heap\n", "stderr": ""}},
		{[]string{"-Xlog:gc*", "-Xlog:disable"}, map[string]string{"stdout": "", "stderr": ""}},
		{[]string{"-Xlog:gc::none"}, map[string]string{"stdout": "pause\n", "stderr": ""}},
	} {
		got, _ := logged(t, tc.args...)
		if len(got) != len(tc.want) {
			t.Errorf("%q: outputs %q, want %q", tc.args, got, tc.want)
			continue
		}
		for k, w := range tc.want {
			if got[k] != w {
				t.Errorf("%q: %s got %q, want %q", tc.args, k, got[k], w)
			}
		}
	}
}

// HotSpot's warnings are warnings, naming the option they concern.
func TestLogWarnings(t *testing.T) {
	_, w := logged(t, "-Xlog:heap=debug")
	if len(w) != 1 || w[0] != "-Xlog:heap=debug: selector 'heap' matches no tag set (did you mean 'heap*'?)" {
		t.Errorf("warnings %q", w)
	}
}

func TestParseScriptAndArgs(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		script string
		rest   []string
		action action
	}{
		{nil, "", nil, actRun},
		{[]string{"-Xmx64m"}, "", nil, actRun},
		{[]string{"a.lox"}, "a.lox", []string{}, actRun},
		{[]string{"-Xcheck:gc", "a.lox", "-Xfoo", "b"}, "a.lox", []string{"-Xfoo", "b"}, actRun},
		{[]string{"--", "-a.lox", "x"}, "-a.lox", []string{"x"}, actRun},
		{[]string{"--"}, "", nil, actRun},
		{[]string{"-version", "-Xmx64m"}, "", nil, actVersion},
		{[]string{"-version", "-help", "a.lox"}, "a.lox", []string{}, actVersion},
		{[]string{"-h"}, "", nil, actHelp},
		{[]string{"--help"}, "", nil, actHelp},
		{[]string{"-X"}, "", nil, actListX},
		{[]string{"-Xlog:help"}, "", nil, actXlogHelp},
	} {
		inv, err := parse(tc.args)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if inv.script != tc.script || strings.Join(inv.args, " ") != strings.Join(tc.rest, " ") || inv.action != tc.action {
			t.Errorf("%q: script %q args %q action %d", tc.args, inv.script, inv.args, inv.action)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-Xfoo"}, "unrecognized option '-Xfoo'"},
		{[]string{"-"}, "unrecognized option '-'"},
		{[]string{"-Xmxabc"}, "invalid heap size '-Xmxabc'"},
		{[]string{"-Xmx64g"}, "maximum heap size 64g (-Xmx) exceeds 32g, the limit of compressed references"},
		{[]string{"-Xmx1023k"}, "maximum heap size 1023k (-Xmx) is below the minimum 1m"},
		{[]string{"-Xms2g"}, "initial heap size 2g (-Xms) exceeds the maximum heap size 1g (-Xmx)"},
		{[]string{"-Xmn513m"}, "nursery size 513m (-Xmn) exceeds half the maximum heap size 1g (-Xmx)"},
		{[]string{"-Xmn255k"}, "nursery size 255k (-Xmn) is below the minimum 256k"},
		{[]string{"-Xgc:scvTenureAge=15"}, "-Xgc:scvTenureAge=15 out of range [1, 14]"},
		{[]string{"-Xgc:scvTenureAge=1x"}, "invalid number '-Xgc:scvTenureAge=1x' (want an integer in [1, 14])"},
		{[]string{"-Xgc:stress=0"}, "-Xgc:stress=0 out of range [1, ...]"},
		{[]string{"-Xgcthreads65"}, "-Xgcthreads65 out of range [1, 64]"},
		{[]string{"-Xgc:statsFile="}, "missing value in '-Xgc:statsFile=' (want -Xgc:statsFile=<path>)"},
		{[]string{"-Xlog:gc:file="}, "invalid option '-Xlog:gc:file=': missing file name in output 'file='"},
		{[]string{"-Xlog:gc+foo"}, "invalid option '-Xlog:gc+foo': unknown tag 'foo' in selector 'gc+foo'"},
		{[]string{"-Xlog:gc=loud"}, "invalid option '-Xlog:gc=loud': unknown level 'loud' in selector 'gc=loud' (want off, error, warning, info, debug or trace)"},
		{[]string{"-Xlog:gc::uptime,pids"}, "invalid option '-Xlog:gc::uptime,pids': unknown decorator 'pids'"},
		{[]string{"-Xlog:gc:a.log::filesize=big"}, "invalid option '-Xlog:gc:a.log::filesize=big': invalid output option 'filesize=big' (want a size such as 1048576, 512k, 20m, 1g)"},
		{[]string{"-Xlogfoo"}, "invalid option '-Xlogfoo': want -Xlog or -Xlog:<what>[:<output>[:<decorators>[:<output-options>]]]"},
		{[]string{"-Xlog:help=debug"}, "invalid option '-Xlog:help=debug': unknown tag 'help' in selector 'help=debug'"},
		{[]string{"-XX:TLABWasteTargetPercent=0"}, "-XX:TLABWasteTargetPercent=0 out of range [1, 100]"},
		{[]string{"-XX:TLABWasteTargetPercent=101"}, "-XX:TLABWasteTargetPercent=101 out of range [1, 100]"},
		{[]string{"-XX:TLABWasteTargetPercent=abc"}, "invalid number '-XX:TLABWasteTargetPercent=abc' (want an integer in [1, 100])"},
		{[]string{"-XX:TLABRefillWasteFraction=0"}, "-XX:TLABRefillWasteFraction=0 out of range [1, ...]"},
		{[]string{"-Xgc:tlhInitialSize=1k"}, "invalid option '-Xgc:tlhInitialSize=1k': size 1k out of range [2k, 4g)"},
		{[]string{"-Xgc:tlhMaximumSize=4g"}, "invalid option '-Xgc:tlhMaximumSize=4g': size 4g out of range [2k, 4g)"},
		{[]string{"-Xgc:tlhMaximumSize=x"}, "invalid option '-Xgc:tlhMaximumSize=x': invalid size 'x'"},
		{[]string{"-Xgc:tlhInitialSize=64k", "-Xgc:tlhMaximumSize=32k"},
			"initial TLAB size 64k (-Xgc:tlhInitialSize) exceeds the maximum TLAB size 32k (-Xgc:tlhMaximumSize)"},
		{[]string{"-XX:+UseTLAB=1"}, "unrecognized option '-XX:+UseTLAB=1'"},
		{[]string{"-Xgc:scanCacheMinimumSize=512"}, "invalid option '-Xgc:scanCacheMinimumSize=512': size 512 out of range [1k, 4g)"},
		{[]string{"-Xgc:scanCacheMinimumSize=1028"}, "scan cache minimum size 1028 (-Xgc:scanCacheMinimumSize) is not a multiple of 8"},
		{[]string{"-Xgc:scanCacheMaximumSize=12k"},
			"scan cache maximum size 12k (-Xgc:scanCacheMaximumSize) is not a multiple of the minimum 8k (-Xgc:scanCacheMinimumSize)"},
		{[]string{"-Xgc:scanCacheMinimumSize=1k", "-Xgc:scanCacheMaximumSize=8k", "-XXgc:whitespaceRefreshThreshold=2k"},
			"whitespace refresh threshold 2048 (-XXgc:whitespaceRefreshThreshold) must be a multiple of 8 of at most the scan cache minimum size 1k (-Xgc:scanCacheMinimumSize)"},
		{[]string{"-XXgc:minimumReusableWhitespace=768"},
			"minimum reusable whitespace 768 (-XXgc:minimumReusableWhitespace) must be below the refresh threshold 768 (-XXgc:whitespaceRefreshThreshold)"},
		{[]string{"-XXgc:recursiveStackRemainderDrop=4"}, "-XXgc:recursiveStackRemainderDrop=4 out of range [8, 4096]"},
	} {
		_, err := parse(append(tc.args, "x.lox"))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// The listings show every row with its default.
func TestListings(t *testing.T) {
	var help, x bytes.Buffer
	writeHelp(&help)
	writeXHelp(&x)
	for i := range options {
		o := &options[i]
		out := help.String()
		if o.xopt {
			out = x.String()
		}
		if !strings.Contains(out, "\n  "+o.listName()+" ") {
			t.Errorf("%s missing from its listing", o.name)
		}
	}
	if !strings.Contains(x.String(), "-Xmx<size>") || !strings.Contains(x.String(), "[1g]") {
		t.Errorf("-X listing lacks -Xmx and its default:\n%s", x.String())
	}
}

// Run's own paths: information options, usage errors, unreadable scripts.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args       []string
		code       int
		out, errPr string
	}{
		{[]string{"-version"}, 0, "minivm version " + Version + "\n", ""},
		{[]string{"-help"}, 0, "Usage: minivm", ""},
		{[]string{"-X"}, 0, "The -X options", ""},
		{[]string{"-Xlog:help"}, 0, "Usage: -Xlog[:[what][:[output][:[decorators][:output-options]]]]", ""},
		{[]string{"-Xlog:heap", "-version"}, 0, "minivm version", "minivm: warning: -Xlog:heap: selector 'heap' matches no tag set (did you mean 'heap*'?)\n"},
		{[]string{"-Xfoo"}, ExitUsage, "", "minivm: unrecognized option '-Xfoo'\n"},
		{[]string{filepath.Join(dir, "none.lox")}, ExitIOErr, "", "minivm: cannot open script '" + filepath.Join(dir, "none.lox") + "': no such file or directory\n"},
		{[]string{"-Xgc:statsFile=" + filepath.Join(dir, "no", "s"), "x.lox"}, ExitIOErr, "", "minivm: cannot open script 'x.lox'"},
	} {
		var stdout, stderr bytes.Buffer
		code := Run(tc.args, strings.NewReader(""), &stdout, &stderr)
		if code != tc.code || !strings.HasPrefix(stdout.String(), tc.out) || !strings.HasPrefix(stderr.String(), tc.errPr) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, stdout.String(), stderr.String())
		}
	}
}

// A panic anywhere below Run (here: in the writer the VM prints to) is an
// internal error with exit code 70, never a Go stack dump.
func TestRunRecoversPanics(t *testing.T) {
	script := filepath.Join(t.TempDir(), "p.lox")
	if err := os.WriteFile(script, []byte("print 1;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := Run([]string{script}, strings.NewReader(""), panicWriter{}, &stderr)
	if code != ExitSoftware || !strings.HasPrefix(stderr.String(), "internal error: ") {
		t.Errorf("exit %d, stderr %q; want 70 and an internal error", code, stderr.String())
	}
}

type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("writer exploded") }

// Output files are created before the run and flushed and closed after it.
func TestRunOutputFiles(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.lox")
	stats := filepath.Join(dir, "stats.jsonl")
	log := filepath.Join(dir, "gc.log")
	if err := os.WriteFile(script, []byte("gc();\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Run([]string{"-Xgc:statsFile=" + stats, "-Xlog:gc:file=" + log, script}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, p := range []string{stats, log} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
}

// The README's option table lists exactly the options of the table.
func TestREADMEOptions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `-") {
			continue
		}
		first := strings.Split(line, "|")[1]
		for _, f := range strings.Split(first, ",") {
			documented[strings.Trim(f, " `")] = true
		}
	}
	for i := range options {
		o := &options[i]
		for _, n := range append([]string{o.spelling()}, o.aliases...) {
			if !documented[n] {
				t.Errorf("README's option table lacks %s", n)
			}
			delete(documented, n)
		}
	}
	for n := range documented {
		t.Errorf("README documents %s, which is not an option", n)
	}
}

// An empty argument is a script name (which cannot be opened), not the
// absence of a script (the REPL).
func TestParseEmptyScriptName(t *testing.T) {
	for _, args := range [][]string{{"", "a"}, {"-Xmx64m", "--", ""}} {
		inv, err := parse(args)
		if err != nil || !inv.hasScript || inv.script != "" {
			t.Errorf("%q: %+v, %v", args, inv, err)
		}
	}
	if inv, err := parse([]string{"-Xmx64m"}); err != nil || inv.hasScript {
		t.Errorf("no script: %+v, %v", inv, err)
	}
}
