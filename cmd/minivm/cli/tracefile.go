package cli

// Reading -Xgc:traceFile output back, for `minivm gcplot -gc N`: the
// Chrome Trace Event JSON object that runtime/gc/trace.go writes.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// traceEventRecord is one event of a trace file; ts and dur are in
// microseconds.
type traceEventRecord struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	Args struct {
		Name string `json:"name"` // thread_name metadata
		GC   *int   `json:"gc"`   // the collection a span belongs to
	} `json:"args"`
}

// traceFile is a trace: its events and the names of its tracks.
type traceFile struct {
	events  []traceEventRecord
	threads map[int]string // tid -> thread_name
}

// readInput reads a gcplot input: a stats file (JSON Lines) or a trace
// file, told apart by content: a trace is one JSON object with a
// "traceEvents" array. Exactly one of the results is non-nil.
func readInput(path string) (*statsFile, *traceFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open stats file '%s': %v", path, reason(err))
	}
	var probe struct {
		TraceEvents []traceEventRecord `json:"traceEvents"`
	}
	if bytes.Contains(data, []byte(`"traceEvents"`)) && json.Unmarshal(data, &probe) == nil && probe.TraceEvents != nil {
		tf := &traceFile{events: probe.TraceEvents, threads: map[int]string{}}
		for _, e := range tf.events {
			if e.Ph == "M" && e.Name == "thread_name" {
				tf.threads[e.Tid] = e.Args.Name
			}
		}
		return nil, tf, nil
	}
	sf, err := readStatsFile(path)
	return sf, nil, err
}

// traceCollection is one collection of a trace: its span on the GC track
// and the spans of the workers that ran it.
type traceCollection struct {
	name       string   // "GC(3) Pause Young (Allocation Failure)"
	start, end float64  // microseconds
	workers    []int    // worker track ids, in track order
	names      []string // their thread names
	spans      map[int][]traceEventRecord
}

// collection returns collection n of the trace, or an error naming the
// collections the trace holds.
func (tf *traceFile) collection(path string, n int) (*traceCollection, error) {
	c := &traceCollection{spans: map[int][]traceEventRecord{}}
	lo, hi, found := -1, -1, false
	for _, e := range tf.events {
		if e.Ph != "X" || e.Args.GC == nil {
			continue
		}
		gcn := *e.Args.GC
		if strings.HasPrefix(e.Name, "GC(") {
			if lo < 0 || gcn < lo {
				lo = gcn
			}
			hi = max(hi, gcn)
			if gcn == n {
				c.name, c.start, c.end, found = e.Name, e.Ts, e.Ts+e.Dur, true
			}
			continue
		}
		if gcn != n || !strings.HasPrefix(tf.threads[e.Tid], "GC worker") {
			continue
		}
		if _, ok := c.spans[e.Tid]; !ok {
			c.workers = append(c.workers, e.Tid)
		}
		c.spans[e.Tid] = append(c.spans[e.Tid], e)
	}
	if !found {
		if lo < 0 {
			return nil, fmt.Errorf("%s: no collections recorded", path)
		}
		return nil, fmt.Errorf("%s: no collection GC(%d) (the trace holds GC(%d)..GC(%d))", path, n, lo, hi)
	}
	sort.Ints(c.workers)
	for _, tid := range c.workers {
		c.names = append(c.names, tf.threads[tid])
	}
	return c, nil
}
