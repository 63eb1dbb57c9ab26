//! The vector arithmetic the crowd kernels are written over, so that one source serves the
//! simulation's agents (3D, `Vec3`) and a flock that lives in a plane (2D, `Vec2`).
//!
//! # Motivation
//! A flock on the ground does a third of its floating-point work on zeros: every offset, dot
//! product and normalisation carries a `z` that is 0. The flocking benchmark's planar flock runs
//! the same functions over `Vec2` (`bench::FlockBench<Vec2>`), without a second copy of the
//! rules.
//!
//! # Why the planar results are the 3D ones
//! With every `z` equal to 0, a 3D operation's `x` and `y` are the 2D operation's, bit for bit:
//! lane-wise arithmetic does not look at `z`, and a squared length or dot product adds a `z`
//! term of ±0 last (`(x·x + y·y) + z·z`), which leaves a non-zero sum as it is and can only
//! change the sign of a zero sum, which no comparison, square root or normalisation here can
//! see. `bench` tests the planar kernel against the 3D oracle step bit for bit.

use super::flocking::{self, Tail, TailOut, TailShared};
use glam::{Vec2, Vec3};
use std::ops::{Add, AddAssign, Div, Mul, Sub, SubAssign};

/// A 2D or 3D vector as the crowd kernels use it (glam's own operations, nothing re-derived).
pub trait SteerVector:
    Copy
    + PartialEq
    + std::fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<f32, Output = Self>
    + Div<f32, Output = Self>
    + AddAssign
    + SubAssign
    + Send
    + Sync
    + 'static
{
    /// The zero vector.
    const ZERO: Self;
    /// Dot product.
    fn dot(self, other: Self) -> f32;
    /// Squared length.
    fn length_squared(self) -> f32;
    /// Unit vector, or zero when it has none.
    fn normalize_or_zero(self) -> Self;
    /// The vector shortened to at most `max`.
    fn clamp_length_max(self, max: f32) -> Self;
    /// Whether every component is finite.
    fn is_finite(self) -> bool;
    /// The first component.
    fn x(self) -> f32;
    /// The second component.
    fn y(self) -> f32;
    /// The vector `(x, y)` (and `z` = 0).
    fn from_xy(x: f32, y: f32) -> Self;
    /// The same vector with `x` and `y` replaced (`z` kept).
    fn with_xy(self, x: f32, y: f32) -> Self;
    /// As a 3D vector (`z` = 0 for a 2D one).
    fn to_vec3(self) -> Vec3;
    /// From a 3D vector (`z` dropped for a 2D one).
    fn from_vec3(v: Vec3) -> Self;
    /// The slice itself when it already is 3D vectors (what the neighbour grid indexes).
    fn as_vec3s(slice: &[Self]) -> Option<&[Vec3]>;
    /// [`flocking::finish_tails`]: `outs[i] = tails[i].finish(shared)`, one boid at a time
    /// unless the vector type has a faster way with the same bits (2D: eight boids in SIMD
    /// lanes, [`flocking::lanes`]).
    #[inline(always)]
    fn finish_flock_tails(tails: &[Tail<Self>], outs: &mut [TailOut<Self>], shared: &TailShared) {
        for (tail, out) in tails.iter().zip(outs) {
            *out = tail.finish(shared);
        }
    }
}

/// The operations both vector types have under the same names in glam.
macro_rules! glams_own {
    ($ty:ty) => {
        const ZERO: Self = <$ty>::ZERO;
        #[inline(always)]
        fn dot(self, other: Self) -> f32 {
            <$ty>::dot(self, other)
        }
        #[inline(always)]
        fn length_squared(self) -> f32 {
            <$ty>::length_squared(self)
        }
        #[inline(always)]
        fn normalize_or_zero(self) -> Self {
            <$ty>::normalize_or_zero(self)
        }
        #[inline(always)]
        fn clamp_length_max(self, max: f32) -> Self {
            <$ty>::clamp_length_max(self, max)
        }
        #[inline(always)]
        fn is_finite(self) -> bool {
            <$ty>::is_finite(self)
        }
        #[inline(always)]
        fn x(self) -> f32 {
            self.x
        }
        #[inline(always)]
        fn y(self) -> f32 {
            self.y
        }
    };
}

impl SteerVector for Vec3 {
    glams_own!(Vec3);
    #[inline(always)]
    fn from_xy(x: f32, y: f32) -> Self {
        Vec3::new(x, y, 0.0)
    }
    #[inline(always)]
    fn with_xy(self, x: f32, y: f32) -> Self {
        Vec3::new(x, y, self.z)
    }
    #[inline(always)]
    fn to_vec3(self) -> Vec3 {
        self
    }
    #[inline(always)]
    fn from_vec3(v: Vec3) -> Self {
        v
    }
    #[inline(always)]
    fn as_vec3s(slice: &[Self]) -> Option<&[Vec3]> {
        Some(slice)
    }
}

impl SteerVector for Vec2 {
    glams_own!(Vec2);
    #[inline(always)]
    fn from_xy(x: f32, y: f32) -> Self {
        Vec2::new(x, y)
    }
    #[inline(always)]
    fn with_xy(self, x: f32, y: f32) -> Self {
        Vec2::new(x, y)
    }
    #[inline(always)]
    fn to_vec3(self) -> Vec3 {
        self.extend(0.0)
    }
    #[inline(always)]
    fn from_vec3(v: Vec3) -> Self {
        v.truncate()
    }
    #[inline(always)]
    fn as_vec3s(_slice: &[Self]) -> Option<&[Vec3]> {
        None
    }
    #[inline(always)]
    fn finish_flock_tails(tails: &[Tail<Self>], outs: &mut [TailOut<Self>], shared: &TailShared) {
        flocking::lanes::finish_tails(tails, outs, shared);
    }
}

/// The unit direction an agent faces: its velocity's, or along its orientation when it stands
/// still (what the view cones and wander look along).
#[inline(always)]
pub fn facing<V: SteerVector>(velocity: V, orientation: f32) -> V {
    facing_heading(velocity.normalize_or_zero(), orientation)
}

/// [`facing`] from the velocity's `normalize_or_zero()` (`heading`), for a caller that has it
/// already (the flocking benchmark, whose headings array holds it): the same bits.
#[inline(always)]
pub fn facing_heading<V: SteerVector>(heading: V, orientation: f32) -> V {
    if heading == V::ZERO {
        V::from_xy(orientation.cos(), orientation.sin())
    } else {
        heading
    }
}
