// Package mem is minivm's interface to operating-system memory: reserving
// address space, committing and decommitting it, pretouching it, and
// placing memory below 4 GB for class metadata (compressed class
// pointers).
//
// Parts, after OMR's and HotSpot's designs:
//   - vmem.go: Reserve (PROT_NONE), Commit, Decommit (MADV_DONTNEED, then
//     PROT_NONE), Release.
//   - pretouch.go: pretouch in modes store, atomic, populate
//     (MADV_POPULATE_WRITE with an EINVAL fallback), PretouchParallel
//     (4 MB chunks claimed by CAS) and BackgroundPretoucher (a goroutine
//     ahead of an allocator).
//   - low4g.go, maps.go: Low4G, the sub-allocator below 4 GB: an initial
//     region committed in steps, increment regions, own regions for large
//     requests; regions found by a /proc/self/maps gap search (quick) or by
//     stepping mmap hints (brute force); per-region locks.
//   - segheap.go: segHeap, the CodeHeap-style heap inside each region:
//     segment map with hops (FindStart), address-ordered free list with
//     best fit, tail carving, an insertion hint and O(1) joins, Verify.
//
// Invariants: memory returned here is never seen by Go's garbage collector
// and never holds Go pointers. Addresses are handed out as uintptr; the only
// conversion back to unsafe.Pointer is At, in ptr.go.
//
// Callers: runtime/gc (the heap reservation, pretouch, and the ClassMeta
// sub-allocator).
package mem
