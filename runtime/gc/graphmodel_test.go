package gc

import (
	"fmt"
	"strings"
)

// graphModel is a Go copy of the graph a graphHeap's mutate builds, kept
// in step with the heap so that a test can compare the heap's reachable
// graph with what the mutator actually did, not only with the heap's own
// earlier rendering.
type graphModel struct {
	roots  []*modelObj
	allocs int // heap allocations mutate made
}

// modelObj mirrors one heap object: a node (kind 1, an id and three
// reference slots), an array (kind 2) or a string (kind 3). A nil slot is
// Nil.
type modelObj struct {
	kind  int
	id    float64
	slots []*modelObj
	bytes []byte
}

func (m *graphModel) push(o *modelObj) {
	m.roots = append(m.roots, o)
	m.allocs++
}

// shape renders the model in graphHeap.shape's format.
func (m *graphModel) shape() string {
	var b strings.Builder
	seen := map[*modelObj]int{}
	var walk func(o *modelObj)
	walk = func(o *modelObj) {
		if id, ok := seen[o]; ok {
			fmt.Fprintf(&b, "@%d ", id)
			return
		}
		seen[o] = len(seen)
		switch o.kind {
		case 1:
			fmt.Fprintf(&b, "(n%v ", o.id)
			for _, x := range o.slots {
				if x != nil {
					walk(x)
				} else {
					b.WriteString("_ ")
				}
			}
			b.WriteString(") ")
		case 2:
			b.WriteString("[")
			for _, x := range o.slots {
				if x != nil {
					walk(x)
				} else {
					fmt.Fprintf(&b, "%v ", Nil.AsNumber())
				}
			}
			b.WriteString("] ")
		case 3:
			fmt.Fprintf(&b, "%q ", o.bytes)
		}
	}
	for _, o := range m.roots {
		walk(o)
	}
	return b.String()
}

// fromDiff returns both renderings from a little before their first
// difference, so that a failure shows where they part.
func fromDiff(a, b string) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	i = max(i-40, 0)
	return a[i:], b[i:]
}
