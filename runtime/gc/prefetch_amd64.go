package gc

// prefetchBlock asks the CPU to fetch the four cache lines from addr for
// writing (PREFETCHW). It is a hint: it never faults, so addr may lie past
// the end of the mapping.
//
//go:noescape
func prefetchBlock(addr uintptr)

// prefetchLine asks the CPU to fetch the cache line at addr for reading
// (PREFETCHT0); like prefetchBlock it never faults.
//
//go:noescape
func prefetchLine(addr uintptr)

// spinPause tells the CPU that the caller is spinning (PAUSE), which saves
// power and frees the core's resources for a sibling hyperthread.
func spinPause()
