package gc

import (
	"fmt"
	"slices"
	"sync"
)

// The whitespace supply: where every nursery traversal gets room to copy
// into and returns what it did not use. One policy for all collectors, so
// that collectors compared with the same configuration carve the same
// sizes (EVACUATOR.md §2.7, OMR's evacuator):
//
//   - A chunk (OMR: a TLH) is carved from a region at a time. Its size is
//     the chunk ceiling for tenure; for survivor space it shrinks as the
//     space fills, toward an eighth of what is left, in multiples of
//     Config.ScanCacheMinimumSize (the floor). The ceiling starts at
//     Config.ScanCacheMaximumSize and is lowered, in steps of the floor,
//     while four chunks per worker would exceed the survivor space.
//   - A worker keeps reusable remainders (more than
//     Config.MinReusableWhitespace bytes) in a whitelist per region and
//     takes whitespace from it first, when its largest block holds at
//     least Config.WhitespaceRefreshThreshold bytes (or the object, for a
//     solo copy). Smaller remainders are filled as holes.
//   - A remainder at the top of its region is given back to the region
//     (recycled). At the end of a collection the survivor whitelist is
//     filled; the tenure whitelist persists, formatted as filler objects,
//     until a global collection compacts tenure.
//   - When an object does not fit a copyspace, the copyspace is refreshed
//     (a new chunk; the old remainder goes to the whitelist or a hole) if
//     its remainder is at most Config.MinReusableWhitespace bytes or more
//     than overflowRefresh bytes of misfits have gone elsewhere since its
//     last refresh; otherwise the misfit goes elsewhere (keepRemainder).
//
// Carving is the only shared step: the region heads are guarded by
// copyRegions.mu, taken once per chunk.

// overflowRefresh bounds the misfits placed elsewhere before a copyspace
// with a large remainder is refreshed anyway: one work quantum (OMR).
const overflowRefresh = 4096

// copyRegions is the carving state of the running nursery collection,
// shared by its workers.
type copyRegions struct {
	mu      sync.Mutex
	survTop uintptr    // next carve in survivor space
	carved  [2]uintptr // bytes carved per region (verifyDestinations)
}

// carveWhitespace takes at least minSize and at most want bytes from region r. It
// returns false when r cannot supply minSize bytes.
func (h *Heap) carveWhitespace(r region, minSize, want uintptr) (block, bool) {
	cr := &h.regions
	cr.mu.Lock()
	defer cr.mu.Unlock()
	var b block
	if r == survivorRegion {
		free := h.survHi - cr.survTop
		if free < minSize {
			return block{}, false
		}
		b = block{cr.survTop, cr.survTop + min(want, free)}
		cr.survTop = b.end
	} else {
		if h.tenureHi-h.tenureTop < minSize {
			return block{}, false
		}
		size := min(want, h.tenureHi-h.tenureTop)
		off, ok := h.bumpTenure(size)
		if !ok {
			if off, ok = h.bumpTenure(minSize); !ok {
				return block{}, false
			}
			size = minSize
		}
		b = block{off, off + size}
	}
	cr.carved[r] += b.size()
	if h.onCarve != nil {
		h.onCarve(r, b, want)
	}
	return b, true
}

// recycle gives block b back to region r if it is the last block carved
// there.
func (h *Heap) recycle(r region, b block) bool {
	cr := &h.regions
	cr.mu.Lock()
	defer cr.mu.Unlock()
	switch {
	case r == survivorRegion && b.end == cr.survTop:
		cr.survTop = b.base
	case r == tenureRegion && b.end == h.tenureTop:
		h.tenureTop = b.base
	default:
		return false
	}
	return true
}

// survivorFree returns the survivor space not yet carved.
func (h *Heap) survivorFree() uintptr {
	cr := &h.regions
	cr.mu.Lock()
	defer cr.mu.Unlock()
	return h.survHi - cr.survTop
}

// chunkPolicy sizes chunks; it is fixed for one collection.
type chunkPolicy struct {
	floor, ceiling uintptr
}

