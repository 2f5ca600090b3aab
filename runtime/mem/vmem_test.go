package mem

import "testing"

func TestDecommit(t *testing.T) {
	res, err := Reserve(4 * PageSize)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Release()
	if err := Commit(res.Addr, 4*PageSize); err != nil {
		t.Fatal(err)
	}
	page := func(i uintptr) *byte { return (*byte)(At(res.Addr + i*PageSize)) }
	for i := uintptr(0); i < 4; i++ {
		*page(i) = byte(i + 1)
	}
	// Narrowed to whole pages: from one byte into page 0 to one byte into
	// page 3 decommits pages 1 and 2 only.
	if err := Decommit(res.Addr+1, 3*PageSize); err != nil {
		t.Fatal(err)
	}
	if err := Decommit(res.Addr+1, 8); err != nil { // less than a page: nothing
		t.Fatal(err)
	}
	if *page(0) != 1 || *page(3) != 4 {
		t.Fatalf("pages outside the decommitted range changed: %d %d", *page(0), *page(3))
	}
	if err := Commit(res.Addr+PageSize, 2*PageSize); err != nil {
		t.Fatal(err)
	}
	if *page(1) != 0 || *page(2) != 0 {
		t.Fatalf("decommitted pages kept their data: %d %d", *page(1), *page(2))
	}
}
