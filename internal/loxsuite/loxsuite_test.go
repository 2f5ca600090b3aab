package loxsuite

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRoot(t *testing.T) {
	root := Root(t)
	if fi, err := os.Stat(filepath.Join(root, "test")); err != nil || !fi.IsDir() {
		t.Fatalf("Root returned %s, which has no test directory", root)
	}
}

func TestMissingSuite(t *testing.T) { CheckMissing(t, "TestRoot") }

// MINIVM_LOX_SUITE names the root; it is used as given.
func TestFindHonoursEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "test"), 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MINIVM_LOX_SUITE", dir)
	if root, err := Find(); err != nil || root != dir {
		t.Fatalf("Find() = %q, %v; want %q", root, err, dir)
	}
}
