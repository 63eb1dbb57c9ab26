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
    let m = origin - center;
    let c = m.length_squared() - radius * radius;
    if c <= 0.0 {
        return Some(0.0);
    }
    let a = dir.length_squared();
    if a <= f32::EPSILON {
        return None;
    }
    let b = m.dot(dir);
    if b >= 0.0 {
        // Outside and moving away (or tangentially).
        return None;
    }
    let discriminant = b * b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    let toi = (-b - discriminant.sqrt()) / a;
    Some(toi.max(0.0))
}

/// Sphere of `radius` swept from `from` to `to` against the sphere (`center`, `obstacle_radius`).
pub fn cast_sphere_sphere(
    from: Vec3,
    to: Vec3,
    radius: f32,
    center: Vec3,
    obstacle_radius: f32,
) -> Option<SphereCastHit> {
    let inflated = (radius + obstacle_radius).max(0.0);
    let dir = to - from;
    let toi = ray_toi_with_sphere(from, dir, center, inflated)?;
    if toi > 1.0 {
        return None;
    }
    let started_inside = (from - center).length_squared() <= inflated * inflated;
    let point = from + dir * toi;
    let normal = (point - center).try_normalize().unwrap_or_else(|| {
        // The start is the centre itself: any direction will do; prefer against the cast.
        (-dir).try_normalize().unwrap_or(Vec3::X)
    });
    Some(SphereCastHit { toi, point, normal, started_inside })
}

/// Closest point of segment [a, b] to `point` and its parameter in [0, 1] (0 for a zero-length segment).
pub fn project_point_segment(point: Vec3, a: Vec3, b: Vec3) -> (Vec3, f32) {
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq <= f32::EPSILON {
        return (a, 0.0);
    }
    let t = ((point - a).dot(ab) / len_sq).clamp(0.0, 1.0);
    (a + ab * t, t)
}

/// Shortest distance between segment [a, b] and a point (the independent check planners and
/// tests use: a swept sphere of radius r clears a sphere (c, R) iff this distance ≥ r + R).
pub fn distance_point_segment(point: Vec3, a: Vec3, b: Vec3) -> f32 {
    let (closest, _) = project_point_segment(point, a, b);
    closest.distance(point)
}

/// A sphere obstacle (a circle when z = 0 in 2D scenes).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sphere {
    /// Centre.
    pub center: Vec3,
    /// Radius in world units.
    pub radius: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ray_hits_unit_sphere_head_on() {
        let toi = ray_toi_with_sphere(Vec3::new(-5.0, 0.0, 0.0), Vec3::X, Vec3::ZERO, 1.0);
        assert_eq!(toi, Some(4.0));
    }

    #[test]
    fn ray_starting_inside_reports_zero() {
        assert_eq!(ray_toi_with_sphere(Vec3::ZERO, Vec3::X, Vec3::ZERO, 1.0), Some(0.0));
    }

    #[test]
    fn ray_moving_away_misses() {
        assert_eq!(ray_toi_with_sphere(Vec3::new(5.0, 0.0, 0.0), Vec3::X, Vec3::ZERO, 1.0), None);
    }

    #[test]
    fn sphere_cast_is_ray_against_inflated_sphere() {
        let hit =
            cast_sphere_sphere(Vec3::new(-10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 0.0), 1.0, Vec3::ZERO, 2.0)
                .unwrap();
        assert!((hit.toi - 0.35).abs() < 1e-6);
        assert!((hit.point - Vec3::new(-3.0, 0.0, 0.0)).length() < 1e-5);
        assert!((hit.normal - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-5);
        assert!(!hit.started_inside);
    }

    #[test]
    fn sphere_cast_grazing_past_misses() {
        let hit =
            cast_sphere_sphere(Vec3::new(-10.0, 3.01, 0.0), Vec3::new(10.0, 3.01, 0.0), 1.0, Vec3::ZERO, 2.0);
        assert_eq!(hit, None);
    }

    #[test]
    fn sphere_cast_stopping_short_misses() {
        let hit =
            cast_sphere_sphere(Vec3::new(-10.0, 0.0, 0.0), Vec3::new(-3.5, 0.0, 0.0), 1.0, Vec3::ZERO, 2.0);
        assert_eq!(hit, None);
    }

    #[test]
    fn sphere_cast_from_the_centre_has_a_unit_normal() {
        let hit = cast_sphere_sphere(Vec3::ZERO, Vec3::X, 1.0, Vec3::ZERO, 2.0).unwrap();
        assert!(hit.started_inside);
        assert_eq!(hit.toi, 0.0);
        assert!((hit.normal.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn projection_clamps_to_segment_ends_and_handles_zero_length() {
        let (p, t) = project_point_segment(Vec3::new(-3.0, 1.0, 0.0), Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0));
        assert_eq!((p, t), (Vec3::ZERO, 0.0));
        let (p, t) = project_point_segment(Vec3::new(1.0, 1.0, 0.0), Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0));
        assert_eq!((p, t), (Vec3::new(1.0, 0.0, 0.0), 0.5));
        let (p, t) = project_point_segment(Vec3::ONE, Vec3::ZERO, Vec3::ZERO);
        assert_eq!((p, t), (Vec3::ZERO, 0.0));
        assert_eq!(
            distance_point_segment(Vec3::new(1.0, 1.0, 0.0), Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)),
            1.0
        );
    }
}
