package gc

import "sync/atomic"

// The evacuator's chains (chain.go): where a recursive arc's copy stays in
// the active frame instead of opening one, how a list moves its frame's
// window, how a chain frame parts links from payload, and how it gives its
// tail away.

// pushOrChain handles a copy of p, made at offset at through slot by the
// object at the active frame's scan head, that needs a frame of its own
// (opensFrame). Without chain detection it is pushed. With it, a frame
// that holds no chain first tells a branch from a list element
// (plainCopy): a branch is pushed, and with a nonzero frame width a list
// element moves the window. Depth-first, the tail rules follow: a
// recursive arc that is the element's last reference starts a chain in
// the frame that took its copy: scanning it next is what the push would
// have done, and the chain keeps the structure from climbing the stack one
// frame per element. That frame is the active one, or the one above it
// when the element's payload (a non-recursive arc) was pushed first and
// left the stack whitespace there: then the copy is pushed and the new
// frame holds the chain. A recursive arc with references after it is
// pushed. A copy whose push overflows the stack stays where it is as a
// link of a chain in the active frame.
func (e *evacuator) pushOrChain(p *pendingCopy, at, slot uintptr) {
	if !e.chains {
		e.push(p.region, at, p.size)
		return
	}
	fr := &e.stack[e.active]
	if fr.mode&frameChain == 0 && e.plainCopy(fr, p, at, slot) {
		return
	}
	c := &e.chain[e.active]
	to := Meta(uint32(p.hdr))
	link := c.isLink(fr.it.meta, to, slot&hotArc != 0)
	if link && !c.linked(fr.scan) && fr.lastRef(e.h) {
		switch w := e.white[p.region&1]; {
		case w == e.active:
			c.setLinked(fr.scan)
			e.startChain(to)
			return
		case c.pushedPayload(fr.scan) && e.push(p.region, at, p.size):
			c.setLinked(fr.scan)
			e.flags &^= flagChain
			e.startChain(to)
			return
		}
	}
	if e.pushOrOverflow(p, at) && !link {
		c.setPushedPayload(fr.scan)
	}
}

// pushOrOverflow pushes a frame for the copy of p at offset at, and
// reports whether it did. On an overflow the copy stays in the active
// frame, as a link of a chain of the element's class.
func (e *evacuator) pushOrOverflow(p *pendingCopy, at uintptr) bool {
	if !e.push(p.region, at, p.size) {
		e.startChain(e.stack[e.active].it.meta)
		return false
	}
	// The pushed frame holds no chain: its copies take the fast path.
	e.flags &^= flagChain
	return true
}

// plainCopy is pushOrChain for a copy made through slot by the element of
// a frame that holds no chain, fr, the active one; it reports false to
// leave the copy to the tail rules. A branch (a tree node: two recursive
// arcs) is traversed depth-first, as without detection, and only an
// overflow starts a chain. With a nonzero inside copy distance a list
// element keeps the list in its frame by moving the window (reoriginate),
// else the copy is pushed and the list goes on in the new frame; a copy
// without references stays where it lies, since a frame for it would only
// take the stack whitespace up, and with it the list whose payload it is.
// Depth-first (distance 0), a list is left to the tail rules.
//
// The element's recursive arcs are counted only when the copy is one, or
// when its class was found in a list before (the payload of a list
// element may reach the window's edge first); an element whose class
// only pushed payload so far is classPlain, whose pushes scan makes
// itself (classTable.pushes), so a structure without recursive arcs (a
// DOM's element and its arrays) costs a lookup per push.
func (e *evacuator) plainCopy(fr *frame, p *pendingCopy, at, slot uintptr) bool {
	m, to := fr.it.meta, Meta(uint32(p.hdr))
	k := e.classes.of(m)
	if k == classBranch {
		e.pushOrOverflow(p, at)
		return true
	}
	if k >= classPlain && to != m && slot&hotArc != 0 && to.Layout() != LayoutFixed {
		// A hot arc to a class of no family (an array): no recursive
		// arc, and scan pushes the next ones itself.
		e.classes.set(m, classPlainHot)
		e.pushOrOverflow(p, at)
		return true
	}
	if e.distance != 0 && e.refless(at, to) {
		// Scanned where it lies (the class is not taken for plain: its
		// payload may be a list's).
		return e.keepRefless(p, at)
	}
	if k != classList && !recursiveArc(m, to, slot&hotArc != 0) {
		// Payload of an element not known to be in a list: pushed, and
		// from now on by scan itself, until a recursive arc of its class
		// needs a frame.
		if k == classUnknown {
			e.classes.set(m, classPlain)
		}
		return false
	}
	switch e.recursiveArcs(fr) {
	case 0:
		return false
	case 1:
		e.classes.set(m, classList)
		if e.distance == 0 {
			return false
		}
		if !e.reoriginate(fr, p.region, at) {
			e.pushOrOverflow(p, at)
		}
		return true
	}
	e.classes.set(m, classBranch)
	e.pushOrOverflow(p, at)
	return true
}

