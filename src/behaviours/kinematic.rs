//! Kinematic seek and flee, and orientation from velocity (seed 001).
//!
//! # Motivation
//! The simplest movement there is: ask for full speed straight toward (seek) or straight away
//! from (flee) a target, and face the way you move. Seed 001 calls these kinematic because they
//! output a velocity, not an acceleration; they are the baseline the dynamic behaviours improve.
//!
//! # Implementation
//! The direction to (or from) the target is normalised the seed's way, which leaves a zero
//! vector unchanged, so an agent standing on its target asks for zero velocity instead of NaN.
//! The seed sets the character's orientation inside `getSteering`; here behaviours are pure, so
//! the simulation calls [`new_orientation`] with the velocity it applied.
//!
//! # Parameters
//! `max_speed` (world units per second, from the agent's limits) and the target point.

use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Steering};
use crate::geometry::lanes::f32x4;
use glam::Vec3;

/// Seed 001's getNewOrientation: heading of `velocity` if it is non-zero, else `current`.
///
/// The heading is `atan2(v.y, v.x)` (z up; the seed's `atan2(-x, z)` in its y-up world). A
/// velocity with no x-y component (zero, or straight up or down in 3D) has no heading, so the
/// current orientation is kept; the seed only tests for a zero vector, which in its own world
/// would turn a purely vertical velocity into heading 0.
pub fn new_orientation(current: f32, velocity: Vec3) -> f32 {
    if velocity.x != 0.0 || velocity.y != 0.0 {
        heading_atan2(velocity.y, velocity.x)
    } else {
        current
    }
}

/// `atan2(y, x)` to within 1e-6 rad: a degree-13 odd polynomial for atan on [0, 1] (coefficients
/// fitted near-minimax on Chebyshev nodes, error 2.5e-7 before f32 rounding), folded to the full
/// circle; 5.0 ns a call against libm's 36–46 ns (`cargo run --release --example
/// heading_speed`, 1,000,000 random headings, 2-core EPYC at load 9.5, 2026-11-23; tested
/// against libm in `heading_atan2_is_within_1e6_of_libm_all_round`). Every agent computes its
/// heading every step, and a hundred-thousandth of a radian is far below what anyone can see or
/// any behaviour uses. Exact on the axes and the diagonals; NaN in gives NaN out.
pub fn heading_atan2(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let (small, large) = if ax < ay { (ax, ay) } else { (ay, ax) };
    if large == 0.0 {
        return if x.is_sign_negative() {
            if y.is_sign_negative() {
                -PI
            } else {
                PI
            }
        } else {
            y
        };
    }
    let mut r = octant_atan(small / large);
    // The folds to the octant and the final sign are done on the bits, so no branch depends on
    // the direction: agents heading every which way made such branches mispredict about once
    // per agent-step. Each fold computes exactly what `if c { K - r } else { r }` would.
    r = fold(r, ay > ax, FRAC_PI_2);
    r = fold(r, x < 0.0, PI);
    f32::from_bits(r.to_bits() ^ (u32::from(y < 0.0) << 31))
}

/// [`heading_atan2`] with its folds written as plain `if`s: the reference the branch-free
/// version is tested against bit for bit, and measured against in `steerlab bench`.
pub fn heading_atan2_plain(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let (small, large) = if ax < ay { (ax, ay) } else { (ay, ax) };
    if large == 0.0 {
        return if x.is_sign_negative() {
            if y.is_sign_negative() {
                -PI
            } else {
                PI
            }
        } else {
            y
        };
    }
    let mut r = octant_atan(small / large);
    if ay > ax {
        r = FRAC_PI_2 - r;
    }
    if x < 0.0 {
        r = PI - r;
    }
    if y < 0.0 {
        -r
    } else {
        r
    }
}

/// atan(a) for a in [0, 1]: the one polynomial both versions share. Estrin's scheme rather
/// than Horner's: the same coefficients in three short independent chains instead of one long
/// one, which matters when every agent computes its heading at the end of its step.
#[inline(always)]
fn octant_atan(a: f32) -> f32 {
    let [c1, c3, c5, c7, c9, c11, c13] = ATAN_COEFFICIENTS;
    let s = a * a;
    let s2 = s * s;
    let s4 = s2 * s2;
    let low = (c1 - c3 * s) + (c5 - c7 * s) * s2;
    let high = (c9 - c11 * s) + c13 * s2;
    a * (low + high * s4)
}

/// The odd polynomial's coefficients of a, a³, …, a¹³ (the signs are in [`octant_atan`]).
const ATAN_COEFFICIENTS: [f32; 7] =
    [0.999_996_1, 0.333_173_7, 0.198_078_17, 0.132_333_41, 0.079_623_62, 0.033_604_15, 0.006_811_765];

/// [`heading_atan2`] of four headings at once, the same operations lane by lane (the same bits:
/// `heading_atan2_x4_equals_heading_atan2_bit_for_bit`), for the predictive-following kernel.
#[inline(always)]
pub fn heading_atan2_x4(y: f32x4, x: f32x4) -> f32x4 {
    use crate::geometry::lanes::select;
    use std::f32::consts::{FRAC_PI_2, PI};
    let sign = f32x4::splat(-0.0);
    let (ax, ay) = (x.abs(), y.abs());
    let swap = ax.simd_lt(ay);
    let (small, large) = (select(swap, ax, ay), select(swap, ay, ax));
    let a = small / large;
    let [c1, c3, c5, c7, c9, c11, c13] = ATAN_COEFFICIENTS.map(f32x4::splat);
    let s = a * a;
    let s2 = s * s;
    let s4 = s2 * s2;
    let low = (c1 - c3 * s) + (c5 - c7 * s) * s2;
    let high = (c9 - c11 * s) + c13 * s2;
    let mut r = a * (low + high * s4);
    // `fold` lane by lane: the sign flipped and K added where the mask is set, + 0 elsewhere.
    let fold = |r: f32x4, flip: f32x4, k: f32| (r ^ (flip & sign)) + (f32x4::splat(k) & flip);
    r = fold(r, ay.simd_gt(ax), FRAC_PI_2);
    r = fold(r, x.simd_lt(f32x4::ZERO), PI);
    let r = r ^ (y.simd_lt(f32x4::ZERO) & sign);
    let on_origin =
        select(x.is_sign_negative(), select(y.is_sign_negative(), f32x4::splat(-PI), f32x4::splat(PI)), y);
    select(large.simd_eq(f32x4::ZERO), on_origin, r)
}

