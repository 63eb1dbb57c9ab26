//! Incoming fire (seed 004: "unexpected collisions/forces such as incoming weapons fire"): random
//! hits drawn from a seeded generator in the ship's state. Two runs are identical, the hits
//! really knock the ship about, and the ship still reaches every waypoint without touching an
//! obstacle in a static field.

use steerlab::scene::{parse_scene, scene_to_json};
use steerlab::sim::{Behaviour, BehaviourState, World};

/// A static 3D field: a ship, four waypoints at different heights, a dozen obstacles between
/// them, and incoming fire of `rate` hits per second.
fn field(rate: f32, seed: u64) -> World {
    let text = format!(
        r#"{{
  "version": 1,
  "name": "fire",
  "description": "A ship under fire in a static field.",
  "obstacles": [
    {{ "position": [120, 10, 20], "radius": 30 }},
    {{ "position": [200, -60, 40], "radius": 25 }},
    {{ "position": [260, 60, 60], "radius": 35 }},
    {{ "position": [340, 0, 80], "radius": 30 }},
    {{ "position": [420, 100, 40], "radius": 25 }},
    {{ "position": [420, -90, 90], "radius": 30 }},
    {{ "position": [520, 40, 100], "radius": 40 }},
    {{ "position": [600, -40, 60], "radius": 25 }},
    {{ "position": [300, 200, 20], "radius": 30 }},
    {{ "position": [180, 180, 70], "radius": 25 }},
    {{ "position": [80, 140, 40], "radius": 20 }},
    {{ "position": [650, 120, 80], "radius": 30 }}
  ],
  "agents": [{{
    "name": "ship", "position": [0, 0, 10], "radius": 8, "max_speed": 90, "max_acceleration": 240,
    "behaviour": {{
      "type": "planner",
      "waypoints": [[420, 10, 70], [700, 0, 90], [500, 220, 30], [40, 60, 10]],
      "clearance": 14, "arrival_radius": 10,
      "incoming_fire": {rate}, "fire_strength": 45, "fire_seed": {seed}
    }}
  }}]
}}"#
    );
    parse_scene(&text, "fire.json").unwrap()
}

fn hits(world: &World) -> u32 {
    match &world.agents[0].state {
        BehaviourState::Planner(ship) => ship.hits,
        other => panic!("not a planner: {other:?}"),
    }
}

/// Every agent's position and velocity as raw bits.
fn fingerprint(world: &World) -> Vec<u32> {
    world
        .agents
        .iter()
        .flat_map(|a| [a.kinematics.position.to_array(), a.kinematics.velocity.to_array()])
        .flatten()
        .map(f32::to_bits)
        .collect()
}

#[test]
fn incoming_fire_is_deterministic_run_to_run() {
    let mut a = field(2.0, 7);
    let mut b = field(2.0, 7);
    let mut trace_a = Vec::new();
    let mut trace_b = Vec::new();
    for _ in 0..1800 {
        a.step();
        b.step();
        trace_a.push(fingerprint(&a));
        trace_b.push(fingerprint(&b));
    }
    assert_eq!(trace_a, trace_b, "two runs of the same scene differ");
    assert_eq!(hits(&a), hits(&b));
    assert!(hits(&a) > 10, "two hits a second for 30 s should hit more than 10 times: {}", hits(&a));
}

#[test]
fn another_fire_seed_gives_other_hits() {
    let mut a = field(2.0, 7);
    let mut b = field(2.0, 8);
    a.run_steps(600);
    b.run_steps(600);
    assert_ne!(fingerprint(&a), fingerprint(&b));
}

#[test]
fn fire_knocks_the_ship_off_its_calm_course() {
    let mut calm = field(0.0, 7);
    let mut shot = field(2.0, 7);
    calm.run_steps(600);
    shot.run_steps(600);
    assert_eq!(hits(&calm), 0);
    let gap = calm.agents[0].kinematics.position.distance(shot.agents[0].kinematics.position);
    assert!(gap > 5.0, "the hits made no visible difference ({gap} units)");
}

#[test]
fn ship_under_fire_still_reaches_every_waypoint_without_collisions() {
    for seed in [1, 2, 3, 4, 5] {
        let mut world = field(1.5, seed);
        world.run_steps(120 * 60);
        let metrics = world.metrics();
        let m = &metrics[0];
        let planner = m.planner.as_ref().unwrap();
        assert!(hits(&world) > 5, "seed {seed}: only {} hits", hits(&world));
        assert_eq!(planner.waypoints_reached, 4, "seed {seed}: {m:?}");
        assert_eq!(m.collisions, 0, "seed {seed}: collided; min clearance {:?}", m.min_clearance);
        assert!(m.arrived_at.is_some(), "seed {seed}: never finished");
        assert!(planner.replans > 0);
    }
}

#[test]
fn fire_fields_round_trip_and_defaults_are_not_written() {
    let world = field(1.5, 42);
    let json = scene_to_json(&world).unwrap();
    assert!(json.contains("\"incoming_fire\": 1.5") && json.contains("\"fire_seed\": 42"), "{json}");
    let again = parse_scene(&json, "again.json").unwrap();
    let Behaviour::Planner { params } = &again.agents[0].behaviour else { panic!() };
    assert_eq!((params.incoming_fire, params.fire_strength, params.fire_seed), (1.5, 45.0, 42));

    let calm = field(0.0, 1);
    let json = scene_to_json(&calm).unwrap();
    assert!(!json.contains("incoming_fire") && !json.contains("fire_seed"), "{json}");
}

#[test]
fn negative_or_non_finite_fire_is_rejected_with_its_json_path() {
    for (field_name, bad) in [("incoming_fire", "-1"), ("fire_strength", "-5"), ("incoming_fire", "1e39")] {
        let text = format!(
            r#"{{"version": 1, "agents": [{{"position": [0, 0], "behaviour": {{"type": "planner",
               "waypoints": [[100, 0]], "{field_name}": {bad}}}}}]}}"#
        );
        let err = parse_scene(&text, "bad.json").unwrap_err().to_string();
        assert!(err.contains(&format!("agents[0].behaviour.{field_name}")), "{err}");
    }
}
