package interp

import (
	"testing"

	"minivm/internal/loxsuite"
)

// TestSuiteWithoutSuite checks, in a child test process, that TestSuite
// fails without the conformance suite and skips visibly with
// MINIVM_SKIP_LOX_SUITE=1 (unless CI is set).
func TestSuiteWithoutSuite(t *testing.T) { loxsuite.CheckMissing(t, "TestSuite") }
