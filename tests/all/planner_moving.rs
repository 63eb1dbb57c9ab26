//! Moving obstacles (issue 9 §5): the ship plans against each sphere grown by how far it can move
//! before the plan is checked again (`planner/ship.rs`, step 0). Checked here, independently of the
//! planner (centre distances from the world's own positions every step), on the shipped moving
//! scenes and on seeded random moving fields of the class the README guarantees:
//!
//! - a box of 700 × 600 × 400 (x 0..700) in which spheres of radius 15–45 move in straight lines
//!   and bounce off its walls, their speeds uniform up to a limit;
//! - the issue's ship (radius 6, max speed 120, max acceleration 200, clearance 4, iteration limit
//!   64, replan every 0.5 s, arrival radius 8) starting outside the box and sent to four waypoints
//!   outside it on alternate sides (x = 780 and x = −80), so every route crosses the moving field;
//! - up to 150 spheres moving at up to 60 u/s (half the ship's speed), or up to 40 at up to
//!   90 u/s; tested on 60 seeded fields each at 80 ≤ 20, 80 ≤ 40, 40 ≤ 60, 150 ≤ 60 and
//!   40 ≤ 90 u/s.
//!
//! In that class: zero contact (the ship's sphere never overlaps an obstacle's) and every waypoint
//! reached within [`FLIGHT_BOUND`], none reported unreachable. Denser or faster fields are
//! outside (README: contact measured there by `measure_beyond_the_guaranteed_class`).

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
    agent.about.start = agent.kinematics;
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
    check_fields(spheres, max_speed, seeds, true);
}

/// Flies `seeds` fields; every flight must be free of contact and, with `reach`, finish with every
/// waypoint reached and none reported unreachable.
fn check_fields(spheres: usize, max_speed: f32, seeds: u64, reach: bool) {
    let mut failures = Vec::new();
    let mut worst = f32::INFINITY;
    for seed in 0..seeds {
        let mut world = moving_field(spheres, max_speed, seed);
        let flight = fly(&mut world, FLIGHT_BOUND);
        worst = worst.min(flight.min_signed_distance);
        let unfinished = flight.finished_at.is_none() || flight.reported_unreachable > 0;
        if flight.contact_steps > 0 || (reach && unfinished) {
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

// The three sets that touched the ship before the short-horizon layer and the growth cap (80 at
// ≤ 20 u/s: 1 of 60 fields, −5.3; 80 at ≤ 40: 2 of 60, −10.3; 40 at ≤ 60: 1 of 30, −14.4). Every
// contact then was the ship flying an exit leg out of a swept sphere that had grown over it, into
// a slow real sphere beside it (`planner/ship.rs`, step 0).

#[test]
fn eighty_spheres_at_a_sixth_of_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(80, 20.0, 60);
}

#[test]
fn eighty_spheres_at_a_third_of_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(80, 40.0, 60);
}

#[test]
fn forty_spheres_at_half_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(40, 60.0, 60);
}

#[test]
fn a_hundred_and_fifty_spheres_at_half_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(150, 60.0, 60);
}

#[test]
fn forty_spheres_at_three_quarters_of_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_fields(40, 90.0, 60, true);
}

// The two sets beyond the class that still touched the ship (80 at ≤ 90 u/s: 2 of 60 fields,
// −0.1 and −0.7; 40 at ≤ 110 u/s: 2 of 60, −8.1 and −10.3), each contact from a sphere that had
// bounced off the box within the short-horizon layer's 1.5 s: it predicted straight-on motion.
// With the bounces predicted (`ship::predicted_centre`), none.

#[test]
fn eighty_spheres_at_three_quarters_of_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(80, 90.0, 60);
}

