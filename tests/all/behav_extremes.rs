//! Every behaviour with every parameter at the ends of its declared range (and -0), agents
//! stacked on one point or at the coordinate limit, a start velocity of 1e6 against a maximum
//! speed of 0, steps of 0.0001 and 0.1 s: the scene either is refused with one located line,
//! or runs with finite positions, velocities, headings and metrics, and — an oracle independent
//! of each behaviour's formulas — no agent faster than its maximum speed after the first step
//! (agents whose main behaviour follows a curve excepted: they move on rails at their own speed).

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use steerlab::behaviours::param::{all_params, Param, ParamKind};
use steerlab::scene::parse_scene;
use steerlab::sim::NULLABLE_METRICS as OPTIONAL;

/// Every behaviour `type` a scene accepts, each with its declared parameters (none for seek,
/// flee; `avoid_obstacles` is in the declarations).
fn behaviour_types() -> Vec<(&'static str, &'static [Param])> {
    let mut types: Vec<(&'static str, &'static [Param])> =
        all_params().into_iter().filter(|(name, _)| *name != "agent").collect();
    types.push(("seek", &[]));
    types.push(("flee", &[]));
    types
}

/// A value at an end of the declaration's range, its default or -0 (when 0 is in range).
fn extreme(param: &Param, pick: u8) -> Value {
    let value = match pick % 4 {
        0 => param.min,
        1 => param.max,
        2 if param.min <= 0.0 && param.max >= 0.0 => -0.0,
        _ => param.default,
    };
    match param.kind {
        ParamKind::Bool => json!(value != 0.0),
        ParamKind::Int => json!(value.abs() as u64),
        ParamKind::Float | ParamKind::Log => json!(value),
    }
}

fn entry(kind: usize, picks: &[u8], me: usize, agents: usize) -> Value {
    let types = behaviour_types();
    let (name, params) = types[kind % types.len()];
    let mut fields = Map::new();
    fields.insert("type".into(), json!(name));
    for (param, pick) in params.iter().zip(picks.iter().cycle()) {
        fields.insert(param.key.into(), extreme(param, *pick));
    }
    if name == "arrive" {
        // Refused (not a property of the run) when the slow radius is below the target radius.
        fields.insert("slow_radius".into(), json!(2000.0));
    }
    let other = |k: usize| json!(format!("a{}", (me + k) % agents));
    match name {
        "seek" | "flee" | "arrive" => drop(fields.insert("target".into(), json!("t"))),
        "parametric" => {
            drop(fields.insert("curve".into(), json!(if picks[0].is_multiple_of(2) { "c" } else { "e" })))
        }
        "waypoints" | "projected" | "predictive" => {
            drop(fields.insert("path".into(), json!(if picks[0].is_multiple_of(2) { "p" } else { "dot" })))
        }
        "containment" => drop(fields.insert("region".into(), json!("p"))),
        "flow_field" if picks[0].is_multiple_of(2) => drop(fields.insert("path".into(), json!("dot"))),
        "pursuit" | "evade" | "offset_pursuit" | "leader_following" | "hide" | "face" => {
            drop(fields.insert("agent".into(), other(1)))
        }
        "interpose" => drop(fields.insert("agents".into(), json!([other(1), other(2)]))),
        "planner" => drop(fields.insert("waypoints".into(), json!([[0, 0], [1e6, -1e6, 1e6], [0, 0]]))),
        _ => {}
    }
    Value::Object(fields)
}

#[derive(Debug, Clone)]
struct Setup {
    kinds: Vec<(usize, usize)>,
    picks: Vec<u8>,
    stacked: bool,
    far: bool,
    dt: f32,
    limits: [u8; 3],
    fast_start: bool,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        proptest::collection::vec((0usize..64, 0usize..64), 3..6),
        proptest::collection::vec(any::<u8>(), 12),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(0.0001f32), Just(0.1), Just(1.0 / 60.0)],
        any::<[u8; 3]>(),
        any::<bool>(),
    )
        .prop_map(|(kinds, picks, stacked, far, dt, limits, fast_start)| Setup {
            kinds,
            picks,
            stacked,
            far,
            dt,
            limits,
            fast_start,
        })
}

