package gc

import "sync/atomic"

// The evacuator's chains (chain.go): where a recursive arc's copy stays in
// the active frame instead of opening one, how a chain frame parts links
// from payload, and how it gives its tail away.

// pushOrChain handles a copy of p, made at offset at through slot by the
// object at the active frame's scan head, that needs a frame of its own
// (opensFrame). Without chain detection it is pushed. With it, a
// recursive arc that is the element's last reference starts a chain in
// the frame that took its copy: scanning it next is what the push would
// have done, and the chain keeps the structure from climbing the stack one
// frame per element. That frame is the active one, or the one above it
// when the element's payload (a non-recursive arc) was pushed first and
// left the stack whitespace there: then the copy is pushed and the new
// frame holds the chain. A recursive arc with references after it, or
// after recursive pushes of the same element (a branch), is pushed, so
// branching structures keep their depth-first order. A copy whose push
// overflows the stack stays where it is as a link of a chain in the
// active frame.
func (e *evacuator) pushOrChain(p *pendingCopy, at, slot uintptr) {
	if !e.chains {
		e.push(p.region, at, p.size)
		return
	}
	fr, c := &e.stack[e.active], &e.chain[e.active]
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
			e.startChain(to)
			return
		}
	}
	if !e.push(p.region, at, p.size) {
		// Overflow: the copy stays here, as a link of a chain of the
		// element's class.
		e.startChain(fr.it.meta)
		return
	}
	if !link {
		c.setPushedPayload(fr.scan)
	}
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
	if fr.mode&frameChain != 0 {
		return
	}
	fr.mode |= frameChain
	e.flags |= flagChain
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
	old := ^Ref(0)
	if fr.region == tenureRegion {
		old = h.nurseryRef - 1
	}
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
					ref = e.chainPayload(ref, slot, link)
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
		} else {
			e.retire(f)
		}
	}
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
// active frame). While a peer is stalled the unscanned elements are
// released as work, so a thief can continue the chain (a released tail is
// scanned as a chain from the start, wherever it is taken). When a link
// did not fit the frame's whitespace (or at most the droppable remainder
// is left), the tail is released too and the frame takes fresh
// whitespace, so the chain goes on from the worklist rather than in ever
// higher frames.
func (e *evacuator) chainBoundary(fr *frame, f int) {
	c := &e.chain[f]
	low := e.white[fr.region] == f && (c.full || fr.free() <= e.remainderDrop)
	if fr.scan < fr.copy && (low || !e.solo && e.h.stalled()) {
		e.releaseTail(fr, c, low)
	}
}

// releaseTail is chainBoundary's release of the chain's tail, and its
// fresh whitespace if the frame is low on it.
func (e *evacuator) releaseTail(fr *frame, c *chain, low bool) {
	e.addWork(workspace{region: fr.region, chain: c.link, base: fr.scan, size: fr.work()})
	fr.scan = fr.copy
	e.stats.chain.released++
	if low {
		// At least a quantum: small whitelist blocks would end the chain
		// again after a few elements.
		if b, ok := e.ws.take(fr.region, max(e.insideSize, e.quantum)); ok {
			e.ws.discard(fr.region, fr.whitespace())
			fr.copyspace = newCopyspace(fr.region, b)
		}
		c.full = false
	}
}
