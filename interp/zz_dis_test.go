package interp

import (
	"os"
	"testing"
)

func TestZZDis(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("DIS"))
	t.Log(disassembleFunc(t, string(src)))
}
