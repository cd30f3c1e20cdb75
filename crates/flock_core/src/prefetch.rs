//! A hint that memory will be read soon, for loops that visit records in an order the
//! processor cannot predict (a crowd's agents in the order of their grid cells, each one's
//! neighbours by id).

/// The cache line of the processors this is written for (x86-64's).
const LINE: usize = 64;

/// Asks the processor to bring every cache line of `value` into its nearest cache, so that a
/// read a little later does not wait on memory. A hint only: it reads nothing the program
/// sees and cannot fault. Where the target has no stable prefetch instruction it does nothing.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = (value as *const T).cast::<i8>();
        // A line at every `LINE` bytes from the start, and the last byte's (the record need
        // not start on a line).
        let mut offset = 0;
        while offset < size_of::<T>() {
            // SAFETY: a prefetch dereferences nothing and never faults, whatever the address;
            // this one is within `value` anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
            offset += LINE;
        }
        // SAFETY: as above.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(size_of::<T>().max(1) - 1)) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
