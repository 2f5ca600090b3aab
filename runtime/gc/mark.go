package gc

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Marking for the global collector, on the -Xgcthreads workers and the
// nursery's scheduler (scheduler.go).
//
// An object is marked by setting hdrMarked in its header and the bits of
// its words in a liveMap. The marker whose header update set the bit owns
// the object: it sets the object's live bits and later scans it; every
// other marker that reaches the object sees the bit and goes on. With
// several markers both updates are atomic ORs (two objects can share a
// bitmap word); a solo marker uses plain stores. Headers change in no
// other way while marking, so the OR cannot lose a concurrent update.
//
// Each marker keeps its work to itself, in the structure of its mark
// order (markOrder below), and gives part of it to a shared list when a
// peer is stalled; a stalled marker takes from that list. Pointer arrays
// longer than arraySplitMinimum are scanned as segments, which other
// markers can take. Strings (byte objects without a class object) hold
// no references and are marked without ever becoming work.
//
// The orders (-Xgc:markScanOrdering=):
//
//   - depthFirst: a stack of frames, each an object's slot iterator; the
//     first unmarked child is scanned at once in a new frame, so an
//     object's subgraph is finished before its next sibling is reached.
//     Past markStackDepth frames, children wait on a LIFO of work.
//   - breadthFirst: a FIFO of marked objects, scanned in marking order.
//   - prefetch: a LIFO of marked objects; the children an object's scan
//     finds wait in a small FIFO (markPrefetchDepth) after their header is
//     prefetched, and are tested and marked when they leave it, by which
//     time their header line has arrived (Boehm's and OCaml's prefetching
//     mark loops).

// MarkOrder names the global collector's marking order.
type MarkOrder string

const (
	MarkDepthFirst   MarkOrder = "depthFirst"
	MarkBreadthFirst MarkOrder = "breadthFirst"
	MarkPrefetch     MarkOrder = "prefetch"
)

// markStackDepth is the depth-first order's frame count; markPrefetchDepth
// the prefetch order's FIFO length (about what a memory latency takes to
// cover at a few tens of instructions per object).
const (
	markStackDepth    = 64
	markPrefetchDepth = 16
)

// markTask is an object to scan, or (to > 0) elements [from, to) of a
// split pointer array.
type markTask struct {
	r        Ref
	from, to uint32
}

// markFrame is one object of the depth-first order's stack.
type markFrame struct {
	it      slots
	started bool // firstRef was taken
}

// marker is one worker's marking state for one global collection.
type marker struct {
	worker
	base            unsafe.Pointer // the heap's
	ctl             *controller
	order           MarkOrder
	tenure, nursery *liveMap
	shared          *markList

	work []markTask // LIFO (depthFirst's overflow, prefetch) or FIFO from head (breadthFirst)
	head int

	frames [markStackDepth]markFrame
	depth  int

	fifo       [markPrefetchDepth]Ref // prefetch: children whose headers were prefetched
	fifoN, fin int                    // count, index of the oldest

	markedBytes, markedObjects uint64
}

// markList is the markers' shared work: what busy markers gave away for
// stalled ones.
type markList struct {
	ctl    *controller
	mu     sync.Mutex
	tasks  []markTask
	listed atomic.Int32 // len(tasks), for lock-free polling
}

// give appends tasks and wakes a stalled marker.
func (l *markList) give(tasks []markTask) {
	l.mu.Lock()
	l.tasks = append(l.tasks, tasks...)
	l.listed.Store(int32(len(l.tasks)))
	l.mu.Unlock()
	l.ctl.notify()
}

// take moves up to half of the list (at least one task) to dst.
func (l *markList) take(dst []markTask) ([]markTask, bool) {
	if l.listed.Load() == 0 {
		return dst, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.tasks)
	if n == 0 {
		return dst, false
	}
	k := (n + 1) / 2
	dst = append(dst, l.tasks[n-k:]...)
	l.tasks = l.tasks[:n-k]
	l.listed.Store(int32(len(l.tasks)))
	return dst, true
}

