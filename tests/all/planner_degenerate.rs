//! The planner's degenerate cases (seed 004 leaves them open; `planner/plan.rs` documents the
//! choices): routes through a centre, blocked avoidance waypoints, overlapping obstacles,
//! unreachable waypoints, a start inside an obstacle, coincident waypoints, no obstacles, and the
//! iteration limit.

use glam::Vec3;
use steerlab::geometry::cast::distance_point_segment;
use steerlab::geometry::Sphere;
use steerlab::planner::{
    path_length, plan, plan_spheres, straight_length, FallbackMode, ObstacleIndex, Plan, PlanNote,
    PlanOptions, PlanStatus, SplitMix64, Unreachable, UnreachableReason, WaypointKind,
};

const R: f32 = 8.0;
const CLEARANCE: f32 = 10.0;

fn options() -> PlanOptions {
    PlanOptions {
        clearance: CLEARANCE,
        iteration_limit: 64,
        smoothing: false,
        record: true,
        fallback: FallbackMode::Off,
    }
}

fn sphere(x: f32, y: f32, z: f32, radius: f32) -> Sphere {
    Sphere { center: Vec3::new(x, y, z), radius }
}

/// Independent check of every leg (exit legs excluded) against every obstacle.
fn assert_clear(start: Vec3, result: &Plan, obstacles: &[Sphere]) {
    let mut previous = start;
    for (&w, &kind) in result.waypoints.iter().zip(&result.kinds) {
        assert!(w.is_finite(), "{w}");
        if kind != WaypointKind::Exit {
            for (k, s) in obstacles.iter().enumerate() {
                let needed = s.radius + R + CLEARANCE;
                let distance = distance_point_segment(s.center, previous, w);
                assert!(distance >= needed - 1e-3, "leg {previous} -> {w} is {distance} from obstacle {k}");
            }
        }
        previous = w;
    }
}

fn run(start: Vec3, waypoints: &[Vec3], obstacles: &[Sphere]) -> Plan {
    plan_spheres(start, R, waypoints, obstacles, &options())
}

#[test]
fn route_through_an_obstacle_centre_goes_round_the_d_cross_z_side() {
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0)];
    let start = Vec3::new(-200.0, 0.0, 0.0);
    let goal = Vec3::new(200.0, 0.0, 0.0);
    let result = run(start, &[goal], &obstacles);
    assert_eq!(result.status, PlanStatus::Complete);
    assert_eq!(result.kinds, vec![WaypointKind::Avoidance, WaypointKind::User(0)]);
    let w = result.waypoints[0];
    // d = +x, d × z = −y: the corner sits straight below the centre, in the plane z = 0.
    assert!(w.x.abs() < 1e-3 && w.y < -48.0 && w.z == 0.0, "{w}");
    assert_clear(start, &result, &obstacles);
}

#[test]
fn vertical_route_through_a_centre_goes_round_the_d_cross_x_side() {
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0)];
    let start = Vec3::new(0.0, 0.0, -200.0);
    let goal = Vec3::new(0.0, 0.0, 200.0);
    let result = run(start, &[goal], &obstacles);
    assert_eq!(result.status, PlanStatus::Complete);
    let w = result.waypoints[0];
    // d = +z, d × z = 0, d × x = +y.
    assert!(w.x.abs() < 1e-3 && w.y > 48.0 && w.z.abs() < 1e-3, "{w}");
    assert_clear(start, &result, &obstacles);
}

#[test]
fn avoidance_waypoint_inside_another_obstacle_goes_round_the_other_side() {
    // The corner above obstacle 0 (the side the route passes) lands inside obstacle 1.
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0), sphere(0.0, 60.0, 0.0, 20.0)];
    let start = Vec3::new(-200.0, 5.0, 0.0);
    let goal = Vec3::new(200.0, 5.0, 0.0);
    let result = run(start, &[goal], &obstacles);
    assert_eq!(result.status, PlanStatus::Complete);
    let first = result.avoidances[0];
    assert_eq!(first.obstacle, 0);
    assert_eq!(first.cluster_size, 1);
    assert!(first.waypoint.y < 0.0, "{}", first.waypoint);
    assert_clear(start, &result, &obstacles);
}

