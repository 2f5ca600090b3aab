package interp

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchDir holds the Crafting Interpreters benchmark programs.
const benchDir = "../../shared/lox/benchmark"

// BenchmarkLox runs the interpreter-bound benchmark programs (clox's
// benchmark set minus the GC-bound tree builders) as sub-benchmarks, e.g.
//
//	go test ./interp -run X -bench Lox/fib -benchtime 1x
func BenchmarkLox(b *testing.B) {
	for _, name := range []string{"fib", "invocation", "method_call", "properties", "zoo", "equality", "string_equality", "instantiation"} {
		b.Run(name, func(b *testing.B) {
			src, err := os.ReadFile(filepath.Join(benchDir, name+".lox"))
			if err != nil {
				b.Skip(err)
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
		})
	}
}