// markAll marks everything reachable from the roots, with n workers.
// It returns the bytes and objects marked.
func (h *Heap) markAll(tenure, nursery *liveMap, n int) (bytes, objects uint64, workers []*worker) {
	h.ctl = newController(h, n)
	defer func() { h.ctl = nil }()
	list := &markList{ctl: h.ctl}
	markers := make([]*marker, n)
	workers = make([]*worker, n)
	for id := range markers {
		markers[id] = &marker{worker: worker{h: h, id: id, solo: n == 1}, base: h.base, ctl: h.ctl, order: h.cfg.MarkOrder, tenure: tenure, nursery: nursery, shared: list}
		workers[id] = &markers[id].worker
	}
	h.runWorkers(n, func(id int) {
		m := markers[id]
		if id == 0 {
			h.roots.VisitRoots(func(v *Value) {
				if v.IsRef() {
					m.markRef(v.AsRef())
				}
			})
		}
		m.drain()
		for {
			var ok bool
			found := func() bool { m.work, ok = list.take(m.work); return ok }
			if !h.ctl.stall(&m.worker, found, func() bool { return list.listed.Load() > 0 }) {
				break
			}
			m.drain()
		}
	})
	for _, m := range markers {
		bytes += m.markedBytes
		objects += m.markedObjects
	}
	return bytes, objects, workers
}

// markRef marks r and, if this marker set the mark and r can hold
// references, queues it as work.
func (m *marker) markRef(r Ref) {
	if !m.marked(r) && m.mark(r) {
		m.work = append(m.work, markTask{r: r})
	}
}

// marked reports whether r is marked: the common case of a reference,
// tested inline before mark is called.
func (m *marker) marked(r Ref) bool {
	return atomic.LoadUint64((*uint64)(unsafe.Add(m.base, uintptr(r)<<3)))&hdrMarked != 0
}

// mark sets r's mark and live bits. It reports whether r needs scanning:
// this marker set the mark and r is no string.
func (m *marker) mark(r Ref) bool {
	h := m.h
	hp := h.word(r, 0)
	hdr := atomic.LoadUint64(hp)
	if m.solo {
		*hp = hdr | hdrMarked
	} else if atomic.OrUint64(hp, hdrMarked)&hdrMarked != 0 {
		return false
	}
	meta := Meta(uint32(hdr))
	size := h.sizeOf(r, meta)
	off := uintptr(r) << 3
	lm := m.nursery
	if m.tenure.contains(off) {
		lm = m.tenure
	}
	// liveMap.mark, written out: it is over the inlining budget.
	if i, n := (off-lm.lo)/WordSize, size/WordSize; !lm.markWithin(i, n, !m.solo) {
		lm.markSpan(i, n, !m.solo)
	}
	m.markedBytes += uint64(size)
	m.markedObjects++
	// A string (bytes without a class object) holds no references.
	return meta.Layout() != LayoutBytes || meta.loadClassObject() != 0
}

// drain marks until this marker has no work of its own left.
func (m *marker) drain() {
	switch m.order {
	case MarkBreadthFirst:
		m.drainFIFO()
	case MarkPrefetch:
		m.drainPrefetch()
	default:
		m.drainDepthFirst()
	}
	m.work, m.head = m.work[:0], 0
}

// share gives half of this marker's queued work to a stalled peer. The
// oldest half goes: near the roots, it leads to the most work.
func (m *marker) share() {
	n := len(m.work) - m.head
	if n < 2 {
		return
	}
	k := n / 2
	m.shared.give(m.work[m.head : m.head+k])
	m.head += k
	if m.head == len(m.work) || m.head > len(m.work)/2 {
		m.work = append(m.work[:0], m.work[m.head:]...)
		m.head = 0
	}
}

