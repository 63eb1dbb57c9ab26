//! Moving obstacles (issue 9 §5): the ship plans against each sphere grown by how far it can move
//! before the plan is checked again (`planner/ship.rs`, step 0). Checked here, independently of the
//! planner (centre distances from the world's own positions every step), on the shipped moving
//! scenes and on seeded random moving fields of the class the README guarantees:
//!
//! - a box of 700 × 600 × 400 (x 0..700) in which spheres of radius 15–45 move in straight lines
//!   and bounce off its walls, their speeds uniform up to a limit;
//! - the ship (radius 6, max speed 120, max acceleration 200, clearance 4, iteration limit
//!   64, replan every 0.5 s, arrival radius 8) starting outside the box and sent to four waypoints
//!   outside it on alternate sides (x = 780 and x = −80), so every route crosses the moving field;
//! - up to 60 spheres moving at up to 30 u/s (a quarter of the ship's speed), or up to 20 spheres at
//!   up to 60 u/s (half).
//!
//! In that class: zero contact (the ship's sphere never overlaps an obstacle's) and every waypoint
//! reached within [`FLIGHT_BOUND`]. Denser or faster fields are outside it (README: measured
//! contact rates there).

use glam::Vec3;
use std::path::Path;
use steerlab::planner::SplitMix64;
use steerlab::scene::load_scene;
use steerlab::sim::{Behaviour, BehaviourState, Bounds, Obstacle, World};

/// Seconds within which all four waypoints must be reached: the four legs are at most about
/// 900 units each, 30 s at full speed; four times that leaves room for waiting on the field.
const FLIGHT_BOUND: f32 = 120.0;
const SHIP_RADIUS: f32 = 6.0;

/// A seeded random moving field of the guaranteed class (module header), built on the shipped
/// moving scene's first ship.
fn moving_field(spheres: usize, max_speed: f32, seed: u64) -> World {
    let mut world =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-moving.json")).unwrap();
    world.agents.truncate(1);
    let (lo, hi) = (Vec3::new(0.0, -300.0, -200.0), Vec3::new(700.0, 300.0, 200.0));
    world.bounds = Some(Bounds { min: lo, max: hi });
    let mut rng = SplitMix64::new(seed.wrapping_mul(7919).wrapping_add(13));
    world.obstacles.clear();
    for _ in 0..spheres {
        let radius = rng.range(15.0, 45.0);
        let position = rng.point_in(lo + Vec3::splat(radius), hi - Vec3::splat(radius));
        let direction = loop {
            let d = rng.point_in(Vec3::splat(-1.0), Vec3::splat(1.0));
            if d.length() > 0.1 && d.length() <= 1.0 {
                break d.normalize();
            }
        };
        let velocity = direction * rng.range(0.0, max_speed);
        world.obstacles.push(Obstacle { position, radius, velocity, start: (position, velocity) });
    }
    let agent = &mut world.agents[0];
    agent.kinematics.position = Vec3::new(-80.0, 0.0, 0.0);
    agent.kinematics.velocity = Vec3::ZERO;
    agent.start = agent.kinematics;
    agent.limits.radius = SHIP_RADIUS;
    agent.limits.max_speed = 120.0;
    agent.limits.max_acceleration = 200.0;
    let waypoints: Vec<Vec3> = (0..4)
        .map(|k| {
            let x = if k % 2 == 0 { 780.0 } else { -80.0 };
            Vec3::new(x, rng.range(-250.0, 250.0), rng.range(-150.0, 150.0))
        })
        .collect();
    let Behaviour::Planner { params } = &mut agent.behaviour else { panic!("the moving scene's ship plans") };
    params.waypoints = waypoints;
    params.clearance = 4.0;
    params.iteration_limit = 64;
    params.arrival_radius = 8.0;
    params.replan_interval = 0.5;
    params.incoming_fire = 0.0;
    agent.state = BehaviourState::start(&agent.behaviour);
    world
}

/// What a flight showed: the smallest signed distance between any planner ship's sphere and any
/// obstacle's, steps in contact, and when the last ship finished (None: some waypoint left).
struct Flight {
    min_signed_distance: f32,
    contact_steps: usize,
    finished_at: Option<f32>,
    reported_unreachable: usize,
}

/// Flies `world` for `seconds`, measuring distances from the world's own positions each step.
fn fly(world: &mut World, seconds: f32) -> Flight {
    let mut flight = Flight {
        min_signed_distance: f32::INFINITY,
        contact_steps: 0,
        finished_at: None,
        reported_unreachable: 0,
    };
    let steps = (seconds / world.dt).ceil() as usize;
    for step in 1..=steps {
        world.step();
        let mut all_done = true;
        for agent in &world.agents {
            let BehaviourState::Planner(ship) = &agent.state else { continue };
            all_done &= ship.remaining.is_empty();
            let p = agent.kinematics.position;
            for o in &world.obstacles {
                let d = p.distance(o.position) - o.radius - agent.limits.radius;
                flight.min_signed_distance = flight.min_signed_distance.min(d);
                if d < 0.0 {
                    flight.contact_steps += 1;
                }
            }
        }
        if all_done && flight.finished_at.is_none() {
            flight.finished_at = Some(step as f32 * world.dt);
        }
    }
    for agent in &world.agents {
        if let BehaviourState::Planner(ship) = &agent.state {
            flight.reported_unreachable += ship.unreachable.len();
        }
    }
    flight
}

