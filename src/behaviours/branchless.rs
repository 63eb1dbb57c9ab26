//! Branch-free versions of small vector operations on the per-step path.
//!
//! A branch whose direction depends on data that differs from agent to agent (which quadrant
//! an agent heads into, whether a speed a rounding error above its maximum gets clamped) is
//! mispredicted about half the time, and with thousands of agents that costs more than doing
//! both sides. These helpers compute both sides and pick one with bit masks, giving exactly
//! the result of the branching version.

use glam::Vec3;

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

/// `if mask is all ones { a } else { b }`, componentwise with one mask.
#[inline(always)]
pub fn select_vec3(mask: u32, a: Vec3, b: Vec3) -> Vec3 {
    Vec3::new(select_f32(mask, a.x, b.x), select_f32(mask, a.y, b.y), select_f32(mask, a.z, b.z))
}

/// Exactly glam's `Vec3::clamp_length_max` (the same operations in the same order), without
/// the branch.
#[inline(always)]
pub fn clamp_length_max(v: Vec3, max: f32) -> Vec3 {
    let length_sq = v.length_squared();
    let scaled = max * (v / length_sq.sqrt());
    select_vec3(mask(length_sq > max * max), scaled, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_length_max_matches_glam_bit_for_bit() {
        let cases = [
            Vec3::ZERO,
            Vec3::new(3.0, 4.0, 0.0),
            Vec3::new(150.000_01, 0.0, 0.0),
            Vec3::new(-1e-30, 2e-30, 0.0),
            Vec3::new(1e30, -1e30, 5.0),
            Vec3::new(f32::INFINITY, 0.0, 0.0),
            Vec3::new(f32::NAN, 1.0, 0.0),
            Vec3::new(106.066_02, 106.066_02, 0.0),
        ];
        for v in cases {
            for max in [0.0, 1.0, 5.0, 150.0, 1e20] {
                let (ours, glams) = (clamp_length_max(v, max), v.clamp_length_max(max));
                for (a, b) in ours.to_array().into_iter().zip(glams.to_array()) {
                    assert!(
                        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                        "{v} {max}: {ours} {glams}"
                    );
                }
            }
        }
    }

    #[test]
    fn select_picks_by_mask() {
        assert_eq!(select_f32(mask(true), 1.0, 2.0), 1.0);
        assert_eq!(select_f32(mask(false), 1.0, 2.0), 2.0);
        assert_eq!(select_vec3(mask(true), Vec3::X, Vec3::Y), Vec3::X);
    }
}
