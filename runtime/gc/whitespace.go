package gc

// Evacuator spaces that hold whitespace (free, reserved room for copies)
// and work (copied, unscanned material). See EVACUATOR.md §1.

// Remainder thresholds (EVACUATOR.md §2.7).
const (
	// stackRemainderDrop: a frame's whitespace remainder may be dropped
	// (and the frame refreshed) only when it is at most this big.
	stackRemainderDrop = 32
	// minReusableWhitespace: the whitelist keeps only blocks above this;
	// an outside copyspace with at most this much left is refreshed.
	minReusableWhitespace = 256
	// refreshThreshold: the smallest whitelist block worth taking; an
	// outside remainder below it (and above minReusableWhitespace) sets the
	// overflow condition. Also the floor of the work release threshold.
	refreshThreshold = 768
	// overflowRefresh: after this many bytes of overflow copies the
	// outside copyspace is refreshed anyway.
	overflowRefresh = 4096
	// Whitespace chunk (TLH) bounds: requests are multiples of tlhMinimum,
	// at most tlhMaximum, shrinking as the survivor space fills.
	tlhMinimum = 8 << 10
	tlhMaximum = 128 << 10
	// whitelistSize bounds each region's whitelist.
	whitelistSize = 15
)

// block is a range of whitespace [base, end).
type block struct{ base, end uintptr }

func (b block) size() uintptr { return b.end - b.base }

// copyspace is [base, copy, end): base..copy is copied, unscanned work;
// copy..end is whitespace.
type copyspace struct {
	base, copy, end uintptr
}

func (c *copyspace) free() uintptr { return c.end - c.copy }
func (c *copyspace) work() uintptr { return c.copy - c.base }

// whitelist is a bounded max-heap of whitespace blocks of one region,
// largest on top. Blocks of minReusableWhitespace bytes or less are not
// kept. While in the list a block is formatted as a filler object, so the
// heap stays walkable between collections (the tenure whitelist persists
// across nursery collections).
type whitelist struct {
	blocks []block
}

// add offers a block; it returns the block that was not kept (the offered
// one, or a smaller one it displaced), which the caller must dispose of.
func (wl *whitelist) add(b block) (dropped block, ok bool) {
	if b.size() <= minReusableWhitespace {
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

// workspace is a run of contiguous copied objects awaiting scanning.
type workspace struct {
	region     region
	base, size uintptr // size: bytes to scan (for a segment, 8 per element)

	// A segment of a split pointer array at base: elements [from, to).
	segment  bool
	from, to int
}

// worklist is a worker's FIFO of workspaces with its published volume.
// Adding a run that starts where the tail ends extends the tail.
type worklist struct {
	items  []workspace
	head   int
	volume uintptr
}

func (wl *worklist) add(ws workspace) {
	wl.volume += ws.size
	if n := len(wl.items); n > wl.head {
		if t := &wl.items[n-1]; !t.segment && !ws.segment && t.region == ws.region && t.base+t.size == ws.base {
			t.size += ws.size
			return
		}
	}
	wl.items = append(wl.items, ws)
}

func (wl *worklist) peek() (workspace, bool) {
	if wl.head == len(wl.items) {
		return workspace{}, false
	}
	return wl.items[wl.head], true
}

func (wl *worklist) take() (workspace, bool) {
	if wl.head == len(wl.items) {
		wl.items, wl.head = wl.items[:0], 0
		return workspace{}, false
	}
	ws := wl.items[wl.head]
	wl.head++
	wl.volume -= ws.size
	return ws, true
}
