package cli

// Reading the parts callgrind writes (the "callgrind format" of valgrind's
// manual) for `minivm bench -sim`: the event names, the cache geometry the
// run simulated, what ended the part (its trigger), the part's total cost
// and the self cost of the functions it is told to leave out.

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// A cgPart is one part of a callgrind profile: the costs from the previous
// dump (or the start) to this one.
type cgPart struct {
	events  []string
	caches  map[string]string // "D1" -> "32768 B, 64 B, 8-way associative"
	trigger string            // "--dump-before=NAME", "Program termination"
	totals  []uint64          // one per event
	skipped []uint64          // the self cost of the functions skip names
}

// readCallgrind reads one callgrind output file: its header, its totals
// and, when skip is not nil, the self cost of the functions skip reports
// (a call line's cost is the callee's inclusive cost, not the caller's
// own, so it is not added).
func readCallgrind(path string, skip func(fn string) bool) (*cgPart, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open callgrind output '%s': %v", path, reason(err))
	}
	defer f.Close()
	p := &cgPart{caches: map[string]string{}}
	var totals, summary string
	var skipped []uint64
	names := map[string]string{} // compressed function names: "(12)" -> name
	skipping, callCost := false, false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if skip != nil && line != "" {
			switch c := line[0]; {
			case strings.HasPrefix(line, "fn=") || strings.HasPrefix(line, "cfn="):
				// Both define compressed names; only fn= changes the
				// function the cost lines belong to.
				name := cgName(line[strings.IndexByte(line, '=')+1:], names)
				if c == 'f' {
					skipping = skip(cgBaseName(name))
				}
				continue
			case strings.HasPrefix(line, "calls="):
				callCost = true
				continue
			case c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*':
				if callCost {
					callCost = false
				} else if skipping {
					if skipped == nil {
						skipped = make([]uint64, len(p.events))
					}
					if err := addCosts(skipped, line); err != nil {
						return nil, fmt.Errorf("%s: %v", path, err)
					}
				}
				continue
			}
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(key, "= ") {
			continue // a cost line or name line
		}
		val = strings.TrimSpace(val)
		switch key {
		case "events":
			p.events = strings.Fields(val)
		case "totals":
			totals = val
		case "summary":
			summary = val
		case "desc":
			// "D1 cache: 32768 B, 64 B, 8-way associative", "Trigger: ..."
			what, v, _ := strings.Cut(val, ":")
			v = strings.TrimSpace(v)
			if cache, ok := strings.CutSuffix(what, " cache"); ok {
				p.caches[cache] = v
			} else if what == "Trigger" {
				p.trigger = v
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read callgrind output '%s': %v", path, reason(err))
	}
	if totals == "" {
		totals = summary
	}
	if p.events == nil || totals == "" {
		return nil, fmt.Errorf("%s: not callgrind output (no events or totals line)", path)
	}
	p.totals = make([]uint64, len(p.events))
	for i, s := range strings.Fields(totals) {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil || i >= len(p.totals) {
			return nil, fmt.Errorf("%s: bad totals line '%s'", path, totals)
		}
		p.totals[i] = v
	}
	p.skipped = make([]uint64, len(p.events))
	copy(p.skipped, skipped)
	for i := range p.totals {
		if p.skipped[i] > p.totals[i] {
			return nil, fmt.Errorf("%s: the functions left out cost more %s than the totals line", path, p.events[i])
		}
	}
	return p, nil
}

// cgName resolves a name field with callgrind's name compression: "(12)
// name" defines id 12, "(12)" refers to it.
func cgName(field string, names map[string]string) string {
	if !strings.HasPrefix(field, "(") {
		return field
	}
	id, name, _ := strings.Cut(field, ")")
	name = strings.TrimPrefix(name, " ")
	if name == "" {
		return names[id]
	}
	names[id] = name
	return name
}

// cgBaseName strips callgrind's recursion mark from a function name
// ("f'2": f called from inside itself, as callgrind's call stack sees it).
func cgBaseName(name string) string {
	if i := strings.LastIndexByte(name, '\''); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

// addCosts adds a cost line's events ("POSITION EVENT...", trailing zero
// events omitted) to sum.
func addCosts(sum []uint64, line string) error {
	fields := strings.Fields(line)
	if len(fields)-1 > len(sum) {
		return fmt.Errorf("cost line '%s' has more events than the events line", line)
	}
	for i, f := range fields[1:] {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return fmt.Errorf("bad cost line '%s'", line)
		}
		sum[i] += v
	}
	return nil
}
