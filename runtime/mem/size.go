package mem

import (
	"math"
	"strconv"
	"strings"
)

// ParseSize parses Java's size syntax (-Xmx512m), which the command line
// and -Xlog's filesize= share: decimal digits with an optional
// k/K, m/M, g/G or t/T suffix; no suffix means bytes.
func ParseSize(s string) (uintptr, bool) {
	shift := 0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			shift = 10
		case 'm', 'M':
			shift = 20
		case 'g', 'G':
			shift = 30
		case 't', 'T':
			shift = 40
		}
		if shift != 0 {
			s = s[:len(s)-1]
		}
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > math.MaxUint64>>shift || n<<shift > math.MaxUint64>>1 {
		return 0, false
	}
	return uintptr(n << shift), true
}
