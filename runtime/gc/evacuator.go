package gc

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// The evacuator (-Xgc:recursiveScanOrdering): OMR's depth-first nursery
// collector, rebuilt on minivm's heap. EVACUATOR.md describes the original;
// this is the same algorithm for one worker's state.
//
// # Spaces
//
// Each worker owns a stack of frames (scanspaces). A frame is a copyspace
// [base, copy, end) of one region plus a scan head: base..scan is scanned,
// scan..copy is copied but unscanned, copy..end is whitespace. white[r]
// names the frame whose tail is region r's inside (stack) whitespace, so
// survivor and tenure frames interleave on the stack. Two outside
// copyspaces (one per region) take breadth-first copies; their copied
// material is released to the worker's worklist as workspaces once it
// reaches the work release threshold. Per-region whitelists keep leftover
// whitespace blocks for reuse; the tenure whitelist persists across nursery
// collections.
//
// # The scan loop
//
// Roots and remembered objects are evacuated one at a time with an empty
// stack and traced to exhaustion. Then, while there is work (the smaller
// outside copyspace's material, else the worklist head), it is loaded into
// the bottom frame and scanned. For each reference slot of the object at
// the active frame's scan head, an object in evacuate space is copied
//
//   - inside, into white[r], when it is at most MaxInsideCopySize bytes, no
//     flush condition holds for its region and stack whitespace is
//     available (or its remainder is at most 32 B and can be refreshed).
//     If the copy landed in the active frame beyond base+distance, or in a
//     frame above it, it opens the next frame (push) and scanning continues
//     there, so with distance 0 each referent is scanned right after it is
//     copied: depth-first.
//   - outside otherwise, into the region's outside copyspace.
//
// A frame whose scan head meets its copy head is popped; leftover
// whitespace stays in it for later pushes.
//
// With chain detection (chain.go) a copy that would open a frame is judged
// by the element that made it: a tree node's is pushed, a list element's
// moves the frame's window (with a nonzero width), and depth-first a copy
// through a recursive arc in tail position, or one whose push would
// overflow the stack, stays in the active frame, which then holds a
// chain: its links are copied into it and its payload outside.
//
// # Flush conditions (checked before every copy)
//
//   - breadth-first (MaxStackDepth 1): every copy goes outside;
//   - stack overflow: a push beyond MaxStackDepth leaves the copy where it
//     is and flushes every copy outside until the stack unwinds to the
//     bottom, after which frames are zero-width (depth-first) until the
//     next work item;
//   - outside overflow of region r: the outside copyspace's remainder is too
//     big to drop but the object does not fit; r's copies go outside until
//     overflowRefresh bytes have been placed elsewhere;
//   - stall: a peer worker is waiting for work (parallel collection).
//
// One more flag is no condition: flagChain, set when a chain starts and
// cleared when a frame is pushed above it or scanChain takes it over,
// keeps the copies of the element that started the chain off forwardTo's
// fast path (flagged), and evacuateFlagged copies those of a chain frame
// by the chain's rules (chainEvacuate). So scan's slot loop is the same
// for every frame, and without a chain it tests nothing more per copy,
// nor do push and pop per frame; the frames pushed above a chain take the
// fast path. After a chain element endObject hands the frame's following
// elements to scanChain, the chain's own loop.

type evacFlags uint8

const (
	flagDepthFirst evacFlags = 1 << iota
	flagBreadthFirst
	flagStackOverflow
	flagStall
	flagSurvivorOverflow
	flagTenureOverflow
	flagChain
)

func overflowFlag(r region) evacFlags {
	if r == survivorRegion {
		return flagSurvivorOverflow
	}
	return flagTenureOverflow
}

// frame is one scanspace of the stack: a copyspace and the scan state of
// the object at its scan head.
type frame struct {
	copyspace
	it   slots   // the object at scan, when frameInObject
	size uintptr // its size
	mode frameMode
}

// frameMode is a frame's scan state. It is 32 bits wide so that setting
// or clearing a bit is one instruction on memory. An object whose end is
// more than a step (frameRemembered, frameChain) is retired by endObject,
// so that the plain end tests one word.
type frameMode uint32

