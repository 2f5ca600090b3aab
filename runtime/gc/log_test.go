package gc

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"time"

	"minivm/runtime/gc/xlog"
)

// testLogger logs the tag sets what selects (an -Xlog what field) to w.
func testLogger(t testing.TB, w io.Writer, what string) *xlog.Logger {
	t.Helper()
	l, err := xlog.NewLogger(w, what)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// gcViewerLine is the line pattern of GCViewer's unified-logging reader
// (com.tagtraum.perf.gcviewer.imp.DataReaderUnifiedJvmLogging, its
// decorators pattern), written for Go's regexp: an optional wall-clock
// decoration, an optional decoration ending in 's', the level, the tags
// (HotSpot may pad them), then "GC(n) type" and a tail starting with a
// digit. gcViewerTail is its memory-and-pause pattern, which the tail of
// a pause line must match for GCViewer to read the heap sizes and the
// pause.
var (
	gcViewerLine = regexp.MustCompile(`^(?:\[(?P<time>[-0-9T:.+]*)\])?(?:\[(?P<uptime>[^s]*)s\])?\[(?P<level>[^\]]+)\]\[(?P<tags>[^\] ]+) *\] GC\((?P<gcnumber>[0-9]+)\) (?P<type>[-.a-zA-Z: ()]+|[a-zA-Z1 ()]+)(?: (?P<tail>[0-9].*)|$)`)
	gcViewerTail = regexp.MustCompile(`^[0-9]+[BKMG]->[0-9]+[BKMG]\([0-9]+[BKMG]\)(?: [0-9]+[.,][0-9]+ms|$)`)
)

// Every [gc] pause line, Pause Young and Pause Full, matches GCViewer's
// pattern under every decorator set GCViewer reads: level and tags, at
// most one of time and utctime, at most one decoration ending in "s"
// (uptime, uptimemillis, timemillis, uptimenanos, timenanos). One heap
// logs to an output per decorator set.
func TestGCLineMatchesGCViewer(t *testing.T) {
	wall := []string{"", "time", "utctime"}
	since := []string{"", "uptime", "uptimemillis", "timemillis", "uptimenanos", "timenanos", "u", "um", "tm", "un", "tn"}
	cfg := xlog.NewConfig()
	cfg.Disable()
	var sets []string
	for _, w := range wall {
		for _, s := range since {
			var d []string
			for _, x := range []string{w, s, "level", "tags"} {
				if x != "" {
					d = append(d, x)
				}
			}
			sets = append(sets, strings.Join(d, ","))
		}
	}
	sets = append(sets, "tags,level", "l,tg")
	for i, d := range sets {
		if _, err := cfg.Parse(fmt.Sprintf("gc:file=out%d:%s", i, d)); err != nil {
			t.Fatal(err)
		}
	}
	bufs := map[string]*bytes.Buffer{}
	log, err := cfg.Open(nil, nil, func(path string) (io.Writer, error) {
		bufs[path] = &bytes.Buffer{}
		return bufs[path], nil
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, Log: log})
	rng := rand.New(rand.NewSource(1))
	g.mutate(rng, 5000)
	g.h.collectNursery(CauseAllocationFailure)
	g.h.main.Collect()

	for i, d := range sets {
		out := bufs[fmt.Sprintf("out%d", i)].String()
		young, full := 0, 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.HasSuffix(line, "Using hierarchical") {
				continue
			}
			m := gcViewerLine.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("decorators %s: GCViewer's pattern does not match %q", d, line)
				continue
			}
			typ, tail := m[gcViewerLine.SubexpIndex("type")], m[gcViewerLine.SubexpIndex("tail")]
			switch typ {
			case "Pause Young (Allocation Failure)":
				young++
			case "Pause Full (System.gc())":
				full++
			default:
				t.Errorf("decorators %s: type %q in %q", d, typ, line)
			}
			if m[gcViewerLine.SubexpIndex("tags")] != "gc" || !gcViewerTail.MatchString(tail) {
				t.Errorf("decorators %s: tags %q or tail %q wrong in %q", d, m[gcViewerLine.SubexpIndex("tags")], tail, line)
			}
		}
		if young == 0 || full != 1 {
			t.Errorf("decorators %s: %d Pause Young and %d Pause Full lines in\n%s", d, young, full, out)
		}
	}
}

