package mem

import (
	"bytes"
	"fmt"
	"math/bits"
)

// segHeap is a CodeHeap-style allocator over one range of mapped memory
// (HotSpot's memory/heap.cpp, described in MEMORY.md section B; this is an
// independent implementation).
//
// The range is divided into fixed segments. Every block is a whole number
// of segments and starts with an 8-byte in-band header:
//
//	offset 0  uint32  length in segments; bit 31 set while the block is used
//	offset 4  uint32  free: segment index of the next free block (noSeg = end)
//	                  used: usedMagic
//	offset 8  payload (what Allocate returns)
//
// A one-byte-per-segment map, kept in Go memory beside the heap, finds the
// start of a block from any interior address:
//
//	0          the segment starts a block (used or free)
//	1..0xFE    step back this many segments and look again
//	0xFF       unused: at or beyond the high-water mark (next)
//
// Free blocks sit on a singly linked list sorted by address. Allocation is
// best fit with an early exit on an exact match; a larger block has its
// tail carved off, so it keeps its place in the list. Freeing inserts in
// address order (starting from a revalidated insertion hint once the list is
// long) and merges with both physical neighbours. A merge rewrites one map
// byte instead of the absorbed block's whole map (JDK-8231460): the map
// stays correct but gains hops, each join is counted, and past a limit the
// map is rebuilt.
//
// A segHeap is not safe for concurrent use; Low4G gives each region its own
// lock.
type segHeap struct {
	base     uintptr // address of segment 0
	shift    uint    // log2 of the segment size
	reserved uint32  // segments the heap may grow to
	commit   uint32  // segments backed by memory
	next     uint32  // high-water mark: segments [next, commit) were never used

	segmap []byte // one byte per committed segment

	freeHead  uint32 // first free block, or noSeg
	freeLen   int    // blocks on the free list
	freeSegs  uint32 // segments on the free list
	hint      uint32 // last insertion point (revalidated before use), or noSeg
	fragCount int    // joins since the map was last rebuilt

	usedSegs   uint32
	usedBlocks int

	// Counters for logs and benchmarks.
	joins    uint64
	rebuilds uint64

	zap bool // fill free payloads with zapByte (checked by Verify)

	// The naive variants exist for the benchmarks that show what the
	// segment-map join and the insertion hint buy.
	naiveJoin bool // rewrite the merged block's whole map on a join
	noHint    bool // always scan the free list from its head
}

// segHeapConfig sets a segHeap's parameters.
type segHeapConfig struct {
	// SegmentSize is the allocation unit and alignment: a power of two in
	// [16, 4096]; 0 means defaultSegmentSize.
	SegmentSize uintptr
	// Zap fills every free payload with zapByte so that Verify can catch
	// writes to freed blocks (HotSpot's badCodeHeapNewVal). It costs a
	// write of each freed block.
	Zap bool
}

const (
	// defaultSegmentSize is HotSpot's CodeCacheSegmentSize on x86 without
	// tiered compilation. A small ClassMeta (24 bytes plus two per slot)
	// and its header fit in one segment.
	defaultSegmentSize = 64

	// segHeaderSize is the in-band header before each payload.
	segHeaderSize = 8

	// zapByte fills free payloads when zapping is on.
	zapByte = 0xCB

	segFree    = 0xFF // map value of segments beyond the high-water mark
	segMaxHop  = 0xFE // the longest hop a map byte encodes
	noSeg      = ^uint32(0)
	usedBit    = 1 << 31
	usedMagic  = 0x6174656D // "meta"
	maxSegLen  = usedBit - 1
	minSegSize = 16
	maxSegSize = 4096

	// segFreelistLimit: past this many free blocks, insertion starts from
	// the hint (HotSpot's freelist_limit).
	segFreelistLimit = 100
	// segFragmentationLimit: after this many joins the map is rebuilt
	// (HotSpot's fragmentation_limit).
	segFragmentationLimit = 10000
)

