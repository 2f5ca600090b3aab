package jithints

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestOrderHottestFirstTiesInDeclarationOrder(t *testing.T) {
	for _, c := range []struct {
		counts []uint64
		want   []int
	}{
		{nil, []int{}},
		{[]uint64{0, 0, 0}, []int{0, 1, 2}},
		{[]uint64{1, 5, 3}, []int{1, 2, 0}},
		{[]uint64{2, 7, 2, 7, 0}, []int{1, 3, 0, 2, 4}},
		{[]uint64{0, 0, 9}, []int{2, 0, 1}},
	} {
		if got := Order(c.counts); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Order(%v) = %v, want %v", c.counts, got, c.want)
		}
	}
}

func TestClassOrderAndHottestReference(t *testing.T) {
	p := New()
	c := p.Class("Node", 3)
	payload, id, next := c.Field("payload"), c.Field("id"), c.Field("next")
	if c.Field("next") != next {
		t.Fatal("Field is not idempotent")
	}
	layout := []int{payload, id, next}
	if order, hot := c.Order(layout); !reflect.DeepEqual(order, []int{0, 1, 2}) || hot != -1 {
		t.Fatalf("no reads: order %v hot %d, want declaration order, no hot field", order, hot)
	}
	v := c.Version()
	c.Add(next, 100)
	c.Add(id, 100) // a number field, as hot as next: tie, declaration order
	c.Add(payload, 3)
	if c.Version() == v {
		t.Fatal("Add did not change the version")
	}
	order, hot := c.Order(layout)
	if !reflect.DeepEqual(order, []int{1, 2, 0}) {
		t.Fatalf("order %v, want [1 2 0] (id and next tie, declaration order)", order)
	}
	if hot != -1 {
		t.Fatalf("hot %d before any field was seen holding a reference", hot)
	}
	c.MarkRef(next)
	c.MarkRef(payload)
	if _, hot = c.Order(layout); hot != 2 {
		t.Fatalf("hot %d, want 2 (next: the hottest field holding references)", hot)
	}
	// A layout of the same declaration with another field order (say, a
	// different superclass): counts follow the names.
	if order, hot := c.Order([]int{next, payload, id}); !reflect.DeepEqual(order, []int{0, 2, 1}) || hot != 0 {
		t.Fatalf("other layout: order %v hot %d", order, hot)
	}
	if p.Class("Node", 3) != c || p.Class("Node", 4) == c {
		t.Fatal("profiles are not keyed by (name, line)")
	}
}

