package interp

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"minivm/internal/loxsuite"
)

// BenchmarkLox runs the interpreter-bound benchmark programs (clox's
// benchmark set minus the GC-bound tree builders) as sub-benchmarks, e.g.
//
//	go test ./interp -run X -bench Lox/fib -benchtime 1x
func BenchmarkLox(b *testing.B) {
	benchDir := filepath.Join(loxsuite.Root(b), "benchmark")
	for _, name := range []string{"fib", "invocation", "method_call", "properties", "zoo", "equality", "string_equality", "instantiation"} {
		b.Run(name, func(b *testing.B) { benchmarkScript(b, filepath.Join(benchDir, name+".lox")) })
	}
}

// BenchmarkLoxGC runs the collection-bound programs with the default heap
// and GC options: clox's tree builders and minivm's dom_tree.
// With BenchmarkLox it is the workload of cmd/minivm/default.pgo
// (benchmarks/pgo.sh).
func BenchmarkLoxGC(b *testing.B) {
	benchDir := filepath.Join(loxsuite.Root(b), "benchmark")
	for _, path := range []string{
		filepath.Join(benchDir, "binary_trees.lox"),
		filepath.Join(benchDir, "trees.lox"),
		"../benchmarks/dom_tree.lox",
	} {
		b.Run(strings.TrimSuffix(filepath.Base(path), ".lox"), func(b *testing.B) { benchmarkScript(b, path) })
	}
}

// benchmarkScript runs the Lox program at path in a new VM per iteration.
func benchmarkScript(b *testing.B, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		vm, err := New(Options{Stdout: io.Discard, Stderr: os.Stderr})
		if err != nil {
			b.Fatal(err)
		}
		if code := vm.RunScript(string(src)); code != ExitOK {
			b.Fatalf("exit code %d", code)
		}
		vm.Close()
	}
}