fn scene(s: &Setup) -> Value {
    let n = s.kinds.len();
    let base = if s.far { 1e6 } else { 0.0 };
    let agent_params = &all_params()[0].1;
    let agents: Vec<Value> = s
        .kinds
        .iter()
        .enumerate()
        .map(|(i, &(main, second))| {
            let picks: Vec<u8> = s.picks.iter().map(|p| p.wrapping_add(i as u8)).collect();
            let mut behaviours = vec![entry(main, &picks, i, n)];
            if second.is_multiple_of(3) {
                behaviours.push(entry(second, &picks[1..], i, n));
            }
            let position =
                if s.stacked { json!([base, -base]) } else { json!([base - 10.0 * i as f32, -base]) };
            let mut agent = json!({"name": format!("a{i}"), "position": position, "behaviours": behaviours,
                "combine": {"mode": if second.is_multiple_of(2) { "blend" } else { "priority" }, "threshold": 0}});
            for (param, pick) in agent_params.iter().zip(s.limits) {
                agent[param.key] = extreme(param, pick.wrapping_add(i as u8));
            }
            if s.fast_start {
                agent["velocity"] = json!([1e6, 0, 0]);
            }
            agent
        })
        .collect();
    json!({"version": 2, "dt": s.dt,
        "paths": [{"id": "p", "points": [[base, 0], [-base, 0], [0, base], [base, 0]], "closed": true},
                  {"id": "dot", "points": [[base, -base], [base, -base], [base, -base]]}],
        "curves": [{"id": "c", "kind": "circle", "center": [base, -base], "radius": 1e6},
                   {"id": "e", "kind": "expr", "x": "t", "y": "0", "z": "0", "t_min": -1000, "t_max": 1000}],
        "targets": [{"id": "t", "position": [base, -base], "velocity": [1e6, 0]}],
        "obstacles": [{"position": [base, -base, 0], "radius": 1e6}, {"position": [0, 0, 0], "radius": 0.001}],
        "agents": agents})
}

fn non_finite(value: &Value, key: &str) -> Option<String> {
    match value {
        Value::Null if !OPTIONAL.contains(&key) => Some(key.to_string()),
        Value::Array(items) => items.iter().find_map(|v| non_finite(v, key)),
        Value::Object(fields) => fields.iter().find_map(|(k, v)| non_finite(v, k)),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_behaviour_at_the_ends_of_its_ranges_runs_finite_and_within_its_speed(s in setup()) {
        let text = scene(&s).to_string();
        let mut world = match parse_scene(&text, "extremes.json") {
            Ok(world) => world,
            Err(err) => {
                prop_assert!(err.line >= 1 && !err.to_string().contains('\n'), "{err}");
                return Ok(());
            }
        };
        for step in 0..40 {
            world.step();
            for agent in &world.agents {
                let k = &agent.kinematics;
                prop_assert!(
                    k.position.is_finite() && k.velocity.is_finite() && k.orientation.is_finite(),
                    "step {step}: {} {k:?}\n{text}", agent.about.name
                );
                // Only a main parametric behaviour moves on rails; an entry further down the
                // list drives toward its curve within the speed limit.
                let on_rails = agent.behaviour.type_name() == "parametric";
                let speed = k.velocity.length();
                prop_assert!(
                    on_rails || speed <= agent.limits.max_speed * 1.0001 + 1e-3,
                    "step {step}: {} at {speed} u/s, max {}\n{text}", agent.about.name, agent.limits.max_speed
                );
            }
        }
        let metrics = serde_json::to_value(world.metrics()).unwrap();
        prop_assert_eq!(non_finite(&metrics, ""), None, "{}", text);
    }
}
