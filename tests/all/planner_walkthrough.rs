//! Seed 004's walk-through: a ship told to fly to two waypoints, Obstruction 1 between the ship and
//! the first waypoint, Obstruction 2 between the first and the second. The loop's iterations must
//! follow the seed's story.

use glam::Vec3;
use steerlab::geometry::cast::distance_point_segment;
use steerlab::geometry::Sphere;
use steerlab::planner::{plan, FallbackMode, ObstacleIndex, PlanOptions, PlanStatus, WaypointKind};

const SHIP_RADIUS: f32 = 8.0;
const CLEARANCE: f32 = 10.0;

fn story() -> (Vec3, Vec<Vec3>, Vec<Sphere>) {
    let ship = Vec3::new(-65.0, -4.0, 0.0);
    let waypoint_1 = Vec3::new(65.0, -4.0, 0.0);
    let waypoint_2 = Vec3::new(70.0, -300.0, 0.0);
    let obstruction_1 = Sphere { center: Vec3::ZERO, radius: 40.0 };
    let obstruction_2 = Sphere { center: Vec3::new(66.0, -150.0, 0.0), radius: 30.0 };
    (ship, vec![waypoint_1, waypoint_2], vec![obstruction_1, obstruction_2])
}

#[test]
fn seed_walk_through_iterates_as_the_story_tells() {
    let (ship, waypoints, obstacles) = story();
    let index = ObstacleIndex::new(&obstacles, SHIP_RADIUS + CLEARANCE);
    let options = PlanOptions {
        clearance: CLEARANCE,
        iteration_limit: 32,
        smoothing: false,
        record: true,
        fallback: FallbackMode::Off,
    };
    let result = plan(ship, SHIP_RADIUS, &waypoints, &index, &options);

    // (obstacle hit, or None for a clear route that pops) per iteration.
    let story: Vec<Option<usize>> = result.iterations.iter().map(|it| it.hit.map(|h| h.obstacle)).collect();
    assert_eq!(
        story,
        vec![
            Some(0), // ship → waypoint 1 hits Obstruction 1: avoidance A pushed.
            None,    // ship → A is clear: A popped, the perspective moves to A.
            Some(0), // A → waypoint 1 still hits Obstruction 1: avoidance B pushed.
            None,    // A → B is clear: B popped.
            None,    // B → waypoint 1 is clear: waypoint 1 popped.
            Some(1), // waypoint 1 → waypoint 2 hits Obstruction 2: avoidance C pushed.
            None,    // waypoint 1 → C is clear: C popped.
            None,    // C → waypoint 2 is clear: waypoint 2 popped; the stack is empty.
        ]
    );
    assert!(result.iterations.iter().all(|it| it.popped == it.hit.is_none()));
    assert_eq!(result.status, PlanStatus::Complete);
    assert_eq!(result.iteration_count, 8);

    let a = result.iterations[0].avoidance.unwrap().waypoint;
    let b = result.iterations[2].avoidance.unwrap().waypoint;
    let c = result.iterations[5].avoidance.unwrap().waypoint;
    assert_eq!(result.waypoints, vec![a, b, waypoints[0], c, waypoints[1]]);
    assert_eq!(
        result.kinds,
        vec![
            WaypointKind::Avoidance,
            WaypointKind::Avoidance,
            WaypointKind::User(0),
            WaypointKind::Avoidance,
            WaypointKind::User(1),
        ]
    );

    // Perspectives: ship, ship, A, A, B, waypoint 1, waypoint 1, C.
    let perspectives: Vec<Vec3> = result.iterations.iter().map(|it| it.perspective).collect();
    assert_eq!(perspectives, vec![ship, ship, a, a, b, waypoints[0], waypoints[0], c]);

    // The proto-waypoint stack, bottom first, before each iteration.
    let w1 = waypoints[0];
    let w2 = waypoints[1];
    let stacks: Vec<Vec<Vec3>> = result.iterations.iter().map(|it| it.stack.clone()).collect();
    assert_eq!(
        stacks,
        vec![
            vec![w2, w1],
            vec![w2, w1, a],
            vec![w2, w1],
            vec![w2, w1, b],
            vec![w2, w1],
            vec![w2],
            vec![w2, c],
            vec![w2],
        ]
    );

    // The avoidance vector runs from the cast's contact point to the avoidance waypoint.
    let first = &result.iterations[0];
    let hit = first.hit.unwrap();
    assert_eq!(first.avoidance.unwrap().vector(), a - hit.point);
    assert!((hit.point.distance(obstacles[0].center) - (40.0 + SHIP_RADIUS + CLEARANCE)).abs() < 1e-3);

    // The route goes round the side the direct line already passes (below the centre).
    assert!(a.y < 0.0 && b.y < 0.0);

    // Independent check: every leg keeps the ship radius plus the clearance.
    let mut previous = ship;
    for &w in &result.waypoints {
        for s in &obstacles {
            assert!(distance_point_segment(s.center, previous, w) >= s.radius + SHIP_RADIUS + CLEARANCE);
        }
        previous = w;
    }
}

#[test]
fn walk_through_without_recording_gives_the_same_plan_and_no_trace() {
    let (ship, waypoints, obstacles) = story();
    let index = ObstacleIndex::new(&obstacles, SHIP_RADIUS + CLEARANCE);
    let recorded = PlanOptions { clearance: CLEARANCE, record: true, ..PlanOptions::default() };
    let cheap = PlanOptions { record: false, ..recorded };
    let with_trace = plan(ship, SHIP_RADIUS, &waypoints, &index, &recorded);
    let without = plan(ship, SHIP_RADIUS, &waypoints, &index, &cheap);
    assert_eq!(with_trace.waypoints, without.waypoints);
    assert_eq!(with_trace.iteration_count, without.iteration_count);
    assert!(without.iterations.is_empty());
    assert_eq!(without.avoidances.len(), 3);
}
