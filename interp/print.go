package interp

import (
	"math"
	"strconv"

	"minivm/runtime/gc"
)

// appendNumber formats a number as clox prints it, with C's printf("%g"):
// six significant digits, exponent form below 1e-4 and from 1e6 on
// (0.333333, 100000, 1e+06, 1.23457e+08), "-0" for negative zero, and
// "nan", "inf", "-inf".
func appendNumber(buf []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(buf, "nan"...)
	case math.IsInf(f, 1):
		return append(buf, "inf"...)
	case math.IsInf(f, -1):
		return append(buf, "-inf"...)
	}
	return strconv.AppendFloat(buf, f, 'g', 6, 64)
}

func formatNumber(f float64) string { return string(appendNumber(nil, f)) }

// appendValue appends the printed form of v (what print and str() show).
// It does not allocate in the heap.
func (vm *VM) appendValue(buf []byte, v gc.Value) []byte {
	return vm.appendValueDepth(buf, v, nil)
}

// maxPrintDepth bounds the nesting of arrays printed in full; deeper (or
// cyclic) arrays print as "[...]".
const maxPrintDepth = 256

func (vm *VM) appendValueDepth(buf []byte, v gc.Value, path []gc.Ref) []byte {
	switch {
	case v.IsNumber():
		return appendNumber(buf, v.AsNumber())
	case v == gc.Nil:
		return append(buf, "nil"...)
	case v == gc.True:
		return append(buf, "true"...)
	case v == gc.False:
		return append(buf, "false"...)
	case !v.IsRef():
		return append(buf, "undefined"...)
	}
	h := vm.heap
	r := v.AsRef()
	switch h.Kind(r) {
	case kString:
		return append(buf, h.Bytes(r)...)
	case kArray:
		if len(path) >= maxPrintDepth {
			return append(buf, "[...]"...)
		}
		for _, q := range path {
			if q == r {
				return append(buf, "[...]"...)
			}
		}
		path = append(path, r)
		buf = append(buf, '[')
		for i, n := 0, h.Length(r); i < n; i++ {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = vm.appendValueDepth(buf, h.Load(r, slotsFirst+i), path)
		}
		return append(buf, ']')
	case kInstance:
		buf = vm.appendClassName(buf, vm.instanceClass(r))
		return append(buf, " instance"...)
	case kClass:
		return vm.appendClassName(buf, r)
	case kClosure:
		return vm.appendFunction(buf, r)
	case kBound:
		return vm.appendFunction(buf, h.Load(r, boundMethodWord).AsRef())
	case kNative:
		return append(buf, "<native fn>"...)
	case kThread:
		buf = append(buf, "<thread "...)
		buf = strconv.AppendUint(buf, h.RawWord(r, threadIDWord), 10)
		return append(buf, '>')
	}
	return append(buf, "<internal>"...)
}

func (vm *VM) appendClassName(buf []byte, cls gc.Ref) []byte {
	return append(buf, vm.heap.Bytes(vm.heap.Load(cls, classNameWord).AsRef())...)
}

func (vm *VM) appendFunction(buf []byte, closure gc.Ref) []byte {
	p := vm.protos[vm.heap.RawWord(closure, 1)>>32]
	if p.name == "" {
		return append(buf, "<script>"...)
	}
	buf = append(buf, "<fn "...)
	buf = append(buf, p.name...)
	return append(buf, '>')
}

// printTop writes the value on top of the stack and a newline to the
// program output. Waiting for the output lock may move the value, so it is
// read from the stack afterwards.
func (vm *VM) printTop() {
	vm.lock(&vm.outMu)
	defer vm.outMu.Unlock()
	v := vm.stack[vm.sp-1]
	if vm.isString(v) {
		vm.out.Write(vm.heap.Bytes(v.AsRef()))
		vm.out.WriteByte('\n')
		return
	}
	vm.buf = vm.appendValue(vm.buf[:0], v)
	vm.buf = append(vm.buf, '\n')
	vm.out.Write(vm.buf)
	if cap(vm.buf) > maxScratch {
		vm.buf = nil
	}
}

// maxScratch bounds the formatting buffer kept between prints.
const maxScratch = 64 << 10
