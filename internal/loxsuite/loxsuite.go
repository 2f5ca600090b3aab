// Package loxsuite locates the Crafting Interpreters Lox suite (test/ and
// benchmark/) for the tests of interp, lang and testscripts, and applies
// one rule to all of them: a missing suite fails the test, because go test
// prints nothing but "ok" for a passing package, skips included, so a
// checkout without the suite would pass unnoticed. MINIVM_SKIP_LOX_SUITE=1
// turns the failure into a skip (visible with -v), except when CI is set:
// a CI run always has the suite.
package loxsuite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Find returns the suite root, the directory holding test/:
// $MINIVM_LOX_SUITE, else ../shared/lox beside the module root (the
// directory holding go.mod, found from the working directory up). The
// error names the directory it looked at.
func Find() (string, error) {
	root := os.Getenv("MINIVM_LOX_SUITE")
	if root == "" {
		dir, err := os.Getwd()
		if err != nil {
			return "", err
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return "", errors.New("no go.mod above the working directory, so no ../shared/lox beside it")
			}
			dir = parent
		}
		root = filepath.Join(filepath.Dir(dir), "shared", "lox")
	}
	if fi, err := os.Stat(filepath.Join(root, "test")); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("no Lox conformance suite at %s (want ../shared/lox/test beside the repository, or MINIVM_LOX_SUITE=<suite root>)", root)
	}
	return root, nil
}

// Optional returns the suite root and true, or, when the suite is missing
// and MINIVM_SKIP_LOX_SUITE=1 allows that, logs so and returns false: for
// a test that has other inputs too and goes on without the suite.
// Otherwise a missing suite fails the test.
func Optional(tb testing.TB) (string, bool) {
	tb.Helper()
	root, err := find(tb)
	if err != nil {
		tb.Logf("%v; MINIVM_SKIP_LOX_SUITE=1: going on without it", err)
		return "", false
	}
	return root, true
}

// Root returns the suite root; a missing suite fails the test, or skips
// it with MINIVM_SKIP_LOX_SUITE=1.
func Root(tb testing.TB) string {
	tb.Helper()
	root, err := find(tb)
	if err != nil {
		tb.Skipf("%v; skipped: MINIVM_SKIP_LOX_SUITE=1", err)
	}
	return root
}

// find returns Find's root, fails the test if the suite is missing and
// may not be skipped, or returns Find's error if it may.
func find(tb testing.TB) (string, error) {
	tb.Helper()
	root, err := Find()
	switch {
	case err == nil:
	case os.Getenv("CI") != "":
		tb.Fatalf("%v; CI is set, so MINIVM_SKIP_LOX_SUITE does not apply", err)
	case os.Getenv("MINIVM_SKIP_LOX_SUITE") != "1":
		tb.Fatalf("%v; set MINIVM_SKIP_LOX_SUITE=1 to skip", err)
	}
	return root, err
}