/// `K − r` when `flip`, else `r` (for r ≥ 0), without a branch.
#[inline(always)]
fn fold(r: f32, flip: bool, k: f32) -> f32 {
    let mask = super::branchless::mask(flip);
    let negated = f32::from_bits(r.to_bits() ^ (mask & 0x8000_0000));
    negated + f32::from_bits(k.to_bits() & mask)
}

/// Kinematic seek: velocity at `max_speed` toward `target` ([`Steering::Velocity`]); zero when on it.
pub fn seek(k: &Kinematics, target: Vec3, max_speed: f32, gizmos: &mut Gizmos) -> Steering {
    let velocity = (target - k.position).normalize_or_zero() * max_speed;
    push_gizmos(k, target, velocity, gizmos);
    Steering::Velocity(velocity)
}

/// Kinematic flee: velocity at `max_speed` away from `target`; zero when on it.
pub fn flee(k: &Kinematics, target: Vec3, max_speed: f32, gizmos: &mut Gizmos) -> Steering {
    let velocity = (k.position - target).normalize_or_zero() * max_speed;
    push_gizmos(k, target, velocity, gizmos);
    Steering::Velocity(velocity)
}

/// The target as a point and the requested velocity as an arrow from the agent.
fn push_gizmos(k: &Kinematics, target: Vec3, velocity: Vec3, gizmos: &mut Gizmos) {
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Target, GizmoShape::Point(target));
        gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(k.position, k.position + velocity));
    }
}

#[cfg(test)]
mod tests {
    use super::heading_atan2;

    #[test]
    fn heading_atan2_is_within_1e6_of_libm_all_round() {
        let mut worst = 0.0f32;
        for i in 0..20_000 {
            let angle = i as f32 / 20_000.0 * std::f32::consts::TAU - std::f32::consts::PI;
            for radius in [1e-3f32, 1.0, 150.0, 1e5] {
                let (y, x) = (angle.sin() * radius, angle.cos() * radius);
                worst = worst.max((heading_atan2(y, x) - y.atan2(x)).abs());
            }
        }
        assert!(worst < 1e-6, "worst error {worst}");
    }

    #[test]
    fn heading_atan2_x4_equals_heading_atan2_bit_for_bit() {
        use crate::geometry::lanes::{f32x4, get};
        let special = [0.0, -0.0, 1.0, -1.0, 1e-45, -1e-45, 3e38, f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
        let mut pairs: Vec<(f32, f32)> =
            special.iter().flat_map(|&y| special.iter().map(move |&x| (y, x))).collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let (y, x) = (f32::from_bits(state as u32), f32::from_bits((state >> 32) as u32));
            // Random bit patterns (every sign, size and NaN), then ordinary headings.
            pairs.push(if i % 2 == 0 { (y, x) } else { ((i as f32 * 0.37).sin(), (i as f32 * 0.37).cos()) });
        }
        for quad in pairs.chunks_exact(4) {
            let ys = f32x4::new([quad[0].0, quad[1].0, quad[2].0, quad[3].0]);
            let xs = f32x4::new([quad[0].1, quad[1].1, quad[2].1, quad[3].1]);
            let lanes = super::heading_atan2_x4(ys, xs);
            for (lane, &(y, x)) in quad.iter().enumerate() {
                assert_eq!(get(lanes, lane).to_bits(), heading_atan2(y, x).to_bits(), "atan2({y}, {x})");
            }
        }
    }

    #[test]
    fn branch_free_heading_equals_the_plain_one_bit_for_bit() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for i in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let y = f32::from_bits(state as u32);
            let x = f32::from_bits((state >> 32) as u32);
            // Random bit patterns (every sign, size and NaN), then ordinary headings.
            let (y, x) = if i % 2 == 0 { (y, x) } else { ((i as f32 * 0.37).sin(), (i as f32 * 0.37).cos()) };
            let (fast, plain) = (heading_atan2(y, x), super::heading_atan2_plain(y, x));
            assert!(
                fast.to_bits() == plain.to_bits() || (fast.is_nan() && plain.is_nan()),
                "{y} {x}: {fast} {plain}"
            );
        }
    }

    #[test]
    fn heading_atan2_is_exact_on_axes_and_nan_stays_nan() {
        use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
        assert_eq!(heading_atan2(0.0, 1.0), 0.0);
        assert_eq!(heading_atan2(1.0, 0.0), FRAC_PI_2);
        assert_eq!(heading_atan2(-1.0, 0.0), -FRAC_PI_2);
        assert_eq!(heading_atan2(0.0, -1.0), PI);
        assert!((heading_atan2(1.0, 1.0) - FRAC_PI_4).abs() < 2e-6);
        assert!(heading_atan2(f32::NAN, 1.0).is_nan());
    }
}
