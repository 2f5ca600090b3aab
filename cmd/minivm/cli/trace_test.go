package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// traceTestScript is a small dom_tree on two mutator threads: documents of
// elements with wide child arrays, every eighth kept alive.
const traceTestScript = `
class Element {
  init(tag, depth) {
    this.tag = tag;
    this.attributes = [["id", str(depth)], ["class", "c" + tag]];
    if (depth == 0) {
      this.children = [];
    } else {
      this.children = Array(8);
      for (var i = 0; i < 8; i = i + 1) {
        this.children[i] = Element(tag + str(i), depth - 1);
      }
    }
  }
}
fun build() {
  var live = [];
  var keepEvery = 1;
  for (var round = 0; round < 30; round = round + 1) {
    var doc = Element("d", 3);
    keepEvery = keepEvery - 1;
    if (keepEvery == 0) {
      live = [live, doc];
      keepEvery = 8;
    }
  }
  return live;
}
var t = spawn(build);
build();
join(t);
gc();
print "done";
`

// rawTraceEvent is a trace event as the format defines it; times are kept
// as written, for exact comparison.
type rawTraceEvent struct {
	Name string                     `json:"name"`
	Ph   string                     `json:"ph"`
	Pid  *int                       `json:"pid"`
	Tid  *int                       `json:"tid"`
	Ts   *json.Number               `json:"ts"`
	Dur  *json.Number               `json:"dur"`
	Args map[string]json.RawMessage `json:"args"`
}

// nanos converts a microsecond timestamp written with up to three
// decimals to integer nanoseconds.
func nanos(t *testing.T, n json.Number) int64 {
	t.Helper()
	whole, frac, _ := strings.Cut(string(n), ".")
	if len(frac) > 3 {
		t.Fatalf("timestamp %s: more than nanosecond precision", n)
	}
	frac += strings.Repeat("0", 3-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("timestamp %s: not a decimal number", n)
	}
	return w*1000 + f
}

type span struct {
	name       string
	tid        int
	gc         int // -1 when the span names no collection
	start, end int64
}

// TestTraceFile runs the script with two GC workers and checks its trace
// against the format and against the stats file: a named track per GC
// worker, spans properly nested on every track, every collection of the
// stats file as a span, its phases inside it, and each worker's spans of
// a collection inside that worker's run.
func TestTraceFile(t *testing.T) {
	for name, collector := range map[string][]string{"scavenger": nil, "evacuator": {"-Xgc:recursiveScanOrdering"}} {
		t.Run(name, func(t *testing.T) { testTraceFile(t, collector) })
	}
}

