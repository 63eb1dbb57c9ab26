//! The parallel step is the single-threaded step, bit for bit: every shipped scene and a scene
//! of agent–agent behaviours, with their crowds copied several times over, stepped in a rayon
//! pool of one thread and of four, must give the same world (every agent's kinematics, state,
//! metrics, gizmos) and the same events in the same order after every step.

use std::path::Path;

use steerlab::scene::{load_scene, parse_scene};
use steerlab::sim::World;

/// Agents pursuing, evading and wandering among seekers, arrivers and obstacle avoiders.
const AGENT_AGENT_SCENE: &str = r#"{
  "version": 1, "name": "agents reading agents",
  "targets": [{ "id": "flag", "position": [300, 100], "velocity": [-20, 5] }],
  "obstacles": [{ "position": [150, 40, 0], "radius": 30 }],
  "agents": [
    { "name": "runner", "position": [0, 0], "avoid_obstacles": true,
      "behaviour": { "type": "seek", "target": "flag" } },
    { "name": "hunter", "position": [-80, 30], "behaviour": { "type": "pursuit", "agent": "runner" } },
    { "name": "prey", "position": [40, -60], "behaviour": { "type": "evade", "agent": "hunter" } },
    { "name": "stroller", "position": [100, 100], "behaviour": { "type": "wander" } },
    { "name": "lander", "position": [-50, -50], "avoid_obstacles": true,
      "behaviour": { "type": "arrive", "target": "flag" } }
  ]
}"#;

/// The world with each agent copied `copies` times, the copies spread out a little.
fn crowd(mut world: World, copies: usize) -> World {
    let originals = world.agents.clone();
    world.agents.clear();
    for copy in 0..copies {
        for agent in &originals {
            let mut agent = agent.clone();
            agent.about.start.position += glam::Vec3::new(copy as f32 * 3.5, (copy % 7) as f32 * -2.25, 0.0);
            agent.about.name = format!("{} {copy}", agent.about.name);
            world.agents.push(agent);
        }
    }
    world.reset();
    world
}

/// The world's state (every agent) and the events of its last step, as text.
fn state(world: &World) -> String {
    format!("{:?}\n{:?}", world.agents, world.events())
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool")
}

/// Steps two copies of `world` side by side, one in a pool of one thread and one in a pool of
/// four (parallel from the first agent), comparing them after every step.
fn assert_same_on_one_and_four_threads(world: World, label: &str, steps: usize) {
    let (one, four) = (pool(1), pool(4));
    let (mut a, mut b) = (world.clone(), world);
    for step in 0..steps {
        one.install(|| a.step_parallel_from(1));
        four.install(|| b.step_parallel_from(1));
        assert!(state(&a) == state(&b), "{label}: the worlds differ after step {}", step + 1);
    }
}

#[test]
fn every_shipped_scene_steps_bit_identically_on_one_and_four_threads() {
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut files: Vec<_> = std::fs::read_dir(&scenes).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    let mut checked = 0;
    for file in files.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let world = load_scene(file).unwrap();
        let planner =
            world.agents.iter().any(|a| matches!(a.behaviour, steerlab::sim::Behaviour::Planner { .. }));
        // Planner ships plan through whole fields: fewer copies keep the test short; big scenes
        // (the flock) are big enough as they are.
        let copies = if planner { 3 } else { (2_000 / world.agents.len().max(1)).clamp(1, 40) };
        let world = crowd(world, copies);
        assert_same_on_one_and_four_threads(world, &file.display().to_string(), 150);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} scenes found");
}

#[test]
fn agents_reading_agents_step_bit_identically_and_keep_their_event_order() {
    let world = crowd(parse_scene(AGENT_AGENT_SCENE, "agents.json").unwrap(), 200);
    // Not vacuous: the crowd really is split, and arrivals happen (events to keep in order).
    assert!(world.agents.len() >= 1_000);
    let mut probe = world.clone();
    let mut arrivals = 0;
    for _ in 0..600 {
        probe.step();
        arrivals += probe.events().len();
    }
    assert!(arrivals > 0, "no events to order");
    assert_same_on_one_and_four_threads(world, "agents reading agents", 600);
}

#[test]
fn the_default_step_matches_a_step_split_over_threads() {
    // `World::step` (parallel only from PARALLEL_MIN_AGENTS) against the split step.
    let world = crowd(parse_scene(AGENT_AGENT_SCENE, "agents.json").unwrap(), 20);
    let mut plain = world.clone();
    let mut split = world;
    let four = pool(4);
    for step in 0..100 {
        plain.step();
        four.install(|| split.step_parallel_from(1));
        assert!(state(&plain) == state(&split), "differs after step {}", step + 1);
    }
}

const BIN: &str = env!("CARGO_BIN_EXE_steerlab");

/// `steerlab run SCENE --json --threads N`: status, standard output, standard error.
fn run_with_threads(scene: &Path, threads: &str) -> (Option<i32>, String, String) {
    let output = std::process::Command::new(BIN)
        .args(["run", scene.to_str().unwrap(), "--seconds", "4", "--json", "--threads", threads])
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

#[test]
fn run_prints_the_same_metrics_on_one_thread_and_on_four() {
    // A crowd over the parallel threshold, written as a scene file.
    let agents: Vec<String> = (0..steerlab::sim::PARALLEL_MIN_AGENTS + 100)
        .map(|i| {
            let kind = ["seek", "flee", "arrive"][i % 3];
            format!(
                r#"{{"name": "a{i}", "position": [{}, {}], "behaviour": {{"type": "{kind}", "target": "t"}}}}"#,
                (i % 97) as f32 * 7.0,
                (i / 97) as f32 * 5.0
            )
        })
        .collect();
    let scene = format!(
        r#"{{"version": 1, "name": "crowd", "targets": [{{"id": "t", "position": [300, 100]}}], "agents": [{}]}}"#,
        agents.join(",")
    );
    let file = std::env::temp_dir().join(format!("steerlab-threads-{}.json", std::process::id()));
    std::fs::write(&file, scene).unwrap();
    let (one_status, one, _) = run_with_threads(&file, "1");
    let (four_status, four, _) = run_with_threads(&file, "4");
    let _ = std::fs::remove_file(&file);
    assert_eq!((one_status, four_status), (Some(0), Some(0)));
    assert!(one.len() > 1_000, "no metrics printed");
    assert!(one == four, "the metrics differ between 1 and 4 threads");
}

#[test]
fn threads_out_of_range_is_one_error_line() {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("compare.json");
    for bad in ["0", "1000"] {
        let (status, _, stderr) = run_with_threads(&scene, bad);
        assert_eq!(status, Some(2));
        assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
        assert!(stderr.starts_with("error: --threads must be 1–256"), "{stderr:?}");
    }
}
