package mem

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

// Populate backs a committed range with memory now rather than at first
// touch: MADV_POPULATE_WRITE, or an atomic add of 0 per page where the
// kernel lacks it (Pretouch with PretouchPopulate, errors ignored: the
// range then simply faults in as it is used).
func Populate(addr, size uintptr) {
	_ = pretouch(addr, size, PretouchPopulate)
}
