//! An agent's list of behaviours (issue 10 §3): blending and priority combination, the
//! version-2 format with version-1 files migrated on load, the list editor in the panel, and
//! obstacle avoidance that keeps agents clear wherever their limits allow.

use std::fs;
use std::path::{Path, PathBuf};

use crate::ui_support::{click_widget, settled};

use glam::Vec3;
use proptest::prelude::*;
use steerlab::app::{App, Command, Selection};
use steerlab::behaviours::{AvoidParams, Kinematics, Limits};
use steerlab::scene::{load_scene, parse_scene, save_scene, scene_to_json, world_to_scene, FORMAT_VERSION};
use steerlab::sim::{Agent, Behaviour, Combine, Entry, Obstacle, Rgb, Slot, Target, World};
use steerlab::ui::UiState;

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn json_files(name: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir(name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Every shipped scene as it was in version 1 (kept in `tests/v1_scenes/`) loads, and gives the
/// same world and the same run as the shipped version-2 file. `SCENE_MIGRATE_BLESS=1` writes
/// the shipped files from the version-1 copies.
#[test]
fn every_version_1_scene_migrates_to_the_shipped_version_2_file() {
    let v1_files = json_files("tests/v1_scenes");
    assert!(v1_files.len() >= 11, "{v1_files:?}");
    for v1_path in v1_files {
        let mut old = load_scene(&v1_path).unwrap_or_else(|err| panic!("{err}"));
        let shipped_path = dir("scenes").join(v1_path.file_name().unwrap());
        if std::env::var_os("SCENE_MIGRATE_BLESS").is_some() {
            save_scene(&old, &shipped_path).unwrap();
        }
        let text = fs::read_to_string(&shipped_path).unwrap();
        assert!(
            text.contains(&format!("\"version\": {FORMAT_VERSION},")),
            "{} is not saved as the new version",
            shipped_path.display()
        );
        let mut new = parse_scene(&text, "shipped.json").unwrap();
        assert_eq!(world_to_scene(&old), world_to_scene(&new), "{}", v1_path.display());
        old.run_steps(600);
        new.run_steps(600);
        for (a, b) in old.agents.iter().zip(&new.agents) {
            assert_eq!(
                a.kinematics.position.to_array().map(f32::to_bits),
                b.kinematics.position.to_array().map(f32::to_bits)
            );
        }
    }
}

#[test]
fn a_version_1_agent_with_avoidance_becomes_a_priority_list() {
    let text = r#"{"version": 1, "avoidance": {"look_ahead": 1.5, "margin": 4},
        "targets": [{"id": "t", "position": [100, 0]}],
        "agents": [{"position": [0, 0], "avoid_obstacles": true, "behaviour": {"type": "seek", "target": "t"}},
                   {"position": [0, 9], "behaviour": {"type": "seek", "target": "t"}}]}"#;
    let world = parse_scene(text, "v1.json").unwrap();
    let avoiding = &world.agents[0];
    assert_eq!(avoiding.behaviour, Behaviour::Seek { target: 0 });
    assert_eq!(avoiding.mix.combine, Combine::Priority { threshold: Combine::DEFAULT_THRESHOLD });
    assert_eq!(avoiding.mix.main, Slot { weight: 1.0, group: 1 });
    assert_eq!(
        avoiding.mix.more.iter().map(|e| (&e.behaviour, e.slot)).collect::<Vec<_>>(),
        vec![(
            &Behaviour::AvoidObstacles { params: AvoidParams { look_ahead: 1.5, margin: 4.0 } },
            Slot { weight: 1.0, group: 0 }
        )]
    );
    assert!(world.agents[1].mix.more.is_empty() && !world.agents[1].avoids_obstacles());
    let saved = scene_to_json(&world).unwrap();
    assert!(saved.contains("\"behaviours\": [") && !saved.contains("\"avoid_obstacles\": true"), "{saved}");
    assert_eq!(world_to_scene(&parse_scene(&saved, "v2.json").unwrap()), world_to_scene(&world));
}

#[test]
fn version_1_fields_are_refused_in_a_version_2_file_and_the_other_way_round() {
    let v2_with_behaviour = r#"{"version": 2, "targets": [{"id": "t", "position": [1, 0]}],
        "agents": [{"position": [0, 0], "behaviour": {"type": "seek", "target": "t"}}]}"#;
    let err = parse_scene(v2_with_behaviour, "x.json").unwrap_err();
    assert_eq!(err.json_path, "agents[0].behaviour");
    let v1_with_list = r#"{"version": 1, "targets": [{"id": "t", "position": [1, 0]}],
        "agents": [{"position": [0, 0], "behaviours": [{"type": "seek", "target": "t"}]}]}"#;
    let err = parse_scene(v1_with_list, "x.json").unwrap_err();
    assert_eq!(
        (err.json_path.as_str(), err.reason.as_str()),
        ("agents[0].behaviours", "`behaviours` needs version 2")
    );
    let bad_weight = r#"{"version": 2, "targets": [{"id": "t", "position": [1, 0]}],
        "agents": [{"position": [0, 0], "behaviours": [{"type": "seek", "target": "t", "weight": -1}]}]}"#;
    let err = parse_scene(bad_weight, "x.json").unwrap_err();
    assert_eq!(err.json_path, "agents[0].behaviours[0].weight");
    let line = bad_weight.lines().nth(err.line - 1).unwrap();
    assert!(line[err.column - 1..].starts_with("-1"), "{line} at {}", err.column);
}