// recursiveArcs counts, up to two, the recursive arcs of the element at
// frame fr's scan head (fr.it holds its class): one makes it a list
// element, two a branch. Only a referent still in evacuate space and not
// forwarded (or any referent, with one worker) is tested for its family:
// another worker's copy may not have its header yet, so it is only
// compared with the element's class (and a copy's header is never taken
// for a forwarding one).
func (e *evacuator) recursiveArcs(fr *frame) int {
	h, m := e.h, fr.it.meta
	var it slots
	it.start(h, Ref(fr.scan>>3), m)
	n := 0
	for off, ref, ok := it.firstRef(); ok; off, ref, ok = it.next(h) {
		if off == classSlot {
			continue
		}
		hdr := atomic.LoadUint64(h.word(ref, 0))
		stable := e.solo
		if h.inEvacuate(ref) {
			// An original: its header is whole, or forwards.
			if hdr&hdrForwarded == 0 {
				stable = true
			} else {
				hdr = atomic.LoadUint64(h.word(Ref(uint32(hdr)), 0))
			}
		}
		to := Meta(uint32(hdr))
		if to == m || stable && recursiveArc(m, to, it.arc(off)&hotArc != 0) {
			if n++; n == 2 {
				break
			}
		}
	}
	return n
}

// refless reports whether the object of class m at offset at holds no
// reference: a byte object, or an array of values that are not. (An
// instance is not searched: one without references is rare.)
func (e *evacuator) refless(at uintptr, m Meta) bool {
	if _, leaf := e.h.leafSize(Ref(at>>3), m); leaf {
		return true
	}
	if m.Layout() != LayoutSlots {
		return false
	}
	var it slots
	it.start(e.h, Ref(at>>3), m)
	_, _, ok := it.firstRef()
	return !ok
}

// keepRefless keeps a copy of p at offset at, which holds no reference,
// in the white frame that took it instead of pushing a frame for it: in
// the active frame it is scanned in turn; in a frame above, which has
// nothing else left to scan, it is scanned at once (nothing to do but
// count it). It reports false if that frame has other unscanned copies.
func (e *evacuator) keepRefless(p *pendingCopy, at uintptr) bool {
	w := e.white[p.region&1]
	if w == e.active {
		return true
	}
	fr := &e.stack[w]
	if fr.scan != at {
		return false
	}
	fr.scan += p.size
	fr.base = fr.scan
	e.scanned(p.size)
	return true
}

// classKind is what the evacuator learned of a class in a collection:
// whether its objects were found to branch or to form a list, or pushed
// a frame for their payload before either was found.
type classKind uint8

const (
	classUnknown classKind = iota
	classList
	classPlain    // pushed payload through a cold slot
	classPlainHot // and through its hottest slot to a class of no family
	classBranch
)

// pushes reports whether a copy of class to, made through slot by an
// element of class m, is pushed as without detection, with no more
// questions: m branches, or only pushed its payload so far and this is
// no arc to its own class nor through its hottest slot (plainCopy asks
// whether that one is to its family). It is small enough for scan to
// inline.
func (t *classTable) pushes(m, to Meta, slot uintptr) bool {
	k := t.of(m)
	return k == classBranch || k >= classPlain && to != m && (k == classPlainHot || slot&hotArc == 0)
}

// classTable is a small two-way set-associative table of classKind by
// class: a program's few dozen classes seldom meet three to a set, and
// a class pushed out is only counted again.
type classTable struct {
	sets [32]struct {
		meta [2]Meta
		kind [2]classKind
	}
}

