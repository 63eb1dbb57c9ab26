//! Commitment and the no-progress fallback of the ship (issue 9 §2, §3; `planner/ship.rs`,
//! step 2), flown by the ship alone with the world's integration replaced by a tiny one
//! (acceleration clamped, v += a dt, speed clamped, p += v dt, dt = 1/60).
//!
//! - A symmetric cluster straight ahead: plans made from just left and just right of the axis go
//!   round opposite sides (checked first, so the flight below is a real test), and a ship
//!   mirrored in the axis before every replan of its approach still never changes side.
//! - A cup round the ship, open away from its waypoint: the seed's loop plans a way out without
//!   reaching its iteration limit, but that route wanders round the cup's outside; the ship makes
//!   no progress for the no-progress time, the complete search is forced, and the waypoint is
//!   reached early and without contact.

use glam::Vec3;
use steerlab::behaviours::{Gizmos, Kinematics, Limits, Steering};
use steerlab::geometry::Sphere;
use steerlab::planner::ship::{NO_PROGRESS_TIME, PROGRESS_STEP};
use steerlab::planner::{plan_spheres, ship, PlanOptions, PlannerParams, ShipState, WaypointKind};

const DT: f32 = 1.0 / 60.0;

fn limits() -> Limits {
    Limits { radius: 6.0, max_speed: 120.0, max_acceleration: 200.0 }
}

fn params(waypoint: Vec3, iteration_limit: u32) -> PlannerParams {
    PlannerParams {
        waypoints: vec![waypoint],
        clearance: 4.0,
        iteration_limit,
        replan_interval: 0.5,
        arrival_radius: 8.0,
        ..PlannerParams::default()
    }
}

/// What a flight did, step by step.
struct Flight {
    positions: Vec<Vec3>,
    /// After each replan (and the first plan): the side (sign of y) of the route's corners before
    /// the user waypoint, 0 when the route has none off the axis.
    plan_sides: Vec<i8>,
    /// Smallest signed distance between the ship's sphere and any obstacle's.
    min_signed_distance: f32,
    state: ShipState,
    finished_at: Option<f32>,
}

/// Flies for up to `seconds`; `nudge(step, kinematics)` may change the velocity before a step.
fn fly(
    start: Vec3,
    obstacles: &[Sphere],
    params: &PlannerParams,
    seconds: f32,
    mut nudge: impl FnMut(usize, &mut Kinematics),
) -> Flight {
    let limits = limits();
    let mut k = Kinematics { position: start, ..Default::default() };
    let mut state = ShipState::new(params);
    let mut gizmos = Gizmos::disabled();
    let mut flight = Flight {
        positions: Vec::new(),
        plan_sides: Vec::new(),
        min_signed_distance: f32::INFINITY,
        state: ShipState::default(),
        finished_at: None,
    };
    for step in 0..(seconds / DT) as usize {
        nudge(step, &mut k);
        let (replans, planned) = (state.replans, state.has_planned);
        let steering = ship(&k, &limits, obstacles, params, &mut state, DT, &mut gizmos);
        if state.replans > replans || !planned {
            flight.plan_sides.push(route_side(&state));
        }
        let Steering::Acceleration(a) = steering else { panic!("the ship is dynamic: {steering:?}") };
        k.velocity = (k.velocity + a.clamp_length_max(limits.max_acceleration) * DT)
            .clamp_length_max(limits.max_speed);
        k.position += k.velocity * DT;
        flight.positions.push(k.position);
        for s in obstacles {
            let d = k.position.distance(s.center) - s.radius - limits.radius;
            flight.min_signed_distance = flight.min_signed_distance.min(d);
        }
        if state.finished && flight.finished_at.is_none() {
            flight.finished_at = Some(step as f32 * DT);
            break;
        }
    }
    flight.state = state;
    flight
}

/// The side of the axis y = 0 the route to the next user waypoint goes round: the sign of the
/// sum of its corners' y (0 when it has no corner off the axis).
fn route_side(state: &ShipState) -> i8 {
    let corners = state.kinds.iter().take_while(|k| !matches!(k, WaypointKind::User(_))).count();
    let sum: f32 = state.planned.iter().take(corners).map(|w| w.y).sum();
    if sum > 1.0 {
        1
    } else if sum < -1.0 {
        -1
    } else {
        0
    }
}

/// A cluster mirrored in y = 0 across the x axis at x = 300, in the plane z = 0: a big sphere
/// on the axis and pairs beside and behind it, so going round on the left or on the right is
/// equally long.
fn symmetric_cluster() -> Vec<Sphere> {
    let mut spheres = vec![Sphere { center: Vec3::new(300.0, 0.0, 0.0), radius: 60.0 }];
    for (x, y, radius) in [(280.0, 55.0, 40.0), (340.0, 45.0, 35.0)] {
        spheres.push(Sphere { center: Vec3::new(x, y, 0.0), radius });
        spheres.push(Sphere { center: Vec3::new(x, -y, 0.0), radius });
    }
    spheres
}

const BEYOND: Vec3 = Vec3::new(650.0, 0.0, 0.0);