fn world_with(target: Vec3, obstacles: Vec<(Vec3, f32)>, agent: Agent) -> World {
    let mut world = World::default();
    world.targets.push(Target {
        id: "t".into(),
        position: target,
        velocity: Vec3::ZERO,
        start: (target, Vec3::ZERO),
    });
    for (position, radius) in obstacles {
        world.obstacles.push(Obstacle::still(position, radius));
    }
    world.agents.push(agent);
    world.reset();
    world
}

fn agent_at(position: Vec3, behaviour: Behaviour, limits: Limits) -> Agent {
    let start = Kinematics { position, ..Default::default() };
    Agent::new("a".into(), Rgb(1, 2, 3), start, limits, behaviour)
}

#[test]
fn blending_seek_and_flee_of_one_target_with_equal_weights_cancels() {
    let mut agent = agent_at(Vec3::ZERO, Behaviour::Seek { target: 0 }, Limits::default());
    agent.mix.edit().more.push(Entry::new(Behaviour::Flee { target: 0 }, Slot::default()));
    let mut world = world_with(Vec3::new(100.0, 0.0, 0.0), vec![], agent);
    world.run_steps(30);
    assert_eq!(world.agents[0].kinematics.position, Vec3::ZERO);
    // With seek weighted 3 to 1 the agent heads for the target.
    world.agents[0].mix.edit().main.weight = 3.0;
    world.reset();
    world.run_steps(30);
    assert!(world.agents[0].kinematics.position.x > 10.0, "{}", world.agents[0].kinematics.position);
}

#[test]
fn priority_lets_the_first_group_with_a_force_win_and_falls_through_when_it_has_none() {
    // Avoidance (group 0) has nothing to say in open space: seek (group 1) moves the agent.
    let mut agent = agent_at(Vec3::ZERO, Behaviour::Seek { target: 0 }, Limits::default());
    agent.set_avoid_obstacles(true, AvoidParams::default());
    assert_eq!(agent.mix.main.group, 1);
    let mut world = world_with(Vec3::new(300.0, 0.0, 0.0), vec![], agent);
    world.run_steps(10);
    assert!(world.agents[0].kinematics.position.x > 20.0);
    // Flee in group 0 always has a force: it wins and seek never acts.
    let mut agent = agent_at(Vec3::ZERO, Behaviour::Seek { target: 0 }, Limits::default());
    agent.mix.edit().combine = Combine::Priority { threshold: 0.001 };
    agent.mix.edit().main.group = 1;
    agent.mix.edit().more.push(Entry::new(Behaviour::Flee { target: 0 }, Slot { weight: 1.0, group: 0 }));
    let mut world = world_with(Vec3::new(300.0, 0.0, 0.0), vec![], agent);
    world.run_steps(10);
    assert!(world.agents[0].kinematics.position.x < -20.0);
}