// classSet hashes a class to its set (Fibonacci hashing: class records
// are allocated at strides whose low bits are all alike).
func classSet(m Meta) int { return int(uint32(m) * 0x9e3779b1 >> 27) }

// of returns what is known of class m. It is small enough to inline:
// scan pushes a tree's copies itself.
func (t *classTable) of(m Meta) classKind {
	s := &t.sets[classSet(m)]
	if s.meta[0] == m {
		return s.kind[0]
	}
	if s.meta[1] == m {
		return s.kind[1]
	}
	return classUnknown
}

// set records what was found of class m; a branch stays a branch. A new
// class takes the set's first way, the class there moves to the second.
func (t *classTable) set(m Meta, k classKind) {
	s := &t.sets[classSet(m)]
	for w := range s.meta {
		if s.meta[w] == m {
			if s.kind[w] != classBranch {
				s.kind[w] = k
			}
			return
		}
	}
	s.meta[1], s.kind[1] = s.meta[0], s.kind[0]
	s.meta[0], s.kind[0] = m, k
}

// reoriginate keeps a copy of region reg at offset at in the active
// frame fr, the white frame, when the frame's element is a list element
// (one recursive arc) and the copy lies within the inside copy distance
// of it: the frame's window starts again at the element, so that the
// list goes on in this frame rather than climbing the stack one frame
// per window, with its payload inside as in any window. Reported false
// with no such window (distance 0: chains take the list there) or when
// the copy lies beyond it.
func (e *evacuator) reoriginate(fr *frame, reg region, at uintptr) bool {
	if e.white[reg&1] != e.active || at > fr.scan+e.distance&e.widthMask() {
		return false
	}
	// One chain while its window moves, in this frame or one up (where
	// the list goes on after a refresh of the stack whitespace).
	if !(e.slid.f == e.active && e.slid.base == fr.base || e.slid.f == e.active-1) {
		e.stats.chain.chains++
	}
	fr.base = fr.scan
	e.slid.f, e.slid.base, e.slid.link = e.active, fr.base, fr.it.meta
	e.stats.chain.chainCopies++
	return true
}

// shareList makes the active frame hold a chain when it holds a list
// whose window moved (reoriginate) while a peer is stalled: a list in a
// window is one worker's work, a chain frame releases its tail and sends
// its payload outside for the peer (chainEvacuate, chainBoundary).
func (e *evacuator) shareList() bool {
	fr := &e.stack[e.active]
	if !e.chains || e.solo || e.slid.f != e.active || e.slid.base != fr.base || !e.h.stalled() {
		return false
	}
	e.beginChain(e.slid.link)
	return true
}

// lastRef reports whether the frame's element has no reference after the
// one being evacuated.
func (fr *frame) lastRef(h *Heap) bool {
	it := fr.it
	_, _, more := it.next(h)
	return !more
}

// startChain counts a link copy into the active frame and makes it hold
// a chain continued by class link if it holds none yet.
func (e *evacuator) startChain(link Meta) {
	e.stats.chain.chainCopies++
	e.beginChain(link)
}

// beginChain makes the active frame hold a chain continued by class link
// if it holds none yet.
func (e *evacuator) beginChain(link Meta) {
	fr, c := &e.stack[e.active], &e.chain[e.active]
	e.flags |= flagChain
	if fr.mode&frameChain != 0 {
		return
	}
	fr.mode |= frameChain
	c.start(link)
	e.stats.chain.chains++
	if e.h.cfg.Verify {
		if err := c.verify(e.h, &fr.copyspace); err != nil {
			panic(&verifyError{Msg: err.Error()})
		}
	}
}

// chainEvacuate copies (or forwards) r, referred to through slot by the
// object at the scan head of the active frame, which holds a chain. The
// element's first link is the chain's next element: it is copied into the
// frame's whitespace, right behind the last, with no push while the frame
// has room. A further link (a branch) takes the evacuator's usual course,
// up the stack. Anything else (the payload) is copied outside, so that
// the chain's elements stay back to back and the payload is work that
// other workers can take. Links ignore the stall condition: a chain is
// shared by releasing its tail (chainBoundary).
func (e *evacuator) chainEvacuate(r Ref, slot uintptr) Ref {
	fr, c := &e.stack[e.active], &e.chain[e.active]
	hdr := atomic.LoadUint64(e.h.word(r, 0))
	link := hdr&hdrForwarded == 0 && c.isLink(fr.it.meta, Meta(uint32(hdr)), slot&hotArc != 0)
	if !link || c.linked(fr.scan) {
		return e.chainPayload(r, slot, link)
	}
	n, p, won := e.forwardTo(r, slot, e.linkDestination())
	return e.chainLinked(n, p, won, slot)
}

