package gc

import "fmt"

// Chains: the evacuator's answer to recursive structures (linked lists,
// deep trees), -XXgc:recursiveChainDetection.
//
// Depth-first evacuation pushes a frame for each copy that lands beyond
// the active frame's width, so a structure deeper than the stack overflows
// it, and after an overflow everything is copied outside until the stack
// unwinds. With chain detection, a copy that needs a frame is first
// judged by the element that made it: its recursive arcs are its
// references to objects of its class, or through the class's hottest slot
// to one of its declaration family.
//
//   - A branch (two or more recursive arcs: a tree node) is pushed, as
//     without detection, so trees keep their depth-first order and cost
//     what they did; a class once found to branch is looked up, not
//     recounted. Only an overflow starts a chain in a tree.
//   - A list element (one recursive arc), with a nonzero frame width:
//     the frame's window starts again at the element, so the copy (the
//     next node, or the payload before it) stays in the frame. A list is
//     then copied by scan's plain loop, payload inside its window like
//     any other copy, and does not climb the stack one frame per window.
//     A copy with no references stays in the frame too: a frame for it
//     would only take the stack whitespace up, and the list with it.
//   - Depth-first (width 0), or in a frame that already holds a chain, a
//     copy stays in the frame as the next element of a chain when it
//     goes through a recursive arc in tail position (no reference after
//     it in the element: scanning it next is what the push would have
//     done), or when its push would overflow the stack. A tail arc whose
//     copy landed in the frame above, because the element's payload was
//     pushed first and left the whitespace there, is pushed, and that
//     frame holds the chain. The frame then holds the chain: each element
//     copies its first link into the frame, right behind the last
//     element, further links up the stack, and everything else (the
//     payload) outside, so that the links stay back to back and the
//     payload is work other workers can take.
//
// A chain frame whose whitespace runs out releases its unscanned elements
// (the tail) as a chain workspace, scanned as a chain wherever it is
// taken (by a stalled peer first), and takes fresh whitespace. A long
// chain is one frame's work, so it would be one worker's; what others can
// take is its payload. A chain's worker copying each element's payload
// outside makes its peers about as much work per element as it does
// itself, and a peer with less to copy per element runs out, stalls and
// may sleep (and a sleeping thread wakes milliseconds late on a virtual
// CPU). So in a parallel collection, while the worker's own worklist
// holds less than walkBacklog quanta, the chain frame only walks its
// chain (walkChain): it copies each element's first link and releases the
// walked elements in runs, to be scanned again for the rest. While a peer
// is stalled the worker also releases its outside material sooner and
// keeps only half of its worklist's head (evacuator_steal.go). The tail
// itself is not released at every element while a peer is stalled: the
// elements are walked one after another by whoever holds the chain, so
// passing it to the stalled peer only stalls its walker in turn. A list
// in a moving window becomes a chain frame when a peer is stalled, so
// that its payload is shared too.
//
// Counted: chains, the lists and chain frames found (a list whose window
// moves again, in its frame or the frame above after a whitespace
// refresh, is one); chain copies, the links copied into a chain frame and
// the copies kept in a frame by a moved window (the copies that would
// otherwise have pushed, so with a wide window a small share).

// chain is a stack frame's chain state (the evacuator's chain array),
// meaningful while the frame's mode says it holds a chain, except for
// linkedAt.
type chain struct {
	// link is the class whose objects continue the chain besides the
	// referrer's own class: the class of the element that started it.
	link Meta
	// full: a link did not fit the frame's whitespace and was copied
	// outside; the frame takes fresh whitespace at the next element.
	full bool
	// linkedAt is the scan head, tagged with bit 0, of the element that
	// has copied its first link (every frame: pushOrChain uses it too);
	// a new element is not linked without a store per element.
	linkedAt uintptr
	// payloadAt is the scan head, tagged with bit 0, of the element that
	// has pushed a frame for a non-recursive arc (pushOrChain).
	payloadAt uintptr
}

// start makes the frame hold a chain continued by objects of class link.
func (c *chain) start(link Meta) { c.link, c.full = link, false }

// linked reports whether the element at scan head scan has copied its
// first link; setLinked records that it has.
func (c *chain) linked(scan uintptr) bool { return c.linkedAt == scan|1 }
func (c *chain) setLinked(scan uintptr)   { c.linkedAt = scan | 1 }

// pushedPayload reports whether the element at scan head scan has pushed
// a frame for a non-recursive arc; setPushedPayload records that it has.
func (c *chain) pushedPayload(scan uintptr) bool { return c.payloadAt == scan|1 }
func (c *chain) setPushedPayload(scan uintptr)   { c.payloadAt = scan | 1 }

// isLink reports whether a copy of an object of class to, made through a
// slot of an object of class from (hot: the class's hottest slot), is a
// recursive arc: to is from's class, the chain's link class, or the slot
// is from's hottest and to is of from's declaration family (sameFamily).
func (c *chain) isLink(from, to Meta, hot bool) bool {
	return to == c.link || recursiveArc(from, to, hot)
}

// recursiveArc reports whether a copy of an object of class to, made
// through a slot of an object of class from (hot: the class's hottest
// slot), is a recursive arc in any frame: to is from's class, or the slot
// is from's hottest and to is of from's declaration family.
func recursiveArc(from, to Meta, hot bool) bool {
	return to == from || hot && sameFamily(from, to)
}

// sameFamily reports whether two classes are of one declaration family:
// instances of the same kind whose hottest slots are the same slot (a
// subclass inherits its superclass's fields first, so a linked node class
// and its subclasses link through one slot index).
func sameFamily(a, b Meta) bool {
	if a.Layout() != LayoutFixed || b.Layout() != LayoutFixed || a.kind() != b.kind() {
		return false
	}
	ha, oka := a.HotSlot()
	hb, okb := b.HotSlot()
	return oka && okb && ha == hb
}

// chainStats are one worker's chain counters for a collection (part of
// workerStats).
type chainStats struct {
	chains      uint64 // chains started
	chainCopies uint64 // objects copied through a chain's links
	released    uint64 // chain tails released to the worklist
	walked      uint64 // elements walked, the rest left to another scan
}

func (s *chainStats) add(o *chainStats) {
	s.chains += o.chains
	s.chainCopies += o.chainCopies
	s.released += o.released
	s.walked += o.walked
}

// verify checks a chain frame (-Xcheck:gc): its link class is a ClassMeta
// the heap knows, and the frame is a copyspace of its region.
func (c *chain) verify(h *Heap, fr *copyspace) error {
	if !h.validMeta(c.link) {
		return fmt.Errorf("chain frame's link class %#x is not a ClassMeta", uint32(c.link))
	}
	lo, hi := h.regionBounds(fr.region)
	if err := fr.verify(lo, hi); err != nil {
		return fmt.Errorf("chain frame: %v", err)
	}
	return nil
}
