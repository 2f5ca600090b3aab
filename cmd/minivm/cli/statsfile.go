package cli

// Reading -Xgc:statsFile output back, for `minivm bench` and `minivm
// gcplot`. The records are decoded into runtime/gc's own types, so the
// tools follow the format's definition.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"minivm/runtime/gc"
)

// statsFile is one stats file: its collections in order and the summary.
type statsFile struct {
	records []gc.CollectionStats
	summary gc.Summary
	// hasSummary is false when the file ends without a summary object
	// (the run died before the VM finished); summary is then computed
	// from the records.
	hasSummary bool
}

// readStatsFile reads a JSON Lines stats file. Blank lines are skipped;
// anything else that is not a collection record or a summary is an error
// naming the line.
func readStatsFile(path string) (*statsFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open stats file '%s': %v", path, reason(err))
	}
	defer f.Close()
	sf := &statsFile{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var probe struct {
			Summary bool `json:"summary"`
			Type    string
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			return nil, fmt.Errorf("%s:%d: not a stats record: %v", path, n, err)
		}
		switch {
		case probe.Summary:
			if err := json.Unmarshal(line, &sf.summary); err != nil {
				return nil, fmt.Errorf("%s:%d: bad summary: %v", path, n, err)
			}
			sf.hasSummary = true
		case probe.Type == "nursery" || probe.Type == "global":
			var r gc.CollectionStats
			if err := json.Unmarshal(line, &r); err != nil {
				return nil, fmt.Errorf("%s:%d: bad collection record: %v", path, n, err)
			}
			sf.records = append(sf.records, r)
		default:
			return nil, fmt.Errorf("%s:%d: not a stats record (no \"type\" nursery or global, no \"summary\")", path, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read stats file '%s': %v", path, reason(err))
	}
	if !sf.hasSummary {
		sf.summary = summarize(sf.records)
	}
	return sf, nil
}

// summarize computes a summary from collection records the way the heap
// does at exit (Heap.Finish): copy volume, throughput and containment over
// nursery collections, containment weighted by objects copied and %inside
// by bytes copied. duration_ms is the end of the last collection, a lower
// bound.
func summarize(recs []gc.CollectionStats) gc.Summary {
	s := gc.Summary{Summary: true, CacheLine: gc.CacheLineSize}
	var objects, c64, c128, c256, inside float64
	for i := range recs {
		r := &recs[i]
		s.GCCount++
		s.GCMs += r.PauseMs
		s.DurationMs = max(s.DurationMs, r.StartMs+r.PauseMs)
		if r.CacheLine != 0 {
			s.CacheLine = r.CacheLine
		}
		if r.Type != "nursery" {
			s.GlobalCount++
			continue
		}
		s.NurseryCount++
		s.NurseryMs += r.PauseMs
		s.CopiedBytes += r.CopiedBytes
		n := float64(r.CopiedObjects)
		objects += n
		c64 += r.Contain64 * n
		c128 += r.Contain128 * n
		c256 += r.Contain256 * n
		inside += r.InsidePct * float64(r.CopiedBytes)
	}
	if objects > 0 {
		s.Contain64, s.Contain128, s.Contain256 = c64/objects, c128/objects, c256/objects
	}
	if s.CopiedBytes > 0 {
		s.InsidePct = inside / float64(s.CopiedBytes)
	}
	if s.NurseryMs > 0 {
		s.KBPerMs = float64(s.CopiedBytes) / 1024 / s.NurseryMs
	}
	return s
}