// chainPayload copies (or forwards) r, which is not the chain's next
// element of the active frame's scan head: a further link (link) the
// usual way, anything else outside.
func (e *evacuator) chainPayload(r Ref, slot uintptr, link bool) Ref {
	n, p, _ := e.forwardTo(r, slot, &noDestination)
	switch {
	case n != 0:
	case link:
		n = e.copyInsideOrOutside(&p, slot)
	default:
		n = e.copyOutside(&p, slot)
	}
	return n
}

// chainOther is chainPayload in scanChain: while no flush condition
// holds, a further link takes scan's fast path (a copy into the white
// frames) and the payload goes straight into the outside copyspaces, one
// forwardTo call each when there is room.
func (e *evacuator) chainOther(r Ref, slot uintptr, link bool) Ref {
	if e.flagged() {
		return e.chainPayload(r, slot, link)
	}
	if link {
		n, p, won := e.forwardTo(r, slot, &e.inside)
		if n == 0 {
			return e.copyInsideOrOutside(&p, slot)
		}
		if won && e.opensFrame(p.region, uintptr(n)<<3) {
			e.pushOrChain(&p, uintptr(n)<<3, slot)
		}
		return n
	}
	n, p, won := e.forwardTo(r, slot, &e.outsideDest)
	if n == 0 {
		return e.copyOutside(&p, slot)
	}
	if cs := &e.outside[p.region&1]; won && cs.work() >= e.release {
		e.releaseWork(cs)
	}
	return n
}

// linkDestination is where forwardTo copies a chain's next element: the
// white frames, unless copies are breadth-first or an outside overflow
// holds (then chainCopy decides).
func (e *evacuator) linkDestination() *destination {
	if e.flags&^(flagDepthFirst|flagStall|flagChain) != 0 {
		return &noDestination
	}
	return &e.inside
}

// chainLinked completes the copy of the chain's next element of the
// active frame's scan head, which forwardTo returned (n 0: it could not
// copy p).
func (e *evacuator) chainLinked(n Ref, p pendingCopy, won bool, slot uintptr) Ref {
	at := uintptr(n) << 3
	if n == 0 {
		n, at, won = e.chainCopy(&p, slot)
	}
	if won {
		// The chain goes on where the link was copied: in the active
		// frame or in the frame pushed for it.
		e.chain[e.active].setLinked(e.stack[e.active].scan)
		if e.white[p.region&1] == e.active {
			e.stats.chain.chainCopies++
		} else if e.opensFrame(p.region, at) && e.push(p.region, at, p.size) {
			// The pushed frame may have too little whitespace for its
			// first element's link.
			e.startChain(Meta(uint32(p.hdr)))
			e.chainBoundary(&e.stack[e.active], e.active)
		}
	}
	return n
}

