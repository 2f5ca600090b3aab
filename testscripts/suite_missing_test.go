package testscripts

import (
	"testing"

	"minivm/internal/loxsuite"
)

// TestConformanceWithoutSuite checks, in a child test process, that
// TestConformance fails without the suite, naming it, and skips visibly
// with MINIVM_SKIP_LOX_SUITE=1 (unless CI is set).
func TestConformanceWithoutSuite(t *testing.T) { loxsuite.CheckMissing(t, "TestConformance") }
