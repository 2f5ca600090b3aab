package gc

import (
	"bufio"
	"io"
	"strconv"
	"sync"
	"time"
)

// Tracing (-Xgc:traceFile): Chrome Trace Event JSON, which ui.perfetto.dev
// and chrome://tracing load, written once at exit (Heap.Finish).
//
// Tracks (one "thread" each in process 1):
//
//   - the GC track: a span per collection, its phases nested inside, and
//     the heap occupancy counters at each collection's start and end;
//   - one per GC worker: per collection a span holding the worker's
//     remembered-set share, root scanning (worker 0), its copy/scan work
//     between waits, steals (evacuator), stalls (waiting for work) and its
//     last wait, ended by termination;
//   - one per mutator thread: stopping the world (the collecting thread's
//     time to safepoint), safepoint waits (from the request to the thread
//     parking, then the pause) and every tlabTraceEvery-th TLAB refill as
//     an instant.
//
// Each track's events go to a buffer owned by the one thread that writes
// it (a GC worker's by worker id; a mutator's by its thread), so
// recording takes no lock: an append to a slice that grows to the run's
// size and is reused after that. Records are made at the boundaries the
// scheduler already has (a stall, a steal, the end of a worker's run),
// never per object; with tracing off each boundary costs one nil test.

// tlabTraceEvery is the TLAB refill sampling: one instant per this many
// refills of a thread (the instant carries the refill count since the
// last collection).
const tlabTraceEvery = 16

// Track ids: the GC track, then workers and mutators in their own ranges
// so that ids never collide.
const (
	gcTrackID      = 1
	workerTrackID  = 100
	mutatorTrackID = 10000
)

// traceEvent is one record: a complete span (dur >= 0), an instant
// (phInstant) or a counter value (phCounter), with up to two integer
// arguments. Names and keys are constants, except collection names (made
// once per collection).
type traceEvent struct {
	name            string
	ph              byte
	ts, dur         int64 // nanoseconds since the heap started
	argKey, arg2Key string
	arg, arg2       int64
}

const (
	phSpan    = 'X'
	phInstant = 'i'
	phCounter = 'C'
)

// traceBuf is one track's events; only its owner writes it.
type traceBuf struct {
	tid    int
	name   string
	events []traceEvent

	// Workers: the open copy/scan span's start (or -1), whether a stall
	// opened it, and the collection being recorded.
	open       int64
	afterStall bool
	gc         int64

	// Mutators: the end of the thread's last safepoint, which bounds the
	// next one's start (a new stop may be requested before the thread
	// has left the last).
	lastSafepoint int64
}

func (b *traceBuf) span(name string, start, end int64, argKey string, arg int64) {
	b.events = append(b.events, traceEvent{name: name, ph: phSpan, ts: start, dur: end - start, argKey: argKey, arg: arg})
}

// tracer holds every track of a traced run.
type tracer struct {
	out   io.Writer
	start time.Time // the heap's start: timestamps are relative to it

	gcTrack traceBuf    // written by the collecting thread (under allocMu)
	workers []*traceBuf // by worker id; created by the collecting thread

	mu       sync.Mutex  // guards mutators
	mutators []*traceBuf // every mutator track, released ones too
}

func newTracer(out io.Writer, start time.Time) *tracer {
	return &tracer{out: out, start: start, gcTrack: traceBuf{tid: gcTrackID, name: "GC (collections and phases)"}}
}

// now returns the trace clock: monotonic nanoseconds since the heap started.
func (t *tracer) now() int64 { return int64(time.Since(t.start)) }

// workerTrack returns worker id's buffer, creating it on first use. The
// collecting thread calls it before the workers run.
func (t *tracer) workerTrack(id int) *traceBuf {
	for len(t.workers) <= id {
		n := len(t.workers)
		t.workers = append(t.workers, &traceBuf{tid: workerTrackID + n, name: "GC worker " + strconv.Itoa(n), open: -1})
	}
	return t.workers[id]
}

// mutatorTrack creates the track of mutator id.
func (t *tracer) mutatorTrack(id int) *traceBuf {
	b := &traceBuf{tid: mutatorTrackID + id, name: "mutator " + strconv.Itoa(id), open: -1}
	t.mu.Lock()
	t.mutators = append(t.mutators, b)
	t.mu.Unlock()
	return b
}

// Worker spans. A worker's copy/scan span is open while it has work; each
// wait closes it and, when the worker resumes, opens the next.