// With every tag set at trace, every log site runs (an unregistered tag
// set would panic) and each tag set the heap logs appears.
func TestLogAllTagSets(t *testing.T) {
	var out bytes.Buffer
	g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, TenureAge: 1, Log: testLogger(t, &out, "all=trace")})
	g.h.LogInit()
	rng := rand.New(rand.NewSource(2))
	g.mutate(rng, 5000)
	g.h.collectNursery(CauseAllocationFailure)
	g.h.main.Collect()
	g.h.Finish()
	log := out.String()
	for _, want := range []string{
		"[info][gc] Using hierarchical",
		"[info][gc,init] Collector: hierarchical",
		"[trace][gc,tlab] GC(0) TLAB: gc thread: ",
		"[debug][gc,tlab] GC(0) TLAB totals: ",
		"[debug][gc,age] GC(0) Desired survivor size 131072 bytes, new threshold 0 (max threshold 0)",
		"[trace][gc,age] GC(0) Age table with threshold 0 (max threshold 0)",
		"[info][gc,heap] GC(0) Nursery: ",
		"[info][gc,heap] GC(0) Tenure: ",
		"[info][gc,heap] GC(0) Metadata: ",
		"[info][gc] GC(0) Pause Young (Allocation Failure) ",
		"[info][gc,stats] GC(0) collector=hierarchical ",
		"[debug][gc,stats] GC(0) scanned=",
		"[info][safepoint] Safepoint \"CollectForAllocation\", Time since last: ",
		"[info][gc] GC(1) Pause Full (System.gc()) ",
		"[info][safepoint] Safepoint \"SystemGC\", ",
		"[info][gc,stats] Summary: 2 collections (1 nursery, 1 global)",
		"[info][gc,heap,exit] Heap\n",
		"[info][gc,heap,exit]  nursery total 512K, used ",
		"[info][gc,heap,exit]   allocate space 256K, ",
		"[info][gc,heap,exit]   survivor space 256K, 0% used [",
		"[info][gc,heap,exit]  tenure total ",
		"[info][gc,heap,exit]  Metadata used ",
		"[info][gc,metadata] Metadata: regions=",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// The [gc,heap] lines account for the spaces: a nursery collection
// empties the allocate space into the survivor space (and tenure, at
// tenure age 1), and a global one empties the nursery into tenure.
func TestHeapLines(t *testing.T) {
	var out bytes.Buffer
	g := newGraphHeap(t, Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, TenureAge: 2, Log: testLogger(t, &out, "gc+heap")})
	rng := rand.New(rand.NewSource(3))
	g.mutate(rng, 3000)
	g.h.collectNursery(CauseAllocationFailure)
	g.h.main.Collect()
	line := regexp.MustCompile(`(?m)^\[[0-9.]+s\]\[info\]\[gc,heap\] GC\((\d)\) Nursery: (\d+)K->(\d+)K\(512K\) Allocate: (\d+)K->(\d+)K\(256K\) Survivor: (\d+)K->(\d+)K\(256K\)$`)
	ms := line.FindAllStringSubmatch(out.String(), -1)
	if len(ms) != 2 {
		t.Fatalf("want two nursery lines:\n%s", out.String())
	}
	young, full := ms[0], ms[1]
	if young[2] != young[4] || young[5] != "0" || young[6] != "0" || young[7] != young[3] || young[3] == "0" {
		t.Errorf("nursery collection: %s", young[0])
	}
	if full[3] != "0" || full[7] != "0" {
		t.Errorf("global collection leaves the nursery occupied: %s", full[0])
	}
	if strings.Count(out.String(), "[gc,heap] GC(1) Tenure: ") != 1 || strings.Count(out.String(), "[gc,heap] GC(1) Metadata: ") != 1 {
		t.Errorf("no tenure or metadata line for GC(1):\n%s", out.String())
	}
}

// A log site whose tag set or level is off costs no allocation, with
// logging off altogether or on for other tag sets.
func TestLogOffAllocatesNothing(t *testing.T) {
	for _, log := range []*xlog.Logger{nil, testLogger(t, io.Discard, "gc")} {
		h := &Heap{cfg: Config{Log: log}}
		if n := testing.AllocsPerRun(100, func() {
			if h.logging(xlog.Trace, "gc,phases") || h.logging(xlog.Info, "gc,heap") || h.logging(xlog.Debug, "gc") {
				t.Fatal("logging on for a tag set not configured")
			}
		}); n != 0 {
			t.Errorf("%v allocations per disabled log site", n)
		}
	}
}