#[test]
fn forty_spheres_at_eleven_twelfths_of_the_ship_speed_never_touch_it_and_every_waypoint_is_reached() {
    check_class(40, 110.0, 60);
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

/// The moving scene's first ship alone with `obstacles` (no bounds: spheres fly straight on), the
/// issue's limits, sent from `start` through `waypoints`.
fn lone_ship(start: Vec3, waypoints: Vec<Vec3>, obstacles: &[(Vec3, f32, Vec3)]) -> World {
    let mut world =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-moving.json")).unwrap();
    world.agents.truncate(1);
    world.bounds = None;
    world.obstacles = obstacles
        .iter()
        .map(|&(position, radius, velocity)| Obstacle {
            position,
            radius,
            velocity,
            start: (position, velocity),
        })
        .collect();
    let agent = &mut world.agents[0];
    agent.kinematics.position = start;
    agent.kinematics.velocity = Vec3::ZERO;
    agent.about.start = agent.kinematics;
    agent.limits.radius = SHIP_RADIUS;
    agent.limits.max_speed = 120.0;
    agent.limits.max_acceleration = 200.0;
    let Behaviour::Planner { params } = &mut agent.behaviour else { panic!("the moving scene's ship plans") };
    params.waypoints = waypoints;
    params.clearance = 4.0;
    params.arrival_radius = 8.0;
    params.replan_interval = 0.5;
    params.incoming_fire = 0.0;
    agent.state = BehaviourState::start(&agent.behaviour);
    world
}

fn ship_state(world: &World) -> &steerlab::planner::ShipState {
    match &world.agents[0].state {
        BehaviourState::Planner(ship) => ship,
        _ => panic!("a planner ship"),
    }
}

#[test]
fn a_ship_holding_on_its_last_waypoint_steps_aside_from_a_sphere_rolling_at_it_and_comes_back() {
    // The ship reaches (20, 0, 0) and holds; a sphere of radius 30 rolls along the x axis at
    // 60 u/s straight through the hold point. Staying put is contact (independent of the planner:
    // the sphere's centre passes through the point).
    let hold = Vec3::new(20.0, 0.0, 0.0);
    let mut world =
        lone_ship(Vec3::ZERO, vec![hold], &[(Vec3::new(500.0, 0.0, 0.0), 30.0, Vec3::new(-60.0, 0.0, 0.0))]);
    let mut max_height = 0.0f32;
    let mut flight = Flight {
        min_signed_distance: f32::INFINITY,
        contact_steps: 0,
        finished_at: None,
        reported_unreachable: 0,
    };
    for _ in 0..(20.0 / world.dt) as usize {
        world.step();
        let p = world.agents[0].kinematics.position;
        let o = &world.obstacles[0];
        let d = p.distance(o.position) - o.radius - SHIP_RADIUS;
        flight.min_signed_distance = flight.min_signed_distance.min(d);
        flight.contact_steps += usize::from(d < 0.0);
        max_height = max_height.max(p.z.abs());
    }
    let ship = ship_state(&world);
    assert!(ship.finished, "the waypoint was reached before the sphere came");
    assert_eq!(flight.contact_steps, 0, "min signed distance {:.2}", flight.min_signed_distance);
    assert!(ship.dodge_steps > 0, "the hold point itself is hit: the ship must have moved aside");
    assert_eq!(max_height, 0.0, "a flat scene's dodge stays in its plane");
    let back = world.agents[0].kinematics.position.distance(hold);
    assert!(back < 1.0, "back on the hold point once the sphere has passed: {back:.2} away");
}

#[test]
fn a_sphere_crossing_the_route_at_half_the_ship_speed_is_dodged() {
    // Timed to meet the ship where its straight route crosses the sphere's line, in 3D.
    let mut world = lone_ship(
        Vec3::new(-80.0, 0.0, 0.0),
        vec![Vec3::new(780.0, 0.0, 10.0)],
        &[(Vec3::new(400.0, -270.0, 0.0), 35.0, Vec3::new(0.0, 60.0, 0.0))],
    );
    let flight = fly(&mut world, 30.0);
    assert_eq!(flight.contact_steps, 0, "min signed distance {:.2}", flight.min_signed_distance);
    assert!(flight.finished_at.is_some());
}

#[test]
fn a_swept_sphere_stops_growing_short_of_the_ship_so_no_plan_starts_inside_one() {
    use steerlab::planner::ship::{sweep_horizon, GROWTH_GAP};
    // A sphere 80 units ahead closing at 40 u/s: grown by its full sweep (40 u/s × the horizon)
    // it would swallow the ship, and the plan would start with an exit leg pushed out of it that
    // no cast checks against the real spheres round the ship (the cause of every contact the old
    // moving-field measurements found).
    let mut world = lone_ship(
        Vec3::ZERO,
        vec![Vec3::new(0.0, 400.0, 0.0)],
        &[(Vec3::new(80.0, 0.0, 0.0), 20.0, Vec3::new(-40.0, 0.0, 0.0))],
    );
    let Behaviour::Planner { params } = &world.agents[0].behaviour else { panic!() };
    let full = 20.0 + 40.0 * sweep_horizon(params);
    let mut checked = 0;
    for _ in 0..40 {
        world.step();
        let ship = ship_state(&world);
        let p = world.agents[0].kinematics.position;
        if let Some(index) = &ship.index {
            let planned = index.spheres()[0];
            let real = world.obstacles[0].position;
            // The index was built at the last replan; the ship has moved at most 2 units since.
            let room = planned.center.distance(p) - SHIP_RADIUS - 4.0 - GROWTH_GAP + 2.0;
            assert!(planned.radius <= room, "planned radius {} with room {room}", planned.radius);
            assert!(planned.radius < full, "the cap bit: {} < {full}", planned.radius);
            assert!(real.distance(planned.center) < 41.0);
            checked += 1;
        }
        assert!(
            !matches!(ship.kinds.first(), Some(steerlab::planner::WaypointKind::Exit)),
            "no exit leg: the ship is never inside a planned-against sphere"
        );
    }
    assert!(checked > 30);
}

#[test]
fn a_huge_sphere_closing_slower_than_the_ship_on_a_ship_at_rest_ten_units_away_cannot_be_avoided() {
    // Why the guaranteed class bounds radii and starts the ship clear: a sphere of radius 500
    // closing at 100 u/s (slower than the ship's 120) on a ship at rest 10 units from its surface.
    // Independent check that no control within the limits avoids contact: from rest with
    // acceleration at most a, the ship is within ½·a·t² of its start at time t whatever it does;
    // if that whole ball lies inside the sphere grown by the ship's radius at some t, every
    // trajectory touches it.
    let (radius, speed, gap, a) = (500.0f32, 100.0f32, 10.0f32, 200.0f32);
    let start = Vec3::ZERO;
    let centre = |t: f32| Vec3::new(radius + SHIP_RADIUS + gap - speed * t, 0.0, 0.0);
    let proof = (1..=100)
        .map(|k| k as f32 * 0.01)
        .find(|&t| centre(t).distance(start) + 0.5 * a * t * t < radius + SHIP_RADIUS);
    assert!(proof.is_some(), "the reachable ball is swallowed at some t ≤ 1 s");
    // And the planner's ship, given a waypoint behind itself, does touch it.
    let mut world = lone_ship(
        start,
        vec![Vec3::new(-400.0, 0.0, 0.0)],
        &[(centre(0.0), radius, Vec3::new(-speed, 0.0, 0.0))],
    );
    let flight = fly(&mut world, 2.0);
    assert!(flight.contact_steps > 0, "min signed distance {:.2}", flight.min_signed_distance);
}

/// The guaranteed class's fastest sets (README, "Moving obstacles"), with the statistics the
/// tests above do not print: what 60 seeded fields each of 80 spheres at up to 90 u/s and 40 at
/// up to 110 u/s do (contact depths, whether the sphere had just bounced). A measurement, run by hand
/// (`cargo test --release --test all measure_beyond -- --ignored --nocapture`); it fails only if a
/// flight stops being finite.
#[test]
#[ignore = "a measurement for the README (a few minutes)"]
fn measure_beyond_the_guaranteed_class() {
    for (spheres, max_speed) in [(80, 90.0), (40, 110.0)] {
        let (mut contact_fields, mut holding_contacts, mut unfinished, mut unreachable) = (0, 0, 0, 0);
        let mut worst = f32::INFINITY;
        let mut depths = Vec::new();
        for seed in 0..60 {
            let mut world = moving_field(spheres, max_speed, seed);
            let mut field_min = f32::INFINITY;
            let mut held_at_contact = false;
            let mut bounced_before_contact = false;
            let mut finished = false;
            // When each sphere last changed velocity (a bounce off the box), seconds.
            let mut velocities: Vec<Vec3> = world.obstacles.iter().map(|o| o.velocity).collect();
            let mut last_bounce = vec![f32::NEG_INFINITY; world.obstacles.len()];
            for step in 1..=(FLIGHT_BOUND / world.dt).ceil() as usize {
                world.step();
                let t = step as f32 * world.dt;
                let agent = &world.agents[0];
                let BehaviourState::Planner(ship) = &agent.state else { panic!() };
                let p = agent.kinematics.position;
                assert!(p.is_finite());
                for (i, o) in world.obstacles.iter().enumerate() {
                    if o.velocity != velocities[i] {
                        velocities[i] = o.velocity;
                        last_bounce[i] = t;
                    }
                    let d = p.distance(o.position) - o.radius - agent.limits.radius;
                    if d < 0.0 && d < field_min {
                        held_at_contact = ship.remaining.is_empty();
                        bounced_before_contact = t - last_bounce[i] <= steerlab::planner::ship::DODGE_HORIZON;
                    }
                    field_min = field_min.min(d);
                }
                finished = ship.remaining.is_empty();
            }
            let BehaviourState::Planner(ship) = &world.agents[0].state else { panic!() };
            unreachable += usize::from(!ship.unreachable.is_empty());
            unfinished += usize::from(!finished || !ship.unreachable.is_empty());
            worst = worst.min(field_min);
            if field_min < 0.0 {
                contact_fields += 1;
                holding_contacts += usize::from(held_at_contact);
                depths.push(format!(
                    "seed {seed}: {field_min:.1}{}{}",
                    if held_at_contact { " (holding)" } else { "" },
                    if bounced_before_contact {
                        " (that sphere bounced within the dodge horizon before)"
                    } else {
                        ""
                    }
                ));
            }
        }
        eprintln!(
            "{spheres} spheres <= {max_speed} u/s, 60 fields: {contact_fields} with contact ({holding_contacts} \
             deepest while holding after the last waypoint), worst {worst:.2}; {unfinished} not finished \
             or with a waypoint reported unreachable ({unreachable} reported); {}",
            depths.join(", ")
        );
    }
}

#[test]
fn the_short_horizon_layer_predicts_a_sphere_where_the_world_bounces_it() {
    use steerlab::geometry::Sphere;
    use steerlab::planner::ship::{predicted_centre, DODGE_HORIZON};
    use steerlab::planner::BounceBox;
    let world_text = r#"{"version": 2, "name": "Bounce",
        "bounds": {"min": [0, 0, -100], "max": [300, 200, 100]},
        "obstacles": [{"position": [250, 170, 0], "radius": 20, "velocity": [90, 40, 0]}],
        "agents": []}"#;
    let mut world = steerlab::scene::parse_scene(world_text, "bounce.json").unwrap();
    let bounds = world.bounds.map(|b| BounceBox { min: b.min, max: b.max });
    let start = Sphere { center: world.obstacles[0].position, radius: 20.0 };
    let velocity = world.obstacles[0].velocity;
    let steps = (DODGE_HORIZON / world.dt).round() as u32;
    let mut worst_straight = 0.0f32;
    for step in 1..=steps {
        world.step();
        let t = step as f32 * world.dt;
        let actual = world.obstacles[0].position;
        let predicted = predicted_centre(&start, velocity, t, bounds);
        assert!(predicted.distance(actual) < 0.05, "at {t} s: predicted {predicted}, world {actual}");
        worst_straight = worst_straight.max((start.center + velocity * t).distance(actual));
    }
    // Not vacuous: within the horizon the sphere bounces off two walls, far from straight on.
    assert!(worst_straight > 50.0, "{worst_straight}");
}
