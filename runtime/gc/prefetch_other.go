//go:build !amd64

package gc

// prefetchWrite is a hint; without an assembly version it does nothing.
func prefetchWrite(addr uintptr) {}

// spinPause is a hint; without an assembly version it does nothing.
func spinPause() {}