// newChunkPolicy returns the policy for a collection with n workers.
func (h *Heap) newChunkPolicy(n int) chunkPolicy {
	p := chunkPolicy{floor: h.cfg.ScanCacheMinimumSize, ceiling: h.cfg.ScanCacheMaximumSize}
	for p.ceiling > p.floor && 4*p.ceiling*uintptr(n) > h.survHi-h.survLo {
		p.ceiling -= p.floor
	}
	return p
}

// size returns the chunk to carve from region r when survivorFree bytes of
// survivor space are left.
func (p *chunkPolicy) size(r region, survivorFree uintptr) uintptr {
	if r == tenureRegion {
		return p.ceiling
	}
	return min(p.ceiling, max(survivorFree/8/p.floor*p.floor, p.floor))
}

// whitespace is one worker's supply of copy whitespace.
type whitespace struct {
	h           *Heap
	policy      chunkPolicy
	refresh     uintptr // smallest whitelist block worth taking
	minReusable uintptr // smallest remainder worth keeping
	lists       [2]*whitelist

	discarded [2]uint64 // bytes filled as holes, per region
	recycled  [2]uint64 // bytes given back to their region
}

func (h *Heap) newWhitespace(id int, policy chunkPolicy) whitespace {
	return whitespace{
		h:           h,
		policy:      policy,
		refresh:     h.cfg.WhitespaceRefreshThreshold,
		minReusable: h.cfg.MinReusableWhitespace,
		lists:       [2]*whitelist{{}, h.tenureWhitelist(id)},
	}
}

// tenureWhitelist returns worker id's persistent tenure whitelist.
func (h *Heap) tenureWhitelist(id int) *whitelist {
	if len(h.nursery.tenureWhitelists) < h.cfg.GCThreads {
		// Grow once, before any worker holds a pointer into the slice.
		h.nursery.tenureWhitelists = append(h.nursery.tenureWhitelists, make([]whitelist, h.cfg.GCThreads-len(h.nursery.tenureWhitelists))...)
	}
	return &h.nursery.tenureWhitelists[id]
}

// dropTenureWhitespace forgets the persistent tenure whitelists: a global
// collection compacts tenure, removing the holes they describe.
func (h *Heap) dropTenureWhitespace() { h.nursery.tenureWhitelists = nil }

// take returns whitespace for a copyspace that must hold size bytes: the
// whitelist's top if it holds at least the refresh threshold, else a
// chunk.
func (w *whitespace) take(r region, size uintptr) (block, bool) {
	return w.get(r, size, max(size, w.refresh))
}

// takeSolo returns whitespace for one object of size bytes copied on its
// own: any whitelist block that holds it, else a chunk.
func (w *whitespace) takeSolo(r region, size uintptr) (block, bool) {
	return w.get(r, size, size)
}

func (w *whitespace) get(r region, size, listMin uintptr) (block, bool) {
	if b, ok := w.lists[r].take(listMin); ok {
		return b, true
	}
	want := w.policy.ceiling
	if r == survivorRegion {
		want = w.policy.size(r, w.h.survivorFree())
	}
	return w.h.carveWhitespace(r, size, max(want, size))
}

// keepRemainder reports whether a copyspace that cannot hold an object
// keeps its remainder (the misfit goes elsewhere) rather than being
// refreshed; overflowed is the misfit volume since its last refresh.
func (w *whitespace) keepRemainder(c *copyspace, overflowed uintptr) bool {
	return c.free() > w.minReusable && overflowed <= overflowRefresh
}

// discard disposes of a remainder: the whitelist keeps it if it is worth
// reusing (displacing a smaller one), anything else becomes a hole.
func (w *whitespace) discard(r region, b block) {
	if b.size() == 0 {
		return
	}
	if d, dropped := w.lists[r].add(b, w.minReusable); dropped && d.size() > 0 {
		w.h.fill(d.base, d.size())
		w.discarded[r] += uint64(d.size())
	}
}