const (
	frameInObject   frameMode = 1 << iota // scanning stopped inside the object at scan (a push)
	frameRemembered                       // the tenured object at scan refers into the nursery
	frameChain                            // the frame holds a chain (chain.go): e.chain[frame]
)

// evacStats are the evacuator's own counters for one collection.
type evacStats struct {
	activations   []uint64
	flushStall    uint64
	flushOverflow uint64
}

// evacuator is one worker's evacuator state.
type evacuator struct {
	*worker
	depth      int
	insideSize uintptr
	distance   uintptr
	quantum    uintptr
	// remainderDrop: stack whitespace remainders up to this size are
	// dropped for a refresh (Config.StackRemainderDrop).
	remainderDrop uintptr
	chains        bool // chain detection (Config.ChainDetection)

	stack  []frame
	chain  []chain     // each frame's chain state, with chain detection (else nil)
	active int         // index of the active frame, -1 when the stack is empty
	white  [2]int      // frame holding each region's stack whitespace, -1 for none
	inside destination // the white frames, for forwardTo (setWhite)
	// outsideDest: the outside copyspaces, for a chain's payload
	outsideDest destination
	classes     classTable // the branch and list classes found (plainCopy)
	// slid: the frame and window origin of the last window moved for a
	// list (reoriginate), and the list's class
	slid struct {
		f    int
		base uintptr
		link Meta
	}

	outside       [2]copyspace // scan..copy: copied material not yet released as work
	overflowBytes [2]uintptr

	donors []*evacuator // every worker's evacuator, to steal from
	listMu sync.Mutex   // guards work against thieves
	work   worklist     // released workspaces
	volume atomic.Int64 // work.volume, published for thieves

	flags   evacFlags
	release uintptr // work release threshold

	es evacStats
	_  [128]byte // see worker: no false sharing between workers
}

// newEvacuators returns the traversals of an evacuator collection.
func newEvacuators(workers []*worker) nurseryTraversal {
	evacs := make([]*evacuator, len(workers))
	t := nurseryTraversal{workers: make([]traversal, len(workers))}
	for i, w := range workers {
		cfg := &w.h.cfg
		e := &evacuator{
			worker:        w,
			depth:         cfg.MaxStackDepth,
			insideSize:    uintptr(cfg.MaxInsideCopySize),
			distance:      uintptr(cfg.InsideCopyDistance),
			quantum:       uintptr(cfg.WorkVolumeQuantum),
			remainderDrop: cfg.StackRemainderDrop,
			chains:        cfg.ChainDetection,
			stack:         make([]frame, max(3, cfg.MaxStackDepth)),
			active:        -1,
			white:         [2]int{-1, -1},
			outside:       [2]copyspace{{region: survivorRegion}, {region: tenureRegion}},
			donors:        evacs,
		}
		if e.chains {
			e.chain = make([]chain, len(e.stack))
		}
		e.inside.limit = [2]uintptr{e.insideSize, e.insideSize}
		e.inside.inside = [2]bool{true, true}
		e.outsideDest = destination{to: [2]*copyspace{&e.outside[0], &e.outside[1]}, limit: [2]uintptr{^uintptr(0), ^uintptr(0)}}
		e.es.activations = make([]uint64, cfg.MaxStackDepth)
		if e.depth == 1 {
			e.flags |= flagBreadthFirst
		}
		e.release = e.quantum
		evacs[i] = e
		t.workers[i] = e
	}
	t.report = func(st *CollectionStats) { st.EvacuatorStats = mergeEvacuatorStats(evacs) }
	return t
}

// evacuateRoot copies the object a root refers to and traces it to
// exhaustion.
func (e *evacuator) evacuateRoot(v *Value) {
	if !v.IsRef() || !e.h.inEvacuate(v.AsRef()) {
		return
	}
	e.resetConditions()
	*v = FromRef(e.evacuate(v.AsRef(), noSlot))
	e.scan()
}

// scanRemembered treats every reference of a remembered tenured object as
// a root and reports whether the object still refers into the nursery.
func (e *evacuator) scanRemembered(r Ref) bool {
	var it slots
	it.start(e.h, r, e.h.MetaOf(r))
	return e.traceSlots(&it)
}

