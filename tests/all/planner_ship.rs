//! The ship of seed 004 flown by a tiny integrator (acceleration clamped to the maximum,
//! v += a dt, speed clamped, p += v dt, dt = 1/60): it reaches its waypoints without touching an
//! obstacle, recovers from pushes, and replans every half second.

use glam::Vec3;
use steerlab::behaviours::{GizmoRole, Gizmos, Kinematics, Limits, Steering};
use steerlab::geometry::Sphere;
use steerlab::planner::{ship, PlannerParams, ShipState, SplitMix64};

const DT: f32 = 1.0 / 60.0;
const MAX_STEPS: usize = 120 * 60;

/// What a flight did.
#[derive(Debug, PartialEq)]
struct Flight {
    state: ShipState,
    final_kinematics: Kinematics,
    /// Smallest distance from the ship's centre to an obstacle surface minus its radius.
    min_clearance: f32,
    /// Steps on which the ship's body overlapped an obstacle.
    collision_steps: usize,
    /// Step at which `finished` became true.
    finished_at: Option<usize>,
    /// Steps at which `replans` went up.
    replan_steps: Vec<usize>,
    /// Largest distance from the last waypoint after finishing.
    drift_after_finish: f32,
}

fn integrate(k: &mut Kinematics, steering: Steering, limits: &Limits) {
    let Steering::Acceleration(a) = steering else { panic!("the ship is dynamic: {steering:?}") };
    assert!(a.is_finite());
    let a = a.clamp_length_max(limits.max_acceleration);
    k.velocity = (k.velocity + a * DT).clamp_length_max(limits.max_speed);
    k.position += k.velocity * DT;
}

/// Flies for up to `max_steps`; `disturb(step, kinematics, obstacles)` may push the ship or move
/// obstacles before each step.
fn fly(
    start: Vec3,
    obstacles: &mut [Sphere],
    params: &PlannerParams,
    limits: &Limits,
    max_steps: usize,
    mut disturb: impl FnMut(usize, &mut Kinematics, &mut [Sphere]),
) -> Flight {
    let mut k = Kinematics { position: start, ..Default::default() };
    let mut state = ShipState::new(params);
    let mut gizmos = Gizmos::disabled();
    let mut flight = Flight {
        state: ShipState::default(),
        final_kinematics: k,
        min_clearance: f32::INFINITY,
        collision_steps: 0,
        finished_at: None,
        replan_steps: Vec::new(),
        drift_after_finish: 0.0,
    };
    let last_waypoint = params.waypoints.last().copied();
    for step in 0..max_steps {
        disturb(step, &mut k, obstacles);
        let replans_before = state.replans;
        let steering = ship(&k, limits, obstacles, params, &mut state, DT, &mut gizmos);
        if state.replans > replans_before {
            flight.replan_steps.push(step);
        }
        integrate(&mut k, steering, limits);
        for s in obstacles.iter() {
            let clearance = k.position.distance(s.center) - s.radius - limits.radius;
            flight.min_clearance = flight.min_clearance.min(clearance);
            if clearance < 0.0 {
                flight.collision_steps += 1;
            }
        }
        if state.finished && flight.finished_at.is_none() {
            flight.finished_at = Some(step);
        }
        if let (Some(_), Some(last)) = (flight.finished_at, last_waypoint) {
            flight.drift_after_finish = flight.drift_after_finish.max(k.position.distance(last));
        }
        if let Some(done) = flight.finished_at {
            if step > done + 180 {
                break;
            }
        }
    }
    flight.state = state;
    flight.final_kinematics = k;
    flight
}

/// A seeded field (3D, or flat on z = 0) whose start and waypoints keep 10% more than the
/// clearance from everything.
fn seeded_field(seed: u64, planar: bool) -> (Vec3, Vec<Sphere>, Vec<Vec3>) {
    let mut rng = SplitMix64::new(seed);
    let depth = if planar { 0.0 } else { 100.0 };
    let lo = Vec3::new(-300.0, -300.0, -depth);
    let hi = Vec3::new(300.0, 300.0, depth);
    let keep = 8.0 + 10.0;
    let n_obstacles = if planar { 10 + rng.below(10) } else { 15 + rng.below(15) };
    let obstacles: Vec<Sphere> = (0..n_obstacles)
        .map(|_| Sphere { center: rng.point_in(lo, hi), radius: rng.range(10.0, 45.0) })
        .collect();
    let free_point = |rng: &mut SplitMix64| loop {
        let p = rng.point_in(lo, hi);
        if obstacles.iter().all(|s| p.distance(s.center) > 1.1 * (s.radius + keep)) {
            return p;
        }
    };
    let start = free_point(&mut rng);
    let waypoints = (0..2 + rng.below(3)).map(|_| free_point(&mut rng)).collect();
    (start, obstacles, waypoints)
}