// newSegHeap makes a heap over [base, base+reserved). The first committed
// bytes must already be readable and writable; Expand commits more.
// Both sizes are rounded down to whole segments.
func newSegHeap(base, reserved, committed uintptr, cfg segHeapConfig) (*segHeap, error) {
	seg := cfg.SegmentSize
	if seg == 0 {
		seg = defaultSegmentSize
	}
	if seg < minSegSize || seg > maxSegSize || seg&(seg-1) != 0 {
		return nil, fmt.Errorf("segment size %d must be a power of two in [%d, %d]", seg, minSegSize, maxSegSize)
	}
	if base%seg != 0 {
		return nil, fmt.Errorf("heap base %#x is not aligned to the segment size %d", base, seg)
	}
	shift := uint(bits.TrailingZeros64(uint64(seg)))
	if reserved>>shift > maxSegLen {
		return nil, fmt.Errorf("heap of %d bytes has too many segments", reserved)
	}
	committed = min(committed, reserved)
	s := &segHeap{
		base:     base,
		shift:    shift,
		reserved: uint32(reserved >> shift),
		commit:   uint32(committed >> shift),
		freeHead: noSeg,
		hint:     noSeg,
		zap:      cfg.Zap,
	}
	s.segmap = make([]byte, s.commit, max(s.commit, 64))
	fillMap(s.segmap, segFree)
	return s, nil
}

// SegmentSize returns the heap's segment size.
func (s *segHeap) SegmentSize() uintptr { return 1 << s.shift }

// Base returns the address of the first segment.
func (s *segHeap) Base() uintptr { return s.base }

// Committed returns the bytes backed by memory.
func (s *segHeap) Committed() uintptr { return uintptr(s.commit) << s.shift }

// Reserved returns the bytes the heap may grow to.
func (s *segHeap) Reserved() uintptr { return uintptr(s.reserved) << s.shift }

// Expand commits at least n more bytes (whole pages and segments, at most
// up to the reservation) and returns how many bytes it added.
func (s *segHeap) Expand(n uintptr) (uintptr, error) {
	if s.commit == s.reserved {
		return 0, nil
	}
	lo := s.base + uintptr(s.commit)<<s.shift
	hi := min(AlignUp(lo+n, PageSize), s.base+uintptr(s.reserved)<<s.shift)
	if hi <= lo {
		return 0, nil
	}
	if err := Commit(lo, hi-lo); err != nil {
		return 0, err
	}
	newCommit := uint32((hi - s.base) >> s.shift)
	old := len(s.segmap)
	s.segmap = append(s.segmap, make([]byte, newCommit-s.commit)...)
	fillMap(s.segmap[old:], segFree)
	s.commit = newCommit
	return hi - lo, nil
}

// Allocate returns the payload address of a block of at least size bytes,
// or 0 when neither the free list nor the committed space beyond the
// high-water mark has room (the caller may Expand and retry). The payload
// is aligned to 8 bytes; its contents are undefined.
func (s *segHeap) Allocate(size uintptr) uintptr {
	n, ok := s.segsFor(size)
	if !ok {
		return 0
	}
	b := s.searchFreelist(n)
	if b == noSeg {
		if n > s.commit-s.next {
			return 0
		}
		b = s.next
		s.next += n
		s.markUsed(b, b+n)
	}
	h := s.hdr(b)
	h[0] = n | usedBit
	h[1] = usedMagic
	s.usedSegs += n
	s.usedBlocks++
	return s.addr(b) + segHeaderSize
}

// segsFor returns the segments a block with a payload of size bytes takes.
func (s *segHeap) segsFor(size uintptr) (uint32, bool) {
	if size > uintptr(s.reserved)<<s.shift {
		return 0, false
	}
	return uint32((size + segHeaderSize + (1<<s.shift - 1)) >> s.shift), true
}

// BlockSize returns the bytes a block with a payload of size bytes takes,
// header and rounding included.
func (s *segHeap) BlockSize(size uintptr) uintptr {
	return AlignUp(size+segHeaderSize, 1<<s.shift)
}

// Free returns the block whose payload starts at p. It reports an error
// (and changes nothing) if p is not the payload of a used block.
func (s *segHeap) Free(p uintptr) error {
	b, ok := s.blockFor(p)
	if !ok || s.addr(b)+segHeaderSize != p {
		return fmt.Errorf("free of %#x: not the start of a block", p)
	}
	h := s.hdr(b)
	if h[0]&usedBit == 0 || h[1] != usedMagic {
		return fmt.Errorf("free of %#x: block is not in use (double free?)", p)
	}
	n := h[0] &^ usedBit
	s.usedSegs -= n
	s.usedBlocks--
	s.addToFreelist(b, n)
	return nil
}

