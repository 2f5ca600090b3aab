package cli

// Reading the program: the script file, or the REPL's lines, bounded by
// -XX:MaxScriptSize so that a script named /dev/zero, or an endless line on
// standard input, is an error instead of memory without end.

import (
	"fmt"
	"io"
	"os"
)

// readScript reads the script at path: any file that can be opened and
// read, including a FIFO or a character device such as /dev/stdin. It
// reads at most max+1 bytes: one more than max means the script is too
// large.
func readScript(path string, max uintptr) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open script '%s': %v", path, reason(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("cannot open script '%s': %v", path, reason(err))
	}
	if uintptr(len(data)) > max {
		return nil, fmt.Errorf("script '%s' is larger than -XX:MaxScriptSize=%s", path, formatSize(max))
	}
	return data, nil
}

// lineLimiter passes the REPL's input through, failing once a line
// exceeds max bytes (the REPL runs line by line, so a line is what it
// holds in memory).
type lineLimiter struct {
	r    io.Reader
	max  uintptr
	line uintptr // bytes since the last newline
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	if l.line > l.max {
		return 0, fmt.Errorf("line is larger than -XX:MaxScriptSize=%s", formatSize(l.max))
	}
	// Never read past the first byte beyond the limit.
	if room := l.max - l.line + 1; uintptr(len(p)) > room {
		p = p[:room]
	}
	n, err := l.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			l.line = 0
		} else {
			l.line++
		}
	}
	return n, err
}
