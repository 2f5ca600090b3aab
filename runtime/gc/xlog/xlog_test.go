package xlog

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// run applies the -Xlog options specs (the text after "-Xlog:", "!disable"
// for -Xlog:disable, "!verbose" for -verbose:gc) to a fresh Config, opens
// it on buffers and logs one line per tag set at every level. It returns
// what each output received: "stdout", "stderr" and each file path.
func run(t *testing.T, specs ...string) (map[string]string, []string) {
	t.Helper()
	c := NewConfig()
	var warnings []string
	for _, s := range specs {
		switch s {
		case "!disable":
			c.Disable()
		case "!verbose":
			c.VerboseGC()
		default:
			w, err := c.Parse(s)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			warnings = append(warnings, w...)
		}
	}
	bufs := map[string]*bytes.Buffer{"stdout": {}, "stderr": {}}
	l, err := c.Open(bufs["stdout"], bufs["stderr"], func(path string) (io.Writer, error) {
		bufs[path] = &bytes.Buffer{}
		return bufs[path], nil
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range tagSets {
		for lv := Error; lv <= Trace; lv++ {
			l.Log(lv, ts.label, "msg")
		}
	}
	out := map[string]string{}
	for k, b := range bufs {
		out[k] = b.String()
	}
	return out, warnings
}

// lines returns the "level tags" of each line, decorations stripped.
func lines(s string) string {
	var b []string
	re := regexp.MustCompile(`^\[[0-9.]+s\]\[(\w+)\]\[([\w,]+)\] msg$`)
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if line == "" {
			continue
		}
		m := re.FindStringSubmatch(line)
		if m == nil {
			b = append(b, "?"+line)
			continue
		}
		b = append(b, m[1]+" "+m[2])
	}
	return strings.Join(b, "; ")
}

func TestSelections(t *testing.T) {
	for _, tc := range []struct {
		spec, want string
	}{
		// Exact tag sets, at info by default.
		{"gc", "error gc; warning gc; info gc"},
		{"gc+tlab", "error gc,tlab; warning gc,tlab; info gc,tlab"},
		{"tlab+gc", "error gc,tlab; warning gc,tlab; info gc,tlab"},
		{"heap+exit+gc", "error gc,heap,exit; warning gc,heap,exit; info gc,heap,exit"},
		{"safepoint", "error safepoint; warning safepoint; info safepoint"},
		// Levels.
		{"gc=off", ""},
		{"gc=error", "error gc"},
		{"gc=warning", "error gc; warning gc"},
		{"gc=info", "error gc; warning gc; info gc"},
		{"gc=debug", "error gc; warning gc; info gc; debug gc"},
		{"gc=trace", "error gc; warning gc; info gc; debug gc; trace gc"},
		{"gc=TRACE", "error gc; warning gc; info gc; debug gc; trace gc"},
		// Wildcards: every tag set containing the tags.
		{"gc+heap*=error", "error gc,heap; error gc,heap,exit"},
		{"heap*=error", "error gc,heap; error gc,heap,exit"},
		{"exit*=error", "error gc,heap,exit"},
		{"all=error", "error gc; error gc,init; error gc,stats; error gc,heap; error gc,heap,exit; error gc,age; error gc,phases; error gc,tlab; error gc,metadata; error gc,pretouch; error safepoint"},
		{"gc*=error", "error gc; error gc,init; error gc,stats; error gc,heap; error gc,heap,exit; error gc,age; error gc,phases; error gc,tlab; error gc,metadata; error gc,pretouch"},
		// Lists: the last matching selection wins.
		{"gc*=error,gc+tlab=off", "error gc; error gc,init; error gc,stats; error gc,heap; error gc,heap,exit; error gc,age; error gc,phases; error gc,metadata; error gc,pretouch"},
		{"gc+tlab=off,gc*=error", "error gc; error gc,init; error gc,stats; error gc,heap; error gc,heap,exit; error gc,age; error gc,phases; error gc,tlab; error gc,metadata; error gc,pretouch"},
		{"gc=error,safepoint=error", "error gc; error safepoint"},
		{"all=off,gc+age=trace", "error gc,age; warning gc,age; info gc,age; debug gc,age; trace gc,age"},
	} {
		out, _ := run(t, "!disable", tc.spec)
		if got := lines(out["stdout"]); got != tc.want {
			t.Errorf("-Xlog:%s: got %q, want %q", tc.spec, got, tc.want)
		}
	}
}

// Without options stdout logs all=warning; a bare -Xlog is all=info;
// -Xlog:disable turns off the default and everything before it.
func TestDefaultsAndDisable(t *testing.T) {
	out, _ := run(t)
	if got := lines(out["stdout"]); strings.Count(got, "warning ") != len(tagSets) || strings.Contains(got, "info") {
		t.Errorf("default: %q", got)
	}
	out, _ = run(t, "")
	if got := lines(out["stdout"]); strings.Count(got, "info ") != len(tagSets) || strings.Contains(got, "debug") {
		t.Errorf("bare -Xlog: %q", got)
	}
	out, _ = run(t, "gc:stderr", "gc:file=a.log", "!disable")
	if len(out) != 2 || out["stdout"] != "" || out["stderr"] != "" {
		t.Errorf("disable: %q", out)
	}
	out, _ = run(t, "!disable", "gc=error:stderr")
	if out["stdout"] != "" || lines(out["stderr"]) != "error gc" {
		t.Errorf("disable then stderr: %q", out)
	}
}

// -verbose:gc is gc=info on stdout with stdout's decorators.
func TestVerboseGC(t *testing.T) {
	out, _ := run(t, "!disable", "!verbose")
	if got := lines(out["stdout"]); got != "error gc; warning gc; info gc" {
		t.Errorf("-verbose:gc: %q", got)
	}
	out, _ = run(t, "!disable", "safepoint::none", "!verbose")
	if out["stdout"] != "msg\nmsg\nmsg\nmsg\nmsg\nmsg\n" {
		t.Errorf("-verbose:gc after decorators none: %q", out["stdout"])
	}
}

// Several options add outputs, each with its own selection and
// decorators; naming an output again reconfigures it.
func TestOutputs(t *testing.T) {
	out, _ := run(t, "!disable", "gc=error", "gc+heap=error:stderr", "gc+age=error:file=age.log", "safepoint=error:sp.log", `gc+tlab=error:file="a:b.log"`)
	want := map[string]string{"stdout": "error gc", "stderr": "error gc,heap", "age.log": "error gc,age", "sp.log": "error safepoint", "a:b.log": "error gc,tlab"}
	if len(out) != len(want) {
		t.Errorf("outputs %q", out)
	}
	for k, w := range want {
		if got := lines(out[k]); got != w {
			t.Errorf("%s: %q, want %q", k, got, w)
		}
	}
	// Reconfiguring: gc keeps its level, gc+heap is added, the
	// decorators are replaced; file= and the bare path are one output.
	out, _ = run(t, "!disable", "gc=error:file=x.log", "gc+heap=error:x.log:level")
	if out["x.log"] != "[error] msg\n[error] msg\n" {
		t.Errorf("reconfigured file: %q", out["x.log"])
	}
	// An output whose every tag set is turned off is dropped.
	out, _ = run(t, "!disable", "gc:file=y.log", "gc=off:y.log")
	if _, ok := out["y.log"]; ok {
		t.Errorf("unused file output created: %q", out)
	}
}

func TestDecorators(t *testing.T) {
	pid := strconv.Itoa(os.Getpid())
	host, _ := os.Hostname()
	for _, tc := range []struct {
		deco, re string
	}{
		{"", `^\[[0-9]+\.[0-9]{3}s\]\[error\]\[gc\] msg$`},
		{"uptime,level,tags", `^\[[0-9]+\.[0-9]{3}s\]\[error\]\[gc\] msg$`},
		{"none", `^msg$`},
		{"NONE", `^msg$`},
		{"time", `^\[20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}[+-][0-9]{4}\] msg$`},
		{"t", `^\[20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}[+-][0-9]{4}\] msg$`},
		{"utctime", `^\[20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}\+0000\] msg$`},
		{"utc", `^\[20[0-9-]{8}T[0-9:.]{12}\+0000\] msg$`},
		{"uptime", `^\[[0-9]+\.[0-9]{3}s\] msg$`},
		{"u", `^\[[0-9]+\.[0-9]{3}s\] msg$`},
		{"timemillis", `^\[1[0-9]{12}ms\] msg$`},
		{"tm", `^\[1[0-9]{12}ms\] msg$`},
		{"uptimemillis", `^\[[0-9]+ms\] msg$`},
		{"um", `^\[[0-9]+ms\] msg$`},
		{"timenanos", `^\[[0-9]+ns\] msg$`},
		{"tn", `^\[[0-9]+ns\] msg$`},
		{"uptimenanos", `^\[[0-9]+ns\] msg$`},
		{"un", `^\[[0-9]+ns\] msg$`},
		{"hostname", `^\[` + regexp.QuoteMeta(host) + `\] msg$`},
		{"hn", `^\[` + regexp.QuoteMeta(host) + `\] msg$`},
		{"pid", `^\[` + pid + `\] msg$`},
		{"p", `^\[` + pid + `\] msg$`},
		{"tid", `^\[[0-9]+\] msg$`},
		{"ti", `^\[[0-9]+\] msg$`},
		{"level", `^\[error\] msg$`},
		{"l", `^\[error\] msg$`},
		{"tags", `^\[gc\] msg$`},
		{"tg", `^\[gc\] msg$`},
		// HotSpot's order, whatever the order given.
		{"tags,level,pid,uptime,utc", `^\[20[0-9-]{8}T[0-9:.]{12}\+0000\]\[[0-9.]+s\]\[` + pid + `\]\[error\]\[gc\] msg$`},
		{"tg,l,ti,p,hn,un,tn,um,tm,u,utc,t", `^\[[^]]+[+-][0-9]{4}\]\[[^]]+\+0000\]\[[0-9.]+s\]\[[0-9]+ms\]\[[0-9]+ms\]\[[0-9]+ns\]\[[0-9]+ns\]\[` + regexp.QuoteMeta(host) + `\]\[` + pid + `\]\[[0-9]+\]\[error\]\[gc\] msg$`},
	} {
		out, _ := run(t, "!disable", "gc=error::"+tc.deco)
		if got := strings.TrimSuffix(out["stdout"], "\n"); !regexp.MustCompile(tc.re).MatchString(got) {
			t.Errorf("decorators %q: %q does not match %s", tc.deco, got, tc.re)
		}
	}
}

// The uptime decorators count from the start Open is given.
func TestUptime(t *testing.T) {
	c := NewConfig()
	c.Disable()
	if _, err := c.Parse("gc::uptime,uptimemillis"); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	l, _ := c.Open(&b, nil, nil, time.Now().Add(-1500*time.Millisecond))
	l.Log(Info, "gc", "x")
	if !regexp.MustCompile(`^\[1\.5[0-9]{2}s\]\[15[0-9]{2}ms\] x\n$`).MatchString(b.String()) {
		t.Errorf("uptime: %q", b.String())
	}
}

func TestTid(t *testing.T) {
	out, _ := run(t, "!disable", "gc=error::tid")
	if want := "[" + strconv.Itoa(unix.Gettid()) + "] msg\n"; out["stdout"] != want {
		t.Errorf("tid: %q, want %q", out["stdout"], want)
	}
}

func TestFileNameExpansion(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 10, 0, 0, time.UTC)
	host, _ := os.Hostname()
	got := expandPath("gc-%p-%t-%hn-%x%.log", start)
	if want := "gc-" + strconv.Itoa(os.Getpid()) + "-2026-12-01_18-10-00-" + host + "-%x%.log"; got != want {
		t.Errorf("expandPath: %q, want %q", got, want)
	}
}