#[test]
fn avoidance_waypoint_blocked_on_both_sides_goes_round_the_cluster() {
    let obstacles =
        [sphere(0.0, 0.0, 0.0, 30.0), sphere(0.0, 60.0, 0.0, 20.0), sphere(0.0, -60.0, 0.0, 20.0)];
    let start = Vec3::new(-200.0, 5.0, 0.0);
    let goal = Vec3::new(200.0, 5.0, 0.0);
    let result = run(start, &[goal], &obstacles);
    assert_eq!(result.status, PlanStatus::Complete);
    let first = result.avoidances[0];
    assert_eq!(first.cluster_size, 2);
    // Round obstacles 0 and 1 together: above the top of obstacle 1's clearance.
    assert!(first.waypoint.y > 60.0 + 20.0 + R + CLEARANCE, "{}", first.waypoint);
    assert_clear(start, &result, &obstacles);
}

#[test]
fn overlapping_obstacles_are_passed_as_one_wall() {
    // Three overlapping spheres make a wall across the route, the route through the middle one.
    let obstacles =
        [sphere(0.0, -40.0, 0.0, 30.0), sphere(0.0, 0.0, 0.0, 30.0), sphere(0.0, 40.0, 0.0, 30.0)];
    let start = Vec3::new(-250.0, 0.0, 0.0);
    let goal = Vec3::new(250.0, 0.0, 0.0);
    let result = run(start, &[goal], &obstacles);
    assert_eq!(result.status, PlanStatus::Complete);
    assert!(result.avoidances.iter().any(|a| a.cluster_size >= 2), "{:?}", result.avoidances);
    assert_clear(start, &result, &obstacles);
    // The detour is reasonable: shorter than going twice round the wall's bounding circle.
    assert!(result.planned_length() < 500.0 + 2.0 * std::f32::consts::PI * 120.0);
}

#[test]
fn overlapping_obstacles_in_3d_are_passed_too() {
    let obstacles = [
        sphere(0.0, 0.0, -30.0, 25.0),
        sphere(0.0, 0.0, 0.0, 25.0),
        sphere(0.0, 0.0, 30.0, 25.0),
        sphere(0.0, 30.0, 0.0, 25.0),
    ];
    let start = Vec3::new(-200.0, 3.0, 2.0);
    let goal = Vec3::new(200.0, -3.0, -2.0);
    let result = run(start, &[goal], &obstacles);
    assert!(result.is_complete(), "{}", result.summary());
    assert_clear(start, &result, &obstacles);
}

#[test]
fn user_waypoint_inside_an_obstacle_is_skipped_and_reported() {
    let obstacles = [sphere(100.0, 0.0, 0.0, 30.0)];
    let inside = Vec3::new(110.0, 0.0, 0.0);
    let waypoints = [Vec3::new(0.0, 100.0, 0.0), inside, Vec3::new(200.0, 100.0, 0.0)];
    let start = Vec3::new(-100.0, 0.0, 0.0);
    let result = run(start, &waypoints, &obstacles);
    assert_eq!(
        result.status,
        PlanStatus::Unreachable(vec![Unreachable {
            index: 1,
            position: inside,
            reason: UnreachableReason::InsideObstacle { obstacle: 0 },
        }])
    );
    assert!(result.is_finished() && !result.is_complete());
    let users: Vec<WaypointKind> =
        result.kinds.iter().copied().filter(|k| matches!(k, WaypointKind::User(_))).collect();
    assert_eq!(users, vec![WaypointKind::User(0), WaypointKind::User(2)]);
    assert!(result.summary().contains("waypoint 2 is inside obstacle 0"), "{}", result.summary());
    assert_clear(start, &result, &obstacles);
}

#[test]
fn user_waypoint_only_inside_the_clearance_is_moved_out() {
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0)];
    // 42 from the centre: clear of the body (30 + 8) but inside the clearance (48).
    let near = Vec3::new(0.0, 42.0, 0.0);
    let start = Vec3::new(-200.0, 42.0, 0.0);
    let result = run(start, &[near], &obstacles);
    assert_eq!(result.status, PlanStatus::Complete);
    let [PlanNote::WaypointMoved { index: 0, obstacle: 0, to }] = result.notes[..] else {
        panic!("{:?}", result.notes);
    };
    assert_eq!(*result.waypoints.last().unwrap(), to);
    assert!(to.y > 48.0 && to.x.abs() < 1e-3, "{to}");
    assert_clear(start, &result, &obstacles);
}

#[test]
fn non_finite_user_waypoint_is_unreachable() {
    let result = run(Vec3::ZERO, &[Vec3::new(f32::NAN, 0.0, 0.0), Vec3::new(50.0, 0.0, 0.0)], &[]);
    assert_eq!(result.unreachable().len(), 1);
    assert_eq!(result.unreachable()[0].reason, UnreachableReason::NotFinite);
    assert_eq!(result.waypoints, vec![Vec3::new(50.0, 0.0, 0.0)]);
}

