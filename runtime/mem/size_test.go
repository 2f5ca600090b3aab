package mem

import "testing"

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uintptr
		ok   bool
	}{
		{"4096", 4096, true},
		{"0", 0, true},
		{"512k", 512 << 10, true},
		{"512K", 512 << 10, true},
		{"64m", 64 << 20, true},
		{"64M", 64 << 20, true},
		{"1g", 1 << 30, true},
		{"1G", 1 << 30, true},
		{"1t", 1 << 40, true},
		{"007m", 7 << 20, true},
		{"", 0, false},
		{"m", 0, false},
		{"abc", 0, false},
		{"1.5g", 0, false},
		{"-1m", 0, false},
		{"+1m", 0, false},
		{"1mb", 0, false},
		{"1 m", 0, false},
		{"99999999999999999999", 0, false},
		{"9999999999t", 0, false},
	} {
		got, ok := ParseSize(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
