package gc

import (
	"io"
	"testing"
)

// BenchmarkNurseryCollection copies a live binary tree (about 2.6 MB of
// 40-byte nodes) in each nursery collection and reports copy throughput,
// per collector and thread count; the +trace cases record a trace
// (-Xgc:traceFile), which measures what tracing costs a collection.
func BenchmarkNurseryCollection(b *testing.B) {
	traced := func(cfg Config) Config { cfg.TraceFile = io.Discard; return cfg }
	cases := []struct {
		name string
		cfg  Config
	}{
		{"breadthFirst", Config{Collector: BreadthFirst}},
		{"hierarchical", Config{Collector: Hierarchical}},
		{"hierarchical+trace", traced(Config{Collector: Hierarchical})},
		{"evacuator4096", evacConfig(32, 256, 4096)},
		{"evacuator4096+trace", traced(evacConfig(32, 256, 4096))},
		{"evacuator0", evacConfig(32, 256, 0)},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 2} {
			b.Run(c.name+"/threads="+string(rune('0'+threads)), func(b *testing.B) {
				cfg := c.cfg
				cfg.MaxHeap, cfg.NurserySize, cfg.TenureAge, cfg.GCThreads, cfg.Verify = 256<<20, 64<<20, MaxAge, threads, false
				g := newGraphHeap(b, cfg)
				var copied uint64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if i%(MaxAge-2) == 0 {
						b.StopTimer()
						g.h.collectGlobal(CauseSystemGC)
						buildTree(g, 16)
						b.StartTimer()
					}
					before := g.h.stats.total.copiedBytes()
					g.h.collectNursery(CauseStress)
					copied += g.h.stats.total.copiedBytes() - before
				}
				b.SetBytes(int64(copied) / int64(b.N))
			})
		}
	}
}