// traceSlots evacuates every evacuate-space reference of a started
// iterator as a root,
// tracing each to exhaustion, and reports whether a visited reference now
// refers into the nursery.
func (e *evacuator) traceSlots(it *slots) (young bool) {
	h := e.h
	for off, ref, ok := it.firstRef(); ok; off, ref, ok = it.next(h) {
		if h.inEvacuate(ref) {
			e.resetConditions()
			ref = e.evacuate(ref, it.arc(off))
			it.storeClass(off, ref)
			e.scan()
		}
		young = young || h.isYoung(ref)
	}
	return young
}

// scanHeap loads and scans work until no worker has any left.
func (e *evacuator) scanHeap() {
	for {
		if e.h.cfg.Verify {
			e.verify()
		}
		ws, ok := e.getWork()
		if !ok {
			if !e.waitForWork() {
				return
			}
			continue
		}
		if ws.segment {
			e.scanSegment(ws)
			continue
		}
		e.stack[0] = frame{copyspace: copyspace{region: ws.region, base: ws.base, scan: ws.base, copy: ws.base + ws.size, end: ws.base + ws.size}}
		e.active = 0
		if ws.chain != 0 {
			e.stack[0].mode = frameChain
			e.chain[0] = chain{link: ws.chain}
			e.flags |= flagChain
		}
		e.es.activations[0]++
		e.scan()
	}
}

// scanSegment scans one segment of a split pointer array from the bottom of
// the stack, tracing each element to exhaustion.
func (e *evacuator) scanSegment(ws workspace) {
	var it slots
	it.startSegment(e.h, Ref(ws.base>>3), ws.from, ws.to)
	young := e.traceSlots(&it)
	e.scanned(segmentBytes(ws.from, ws.to))
	if young && ws.region == tenureRegion {
		e.rememberTenured(Ref(ws.base >> 3))
	}
}

// resetConditions clears the per-work-item conditions before a root or a
// work item (EVACUATOR.md §2.2).
func (e *evacuator) resetConditions() {
	e.flags &^= flagStackOverflow | flagDepthFirst | flagChain
}

// getWork picks the next work for the bottom frame: the smaller outside
// copyspace's material, else the worklist's head. It runs only with an
// empty stack.
func (e *evacuator) getWork() (workspace, bool) {
	e.resetConditions()
	e.clearBottom()
	if e.h.stalled() {
		e.release = max(e.release/2, e.ws.refresh)
		if e.chains && !e.solo {
			return e.takeShared()
		}
	}
	pick := -1
	for r := range e.outside {
		if w := e.outside[r].work(); w > 0 && (pick < 0 || w < e.outside[pick].work()) {
			pick = r
		}
	}
	if pick >= 0 {
		cs := &e.outside[pick]
		ws := workspace{region: region(pick), base: cs.scan, size: cs.work()}
		cs.scan = cs.copy
		return ws, true
	}
	ws, ok := e.takeWork()
	if ok {
		e.release = e.releaseThreshold()
	}
	return ws, ok
}

// clearBottom moves any whitespace left in the bottom frame up into a free
// frame, so the bottom frame can take work.
func (e *evacuator) clearBottom() {
	for r := range e.white {
		if e.white[r] != 0 {
			continue
		}
		j := 1
		if e.white[1-r] == j {
			j++
		}
		b := e.stack[0].whitespace()
		e.stack[0].seal()
		if j >= e.depth {
			// No frame may take it (shallow stacks): give it up.
			e.setWhite(region(r), -1)
			e.ws.trim(region(r), b)
			continue
		}
		e.stack[j] = frame{copyspace: newCopyspace(region(r), b)}
		e.setWhite(region(r), j)
	}
}

