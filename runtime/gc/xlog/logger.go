package xlog

import (
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

// Logger writes log lines to the outputs of a Config. Apart from
// Redirect, which a client calls before the first line, it is read-only
// after Open except for its line buffer, which mu guards.
type Logger struct {
	maxLevel Level             // the most verbose level of any tag set on any output
	levels   [numTagSets]Level // per tag set, the most verbose level of any output
	outs     []boundOutput
	start    time.Time

	mu  sync.Mutex
	buf []byte
}

type boundOutput struct {
	w          io.Writer
	decorators Decorators
	levels     [numTagSets]Level
}

// Open binds the configured outputs to writers: stdout and stderr to the
// given ones, each file output to what create returns for its path
// (after expanding %p to the process id and %t to the start time, as
// HotSpot does). It returns nil, a Logger that logs nothing, when no
// output logs anything. Uptimes count from start.
func (c *Config) Open(stdout, stderr io.Writer, create func(path string) (io.Writer, error), start time.Time) (*Logger, error) {
	l := &Logger{start: start}
	for _, o := range c.outputs {
		if !o.enabled() {
			continue
		}
		var w io.Writer
		switch o.name {
		case "stdout":
			w = stdout
		case "stderr":
			w = stderr
		default:
			var err error
			if w, err = create(expandPath(o.path, start)); err != nil {
				return nil, err
			}
		}
		l.outs = append(l.outs, boundOutput{w: w, decorators: o.decorators, levels: o.levels})
		for i, lv := range o.levels {
			l.levels[i] = max(l.levels[i], lv)
			l.maxLevel = max(l.maxLevel, lv)
		}
	}
	if len(l.outs) == 0 {
		return nil, nil
	}
	return l, nil
}

// FilePaths lists the file outputs' paths (as given, before expansion).
func (c *Config) FilePaths() []string {
	var paths []string
	for _, o := range c.outputs {
		if o.isFile() && o.enabled() {
			paths = append(paths, o.path)
		}
	}
	return paths
}

func expandPath(path string, start time.Time) string {
	var b []byte
	for i := 0; i < len(path); i++ {
		if path[i] == '%' && i+1 < len(path) {
			switch {
			case path[i+1] == 'p':
				b = strconv.AppendInt(b, int64(os.Getpid()), 10)
				i++
				continue
			case path[i+1] == 't':
				b = start.AppendFormat(b, "2006-01-02_15-04-05")
				i++
				continue
			case i+2 < len(path) && path[i+1:i+3] == "hn":
				b = append(b, hostname()...)
				i += 2
				continue
			}
		}
		b = append(b, path[i])
	}
	return string(b)
}

// NewLogger is a Logger with one output, w, configured by a what field
// and the default decorators: a convenience for tests and embedders.
func NewLogger(w io.Writer, what string) (*Logger, error) {
	c := NewConfig()
	c.Disable()
	if _, err := c.Parse(what); err != nil {
		return nil, err
	}
	return c.Open(w, nil, nil, time.Now())
}

// Redirect makes the outputs that write to from write to to instead, so
// that a client that buffers a writer (the VM's stdout) can keep log
// lines in order with its own output.
func (l *Logger) Redirect(from, to io.Writer) {
	if l == nil {
		return
	}
	for i := range l.outs {
		if l.outs[i].w == from {
			l.outs[i].w = to
		}
	}
}

// Enabled reports whether a line at level with the tag set tags (a
// registered label such as "gc,heap") would appear on some output.
func (l *Logger) Enabled(level Level, tags string) bool {
	if l == nil || level > l.maxLevel {
		return false
	}
	return l.levels[lookup(tags)] >= level
}

func lookup(tags string) int {
	i, ok := tagSetIndex[tags]
	if !ok {
		panic("xlog: unregistered tag set " + tags)
	}
	return i
}

// Log writes msg at level with the tag set tags to every output that
// takes it, decorated as that output asks.
func (l *Logger) Log(level Level, tags string, msg string) {
	if !l.Enabled(level, tags) {
		return
	}
	ts := lookup(tags)
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range l.outs {
		if o.levels[ts] < level {
			continue
		}
		b := appendDecorations(l.buf[:0], o.decorators, now, l.start, level, &tagSets[ts])
		if o.decorators != 0 {
			b = append(b, ' ')
		}
		b = append(b, msg...)
		b = append(b, '\n')
		o.w.Write(b)
		l.buf = b
	}
}
