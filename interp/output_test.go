package interp

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// failingWriter accepts n bytes, then fails every write.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

// A failed write to Stdout stops the script at the print that meets it
// (ExitIOError, nothing on Stderr) and FlushOutput reports it; a run that
// writes nothing has no error.
func TestOutputError(t *testing.T) {
	for _, tc := range []struct {
		src  string
		code int
	}{
		{"print 1;\n" + strings.Repeat("print 1234567890;\n", 10), ExitIOError}, // fails at the final flush
		{"var i = 0;\nwhile (true) { print i; i = i + 1; }", ExitIOError},
		{"var a = [1, 2, 3];\nfor (var i = 0; i < 8; i = i + 1) a = [a, a, a, a];\nwhile (true) print a;", ExitIOError},
		{"var x = 1;", ExitOK},
	} {
		var errw bytes.Buffer
		vm, err := New(Options{Heap: testHeap, Stdout: &failingWriter{n: 100}, Stderr: &errw})
		if err != nil {
			t.Fatal(err)
		}
		code := vm.RunScript(tc.src)
		vm.Close()
		ferr := vm.FlushOutput()
		if code != tc.code || errw.Len() != 0 || (ferr != nil) != (tc.code == ExitIOError) ||
			ferr != nil && ferr.Error() != "cannot write standard output: disk full" {
			t.Errorf("%q: code %d, stderr %q, FlushOutput %v", strings.SplitN(tc.src, "\n", 2)[0], code, errw.String(), ferr)
		}
	}
}