// scan runs the active frame and those pushed above it until the stack is
// empty.
func (e *evacuator) scan() {
	h := e.h
	for e.active >= 0 {
		f := e.active
		fr := &e.stack[f]
		var off uintptr
		var ref Ref
		var ok bool
		if fr.mode&frameInObject != 0 {
			off, ref, ok = fr.it.next(h)
		} else {
			if fr.scan >= fr.copy {
				e.pop()
				continue
			}
			r := Ref(fr.scan >> 3)
			m := h.MetaOf(r)
			if leaf, ok := h.leafSize(r, m); ok {
				fr.scan += leaf
				e.scanned(leaf)
				continue
			}
			fr.size = fr.it.start(h, r, m)
			off, ref, ok = fr.it.firstRef()
			fr.mode |= frameInObject
		}
		// Only tenured objects are remembered: one that refers above old,
		// into the nursery (for a survivor object no Ref is above old).
		old := ^Ref(0)
		if fr.region == tenureRegion {
			old = h.nurseryRef - 1
		}
		for ; ok; off, ref, ok = fr.it.next(h) {
			if h.inEvacuate(ref) {
				// evacuate, inlined: one call per copy.
				slot := fr.it.arc(off)
				if e.flagged() {
					ref = e.evacuateFlagged(ref, slot)
				} else if n, p, won := e.forwardTo(ref, slot, &e.inside); n != 0 {
					if won && e.opensFrame(p.region, uintptr(n)<<3) {
						if e.chains && !e.classes.pushes(fr.it.meta, Meta(uint32(p.hdr)), slot) {
							e.pushOrChain(&p, uintptr(n)<<3, slot)
						} else if !e.push(p.region, uintptr(n)<<3, p.size) && e.chains {
							e.startChain(fr.it.meta) // the push overflowed
						}
					}
					ref = n
				} else {
					ref = e.copyInsideOrOutside(&p, slot)
				}
				fr.it.storeClass(off, ref)
			}
			if ref > old {
				fr.mode |= frameRemembered
			}
			if e.active != f {
				break
			}
		}
		if e.active != f {
			continue // pushed: the new frame runs first
		}
		if fr.mode != frameInObject {
			e.endObject(f)
			continue
		}
		fr.scan += fr.size
		fr.mode = 0
		e.scanned(fr.size)
	}
}

// endObject retires the scanned object at the scan head of frame f (the
// active one) when that is more than scan's step: the object is
// remembered, or the frame holds a chain, whose boundary follows and
// whose further elements scanChain scans.
func (e *evacuator) endObject(f int) {
	if e.retire(f) {
		e.flags &^= flagChain // scanChain applies the chain's rules itself
		e.scanChain(f)
	}
}

// retire is endObject's retirement of the object; it reports whether the
// frame holds a chain.
func (e *evacuator) retire(f int) bool {
	fr := &e.stack[f]
	if fr.mode&frameRemembered != 0 {
		e.rememberTenured(Ref(fr.scan >> 3))
	}
	e.advance(fr)
	if fr.mode == 0 {
		return false
	}
	// A chain element: the boundary, when the frame may be low on
	// whitespace (chainBoundary tells).
	if e.chain[f].full || fr.free() <= e.remainderDrop {
		e.chainBoundary(fr, f)
	}
	return true
}

// advance moves frame fr's scan head past the scanned object at it; the
// frame keeps only its chain bit.
func (e *evacuator) advance(fr *frame) {
	fr.scan += fr.size
	fr.mode &= frameChain
	e.scanned(fr.size)
}

// pop retires the exhausted active frame: it is rebased (its leftover
// whitespace stays for later pushes) and the frame below resumes. On
// reaching the bottom after a stack overflow, frames become zero-width
// (depth-first) until the next work item.
func (e *evacuator) pop() {
	fr := &e.stack[e.active]
	fr.base = fr.scan
	fr.mode = 0
	e.active--
	if e.active <= 0 && e.flags&flagStackOverflow != 0 {
		e.flags = e.flags&^flagStackOverflow | flagDepthFirst
	}
}

// evacuate copies r (in evacuate space) inside or outside the stack and
// returns its new reference. It may push a frame (e.active changes). The
// common case, an inside copy into a white frame with room while no flush
// condition holds, is forwardTo's; the rest is copyInsideOrOutside's, or
// evacuateFlagged's while flagged. (scan repeats these lines to save a
// call per copy.)
func (e *evacuator) evacuate(r Ref, slot uintptr) Ref {
	if e.flagged() {
		return e.evacuateFlagged(r, slot)
	}
	n, p, won := e.forwardTo(r, slot, &e.inside)
	if n == 0 {
		return e.copyInsideOrOutside(&p, slot)
	}
	if won && e.opensFrame(p.region, uintptr(n)<<3) {
		e.push(p.region, uintptr(n)<<3, p.size)
	}
	return n
}

