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
//! **The crate's one exception to `#![deny(unsafe_code)]`** (two instructions, in this module). [`opaque`] is an empty
//! inline-assembly statement (an assembler comment) on x86-64; `std::hint::black_box` would do
//! the same job through a stack round trip. It pays: `heading_atan2`, whose octant folds use
//! [`mask`], takes 5.0 ns a call against 10.5–13.2 ns for the same function with plain `if`s
//! (and 36–46 ns for libm's `atan2`), over 1,000,000 random headings, best of 15 rounds
//! (`cargo run --release --example heading_speed`; 2-core AMD EPYC under KVM, load average 9.5,
//! 2026-11-23). The two are tested equal bit for bit (`branch_free_heading_equals_the_plain_one_bit_for_bit`).
//!
//! **And [`prefetch`]**, the processor's prefetch instruction (`_mm_prefetch`, which the
//! standard library still declares `unsafe`, though a prefetch cannot fault or change a value). It
//! pays where a step walks a crowd far beyond the caches: `World::step` asks for the next block of
//! agents while it moves this one, seek at 1,000,000 agents 47-48 -> 39-40 ns per agent-step (see
//! `PREFETCH_LINES` in `sim`); it asks for the walk each agent reads at its slot 16 agents ahead
//! (flocking at 1,000,000 boids 400-409 -> 352-357 ns, `WALK_AHEAD_MIN_AGENTS`) and for the
//! kinematics the grid's gathers read at random places (`GATHER_AHEAD`). A step's results do not
//! depend on it: the scene snapshots and the thread-count tests run through it.

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

/// Asks the processor to fetch the cache lines of `value` from `first_byte` on, `lines`
/// 64-byte lines, into its caches, without waiting for them: a hint, never a read (it cannot
/// fault, changes no value, and does nothing where there is no such instruction).
#[inline(always)]
pub fn prefetch<T>(value: &T, first_byte: usize, lines: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let base = (value as *const T).cast::<i8>();
        for line in 0..lines {
            let p = base.wrapping_add(first_byte + line * 64);
            // SAFETY: a prefetch is a hint: it never faults, whatever the address, and reads
            // nothing into the program's state; the SSE instruction is in every x86-64.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (value, first_byte, lines);
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

    /// A prefetch changes nothing it is pointed at, and any address is allowed (lines past the
    /// value's end, as the step's prefetch of a record's last line asks for).
    #[test]
    fn a_prefetch_changes_nothing() {
        let values: Vec<u64> = (0..64).collect();
        for first_byte in [0, 8, 63, 64, 500, 4096] {
            prefetch(&values, first_byte, 7);
            prefetch(&values[3], first_byte, 3);
        }
        assert_eq!(values, (0..64).collect::<Vec<u64>>());
    }

    #[test]
    fn mask_is_all_ones_or_zero() {
        assert_eq!(mask(true), u32::MAX);
        assert_eq!(mask(false), 0);
        assert_eq!(opaque(12345), 12345);
    }
}