#[test]
fn ship_starting_inside_an_obstacle_exits_first_along_the_push_out() {
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0)];
    let start = Vec3::new(-10.0, 5.0, 0.0);
    let goal = Vec3::new(200.0, 0.0, 0.0);
    let result = run(start, &[goal], &obstacles);
    assert_eq!(result.status, PlanStatus::Complete);
    assert_eq!(result.kinds[0], WaypointKind::Exit);
    let exit = result.waypoints[0];
    let [PlanNote::ExitFirst { obstacle: 0, colliding: true, exit: noted }] = result.notes[..] else {
        panic!("{:?}", result.notes);
    };
    assert_eq!(noted, exit);
    // Straight out along centre → start, to just beyond the inflated radius.
    let direction = start.normalize();
    assert!((exit.normalize() - direction).length() < 1e-5);
    assert!(exit.length() > 48.0 && exit.length() < 50.0, "{exit}");
    assert!(result.summary().contains("started inside obstacle 0"), "{}", result.summary());
    assert_clear(start, &result, &obstacles);
}

#[test]
fn ship_starting_at_an_obstacle_centre_exits_along_x() {
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0)];
    let result = run(Vec3::ZERO, &[Vec3::new(0.0, 200.0, 0.0)], &obstacles);
    let exit = result.waypoints[0];
    assert_eq!(result.kinds[0], WaypointKind::Exit);
    assert!(exit.x > 48.0 && exit.y == 0.0 && exit.z == 0.0, "{exit}");
    assert!(result.is_complete());
}

#[test]
fn ship_starting_where_obstacles_overlap_exits_both() {
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0), sphere(30.0, 0.0, 0.0, 30.0)];
    let start = Vec3::new(15.0, 2.0, 0.0);
    let result = run(start, &[Vec3::new(15.0, 300.0, 0.0)], &obstacles);
    assert_eq!(result.kinds[0], WaypointKind::Exit);
    let exit = result.waypoints[0];
    for s in &obstacles {
        assert!(exit.distance(s.center) >= s.radius + R + CLEARANCE, "{exit}");
    }
    assert!(result.is_complete());
    assert_clear(start, &result, &obstacles);
}

#[test]
fn ship_starting_only_inside_the_clearance_exits_without_colliding() {
    let obstacles = [sphere(0.0, 0.0, 0.0, 30.0)];
    let start = Vec3::new(-44.0, 0.0, 0.0);
    let result = run(start, &[Vec3::new(-300.0, 0.0, 0.0)], &obstacles);
    assert!(matches!(result.notes[..], [PlanNote::ExitFirst { colliding: false, .. }]), "{:?}", result.notes);
}

#[test]
fn coincident_waypoints_are_merged_without_nan() {
    let a = Vec3::new(100.0, 0.0, 0.0);
    let b = Vec3::new(100.0, 100.0, 0.0);
    let start = Vec3::ZERO;
    let waypoints = [start, a, a, a + Vec3::splat(1e-5), b, b];
    let obstacles = [sphere(50.0, 50.0, 0.0, 10.0)];
    let result = run(start, &waypoints, &obstacles);
    assert!(result.waypoints.iter().all(|w| w.is_finite()));
    assert_eq!(result.status, PlanStatus::Complete);
    let users: Vec<WaypointKind> =
        result.kinds.iter().copied().filter(|k| matches!(k, WaypointKind::User(_))).collect();
    // The waypoint on the start is kept (a zero-length leg), the runs are merged into their last.
    assert_eq!(users, vec![WaypointKind::User(0), WaypointKind::User(3), WaypointKind::User(5)]);
    let merged = result.notes.iter().filter(|n| matches!(n, PlanNote::WaypointMerged { .. })).count();
    assert_eq!(merged, 3);
    assert_eq!(result.waypoints[0], start);
    assert_clear(start, &result, &obstacles);
}