// flagged reports whether a flush condition may hold or a chain frame may
// be on the stack, which evacuateFlagged decides; else forwardTo may copy
// into the white frames (e.inside).
func (e *evacuator) flagged() bool {
	return e.flags&^flagDepthFirst != 0 || !e.solo && e.h.stalled()
}

// noDestination takes no copy: forwardTo only reads the header.
var noDestination destination

// evacuateFlagged is evacuate while flagged: a chain frame's copies go by
// the chain's rules (chainEvacuate), as do those of a list in a moving
// window while a peer is stalled (shareList makes it a chain frame); any
// other copy is copyInsideOrOutside's.
func (e *evacuator) evacuateFlagged(r Ref, slot uintptr) Ref {
	if e.active >= 0 && (e.stack[e.active].mode&frameChain != 0 || e.shareList()) {
		return e.chainEvacuate(r, slot)
	}
	n, p, _ := e.forwardTo(r, slot, &noDestination)
	if n == 0 {
		n = e.copyInsideOrOutside(&p, slot)
	}
	return n
}

// copyInsideOrOutside copies p inside, refreshing the stack whitespace, or
// outside when a flush condition holds or the stack has no room.
func (e *evacuator) copyInsideOrOutside(p *pendingCopy, slot uintptr) Ref {
	reg := p.region
	if p.size <= e.insideSize && !e.flushOutside(reg) {
		if w := e.insideRoom(reg, p.size); w >= 0 {
			return e.copyInside(p, w, slot)
		}
	}
	return e.copyOutside(p, slot)
}

// copyInside copies p into white frame w, which has room, and pushes a
// frame for it when it lands beyond the active frame's width (or, with
// chain detection, continues a chain instead).
func (e *evacuator) copyInside(p *pendingCopy, w int, slot uintptr) Ref {
	at := e.stack[w].copy
	d := only(p.region, &e.stack[w].copyspace, true)
	n, _, won := e.forwardTo(p.from, slot, &d)
	if r := e.stack[w].region; won && e.opensFrame(r, at) {
		if e.active >= 0 {
			e.pushOrChain(p, at, slot)
		} else {
			e.push(r, at, p.size)
		}
	}
	return n
}

// setWhite records frame f (-1: none) as holding region r's stack
// whitespace.
func (e *evacuator) setWhite(r region, f int) {
	e.white[r] = f
	e.inside.to[r] = nil
	if f >= 0 {
		e.inside.to[r] = &e.stack[f].copyspace
	}
}

// opensFrame reports whether a copy at offset at that just landed in
// region reg's white frame needs a frame of its own (push): when it is
// beyond the active frame's width or in a frame above the active one.
// Copies into frames below the active one are scanned when the stack
// unwinds to them. It is small enough to inline.
func (e *evacuator) opensFrame(reg region, at uintptr) bool {
	w, f := e.white[reg&1], e.active
	return w > f || w == f && at > e.stack[f].base+e.distance&e.widthMask()
}

// widthMask is all ones while frames have width (distance), zero while
// they are depth-first.
func (e *evacuator) widthMask() uintptr {
	if e.flags&flagDepthFirst != 0 {
		return 0
	}
	return ^uintptr(0)
}

// push opens a frame for the size-byte copy at offset at in region reg's
// white frame (opensFrame). It reports false on a stack overflow: the
// copy is then scanned where it is.
func (e *evacuator) push(reg region, at, size uintptr) bool {
	w := e.white[reg&1]
	nf := e.nextFrame(reg, e.active+1)
	if nf < 0 {
		return false
	}
	if nf != w {
		fw, nfr := &e.stack[w], &e.stack[nf]
		nfr.copyspace = copyspace{region: reg, base: at, scan: at, copy: at + size, end: fw.end}
		nfr.mode = 0
		fw.copy, fw.end = at, at
		e.setWhite(reg, nf)
	}
	e.active = nf
	e.es.activations[nf]++
	return true
}

