package gc

import "sync/atomic"

// The evacuator's chains (chain.go): where a recursive arc's copy stays in
// the active frame instead of opening one, how a chain frame parts links
// from payload, and how it gives its tail away.

// pushOrChain handles a copy of p, made at offset at through slot by the
// object at the active frame's scan head, that needs a frame of its own
// (opensFrame). Without chain detection it is pushed. With it, a
// recursive arc that is the element's last reference and whose copy
// landed in the active frame starts a chain there: the copy is the next
// element, and scanning it after its parent is what the push would have
// done, without the frame. A recursive arc with references after it (a
// branch) is pushed, so branching structures keep their depth-first
// order. A copy whose push overflows the stack stays where it is as a
// link of a chain in the active frame.
func (e *evacuator) pushOrChain(p *pendingCopy, at, slot uintptr) {
	if !e.chains {
		e.push(p.region, at, p.size)
		return
	}
	fr := &e.stack[e.active]
	to := Meta(uint32(p.hdr))
	if e.white[p.region&1] == e.active && !fr.linked() && fr.chain.isLink(fr.it.meta, to, slot&hotArc != 0) && fr.lastRef(e.h) {
		fr.setLinked()
		e.startChain(fr, to)
		return
	}
	if !e.push(p.region, at, p.size) {
		// Overflow: the copy stays here, as a link of a chain of the
		// element's class.
		e.startChain(fr, fr.it.meta)
	}
}

// linked reports whether the element at the frame's scan head has copied
// its first link; setLinked records that it has.
func (fr *frame) linked() bool { return fr.chain.linkedAt == fr.scan|1 }
func (fr *frame) setLinked()   { fr.chain.linkedAt = fr.scan | 1 }

// lastRef reports whether the frame's element has no reference after the
// one being evacuated.
func (fr *frame) lastRef(h *Heap) bool {
	it := fr.it
	_, _, more := it.next(h)
	return !more
}

// startChain counts a link copy into frame fr and makes fr hold a chain
// continued by class link if it holds none yet.
func (e *evacuator) startChain(fr *frame, link Meta) {
	e.stats.chain.chainCopies++
	e.beginChain(fr, link)
}

// beginChain makes fr hold a chain continued by class link if it holds
// none yet.
func (e *evacuator) beginChain(fr *frame, link Meta) {
	if fr.chain.active() {
		return
	}
	fr.chain.start(link)
	e.stats.chain.chains++
	if e.h.cfg.Verify {
		if err := fr.chain.verify(e.h, &fr.copyspace); err != nil {
			panic(&verifyError{Msg: err.Error()})
		}
	}
}

// chainSlots is scan's slot loop for an element of chain frame fr (frame
// f), from the reference off, ref, ok on: each evacuate-space reference is
// copied by the chain's rules (chainEvacuate). It stops after a push.
func (e *evacuator) chainSlots(fr *frame, f int, off uintptr, ref Ref, ok, track bool) {
	h := e.h
	for ; ok; off, ref, ok = fr.it.next(h) {
		if h.inEvacuate(ref) {
			ref = e.chainEvacuate(fr, ref, fr.it.arc(off))
			fr.it.storeClass(off, ref)
		}
		if track && h.isYoung(ref) {
			fr.remembered = true
		}
		if e.active != f {
			return
		}
	}
}