func TestWarnings(t *testing.T) {
	for _, tc := range []struct {
		specs []string
		want  string
	}{
		{[]string{"heap"}, "selector 'heap' matches no tag set (did you mean 'heap*'?)"},
		{[]string{"gc+init+tlab"}, "selector 'gc+init+tlab' matches no tag set"},
		{[]string{"tlab*"}, ""},
		{[]string{"gc:stdout:uptime:foldmultilines=true:extra"}, "text after the fourth colon is ignored: 'extra'"},
		{[]string{"gc:file=a.log::filecount=2", "gc+heap:a.log::filesize=1m"}, "output 'file=a.log' exists: its output options are ignored"},
		{[]string{"gc:stderr::foldmultilines=true", "gc+heap:stderr::foldmultilines=false"}, "output 'stderr' exists: its output options are ignored"},
	} {
		_, w := run(t, append([]string{"!disable"}, tc.specs...)...)
		if got := strings.Join(w, "; "); got != tc.want {
			t.Errorf("%q: warnings %q, want %q", tc.specs, got, tc.want)
		}
	}
}

func TestOutputOptions(t *testing.T) {
	c := NewConfig()
	for _, spec := range []string{
		"gc:file=a.log::filecount=0",
		"gc:file=b.log::filecount=1000,filesize=0",
		"gc:file=c.log::filesize=20m,filecount=5,foldmultilines=false",
		"gc:d.log::filesize=1G",
		"gc:e.log::filesize=4096",
		"gc:stdout::foldmultilines=true",
	} {
		if _, err := c.Parse(spec); err != nil {
			t.Errorf("%q: %v", spec, err)
		}
	}
}

