package gc

// The scavenger: OMR's nursery collector, the baseline the evacuator is
// measured against. Copies go to per-worker copy caches; full caches go to
// a shared scan list. Two traversal orders:
//
//   - breadthFirst (Cheney): scan caches in the order they were filled;
//     each object's referents are copied behind everything already copied.
//   - hierarchical: after a copy, switch ("alias") to scanning the cache
//     that just received it when the current cache is not a copy cache, or
//     when the receiving cache has less unscanned work (its distance
//     estimate is shorter). The half-scanned cache is set aside in the
//     worker's deferred slot, or goes to the scan list if that is taken.
//     Scanning resumes mid-object, so a referent's own referents are copied
//     right behind it.
//
// inside_pct counts bytes scanned from caches the worker did not take off
// the shared scan list.

// scavengerTraversal is the scavenger's side of a nursery collection.
type scavengerTraversal worker

func (t *scavengerTraversal) evacuateRoot(v *Value) {
	if v.IsRef() && t.h.inEvacuate(v.AsRef()) {
		*v = FromRef((*worker)(t).forward(v.AsRef(), noSlot))
	}
}

func (t *scavengerTraversal) scanRemembered(r Ref) bool {
	_, young, _ := (*worker)(t).scanObject(r, t.h.MetaOf(r), 0, nil)
	return young
}

// scanHeap scans until no worker has work left.
func (t *scavengerTraversal) scanHeap() {
	w := (*worker)(t)
	for {
		c := w.nextWork()
		if c == nil {
			if c = w.waitScan(); c == nil {
				return
			}
			c.fromList = true
		}
		if c.segment {
			w.scanSegment(c)
			continue
		}
		w.scanCache(c)
	}
}

func (t *scavengerTraversal) finish() {
	for _, c := range t.cache {
		if c != nil {
			t.h.giveBack(c)
		}
	}
}

// nextWork picks the next cache to scan: the deferred one, then the shared
// scan list, then the worker's own copy caches.
func (w *worker) nextWork() *copyCache {
	if c := w.deferred; c != nil {
		w.deferred = nil
		return c
	}
	if c := w.h.popScan(); c != nil {
		c.fromList = true
		return c
	}
	for _, c := range w.cache {
		if c != nil && c.unscanned() > 0 {
			return c
		}
	}
	return nil
}

// scanCache scans c until it is exhausted, following aliasing decisions to
// other caches.
func (w *worker) scanCache(c *copyCache) {
	h := w.h
	shared := h.ctl.n > 1
	for c != nil {
		w.scanning = c
		w.aliasTo = nil
		for c.scan < c.copy {
			r := Ref(c.scan >> 3)
			m := h.MetaOf(r)
			next, young, done := w.scanObject(r, m, c.slot, c)
			c.objYoung = c.objYoung || young
			if !done {
				c.slot = next
				break
			}
			size := h.sizeOf(r, m)
			if c.region == tenureRegion && c.objYoung {
				w.rememberTenured(r)
			}
			c.objYoung, c.slot = false, 0
			c.scan += size
			w.stats.scannedBytes += uint64(size)
			if c.fromList {
				w.stats.listScannedBytes += uint64(size)
			}
			if shared && h.stalled() {
				w.shareWork()
			}
		}
		w.scanning = nil
		next := w.aliasTo
		if next == nil {
			return
		}
		if next == w.deferred {
			w.deferred = nil
		}
		if w.deferred == nil {
			w.deferred = c
		} else {
			h.pushScan(w.detach(c))
		}
		c = next
	}
}

// shouldAlias decides, after a copy made while scanning c, whether to
// switch to the cache that received it.
func (w *worker) shouldAlias(c *copyCache) bool {
	d := w.lastCopy
	if d == nil || d == c || d.listed || d.unscanned() == 0 {
		return false
	}
	if ctl := w.h.ctl; ctl.n > 1 && 5*int(ctl.waiting.Load()) > ctl.n {
		return false // aliasing inhibited: more than 20% of the workers wait
	}
	if w.cache[c.region] == c && d.unscanned() >= c.unscanned() {
		return false
	}
	w.aliasTo = d
	return true
}

// isScanning reports whether c is held by the traversal (being scanned or
// deferred), so retiring it must not put it on the scan list.
func (w *worker) isScanning(c *copyCache) bool {
	return c == w.scanning || c == w.deferred || c == w.aliasTo
}
