package gc

// Evacuator work: released copied material awaiting scanning. Each
// evacuator owns a worklist; thieves take from it under its lock
// (evacuator_steal.go).

// workspace is a run of contiguous copied objects awaiting scanning.
type workspace struct {
	region     region
	chain      Meta    // a released chain tail: its link class (chain.go), else 0
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
		if t := &wl.items[n-1]; !t.segment && !ws.segment && t.region == ws.region && t.chain == ws.chain && t.base+t.size == ws.base {
			t.size += ws.size
			return
		}
	}
	wl.items = append(wl.items, ws)
}

// push puts ws back at the head (it was just taken from there).
func (wl *worklist) push(ws workspace) {
	wl.volume += ws.size
	if wl.head > 0 {
		wl.head--
		wl.items[wl.head] = ws
		return
	}
	wl.items = append([]workspace{ws}, wl.items...)
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
