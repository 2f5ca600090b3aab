package gc

// The evacuator's chains (chain.go): where a recursive arc's copy stays in
// the active frame instead of opening one, how a chain frame parts links
// from payload, and how it gives its tail away.

// pushOrChain handles a copy of p, made at offset at through slot by the
// object at the active frame's scan head, that needs a frame of its own
// (opensFrame). Without chain detection it is pushed. With it, a
// recursive arc whose copy landed in the active frame starts (or
// continues) a chain there, a copy pushed through one makes the new frame
// a chain frame, and a copy whose push overflows the stack stays where it
// is as the first link of a chain in the active frame.
func (e *evacuator) pushOrChain(p *pendingCopy, at, slot uintptr) {
	if !e.chains {
		e.push(p.region, at, p.size)
		return
	}
	fr := &e.stack[e.active]
	to := Meta(uint32(p.hdr))
	link := fr.chain.isLink(fr.it.meta, to, slot&hotArc != 0)
	if link && e.white[p.region&1] == e.active {
		e.startChain(fr, to)
		return
	}
	if !e.push(p.region, at, p.size) {
		e.startChain(fr, to) // overflow: the copy stays here, as a link
		return
	}
	if link {
		e.startChain(&e.stack[e.active], to)
	}
}

// startChain counts a link copy into frame fr and makes fr hold a chain
// continued by class link if it holds none yet.
func (e *evacuator) startChain(fr *frame, link Meta) {
	e.stats.chain.chainCopies++
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

// chainCopy copies p for the object at the scan head of the active frame,
// which holds a chain: a link into the frame's whitespace (no push while
// it has room), anything else (the payload) outside. Links ignore the
// stall condition: a chain is shared by releasing its tail
// (chainBoundary).
func (e *evacuator) chainCopy(p *pendingCopy, slot uintptr) Ref {
	fr := &e.stack[e.active]
	to := Meta(uint32(p.hdr))
	if !fr.chain.isLink(fr.it.meta, to, slot&hotArc != 0) || p.size > e.insideSize ||
		e.flags&(flagBreadthFirst|overflowFlag(p.region)) != 0 {
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
	if w == e.active {
		e.stats.chain.chainCopies++
	} else if e.opensFrame(p.region, at) && e.push(p.region, at, p.size) {
		// New whitespace (or the other region's white frame): the chain
		// goes on in the frame above.
		e.startChain(&e.stack[e.active], to)
	}
	return n
}

// chainBoundary runs between two elements of chain frame fr (the active
// frame). While a peer is stalled the unscanned elements are released as
// work, so a thief can continue the chain. When a link did not fit the
// frame's whitespace (or at most the droppable remainder is left), the
// tail is released too and the frame takes fresh whitespace, so the
// chain goes on from the worklist rather than in ever higher frames. It
// reports whether the frame's scan changed (the caller looks again).
func (e *evacuator) chainBoundary(fr *frame) bool {
	low := e.white[fr.region] == e.active && (fr.chain.full || fr.free() <= e.remainderDrop)
	if !low && (e.solo || !e.h.stalled()) {
		return false
	}
	e.addWork(workspace{region: fr.region, base: fr.scan, size: fr.work()})
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
