//! Closed-form casts against spheres (written by hand: exact and short; parry is on another glam).
//!
//! A sphere cast of radius r from a to b against a sphere (c, R) is a ray cast against the sphere
//! (c, R + r). When the cast starts inside the inflated sphere it reports a hit at toi 0 with the
//! normal pointing from the centre to the start.

use glam::Vec3;

/// Where a cast first touches an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereCastHit {
    /// Fraction of the cast segment travelled before contact, in [0, 1].
    pub toi: f32,
    /// Centre of the moving sphere at contact.
    pub point: Vec3,
    /// Unit normal of the inflated obstacle at contact (from its centre outward).
    pub normal: Vec3,
    /// True when the cast started already overlapping the obstacle.
    pub started_inside: bool,
}

/// Ray from `origin` along `dir` (any length; toi is in units of `dir`) against a sphere;
/// returns the smallest toi ≥ 0 of entry, 0 if the origin is inside, None on a miss.
pub fn ray_toi_with_sphere(origin: Vec3, dir: Vec3, center: Vec3, radius: f32) -> Option<f32> {
    let _ = (origin, dir, center, radius);
    todo!("geometry helper")
}

/// Sphere of `radius` swept from `from` to `to` against the sphere (`center`, `obstacle_radius`).
pub fn cast_sphere_sphere(
    from: Vec3,
    to: Vec3,
    radius: f32,
    center: Vec3,
    obstacle_radius: f32,
) -> Option<SphereCastHit> {
    let _ = (from, to, radius, center, obstacle_radius);
    todo!("geometry helper")
}

/// Closest point of segment [a, b] to `point` and its parameter in [0, 1] (0 for a zero-length segment).
pub fn project_point_segment(point: Vec3, a: Vec3, b: Vec3) -> (Vec3, f32) {
    let _ = (point, a, b);
    todo!("geometry helper")
}

/// A sphere obstacle (a circle when z = 0 in 2D scenes).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sphere {
    /// Centre.
    pub center: Vec3,
    /// Radius in world units.
    pub radius: f32,
}
