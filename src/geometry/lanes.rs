//! Four of a kind in the lanes of one SIMD register: what the predictive-following kernel
//! (`bench::PredictiveBench`) uses to step four agents with each instruction.
//!
//! Every operation here is the scalar one done lane by lane, with the same IEEE operations in
//! the same order (additions, multiplications, divisions and square roots are exact in SIMD as
//! they are in scalar code; nothing is fused or approximated), so a lane gives the same bits as
//! the scalar code it mirrors: [`Vec3x4::dot`] is glam's `Vec3::dot`, [`Vec3x4::clamp_length_max`]
//! glam's `clamp_length_max`, [`max_num`] and [`min_num`] `f32::max` and `f32::min` (NaN
//! included), each tested against the scalar version on special values below. Masks are
//! `f32x4` lanes of all ones (true) or all zeros (false), as SSE comparisons give them.
//! The `wide` crate supplies the registers: SSE2 on any x86-64, without target features.
//!
//! The planar flock has lane vectors of its own (`V2` in `behaviours/flocking/lanes.rs`), kept
//! apart from [`Vec3x4`] on purpose. They differ in dimension: the flock runs on `Vec2`, and a 3D
//! type with a zero `z` would carry a register of zeros through every operation and add `z·z'`
//! after glam's 2D `dot` (the same bits for a length, not always for the dot of two vectors:
//! `-0 + 0` is `+0`). And they differ in width: four lanes here, which [`PathCursorX4`], the
//! polyline's four-point projections and the predictive kernel's groups of four agents are built
//! around; eight there (`f32x8`), to run eight boids' chains of square roots and divisions side by
//! side. What the two could share is a handful of one-line lane-wise operations (`clamp_length_max`
//! is the same formula in both), and sharing them would take a trait over `wide`'s register types:
//! more code than it saves. Both are tested bit for bit against glam, so if glam's formulas change,
//! both tests say so.

use glam::Vec3;
pub use wide::f32x4;
use wide::u32x4;

use super::{PathCursor, PathProjection};

/// How many lanes.
pub const LANES: usize = 4;

/// A mask with lane `i` set where bit `i` of `bits` is (in registers: a vector built through
/// memory from four scalars stalls the store forwarding).
#[inline(always)]
pub fn mask_from_bits(bits: u32) -> f32x4 {
    let lane_bits = u32x4::new([1, 2, 4, 8]);
    f32x4::from_bits((u32x4::splat(bits) & lane_bits).simd_eq(lane_bits))
}

/// Bit `i` set where lane `i` of `mask` is.
#[inline(always)]
pub fn bits(mask: f32x4) -> u32 {
    mask.to_bitmask()
}

/// `if mask { a } else { b }` lane by lane.
#[inline(always)]
pub fn select(mask: f32x4, a: f32x4, b: f32x4) -> f32x4 {
    mask.select(a, b)
}

/// `f32::max` lane by lane: the larger, ties to `a`, a NaN operand gives the other one.
#[inline(always)]
pub fn max_num(a: f32x4, b: f32x4) -> f32x4 {
    select(b.simd_gt(a) | a.is_nan(), b, a)
}

/// `f32::min` lane by lane: the smaller, ties to `a`, a NaN operand gives the other one.
#[inline(always)]
pub fn min_num(a: f32x4, b: f32x4) -> f32x4 {
    select(b.simd_lt(a) | a.is_nan(), b, a)
}

/// Four `Vec3`s, one per lane. (The planar flock's eight `Vec2`s in lanes are another type on
/// purpose: see the module's documentation.)
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3x4 {
    /// The x coordinates.
    pub x: f32x4,
    /// The y coordinates.
    pub y: f32x4,
    /// The z coordinates.
    pub z: f32x4,
}

impl Vec3x4 {
    /// Four zero vectors.
    pub const ZERO: Vec3x4 = Vec3x4 { x: f32x4::ZERO, y: f32x4::ZERO, z: f32x4::ZERO };

    /// The same vector in every lane.
    #[inline(always)]
    pub fn splat(v: Vec3) -> Vec3x4 {
        Vec3x4 { x: f32x4::splat(v.x), y: f32x4::splat(v.y), z: f32x4::splat(v.z) }
    }

    /// Lane `i` is `vectors[i]`.
    #[inline(always)]
    pub fn from_vecs(vectors: [Vec3; LANES]) -> Vec3x4 {
        Vec3x4 {
            x: f32x4::new(vectors.map(|v| v.x)),
            y: f32x4::new(vectors.map(|v| v.y)),
            z: f32x4::new(vectors.map(|v| v.z)),
        }
    }