// nextFrame returns frame f, or f+1 if f holds the other region's
// whitespace, or -1 past the maximum depth: a stack overflow. Without
// chain detection an overflow raises the stack-overflow condition (one
// overflow until it clears); with it, the caller keeps the copy in a
// chain or copies it outside, and an overflow counts unless the active
// frame already holds a chain (one overflow per chain it starts).
func (e *evacuator) nextFrame(reg region, f int) int {
	if f == e.white[reg.other()] {
		f++
	}
	if f >= e.depth {
		if e.chains {
			if e.active < 0 || e.stack[e.active].mode&frameChain == 0 {
				e.stats.stackOverflows++
			}
			return -1
		}
		if e.flags&flagStackOverflow == 0 {
			e.stats.stackOverflows++
		}
		e.flags |= flagStackOverflow
		return -1
	}
	return f
}

// flushOutside reports whether copies of region r must go outside.
func (e *evacuator) flushOutside(r region) bool {
	if !e.solo {
		if e.h.stalled() {
			e.flags |= flagStall
		} else {
			e.flags &^= flagStall
		}
	}
	block := e.flags &^ (flagDepthFirst | flagChain | overflowFlag(r.other()))
	if block == 0 {
		return false
	}
	switch {
	case block&flagStall != 0:
		e.es.flushStall++
	case block&(flagSurvivorOverflow|flagTenureOverflow) != 0:
		e.es.flushOverflow++
	}
	return true
}

// insideRoom returns the white frame of region r once it has room for
// size bytes, refreshing the stack whitespace when the remainder is at most
// Config.StackRemainderDrop bytes (OMR's rule: inside whitespace sits next
// to the objects being scanned, so it is worth more than a fresh chunk);
// -1 sends the copy outside.
func (e *evacuator) insideRoom(r region, size uintptr) int {
	w := e.white[r]
	var rem uintptr
	if w >= 0 {
		rem = e.stack[w].end - e.stack[w].copy
		if rem >= size {
			return w
		}
	}
	if rem > e.remainderDrop {
		return -1
	}
	nf := e.nextFrame(r, e.active+1)
	if nf < 0 {
		if e.chains && e.active >= 0 {
			// The active frame goes on as a chain: it takes fresh
			// whitespace at its next element (chainBoundary).
			e.beginChain(e.stack[e.active].it.meta)
			e.chain[e.active].full = true
		}
		return -1
	}
	b, ok := e.ws.take(r, size)
	if !ok {
		return -1
	}
	if w >= 0 {
		e.ws.discard(r, e.stack[w].whitespace())
		e.stack[w].seal()
	}
	e.stack[nf] = frame{copyspace: newCopyspace(r, b)}
	e.setWhite(r, nf)
	return nf
}

// copyOutside copies an object into its region's outside copyspace (or the
// other region's when its own is exhausted), handling refresh, overflow,
// injection into the stack and solo copies (EVACUATOR.md §2.7).
func (e *evacuator) copyOutside(p *pendingCopy, slot uintptr) Ref {
	for _, r := range [2]region{p.region, p.region.other()} {
		cs := &e.outside[r]
		if cs.free() >= p.size {
			return e.copyInto(p, cs, slot)
		}
		if e.ws.keepRemainder(cs, e.overflowBytes[r]) {
			// Too much left to drop: overflow. Place the misfit in the
			// stack whitespace if it fits, else solo.
			if cs.free() < e.ws.refresh {
				e.flags |= overflowFlag(r)
			}
			e.overflowBytes[r] += p.size
			if w := e.white[r]; w >= 0 && e.stack[w].free() >= p.size {
				return e.copyInside(p, w, slot)
			}
			if b, ok := e.ws.takeSolo(r, p.size); ok {
				return e.copySolo(p, r, b, slot)
			}
			continue
		}
		// Refresh: release the work, give up the remainder, take new
		// whitespace.
		b, ok := e.ws.take(r, p.size)
		if !ok {
			continue
		}
		e.releaseWork(cs)
		e.ws.discard(r, cs.whitespace())
		*cs = newCopyspace(r, b)
		e.flags &^= overflowFlag(r)
		e.overflowBytes[r] = 0
		return e.copyInto(p, cs, slot)
	}
	panic(outOfSpace())
}

// copyInto copies into an outside copyspace with room and releases its
// work once it reaches the release threshold.
func (e *evacuator) copyInto(p *pendingCopy, cs *copyspace, slot uintptr) Ref {
	d := only(p.region, cs, false)
	n, _, won := e.forwardTo(p.from, slot, &d)
	if won && cs.work() >= e.release {
		e.releaseWork(cs)
	}
	return n
}

