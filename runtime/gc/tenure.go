package gc

import "minivm/runtime/gc/xlog"

// Adaptive tenuring, as HotSpot's age table does it. Every copy adds its
// size to the worker's age table, by destination region and the
// original's age (one collection less than the survivor copy's). After a
// nursery collection, the threshold for the next is the youngest age at
// which the survivors of that age and younger exceed the desired survivor
// size, TargetSurvivorRatio percent of a semispace, capped at the
// configured tenure age's threshold; older objects are tenured next time.
// So when survivors crowd the survivor space the threshold falls (the
// long-lived move on before they overflow it), and while they fit it
// rises back to the cap. The cap is the configured age, not HotSpot's
// fixed 15: a higher one only copies long-lived objects more often
// (binary_trees: 30% more nursery copying with a cap of 14 than with 10,
// BENCHMARKS.md).
//
// minivm's tenure age (Config.TenureAge, -Xgc:scvTenureAge) counts the
// collections an object survives up to and including the one that
// tenures it; HotSpot's threshold counts those before it: threshold =
// tenure age - 1. The gc+age lines use HotSpot's threshold and ages.

// ageTable counts copied bytes by destination region and the original's
// age: it is also the collection's count of bytes per region, and
// recordCopy indexes it without a branch or a bounds check.
type ageTable [2][hdrAgeMask>>hdrAgeShift + 1]uint64

// regionTotal returns the bytes copied to region r.
func (t *ageTable) regionTotal(r region) (n uint64) {
	for _, b := range t[r&1] {
		n += b
	}
	return n
}

// survivorsAged returns the survivor bytes whose copies have age a (at
// least 1): those copied at age a-1, and at the largest age also those
// copied at it (ages saturate).
func (t *ageTable) survivorsAged(a int) uint64 {
	n := t[survivorRegion][a-1]
	if a == MaxAge {
		n += t[survivorRegion][MaxAge]
	}
	return n
}

func (a *ageTable) add(b *ageTable) {
	for r := range a {
		for age := range a[r] {
			a[r][age] += b[r][age]
		}
	}
}

// defaultTargetSurvivorRatio is HotSpot's -XX:TargetSurvivorRatio default.
const defaultTargetSurvivorRatio = 50

// futileSurvival is the share of the allocate space that, surviving a
// nursery collection, makes it futile: it freed almost nothing.
const futileSurvival = 0.9

// retune sets the tenure age of the next nursery collection from this
// one's age table, and logs HotSpot's gc+age lines (debug: the threshold;
// trace: the table). A fixed tenure age only logs.
//
// After a futile collection (futileSurvival of the allocated bytes
// survived), the next one tenures everything it copies: the survivors
// fill the survivor space, so copying them there again would only repeat
// the futile copy. Collecting globally instead would mark all of tenure
// to free what is, in such a program, almost all live; tenuring at once
// copies each survivor once (BENCHMARKS.md, "Adaptive tenuring").
func (h *Heap) retune(gc int, ages *ageTable, allocated uint64) {
	maxThreshold := h.cfg.TenureAge - 1
	desired := uint64(h.nurseryMid-h.nurseryLo) * uint64(h.cfg.TargetSurvivorRatio) / 100
	threshold := maxThreshold
	if !h.cfg.FixedTenureAge {
		var total uint64
		for age := 1; age <= MaxAge; age++ {
			total += ages.survivorsAged(age)
			if total > desired {
				threshold = min(age, maxThreshold)
				break
			}
		}
		h.nursery.tenureAge = threshold + 1
		if survived := ages.regionTotal(survivorRegion) + ages.regionTotal(tenureRegion); allocated > 0 &&
			float64(survived) >= futileSurvival*float64(allocated) {
			h.nursery.tenureAge = 1
			h.logAt(xlog.Debug, "gc,age", "GC(%d) Futile collection: %d of %d bytes survived; the next collection tenures every survivor",
				gc, survived, allocated)
		}
	}
	h.logAt(xlog.Debug, "gc,age", "GC(%d) Desired survivor size %d bytes, new threshold %d (max threshold %d)",
		gc, desired, h.nursery.tenureAge-1, maxThreshold)
	if h.logging(xlog.Trace, "gc,age") {
		h.logAt(xlog.Trace, "gc,age", "GC(%d) Age table with threshold %d (max threshold %d)", gc, h.nursery.tenureAge-1, maxThreshold)
		var total uint64
		for age := 1; age <= MaxAge; age++ {
			n := ages.survivorsAged(age)
			if n == 0 {
				continue
			}
			total += n
			h.logAt(xlog.Trace, "gc,age", "GC(%d) - age %3d: %10d bytes, %10d total", gc, age, n, total)
		}
	}
}