// Every malformed form is an error naming the bad part, and leaves the
// configuration unchanged.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		spec, want string
	}{
		{"foo", "unknown tag 'foo' in selector 'foo'"},
		{"gc+foo", "unknown tag 'foo' in selector 'gc+foo'"},
		{"gc+tlabs", "unknown tag 'tlabs' in selector 'gc+tlabs'"},
		{"disable:stderr", "unknown tag 'disable' in selector 'disable'"},
		{"gc*+heap", "unknown tag 'gc*' in selector 'gc*+heap'"},
		{"gc**", "unknown tag 'gc*' in selector 'gc**'"},
		{"*", "empty tag in selector '*'"},
		{"gc+", "empty tag in selector 'gc+'"},
		{"+gc", "empty tag in selector '+gc'"},
		{"gc++heap", "empty tag in selector 'gc++heap'"},
		{"gc+gc", "selector 'gc+gc' names tag 'gc' twice"},
		{"gc,", "empty selector"},
		{",gc", "empty selector"},
		{"gc,,heap", "empty selector"},
		{"gc=", "unknown level '' in selector 'gc=' (want off, error, warning, info, debug or trace)"},
		{"gc=verbose", "unknown level 'verbose' in selector 'gc=verbose' (want off, error, warning, info, debug or trace)"},
		{"gc=info=debug", "unknown level 'info=debug' in selector 'gc=info=debug' (want off, error, warning, info, debug or trace)"},
		{"=info", "empty tag in selector '=info'"},
		{"all*", "unknown tag 'all' in selector 'all*'"},
		{"gc:file=", "missing file name in output 'file='"},
		{`gc:file=""`, `missing file name in output 'file=""'`},
		{"gc:socket=x", "invalid output 'socket=x' (want stdout, stderr, file=PATH or PATH)"},
		{`gc:"a:b`, `unterminated quote in '"a:b'`},
		{`gc:file=a"b"`, `output 'file=a"b"' is partly quoted (quote the whole file name)`},
		{`gc:"a"b`, `output '"a"b' is partly quoted (quote the whole file name)`},
		{"gc::uptim", "unknown decorator 'uptim'"},
		{"gc::uptime,", "empty decorator in 'uptime,'"},
		{"gc::,level", "empty decorator in ',level'"},
		{"gc::none,level", "unknown decorator 'none'"},
		{"gc:a.log::filecount=", "invalid output option 'filecount=' (want key=value)"},
		{"gc:a.log::filecount", "invalid output option 'filecount' (want key=value)"},
		{"gc:a.log::filecount=x", "invalid output option 'filecount=x' (want a count in [0, 1000])"},
		{"gc:a.log::filecount=-1", "invalid output option 'filecount=-1' (want a count in [0, 1000])"},
		{"gc:a.log::filecount=1001", "invalid output option 'filecount=1001' (want a count in [0, 1000])"},
		{"gc:a.log::filesize=1x", "invalid output option 'filesize=1x' (want a size such as 1048576, 512k, 20m, 1g)"},
		{"gc:a.log::filesize=k", "invalid output option 'filesize=k' (want a size such as 1048576, 512k, 20m, 1g)"},
		{"gc:a.log::filesize=+1", "invalid output option 'filesize=+1' (want a size such as 1048576, 512k, 20m, 1g)"},
		{"gc:a.log::filesize=99999999999G", "invalid output option 'filesize=99999999999G' (want a size such as 1048576, 512k, 20m, 1g)"},
		{"gc:a.log::filecount=1,", "invalid output option '' (want key=value)"},
		{"gc:a.log::rotate=1", "invalid output option 'rotate=1' (want filecount=, filesize= or foldmultilines=)"},
		{"gc:a.log::foldmultilines=yes", "invalid output option 'foldmultilines=yes' (want true or false)"},
		{"gc:stdout::filecount=1", "output option 'filecount=1' is for file outputs only"},
		{"gc:stderr::filesize=1m", "output option 'filesize=1m' is for file outputs only"},
	} {
		c := NewConfig()
		before := len(c.outputs)
		_, err := c.Parse(tc.spec)
		if err == nil || err.Error() != tc.want {
			t.Errorf("-Xlog:%s: error %v, want %q", tc.spec, err, tc.want)
		}
		if len(c.outputs) != before || c.outputs[0].levels[0] != Warning {
			t.Errorf("-Xlog:%s: a failed option changed the configuration", tc.spec)
		}
	}
}

func TestUnregisteredTagSetPanics(t *testing.T) {
	l, _ := NewLogger(io.Discard, "all")
	defer func() {
		if recover() == nil {
			t.Error("no panic for an unregistered tag set")
		}
	}()
	l.Enabled(Info, "gc,foo")
}

func TestHelp(t *testing.T) {
	var b bytes.Buffer
	WriteHelp(&b)
	help := b.String()
	for _, want := range []string{"Usage: -Xlog[:[what][:[output][:[decorators][:output-options]]]]",
		"off, error, warning, info, debug, trace", "uptimemillis (um)", "filecount=", "filesize=", "does not rotate", "-Xlog:disable"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	for _, ts := range tagSets {
		if !strings.Contains(help, " "+ts.label+": ") {
			t.Errorf("help lacks tag set %s", ts.label)
		}
	}
	for _, tag := range tags {
		if !strings.Contains(help, tag) {
			t.Errorf("help lacks tag %s", tag)
		}
	}
}
