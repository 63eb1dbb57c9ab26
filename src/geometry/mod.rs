//! Pure geometry: polyline paths with coherent projection, parametric curves, and closed-form
//! casts against spheres. No window, no clock; everything here is deterministic `f32` math on
//! glam vectors (z up; 2D content lives on z = 0).

pub mod cast;
pub mod curve;
pub mod lanes;
pub mod polyline;

pub use cast::{cast_sphere_sphere, project_point_segment, ray_toi_with_sphere, Sphere, SphereCastHit};
pub use curve::{Curve, CurveError, CurveKind};
pub use polyline::{PathCursor, PathProjection, Polyline};

/// `a.max(b)` for an `a` that is never NaN (`b` may be): one comparison, where `f32::max`
/// compiles to five or more instructions to give a NaN `a` the other operand. The same bits
/// as `a.max(b)` for every such pair, ties (±0 included) going to `a` as `f32::max` does on this
/// target (`max_and_min_of_a_number_equal_the_standard_ones_bit_for_bit`). Used on the
/// per-agent path of every step; what it saved is measured at its call sites' comments.
#[inline(always)]
pub fn max_of_number(a: f32, b: f32) -> f32 {
    if b > a {
        b
    } else {
        a
    }
}

/// `a.min(b)` for an `a` that is never NaN (`b` may be), as [`max_of_number`].
#[inline(always)]
pub fn min_of_number(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_and_min_of_a_number_equal_the_standard_ones_bit_for_bit() {
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.5,
            f32::MIN_POSITIVE,
            -1e-45,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
        ];
        // Through black_box, so the standard ones are compiled as they are in a step, not folded.
        let standard_max = |a: f32, b: f32| std::hint::black_box(a).max(std::hint::black_box(b));
        let standard_min = |a: f32, b: f32| std::hint::black_box(a).min(std::hint::black_box(b));
        for &a in specials.iter().filter(|a| !a.is_nan()) {
            for &b in &specials {
                let (a, b) = (std::hint::black_box(a), std::hint::black_box(b));
                assert_eq!(max_of_number(a, b).to_bits(), standard_max(a, b).to_bits(), "max({a}, {b})");
                assert_eq!(min_of_number(a, b).to_bits(), standard_min(a, b).to_bits(), "min({a}, {b})");
            }
        }
    }
}