#[test]
fn plans_from_just_left_and_just_right_of_a_symmetric_cluster_go_round_opposite_sides() {
    // The premise of the flight test below: without commitment, a replan's side follows the
    // ship's side of the axis, so a ship wobbling across it would flip.
    let obstacles = symmetric_cluster();
    let options = PlanOptions { clearance: 4.0, iteration_limit: 64, ..PlanOptions::default() };
    for x in [0.0, 100.0, 180.0] {
        let side = |y: f32| {
            let plan = plan_spheres(Vec3::new(x, y, 0.0), 6.0, &[BEYOND], &obstacles, &options);
            let state = ShipState { planned: plan.waypoints, kinds: plan.kinds, ..ShipState::default() };
            route_side(&state)
        };
        assert_eq!((side(0.5), side(-0.5)), (1, -1), "from x = {x}");
    }
}

#[test]
fn a_ship_mirrored_across_the_axis_before_every_replan_never_changes_side_round_a_symmetric_cluster() {
    let obstacles = symmetric_cluster();
    let params = params(BEYOND, 64);
    // "Replans from slightly different positions", at their worst: right before each timed
    // replan of the approach, the ship is mirrored in the axis (y and its sideways velocity
    // change sign), so that replan is made from the mirror image of where the ship was flying.
    // Without commitment each would pick the other side (the premise above); where the jump
    // blocks the leg to the chosen corner, the ship must find its way back to it.
    let mirror_until = 150.0;
    let flight = fly(Vec3::new(0.0, 0.3, 0.0), &obstacles, &params, 30.0, |step, k| {
        if step > 0 && step % 30 == 0 && k.position.x < mirror_until {
            k.position.y = -k.position.y;
            k.velocity.y = -k.velocity.y;
        }
    });
    assert!(flight.finished_at.is_some(), "the waypoint was reached");
    assert!(flight.min_signed_distance >= 0.0, "contact: {:.2}", flight.min_signed_distance);
    let sides: Vec<i8> = flight.plan_sides.iter().copied().filter(|&s| s != 0).collect();
    assert!(sides.len() >= 4, "the route went round the cluster over several replans: {sides:?}");
    let changes = sides.windows(2).filter(|w| w[0] != w[1]).count();
    assert_eq!(changes, 0, "the route changed side: {sides:?}");
    // The flown path: once left alone, the ship never crosses back over the axis before it has
    // passed the cluster (no ping-pong between the two ways round).
    let side_of = |p: &Vec3| {
        if p.y > 3.0 {
            1
        } else if p.y < -3.0 {
            -1
        } else {
            0
        }
    };
    let flown: Vec<i8> = flight
        .positions
        .iter()
        .filter(|p| (mirror_until + 5.0..300.0).contains(&p.x))
        .map(side_of)
        .filter(|&s| s != 0)
        .collect();
    assert!(!flown.is_empty());
    let crossings = flown.windows(2).filter(|w| w[0] != w[1]).count();
    assert_eq!(crossings, 0, "the ship crossed the axis {crossings} times before passing the cluster");
}

/// A cup round the ship: spheres of radius 25 at those of 81 Fibonacci points on a sphere of
/// radius 90 round the origin with x > −18 (49 spheres, about 35 units apart: with the ship's
/// radius and clearance, 35 each), open toward −x; the way out is back past the rim.
fn cup() -> Vec<Sphere> {
    let (radius, count) = (90.0f32, 81usize);
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..count)
        .filter_map(|k| {
            let x = 1.0 - 2.0 * (k as f32 + 0.5) / count as f32;
            let across = (1.0 - x * x).sqrt();
            let angle = golden * k as f32;
            let direction = Vec3::new(x, across * angle.cos(), across * angle.sin());
            (direction.x > -0.2).then_some(Sphere { center: direction * radius, radius: 25.0 })
        })
        .collect()
}

#[test]
fn a_ship_led_round_and_round_a_cup_by_the_seeds_route_has_the_complete_search_forced_and_arrives() {
    let obstacles = cup();
    assert_eq!(obstacles.len(), 49);
    let waypoint = Vec3::new(340.0, 0.0, 0.0);
    let start = Vec3::ZERO;
    // An iteration limit the seed's loop does not reach here: its plan is complete, with no
    // fallback, but it wanders round the cup's outside (40 waypoints, about 2,300 units for a
    // waypoint 340 away), and the ship following it comes no closer.
    let params = params(waypoint, 500);
    let first = plan_spheres(start, 6.0, &[waypoint], &obstacles, &params.plan_options());
    assert!(first.is_finished() && first.fallbacks.is_empty(), "{}", first.summary());
    assert!(first.planned_length() > 4.0 * start.distance(waypoint), "{}", first.summary());

    let flight = fly(start, &obstacles, &params, 60.0, |_, _| {});
    let state = &flight.state;
    // No progress for the no-progress time: then the complete search was forced.
    let closest_within = |t: f32| {
        flight
            .positions
            .iter()
            .take((t / DT) as usize)
            .map(|p| p.distance(waypoint))
            .fold(f32::INFINITY, f32::min)
    };
    assert!(closest_within(NO_PROGRESS_TIME) > start.distance(waypoint) - PROGRESS_STEP);
    assert_eq!(state.forced_fallbacks, 1, "the complete search was forced once");
    let finished = flight.finished_at.expect("the waypoint was reached");
    assert!(
        finished < first.planned_length() / limits().max_speed,
        "arrived in {finished:.1} s, sooner than the seed's route could be flown at full speed"
    );
    assert!(flight.min_signed_distance >= 0.0, "contact: {:.2}", flight.min_signed_distance);
}
