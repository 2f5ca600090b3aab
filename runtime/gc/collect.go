package gc

import "sync/atomic"

// Cause says why a collection ran; it appears in the GC log.
type Cause string

const (
	CauseAllocationFailure Cause = "Allocation Failure"
	CauseSystemGC          Cause = "System.gc()"
	CauseStress            Cause = "Stress"
)

// setRemembered sets r's remembered bit by CAS and reports whether this
// caller set it: mutators (barriers) and GC workers (segments of one
// array) may race, and only the winner adds r to a remembered set.
func (h *Heap) setRemembered(r Ref) bool {
	p := h.word(r, 0)
	for {
		old := atomic.LoadUint64(p)
		if old&hdrRemembered != 0 {
			return false
		}
		if atomic.CompareAndSwapUint64(p, old, old|hdrRemembered) {
			return true
		}
	}
}

// remember adds a tenured object to the remembered set; concurrent
// mutators append under rememberMu.
func (h *Heap) remember(r Ref) {
	if !h.setRemembered(r) {
		return
	}
	h.rememberMu.Lock()
	h.remembered = append(h.remembered, r)
	h.rememberMu.Unlock()
}