#[test]
fn ship_reaches_every_waypoint_in_seeded_fields_without_touching_an_obstacle() {
    let limits = Limits::default();
    let mut detours = 0;
    for seed in 0..16u64 {
        let planar = seed % 2 == 0;
        let (start, mut obstacles, waypoints) = seeded_field(seed, planar);
        let params = PlannerParams { waypoints: waypoints.clone(), ..PlannerParams::default() };
        let flight = fly(start, &mut obstacles, &params, &limits, MAX_STEPS, |_, _, _| {});
        eprintln!(
            "seed {seed} ({}): {} waypoints, finished at {:?} s, min clearance {:.2}, {} replans ({} early), \
             planned {:.0} vs straight {:.0}",
            if planar { "2D" } else { "3D" },
            waypoints.len(),
            flight.finished_at.map(|s| s as f32 * DT),
            flight.min_clearance,
            flight.state.replans,
            flight.state.early_replans,
            flight.state.planned_length,
            flight.state.straight_length,
        );
        assert_eq!(flight.collision_steps, 0, "seed {seed}: min clearance {}", flight.min_clearance);
        assert!(flight.state.finished, "seed {seed}: {:?}", flight.state.status);
        assert_eq!(flight.state.waypoints_reached as usize, waypoints.len(), "seed {seed}");
        assert_eq!(flight.state.skipped, 0);
        assert!(flight.state.iterations > 0);
        assert!(flight.state.planned_length >= flight.state.straight_length - 1e-3);
        if flight.state.planned_length > flight.state.straight_length + 1.0 {
            detours += 1;
        }
    }
    assert!(detours >= 6, "too few fields put obstacles in the way: {detours}");
}

#[test]
fn ship_brakes_to_a_stop_on_the_last_waypoint_without_overshoot() {
    let limits = Limits::default();
    let last = Vec3::new(400.0, 0.0, 0.0);
    let params = PlannerParams { waypoints: vec![last], ..PlannerParams::default() };
    let flight = fly(Vec3::ZERO, &mut [], &params, &limits, MAX_STEPS, |_, _, _| {});
    assert!(flight.state.finished);
    assert!(flight.drift_after_finish <= params.arrival_radius, "{}", flight.drift_after_finish);
    // It settles on the waypoint itself and stops.
    assert!(flight.final_kinematics.position.distance(last) < 0.5, "{}", flight.final_kinematics.position);
    assert!(flight.final_kinematics.velocity.length() < 1.0);
    assert!(flight.final_kinematics.position.x <= last.x + 0.5, "overshot");
    // About 400 units at 150 u/s with braking: well under five seconds.
    assert!(flight.finished_at.unwrap() < 5 * 60);
}

#[test]
fn ship_recovers_from_a_sideways_push_and_still_arrives() {
    let limits = Limits::default();
    let mut obstacles = vec![
        Sphere { center: Vec3::new(200.0, 0.0, 0.0), radius: 40.0 },
        Sphere { center: Vec3::new(420.0, 60.0, 0.0), radius: 35.0 },
    ];
    let waypoints = vec![Vec3::new(600.0, 0.0, 0.0), Vec3::new(600.0, 250.0, 0.0)];
    let params = PlannerParams { waypoints: waypoints.clone(), ..PlannerParams::default() };
    // At 1.5 s, a kick of 250 u/s sideways (away from the obstacles' side of the route).
    let flight = fly(Vec3::ZERO, &mut obstacles, &params, &limits, MAX_STEPS, |step, k, _| {
        if step == 90 {
            k.velocity += Vec3::new(0.0, -250.0, 0.0);
        }
    });
    assert!(flight.state.finished, "{:?}", flight.state.status);
    assert_eq!(flight.state.waypoints_reached, 2);
    assert!(flight.state.early_replans >= 1, "the push should knock it off its leg");
    assert_eq!(flight.collision_steps, 0, "min clearance {}", flight.min_clearance);
}

