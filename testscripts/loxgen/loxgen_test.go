package loxgen

import (
	"regexp"
	"testing"
)

// A seed is a replayable program: generating it twice gives the same text.
func TestDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		a, b := Generate(seed), Generate(seed)
		if *a != *b {
			t.Fatalf("seed %d: two different programs", seed)
		}
	}
	if Generate(1).Source == Generate(2).Source {
		t.Fatal("seeds 1 and 2 give the same program")
	}
}

// Programs meant for clox use none of minivm's extensions.
func TestCloxPrograms(t *testing.T) {
	ext := regexp.MustCompile(`\[|\b(Array|spawn|join|str|len|number|gc|argv)\(`)
	clox := 0
	for seed := uint64(1); seed <= 200; seed++ {
		p := Generate(seed)
		if !p.Clox {
			continue
		}
		clox++
		if loc := ext.FindStringIndex(p.Source); loc != nil {
			t.Fatalf("seed %d is for clox but uses %q", seed, p.Source[loc[0]:loc[1]])
		}
	}
	if clox == 0 {
		t.Fatal("no program for clox in 200 seeds")
	}
}
