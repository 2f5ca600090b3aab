package xlog

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Decorators is a set of decorations, one bit per decorator in HotSpot's
// order, which is also the order they are printed in.
type Decorators uint16

const (
	decTime Decorators = 1 << iota
	decUTCTime
	decUptime
	decTimeMillis
	decUptimeMillis
	decTimeNanos
	decUptimeNanos
	decHostname
	decPid
	decTid
	decLevel
	decTags
	numDecorators = iota
)

// DefaultDecorators is HotSpot's default: uptime,level,tags.
const DefaultDecorators = decUptime | decLevel | decTags

// decoratorNames holds each decorator's name and abbreviation.
var decoratorNames = [numDecorators][2]string{
	{"time", "t"}, {"utctime", "utc"}, {"uptime", "u"}, {"timemillis", "tm"},
	{"uptimemillis", "um"}, {"timenanos", "tn"}, {"uptimenanos", "un"},
	{"hostname", "hn"}, {"pid", "p"}, {"tid", "ti"}, {"level", "l"}, {"tags", "tg"},
}

// parseDecorators reads a decorators field: empty is the default, none
// is no decoration, else a comma list of names or abbreviations (case is
// ignored, as in HotSpot).
func parseDecorators(s string) (Decorators, error) {
	if s == "" {
		return DefaultDecorators, nil
	}
	if strings.EqualFold(s, "none") {
		return 0, nil
	}
	var d Decorators
	for _, name := range strings.Split(s, ",") {
		bit, ok := decoratorBit(name)
		if !ok {
			if name == "" {
				return 0, fmt.Errorf("empty decorator in '%s'", s)
			}
			return 0, fmt.Errorf("unknown decorator '%s'", name)
		}
		d |= bit
	}
	return d, nil
}

func decoratorBit(name string) (Decorators, bool) {
	for i, n := range decoratorNames {
		if strings.EqualFold(name, n[0]) || strings.EqualFold(name, n[1]) {
			return 1 << i, true
		}
	}
	return 0, false
}

func (d Decorators) String() string {
	if d == 0 {
		return "none"
	}
	var names []string
	for i, n := range decoratorNames {
		if d&(1<<i) != 0 {
			names = append(names, n[0])
		}
	}
	return strings.Join(names, ",")
}

// hostname is read once, when a line first asks for it.
var hostname = sync.OnceValue(func() string {
	name, _ := os.Hostname()
	return name
})

// appendDecorations appends "[..][..]" for the decorators in d, in
// HotSpot's formats: time and utctime ISO-8601 with milliseconds and the
// zone offset, uptime in seconds with three decimals, the millis and
// nanos decorators as integers with ms/ns, tid the OS thread id. Unlike
// HotSpot, no decoration is padded to the widest one seen so far.
func appendDecorations(b []byte, d Decorators, now, start time.Time, level Level, ts *tagSet) []byte {
	for i := range numDecorators {
		bit := Decorators(1) << i
		if d&bit == 0 {
			continue
		}
		b = append(b, '[')
		switch bit {
		case decTime:
			b = now.AppendFormat(b, "2006-01-02T15:04:05.000-0700")
		case decUTCTime:
			b = now.UTC().AppendFormat(b, "2006-01-02T15:04:05.000-0700")
		case decUptime:
			b = strconv.AppendFloat(b, now.Sub(start).Seconds(), 'f', 3, 64)
			b = append(b, 's')
		case decTimeMillis:
			b = strconv.AppendInt(b, now.UnixMilli(), 10)
			b = append(b, "ms"...)
		case decUptimeMillis:
			b = strconv.AppendInt(b, now.Sub(start).Milliseconds(), 10)
			b = append(b, "ms"...)
		case decTimeNanos:
			var t unix.Timespec
			_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &t)
			b = strconv.AppendInt(b, t.Nano(), 10)
			b = append(b, "ns"...)
		case decUptimeNanos:
			b = strconv.AppendInt(b, now.Sub(start).Nanoseconds(), 10)
			b = append(b, "ns"...)
		case decHostname:
			b = append(b, hostname()...)
		case decPid:
			b = strconv.AppendInt(b, int64(os.Getpid()), 10)
		case decTid:
			b = strconv.AppendInt(b, int64(unix.Gettid()), 10)
		case decLevel:
			b = append(b, level.String()...)
		case decTags:
			b = append(b, ts.label...)
		}
		b = append(b, ']')
	}
	return b
}