// copySolo copies an object into a block of its own; the copy is work at
// once and the rest of the block is disposed of as a remainder.
func (e *evacuator) copySolo(p *pendingCopy, r region, b block, slot uintptr) Ref {
	cs := newCopyspace(r, b)
	d := only(p.region, &cs, false)
	n, _, won := e.forwardTo(p.from, slot, &d)
	if won {
		e.addWork(workspace{region: r, base: b.base, size: p.size})
	}
	e.ws.discard(r, cs.whitespace())
	return n
}

// releaseWork hands a copyspace's copied material to the worklist.
func (e *evacuator) releaseWork(cs *copyspace) {
	if cs.work() == 0 {
		return
	}
	e.addWork(workspace{region: cs.region, base: cs.scan, size: cs.work()})
	cs.scan = cs.copy
	e.release = e.releaseThreshold()
}

// releaseThreshold is the work release threshold: the worker's own volume
// clamped to [quantum, 16 quanta], or one quantum while a peer is stalled.
func (e *evacuator) releaseThreshold() uintptr {
	if e.h.stalled() {
		return e.quantum
	}
	return min(max(uintptr(e.volume.Load()), e.quantum), 16*e.quantum)
}

// finish gives back all whitespace: trailing blocks return to their region,
// the rest is kept in the whitelists (tenure's persists) or filled.
func (e *evacuator) finish() {
	for r := range e.white {
		if w := e.white[r]; w >= 0 {
			e.ws.retire(&e.stack[w].copyspace)
		}
	}
	for r := range e.outside {
		e.ws.retire(&e.outside[r])
	}
	e.ws.finish()
}

// holds appends the whitespace of the stack and outside copyspaces.
func (e *evacuator) holds(out *[2][]block) {
	for r, w := range e.white {
		if w >= 0 {
			out[r] = append(out[r], e.stack[w].whitespace())
		}
	}
	for r := range e.outside {
		out[r] = append(out[r], e.outside[r].whitespace())
	}
}

// verify checks the stack and the outside copyspaces between work items
// (-Xcheck:gc): every frame is a well-formed copyspace, with the stack
// empty all its material is scanned, only a white frame holds whitespace
// and it is of its region.
func (e *evacuator) verify() {
	fail := func(format string, args ...any) {
		panic(&verifyError{Msg: fmt.Sprintf("evacuator worker %d: ", e.id) + fmt.Sprintf(format, args...)})
	}
	if e.white[0] >= 0 && e.white[0] == e.white[1] {
		fail("frame %d holds both regions' stack whitespace", e.white[0])
	}
	for i := range e.stack[:e.depth] {
		fr := &e.stack[i]
		if fr.copyspace == (copyspace{}) {
			continue // never used
		}
		lo, hi := e.h.regionBounds(fr.region)
		if err := fr.verify(lo, hi); err != nil {
			fail("frame %d: %v", i, err)
		}
		white := i == e.white[fr.region]
		if !white && fr.free() != 0 {
			fail("frame %d holds %d bytes of whitespace but is not white", i, fr.free())
		}
		if e.active < 0 && fr.work() != 0 {
			fail("frame %d holds %d unscanned bytes with the stack empty", i, fr.work())
		}
		if e.active < 0 && fr.mode&frameChain != 0 {
			fail("frame %d holds a chain with the stack empty", i)
		}
	}
	for r := range e.outside {
		cs := &e.outside[r]
		if cs.end == 0 {
			continue
		}
		lo, hi := e.h.regionBounds(region(r))
		if err := cs.verify(lo, hi); err != nil || cs.region != region(r) {
			fail("outside copyspace %d: %v", r, err)
		}
	}
}

// mergeEvacuatorStats sums the workers' evacuator metrics.
func mergeEvacuatorStats(evacs []*evacuator) *EvacuatorStats {
	s := &EvacuatorStats{StackActivations: make([]uint64, len(evacs[0].es.activations))}
	for _, e := range evacs {
		for i, a := range e.es.activations {
			s.StackActivations[i] += a
		}
		s.FlushStall += e.es.flushStall
		s.FlushOverflow += e.es.flushOverflow
		s.ChainTails += e.stats.chain.released
		s.ChainWalked += e.stats.chain.walked
	}
	return s
}
