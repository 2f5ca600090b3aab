package gc

import "testing"

// An explicit evacuator setting survives New when the others are left
// zero: each zero field takes its own default, and InsideCopyDistance is
// taken as given (0 = depth-first).
func TestNewKeepsExplicitEvacuatorSettings(t *testing.T) {
	for _, c := range []struct {
		name     string
		in, want Config
	}{
		{"insideSize", Config{MaxInsideCopySize: 64},
			Config{MaxStackDepth: defaultMaxStackDepth, MaxInsideCopySize: 64, WorkVolumeQuantum: defaultWorkVolumeQuantum}},
		{"distance", Config{InsideCopyDistance: 1024},
			Config{MaxStackDepth: defaultMaxStackDepth, MaxInsideCopySize: defaultMaxInsideCopySize, InsideCopyDistance: 1024, WorkVolumeQuantum: defaultWorkVolumeQuantum}},
		{"quantum", Config{WorkVolumeQuantum: 8192},
			Config{MaxStackDepth: defaultMaxStackDepth, MaxInsideCopySize: defaultMaxInsideCopySize, WorkVolumeQuantum: 8192}},
		{"depth", Config{MaxStackDepth: 4},
			Config{MaxStackDepth: 4, MaxInsideCopySize: defaultMaxInsideCopySize, WorkVolumeQuantum: defaultWorkVolumeQuantum}},
		{"default", DefaultConfig(), DefaultConfig()},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.in
			cfg.MaxHeap, cfg.NurserySize, cfg.InitialHeap = 8<<20, 512<<10, 4<<20
			h, err := New(cfg, &testRoots{})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Release()
			got, want := h.cfg, c.want
			if got.MaxStackDepth != want.MaxStackDepth || got.MaxInsideCopySize != want.MaxInsideCopySize ||
				got.InsideCopyDistance != want.InsideCopyDistance || got.WorkVolumeQuantum != want.WorkVolumeQuantum {
				t.Errorf("New(%+v) kept depth %d, inside size %d, distance %d, quantum %d; want %d, %d, %d, %d",
					c.in, got.MaxStackDepth, got.MaxInsideCopySize, got.InsideCopyDistance, got.WorkVolumeQuantum,
					want.MaxStackDepth, want.MaxInsideCopySize, want.InsideCopyDistance, want.WorkVolumeQuantum)
			}
		})
	}
}
