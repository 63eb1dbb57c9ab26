//! Local-descent projection (`Polyline::project_point_local`): the O(1) tracker used by
//! predictive following and by the path metrics.

use glam::Vec3;
use proptest::prelude::*;
use steerlab::geometry::{PathCursor, Polyline};

fn v(x: f32, y: f32) -> Vec3 {
    Vec3::new(x, y, 0.0)
}

fn hairpin() -> Polyline {
    Polyline::new(vec![v(0.0, 0.0), v(400.0, 0.0), v(400.0, 60.0), v(0.0, 60.0)], false)
}

#[test]
fn local_projection_keeps_the_hairpin_leg_it_is_on() {
    let path = hairpin();
    let mut cursor = PathCursor::default();
    path.project_point_local(v(100.0, 5.0), &mut cursor, 100.0);
    // Walk along leg 0 at y = 35: nearer leg 2 (y = 60) but it must stay on leg 0, and near the
    // end it may move onto the connecting segment (which is then nearest) but never to leg 2.
    for x in (100..=395).step_by(5) {
        let projection = path.project_point_local(v(x as f32, 35.0), &mut cursor, 100.0);
        if x < 365 {
            assert_eq!(projection.segment_idx, 0, "left leg 0 at x = {x}");
            assert!((projection.point - v(x as f32, 0.0)).length() < 1e-3);
        } else {
            assert_ne!(projection.segment_idx, 2, "jumped to the other leg at x = {x}");
        }
    }
}

#[test]
fn local_projection_follows_the_inside_of_a_bend_before_the_corner() {
    let path = hairpin();
    let mut cursor = PathCursor::default();
    path.project_point_local(v(380.0, 5.0), &mut cursor, 100.0);
    // Inside the turn, nearer the connecting segment than leg 0 although not past x = 400.
    let projection = path.project_point_local(v(390.0, 25.0), &mut cursor, 100.0);
    assert_eq!(projection.segment_idx, 1);
    assert!((projection.distance - 10.0).abs() < 1e-3);
}

#[test]
fn local_projection_passes_the_figure_eight_crossing_on_its_own_leg() {
    let n = 64;
    let points: Vec<Vec3> = (0..n)
        .map(|i| {
            let t = i as f32 / n as f32 * std::f32::consts::TAU;
            let d = 1.0 + t.sin() * t.sin();
            v(300.0 * t.cos() / d, 300.0 * t.sin() * t.cos() / d)
        })
        .collect();
    let path = Polyline::new(points, true);
    let mut cursor = PathCursor::default();
    let mut last = path.project_point_local(path.point_at_distance(1.0), &mut cursor, 100.0).distance_along;
    let mut travelled = 0.0;
    let step = 2.0;
    while travelled < path.length() * 1.5 {
        travelled += step;
        let p = path.point_at_distance(1.0 + travelled) + v(0.0, 3.0);
        let projection = path.project_point_local(p, &mut cursor, 100.0);
        let mut delta = projection.distance_along - last;
        if delta < -0.5 * path.length() {
            delta += path.length();
        }
        assert!(delta > -0.5 && delta < 3.0 * step + 10.0, "jumped by {delta} at {travelled}");
        last = projection.distance_along;
    }
}

#[test]
fn local_projection_steps_over_zero_length_segments() {
    let path =
        Polyline::new(vec![v(0.0, 0.0), v(10.0, 0.0), v(10.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)], false);
    let mut cursor = PathCursor::default();
    path.project_point_local(v(5.0, 1.0), &mut cursor, 100.0);
    let projection = path.project_point_local(v(11.0, 8.0), &mut cursor, 100.0);
    assert!((projection.point - v(10.0, 8.0)).length() < 1e-4, "{:?}", projection.point);
    assert!((projection.distance_along - 18.0).abs() < 1e-4);
}

#[test]
fn local_projection_reacquires_when_far_and_says_so() {
    let path = hairpin();
    let mut cursor = PathCursor::default();
    path.project_point_local(v(10.0, 0.0), &mut cursor, 30.0);
    let (projection, reacquired) = path.project_point_local_reporting(v(10.0, 58.0), &mut cursor, 30.0);
    assert!(reacquired);
    assert_eq!(projection.segment_idx, 2);
    let (_, again) = path.project_point_local_reporting(v(12.0, 58.0), &mut cursor, 30.0);
    assert!(!again, "once re-acquired it tracks locally");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn local_projection_never_returns_nan_and_is_never_nearer_than_the_global_one(
        raw in prop::collection::vec((-200.0f32..200.0, -200.0f32..200.0), 0..12),
        closed in any::<bool>(),
        queries in prop::collection::vec((-300.0f32..300.0, -300.0f32..300.0), 1..20),
    ) {
        let path = Polyline::new(raw.iter().map(|&(x, y)| v(x, y)).collect(), closed);
        let mut cursor = PathCursor::default();
        for (x, y) in queries {
            let p = v(x, y);
            let local = path.project_point_local(p, &mut cursor, 50.0);
            let global = path.project_point(p);
            prop_assert!(local.point.is_finite() && local.distance.is_finite() && local.distance_along.is_finite());
            prop_assert!(local.distance + 1e-3 >= global.distance);
            prop_assert!((local.point.distance(p) - local.distance).abs() < 1e-2);
        }
    }
}
