package gc

import "math"

// Value is a NaN-boxed Lox value. A float64 is stored as its bits; every
// other value lives in the quiet-NaN space that arithmetic never produces:
//
//	number     any float64 (a NaN result is the hardware's default NaN,
//	           0xfff8... on x86-64, 0x7ff8... elsewhere, or its negation:
//	           both lie outside the boxed space, so a NaN keeps its sign,
//	           which print shows as "-nan" or "nan")
//	nil/false/true/undefined  qnan | 1 / 2 / 3 / 4
//	reference  sign | qnan | ref   (ref is the 32-bit compressed reference)
//
// Undefined marks an empty instance field slot or an unset global; it never
// escapes to Lox code.
type Value uint64

const (
	qnan     = 0x7ffc000000000000
	signBit  = 0x8000000000000000
	refTag   = signBit | qnan
	tagNil   = 1
	tagFalse = 2
	tagTrue  = 3
	tagUndef = 4
)

// The singleton values.
const (
	Nil       Value = qnan | tagNil
	False     Value = qnan | tagFalse
	True      Value = qnan | tagTrue
	Undefined Value = qnan | tagUndef
)

// Number boxes a float64.
func Number(f float64) Value { return Value(math.Float64bits(f)) }

// Bool boxes a boolean.
func Bool(b bool) Value {
	if b {
		return True
	}
	return False
}

// FromRef boxes a compressed reference.
func FromRef(r Ref) Value { return Value(refTag | uint64(r)) }

// IsNumber reports whether v is a float64.
func (v Value) IsNumber() bool { return uint64(v)&qnan != qnan }

// AsNumber unboxes a number; v must be a number.
func (v Value) AsNumber() float64 { return math.Float64frombits(uint64(v)) }

// IsRef reports whether v is a heap reference.
func (v Value) IsRef() bool { return uint64(v)>>refShift == refTag>>refShift }

// refShift: refTag is exactly the top 14 bits, so a shift tests it in two
// instructions (the collectors' slot loops run it on every slot). The
// declaration below does not compile otherwise.
const refShift = 50

var _ [0]struct{} = [refTag ^ (1<<64 - 1<<refShift)]struct{}{}

// AsRef unboxes a reference; v must be a reference.
func (v Value) AsRef() Ref { return Ref(uint32(v)) }

// IsFalsey follows Lox: nil and false are false, everything else is true.
func (v Value) IsFalsey() bool { return v == Nil || v == False }