    /// Lane `lane` (0..4) as a `Vec3`.
    #[inline(always)]
    pub fn lane(&self, lane: usize) -> Vec3 {
        let at = |v: &f32x4| v.as_array().get(lane).copied().unwrap_or(0.0);
        Vec3::new(at(&self.x), at(&self.y), at(&self.z))
    }

    /// Sets lane `lane` (0..4) to `v`.
    #[inline(always)]
    pub fn set_lane(&mut self, lane: usize, v: Vec3) {
        set(&mut self.x, lane, v.x);
        set(&mut self.y, lane, v.y);
        set(&mut self.z, lane, v.z);
    }

    /// glam's `Vec3::dot`: `(x·x' + y·y') + z·z'`.
    #[inline(always)]
    pub fn dot(self, rhs: Vec3x4) -> f32x4 {
        self.x * rhs.x + self.y * rhs.y + self.z * rhs.z
    }

    /// glam's `length_squared`.
    #[inline(always)]
    pub fn length_squared(self) -> f32x4 {
        self.dot(self)
    }

    /// Every coordinate times `s` (glam's `Vec3 * f32`).
    #[inline(always)]
    pub fn scale(self, s: f32x4) -> Vec3x4 {
        Vec3x4 { x: self.x * s, y: self.y * s, z: self.z * s }
    }

    /// Every coordinate over `s` (glam's `Vec3 / f32`).
    #[inline(always)]
    pub fn over(self, s: f32x4) -> Vec3x4 {
        Vec3x4 { x: self.x / s, y: self.y / s, z: self.z / s }
    }

    /// glam's `clamp_length_max`: `max · (v / |v|)` where `|v|² > max²`, else `v`.
    #[inline(always)]
    pub fn clamp_length_max(self, max: f32x4) -> Vec3x4 {
        let length_sq = self.length_squared();
        let clamped = self.over(length_sq.sqrt());
        let clamped = Vec3x4 { x: max * clamped.x, y: max * clamped.y, z: max * clamped.z };
        Vec3x4::select(length_sq.simd_gt(max * max), clamped, self)
    }

    /// Where all three coordinates are finite (glam's `is_finite`).
    #[inline(always)]
    pub fn is_finite(self) -> f32x4 {
        self.x.is_finite() & self.y.is_finite() & self.z.is_finite()
    }

    /// Where the vector is zero (glam's `== Vec3::ZERO`: -0 counts as 0).
    #[inline(always)]
    pub fn is_zero(self) -> f32x4 {
        self.x.simd_eq(f32x4::ZERO) & self.y.simd_eq(f32x4::ZERO) & self.z.simd_eq(f32x4::ZERO)
    }

    /// `if mask { a } else { b }` lane by lane.
    #[inline(always)]
    pub fn select(mask: f32x4, a: Vec3x4, b: Vec3x4) -> Vec3x4 {
        Vec3x4 { x: select(mask, a.x, b.x), y: select(mask, a.y, b.y), z: select(mask, a.z, b.z) }
    }
}

impl std::ops::Add for Vec3x4 {
    type Output = Vec3x4;
    #[inline(always)]
    fn add(self, rhs: Vec3x4) -> Vec3x4 {
        Vec3x4 { x: self.x + rhs.x, y: self.y + rhs.y, z: self.z + rhs.z }
    }
}

impl std::ops::Sub for Vec3x4 {
    type Output = Vec3x4;
    #[inline(always)]
    fn sub(self, rhs: Vec3x4) -> Vec3x4 {
        Vec3x4 { x: self.x - rhs.x, y: self.y - rhs.y, z: self.z - rhs.z }
    }
}

/// Sets lane `lane` (0..4) of `v` to `value` (nothing for another `lane`), in registers.
#[inline(always)]
pub fn set(v: &mut f32x4, lane: usize, value: f32) {
    let lane_bit = u32::try_from(lane).ok().and_then(|lane| 1u32.checked_shl(lane)).unwrap_or(0);
    *v = select(mask_from_bits(lane_bit), f32x4::splat(value), *v);
}

/// Lane `lane` (0..4) of `v`.
#[inline(always)]
pub fn get(v: f32x4, lane: usize) -> f32 {
    v.as_array().get(lane).copied().unwrap_or(0.0)
}

/// Four [`PathCursor`]s, one per lane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathCursorX4 {
    /// Each cursor's segment.
    pub segment_idx: [usize; LANES],
    /// Each cursor's arc length.
    pub distance_along: f32x4,
    /// Whether each cursor has had its first projection.
    pub initialised: [bool; LANES],
}

impl PathCursorX4 {
    /// Lane `lane` (0..4) as a cursor.
    #[inline(always)]
    pub fn lane(&self, lane: usize) -> PathCursor {
        PathCursor {
            segment_idx: self.segment_idx.get(lane).copied().unwrap_or(0),
            distance_along: get(self.distance_along, lane),
            initialised: self.initialised.get(lane).copied().unwrap_or(false),
        }
    }