// FindStart returns the payload address of the used block that contains
// addr (HotSpot's find_start), or 0 when addr lies outside the heap, in
// unused space or in a free block.
func (s *segHeap) FindStart(addr uintptr) uintptr {
	b, ok := s.blockFor(addr)
	if !ok || s.hdr(b)[0]&usedBit == 0 {
		return 0
	}
	return s.addr(b) + segHeaderSize
}

// Contains reports whether addr lies in the heap's committed range.
func (s *segHeap) Contains(addr uintptr) bool {
	return addr >= s.base && addr-s.base < uintptr(s.commit)<<s.shift
}

// blockFor finds the block containing addr by following the map's hops
// (HotSpot's find_block_for). The loop has no checks: Verify covers the
// map's consistency.
func (s *segHeap) blockFor(addr uintptr) (uint32, bool) {
	if addr < s.base {
		return 0, false
	}
	off := (addr - s.base) >> s.shift
	if off >= uintptr(s.next) {
		return 0, false
	}
	m := s.segmap
	i := uint32(off)
	if m[i] == segFree {
		return 0, false
	}
	for m[i] != 0 {
		i -= uint32(m[i])
	}
	return i, true
}

func (s *segHeap) addr(seg uint32) uintptr { return s.base + uintptr(seg)<<s.shift }

func (s *segHeap) hdr(seg uint32) *[2]uint32 { return (*[2]uint32)(At(s.addr(seg))) }

func (s *segHeap) blockLen(seg uint32) uint32 { return s.hdr(seg)[0] &^ usedBit }

func (s *segHeap) link(seg uint32) uint32 { return s.hdr(seg)[1] }

func (s *segHeap) setLink(seg, next uint32) { s.hdr(seg)[1] = next }

// segmapTemplate[i] == i: the normal encoding of a block is a prefix of it
// (then runs of 1..254).
var segmapTemplate = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
	}
	return t
}()

// markUsed writes the normal map encoding of the block [beg, end):
// 0, 1, 2, ..., 254, 1, 2, ..., 254, 1, ...
func (s *segHeap) markUsed(beg, end uint32) {
	m := s.segmap[beg:end]
	m[0] = 0
	for i := 1; i < len(m); i += segMaxHop {
		copy(m[i:min(i+segMaxHop, len(m))], segmapTemplate[1:segMaxHop+1])
	}
}

func fillMap(m []byte, v byte) {
	for i := range m {
		m[i] = v
	}
}

// searchFreelist takes n segments from the best-fitting free block and
// returns the block's first segment, or noSeg.
func (s *segHeap) searchFreelist(n uint32) uint32 {
	best, bestPrev, bestLen := noSeg, noSeg, ^uint32(0)
	prev := noSeg
	for cur := s.freeHead; cur != noSeg; prev, cur = cur, s.link(cur) {
		if l := s.blockLen(cur); l >= n && l < bestLen {
			best, bestPrev, bestLen = cur, prev, l
			if l == n {
				break
			}
		}
	}
	if best == noSeg {
		return noSeg
	}
	s.freeSegs -= n
	if bestLen == n {
		// Take the whole block. Its map is still valid.
		if bestPrev == noSeg {
			s.freeHead = s.link(best)
		} else {
			s.setLink(bestPrev, s.link(best))
		}
		s.freeLen--
		return best
	}
	// Carve the tail: the free block keeps its place in the list, only its
	// length shrinks, and its map (hops point backward) stays valid.
	rest := bestLen - n
	s.hdr(best)[0] = rest
	b := best + rest
	s.markUsed(b, b+n)
	return b
}

// addToFreelist puts the n-segment block b on the free list, in address
// order, and merges it with its free neighbours.
func (s *segHeap) addToFreelist(b, n uint32) {
	h := s.hdr(b)
	h[0] = n
	if s.zap {
		fillMap(bytesAt(s.addr(b)+segHeaderSize, uintptr(n)<<s.shift-segHeaderSize), zapByte)
	}
	s.freeSegs += n
	s.freeLen++
	if s.freeHead == noSeg {
		h[1] = noSeg
		s.freeHead = b
		return
	}
	if b < s.freeHead {
		h[1] = s.freeHead
		s.freeHead = b
		s.mergeRight(b)
		return
	}
	prev := s.freeHead
	if !s.noHint && s.freeLen > segFreelistLimit && s.hint != noSeg && s.hint < s.next {
		// The hint may have been merged into a left neighbour or allocated
		// since it was set: resolve it to its block and use it only if that
		// block is still free and lies before b.
		if hb, ok := s.blockFor(s.addr(s.hint)); ok && hb < b && s.hdr(hb)[0]&usedBit == 0 {
			prev = hb
		}
	}
	for next := s.link(prev); next != noSeg && next < b; next = s.link(prev) {
		prev = next
	}
	h[1] = s.link(prev)
	s.setLink(prev, b)
	s.mergeRight(b)
	s.mergeRight(prev)
	s.hint = prev
}

