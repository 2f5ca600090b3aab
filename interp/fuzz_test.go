package interp

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"minivm/internal/loxsuite"
	"minivm/runtime/gc"
)

// FuzzRun feeds arbitrary source through the parser, the compiler and the
// VM, with a step limit and a small heap. Whatever the input, the VM must
// end with exit code 0, 65 or 70 and never report an internal error (a Go
// panic it caught).
//
//	go test ./interp -run X -fuzz FuzzRun -fuzztime 60s
func FuzzRun(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.lox")
	if root, err := loxsuite.Find(); err == nil { // no suite: fewer seeds
		more, _ := filepath.Glob(filepath.Join(root, "test", "*", "*.lox"))
		seeds = append(seeds, more...)
	}
	for _, path := range seeds {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("var a = [1, 2]; a[0] = a; print a; print str(a) + \"x\";")
	f.Add("class A { init() { this.x = 1; } } class B < A { init() { super.init(); this.y = this.x; } } print B().y;")
	cfg := gc.Config{MaxHeap: 8 << 20, NurserySize: 512 << 10, InitialHeap: 4 << 20}
	f.Fuzz(func(t *testing.T, src string) {
		var errw bytes.Buffer
		vm, err := New(Options{Heap: cfg, Stdout: io.Discard, Stderr: &errw, StepLimit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		code := vm.RunScript(src)
		for _, p := range vm.protos {
			if err := verifyProto(vm, p); err != nil {
				t.Fatalf("bytecode of %q: %v", src, err)
			}
		}
		vm.Close()
		if strings.Contains(errw.String(), "internal error") {
			t.Fatalf("internal error on %q:\n%s", src, errw.String())
		}
		switch code {
		case ExitOK, ExitCompileError, ExitRuntimeError:
		default:
			t.Fatalf("exit code %d", code)
		}
	})
}
