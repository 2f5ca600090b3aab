package gc

import "sync/atomic"

// Cause says why a collection ran; it appears in the GC log.
type Cause string

const (
	CauseAllocationFailure Cause = "Allocation Failure"
	CauseSystemGC          Cause = "System.gc()"
	CauseStress            Cause = "Stress"
)

// remember adds a tenured object to the remembered set. Mutators race to
// set the remembered bit by CAS; the winner appends.
func (h *Heap) remember(r Ref) {
	p := h.word(r, 0)
	for {
		old := atomic.LoadUint64(p)
		if old&hdrRemembered != 0 {
			return
		}
		if atomic.CompareAndSwapUint64(p, old, old|hdrRemembered) {
			break
		}
	}
	h.rememberMu.Lock()
	h.remembered = append(h.remembered, r)
	h.rememberMu.Unlock()
}