const (
	traceWorkerRun   = "GC worker"
	traceRemembered  = "Scan Remembered Set"
	traceRoots       = "Ext Root Scanning"
	traceCopy        = "Object Copy"
	traceSteal       = "Steal"
	traceStall       = "Stall"
	traceTermination = "Termination"
)

// beginWork opens the worker's copy/scan span at now.
func (b *traceBuf) beginWork(now int64) { b.open, b.afterStall = now, false }

// endWork closes the open copy/scan span at now, if any.
func (b *traceBuf) endWork(now int64) {
	if b.open >= 0 {
		b.span(traceCopy, b.open, now, "gc", b.gc)
		b.open = -1
	}
}

// counters records the heap occupancy per space.
func (h *Heap) traceOccupancy(now int64) {
	b := &h.trace.gcTrack
	b.events = append(b.events,
		traceEvent{name: "tenure used", ph: phCounter, ts: now, argKey: "bytes", arg: int64(h.tenureTop - h.tenureLo)},
		traceEvent{name: "nursery used", ph: phCounter, ts: now, argKey: "bytes", arg: int64(h.allocTop - h.allocLo)})
}

// write writes every track as one Trace Event JSON object. A write error
// is the output writer's to report (it is sticky in a bufio.Writer), as
// for the stats file.
func (t *tracer) write() {
	w := bufio.NewWriterSize(t.out, 64<<10)
	var buf []byte
	first := true
	emit := func(b []byte) {
		if !first {
			w.WriteString(",\n")
		}
		first = false
		w.Write(b)
	}
	w.WriteString(`{"displayTimeUnit":"ms","otherData":{"producer":"minivm"},"traceEvents":[` + "\n")
	emit([]byte(`{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"minivm"}}`))
	t.mu.Lock()
	tracks := append([]*traceBuf{&t.gcTrack}, t.workers...)
	tracks = append(tracks, t.mutators...)
	t.mu.Unlock()
	for i, b := range tracks {
		buf = append(buf[:0], `{"name":"thread_name","ph":"M","pid":1,"tid":`...)
		buf = strconv.AppendInt(buf, int64(b.tid), 10)
		buf = append(buf, `,"args":{"name":`...)
		buf = strconv.AppendQuote(buf, b.name)
		buf = append(buf, `}}`...)
		emit(buf)
		buf = append(buf[:0], `{"name":"thread_sort_index","ph":"M","pid":1,"tid":`...)
		buf = strconv.AppendInt(buf, int64(b.tid), 10)
		buf = append(buf, `,"args":{"sort_index":`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `}}`...)
		emit(buf)
	}
	for _, b := range tracks {
		for i := range b.events {
			buf = appendTraceEvent(buf[:0], b.tid, &b.events[i])
			emit(buf)
		}
	}
	w.WriteString("\n]}\n")
	w.Flush()
}

// appendTraceEvent appends e as a JSON object; times are microseconds.
func appendTraceEvent(buf []byte, tid int, e *traceEvent) []byte {
	buf = append(buf, `{"name":`...)
	buf = strconv.AppendQuote(buf, e.name)
	buf = append(buf, `,"ph":"`...)
	buf = append(buf, e.ph)
	buf = append(buf, `","pid":1,"tid":`...)
	buf = strconv.AppendInt(buf, int64(tid), 10)
	buf = append(buf, `,"ts":`...)
	buf = appendMicros(buf, e.ts)
	switch e.ph {
	case phSpan:
		buf = append(buf, `,"dur":`...)
		buf = appendMicros(buf, e.dur)
	case phInstant:
		buf = append(buf, `,"s":"t"`...)
	}
	if e.argKey != "" {
		buf = append(buf, `,"args":{`...)
		buf = strconv.AppendQuote(buf, e.argKey)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, e.arg, 10)
		if e.arg2Key != "" {
			buf = append(buf, ',')
			buf = strconv.AppendQuote(buf, e.arg2Key)
			buf = append(buf, ':')
			buf = strconv.AppendInt(buf, e.arg2, 10)
		}
		buf = append(buf, '}')
	}
	return append(buf, '}')
}

// appendMicros appends nanoseconds as microseconds with three decimals.
func appendMicros(buf []byte, ns int64) []byte {
	if ns < 0 {
		buf = append(buf, '-')
		ns = -ns
	}
	buf = strconv.AppendInt(buf, ns/1000, 10)
	frac := ns % 1000
	buf = append(buf, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
	return buf
}
