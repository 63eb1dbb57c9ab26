//! Branch-free selection of small values on the per-step path.
//!
//! A branch whose direction depends on data that differs from agent to agent (which quadrant
//! an agent heads into, whether it is outside its channel) is mispredicted often, and with
//! thousands of agents that costs more than doing both sides when both are cheap. These
//! helpers pick one of two values with bit masks, giving exactly the result of the branching
//! version. (Where one side is expensive, a square root and a division, measuring showed the
//! branch to be cheaper: glam's `clamp_length_max` stays as it is.)

/// `value`, hidden from the optimiser: it would otherwise turn the masking below back into a
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

/// `if mask is all ones { a } else { b }` for a mask from [`mask`].
#[inline(always)]
pub fn select_f32(mask: u32, a: f32, b: f32) -> f32 {
    f32::from_bits((a.to_bits() & mask) | (b.to_bits() & !mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_picks_by_mask() {
        assert_eq!(select_f32(mask(true), 1.0, 2.0), 1.0);
        assert_eq!(select_f32(mask(false), 1.0, 2.0), 2.0);
    }
}
