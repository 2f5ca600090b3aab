package interp

import (
	"math"
	"strconv"

	"minivm/runtime/gc"
)

// appendNumber formats a number as clox prints it, with C's printf("%g"):
// six significant digits, exponent form below 1e-4 and from 1e6 on
// (0.333333, 100000, 1e+06, 1.23457e+08), "-0" for negative zero, "inf",
// "-inf", and "nan" or, when the sign bit is set, "-nan" (glibc's form:
// 0/0 on x86-64 is the default NaN, whose sign bit is set).
func appendNumber(buf []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return append(buf, "-nan"...)
		}
		return append(buf, "nan"...)
	case math.IsInf(f, 1):
		return append(buf, "inf"...)
	case math.IsInf(f, -1):
		return append(buf, "-inf"...)
	}
	return strconv.AppendFloat(buf, f, 'g', 6, 64)
}

func formatNumber(f float64) string { return string(appendNumber(nil, f)) }

// appendScalar appends the printed form of a value that is not an array.
func (vm *VM) appendScalar(buf []byte, v gc.Value) []byte {
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

// maxPrintDepth bounds the nesting of arrays printed in full; an array
// nested deeper, or one that contains itself, prints as "[...]".
const maxPrintDepth = 256

// printChunk is how much printed text the printer gathers before handing
// it on: the printed form of a value is never built whole, since arrays
// that share sub-arrays print far more text than the heap holds.
const printChunk = 32 << 10

// printFrame is one array being printed: the array and its next element.
type printFrame struct {
	arr  gc.Ref
	next int
}

// printValue produces the printed form of v (what print and str() show),
// passing it to emit in pieces of about printChunk bytes. It walks
// nested arrays with an explicit stack of at most maxPrintDepth frames,
// so neither Go's stack nor the printer's memory grows with the value. It
// does not allocate in the heap, so the references it holds stay valid.
func (vm *VM) printValue(v gc.Value, emit func([]byte)) {
	h := vm.heap
	buf := vm.buf[:0]
	var stack []printFrame
	for {
		if vm.isString(v) && h.Length(v.AsRef()) > printChunk {
			// A long string goes straight from the heap.
			emit(buf)
			buf = buf[:0]
			emit(h.Bytes(v.AsRef()))
		} else if !vm.isKind(v, kArray) {
			buf = vm.appendScalar(buf, v)
		} else if r := v.AsRef(); len(stack) >= maxPrintDepth || onPrintStack(stack, r) {
			buf = append(buf, "[...]"...)
		} else {
			buf = append(buf, '[')
			stack = append(stack, printFrame{arr: r})
		}
		// Close the arrays whose elements are all printed; then v is the
		// next element of the innermost open one.
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < h.Length(f.arr) {
				if f.next > 0 {
					buf = append(buf, ", "...)
				}
				v = h.Load(f.arr, slotsFirst+f.next)
				f.next++
				break
			}
			buf = append(buf, ']')
			stack = stack[:len(stack)-1]
		}
		if len(buf) >= printChunk || len(stack) == 0 {
			emit(buf)
			buf = buf[:0]
		}
		if len(stack) == 0 {
			break
		}
	}
	if cap(buf) <= maxScratch {
		vm.buf = buf
	}
}

func onPrintStack(stack []printFrame, r gc.Ref) bool {
	for _, f := range stack {
		if f.arr == r {
			return true
		}
	}
	return false
}

// maxScratch bounds the formatting buffer kept between prints.
const maxScratch = 64 << 10

// printSlot writes the value at stack[slot], the top, and a newline to the
// program output, and pops the value. Waiting for the output lock may move
// the value, so it is read from the stack afterwards. The first failed
// write stops the program (outputError).
func (vm *VM) printSlot(slot int) {
	vm.lock(&vm.outMu)
	defer vm.outMu.Unlock()
	v := vm.stack[slot]
	switch {
	case vm.isString(v):
		vm.writeOut(vm.heap.Bytes(v.AsRef()))
		vm.writeOut([]byte{'\n'})
	case vm.isKind(v, kArray):
		vm.printValue(v, vm.writeOut)
		vm.writeOut([]byte{'\n'})
	default:
		vm.buf = append(vm.appendScalar(vm.buf[:0], v), '\n')
		vm.writeOut(vm.buf)
	}
	vm.sp = slot
}

// writeOut writes program output; the caller holds outMu.
func (vm *VM) writeOut(b []byte) {
	if _, err := vm.out.Write(b); err != nil {
		panic(&outputError{err})
	}
}

// strValue returns str(v), v being args[0] of the native (rooted on the
// stack, reloaded after the allocation). It formats v twice: once to
// measure the text, failing with an OutOfMemoryError as soon as it
// exceeds the heap's maximum size (a longer string could not be allocated
// anyway), then into the string allocated for it. So str() holds no more
// than one printChunk of text outside the heap, however large its result.
func (vm *VM) strValue(args []gc.Value) (gc.Value, error) {
	h := vm.heap
	limit := min(int(h.Config().MaxHeap), gc.MaxObjectSize-2*gc.WordSize-1)
	// Another thread may change an array between the two passes; then
	// the lengths differ and str() measures again.
	for range strAttempts {
		n := 0
		vm.printValue(args[0], func(b []byte) {
			if n += len(b); n > limit {
				panic(&gc.OutOfMemoryError{Msg: "Java heap space: the text of str() is larger than the maximum heap size (-Xmx)"})
			}
		})
		r := vm.mut.AllocBytes(vm.m.str, n)
		dst, w := h.Bytes(r), 0
		vm.printValue(args[0], func(b []byte) {
			if w+len(b) <= n {
				copy(dst[w:], b)
			}
			w += len(b)
		})
		if w == n {
			h.SetRawWord(r, 1, uint64(n)|uint64(fnvAppend(fnvOffset, dst))<<32)
			return gc.FromRef(r), nil
		}
	}
	return 0, vm.runtimeError("Arrays changed while str() formatted them.")
}

// strAttempts bounds str()'s measurements of arrays other threads keep
// changing.
const strAttempts = 4
