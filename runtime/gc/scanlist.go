package gc

import (
	"sync"
	"sync/atomic"
)

// scanList is the scavenger's shared FIFO of copy caches with unscanned
// material (and segments of split arrays), one per nursery collection.
type scanList struct {
	ctl    *controller
	mu     sync.Mutex
	caches []*copyCache
	// listed counts the caches on the list, so that a spinning stalled
	// worker can look for work without the lock.
	listed atomic.Int32
}

// push appends c and wakes a stalled worker.
func (l *scanList) push(c *copyCache) {
	l.mu.Lock()
	c.listed = true
	l.caches = append(l.caches, c)
	l.listed.Add(1)
	l.mu.Unlock()
	l.ctl.notify()
}

// pop takes the oldest cache with work off the list, or returns nil.
func (l *scanList) pop() *copyCache {
	if l.listed.Load() == 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.caches) > 0 {
		c := l.caches[0]
		l.caches[0] = nil
		l.caches = l.caches[1:]
		l.listed.Add(-1)
		c.listed = false
		if c.segment || c.work() > 0 {
			return c
		}
	}
	return nil
}

// wait stalls worker w until the list has a cache (returned) or the scan
// phase is over (nil).
func (l *scanList) wait(w *worker) *copyCache {
	var c *copyCache
	found := func() bool { c = l.pop(); return c != nil }
	if !l.ctl.stall(w, found, func() bool { return l.listed.Load() > 0 }) {
		return nil
	}
	return c
}
