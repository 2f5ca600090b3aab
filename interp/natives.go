package interp

import (
	"math"
	"strconv"
	"time"

	"minivm/runtime/gc"
)

// A native function. It reads its arguments from the value stack (args is
// a view of it, so values it reads after an allocation are the moved
// ones) and returns its result; errors are runtime errors.
type native struct {
	name  string
	arity int
	fn    func(vm *VM, args []gc.Value) (gc.Value, error)
}

// natives is filled by init: spawn's thread runs the dispatch loop, which
// calls natives, so a static initializer would be a cycle.
var natives []native

func init() {
	natives = []native{
		{"clock", 0, nativeClock},
		{"len", 1, nativeLen},
		{"Array", 1, nativeArray},
		{"str", 1, nativeStr},
		{"number", 1, nativeNumber},
		{"argv", 0, nativeArgv},
		{"gc", 0, nativeGC},
		{"spawn", 1, nativeSpawn},
		{"join", 1, nativeJoin},
	}
}

// defineNatives creates a Native object per native and binds it to a
// global of its name.
func (vm *VM) defineNatives() error {
	h := vm.heap
	for i, n := range natives {
		r := vm.mut.AllocFixed(vm.m.native, gc.Nil)
		h.SetRawWord(r, nativeIndexWord, uint64(i))
		vm.globals[vm.globalID(n.name)] = gc.FromRef(r)
	}
	return nil
}

// callNative calls native i, the callee at stack[slot], with the argc
// arguments above it, the top, and replaces callee and arguments with the
// result.
func (vm *VM) callNative(i, slot, argc int) error {
	n := &natives[i]
	if argc != n.arity {
		return vm.runtimeError("Expected %d arguments but got %d.", n.arity, argc)
	}
	res, err := n.fn(vm, vm.stack[slot+1:slot+1+argc])
	if err != nil {
		return err
	}
	vm.stack[slot] = res
	vm.sp = slot + 1
	return nil
}

func nativeClock(vm *VM, _ []gc.Value) (gc.Value, error) {
	return gc.Number(time.Since(vm.start).Seconds()), nil
}

func nativeLen(vm *VM, args []gc.Value) (gc.Value, error) {
	v := args[0]
	if v.IsRef() {
		switch vm.heap.Kind(v.AsRef()) {
		case kString, kArray:
			return gc.Number(float64(vm.heap.Length(v.AsRef()))), nil
		}
	}
	return 0, vm.runtimeError("Argument to len() must be a string or an array.")
}

func nativeArray(vm *VM, args []gc.Value) (gc.Value, error) {
	v := args[0]
	if !v.IsNumber() || v.AsNumber() < 0 || v.AsNumber() != math.Trunc(v.AsNumber()) {
		return 0, vm.runtimeError("Array size must be a non-negative integer.")
	}
	f := v.AsNumber()
	if f > maxArrayLength {
		panic(&gc.OutOfMemoryError{Msg: "requested array length " + formatNumber(f) + " exceeds the maximum object size"})
	}
	return gc.FromRef(vm.newArray(int(f), gc.Nil)), nil
}

func nativeStr(vm *VM, args []gc.Value) (gc.Value, error) {
	if vm.isString(args[0]) {
		return args[0], nil
	}
	return vm.strValue(args)
}

func nativeNumber(vm *VM, args []gc.Value) (gc.Value, error) {
	v := args[0]
	if v.IsNumber() {
		return v, nil
	}
	if !vm.isString(v) {
		return 0, vm.runtimeError("Argument to number() must be a string.")
	}
	// The syntax check reads the string in the heap: only a number's
	// text is copied out for ParseFloat.
	b := vm.heap.Bytes(v.AsRef())
	if !isNumberSyntax(b) {
		return gc.Nil, nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil && f == 0 {
		return gc.Nil, nil
	}
	// Overflow gives ±Inf with an error, as a C strtod would: keep it.
	return gc.Number(f), nil
}

// isNumberSyntax accepts an optional sign, digits with an optional
// fraction, and an optional exponent: what a Lox number literal (or its
// negation, or its printed form) looks like.
func isNumberSyntax(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

func nativeArgv(vm *VM, _ []gc.Value) (gc.Value, error) {
	h := vm.heap
	args := vm.opts.Args
	vm.handles = append(vm.handles, gc.FromRef(vm.newArray(len(args), gc.Nil)))
	top := len(vm.handles) - 1
	for i, a := range args {
		s := vm.newString([]byte(a))
		h.Store(vm.handles[top].AsRef(), slotsFirst+i, s)
	}
	arr := vm.handles[top]
	vm.handles = vm.handles[:top]
	return arr, nil
}

func nativeGC(vm *VM, _ []gc.Value) (gc.Value, error) {
	vm.mut.Collect()
	return gc.Nil, nil
}