// trim disposes of a remainder that may end at its region's top: it is
// given back to the region if so, else discarded.
func (w *whitespace) trim(r region, b block) {
	if b.size() == 0 {
		return
	}
	if w.h.recycle(r, b) {
		w.recycled[r] += uint64(b.size())
		return
	}
	w.discard(r, b)
}

// retire ends copying into c, trimming its remainder.
func (w *whitespace) retire(c *copyspace) {
	w.trim(c.region, c.whitespace())
	c.seal()
}

// finish ends the collection for this worker: the survivor whitelist is
// filled (its blocks do not outlive the collection) and the tenure
// whitelist's blocks are formatted as holes until they are reused.
func (w *whitespace) finish() {
	for _, b := range w.lists[survivorRegion].blocks {
		w.h.fill(b.base, b.size())
		w.discarded[survivorRegion] += uint64(b.size())
	}
	w.lists[survivorRegion].blocks = nil
	for _, b := range w.lists[tenureRegion].blocks {
		w.h.fill(b.base, b.size())
	}
}

// held appends the whitespace blocks the supply holds to out[r].
func (w *whitespace) held(out *[2][]block) {
	for r := range w.lists {
		out[r] = append(out[r], w.lists[r].blocks...)
	}
}

// listed returns the bytes of region r's whitelist.
func (w *whitespace) listed(r region) uint64 {
	var n uint64
	for _, b := range w.lists[r].blocks {
		n += uint64(b.size())
	}
	return n
}

// verifyAccount checks, for -Xcheck:gc at the end of a collection, that
// every byte of whitespace the workers had (carved this collection, or in
// a tenure whitelist at its start: listedBefore) was copied into, given
// back, filled as a hole or is still whitelisted.
func (h *Heap) verifyAccount(supplies []*whitespace, copied [2]uint64, listedBefore uint64) error {
	for r := range copied {
		had := uint64(h.regions.carved[r])
		if region(r) == tenureRegion {
			had += listedBefore
		}
		used := copied[r]
		for _, w := range supplies {
			used += w.discarded[r] + w.recycled[r] + w.listed(region(r))
		}
		if had != used {
			return fmt.Errorf("%s whitespace unaccounted: %d bytes carved or listed, %d copied, given back, filled or listed", region(r), had, used)
		}
	}
	return nil
}

// regionBounds returns the bounds of region r, fixed during a collection.
func (h *Heap) regionBounds(r region) (lo, hi uintptr) {
	if r == survivorRegion {
		return h.survLo, h.survHi
	}
	return h.tenureLo, h.tenureHi
}

// verifyDestinations checks, for -Xcheck:gc, that the whitespace every
// worker held when its scan ended (its copyspaces' tails and whitelist
// blocks, per worker and region) lies inside its region and that no two
// blocks overlap, and that every whitelist is well formed.
func (h *Heap) verifyDestinations(held [][2][]block, supplies []*whitespace) error {
	for _, w := range supplies {
		for _, wl := range w.lists {
			if err := wl.verify(w.minReusable); err != nil {
				return err
			}
		}
	}
	for r := range 2 {
		var bs []block
		for _, hw := range held {
			bs = append(bs, hw[r]...)
		}
		bs = slices.DeleteFunc(bs, func(b block) bool { return b.size() == 0 })
		slices.SortFunc(bs, func(a, b block) int { return int(a.base) - int(b.base) })
		lo, hi := h.regionBounds(region(r))
		for i, b := range bs {
			if b.base < lo || b.end > hi || b.base > b.end {
				return fmt.Errorf("%s whitespace [%#x, %#x) outside the region [%#x, %#x)", region(r), b.base, b.end, lo, hi)
			}
			if i > 0 && bs[i-1].end > b.base {
				return fmt.Errorf("%s whitespace [%#x, %#x) overlaps [%#x, %#x)", region(r), bs[i-1].base, bs[i-1].end, b.base, b.end)
			}
		}
	}
	return nil
}
