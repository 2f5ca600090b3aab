package gc

// The scavenger: OMR's nursery collector, the baseline the evacuator is
// measured against. Copies go to per-worker copy caches (copyspaces, one
// per region); caches with unscanned material go to a shared scan list.
// Two traversal orders:
//
//   - breadthFirst (Cheney): scan caches in the order they were filled;
//     each object's referents are copied behind everything already copied.
//   - hierarchical: after a copy, switch ("alias") to scanning the cache
//     that just received it when the current cache is not a copy cache, or
//     when the receiving cache has less unscanned work (its distance
//     estimate is shorter). The half-scanned cache is set aside in the
//     worker's deferred slot, or goes to the scan list if that is taken.
//     Scanning resumes mid-object, so a referent's own referents are copied
//     right behind it. Aliasing stops while more than 20% of the workers
//     wait.
//
// A misfit whose cache keeps its remainder (whitespace.go) is copied solo,
// into a cache of its own that goes to the scan list at once; a large
// pointer array copied solo is split into segments for several workers.
// While peers are stalled, a worker shares its unscanned material.

// copyCache is a scavenger copyspace with its scan state.
type copyCache struct {
	copyspace
	it       slots   // the object at scan, when inObject
	size     uintptr // its size
	inObject bool    // scanning stopped inside the object at scan (an alias)
	objYoung bool    // the object at scan refers into the nursery so far
	listed   bool    // on the scan list

	// A segment of a split pointer array: elements [from, to) of array.
	segment  bool
	array    Ref
	from, to int

	// Caches of different workers are allocated side by side, and each
	// is written on every copy and slot: pad to 192 bytes, a Go size
	// class whose objects start on cache-line boundaries, so that no two
	// share a line.
	_ [56]byte
}

// scavenger is one worker's scavenger state.
type scavenger struct {
	*worker
	hierarchical bool
	list         *scanList

	cache    [2]*copyCache // current copy destination per region
	dest     destination   // the caches, for forwardTo
	full     [2]bool       // the region had no whitespace left for this worker
	overflow [2]uintptr    // misfit bytes copied solo since the cache's refresh

	scanning *copyCache // the cache being scanned
	deferred *copyCache // a half-scanned cache set aside by aliasing
	aliasTo  *copyCache // where shouldAlias decided to switch

	_ [128]byte // see worker: no false sharing between workers
}

// newScavengers returns the traversals of a scavenger collection.
func newScavengers(workers []*worker, hierarchical bool) nurseryTraversal {
	list := &scanList{ctl: workers[0].h.ctl}
	t := nurseryTraversal{workers: make([]traversal, len(workers))}
	for i, w := range workers {
		t.workers[i] = &scavenger{worker: w, hierarchical: hierarchical, list: list}
	}
	return t
}

func (s *scavenger) evacuateRoot(v *Value) {
	if v.IsRef() && s.h.inEvacuate(v.AsRef()) {
		*v = FromRef(s.forward(v.AsRef(), noSlot))
	}
}

func (s *scavenger) scanRemembered(r Ref) bool {
	var it slots
	it.start(s.h, r, s.h.MetaOf(r))
	return s.scanSlots(&it)
}

// scanHeap scans until no worker has work left.
func (s *scavenger) scanHeap() {
	for {
		c := s.nextWork()
		if c == nil {
			if c = s.list.wait(s.worker); c == nil {
				return
			}
		}
		if s.h.cfg.Verify {
			s.verify()
		}
		if c.segment {
			s.scanSegment(c)
			continue
		}
		s.scanCache(c)
	}
}

func (s *scavenger) finish() {
	for _, c := range s.cache {
		if c != nil {
			s.ws.retire(&c.copyspace)
		}
	}
	s.ws.finish()
}

func (s *scavenger) holds(out *[2][]block) {
	for _, c := range s.cache {
		if c != nil {
			out[c.region] = append(out[c.region], c.whitespace())
		}
	}
}

// forward returns the new location of r, which is in evacuate space,
// copying it if no one has yet. slot is the referring slot (noSlot for
// roots and class objects).
func (s *scavenger) forward(r Ref, slot uintptr) Ref {
	n, p, _ := s.forwardTo(r, slot, &s.dest)
	if n == 0 {
		n, _, _ = s.forwardSlow(p, slot)
	}
	return n
}