#[test]
fn ship_pushed_toward_an_obstacle_recovers_without_ending_inside_it() {
    let limits = Limits::default();
    let mut obstacles = vec![Sphere { center: Vec3::new(250.0, 0.0, 0.0), radius: 50.0 }];
    let params = PlannerParams { waypoints: vec![Vec3::new(500.0, 0.0, 0.0)], ..PlannerParams::default() };
    // Repeated small pushes (weapons fire) while passing the obstacle.
    let flight = fly(Vec3::ZERO, &mut obstacles, &params, &limits, MAX_STEPS, |step, k, _| {
        if (60..200).contains(&step) && step % 20 == 0 {
            k.velocity += Vec3::new(0.0, 60.0, 0.0);
        }
    });
    assert!(flight.state.finished);
    assert_eq!(flight.collision_steps, 0, "min clearance {}", flight.min_clearance);
}

#[test]
fn ship_replans_every_half_second() {
    let limits = Limits::default();
    let waypoints =
        vec![Vec3::new(500.0, 0.0, 0.0), Vec3::new(500.0, 500.0, 0.0), Vec3::new(0.0, 500.0, 0.0)];
    let params = PlannerParams { waypoints, ..PlannerParams::default() };
    let flight = fly(Vec3::ZERO, &mut [], &params, &limits, 4 * 60, |_, _, _| {});
    assert_eq!(flight.state.early_replans, 0);
    // The first plan is on step 0; replans follow every 30 steps of 1/60 s.
    assert_eq!(flight.replan_steps, (1..=7).map(|i| i * 30).collect::<Vec<_>>());
    assert_eq!(flight.state.replans, 7);
}

#[test]
fn ship_avoids_an_obstacle_that_moves_into_its_route() {
    let limits = Limits::default();
    // An obstacle drifts down into the route during the first second; only replanning sees it.
    let mut obstacles = vec![Sphere { center: Vec3::new(300.0, 150.0, 0.0), radius: 40.0 }];
    let params = PlannerParams { waypoints: vec![Vec3::new(600.0, 0.0, 0.0)], ..PlannerParams::default() };
    let flight = fly(Vec3::ZERO, &mut obstacles, &params, &limits, MAX_STEPS, |step, _, obstacles| {
        if step < 60 {
            obstacles[0].center.y -= 150.0 / 60.0;
        }
    });
    assert!(flight.state.finished);
    assert_eq!(flight.collision_steps, 0, "min clearance {}", flight.min_clearance);
    assert!(
        flight.state.planned_length < flight.state.straight_length + 1.0,
        "the first plan saw no obstacle"
    );
}

#[test]
fn ship_skips_an_unreachable_waypoint_and_flies_on() {
    let limits = Limits::default();
    let mut obstacles = vec![Sphere { center: Vec3::new(200.0, 0.0, 0.0), radius: 40.0 }];
    let waypoints = vec![Vec3::new(200.0, 10.0, 0.0), Vec3::new(400.0, 100.0, 0.0)];
    let params = PlannerParams { waypoints, ..PlannerParams::default() };
    let flight = fly(Vec3::ZERO, &mut obstacles, &params, &limits, MAX_STEPS, |_, _, _| {});
    assert!(flight.state.finished);
    assert_eq!(flight.state.skipped, 1);
    assert_eq!(flight.state.waypoints_reached, 1);
    assert_eq!(flight.collision_steps, 0);
}

#[test]
fn ship_starting_inside_an_obstacle_gets_out_and_arrives() {
    let limits = Limits::default();
    let mut obstacles = vec![Sphere { center: Vec3::new(10.0, 0.0, 0.0), radius: 30.0 }];
    let params = PlannerParams { waypoints: vec![Vec3::new(300.0, 0.0, 0.0)], ..PlannerParams::default() };
    let flight = fly(Vec3::ZERO, &mut obstacles, &params, &limits, MAX_STEPS, |_, _, _| {});
    assert!(flight.state.finished);
    assert_eq!(flight.state.waypoints_reached, 1);
}