    /// Sets lane `lane` (0..4) to `cursor`.
    #[inline(always)]
    pub fn set_lane(&mut self, lane: usize, cursor: PathCursor) {
        if let (Some(segment_idx), Some(initialised)) =
            (self.segment_idx.get_mut(lane), self.initialised.get_mut(lane))
        {
            *segment_idx = cursor.segment_idx;
            *initialised = cursor.initialised;
            set(&mut self.distance_along, lane, cursor.distance_along);
        }
    }
}

/// Four [`PathProjection`]s, one per lane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathProjectionX4 {
    /// Each projection's segment.
    pub segment_idx: [usize; LANES],
    /// Distance from each segment's first point to the closest point.
    pub along_segment: f32x4,
    /// Arc length from the path's start to each closest point.
    pub distance_along: f32x4,
    /// The closest points.
    pub point: Vec3x4,
    /// Distances from the query points to them.
    pub distance: f32x4,
}

impl PathProjectionX4 {
    /// Lane `lane` (0..4) as a projection.
    #[inline(always)]
    pub fn lane(&self, lane: usize) -> PathProjection {
        PathProjection {
            segment_idx: self.segment_idx.get(lane).copied().unwrap_or(0),
            along_segment: get(self.along_segment, lane),
            distance_along: get(self.distance_along, lane),
            point: self.point.lane(lane),
            distance: get(self.distance, lane),
        }
    }

    /// Sets lane `lane` (0..4) to `projection`.
    #[inline(always)]
    pub fn set_lane(&mut self, lane: usize, projection: PathProjection) {
        if let Some(segment_idx) = self.segment_idx.get_mut(lane) {
            *segment_idx = projection.segment_idx;
        }
        set(&mut self.along_segment, lane, projection.along_segment);
        set(&mut self.distance_along, lane, projection.distance_along);
        self.point.set_lane(lane, projection.point);
        set(&mut self.distance, lane, projection.distance);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;

    const SPECIAL: [f32; 10] =
        [0.0, -0.0, 1.0, -1.0, 2.5, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e-45, -3e38];

    #[test]
    fn max_num_and_min_num_equal_f32_max_and_min_bit_for_bit_on_special_values() {
        for a in SPECIAL {
            for b in SPECIAL {
                let (lane_a, lane_b) = (f32x4::splat(a), f32x4::splat(b));
                let max = black_box(a).max(black_box(b));
                let min = black_box(a).min(black_box(b));
                assert_eq!(get(max_num(lane_a, lane_b), 0).to_bits(), max.to_bits(), "max({a}, {b})");
                assert_eq!(get(min_num(lane_a, lane_b), 0).to_bits(), min.to_bits(), "min({a}, {b})");
            }
        }
    }

    #[test]
    fn lane_vector_arithmetic_equals_glam_bit_for_bit() {
        let vectors = [
            Vec3::new(3.0, -4.0, 0.0),
            Vec3::new(1e-20, 2e-20, -0.0),
            Vec3::new(f32::NAN, 1.0, 2.0),
            Vec3::new(f32::INFINITY, 0.0, 0.0),
            Vec3::new(0.1, 0.2, 0.3),
            Vec3::new(-7.5, 1e30, 1e30),
        ];
        for max in [0.0, 1.0, 5.0, 400.0, f32::INFINITY] {
            for quad in vectors.windows(LANES) {
                let quad: [Vec3; LANES] = [quad[0], quad[1], quad[2], quad[3]];
                let lanes = Vec3x4::from_vecs(quad);
                let other = Vec3x4::from_vecs([quad[3], quad[0], quad[1], quad[2]]);
                for (lane, &v) in quad.iter().enumerate() {
                    let w = other.lane(lane);
                    let same =
                        |a: Vec3, b: Vec3| a.to_array().map(f32::to_bits) == b.to_array().map(f32::to_bits);
                    assert!(same(
                        lanes.clamp_length_max(f32x4::splat(max)).lane(lane),
                        v.clamp_length_max(max)
                    ));
                    assert_eq!(get(lanes.dot(other), lane).to_bits(), v.dot(w).to_bits());
                    assert!(same((lanes - other).over(f32x4::splat(max)).lane(lane), (v - w) / max));
                    assert_eq!(get(lanes.is_finite(), lane) != 0.0, v.is_finite());
                    assert_eq!(get(lanes.is_zero(), lane).is_nan(), v == Vec3::ZERO);
                }
            }
        }
    }

    #[test]
    fn masks_round_trip_through_bits() {
        for b in 0..16 {
            assert_eq!(bits(mask_from_bits(b)), b);
        }
    }
}
