package gc

import (
	"math"
	"testing"
)

func TestValueBoxing(t *testing.T) {
	for _, f := range []float64{0, -0.0, 1.5, -3, math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64} {
		v := Number(f)
		if !v.IsNumber() || v.IsRef() || v.AsNumber() != f {
			t.Errorf("Number(%v) boxes wrongly: %#x", f, uint64(v))
		}
	}
	nan := Number(math.NaN())
	if !nan.IsNumber() || !math.IsNaN(nan.AsNumber()) {
		t.Errorf("NaN is not a number: %#x", uint64(nan))
	}
	for _, v := range []Value{Nil, True, False, Undefined} {
		if v.IsNumber() || v.IsRef() {
			t.Errorf("singleton %#x misclassified", uint64(v))
		}
	}
	for _, r := range []Ref{1, 0x12345678, math.MaxUint32} {
		v := FromRef(r)
		if !v.IsRef() || v.IsNumber() || v.AsRef() != r {
			t.Errorf("FromRef(%#x) boxes wrongly: %#x", r, uint64(v))
		}
	}
	if !Nil.IsFalsey() || !False.IsFalsey() || True.IsFalsey() || Number(0).IsFalsey() {
		t.Error("truthiness is not Lox's")
	}
}

func TestObjectLayout(t *testing.T) {
	h, err := New(Config{MaxHeap: 64 << 20, NurserySize: 4 << 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	inst, err := h.NewMeta(MetaSpec{Layout: LayoutFixed, Kind: 7, PrefixWords: 1, NumSlots: 3, Tag: 42})
	if err != nil {
		t.Fatal(err)
	}
	if uint64(inst) >= 1<<32 || inst.size() != 40 || inst.Tag() != 42 || inst.kind() != 7 || inst.Layout() != LayoutFixed {
		t.Fatalf("meta fields wrong: size %d tag %d", inst.size(), inst.Tag())
	}
	r := h.allocFixed(inst, Undefined)
	if !h.isYoung(r) || h.Kind(r) != 7 || h.MetaOf(r) != inst || h.RawWord(r, 1) != 0 || h.Load(r, 2) != Undefined || h.Load(r, 4) != Undefined {
		t.Fatalf("fixed object initialised wrongly")
	}
	h.Store(r, 3, Number(2.5))
	if h.Load(r, 3).AsNumber() != 2.5 {
		t.Fatal("store/load mismatch")
	}
	str, _ := h.NewMeta(MetaSpec{Layout: LayoutBytes, Kind: 1})
	s := h.allocBytes(str, 11)
	copy(h.Bytes(s), "hello world")
	if h.Length(s) != 11 || string(h.Bytes(s)) != "hello world" {
		t.Fatal("bytes object wrong")
	}
	arr, _ := h.NewMeta(MetaSpec{Layout: LayoutSlots, Kind: 2})
	a := h.allocSlots(arr, 5, Nil)
	if h.Length(a) != 5 || h.Load(a, 6) != Nil {
		t.Fatal("slots object wrong")
	}
	if got := uintptr(s-r) * 8; got != inst.size() {
		t.Fatalf("objects not contiguous: %d", got)
	}
}
