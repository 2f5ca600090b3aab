package interp

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"minivm/runtime/gc"
)

// hotList declares Node (payload first, next last: instance value slots
// 0 overflow, 1 payload, 2 id, 3 next) on line 2, builds a list and walks
// it, reading next (a reference) and id (a number) of every node.
const hotList = `
class Node {
  init(payload, id, next) {
    this.payload = payload;
    this.id = id;
    this.next = next;
  }
}
var list = nil;
for (var i = 0; i < 300; i = i + 1) list = Node([i], i, list);
var sum = 0;
for (var k = 0; k < 3; k = k + 1) {
  var n = list;
  while (n != nil) { n = n.next; }
}
var m = list;
while (m != nil) { sum = sum + m.id; m = m.next; }
print sum;
`

// fresh declares the same Node on the same line but reads no field.
const fresh = `
class Node {
  init(payload, id, next) {
    this.payload = payload;
    this.id = id;
    this.next = next;
  }
}
var one = Node(nil, 0, nil);
`

func runHot(t *testing.T, opts Options, src string) (*VM, string, string) {
	t.Helper()
	var out, errw bytes.Buffer
	opts.Heap = gc.Config{MaxHeap: 16 << 20, NurserySize: 1 << 20}
	opts.Stdout, opts.Stderr = &out, &errw
	vm, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if code := vm.RunScript(src); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	vm.out.Flush()
	return vm, out.String(), errw.String()
}

func scanOrder(t *testing.T, vm *VM, class string) ([]int, int) {
	t.Helper()
	order, hot, ok := vm.ScanOrder(class)
	if !ok {
		t.Fatalf("no class %s with a layout", class)
	}
	return order, hot
}

func TestHotFieldOrderIsLearned(t *testing.T) {
	vm, out, _ := runHot(t, Options{HotFieldScanOrdering: true}, hotList)
	defer vm.Close()
	if out != "44850\n" {
		t.Fatalf("output %q", out)
	}
	// Before any collection: fields in declaration order, the overflow
	// table (slot 0) last, no hot slot.
	if order, hot := scanOrder(t, vm, "Node"); !reflect.DeepEqual(order, []int{1, 2, 3, 0}) || hot != -1 {
		t.Fatalf("before any collection: order %v hot %d, want [1 2 3 0]", order, hot)
	}
	vm.foldHotFields() // what the heap runs before each collection
	// next (slot 3) was read 4 times per node, id (slot 2) once, payload
	// never; the overflow table (slot 0) goes last.
	if order, hot := scanOrder(t, vm, "Node"); !reflect.DeepEqual(order, []int{3, 2, 1, 0}) || hot != 3 {
		t.Fatalf("order %v hot %d, want [3 2 1 0] hot 3", order, hot)
	}
}

func TestNoHotFieldScanOrderingStillFindsTheHotSlot(t *testing.T) {
	vm, _, _ := runHot(t, Options{}, hotList+"gc();\n")
	defer vm.Close()
	if order, hot := scanOrder(t, vm, "Node"); !reflect.DeepEqual(order, []int{0, 1, 2, 3}) || hot != 3 {
		t.Fatalf("order %v hot %d, want the declaration order and hot slot 3", order, hot)
	}
}

// TestHintsFileGivesTheOrderWithoutWarmUp saves the hints of one run and
// loads them in the next, whose class has the learned order from its
// first instance on, before any field is read.
func TestHintsFileGivesTheOrderWithoutWarmUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hints.txt")
	vm, _, errs := runHot(t, Options{HotFieldScanOrdering: true, SaveHints: path}, hotList)
	vm.foldHotFields()
	want, wantHot := scanOrder(t, vm, "Node")
	vm.Close()
	if errs != "" {
		t.Fatalf("stderr %q", errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nNode 2 next*=1200 id=300 payload=0\n") {
		t.Fatalf("hints file:\n%s", data)
	}

	vm2, _, errs := runHot(t, Options{HotFieldScanOrdering: true, LoadHints: path}, fresh)
	defer vm2.Close()
	if errs != "" {
		t.Fatalf("stderr %q", errs)
	}
	got, gotHot := scanOrder(t, vm2, "Node")
	if !reflect.DeepEqual(got, want) || gotHot != wantHot || wantHot != 3 {
		t.Fatalf("loaded order %v hot %d, want %v hot %d", got, gotHot, want, wantHot)
	}
	// And with ordering off, the loaded hints still name the hot slot.
	vm3, _, _ := runHot(t, Options{LoadHints: path}, fresh)
	defer vm3.Close()
	if order, hot := scanOrder(t, vm3, "Node"); !reflect.DeepEqual(order, []int{0, 1, 2, 3}) || hot != 3 {
		t.Fatalf("ordering off: order %v hot %d", order, hot)
	}
}

func TestBadOrStaleHintsAreWarnings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, path, warn string
	}{
		{"missing", filepath.Join(dir, "none.txt"), "no such file"},
		{"not hints", write("bad.txt", "hello\n"), "not a minivm hints file"},
		{"bad line", write("line.txt", "# minivm hot-field hints v1\nNode x next=1\n"), "line 2: bad declaration line"},
		{"stale class", write("stale.txt", "# minivm hot-field hints v1\nNode 9 next*=5\n"), "no class Node declared at line 9"},
		{"stale field", write("field.txt", "# minivm hot-field hints v1\nNode 2 nxt*=5\n"), "has no field [nxt]"},
	} {
		vm, _, errs := runHot(t, Options{LoadHints: c.path}, fresh)
		vm.Close()
		if !strings.Contains(errs, "minivm: warning: hints file '"+c.path+"': ") || !strings.Contains(errs, c.warn) {
			t.Errorf("%s: stderr %q, want a warning with %q", c.name, errs, c.warn)
		}
	}
}

// TestClassesOfOneDeclarationShareAProfile creates a class object per call
// of make(): the classes made after the profile has seen reads through
// earlier ones get the order with their layout.
func TestClassesOfOneDeclarationShareAProfile(t *testing.T) {
	src := `
fun make() {
  class Cell {
    init(v, link) { this.v = v; this.link = link; }
  }
  return Cell;
}
var C = make();
var c = C(1, C(2, nil));
var i = 0;
while (i < 100) { var x = c.link; i = i + 1; }
gc();
var D = make();
var d = D(3, nil);
`
	vm, _, _ := runHot(t, Options{HotFieldScanOrdering: true}, src)
	defer vm.Close()
	order, hot := scanOrder(t, vm, "D")
	if !reflect.DeepEqual(order, []int{2, 1, 0}) || hot != 2 {
		t.Fatalf("second class of the declaration: order %v hot %d, want [2 1 0] hot 2", order, hot)
	}
}
