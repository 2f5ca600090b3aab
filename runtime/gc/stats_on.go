//go:build !gcnostats

package gc

// copyStatistics: recordCopy keeps the per-copy statistics (objects,
// containment, inside, small, hot arcs). Building with -tags gcnostats
// turns them off, only to measure what they cost (BENCHMARKS.md); the
// stats file then reports zeros for them.
const copyStatistics = true