// scanChain scans the elements of chain frame f (the active one) after
// the one endObject retired, until the frame is exhausted or a copy
// pushes a frame (then scan resumes the element when the stack unwinds to
// it). It is scan's loop for a chain frame with chainEvacuate inlined:
// the common copy, the element's next element into the frame right
// behind it, is one forwardTo call.
func (e *evacuator) scanChain(f int) {
	h := e.h
	fr, c := &e.stack[f], &e.chain[f]
	old := h.oldBound(fr.region)
	for fr.scan < fr.copy {
		r := Ref(fr.scan >> 3)
		m := h.MetaOf(r)
		if leaf, ok := h.leafSize(r, m); ok {
			fr.scan += leaf
			e.scanned(leaf)
			continue
		}
		fr.size = fr.it.start(h, r, m)
		fr.mode |= frameInObject
		// c.linked(fr.scan) in a register: a new element has copied no
		// link yet, and only the slow paths may record one elsewhere.
		linked := false
		for off, ref, ok := fr.it.firstRef(); ok; off, ref, ok = fr.it.next(h) {
			if h.inEvacuate(ref) {
				slot := fr.it.arc(off)
				hdr := atomic.LoadUint64(h.word(ref, 0))
				link := hdr&hdrForwarded == 0 && c.isLink(fr.it.meta, Meta(uint32(hdr)), slot&hotArc != 0)
				if !link || linked {
					ref = e.chainOther(ref, slot, link)
					linked = c.linked(fr.scan)
				} else if n, p, won := e.forwardTo(ref, slot, e.linkDestination()); won && e.white[p.region&1] == f {
					c.setLinked(fr.scan)
					linked = true
					e.stats.chain.chainCopies++
					ref = n
				} else {
					ref = e.chainLinked(n, p, won, slot)
					linked = c.linked(fr.scan)
				}
				fr.it.storeClass(off, ref)
			}
			if ref > old {
				fr.mode |= frameRemembered
			}
			if e.active != f {
				return
			}
		}
		// retire's common case, written out: with one worker, an element
		// that is not remembered, in a frame with whitespace to spare.
		if fr.mode&frameRemembered == 0 && e.solo && !c.full && fr.free() > e.remainderDrop {
			e.advance(fr)
		} else if e.retireElement(f) {
			return
		}
	}
}

// retireElement is scanChain's retirement of the element at frame f's
// scan head when that is more than a step (retire), after which, in a
// parallel collection, the frame walks while the worker's worklist is
// short (walkChain). It reports whether a walked link pushed a frame.
func (e *evacuator) retireElement(f int) bool {
	e.retire(f)
	if e.solo || !e.shortOfWork() {
		return false
	}
	e.walkChain(f)
	return e.active != f
}

// walkBacklog is the work, in quanta, below which a worker's worklist
// makes its chain frame walk (walkChain).
const walkBacklog = 2

// shortOfWork reports whether the worker's worklist holds less than
// walkBacklog quanta, so that its chain frame walks.
func (e *evacuator) shortOfWork() bool {
	return e.volume.Load() < int64(walkBacklog*e.quantum)
}

// walkChain walks chain frame f (the active one) in a parallel collection
// while the worker's worklist holds less than walkBacklog quanta (chain.go
// says why): each element's first link is copied into the frame, right
// behind the last element, and the rest of the element (its payload and
// further links, and the remembered-set test) is left to whoever scans it
// again. The walked elements are released as ordinary work in runs of a
// quantum. An element with nothing left but its link is scanned here and
// not released (a list without payload is not scanned twice). Walking
// every element would scan each payload-carrying one twice, so the worker
// walks only while its peers may run short, and scanChain goes on with
// the following elements. The run is released before walkChain returns:
// when the link pushed a frame (the element is then done, and scan
// resumes the frame at the next one), when the worklist is full enough,
// when the frame is exhausted, and before the frame releases its tail.
func (e *evacuator) walkChain(f int) {
	h := e.h
	fr, c := &e.stack[f], &e.chain[f]
	old := h.oldBound(fr.region)
	run := fr.scan
	for fr.scan < fr.copy && e.shortOfWork() {
		at := fr.scan
		r := Ref(at >> 3)
		m := h.MetaOf(r)
		if leaf, ok := h.leafSize(r, m); ok {
			fr.scan += leaf
			if run == at {
				// No run open: nothing is left of it to scan.
				e.scanned(leaf)
				run = fr.scan
			}
			continue
		}
		fr.size = fr.it.start(h, r, m)
		linked, rest, young := false, false, false
		for off, ref, ok := fr.it.firstRef(); ok; off, ref, ok = fr.it.next(h) {
			if h.inEvacuate(ref) {
				slot := fr.it.arc(off)
				hdr := atomic.LoadUint64(h.word(ref, 0))
				if linked || hdr&hdrForwarded != 0 || !c.isLink(fr.it.meta, Meta(uint32(hdr)), slot&hotArc != 0) {
					rest = true
					continue
				}
				n, p, won := e.forwardTo(ref, slot, e.linkDestination())
				if won && e.white[p.region&1] == f {
					e.stats.chain.chainCopies++
				} else {
					n = e.chainLinked(n, p, won, slot)
				}
				fr.it.storeClass(off, n)
				linked, ref = true, n
			}
			young = young || ref > old
		}
		fr.scan += fr.size
		if rest {
			e.stats.chain.walked++
		} else {
			// Only the link was left: the element is scanned, and a
			// run before it goes as it is.
			e.releaseRun(fr.region, run, at)
			if young {
				e.rememberTenured(r)
			}
			e.scanned(fr.size)
			run = fr.scan
		}
		if e.active != f {
			break
		}
		if fr.scan-run >= e.quantum {
			e.releaseRun(fr.region, run, fr.scan)
			run = fr.scan
		}
		if c.full || fr.free() <= e.remainderDrop {
			e.releaseRun(fr.region, run, fr.scan)
			e.chainBoundary(fr, f)
			run = fr.scan
		}
	}
	e.releaseRun(fr.region, run, fr.scan)
}