#[test]
fn removing_an_entry_in_the_panel_sends_the_list_without_it() {
    let mut agent = agent_at(Vec3::ZERO, Behaviour::Seek { target: 0 }, Limits::default());
    agent.set_avoid_obstacles(true, AvoidParams::default());
    let world = world_with(Vec3::new(300.0, 0.0, 0.0), vec![(Vec3::new(100.0, 0.0, 0.0), 20.0)], agent);
    let mut app = App::new(world, None);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "mix:remove:0");
    let [Command::SetMix { agent: 0, mix }] = out.commands.as_slice() else { panic!("{:?}", out.commands) };
    assert!(mix.more.is_empty());
    app.apply(out.commands[0].clone());
    assert!(!app.world.agents[0].avoids_obstacles());
    app.apply(Command::Undo);
    assert!(app.world.agents[0].avoids_obstacles());
}

/// The first time the agent's body enters an obstacle, if ever.
fn first_collision(world: &mut World, steps: u64) -> Option<(u64, f32)> {
    for step in 0..steps {
        world.step();
        let agent = &world.agents[0];
        for obstacle in &world.obstacles {
            let clearance =
                agent.kinematics.position.distance(obstacle.position) - obstacle.radius - agent.limits.radius;
            if clearance < 0.0 {
                return Some((step, clearance));
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A seeker, arriver or pursuer with avoidance crosses a random field of static obstacles
    /// without ever touching
    /// one, wherever its limits allow keeping clear: it starts clear of every obstacle by more
    /// than it needs to stop from full speed, and no two obstacles are so close that its body
    /// cannot pass between them (so it is never trapped in a pocket it cannot leave).
    #[test]
    fn a_seeker_with_avoidance_never_touches_a_static_obstacle(
        kind in 0..3u8,
        max_speed in 40.0f32..250.0,
        max_acceleration in 200.0f32..1500.0,
        radius in 3.0f32..12.0,
        field in proptest::collection::vec((-250.0f32..250.0, -250.0f32..250.0, 8.0f32..50.0), 1..9),
        target_y in -250.0f32..250.0,
    ) {
        let limits = Limits { radius, max_speed, max_acceleration };
        let start = Vec3::new(-400.0, 0.0, 0.0);
        let stopping = max_speed * max_speed / (2.0 * max_acceleration) + max_speed / 30.0;
        let mut obstacles: Vec<(Vec3, f32)> = Vec::new();
        for (x, y, r) in field {
            let centre = Vec3::new(x, y, 0.0);
            let apart = obstacles.iter().all(|(c, other)| c.distance(centre) > r + other + 2.0 * radius + 4.0);
            if apart && centre.distance(start) > r + radius + stopping + 10.0 {
                obstacles.push((centre, r));
            }
        }
        let target = Vec3::new(400.0, target_y, 0.0);
        // Seek, arrive, or pursuit of an agent standing at the target (it only brakes).
        let behaviour = match kind {
            0 => Behaviour::Seek { target: 0 },
            1 => Behaviour::Arrive { target: 0, params: Default::default() },
            _ => Behaviour::Pursuit { agent: 1, params: Default::default() },
        };
        let mut agent = agent_at(start, behaviour, limits);
        agent.set_avoid_obstacles(true, AvoidParams::default());
        let mut world = world_with(target, obstacles, agent);
        if kind == 2 {
            let standing = Behaviour::Wander {
                params: steerlab::behaviours::WanderParams { radius: 0.0, distance: 0.0, jitter: 0.0, seed: 1 },
            };
            world.agents.push(agent_at(target, standing, Limits::default()));
            world.reset();
        }
        let collision = first_collision(&mut world, 900);
        prop_assert!(collision.is_none(), "collision at step/clearance {:?}", collision);
    }
}

/// Three agents: a wanderer with one more entry (`entry`), and two others it may refer to.
fn app_with_an_entry(entry: Behaviour) -> App {
    let mut world = World::default();
    for (name, x) in [("pursuer", 0.0), ("hare", 100.0), ("fox", 200.0)] {
        let start = Kinematics { position: Vec3::new(x, 0.0, 0.0), ..Default::default() };
        let behaviour = Behaviour::Wander { params: Default::default() };
        world.agents.push(Agent::new(name.into(), Rgb(1, 2, 3), start, Limits::default(), behaviour));
    }
    world.agents[0].mix.edit().more.push(Entry::new(entry, Slot::default()));
    world.reset();
    let mut app = App::new(world, None);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app
}

/// Opens the picker `picker` and clicks its choice `choice`; the commands the click sent.
fn pick(app: &App, state: &mut UiState, ctx: &egui::Context, picker: &str, choice: &str) -> Vec<Command> {
    let _ = click_widget(ctx, app, state, picker);
    let _ = crate::ui_support::frames(ctx, app, state, 1);
    click_widget(ctx, app, state, &format!("{picker}:{choice}")).commands
}

#[test]
fn picking_another_quarry_for_a_pursuit_entry_is_one_undoable_edit_that_saves() {
    use steerlab::behaviours::PursuitParams;
    let mut app = app_with_an_entry(Behaviour::Pursuit { agent: 1, params: PursuitParams::default() });
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let _ = click_widget(&ctx, &app, &mut state, "pick:entry0:agent");
    let _ = crate::ui_support::frames(&ctx, &app, &mut state, 1);
    assert!(state.widget_rects.contains_key("pick:entry0:agent:fox"), "{:?}", state.widget_rects.keys());
    assert!(
        !state.widget_rects.contains_key("pick:entry0:agent:pursuer"),
        "the picker offers the agent itself"
    );
    let commands = click_widget(&ctx, &app, &mut state, "pick:entry0:agent:fox").commands;
    let [Command::SetMix { agent: 0, mix }] = commands.as_slice() else { panic!("{commands:?}") };
    assert_eq!(mix.more[0].behaviour, Behaviour::Pursuit { agent: 2, params: PursuitParams::default() });
    app.apply(commands[0].clone());
    let saved = scene_to_json(&app.world).unwrap();
    assert!(saved.contains(r#""agent": "fox""#), "{saved}");
    app.apply(Command::Undo);
    assert_eq!(app.world.agents[0].mix.more[0].behaviour.other_agent(), Some(1), "one undo step");
}

#[test]
fn a_self_reference_sent_for_an_entry_is_refused_and_changes_nothing() {
    use steerlab::behaviours::PursuitParams;
    let mut app = app_with_an_entry(Behaviour::Pursuit { agent: 1, params: PursuitParams::default() });
    let mut mix = steerlab::sim::Mix::clone(&app.world.agents[0].mix);
    mix.more[0].behaviour = Behaviour::Pursuit { agent: 0, params: PursuitParams::default() };
    app.apply(Command::SetMix { agent: 0, mix });
    assert_eq!(app.world.agents[0].mix.more[0].behaviour.other_agent(), Some(1));
}

#[test]
fn interposes_two_agents_are_picked_in_the_entry_and_neither_offers_the_other_pick_or_itself() {
    use steerlab::behaviours::InterposeParams;
    let mut app =
        app_with_an_entry(Behaviour::Interpose { agent: 1, other: 2, params: InterposeParams::default() });
    let owl = Agent::new(
        "owl".into(),
        Rgb(4, 5, 6),
        Kinematics::default(),
        Limits::default(),
        Behaviour::Wander { params: Default::default() },
    );
    app.world.agents.push(owl);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let offered = |state: &UiState, picker: &str| -> Vec<String> {
        state
            .widget_rects
            .keys()
            .filter_map(|k| k.strip_prefix(&format!("{picker}:")))
            .map(String::from)
            .collect()
    };
    let _ = click_widget(&ctx, &app, &mut state, "pick:entry0:second");
    let _ = crate::ui_support::frames(&ctx, &app, &mut state, 1);
    assert_eq!(offered(&state, "pick:entry0:second"), ["fox", "owl"], "neither itself nor the first (hare)");
    let commands = click_widget(&ctx, &app, &mut state, "pick:entry0:second:owl").commands;
    let [Command::SetMix { mix, .. }] = commands.as_slice() else { panic!("{commands:?}") };
    assert_eq!(
        (mix.more[0].behaviour.other_agent(), mix.more[0].behaviour.second_agent()),
        (Some(1), Some(3))
    );
    app.apply(commands[0].clone());
    let _ = crate::ui_support::frames(&ctx, &app, &mut state, 2);
    let _ = click_widget(&ctx, &app, &mut state, "pick:entry0:agent");
    let _ = crate::ui_support::frames(&ctx, &app, &mut state, 1);
    assert_eq!(offered(&state, "pick:entry0:agent"), ["fox", "hare"], "neither itself nor the second (owl)");
}

#[test]
fn a_flow_field_entry_switches_between_a_path_and_noise_in_its_picker() {
    use steerlab::geometry::Polyline;
    use steerlab::sim::NamedPath;
    let mut app =
        app_with_an_entry(Behaviour::FlowField { path: None, field: None, params: Default::default() });
    let points = vec![Vec3::ZERO, Vec3::new(300.0, 0.0, 0.0)];
    app.world.paths.push(NamedPath {
        id: "river".into(),
        polyline: Polyline::new(points, false),
        radius: 20.0,
    });
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let commands = pick(&app, &mut state, &ctx, "pick:entry0:field", "river");
    let [Command::SetMix { mix, .. }] = commands.as_slice() else { panic!("{commands:?}") };
    assert_eq!(mix.more[0].behaviour.path(), Some(0));
    app.apply(commands[0].clone());
    let _ = crate::ui_support::frames(&ctx, &app, &mut state, 2);
    let commands = pick(&app, &mut state, &ctx, "pick:entry0:field", steerlab::ui::pickers::NOISE_CHOICE);
    let [Command::SetMix { mix, .. }] = commands.as_slice() else { panic!("{commands:?}") };
    assert_eq!(mix.more[0].behaviour.path(), None);
}

#[test]
fn the_main_behaviours_quarry_is_picked_in_the_inspector_without_the_agent_itself() {
    use steerlab::behaviours::PursuitParams;
    let mut app = app_with_an_entry(Behaviour::Wander { params: Default::default() });
    app.apply(Command::SetBehaviour {
        agent: 0,
        behaviour: Behaviour::Pursuit { agent: 1, params: PursuitParams::default() },
    });
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let _ = click_widget(&ctx, &app, &mut state, "pick:main:agent");
    let _ = crate::ui_support::frames(&ctx, &app, &mut state, 1);
    assert!(!state.widget_rects.contains_key("pick:main:agent:pursuer"));
    let commands = click_widget(&ctx, &app, &mut state, "pick:main:agent:fox").commands;
    assert_eq!(
        commands,
        [Command::SetBehaviour {
            agent: 0,
            behaviour: Behaviour::Pursuit { agent: 2, params: PursuitParams::default() }
        }]
    );
}

/// A `parametric` entry that is not the agent's main behaviour asks for a velocity toward its
/// point on the curve, within the agent's maximum speed: first by priority (alone in its group,
/// passed through unchanged, or weighted) or blended with a faint seek. Before, by priority it
/// put the agent on the curve in one step, far past its speed limit, and blended it was lost.
#[test]
fn a_parametric_entry_that_is_not_the_main_one_drives_toward_the_curve_within_the_speed_limit() {
    let scene = |combine: &str, seek_weight: f32, weight: f32| {
        format!(
            r#"{{"version": 2, "name": "rails", "dt": 0.016666668,
            "curves": [{{"kind": "circle", "id": "ring", "center": [300, 0], "radius": 100}}],
            "targets": [{{"id": "flag", "position": [0, 0]}}],
            "agents": [{{"name": "off", "position": [0, 0], "velocity": [0, 0], "radius": 5,
              "max_speed": 80, "max_acceleration": 400, {combine}
              "behaviours": [
                {{"type": "seek", "target": "flag", "group": 1, "weight": {seek_weight}}},
                {{"type": "parametric", "curve": "ring", "speed": 40, "group": 0, "weight": {weight}}}
              ]}}]}}"#
        )
    };
    let ring_distance = |p: Vec3| ((p - Vec3::new(300.0, 0.0, 0.0)).length() - 100.0).abs();
    let priority = r#""combine": {"mode": "priority"},"#;
    for (combine, seek_weight, weight) in [(priority, 1.0, 1.0), (priority, 1.0, 2.0), ("", 0.1, 1.0)] {
        let text = scene(combine, seek_weight, weight);
        let mut world = parse_scene(&text, "rails.json").unwrap_or_else(|e| panic!("{e}"));
        let start = ring_distance(world.agents[0].kinematics.position);
        for step in 0..600 {
            world.step();
            let k = &world.agents[0].kinematics;
            assert!(
                k.velocity.length() <= 80.0 * 1.0001 && k.position.is_finite(),
                "{combine} weights {seek_weight}, {weight}, step {step}: {k:?}"
            );
        }
        let end = ring_distance(world.agents[0].kinematics.position);
        assert!(end < 10.0, "{combine} weights {seek_weight}, {weight}: {start} -> {end} from the ring");
    }
}

#[test]
fn a_full_behaviour_list_greys_add_a_behaviour_and_one_below_it_adds_the_last() {
    use steerlab::sim::MAX_BEHAVIOURS;
    for entries in [MAX_BEHAVIOURS - 1, MAX_BEHAVIOURS] {
        let mut agent = agent_at(Vec3::ZERO, Behaviour::Seek { target: 0 }, Limits::default());
        for _ in 1..entries {
            agent.mix.edit().more.push(Entry::new(Behaviour::Flee { target: 0 }, Slot::default()));
        }
        let mut app = App::new(world_with(Vec3::new(100.0, 0.0, 0.0), vec![], agent), None);
        app.apply(Command::Select(Some(Selection::Agent(0))));
        let mut state = UiState::default();
        let ctx = settled(&app, &mut state);
        crate::ui_support::scroll_to_widget(&ctx, &app, &mut state, "mix:add");
        let _ = click_widget(&ctx, &app, &mut state, "mix:add");
        // A popup that does not fit below its button moves above it once it knows its size:
        // a person clicks it where it settles, a frame later.
        let _ = crate::ui_support::frames(&ctx, &app, &mut state, 1);
        let opened = state.widget_rects.contains_key("mix:add:seek");
        assert_eq!(opened, entries < MAX_BEHAVIOURS, "{entries} entries");
        if opened {
            let out = click_widget(&ctx, &app, &mut state, "mix:add:seek");
            let [Command::SetMix { mix, .. }] = out.commands.as_slice() else { panic!("{:?}", out.commands) };
            assert_eq!(1 + mix.more.len(), MAX_BEHAVIOURS);
        }
    }
}

#[test]
fn a_priority_group_shows_as_a_whole_number() {
    // The group fields read "7.00" (a count drawn as a number with two decimals).
    let mut agent = agent_at(Vec3::ZERO, Behaviour::Seek { target: 0 }, Limits::default());
    agent.mix.edit().combine = Combine::Priority { threshold: 0.001 };
    agent.mix.edit().more.push(Entry::new(Behaviour::Flee { target: 0 }, Slot { weight: 2.5, group: 7 }));
    let mut app = App::new(world_with(Vec3::new(100.0, 0.0, 0.0), vec![], agent), None);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let texts = crate::ui_support::painted_texts(&ctx, &app, &mut state);
    // The main entry's group 0 and the flee's 7, beside their weights (numbers: "1.00", "2.50").
    assert!(texts.iter().any(|t| t == "7") && texts.iter().any(|t| t == "0"), "{texts:?}");
    assert!(!texts.iter().any(|t| t == "7.00" || t == "0.00"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "2.50"), "{texts:?}");
}