#[test]
fn ship_with_no_waypoints_holds_still() {
    let limits = Limits::default();
    let params = PlannerParams::default();
    let flight = fly(Vec3::new(5.0, 5.0, 0.0), &mut [], &params, &limits, 120, |_, _, _| {});
    assert!(flight.state.finished);
    assert_eq!(flight.final_kinematics.position, Vec3::new(5.0, 5.0, 0.0));
}

#[test]
fn ship_flights_are_deterministic() {
    let limits = Limits::default();
    let (start, obstacles, waypoints) = seeded_field(3, false);
    let params = PlannerParams { waypoints, ..PlannerParams::default() };
    let a = fly(start, &mut obstacles.clone(), &params, &limits, 1200, |_, _, _| {});
    let b = fly(start, &mut obstacles.clone(), &params, &limits, 1200, |_, _, _| {});
    assert_eq!(a, b);
}

#[test]
fn ship_explains_itself_with_gizmos() {
    let limits = Limits::default();
    let obstacles = [Sphere { center: Vec3::new(200.0, 0.0, 0.0), radius: 40.0 }];
    let params = PlannerParams { waypoints: vec![Vec3::new(400.0, 0.0, 0.0)], ..PlannerParams::default() };
    let mut state = ShipState::new(&params);
    let mut gizmos = Gizmos::recording();
    let k = Kinematics::default();
    let _ = ship(&k, &limits, &obstacles, &params, &mut state, DT, &mut gizmos);
    let roles: Vec<GizmoRole> = gizmos.items().iter().map(|g| g.role).collect();
    for role in [
        GizmoRole::Probe,
        GizmoRole::CurrentSegment,
        GizmoRole::Target,
        GizmoRole::CastHit,
        GizmoRole::AvoidanceVector,
    ] {
        assert!(roles.contains(&role), "{role:?} missing from {roles:?}");
    }
    let mut silent = Gizmos::disabled();
    let mut state = ShipState::new(&params);
    let _ = ship(&k, &limits, &obstacles, &params, &mut state, DT, &mut silent);
    assert!(silent.items().is_empty());
}

#[test]
fn moving_waypoint_two_after_reaching_waypoint_one_does_not_send_the_ship_back() {
    // Issue 12: reached waypoints are consumed, as seed 004 says.
    let limits = Limits { radius: 6.0, max_speed: 120.0, max_acceleration: 200.0 };
    let w1 = Vec3::new(100.0, 0.0, 0.0);
    let w2 = Vec3::new(200.0, 100.0, 0.0);
    let params = PlannerParams { waypoints: vec![w1, w2], ..PlannerParams::default() };
    let mut state = ShipState::new(&params);
    let mut k = Kinematics::default();
    let mut gizmos = Gizmos::disabled();
    let mut steps = 0;
    while state.waypoints_reached == 0 && steps < 60 * 30 {
        let steering = ship(&k, &limits, &[], &params, &mut state, DT, &mut gizmos);
        integrate(&mut k, steering, &limits);
        steps += 1;
    }
    assert_eq!(state.waypoints_reached, 1, "waypoint 1 reached first");
    let moved = PlannerParams { waypoints: vec![w1, Vec3::new(150.0, -120.0, 0.0)], ..params.clone() };
    let mut after = state.after_edit(&params.waypoints, &moved);
    assert_eq!(after.remaining, vec![moved.waypoints[1]]);
    // Flying on, once clear of waypoint 1 the ship never comes back within its arrival radius.
    let mut left = false;
    for _ in 0..60 * 10 {
        let steering = ship(&k, &limits, &[], &moved, &mut after, DT, &mut gizmos);
        integrate(&mut k, steering, &limits);
        let distance = k.position.distance(w1);
        left |= distance > 3.0 * params.arrival_radius;
        assert!(!(left && distance < params.arrival_radius), "came back to waypoint 1");
    }
    assert!(left);
    assert!(after.finished && after.waypoints_reached == 2, "{after:?}");
    // Moving waypoint 1 itself makes it a new waypoint to fly to.
    let first_moved = PlannerParams { waypoints: vec![Vec3::new(90.0, 10.0, 0.0), w2], ..params.clone() };
    assert_eq!(state.after_edit(&params.waypoints, &first_moved).remaining.len(), 2);
}

