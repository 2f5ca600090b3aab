// Package jithints is minivm's hot-field profiler: the part of a JIT that
// tells the garbage collector which field of a class is hot, so that the
// collectors' object scanners visit it first.
//
// # Why
//
// With depth-first copying (the evacuator at distance 0, or the
// hierarchical scavenger's aliasing), the referent of the first reference
// slot scanned is copied right behind its parent; the others land further
// away. If the slot the mutator follows most is scanned first, the object
// it leads to shares the parent's cache line after the collection.
//
// # Design
//
// The package knows nothing of the interpreter or the heap. The interpreter
// counts field reads at its field-load inline caches (a counter per cache
// site, incremented on every hit: one add on a cache line the lookup has
// just touched) and, at each collection boundary, folds the site counters
// into this package's profile with Class.Add; its slow paths report fields
// seen holding references (Class.MarkRef). It then asks for a scan order
// per class (Class.Order) and writes it into the class's ClassMeta, which
// every collector's scanner already follows, together with the hottest
// reference field, which the collectors use for the hot_contain_64 metric.
//
// A profile is kept per class declaration, keyed by (class name,
// declaration line), so every class object created from one source
// declaration (a class declared inside a function, say) shares one
// profile. Counts are kept by field name, not by slot: two classes of one
// declaration may have different layouts (their superclass is an
// expression), and a hints file stays meaningful when a field is added.
//
// The order is: fields by decreasing read count, equal counts (in
// particular fields never read) in declaration order. The embedder decides
// where slots that are not fields go (minivm's overflow-table slot goes
// last).
//
// # Hints files
//
// Save writes the profile as text, one class declaration per line, fields
// hottest first with their read counts; a '*' marks a field seen holding a
// reference:
//
//	# minivm hot-field hints v1
//	# <class> <declaration line> <field>[*]=<reads> ... (hottest first; * = holds references)
//	Node 3 next*=12000000 id=12000000 payload*=0
//
// Parse reads it back as a profile whose counts seed the run, as a JIT's
// stored profile would: the first instance layout of a class already has
// the saved order, without warm-up. Parsing never fails hard: a file that
// is not a hints file, or lines that do not parse, yield warnings and are
// skipped. Stale entries (a class no longer declared at that line, a field
// the class no longer has) are harmless: they match nothing. The
// embedder may report them (Profile.Unmatched).
package jithints

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Key identifies a class declaration.
type Key struct {
	Name string // class name
	Line int    // line of the declaration
}

func (k Key) String() string { return fmt.Sprintf("%s (line %d)", k.Name, k.Line) }

// Profile holds the read counts of every class declaration seen.
type Profile struct {
	classes map[Key]*Class
	list    []*Class // in creation order, for deterministic output
}

// New returns an empty profile.
func New() *Profile { return &Profile{classes: map[Key]*Class{}} }

// Class is the profile of one class declaration.
type Class struct {
	Key
	fields  []string       // field names, in first-seen order
	counts  []uint64       // reads, parallel to fields
	refs    []bool         // the field was seen holding a reference
	index   map[string]int // field name -> index
	version uint64         // bumped whenever a count changes
	loaded  bool           // seeded from a hints file
	nLoaded int            // fields 0..nLoaded-1 came from the file
	used    bool           // claimed by a declaration of the running program
}

// Class returns the profile of the declaration (name, line), creating an
// empty one if there is none. It marks the profile as used.
func (p *Profile) Class(name string, line int) *Class {
	c := p.lookup(Key{name, line})
	c.used = true
	return c
}

func (p *Profile) lookup(k Key) *Class {
	if c, ok := p.classes[k]; ok {
		return c
	}
	c := &Class{Key: k, index: map[string]int{}}
	p.classes[k] = c
	p.list = append(p.list, c)
	return c
}

// Unmatched returns the declarations read from a hints file that no
// declaration of the program claimed (stale hints), in file order.
func (p *Profile) Unmatched() []Key {
	var ks []Key
	for _, c := range p.list {
		if c.loaded && !c.used {
			ks = append(ks, c.Key)
		}
	}
	return ks
}

// DropUnmatched removes the declarations read from a hints file that no
// declaration of the program claimed, so that saving the profile does not
// carry stale hints forward.
func (p *Profile) DropUnmatched() {
	kept := p.list[:0]
	for _, c := range p.list {
		if c.loaded && !c.used {
			delete(p.classes, c.Key)
			continue
		}
		kept = append(kept, c)
	}
	clear(p.list[len(kept):])
	p.list = kept
}

// Loaded reports whether c was read from a hints file.
func (c *Class) Loaded() bool { return c.loaded }

// StaleFields returns the fields a hints file named for c that a layout
// (indexes from Field) does not have: the file predates a change to the
// class. Their counts are kept but order nothing.
func (c *Class) StaleFields(layout []int) []string {
	in := make([]bool, c.nLoaded)
	for _, f := range layout {
		if f < c.nLoaded {
			in[f] = true
		}
	}
	var stale []string
	for i, ok := range in {
		if !ok {
			stale = append(stale, c.fields[i])
		}
	}
	return stale
}

