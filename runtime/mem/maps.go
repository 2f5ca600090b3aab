package mem

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Finding room below 4 GB. Two strategies, both kept:
//
//   - quick: read /proc/self/maps, walk the gaps between mappings inside
//     the allowed range and map the first gap that is large enough with
//     MAP_FIXED_NOREPLACE (never MAP_FIXED, which would replace a mapping
//     someone else made since the snapshot). An EEXIST means the snapshot
//     went stale: read it again.
//   - brute force: OMR's original loop, one mmap hint per page from the
//     bottom of the range upward, unmapping every result the kernel placed
//     elsewhere. Kept as the baseline the quick search is measured against.
//
// Every address is checked to lie inside the range before it is returned;
// an address the kernel put elsewhere is unmapped.

// ErrLow4GExhausted is returned (wrapped) when no more address space is
// left below 4 GB.
var ErrLow4GExhausted = errors.New("address space below 4 GB exhausted")

// errMapsUnusable: /proc/self/maps could not be read or parsed; the quick
// search falls back to brute force.
var errMapsUnusable = errors.New("/proc/self/maps unusable")

// limit4G is the first address a compressed class pointer cannot hold.
const limit4G = 1 << 32

// lowSearchFloor is the lowest address tried: vm.mmap_min_addr (the kernel
// refuses lower mappings), at least 64 KB, so that small integers are never
// valid metadata addresses.
var lowSearchFloor = func() uintptr {
	floor := uintptr(64 << 10)
	if b, err := os.ReadFile("/proc/sys/vm/mmap_min_addr"); err == nil {
		if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil {
			floor = max(floor, uintptr(v))
		}
	}
	return AlignUp(floor, PageSize)
}()

// addrRange is [lo, hi).
type addrRange struct{ lo, hi uintptr }

// mapsPath is read by the quick search (a variable for tests).
var mapsPath = "/proc/self/maps"

// readMappings returns the mappings that start below limit, merged where
// adjacent, in address order. It stops reading at the first line at or
// above limit, so the cost depends on the mappings below 4 GB only.
func readMappings(limit uintptr) ([]addrRange, error) {
	f, err := os.Open(mapsPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errMapsUnusable, err)
	}
	defer f.Close()
	var out []addrRange
	buf := make([]byte, 32<<10)
	var line []byte // a line split across reads
	start := 0
	for {
		n, rerr := f.Read(buf[start:])
		data := buf[:start+n]
		for {
			i := indexByte(data, '\n')
			if i < 0 {
				break
			}
			line, data = data[:i], data[i+1:]
			r, ok := parseMapsLine(line)
			if !ok {
				return nil, fmt.Errorf("%w: bad line %q", errMapsUnusable, line)
			}
			if r.lo >= limit {
				return out, nil
			}
			if k := len(out); k > 0 {
				if r.lo < out[k-1].hi {
					return nil, fmt.Errorf("%w: unordered line %q", errMapsUnusable, line)
				}
				if r.lo == out[k-1].hi {
					out[k-1].hi = r.hi
					continue
				}
			}
			out = append(out, r)
		}
		// Keep the partial line at the front of the buffer.
		start = copy(buf, data)
		if start == len(buf) {
			return nil, fmt.Errorf("%w: line too long", errMapsUnusable)
		}
		if rerr == io.EOF || (rerr == nil && n == 0) {
			if start > 0 {
				return nil, fmt.Errorf("%w: unterminated last line", errMapsUnusable)
			}
			return out, nil
		}
		if rerr != nil {
			return nil, fmt.Errorf("%w: %v", errMapsUnusable, rerr)
		}
	}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// parseMapsLine reads the "lo-hi" address pair at the start of a line.
func parseMapsLine(line []byte) (addrRange, bool) {
	var r addrRange
	i, lo, ok := parseHex(line, 0)
	if !ok || i >= len(line) || line[i] != '-' {
		return r, false
	}
	j, hi, ok := parseHex(line, i+1)
	if !ok || (j < len(line) && line[j] != ' ') || hi <= lo {
		return r, false
	}
	return addrRange{lo, hi}, true
}

func parseHex(b []byte, i int) (int, uintptr, bool) {
	var v uintptr
	start := i
	for ; i < len(b); i++ {
		c := b[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return i, v, i > start
		}
		if v>>60 != 0 {
			return i, v, false
		}
		v = v<<4 | uintptr(d)
	}
	return i, v, i > start
}

// findGap returns the lowest page-aligned address a with [a, a+size) inside
// [lo, hi) and clear of every mapping in maps.
func findGap(maps []addrRange, size, lo, hi uintptr) (uintptr, bool) {
	cur := AlignUp(lo, PageSize)
	for _, m := range maps {
		if m.hi <= cur {
			continue
		}
		if m.lo >= cur && m.lo-cur >= size && cur+size <= hi {
			return cur, true
		}
		cur = max(cur, AlignUp(m.hi, PageSize))
		if cur >= hi {
			return 0, false
		}
	}
	if cur < hi && hi-cur >= size {
		return cur, true
	}
	return 0, false
}

const reserveFlags = unix.MAP_PRIVATE | unix.MAP_ANONYMOUS | unix.MAP_NORESERVE

// reserveQuick reserves size bytes (PROT_NONE) inside [lo, hi) by the
// /proc/self/maps gap search.
func reserveQuick(size, lo, hi uintptr) (uintptr, error) {
	for attempt := 0; attempt < 8; attempt++ {
		maps, err := readMappings(hi)
		if err != nil {
			return 0, err
		}
		addr, ok := findGap(maps, size, lo, hi)
		if !ok {
			// A clean parse that finds no gap fails at once: a brute-force
			// scan would only repeat the answer slowly (OMR PR #4600).
			return 0, fmt.Errorf("%w: no gap of %d bytes in [%#x, %#x) (quick search of %s)", ErrLow4GExhausted, size, lo, hi, mapsPath)
		}
		got, err := mmap(addr, size, unix.PROT_NONE, reserveFlags|unix.MAP_FIXED_NOREPLACE)
		if err == unix.EEXIST {
			continue // the snapshot went stale: someone mapped the gap
		}
		if err != nil {
			return 0, fmt.Errorf("cannot reserve %d bytes at %#x: %v", size, addr, err)
		}
		if got != addr {
			// A kernel older than 4.17 treats MAP_FIXED_NOREPLACE as a
			// hint and may have placed the mapping anywhere.
			munmap(got, size)
			return 0, fmt.Errorf("%w: kernel ignored MAP_FIXED_NOREPLACE", errMapsUnusable)
		}
		return got, nil
	}
	return 0, fmt.Errorf("%w: the address space kept changing under the search", errMapsUnusable)
}

// reserveBrute reserves size bytes inside [lo, hi) by stepping mmap hints
// upward one page at a time (OMR's loop before the quick search).
func reserveBrute(size, lo, hi uintptr) (uintptr, error) {
	for hint := AlignUp(lo, PageSize); hint < hi && hi-hint >= size; hint += PageSize {
		got, err := mmap(hint, size, unix.PROT_NONE, reserveFlags)
		if err != nil {
			continue
		}
		if got >= lo && got <= hi-size {
			return got, nil
		}
		munmap(got, size)
	}
	return 0, fmt.Errorf("%w: no room for %d bytes in [%#x, %#x) (brute-force search)", ErrLow4GExhausted, size, lo, hi)
}

func munmap(addr, size uintptr) {
	unix.Syscall(unix.SYS_MUNMAP, addr, size, 0)
}
