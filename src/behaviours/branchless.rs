//! Branch-free selection on the per-step path.
//!
//! A branch whose direction depends on data that differs from agent to agent, such as which
//! quadrant an agent heads into, is mispredicted often, and with thousands of agents that
//! costs more than computing both sides when both are cheap. [`mask`] gives a bit mask the
//! optimiser cannot turn back into a jump, for picking between two values with bit operations
//! (the heading's octant folds in `kinematic`). Where one side is expensive (a square root and
//! a division, as in clamping a vector's length) measuring showed the branch to be cheaper, so
//! glam's `clamp_length_max` is used as it is.
//!
//! **The crate's one exception to `#![deny(unsafe_code)]`.** [`opaque`] is an empty
//! inline-assembly statement (an assembler comment) on x86-64; `std::hint::black_box` would do
//! the same job through a stack round trip. It pays: `heading_atan2`, whose octant folds use
//! [`mask`], takes 5.0 ns a call against 10.5–13.2 ns for the same function with plain `if`s
//! (and 36–46 ns for libm's `atan2`), over 1,000,000 random headings, best of 15 rounds
//! (`cargo run --release --example heading_speed`; 2-core AMD EPYC under KVM, load average 9.5,
//! 2026-11-23). The two are tested equal bit for bit (`branch_free_heading_equals_the_plain_one_bit_for_bit`).

#![allow(unsafe_code)]

/// `value`, hidden from the optimiser: it would otherwise turn a masking select back into a
/// conditional jump (LLVM does, for a select between a constant and zero).
#[inline(always)]
pub fn opaque(value: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut value = value;
        // SAFETY: an empty instruction sequence (an assembler comment) that only claims to read
        // and write one general-purpose register; it touches no memory, stack or flags.
        unsafe {
            std::arch::asm!("/* {0:e} */", inout(reg) value, options(pure, nomem, nostack, preserves_flags))
        };
        value
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::hint::black_box(value)
    }
}

/// All ones when `condition`, else zero, hidden from the optimiser.
#[inline(always)]
pub fn mask(condition: bool) -> u32 {
    opaque(u32::from(condition).wrapping_neg())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_is_all_ones_or_zero() {
        assert_eq!(mask(true), u32::MAX);
        assert_eq!(mask(false), 0);
        assert_eq!(opaque(12345), 12345);
    }
}
