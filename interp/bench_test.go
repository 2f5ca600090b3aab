package interp

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"minivm/internal/loxsuite"
	"minivm/runtime/gc"
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

// BenchmarkLoxGC runs the collection-bound programs (clox's tree builders
// and minivm's dom_tree) with the default heap options under each nursery
// collector. With BenchmarkLox it is the workload of cmd/minivm/default.pgo
// (benchmarks/pgo.sh): every collector is profiled alike, so that
// profile-guided inlining favours none of them.
func BenchmarkLoxGC(b *testing.B) {
	benchDir := filepath.Join(loxsuite.Root(b), "benchmark")
	for _, path := range []string{
		filepath.Join(benchDir, "binary_trees.lox"),
		filepath.Join(benchDir, "trees.lox"),
		"../benchmarks/dom_tree.lox",
	} {
		for _, c := range []gc.Collector{gc.BreadthFirst, gc.Hierarchical, gc.Recursive} {
			cfg := gc.DefaultConfig()
			cfg.Collector = c
			b.Run(strings.TrimSuffix(filepath.Base(path), ".lox")+"/"+string(c), func(b *testing.B) { benchmarkScriptWith(b, path, cfg) })
		}
	}
}

// benchmarkScript runs the Lox program at path in a new VM per iteration.
func benchmarkScript(b *testing.B, path string) {
	benchmarkScriptWith(b, path, gc.Config{})
}

// benchmarkScriptWith runs the Lox program at path with heap
// configuration cfg in a new VM per iteration.
func benchmarkScriptWith(b *testing.B, path string, cfg gc.Config) {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		vm, err := New(Options{Heap: cfg, Stdout: io.Discard, Stderr: os.Stderr})
		if err != nil {
			b.Fatal(err)
		}
		if code := vm.RunScript(string(src)); code != ExitOK {
			b.Fatalf("exit code %d", code)
		}
		vm.Close()
	}
}