#[test]
fn no_obstacles_plan_is_the_user_waypoints() {
    let waypoints = [Vec3::new(10.0, 0.0, 0.0), Vec3::new(10.0, 20.0, 5.0), Vec3::new(-3.0, 4.0, 1.0)];
    let result = run(Vec3::ZERO, &waypoints, &[]);
    assert_eq!(result.waypoints, waypoints.to_vec());
    assert_eq!(result.status, PlanStatus::Complete);
    assert_eq!(result.iteration_count, 3);
    assert!(result.iterations.iter().all(|it| it.popped && it.hit.is_none()));
    assert_eq!(result.planned_length(), straight_length(Vec3::ZERO, &waypoints));
    assert_eq!(path_length(Vec3::ZERO, &[Vec3::new(3.0, 4.0, 0.0)]), 5.0);
}

#[test]
fn no_waypoints_plan_is_empty_and_complete() {
    let result = run(Vec3::ZERO, &[], &[sphere(100.0, 0.0, 0.0, 5.0)]);
    assert!(result.waypoints.is_empty());
    assert_eq!(result.iteration_count, 0);
    assert!(result.is_complete());
}

#[test]
fn iteration_limit_gives_a_partial_plan_that_replanning_extends() {
    let obstacles: Vec<Sphere> =
        (0..6).map(|i| sphere(60.0 + 90.0 * i as f32, (i % 2) as f32 * 6.0 - 3.0, 0.0, 25.0)).collect();
    let start = Vec3::ZERO;
    let goal = Vec3::new(650.0, 0.0, 0.0);
    let limited = PlanOptions { iteration_limit: 3, ..options() };
    let partial = plan_spheres(start, R, &[goal], &obstacles, &limited);
    assert!(matches!(partial.status, PlanStatus::IterationLimit { .. }), "{:?}", partial.status);
    assert_eq!(partial.iteration_count, 3);
    assert_eq!(partial.iterations.len(), 3);
    assert!(!partial.pending.is_empty());
    assert_eq!(partial.pending.first(), Some(&goal));
    assert!(partial.summary().starts_with("partial"));
    assert_clear(start, &partial, &obstacles);

    // Replanning from the end of each partial plan eventually reaches the goal.
    let mut from = start;
    let mut done = false;
    for _ in 0..40 {
        let step = plan_spheres(from, R, &[goal], &obstacles, &limited);
        assert_clear(from, &step, &obstacles);
        if step.is_complete() {
            done = true;
            break;
        }
        from = *step.waypoints.last().expect("each partial plan makes progress");
    }
    assert!(done);
}

#[test]
fn zero_iteration_limit_plans_nothing() {
    let result = plan_spheres(
        Vec3::ZERO,
        R,
        &[Vec3::X * 100.0],
        &[],
        &PlanOptions { iteration_limit: 0, ..options() },
    );
    assert!(result.waypoints.is_empty());
    assert_eq!(result.pending, vec![Vec3::X * 100.0]);
    assert!(!result.is_finished());
}

#[test]
fn non_finite_start_plans_nothing() {
    let result = run(Vec3::NAN, &[Vec3::X], &[]);
    assert!(result.waypoints.is_empty());
    assert!(!result.is_finished());
}

#[test]
fn smoothing_shortens_plans_and_keeps_user_waypoints_and_clearance() {
    let mut dropped = 0;
    for seed in 0..200u64 {
        let mut rng = SplitMix64::new(77_000 + seed);
        let lo = Vec3::new(-250.0, -250.0, -60.0);
        let hi = Vec3::new(250.0, 250.0, 60.0);
        let obstacles: Vec<Sphere> = (0..20 + rng.below(20))
            .map(|_| Sphere { center: rng.point_in(lo, hi), radius: rng.range(5.0, 30.0) })
            .collect();
        let start = rng.point_in(lo, hi);
        let waypoints: Vec<Vec3> = (0..1 + rng.below(4)).map(|_| rng.point_in(lo, hi)).collect();
        let index = ObstacleIndex::new(&obstacles, R + CLEARANCE);
        let raw = plan(start, R, &waypoints, &index, &options());
        let smooth = plan(start, R, &waypoints, &index, &PlanOptions { smoothing: true, ..options() });
        if !raw.is_finished() {
            continue;
        }
        let users = |p: &Plan| -> Vec<WaypointKind> {
            p.kinds.iter().copied().filter(|k| !matches!(k, WaypointKind::Avoidance)).collect()
        };
        assert_eq!(users(&raw), users(&smooth), "seed {seed}");
        assert!(smooth.planned_length() <= raw.planned_length() + 1e-3, "seed {seed}");
        assert_clear(start, &smooth, &obstacles);
        dropped += raw.waypoints.len() - smooth.waypoints.len();
    }
    assert!(dropped > 0, "smoothing never dropped a waypoint");
}