#[test]
fn a_waypoint_sealed_in_a_shell_is_reported_unreachable_in_the_metrics_and_the_ship_holds() {
    // Waypoint 2 of the walk-through sealed in a shell of 48 spheres (no gap for the ship), as the
    // metrics (`run --json`, the window's panel) report it: status, which waypoint, why.
    let mut world = steerlab::scene::load_scene(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-two-waypoints.json"),
    )
    .unwrap();
    world.reset();
    let steerlab::sim::Behaviour::Planner { params } = &world.agents[0].behaviour else { panic!() };
    let sealed = params.waypoints[1];
    for k in 0..48 {
        let zc = 1.0 - 2.0 * (k as f32 + 0.5) / 48.0;
        let r = (1.0 - zc * zc).sqrt();
        let a = std::f32::consts::PI * (3.0 - 5f32.sqrt()) * k as f32;
        let position = sealed + Vec3::new(r * a.cos(), r * a.sin(), zc) * 46.0;
        world.obstacles.push(steerlab::sim::Obstacle::still(position, 20.0));
    }
    world.run_steps(60 * 60);
    let metrics = world.metrics();
    let planner = metrics[0].planner.as_ref().unwrap();
    assert_eq!(planner.status, steerlab::planner::ShipStatus::Unreachable, "{planner:?}");
    assert_eq!(planner.unreachable_waypoint, Some(2));
    assert_eq!(planner.unreachable_reason, Some("no_route"));
    assert_eq!(planner.waypoints_reached, 1);
    assert_eq!(metrics[0].collisions, 0);
    assert!(world.agents[0].kinematics.velocity.length() < 0.5, "holds position");
}

#[test]
fn a_ship_whose_waypoints_are_all_inside_obstacles_finishes_without_arriving() {
    // It used to report status `unreachable`, no waypoint reached, and `arrived_at` 0.0167 (the
    // table's "arrived (s) 0.02"): finishing by dropping waypoints counted as arriving.
    let scene = r#"{"version": 2,
        "obstacles": [{"position": [0, 0, 0], "radius": 100}, {"position": [300, 0, 0], "radius": 100}],
        "agents": [
          {"name": "inside", "position": [-300, 0, 0], "behaviours": [{"type": "planner", "waypoints": [[0, 0, 0], [300, 0, 0]]}]},
          {"name": "last inside", "position": [-300, 0, 0], "behaviours": [{"type": "planner", "waypoints": [[-250, 50, 0], [300, 0, 0]]}]},
          {"name": "reachable", "position": [-300, 0, 0], "behaviours": [{"type": "planner", "waypoints": [[-300, 150, 0]]}]}]}"#;
    let mut world = steerlab::scene::parse_scene(scene, "inside.json").unwrap();
    world.run_steps(60 * 20);
    let metrics = world.metrics();
    let status = |i: usize| metrics[i].planner.as_ref().map(|p| (p.status, p.waypoints_reached));
    use steerlab::planner::ShipStatus::{Arrived, Unreachable};
    assert_eq!(status(0), Some((Unreachable, 0)));
    assert_eq!(metrics[0].arrived_at, None, "{:?}", metrics[0]);
    assert!(world.agents[0].is_finished() && !world.agents[0].has_arrived_at_end());
    // Reaching a waypoint and then dropping the last one is not arriving either.
    assert_eq!(status(1), Some((Unreachable, 1)));
    assert_eq!(metrics[1].arrived_at, None, "{:?}", metrics[1]);
    // A ship that reaches its last waypoint arrives, as before.
    assert_eq!(status(2), Some((Arrived, 1)));
    assert!(metrics[2].arrived_at.is_some_and(|t| t > 0.5), "{:?}", metrics[2]);
    // The window's metrics panel and the command line's table show the same field.
    let cells: Vec<String> = metrics
        .iter()
        .map(|m| steerlab::ui::metrics::cell_text(&steerlab::ui::metrics::MetricColumn::ArrivedAt.cell(m)))
        .collect();
    assert_eq!(cells[0], "—");
    assert_eq!(cells[1], "—");
    assert_ne!(cells[2], "—");
}

