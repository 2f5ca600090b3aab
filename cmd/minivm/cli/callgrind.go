package cli

// Reading the parts callgrind writes (the "callgrind format" of valgrind's
// manual) for `minivm bench -sim`. Only the header and the totals are
// needed: the event names, the cache geometry the run simulated, what
// ended the part (its trigger) and the part's total cost.

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
}

// readCallgrind reads the header and totals of one callgrind output file.
func readCallgrind(path string) (*cgPart, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open callgrind output '%s': %v", path, reason(err))
	}
	defer f.Close()
	p := &cgPart{caches: map[string]string{}}
	var totals, summary string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
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
	return p, nil
}