// releaseRun releases the elements [from, to) of a chain frame of region
// reg, walked by walkChain, to be scanned again for the rest.
func (e *evacuator) releaseRun(reg region, from, to uintptr) {
	if to > from {
		e.addWork(workspace{region: reg, base: from, size: to - from})
	}
}

// oldBound is the Ref above which a reference, stored in an object of
// region reg, makes the object remembered: only a tenured object that
// refers into the nursery is (for a survivor object no Ref is above).
func (h *Heap) oldBound(reg region) Ref {
	if reg == tenureRegion {
		return h.nurseryRef - 1
	}
	return ^Ref(0)
}

// chainCopy copies p, the next element of the chain in the active frame,
// when forwardTo could not: into fresh whitespace (the chain goes on in
// the frame above), else outside. won reports a copy into a white frame,
// at offset at.
func (e *evacuator) chainCopy(p *pendingCopy, slot uintptr) (n Ref, at uintptr, won bool) {
	fr := &e.stack[e.active]
	if p.size > e.insideSize || e.flags&(flagBreadthFirst|overflowFlag(p.region)) != 0 {
		return e.copyOutside(p, slot), 0, false
	}
	w := e.white[p.region&1]
	if w == e.active && fr.free() < p.size {
		// Mid-element the frame cannot take new whitespace (its element
		// is in the old block): this link goes outside, and the frame
		// refreshes after the element (chainBoundary).
		e.chain[e.active].full = true
		return e.copyOutside(p, slot), 0, false
	}
	if w = e.insideRoom(p.region, p.size); w < 0 {
		return e.copyOutside(p, slot), 0, false
	}
	// Frame w is now region p.region's white frame (e.inside's), with room.
	at = e.stack[w].copy
	n, _, won = e.forwardTo(p.from, slot, &e.inside)
	return n, at, won
}

// chainBoundary runs after each element of chain frame fr (frame f, the
// active frame). When a link did not fit the frame's whitespace (or at
// most the droppable remainder is left), the unscanned elements (the
// tail) are released as work, scanned as a chain from the start wherever
// they are taken, and the frame takes fresh whitespace, so that the chain
// goes on from the worklist rather than in ever higher frames. A stalled
// peer is handed the tail (handTo), so the chain moves between workers.
// A tail is not released only because a peer is stalled: a chain is
// walked one element after another by whoever holds it, so handing it
// over at an element boundary makes the peer the chain's walker and
// stalls the releasing worker in turn (a tail of one element at each
// boundary, passed back and forth: two workers' pauses were three times
// one worker's).
func (e *evacuator) chainBoundary(fr *frame, f int) {
	c := &e.chain[f]
	if fr.scan >= fr.copy || e.white[fr.region] != f || !c.full && fr.free() > e.remainderDrop {
		return
	}
	ws := workspace{region: fr.region, chain: c.link, base: fr.scan, size: fr.work()}
	if e.solo || !e.h.stalled() || !e.handTo(ws) {
		e.addWork(ws)
	}
	fr.scan = fr.copy
	e.stats.chain.released++
	// At least a quantum: small whitelist blocks would end the chain
	// again after a few elements.
	if b, ok := e.ws.take(fr.region, max(e.insideSize, e.quantum)); ok {
		e.ws.discard(fr.region, fr.whitespace())
		fr.copyspace = newCopyspace(fr.region, b)
	}
	c.full = false
}