func TestSaveParseRoundTrip(t *testing.T) {
	p := New()
	c := p.Class("Node", 12)
	for i, f := range []string{"payload", "id", "next"} {
		c.Add(c.Field(f), uint64(10*i))
	}
	c.MarkRef(c.Field("next"))
	c.MarkRef(c.Field("payload"))
	d := p.Class("Empty", 1) // no fields: not saved
	_ = d
	e := p.Class("Pair_2", 30)
	e.Add(e.Field("left"), 7)
	e.Field("right")

	var buf bytes.Buffer
	if err := p.Save(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.Contains(text, "\nNode 12 next*=20 id=10 payload*=0\n") || !strings.Contains(text, "\nPair_2 30 left=7 right=0\n") || strings.Contains(text, "Empty") {
		t.Fatalf("saved:\n%s", text)
	}
	q, warnings := Parse(strings.NewReader(text))
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	var again bytes.Buffer
	q.Save(&again)
	if again.String() != text {
		t.Fatalf("round trip changed the file:\n%s\nvs\n%s", text, again.String())
	}
	qc := q.Class("Node", 12)
	layout := []int{qc.Field("payload"), qc.Field("id"), qc.Field("next")}
	o1, h1 := c.Order([]int{c.Field("payload"), c.Field("id"), c.Field("next")})
	o2, h2 := qc.Order(layout)
	if !reflect.DeepEqual(o1, o2) || h1 != h2 || h2 != 2 {
		t.Fatalf("orders differ after the round trip: %v/%d vs %v/%d", o1, h1, o2, h2)
	}
	if !qc.Loaded() {
		t.Fatal("parsed class not marked loaded")
	}
}

func TestParseMalformed(t *testing.T) {
	const head = header + "\n"
	for _, c := range []struct {
		name, text string
		warnings   int
		classes    []string // Key.String() of what survives
	}{
		{"empty", "", 1, nil},
		{"not a hints file", "Node 3 next=1\n", 1, nil},
		{"json", `{"Node": 3}`, 1, nil},
		{"comments only", head + "# nothing\n\n", 0, nil},
		{"good", head + "Node 3 next*=5 payload=1\n", 0, []string{"Node (line 3)"}},
		{"no fields", head + "Node 3\n", 0, []string{"Node (line 3)"}},
		{"short line", head + "Node\nLeaf 2 x=1\n", 1, []string{"Leaf (line 2)"}},
		{"bad line number", head + "Node three next=1\nNode -3 next=1\nNode 0 a=1\n", 3, nil},
		{"bad class name", head + "9Node 3 next=1\n", 1, nil},
		{"bad count", head + "Node 3 next=x\nLeaf 4 a=-1\nTree 5 a=1e3\n", 3, nil},
		{"missing =", head + "Node 3 next\n", 1, nil},
		{"bad field name", head + "Node 3 ne-xt=1\n", 1, nil},
		{"duplicate field", head + "Node 3 next=1 next=2\n", 1, nil},
		{"duplicate class", head + "Node 3 next=1\nNode 3 next=2\n", 1, []string{"Node (line 3)"}},
		{"huge count", head + "Node 3 next=99999999999999999999999\n", 1, nil},
		{"binary", head + "\x00\x01\x02 \xff\n", 1, nil},
	} {
		p, warnings := Parse(strings.NewReader(c.text))
		if len(warnings) != c.warnings {
			t.Errorf("%s: %d warnings %v, want %d", c.name, len(warnings), warnings, c.warnings)
		}
		var got []string
		for _, k := range p.list {
			got = append(got, k.Key.String())
		}
		if !reflect.DeepEqual(got, c.classes) {
			t.Errorf("%s: classes %v, want %v", c.name, got, c.classes)
		}
	}
	// A very long line is a warning, not a crash.
	long := header + "\nNode 3 " + strings.Repeat("x", 2<<20) + "=1\n"
	if _, warnings := Parse(strings.NewReader(long)); len(warnings) == 0 {
		t.Error("an over-long line gave no warning")
	}
}

func TestUnmatchedAndDropUnmatched(t *testing.T) {
	p, warnings := Parse(strings.NewReader(header + "\nNode 3 next*=5\nGone 7 x=1\n"))
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	p.Class("Node", 3) // the program declares Node at line 3 only
	p.Class("Fresh", 9).Field("a")
	if got := p.Unmatched(); !reflect.DeepEqual(got, []Key{{"Gone", 7}}) {
		t.Fatalf("Unmatched = %v", got)
	}
	p.DropUnmatched()
	var buf bytes.Buffer
	p.Save(&buf)
	if strings.Contains(buf.String(), "Gone") || !strings.Contains(buf.String(), "Node 3 next*=5") || !strings.Contains(buf.String(), "Fresh 9 a=0") {
		t.Fatalf("after DropUnmatched:\n%s", buf.String())
	}
}

func TestStaleFields(t *testing.T) {
	p, _ := Parse(strings.NewReader(header + "\nNode 3 next*=5 old=2 payload=1\n"))
	c := p.Class("Node", 3)
	layout := []int{c.Field("payload"), c.Field("next"), c.Field("added")}
	if got := c.StaleFields(layout); !reflect.DeepEqual(got, []string{"old"}) {
		t.Fatalf("StaleFields = %v, want [old]", got)
	}
	if order, hot := c.Order(layout); !reflect.DeepEqual(order, []int{1, 0, 2}) || hot != 1 {
		t.Fatalf("order %v hot %d", order, hot)
	}
}