func testTraceFile(t *testing.T, options []string) {
	dir := t.TempDir()
	script := filepath.Join(dir, "dom.lox")
	if err := os.WriteFile(script, []byte(traceTestScript), 0o644); err != nil {
		t.Fatal(err)
	}
	tracePath, statsPath := filepath.Join(dir, "trace.json"), filepath.Join(dir, "stats.jsonl")
	var stdout, stderr bytes.Buffer
	args := append(options, "-Xgcthreads2", "-Xmn1m", "-Xgc:traceFile="+tracePath, "-Xgc:statsFile="+statsPath, script)
	code := Run(args, nil, &stdout, &stderr)
	if code != 0 || stdout.String() != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}

	data, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var trace struct {
		TraceEvents []rawTraceEvent `json:"traceEvents"`
	}
	if err := dec.Decode(&trace); err != nil {
		t.Fatalf("trace is not JSON: %v", err)
	}
	if dec.More() {
		t.Fatal("trace: data after the JSON object")
	}

	names := map[int]string{}
	var spans []span
	used := map[int]bool{}
	counters := 0
	for i, e := range trace.TraceEvents {
		if e.Name == "" || e.Pid == nil || e.Tid == nil {
			t.Fatalf("event %d: missing name, pid or tid: %+v", i, e)
		}
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				var n string
				if err := json.Unmarshal(e.Args["name"], &n); err != nil || n == "" {
					t.Fatalf("event %d: thread_name without a name", i)
				}
				names[*e.Tid] = n
			}
			continue
		case "X":
			if e.Ts == nil || e.Dur == nil {
				t.Fatalf("event %d: complete event without ts or dur", i)
			}
			s := span{name: e.Name, tid: *e.Tid, gc: -1, start: nanos(t, *e.Ts)}
			s.end = s.start + nanos(t, *e.Dur)
			if s.end < s.start {
				t.Fatalf("event %d (%s): negative duration", i, e.Name)
			}
			if raw, ok := e.Args["gc"]; ok {
				if err := json.Unmarshal(raw, &s.gc); err != nil {
					t.Fatalf("event %d: bad gc arg", i)
				}
			}
			spans = append(spans, s)
		case "C":
			counters++
		case "i":
		default:
			t.Fatalf("event %d: unexpected phase %q", i, e.Ph)
		}
		if e.Ts == nil {
			t.Fatalf("event %d (%s): no ts", i, e.Name)
		}
		used[*e.Tid] = true
	}
	for tid := range used {
		if names[tid] == "" {
			t.Errorf("track %d has events but no thread_name", tid)
		}
	}
	var workers, mutators []int
	for tid, n := range names {
		if strings.HasPrefix(n, "GC worker ") {
			workers = append(workers, tid)
		}
		if strings.HasPrefix(n, "mutator ") {
			mutators = append(mutators, tid)
		}
	}
	if len(workers) != 2 {
		t.Errorf("%d GC worker tracks, want 2: %v", len(workers), names)
	}
	if len(mutators) != 2 {
		t.Errorf("%d mutator tracks, want 2 (the main thread and the spawned one): %v", len(mutators), names)
	}

	checkNesting(t, spans)

	sf, err := readStatsFile(statsPath)
	if err != nil {
		t.Fatal(err)
	}
	collections := map[int]span{}
	for _, s := range spans {
		if strings.HasPrefix(s.name, "GC(") {
			if _, dup := collections[s.gc]; dup {
				t.Errorf("collection %d has two spans", s.gc)
			}
			collections[s.gc] = s
		}
	}
	if len(collections) != len(sf.records) || len(sf.records) < 3 {
		t.Fatalf("%d collection spans, %d collections in the stats file (want equal, at least 3)", len(collections), len(sf.records))
	}
	if counters != 2*2*len(sf.records) {
		t.Errorf("%d counter events, want tenure and nursery occupancy at each collection's start and end (%d)", counters, 4*len(sf.records))
	}
	runs := map[int]int{} // worker runs per collection
	for _, r := range sf.records {
		c, ok := collections[r.GC]
		want := "Pause Young"
		if r.Type == "global" {
			want = "Pause Full"
		}
		if !ok || !strings.HasPrefix(c.name, "GC("+strconv.Itoa(r.GC)+") "+want+" ("+r.Cause+")") {
			t.Errorf("collection %d (%s): span %q", r.GC, r.Type, c.name)
		}
	}
	phases := map[int]int{}
	for _, s := range spans {
		if s.gc < 0 || strings.HasPrefix(s.name, "GC(") {
			continue
		}
		c, ok := collections[s.gc]
		if !ok {
			t.Errorf("span %q names collection %d, which has no span", s.name, s.gc)
			continue
		}
		if s.tid == c.tid {
			phases[s.gc]++
			if s.start < c.start || s.end > c.end {
				t.Errorf("phase %q [%d, %d] outside its collection %q [%d, %d]", s.name, s.start, s.end, c.name, c.start, c.end)
			}
		}
		if s.name == "GC worker" {
			runs[s.gc]++
		}
	}
	for _, r := range sf.records {
		if phases[r.GC] < 3 {
			t.Errorf("collection %d: %d phase spans", r.GC, phases[r.GC])
		}
		if want := map[string]int{"nursery": r.Threads, "global": 0}[r.Type]; runs[r.GC] != want {
			t.Errorf("collection %d (%s, %d threads): %d worker runs", r.GC, r.Type, r.Threads, runs[r.GC])
		}
	}
	checkWorkerSpans(t, spans, names)
}

// checkNesting checks that the complete events of each track nest: two
// spans on one track either are disjoint or one contains the other.
func checkNesting(t *testing.T, spans []span) {
	t.Helper()
	byTid := map[int][]span{}
	for _, s := range spans {
		byTid[s.tid] = append(byTid[s.tid], s)
	}
	for tid, ss := range byTid {
		sort.SliceStable(ss, func(i, j int) bool {
			if ss[i].start != ss[j].start {
				return ss[i].start < ss[j].start
			}
			return ss[i].end > ss[j].end
		})
		var open []span
		for _, s := range ss {
			for len(open) > 0 && open[len(open)-1].end <= s.start {
				open = open[:len(open)-1]
			}
			if len(open) > 0 && s.end > open[len(open)-1].end {
				p := open[len(open)-1]
				t.Errorf("track %d: %q [%d, %d] overlaps %q [%d, %d] without nesting", tid, s.name, s.start, s.end, p.name, p.start, p.end)
				return
			}
			open = append(open, s)
		}
	}
}

// checkWorkerSpans checks that every span on a worker track lies in that
// worker's run of the same collection, and that each run ends with
// termination.
func checkWorkerSpans(t *testing.T, spans []span, names map[int]string) {
	t.Helper()
	type key struct{ tid, gc int }
	runs := map[key]span{}
	for _, s := range spans {
		if s.name == "GC worker" {
			runs[key{s.tid, s.gc}] = s
		}
	}
	terminations := map[key]int{}
	for _, s := range spans {
		if !strings.HasPrefix(names[s.tid], "GC worker ") || s.name == "GC worker" {
			continue
		}
		r, ok := runs[key{s.tid, s.gc}]
		if !ok || s.start < r.start || s.end > r.end {
			t.Errorf("worker track %d: %q of collection %d outside the worker's run", s.tid, s.name, s.gc)
		}
		if s.name == "Termination" {
			terminations[key{s.tid, s.gc}]++
		}
	}
	for k := range runs {
		if terminations[k] != 1 {
			t.Errorf("worker track %d, collection %d: %d termination spans, want 1", k.tid, k.gc, terminations[k])
		}
	}
}
