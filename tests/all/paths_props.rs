//! Property tests of polyline paths: random paths, degenerate ones included (no points, one
//! point, coincident points, zero-length segments), never give NaN; the global projection is the
//! closest point; coherent projection stays inside its window and is the closest point there;
//! `point_at_distance` inverts the projection's arc length.

use glam::Vec3;
use proptest::prelude::*;
use steerlab::geometry::{PathCursor, PathProjection, Polyline};

/// Points on a coarse grid (many coincident points and zero-length segments) or anywhere.
fn points() -> impl Strategy<Value = Vec<Vec3>> {
    let grid = prop::collection::vec(
        (-3i32..=3, -3i32..=3).prop_map(|(x, y)| Vec3::new(x as f32 * 40.0, y as f32 * 40.0, 0.0)),
        0..8,
    );
    let free = prop::collection::vec(
        (-200.0f32..200.0, -200.0f32..200.0, -20.0f32..20.0).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
        0..12,
    );
    prop_oneof![grid, free]
}

fn path() -> impl Strategy<Value = Polyline> {
    (points(), any::<bool>()).prop_map(|(points, closed)| Polyline::new(points, closed))
}

fn query() -> impl Strategy<Value = Vec3> {
    (-300.0f32..300.0, -300.0f32..300.0, -30.0f32..30.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn assert_finite(projection: &PathProjection) {
    assert!(projection.along_segment.is_finite(), "{projection:?}");
    assert!(projection.distance_along.is_finite(), "{projection:?}");
    assert!(projection.point.is_finite(), "{projection:?}");
    assert!(projection.distance.is_finite(), "{projection:?}");
}

/// Arc lengths returned on a closed path lie in [0, length) (0 for a zero-length loop).
fn assert_in_range(path: &Polyline, distance_along: f32) {
    let length = path.length();
    if path.is_closed() && length > 0.0 {
        assert!((0.0..length).contains(&distance_along), "{distance_along} of {length}");
    } else {
        assert!((0.0..=length).contains(&distance_along), "{distance_along} of {length}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_method_gives_nan(path in path(), q in query(), distance in -2000.0f32..2000.0,
                           segment in 0usize..20) {
        prop_assert!(path.length().is_finite() && path.length() >= 0.0);
        prop_assert!(path.point_at_distance(distance).is_finite());
        let direction = path.direction_at_distance(distance);
        prop_assert!(direction.is_finite());
        prop_assert!(direction == Vec3::ZERO || (direction.length() - 1.0).abs() < 1e-4);
        prop_assert!(path.segment_direction(segment).is_finite());
        let global = path.project_point(q);
        assert_finite(&global);
        assert_in_range(&path, global.distance_along);
        let on_segment = path.project_point_segment(q, segment);
        assert_finite(&on_segment);
        assert_in_range(&path, on_segment.distance_along);
        let mut cursor = PathCursor::default();
        for step in 0..3 {
            let moved = q + Vec3::new(step as f32 * 17.0, -(step as f32) * 11.0, 0.0);
            let coherent = path.project_point_local(moved, &mut cursor, 50.0);
            assert_finite(&coherent);
            assert_in_range(&path, coherent.distance_along);
            let tracked = path.project_point_local(moved, &mut cursor, 50.0);
            assert_finite(&tracked);
        }
        // A cursor that names a segment the path does not have is relocated, not trusted.
        let mut wild = PathCursor { segment_idx: segment * 7, distance_along: distance, initialised: true };
        assert_finite(&path.project_point_local(q, &mut wild, 50.0));
    }

    #[test]
    fn global_projection_is_no_farther_than_any_vertex(path in path(), q in query()) {
        let projection = path.project_point(q);
        for vertex in path.points() {
            prop_assert!(projection.distance <= vertex.distance(q) + 1e-3,
                "{} > {}", projection.distance, vertex.distance(q));
        }
        prop_assert!((projection.point.distance(q) - projection.distance).abs() < 1e-3);
    }

    #[test]
    fn point_at_projected_distance_is_the_projected_point(path in path(), q in query()) {
        let projection = path.project_point(q);
        let point = path.point_at_distance(projection.distance_along);
        prop_assert!(point.distance(projection.point) < 1e-3, "{point} vs {}", projection.point);
        let on_segment = path.project_point_segment(q, 1);
        let point = path.point_at_distance(on_segment.distance_along);
        prop_assert!(point.distance(on_segment.point) < 1e-3, "{point} vs {}", on_segment.point);
    }

    #[test]
    fn hinted_lookup_matches_the_plain_lookups(path in path(), distance in -2000.0f32..2000.0, hint in 0usize..40) {
        let (point, direction) = path.point_and_direction_at_distance(distance, hint);
        prop_assert_eq!(point, path.point_at_distance(distance));
        prop_assert_eq!(direction, path.direction_at_distance(distance));
    }

    #[test]
    fn closed_arc_lengths_wrap_into_range(points in points(), distance in -5000.0f32..5000.0) {
        let path = Polyline::new(points, true);
        let length = path.length();
        if length > 0.0 {
            let here = path.point_at_distance(distance);
            let lap_later = path.point_at_distance(distance + length);
            prop_assert!(here.distance(lap_later) < 1e-2);
        }
    }
}
