package gc

import "fmt"

// Copy destinations: the one layer every nursery traversal copies into.
//
// Whitespace is free room reserved for copies in survivor space or tenure
// (a region). A copyspace is a block of whitespace one worker copies into
// by bumping its copy head:
//
//	base ........ scan ........ copy ........ end
//	  scanned       copied,       whitespace
//	                unscanned
//	                (work)
//
// The scavenger's copy caches, the evacuator's stack frames and its
// outside copyspaces are all copyspaces; they differ only in who scans
// them and when. Whitespace comes from the worker's whitespace supply
// (whitespace.go), which also takes every remainder back; a copy is
// installed in a copyspace by forward.go. No two copyspaces, and no
// copyspace and whitelist block, overlap (verifyDestinations).

// region is a copy destination.
type region uint8

const (
	survivorRegion region = iota
	tenureRegion
)

func (r region) other() region { return 1 - r }

func (r region) String() string {
	if r == survivorRegion {
		return "survivor"
	}
	return "tenure"
}

// block is a range of whitespace [base, end).
type block struct{ base, end uintptr }

func (b block) size() uintptr { return b.end - b.base }

// copyspace is a block of one region being copied into; see above.
type copyspace struct {
	region                region
	base, scan, copy, end uintptr
}

// newCopyspace returns an empty copyspace over block b of region r.
func newCopyspace(r region, b block) copyspace {
	return copyspace{region: r, base: b.base, scan: b.base, copy: b.base, end: b.end}
}

func (c *copyspace) free() uintptr { return c.end - c.copy }
func (c *copyspace) work() uintptr { return c.copy - c.scan }

// whitespace returns the copyspace's free tail as a block.
func (c *copyspace) whitespace() block { return block{c.copy, c.end} }

// seal ends copying into c: its tail is no longer c's (the caller disposes
// of it).
func (c *copyspace) seal() { c.end = c.copy }

// verify checks that the heads are in order, aligned and inside region
// bounds [lo, hi).
func (c *copyspace) verify(lo, hi uintptr) error {
	switch {
	case !(lo <= c.base && c.base <= c.scan && c.scan <= c.copy && c.copy <= c.end && c.end <= hi):
		return fmt.Errorf("%s copyspace [%#x %#x %#x %#x) out of order or outside [%#x, %#x)", c.region, c.base, c.scan, c.copy, c.end, lo, hi)
	case (c.base|c.scan|c.copy|c.end)%WordSize != 0:
		return fmt.Errorf("%s copyspace [%#x %#x %#x %#x) not word-aligned", c.region, c.base, c.scan, c.copy, c.end)
	}
	return nil
}

// whitelist is a bounded max-heap of whitespace blocks of one region,
// largest on top: remainders worth reusing. Blocks of at most
// Config.MinReusableWhitespace bytes are not kept. The tenure whitelist
// persists across nursery collections; its blocks are formatted as filler
// objects between collections, so tenure stays walkable.
type whitelist struct {
	blocks []block
}

// whitelistSize bounds each region's whitelist (OMR's constant).
const whitelistSize = 15

// add offers a block; it returns the block that was not kept (the offered
// one, or a smaller one it displaced), which the caller must dispose of.
func (wl *whitelist) add(b block, minReusable uintptr) (dropped block, ok bool) {
	if b.size() <= minReusable {
		return b, true
	}
	if len(wl.blocks) < whitelistSize {
		wl.blocks = append(wl.blocks, b)
		wl.up(len(wl.blocks) - 1)
		return block{}, false
	}
	// Full: replace the first smaller entry from the middle on (the leaves).
	for i := len(wl.blocks) / 2; i < len(wl.blocks); i++ {
		if wl.blocks[i].size() < b.size() {
			dropped, wl.blocks[i] = wl.blocks[i], b
			wl.up(i)
			return dropped, true
		}
	}
	return b, true
}

// take removes and returns the top block if it holds at least n bytes.
func (wl *whitelist) take(n uintptr) (block, bool) {
	if len(wl.blocks) == 0 || wl.blocks[0].size() < n {
		return block{}, false
	}
	top := wl.blocks[0]
	last := len(wl.blocks) - 1
	wl.blocks[0] = wl.blocks[last]
	wl.blocks = wl.blocks[:last]
	wl.down(0)
	return top, true
}

func (wl *whitelist) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if wl.blocks[p].size() >= wl.blocks[i].size() {
			return
		}
		wl.blocks[p], wl.blocks[i] = wl.blocks[i], wl.blocks[p]
		i = p
	}
}

func (wl *whitelist) down(i int) {
	for {
		l, big := 2*i+1, i
		if l < len(wl.blocks) && wl.blocks[l].size() > wl.blocks[big].size() {
			big = l
		}
		if r := l + 1; r < len(wl.blocks) && wl.blocks[r].size() > wl.blocks[big].size() {
			big = r
		}
		if big == i {
			return
		}
		wl.blocks[i], wl.blocks[big] = wl.blocks[big], wl.blocks[i]
		i = big
	}
}

// verify checks the heap order, the bound and that every block is worth
// keeping.
func (wl *whitelist) verify(minReusable uintptr) error {
	if len(wl.blocks) > whitelistSize {
		return fmt.Errorf("whitelist holds %d blocks (at most %d)", len(wl.blocks), whitelistSize)
	}
	for i, b := range wl.blocks {
		if b.size() <= minReusable || b.base%WordSize != 0 || b.end%WordSize != 0 {
			return fmt.Errorf("whitelist block [%#x, %#x) is not reusable whitespace", b.base, b.end)
		}
		if i > 0 && wl.blocks[(i-1)/2].size() < b.size() {
			return fmt.Errorf("whitelist block %d is larger than its parent", i)
		}
	}
	return nil
}