// chainEvacuate copies (or forwards) ref for the object at the scan head
// of chain frame fr, the active frame, through slot, and returns its new
// reference. The element's first link is the chain's next element: it is
// copied into the frame's whitespace, right behind the last, with no push
// while the frame has room. A further link (a branch) takes the
// evacuator's usual course, up the stack. Anything else (the payload) is
// copied outside, so that the chain's elements stay back to back and the
// payload is work that other workers can take. Links ignore the stall
// condition: a chain is shared by releasing its tail (chainBoundary).
func (e *evacuator) chainEvacuate(fr *frame, ref Ref, slot uintptr) Ref {
	hdr := atomic.LoadUint64(e.h.word(ref, 0))
	if hdr&hdrForwarded != 0 || !fr.chain.isLink(fr.it.meta, Meta(uint32(hdr)), slot&hotArc != 0) {
		n, p, _ := e.forwardTo(ref, slot, &noDestination)
		if n == 0 {
			n = e.copyOutside(&p, slot)
		}
		return n
	}
	if fr.linked() {
		return e.evacuate(ref, slot)
	}
	d := &e.inside
	if e.flags&^(flagDepthFirst|flagStall) != 0 {
		d = &noDestination // breadth-first or an outside overflow: chainCopy
	}
	n, p, won := e.forwardTo(ref, slot, d)
	if n == 0 {
		return e.chainCopy(&p, slot)
	}
	if won {
		fr.setLinked()
		if e.white[p.region&1] == e.active {
			e.stats.chain.chainCopies++
		} else if at := uintptr(n) << 3; e.opensFrame(p.region, at) && e.push(p.region, at, p.size) {
			e.startChain(&e.stack[e.active], Meta(uint32(p.hdr)))
		}
	}
	return n
}

// chainCopy copies p, the next element of the chain in the active frame,
// when the fast path could not: into the frame's whitespace or, when the
// frame has none, into fresh whitespace (the chain goes on in the frame
// above), else outside.
func (e *evacuator) chainCopy(p *pendingCopy, slot uintptr) Ref {
	fr := &e.stack[e.active]
	if p.size > e.insideSize || e.flags&(flagBreadthFirst|overflowFlag(p.region)) != 0 {
		return e.copyOutside(p, slot)
	}
	w := e.white[p.region&1]
	if w == e.active && fr.free() < p.size {
		// Mid-element the frame cannot take new whitespace (its element
		// is in the old block): this link goes outside, and the frame
		// refreshes at the next element (chainBoundary).
		fr.chain.full = true
		return e.copyOutside(p, slot)
	}
	if w = e.insideRoom(p.region, p.size); w < 0 {
		return e.copyOutside(p, slot)
	}
	at := e.stack[w].copy
	d := only(p.region, &e.stack[w].copyspace, true)
	n, _, won := e.forwardTo(p.from, slot, &d)
	if !won {
		return n
	}
	fr.setLinked()
	if w == e.active {
		e.stats.chain.chainCopies++
	} else if e.opensFrame(p.region, at) && e.push(p.region, at, p.size) {
		e.startChain(&e.stack[e.active], Meta(uint32(p.hdr)))
	}
	return n
}

// chainBoundary runs between two elements of chain frame fr (the active
// frame). While a peer is stalled the unscanned elements are released as
// work, so a thief can continue the chain (a released tail is scanned as a
// chain from the start, wherever it is taken). When a link did not fit the
// frame's whitespace (or at most the droppable remainder is left), the
// tail is released too and the frame takes fresh whitespace, so the
// chain goes on from the worklist rather than in ever higher frames. It
// reports whether the frame's scan changed (the caller looks again).
func (e *evacuator) chainBoundary(fr *frame) bool {
	low := e.white[fr.region] == e.active && (fr.chain.full || fr.free() <= e.remainderDrop)
	if !low && (e.solo || !e.h.stalled()) {
		return false
	}
	e.addWork(workspace{region: fr.region, chain: fr.chain.link, base: fr.scan, size: fr.work()})
	fr.scan = fr.copy
	e.stats.chain.released++
	if low {
		// At least a quantum: small whitelist blocks would end the chain
		// again after a few elements.
		if b, ok := e.ws.take(fr.region, max(e.insideSize, e.quantum)); ok {
			e.ws.discard(fr.region, fr.whitespace())
			fr.copyspace = newCopyspace(fr.region, b)
		}
		fr.chain.full = false
	}
	return true
}