// forwardSlow copies p when its region's cache has no room: into a
// refreshed cache or the other region's (returned as r, with won when
// this worker made the copy), or a solo cache for a misfit, which then
// goes to the scan list (won false: it is no copy cache).
func (s *scavenger) forwardSlow(p pendingCopy, slot uintptr) (n Ref, r region, won bool) {
	c, solo := s.reserve(&p)
	d := only(p.region, &c.copyspace, !solo && c == s.scanning)
	n, _, won = s.forwardTo(p.from, slot, &d)
	if solo {
		s.ws.discard(c.region, c.whitespace())
		c.seal()
		if won {
			s.pushSolo(c, n)
		}
		return n, c.region, false
	}
	return n, c.region, won
}

// setDest brings dest up to date after a change of copy cache or of the
// cache being scanned.
func (s *scavenger) setDest() {
	for r, c := range s.cache {
		if c != nil {
			s.dest.to[r], s.dest.limit[r], s.dest.inside[r] = &c.copyspace, ^uintptr(0), c == s.scanning
		}
	}
}

// reserve returns the cache to copy p into: the current cache of the
// region its age selects (of the other region once that one is full),
// refreshed when its remainder is not worth keeping, or a solo cache for a
// misfit (solo true).
func (s *scavenger) reserve(p *pendingCopy) (c *copyCache, solo bool) {
	for _, r := range [2]region{p.region, p.region.other()} {
		c := s.cache[r]
		if c != nil && c.free() >= p.size {
			return c, false
		}
		if s.full[r] {
			continue
		}
		if c != nil && s.ws.keepRemainder(&c.copyspace, s.overflow[r]) {
			if b, ok := s.ws.takeSolo(r, p.size); ok {
				s.overflow[r] += p.size
				return &copyCache{copyspace: newCopyspace(r, b)}, true
			}
		} else if b, ok := s.ws.take(r, p.size); ok {
			if c != nil {
				s.retire(c)
			}
			c = &copyCache{copyspace: newCopyspace(r, b)}
			s.cache[r], s.overflow[r] = c, 0
			s.setDest()
			return c, false
		}
		s.full[r] = true
	}
	panic(outOfSpace())
}

// retire stops copying into c; its unscanned material goes to the scan list
// unless it is already there or held by the traversal.
func (s *scavenger) retire(c *copyCache) {
	s.ws.retire(&c.copyspace)
	if c.work() > 0 && !c.listed && !s.isScanning(c) {
		s.list.push(c)
	}
}

// pushSolo queues a solo cache holding one copied object n. A large
// pointer array is split into segments for different workers instead.
func (s *scavenger) pushSolo(c *copyCache, n Ref) {
	h := s.h
	if s.solo || !splittable(h, n, c.work()) {
		s.list.push(c)
		return
	}
	c.scan = c.copy // the segments scan it
	splitArray(h.Length(n), func(from, to int) {
		s.list.push(&copyCache{copyspace: copyspace{region: c.region}, segment: true, array: n, from: from, to: to})
	})
}

// scanSlots forwards the evacuate-space references of a started iterator
// (a remembered object or an array segment) and reports whether a visited
// reference now refers into the nursery.
func (s *scavenger) scanSlots(it *slots) (young bool) {
	h := s.h
	for off, ref, ok := it.firstRef(); ok; off, ref, ok = it.next(h) {
		if h.inEvacuate(ref) {
			ref = s.forward(ref, it.arc(off))
			it.storeClass(off, ref)
		}
		young = young || h.isYoung(ref)
	}
	return young
}

// scanSegment scans elements [from, to) of a split pointer array.
func (s *scavenger) scanSegment(c *copyCache) {
	var it slots
	it.startSegment(s.h, c.array, c.from, c.to)
	young := s.scanSlots(&it)
	s.scanned(segmentBytes(c.from, c.to))
	if young && c.region == tenureRegion {
		s.rememberTenured(c.array)
	}
}

// nextWork picks the next cache to scan: the deferred one, then the shared
// scan list, then the worker's own copy caches.
func (s *scavenger) nextWork() *copyCache {
	if c := s.deferred; c != nil {
		s.deferred = nil
		return c
	}
	if c := s.list.pop(); c != nil {
		return c
	}
	for _, c := range s.cache {
		if c != nil && c.work() > 0 {
			return c
		}
	}
	return nil
}

