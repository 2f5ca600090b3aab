package gc

import (
	"bytes"
	"strings"
	"testing"

	"minivm/runtime/mem"
)

// TestMetadataSubAllocator creates and frees many ClassMeta records in a
// heap whose sub-allocator has tiny regions, and checks validMeta (the
// segment map's FindStart) and the [gc,metadata] line.
func TestMetadataSubAllocator(t *testing.T) {
	var log bytes.Buffer
	h, err := New(Config{MaxHeap: 16 << 20, NurserySize: 1 << 20, Verify: true, Log: testLogger(t, &log, "gc*"),
		SuballocatorInitialSize: 16 << 10, SuballocatorCommitSize: 4 << 10, SuballocatorIncrementSize: 8 << 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	var metas []Meta
	for i := 0; i < 2000; i++ {
		slots := 1 + i%50
		if i%400 == 0 {
			slots = 5000 // a record larger than the increment: its own region
		}
		m, err := h.NewMeta(MetaSpec{Layout: LayoutFixed, NumSlots: slots, Tag: uint32(i)})
		if err != nil {
			t.Fatal(err)
		}
		if !h.validMeta(m) || h.validMeta(m+8) || m.Tag() != uint32(i) || m.ScanOrder(slots-1) != slots-1 {
			t.Fatalf("meta %d at %#x: validMeta or fields wrong", i, uint32(m))
		}
		metas = append(metas, m)
	}
	st := h.metaArena.Stats()
	if st.Regions < 10 || st.LargeRegions != 5 || st.Blocks != 2002 {
		t.Fatalf("stats: %+v", st)
	}
	for i, m := range metas {
		if i%3 != 0 {
			h.freeMeta(m)
			if h.validMeta(m) {
				t.Fatalf("freed meta %#x still valid", uint32(m))
			}
		}
	}
	if err := h.metaArena.Verify(); err != nil {
		t.Fatal(err)
	}
	h.logMetadata()
	line := log.String()
	for _, want := range []string{"[gc,metadata] Metadata: regions=", "reserved=", "committed=", "used=", "free_blocks=", "fragmentation=", "search=quick"} {
		if !strings.Contains(line, want) {
			t.Fatalf("metadata line %q lacks %q", line, want)
		}
	}
}

func TestPretouchModesHeap(t *testing.T) {
	for _, c := range []Config{
		{Pretouch: mem.PretouchStore},
		{Pretouch: mem.PretouchAtomic},
		{Pretouch: mem.PretouchPopulate, AlwaysPreTouch: true, GCThreads: 2},
		{Pretouch: mem.PretouchBackground},
		{AlwaysPreTouch: true, GCThreads: 2},
	} {
		var log bytes.Buffer
		c.MaxHeap, c.NurserySize, c.InitialHeap, c.Log = 64<<20, 2<<20, 16<<20, testLogger(t, &log, "gc*")
		h, err := New(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.growTenure(4 << 20); err != nil {
			t.Fatal(err)
		}
		h.logMetadata()
		if !strings.Contains(log.String(), "[gc,pretouch] Pretouch: mode=") {
			t.Errorf("%+v: no pretouch line in %q", c, log.String())
		}
		h.Release()
	}
}
