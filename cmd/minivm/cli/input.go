package cli

// Reading the program: the script file, or the REPL's lines, bounded by
// -XX:MaxScriptSize so that a script named /dev/zero, or an endless line on
// standard input, is an error instead of memory without end.

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// readScript reads the script at path: any file that can be opened and
// read, including a FIFO or a character device such as /dev/stdin. It
// reads at most max+1 bytes (one more than max means the script is too
// large), in chunks joined once into the string it returns, so reading
// takes about the script's size twice at most, and a script that is too
// large about max once.
func readScript(path string, max uintptr) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot open script '%s': %v", path, reason(err))
	}
	defer f.Close()
	r := io.LimitReader(f, int64(max)+1)
	var chunks [][]byte
	total := 0
	for {
		chunk := make([]byte, min(uintptr(readChunk), max+1-uintptr(total)))
		n, err := io.ReadFull(r, chunk)
		chunks = append(chunks, chunk[:n])
		total += n
		if err == io.EOF || err == io.ErrUnexpectedEOF || uintptr(total) > max {
			break
		}
		if err != nil {
			return "", fmt.Errorf("cannot open script '%s': %v", path, reason(err))
		}
	}
	if uintptr(total) > max {
		return "", fmt.Errorf("script '%s' is larger than -XX:MaxScriptSize=%s", path, formatSize(max))
	}
	var src strings.Builder
	src.Grow(total)
	for _, c := range chunks {
		src.Write(c)
	}
	return src.String(), nil
}

// readChunk is the unit readScript reads in.
const readChunk = 1 << 20

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