// scanCache scans c until it is exhausted, following aliasing decisions to
// other caches. Its loop over the objects and their slots is the
// scavenger's innermost: a copy is one call (forwardTo) and an object one
// more (slots.start).
func (s *scavenger) scanCache(c *copyCache) {
	h := s.h
	shared := !s.solo
	for c != nil {
		s.scanning = c
		s.setDest()
		s.aliasTo = nil
	objects:
		for c.scan < c.copy {
			it := &c.it
			var off uintptr
			var ref Ref
			var ok bool
			if c.inObject {
				off, ref, ok = it.next(h)
			} else {
				r := Ref(c.scan >> 3)
				m := h.MetaOf(r)
				if leaf, ok := h.leafSize(r, m); ok {
					c.scan += leaf
					s.scanned(leaf)
					continue
				}
				c.size = it.start(h, r, m)
				off, ref, ok = it.firstRef()
			}
			young, track := c.objYoung, c.region == tenureRegion
			for ; ok; off, ref, ok = it.next(h) {
				if h.inEvacuate(ref) {
					slot := it.arc(off)
					n, p, won := s.forwardTo(ref, slot, &s.dest)
					if n == 0 {
						n, p.region, won = s.forwardSlow(p, slot)
					}
					it.storeClass(off, n)
					ref = n
					if s.hierarchical && won && s.cache[p.region&1] != c && s.shouldAlias(c, s.cache[p.region&1]) {
						c.inObject = true
						c.objYoung = young || track && h.isYoung(ref)
						break objects
					}
				}
				if track && h.isYoung(ref) {
					young = true
				}
			}
			if track && young {
				s.rememberTenured(Ref(c.scan >> 3))
			}
			c.objYoung, c.inObject = false, false
			c.scan += c.size
			s.scanned(c.size)
			if shared && h.stalled() {
				s.shareWork()
			}
		}
		s.scanning = nil
		s.setDest()
		next := s.aliasTo
		if next == nil {
			return
		}
		if next == s.deferred {
			s.deferred = nil
		}
		if s.deferred == nil {
			s.deferred = c
		} else {
			s.list.push(s.detach(c))
		}
		c = next
	}
}

// shouldAlias decides, after a copy into cache d made while scanning c,
// whether to switch to d.
func (s *scavenger) shouldAlias(c, d *copyCache) bool {
	if d == c || d.listed || d.work() == 0 {
		return false
	}
	if ctl := s.h.ctl; ctl.n > 1 && 5*int(ctl.waiting.Load()) > ctl.n {
		return false // aliasing inhibited: more than 20% of the workers wait
	}
	if s.cache[c.region] == c && d.work() >= c.work() {
		return false
	}
	s.aliasTo = d
	return true
}

// isScanning reports whether c is held by the traversal (being scanned or
// deferred), so retiring it must not put it on the scan list.
func (s *scavenger) isScanning(c *copyCache) bool {
	return c == s.scanning || c == s.deferred || c == s.aliasTo
}

// shareWork, called while peers are stalled, moves the worker's own
// unscanned material (the deferred cache and the copied parts of its copy
// caches) to the scan list.
func (s *scavenger) shareWork() {
	if c := s.deferred; c != nil {
		s.deferred = nil
		s.list.push(s.detach(c))
	}
	for _, c := range s.cache {
		if c == nil || c == s.scanning || c.listed || c.work() < 1024 {
			continue
		}
		s.list.push(s.detach(c))
	}
}

// detach returns c's unscanned material as a cache another worker may
// scan: c itself, or, when c is still one of this worker's copy
// destinations, a new cache covering [scan, copy) that takes over the
// progress through the object at scan.
func (s *scavenger) detach(c *copyCache) *copyCache {
	if c != s.cache[c.region] {
		return c
	}
	part := &copyCache{copyspace: copyspace{region: c.region, base: c.scan, scan: c.scan, copy: c.copy, end: c.copy},
		it: c.it, size: c.size, inObject: c.inObject, objYoung: c.objYoung}
	c.scan, c.inObject, c.objYoung = c.copy, false, false
	return part
}

// verify checks the worker's copy caches (-Xcheck:gc).
func (s *scavenger) verify() {
	for _, c := range s.cache {
		if c == nil {
			continue
		}
		lo, hi := s.h.regionBounds(c.region)
		if err := c.verify(lo, hi); err != nil {
			panic(&verifyError{Msg: "scavenger worker: " + err.Error()})
		}
	}
}