// begin prepares it for task t. An unsplit long pointer array is split
// into segments queued as work instead (false) when other markers can
// take them.
func (m *marker) begin(it *slots, t markTask) bool {
	if t.to > 0 {
		it.startSegment(m.h, t.r, int(t.from), int(t.to))
		return true
	}
	size := it.start(m.h, t.r, m.h.MetaOf(t.r))
	return m.solo || size <= slotsSize(arraySplitMinimum) || !m.split(it, t.r, size)
}

// split queues the segments of array r, when it is one to split, and
// marks its class object (the iterator's first step, if it has one).
func (m *marker) split(it *slots, r Ref, size uintptr) bool {
	h := m.h
	if !splittable(h, r, size) {
		return false
	}
	splitArray(h.Length(r), func(from, to int) {
		m.work = append(m.work, markTask{r: r, from: uint32(from), to: uint32(to)})
	})
	if off, ref, ok := it.firstRef(); ok && off == classSlot {
		m.markRef(ref)
	}
	return true
}

// shareIfStalled gives work away when a peer waits for it; a solo marker
// never has one.
func (m *marker) shareIfStalled() {
	if !m.solo && m.ctl.waiting.Load() > 0 {
		m.share()
	}
}

// drainFIFO is the breadth-first order.
func (m *marker) drainFIFO() {
	var it slots
	for m.head < len(m.work) {
		t := m.work[m.head]
		m.head++
		if !m.begin(&it, t) {
			continue
		}
		for _, ref, ok := it.firstRef(); ok; _, ref, ok = it.next(m.h) {
			if !m.marked(ref) && m.mark(ref) {
				m.work = append(m.work, markTask{r: ref})
			}
		}
		m.shareIfStalled()
	}
}

// drainDepthFirst is the depth-first order.
func (m *marker) drainDepthFirst() {
	h := m.h
	for {
		if m.depth == 0 {
			if len(m.work) == m.head {
				return
			}
			t := m.work[len(m.work)-1]
			m.work = m.work[:len(m.work)-1]
			fr := &m.frames[0]
			if !m.begin(&fr.it, t) {
				continue
			}
			fr.started = false
			m.depth = 1
		}
		fr := &m.frames[m.depth-1]
		var ref Ref
		var ok bool
		if fr.started {
			_, ref, ok = fr.it.next(h)
		} else {
			_, ref, ok = fr.it.firstRef()
			fr.started = true
		}
		if !ok {
			m.depth--
			continue
		}
		if m.marked(ref) || !m.mark(ref) {
			continue
		}
		// Scan the child at once unless the stack is full or a peer
		// waits for work, which must then be queued to be shared.
		if m.depth == markStackDepth || !m.solo && m.ctl.waiting.Load() > 0 {
			m.work = append(m.work, markTask{r: ref})
			m.shareIfStalled()
			continue
		}
		child := &m.frames[m.depth]
		if m.begin(&child.it, markTask{r: ref}) {
			child.started = false
			m.depth++
		}
	}
}

// drainPrefetch is the prefetch order.
func (m *marker) drainPrefetch() {
	h := m.h
	var it slots
	for {
		if len(m.work) == m.head {
			if m.fifoN == 0 {
				return
			}
			m.markRef(m.dequeue()) // the stack is empty: the FIFO drains
			continue
		}
		t := m.work[len(m.work)-1]
		m.work = m.work[:len(m.work)-1]
		if !m.begin(&it, t) {
			continue
		}
		for _, ref, ok := it.firstRef(); ok; _, ref, ok = it.next(h) {
			if m.fifoN == markPrefetchDepth {
				m.markRef(m.dequeue())
			}
			prefetchLine(uintptr(h.base) + uintptr(ref)<<3)
			m.fifo[(m.fin+m.fifoN)%markPrefetchDepth] = ref
			m.fifoN++
		}
		m.shareIfStalled()
	}
}

// dequeue takes the oldest reference of the prefetch FIFO.
func (m *marker) dequeue() Ref {
	r := m.fifo[m.fin]
	m.fin = (m.fin + 1) % markPrefetchDepth
	m.fifoN--
	return r
}