#[test]
fn a_ship_given_no_waypoint_holds_position_and_never_arrives() {
    // It used to report `arrived` at its first step (arrived_at 0.0167 s, an Arrived event):
    // with nothing to reach, "no waypoint left" was read as "every waypoint reached".
    let scene = r#"{"version": 2,
        "agents": [{"name": "idle", "position": [10, 20, 30], "behaviours": [{"type": "planner", "waypoints": []}]}]}"#;
    let mut world = steerlab::scene::parse_scene(scene, "idle.json").unwrap();
    let mut arrivals = 0;
    for _ in 0..120 {
        world.step();
        arrivals += world.events().iter().filter(|e| e.kind == steerlab::sim::EventKind::Arrived).count();
    }
    let metrics = world.metrics();
    let planner = metrics[0].planner.as_ref().unwrap();
    assert_eq!(planner.status, steerlab::planner::ShipStatus::Idle, "{planner:?}");
    assert_eq!(metrics[0].arrived_at, None, "{:?}", metrics[0]);
    assert_eq!(arrivals, 0);
    assert!(world.agents[0].is_finished() && !world.agents[0].has_arrived_at_end());
    assert!(
        world.agents[0].kinematics.position.distance(Vec3::new(10.0, 20.0, 30.0)) < 1.0,
        "holds position"
    );
    let steerlab::sim::BehaviourState::Planner(ship) = &world.agents[0].state else { panic!() };
    assert_eq!(ship.status_line(), "no waypoints, holding position");
    let json = serde_json::to_value(planner.status).unwrap();
    assert_eq!(json, "idle");
}

#[test]
fn an_idle_ship_given_a_waypoint_in_the_window_flies_to_it_and_arrives() {
    // The user's path from `idle`: the Target tool appends a waypoint to the selected ship.
    let scene = r#"{"version": 2,
        "agents": [{"name": "idle", "position": [0, 0, 0], "behaviours": [{"type": "planner", "waypoints": []}]}]}"#;
    let world = steerlab::scene::parse_scene(scene, "idle.json").unwrap();
    let mut app = steerlab::app::App::new(world, None);
    app.world.run_steps(30);
    let status = |app: &steerlab::app::App| app.world.metrics()[0].planner.as_ref().unwrap().status;
    assert_eq!(status(&app), steerlab::planner::ShipStatus::Idle);
    app.apply(steerlab::app::Command::AddWaypoint { agent: 0, position: Vec3::new(200.0, 0.0, 0.0) });
    app.world.run_steps(1);
    assert_eq!(status(&app), steerlab::planner::ShipStatus::Flying);
    app.world.run_steps(60 * 20);
    assert_eq!(status(&app), steerlab::planner::ShipStatus::Arrived);
    assert!(app.world.agents[0].kinematics.position.distance(Vec3::new(200.0, 0.0, 0.0)) < 20.0);
}

#[test]
fn a_ship_whose_waypoints_are_all_deleted_after_it_reached_one_is_idle_not_arrived() {
    // The inspector's ✖ on the last waypoint of a ship that had already arrived: it holds
    // position with nothing to reach, which is `idle`, as for a ship given none.
    let scene = r#"{"version": 2,
        "agents": [{"name": "ship", "position": [0, 0, 0],
                    "behaviours": [{"type": "planner", "waypoints": [[120, 0, 0]]}]}]}"#;
    let world = steerlab::scene::parse_scene(scene, "ship.json").unwrap();
    let mut app = steerlab::app::App::new(world, None);
    let status = |app: &steerlab::app::App| app.world.metrics()[0].planner.as_ref().unwrap().status;
    app.world.run_steps(60 * 20);
    assert_eq!(status(&app), steerlab::planner::ShipStatus::Arrived);
    let steerlab::sim::Behaviour::Planner { params } = app.world.agents[0].behaviour.clone() else {
        panic!()
    };
    let emptied = steerlab::planner::PlannerParams { waypoints: Vec::new(), ..*params };
    app.apply(steerlab::app::Command::SetBehaviour {
        agent: 0,
        behaviour: steerlab::sim::Behaviour::Planner { params: Box::new(emptied) },
    });
    app.world.run_steps(2);
    assert_eq!(status(&app), steerlab::planner::ShipStatus::Idle);
    let steerlab::sim::BehaviourState::Planner(ship) = &app.world.agents[0].state else { panic!() };
    assert_eq!(ship.status_line(), "no waypoints, holding position");
    // Undo gives the waypoint back: the ship had reached it, so it has arrived again.
    app.apply(steerlab::app::Command::Undo);
    app.world.run_steps(2);
    assert_eq!(status(&app), steerlab::planner::ShipStatus::Arrived);
}
