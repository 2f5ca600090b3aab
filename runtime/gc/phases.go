package gc

import (
	"fmt"
	"time"

	"minivm/runtime/gc/xlog"
)

// Phase times ([gc,phases] lines, the stats object's "phases", trace
// spans). A collection reads the clock once at each phase boundary, and
// each nursery worker five times in its run: never per object.
//
// Nursery collections follow G1's shape: Pre Evacuate Collection Set
// (setting up workers and traversal), Evacuate Collection Set (the
// parallel part: each worker's share of the remembered set, worker 0's
// roots, copying and scanning, termination), Post Evacuate Collection Set
// (merging the workers' results, the class table's clearables and class
// unloading, the flip). Global collections follow ParallelGC's: Pre
// Compact, Marking Phase, Summary Phase, Adjust Roots (the roots, the
// workers' Adjust Pointers pass over the live objects, the class table
// and class unloading), Compaction Phase, Post Compact (the remembered set
// rebuilt).

// phaseRecord is one timed phase. dur excludes -Xcheck:gc verification
// run inside the phase; start and end are wall times for the trace.
type phaseRecord struct {
	name       string // HotSpot-style name, as logged
	key        string // the stats object's key
	start, end int64  // nanoseconds since the heap started
	dur        int64
	sub        bool // a sub-phase of the top-level phase that follows it
}

// phaseTimer times one collection's phases. It is kept in the Heap and
// reused, so timing allocates nothing once its slice has grown.
type phaseTimer struct {
	h        *Heap
	gc       int
	last     int64 // end of the previous phase
	excluded int64 // verification time since last
	phases   []phaseRecord
}

// clock returns monotonic nanoseconds since the heap started (also the
// trace's clock).
func (h *Heap) clock() int64 { return int64(time.Since(h.start)) }

// beginPhases starts timing collection gc's phases now.
func (h *Heap) beginPhases(gc int) *phaseTimer {
	p := &h.phases
	p.h, p.gc, p.last, p.excluded, p.phases = h, gc, h.clock(), 0, p.phases[:0]
	return p
}

// end ends the current phase now and starts the next.
func (p *phaseTimer) end(name, key string) {
	now := p.h.clock()
	p.phases = append(p.phases, phaseRecord{name: name, key: key, start: p.last, end: now, dur: now - p.last - p.excluded})
	p.last, p.excluded = now, 0
}

// ended returns the duration of the phase end just ended.
func (p *phaseTimer) ended() time.Duration { return time.Duration(p.phases[len(p.phases)-1].dur) }

// sub records a sub-phase of the current phase, measured by the caller.
func (p *phaseTimer) sub(name, key string, start, end int64) {
	p.phases = append(p.phases, phaseRecord{name: name, key: key, start: start, end: end, dur: end - start, sub: true})
}

// exclude leaves the time since start (verification) out of the current
// phase's duration.
func (p *phaseTimer) exclude(start int64) { p.excluded += p.h.clock() - start }

// pause is the collection's pause: the sum of its top-level phases.
func (p *phaseTimer) pause() time.Duration {
	var d int64
	for _, ph := range p.phases {
		if !ph.sub {
			d += ph.dur
		}
	}
	return time.Duration(d)
}

// Per-worker phases of a nursery collection, G1's worker phase names.
const (
	workerRemembered = iota
	workerRoots
	workerCopy
	workerTermination
	workerTotal
	workerPhases
)

var workerPhaseNames = [workerPhases]string{"Scan Remembered Set", "Ext Root Scanning", "Object Copy", "Termination", "GC Worker Total"}
var workerPhaseKeys = [workerPhases]string{"remembered_ms", "roots_ms", "copy_ms", "termination_ms", "worker_total_ms"}

// workerPhaseTimes is one worker's phase times, in nanoseconds.
type workerPhaseTimes [workerPhases]int64

// record fills in the phase times from the worker's clock readings: run
// start, after the remembered set, after the roots, after scanning, run
// end. Object Copy excludes the termination wait.
func (w *worker) recordPhases(t0, t1, t2, t3, t4 int64) {
	w.phase = workerPhaseTimes{t1 - t0, t2 - t1, t3 - t2 - w.termination, w.termination, t4 - t0}
}

// phaseStats returns the stats object's "phases": each phase's
// milliseconds; per-worker phases give the slowest worker's. Only the
// stats file reads it, so without one it is nil: a map's cost depends on
// the process's random hash seed, which bench -sim must not count.
func (p *phaseTimer) phaseStats(workers []*worker) map[string]float64 {
	if p.h.cfg.StatsFile == nil {
		return nil
	}
	m := make(map[string]float64, len(p.phases)+workerPhases)
	for _, ph := range p.phases {
		m[ph.key] = ms(ph.dur)
	}
	if len(workers) > 0 {
		for i := range workerPhases {
			var most int64
			for _, w := range workers {
				most = max(most, w.phase[i])
			}
			m[workerPhaseKeys[i]] = ms(most)
		}
	}
	return m
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// log writes the [gc,phases] lines: top-level phases at info, sub-phases
// and per-worker figures at debug, as HotSpot logs them. Nursery phases print G1's "Name: 1.234ms",
// global ones ParallelGC's "Name 1.234ms".
func (p *phaseTimer) log(global bool, workers []*worker) {
	h := p.h
	if !h.logging(xlog.Info, "gc,phases") {
		return
	}
	debug := h.logging(xlog.Debug, "gc,phases")
	sep := ":"
	if global {
		sep = ""
	}
	var subs []phaseRecord
	for _, ph := range p.phases {
		if ph.sub {
			subs = append(subs, ph) // logged after the phase that holds them
			continue
		}
		h.logf("gc,phases", "GC(%d) %s%s %.3fms", p.gc, ph.name, sep, ms(ph.dur))
		if ph.key == "evacuate_ms" && debug {
			p.logWorkers(workers)
		}
		for _, s := range subs {
			h.logAt(xlog.Debug, "gc,phases", "GC(%d)   %s%s %.3fms", p.gc, s.name, sep, ms(s.dur))
		}
		subs = subs[:0]
	}
}

// logWorkers writes G1's per-worker statistics lines for the evacuation
// phase: Min, Avg, Max, Diff and Sum over the workers that ran it.
func (p *phaseTimer) logWorkers(workers []*worker) {
	for i := range workerPhases {
		n := len(workers)
		if i == workerRoots {
			n = 1 // worker 0 scans the roots
		}
		lo, hi, sum := workers[0].phase[i], workers[0].phase[i], int64(0)
		for _, w := range workers[:n] {
			lo, hi, sum = min(lo, w.phase[i]), max(hi, w.phase[i]), sum+w.phase[i]
		}
		p.h.logAt(xlog.Debug, "gc,phases", "GC(%d)   %s (ms): Min: %.3f, Avg: %.3f, Max: %.3f, Diff: %.3f, Sum: %.3f, Workers: %d",
			p.gc, workerPhaseNames[i], ms(lo), ms(sum)/float64(n), ms(hi), ms(hi-lo), ms(sum), n)
	}
}

// trace records the collection span and its phases on the GC track.
func (p *phaseTimer) trace(st *CollectionStats, kind string) {
	if p.h.trace == nil || len(p.phases) == 0 {
		return
	}
	b := &p.h.trace.gcTrack
	start, end := p.phases[0].start, p.phases[len(p.phases)-1].end
	b.span(fmt.Sprintf("GC(%d) %s (%s)", st.GC, kind, st.Cause), start, end, "gc", int64(st.GC))
	for _, ph := range p.phases {
		b.span(ph.name, ph.start, ph.end, "gc", int64(st.GC))
	}
}