// mergeRight absorbs a's list successor if it is also a's physical
// neighbour.
func (s *segHeap) mergeRight(a uint32) {
	next := s.link(a)
	la := s.blockLen(a)
	if next == noSeg || a+la != next {
		return
	}
	nh := s.hdr(next)
	ln := nh[0]
	s.hdr(a)[0] = la + ln
	s.setLink(a, nh[1])
	s.freeLen--
	s.joins++
	if s.naiveJoin {
		s.markUsed(a, a+la+ln)
	} else {
		// One byte: next's start hops to where a's last segment hops (or
		// to that segment itself when the hop would overflow). next's
		// interior still hops back to next, so every segment reaches a.
		p := s.segmap[next-1]
		if p < segMaxHop {
			s.segmap[next] = p + 1
		} else {
			s.segmap[next] = 1
		}
		s.fragCount++
	}
	if s.zap {
		nh[0], nh[1] = zapByte*0x01010101, zapByte*0x01010101
	}
	if s.fragCount >= segFragmentationLimit {
		s.rebuildMap()
	}
}

// rebuildMap rewrites the map of every block with the normal encoding,
// removing the hops joins added.
func (s *segHeap) rebuildMap() {
	for b := uint32(0); b < s.next; {
		n := s.blockLen(b)
		s.markUsed(b, b+n)
		b += n
	}
	s.fragCount = 0
	s.rebuilds++
}

// segHeapStats describes a segHeap's occupancy.
type segHeapStats struct {
	Committed     uintptr // bytes backed by memory
	Reserved      uintptr // bytes the heap may grow to
	Used          uintptr // bytes in used blocks (headers and rounding included)
	UsedBlocks    int
	Free          uintptr // bytes in free blocks
	FreeBlocks    int
	Unused        uintptr // committed bytes beyond the high-water mark
	Fragmentation int     // joins since the last map rebuild
	Joins         uint64  // joins in the heap's life
	Rebuilds      uint64  // map rebuilds
}

// Stats returns the heap's occupancy.
func (s *segHeap) Stats() segHeapStats {
	return segHeapStats{
		Committed:     uintptr(s.commit) << s.shift,
		Reserved:      uintptr(s.reserved) << s.shift,
		Used:          uintptr(s.usedSegs) << s.shift,
		UsedBlocks:    s.usedBlocks,
		Free:          uintptr(s.freeSegs) << s.shift,
		FreeBlocks:    s.freeLen,
		Unused:        uintptr(s.commit-s.next) << s.shift,
		Fragmentation: s.fragCount,
		Joins:         s.joins,
		Rebuilds:      s.rebuilds,
	}
}

// Available returns the bytes a single Allocate could still use without
// Expand: an upper bound (the free list may be fragmented).
func (s *segHeap) Available() uintptr {
	return uintptr(s.freeSegs+s.commit-s.next) << s.shift
}

// Empty reports whether no block is in use.
func (s *segHeap) Empty() bool { return s.usedBlocks == 0 }

// zapPattern and segFreePattern are what Verify counts.
var zapPattern, segFreePattern = []byte{zapByte}, []byte{segFree}

