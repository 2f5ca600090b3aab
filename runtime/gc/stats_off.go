//go:build gcnostats

package gc

// copyStatistics is off in a gcnostats build, which measures what the
// per-copy statistics cost; see stats_on.go.
const copyStatistics = false