// Field returns the index of field name in c, adding it (with no reads)
// if it is new.
func (c *Class) Field(name string) int {
	if i, ok := c.index[name]; ok {
		return i
	}
	i := len(c.fields)
	c.fields = append(c.fields, name)
	c.counts = append(c.counts, 0)
	c.refs = append(c.refs, false)
	c.index[name] = i
	return i
}

// Add counts n reads of field i (an index from Field).
func (c *Class) Add(i int, n uint64) {
	if n == 0 {
		return
	}
	c.counts[i] += n
	c.version++
}

// MarkRef records that field i was seen holding a reference.
func (c *Class) MarkRef(i int) {
	if !c.refs[i] {
		c.refs[i] = true
		c.version++
	}
}

// IsRef reports whether field i was seen holding a reference.
func (c *Class) IsRef(i int) bool { return c.refs[i] }

// Count returns the reads of field i.
func (c *Class) Count(i int) uint64 { return c.counts[i] }

// Version changes whenever a count does: an embedder that caches orders
// recomputes them only when it moved.
func (c *Class) Version() uint64 { return c.version }

// Fields returns the field names in first-seen order.
func (c *Class) Fields() []string { return c.fields }

// Order returns the scan order of a layout whose slots hold the fields
// layout[0], layout[1], ... (indexes from Field): a permutation of
// 0..len(layout)-1, slots of hotter fields first, equal counts in layout
// (declaration) order. Fields holding numbers may come first: a scanner
// skips them, so the hottest reference field is still the first reference
// scanned. hot is the position in layout of the hottest field seen holding
// a reference, or -1 when no such field was read.
func (c *Class) Order(layout []int) (order []int, hot int) {
	counts := make([]uint64, len(layout))
	for i, f := range layout {
		counts[i] = c.counts[f]
	}
	order = Order(counts)
	hot = -1
	for _, i := range order {
		if f := layout[i]; c.refs[f] && c.counts[f] > 0 {
			hot = i
			break
		}
	}
	return order, hot
}

// Order returns the indexes 0..len(counts)-1 by decreasing count; equal
// counts keep their index order.
func Order(counts []uint64) []int {
	order := make([]int, len(counts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
	return order
}

// header is the first line of a hints file.
const header = "# minivm hot-field hints v1"

// Save writes the profile as a hints file: every declaration with at
// least one field, fields hottest first.
func (p *Profile) Save(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, header)
	fmt.Fprintln(bw, "# <class> <declaration line> <field>[*]=<reads> ... (hottest first; * = holds references)")
	for _, c := range p.list {
		if len(c.fields) == 0 {
			continue
		}
		fmt.Fprintf(bw, "%s %d", c.Name, c.Line)
		for _, i := range Order(c.counts) {
			ref := ""
			if c.refs[i] {
				ref = "*"
			}
			fmt.Fprintf(bw, " %s%s=%d", c.fields[i], ref, c.counts[i])
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// Parse reads a hints file. It always returns a usable profile (empty when
// the file is not a hints file); each problem found is a warning, and the
// lines concerned are skipped.
func Parse(r io.Reader) (*Profile, []error) {
	p := New()
	var warnings []error
	warn := func(line int, format string, args ...any) {
		warnings = append(warnings, fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...)))
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if n == 1 {
			if text != header {
				return New(), []error{fmt.Errorf("not a minivm hints file (want first line %q)", header)}
			}
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) < 2 {
			warn(n, "want '<class> <line> <field>[*]=<reads> ...'")
			continue
		}
		if !isIdent(f[0]) {
			warn(n, "bad class name %q", f[0])
			continue
		}
		line, err := strconv.Atoi(f[1])
		if err != nil || line < 1 {
			warn(n, "bad declaration line %q", f[1])
			continue
		}
		k := Key{f[0], line}
		if _, dup := p.classes[k]; dup {
			warn(n, "%v listed twice", k)
			continue
		}
		type fc struct {
			name  string
			ref   bool
			count uint64
		}
		var fcs []fc
		seen := map[string]bool{}
		bad := false
		for _, s := range f[2:] {
			name, cnt, ok := strings.Cut(s, "=")
			ref := strings.HasSuffix(name, "*")
			name = strings.TrimSuffix(name, "*")
			count, err := strconv.ParseUint(cnt, 10, 64)
			if !ok || !isIdent(name) || err != nil {
				warn(n, "bad field entry %q (want <field>[*]=<reads>)", s)
				bad = true
				break
			}
			if seen[name] {
				warn(n, "field %q listed twice", name)
				bad = true
				break
			}
			seen[name] = true
			fcs = append(fcs, fc{name, ref, count})
		}
		if bad {
			continue
		}
		c := p.lookup(k)
		c.loaded = true
		for _, x := range fcs {
			i := c.Field(x.name)
			c.Add(i, x.count)
			if x.ref {
				c.MarkRef(i)
			}
		}
		c.nLoaded = len(c.fields)
	}
	if err := sc.Err(); err != nil {
		warnings = append(warnings, fmt.Errorf("line %d: %v", n+1, err))
	}
	if n == 0 {
		return New(), []error{fmt.Errorf("empty file, not a minivm hints file")}
	}
	return p, warnings
}

// isIdent reports whether s is a Lox identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