// Verify checks the invariants HotSpot's CodeHeap::verify checks, and a
// few more:
//   - walking the blocks from segment 0 covers exactly [0, next), every
//     block starts with map byte 0 and a valid header;
//   - every segment of every block has a map byte below 0xFF and its hops
//     lead, without leaving the block, to the block's start;
//   - segments in [next, commit) are 0xFF;
//   - the free list is sorted, holds exactly the free blocks of the walk,
//     no entry could still merge with its successor, and its lengths sum to
//     the free segment count;
//   - free payloads still hold zapByte (when zapping);
//   - the extra hops, beyond the normal encoding, are at most the
//     fragmentation count;
//   - used counters match the walk.
func (s *segHeap) Verify() error {
	m := s.segmap
	if uint32(len(m)) != s.commit || s.next > s.commit || s.commit > s.reserved {
		return fmt.Errorf("segheap: map length %d, next %d, committed %d, reserved %d", len(m), s.next, s.commit, s.reserved)
	}
	var freeBlocks, usedBlocks int
	var usedSegs uint32
	extraHops := 0
	isFree := map[uint32]uint32{}
	for b := uint32(0); b < s.next; {
		if m[b] != 0 {
			return fmt.Errorf("segheap: block at segment %d has map byte %d, want 0", b, m[b])
		}
		h := s.hdr(b)
		n := h[0] &^ usedBit
		if n == 0 || n > s.next-b {
			return fmt.Errorf("segheap: block at segment %d has length %d (next %d)", b, n, s.next)
		}
		if h[0]&usedBit != 0 {
			if h[1] != usedMagic {
				return fmt.Errorf("segheap: used block at segment %d has a bad header %#x", b, h[1])
			}
			usedBlocks++
			usedSegs += n
		} else {
			freeBlocks++
			isFree[b] = n
			if s.zap {
				// bytes.Count is vectorised: -Xcheck:gc verifies the
				// class metadata at every collection.
				payload := bytesAt(s.addr(b)+segHeaderSize, uintptr(n)<<s.shift-segHeaderSize)
				if bytes.Count(payload, zapPattern) != len(payload) {
					i := 0
					for payload[i] == zapByte {
						i++
					}
					return fmt.Errorf("segheap: free block at segment %d was written at payload byte %d", b, i)
				}
			}
		}
		for i := b + 1; i < b+n; i++ {
			if m[i] == segFree || m[i] == 0 {
				return fmt.Errorf("segheap: segment %d of block %d has map byte %#x", i, b, m[i])
			}
			if uint32(m[i]) > i-b {
				return fmt.Errorf("segheap: segment %d of block %d hops %d, before the block", i, b, m[i])
			}
		}
		// Hops from the last segment: each step lands inside the block
		// (checked above), so the walk ends at b.
		hops := 0
		for i := b + n - 1; m[i] != 0; i -= uint32(m[i]) {
			hops++
		}
		extraHops += hops - int((n-1+segMaxHop-1)/segMaxHop)
		b += n
	}
	if tail := m[s.next:s.commit]; bytes.Count(tail, segFreePattern) != len(tail) {
		for i := s.next; i < s.commit; i++ {
			if m[i] != segFree {
				return fmt.Errorf("segheap: unused segment %d has map byte %#x", i, m[i])
			}
		}
	}
	if usedBlocks != s.usedBlocks || usedSegs != s.usedSegs {
		return fmt.Errorf("segheap: walk found %d used blocks of %d segments, counters say %d and %d", usedBlocks, usedSegs, s.usedBlocks, s.usedSegs)
	}
	listLen := 0
	var listSegs uint32
	prev := noSeg
	for cur := s.freeHead; cur != noSeg; prev, cur = cur, s.link(cur) {
		n, ok := isFree[cur]
		if !ok {
			return fmt.Errorf("segheap: free-list entry %d is not a free block", cur)
		}
		if prev != noSeg && cur <= prev {
			return fmt.Errorf("segheap: free list not sorted: %d after %d", cur, prev)
		}
		if next := s.link(cur); next != noSeg && cur+n == next {
			return fmt.Errorf("segheap: free blocks %d and %d are adjacent but not merged", cur, next)
		}
		listLen++
		listSegs += n
		if listLen > freeBlocks {
			return fmt.Errorf("segheap: free list longer than the %d free blocks (a cycle?)", freeBlocks)
		}
	}
	if listLen != freeBlocks || listLen != s.freeLen {
		return fmt.Errorf("segheap: free list has %d entries, walk found %d free blocks, counter says %d", listLen, freeBlocks, s.freeLen)
	}
	if listSegs != s.freeSegs {
		return fmt.Errorf("segheap: free list holds %d segments, counter says %d", listSegs, s.freeSegs)
	}
	if !s.naiveJoin && extraHops > s.fragCount {
		return fmt.Errorf("segheap: %d extra hops exceed the fragmentation count %d", extraHops, s.fragCount)
	}
	return nil
}