fn check_class(spheres: usize, max_speed: f32, seeds: u64) {
    let mut failures = Vec::new();
    let mut worst = f32::INFINITY;
    for seed in 0..seeds {
        let mut world = moving_field(spheres, max_speed, seed);
        let flight = fly(&mut world, FLIGHT_BOUND);
        worst = worst.min(flight.min_signed_distance);
        if flight.contact_steps > 0 || flight.finished_at.is_none() || flight.reported_unreachable > 0 {
            failures.push(format!(
                "seed {seed}: min signed distance {:.2}, contact steps {}, finished {:?}, unreachable {}",
                flight.min_signed_distance,
                flight.contact_steps,
                flight.finished_at,
                flight.reported_unreachable
            ));
        }
    }
    eprintln!(
        "{spheres} spheres up to {max_speed} u/s: {seeds} fields, worst min signed distance {worst:.2}"
    );
    assert!(failures.is_empty(), "{} of {seeds} fields failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn sixty_spheres_at_a_quarter_of_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(60, 30.0, 60);
}

#[test]
fn twenty_spheres_at_half_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(20, 60.0, 60);
}

#[test]
fn the_shipped_moving_scenes_are_flown_without_contact_and_finish() {
    for name in ["planner-moving.json", "planner-crowd.json"] {
        let mut world = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap();
        assert!(world.obstacles.iter().any(|o| o.velocity != Vec3::ZERO), "{name} moves");
        let flight = fly(&mut world, 180.0);
        assert!(flight.contact_steps == 0, "{name}: min signed distance {:.2}", flight.min_signed_distance);
        assert!(flight.finished_at.is_some(), "{name}: waypoints left after 180 s");
        assert_eq!(flight.reported_unreachable, 0, "{name}");
    }
}

#[test]
fn the_field_generator_makes_moving_fields_of_the_class() {
    let world = moving_field(60, 30.0, 3);
    assert_eq!(world.obstacles.len(), 60);
    assert!(world.obstacles.iter().all(|o| o.velocity.length() <= 30.0 && (15.0..=45.0).contains(&o.radius)));
    assert!(world.obstacles.iter().any(|o| o.velocity.length() > 20.0));
    assert_eq!(world.agents.len(), 1);
}

#[test]
fn a_moving_sphere_is_planned_against_grown_by_its_speed_times_the_horizon_and_a_drag_is_not_motion() {
    use steerlab::behaviours::{Gizmos, Kinematics, Limits};
    use steerlab::geometry::Sphere;
    use steerlab::planner::ship::sweep_horizon;
    use steerlab::planner::{ship, PlannerParams, ShipState};
    let params = PlannerParams { waypoints: vec![Vec3::new(600.0, 0.0, 0.0)], ..PlannerParams::default() };
    let limits = Limits { radius: 6.0, max_speed: 120.0, max_acceleration: 200.0 };
    let k = Kinematics::default();
    let mut state = ShipState::new(&params);
    let mut gizmos = Gizmos::disabled();
    let dt = 1.0 / 60.0;
    let mut sphere = Sphere { center: Vec3::new(300.0, 100.0, 0.0), radius: 20.0 };
    // 30 u/s along −y for a little over one replan interval: the next plan sees radius 20 + 30 × horizon.
    for _ in 0..40 {
        ship(&k, &limits, &[sphere], &params, &mut state, dt, &mut gizmos);
        sphere.center.y -= 30.0 * dt;
    }
    let planned = state.index.as_ref().map(|i| i.spheres()[0]).unwrap();
    let expected = 20.0 + 30.0 * sweep_horizon(&params);
    assert!((planned.radius - expected).abs() < 0.05, "{} vs {expected}", planned.radius);
    // Dragged 300 units in one step (an edit): not a speed of 18,000 u/s.
    let mut state = ShipState::new(&params);
    let still = Sphere { center: Vec3::new(300.0, 100.0, 0.0), radius: 20.0 };
    for step in 0..40 {
        let at = if step < 5 {
            still
        } else {
            Sphere { center: still.center + Vec3::new(0.0, 300.0, 0.0), ..still }
        };
        ship(&k, &limits, &[at], &params, &mut state, dt, &mut gizmos);
    }
    assert_eq!(state.index.as_ref().map(|i| i.spheres()[0].radius), Some(20.0));
}
