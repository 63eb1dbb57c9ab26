//! Selection, clipboard and snapping, headless: Shift+click, the rubber band, deleting and
//! dragging a group, copy/paste/duplicate through the scene format, grid snapping, and the
//! group inspector — driven by hand-made input frames as the window sends them.

use std::collections::{BTreeSet, HashSet};

use glam::{Vec2, Vec3};
use proptest::prelude::*;
use steerlab::app::clipboard::PASTE_OFFSET;
use steerlab::app::tools::{self, InputFrame, Key, MouseButton};
use steerlab::app::{App, Command, Focus, Selection, Tool};
use steerlab::behaviours::{Kinematics, Limits};
use steerlab::geometry::Polyline;
use steerlab::sim::{Agent, Behaviour, NamedPath, Obstacle, PredictiveParams, Rgb, Target, World};

use super::ui_support;

const SCREEN: Vec2 = Vec2::new(1280.0, 800.0);

fn app_with(world: World) -> App {
    let mut app = App::new(world, None);
    app.camera.set_screen(SCREEN, (Vec2::ZERO, SCREEN));
    app.camera.center = Vec3::ZERO;
    app.camera.zoom = 1.0;
    app.running = false;
    app
}

fn frame(mouse: Vec2) -> InputFrame {
    InputFrame { mouse, screen: SCREEN, ..InputFrame::default() }
}

fn at(app: &App, x: f32, y: f32) -> Vec2 {
    app.camera.world_to_screen(Vec3::new(x, y, 0.0))
}

/// Press at world point `from`, move to `to` and release (top view).
fn press_move_release(app: &mut App, from: (f32, f32), to: (f32, f32), shift: bool) {
    let (from, to) = (at(app, from.0, from.1), at(app, to.0, to.1));
    let held = |mouse| InputFrame { down: vec![MouseButton::Left], shift, ..frame(mouse) };
    tools::handle_input(app, &InputFrame { pressed: vec![MouseButton::Left], ..held(from) });
    tools::handle_input(app, &held((from + to) * 0.5));
    tools::handle_input(app, &held(to));
    tools::handle_input(app, &InputFrame { released: vec![MouseButton::Left], shift, ..frame(to) });
}

fn click(app: &mut App, at: (f32, f32), shift: bool) {
    press_move_release(app, at, at, shift);
}

fn key(app: &mut App, key: Key, ctrl: bool, focus: Focus) -> Vec<Command> {
    tools::handle_input(app, &InputFrame { keys: vec![key], ctrl, focus, ..frame(Vec2::new(5.0, 5.0)) })
}

fn obstacle(x: f32, y: f32) -> Obstacle {
    let position = Vec3::new(x, y, 0.0);
    Obstacle::still(position, 10.0)
}

fn target(id: &str, x: f32, y: f32) -> Target {
    let position = Vec3::new(x, y, 0.0);
    Target { id: id.into(), position, velocity: Vec3::ZERO, start: (position, Vec3::ZERO) }
}

fn agent(name: &str, x: f32, y: f32, behaviour: Behaviour) -> Agent {
    let start = Kinematics { position: Vec3::new(x, y, 0.0), velocity: Vec3::ZERO, orientation: 0.0 };
    Agent::new(name.into(), Rgb(0xe6, 0x19, 0x4b), start, Limits::default(), behaviour)
}

/// Three obstacles in a row at y = 100, one far away at y = -300.
fn obstacles_world() -> World {
    let mut world = World::default();
    for x in [-100.0, 0.0, 100.0] {
        world.obstacles.push(obstacle(x, 100.0));
    }
    world.obstacles.push(obstacle(0.0, -300.0));
    world
}

fn track(id: &str, y: f32) -> NamedPath {
    NamedPath {
        id: id.into(),
        polyline: Polyline::new(vec![Vec3::new(-100.0, y, 0.0), Vec3::new(100.0, y, 0.0)], false),
        radius: 20.0,
    }
}

fn starts(app: &App) -> Vec<Vec3> {
    app.world.obstacles.iter().map(|o| o.start.0).collect()
}

#[test]
fn shift_click_adds_to_the_selection_and_a_second_shift_click_takes_it_out() {
    let mut app = app_with(obstacles_world());
    click(&mut app, (-100.0, 100.0), false);
    click(&mut app, (0.0, 100.0), true);
    click(&mut app, (100.0, 100.0), true);
    let selected: HashSet<_> = app.selected().into_iter().collect();
    assert_eq!(selected, [0, 1, 2].map(Selection::Obstacle).into_iter().collect());
    assert_eq!(app.selection, Some(Selection::Obstacle(2)), "the last Shift+clicked is the primary");
    click(&mut app, (0.0, 100.0), true);
    let selected: HashSet<_> = app.selected().into_iter().collect();
    assert_eq!(selected, [0, 2].map(Selection::Obstacle).into_iter().collect());
    // A plain click on something else selects just it.
    click(&mut app, (0.0, -300.0), false);
    assert_eq!(app.selected(), vec![Selection::Obstacle(3)]);
}

#[test]
fn a_rubber_band_on_empty_space_selects_what_is_inside_and_nothing_outside() {
    let mut app = app_with(obstacles_world());
    press_move_release(&mut app, (-150.0, 150.0), (150.0, 50.0), false);
    let selected: HashSet<_> = app.selected().into_iter().collect();
    // Oracle: the obstacles whose centre lies in the world box the band spans.
    let expected: HashSet<_> = app
        .world
        .obstacles
        .iter()
        .enumerate()
        .filter(|(_, o)| (-150.0..=150.0).contains(&o.position.x) && (50.0..=150.0).contains(&o.position.y))
        .map(|(i, _)| Selection::Obstacle(i))
        .collect();
    assert_eq!(expected.len(), 3);
    assert_eq!(selected, expected);
    assert!(app.tool_state.rubber_band.is_none(), "the band ends with the release");
    // Shift+band adds; a plain click on empty space selects nothing.
    press_move_release(&mut app, (-20.0, -280.0), (20.0, -320.0), true);
    assert_eq!(app.selection_count(), 4);
    click(&mut app, (500.0, 300.0), false);
    assert_eq!(app.selection_count(), 0);
}

#[test]
fn a_rubber_band_selects_a_path_only_when_all_its_points_are_inside() {
    let mut world = World::default();
    world.paths.push(track("inside", 0.0));
    world.paths.push(NamedPath {
        id: "half".into(),
        polyline: Polyline::new(vec![Vec3::new(0.0, 50.0, 0.0), Vec3::new(600.0, 50.0, 0.0)], false),
        radius: 20.0,
    });
    let mut app = app_with(world);
    press_move_release(&mut app, (-150.0, 100.0), (150.0, -100.0), false);
    assert_eq!(app.selected(), vec![Selection::Path(0)]);
}

#[test]
fn delete_removes_the_whole_group_and_its_dependants_in_one_undo_step() {
    let mut world = World::default();
    world.paths.push(track("a", 0.0));
    world.paths.push(track("b", 100.0));
    world.targets.push(target("t1", 0.0, 200.0));
    world.targets.push(target("t2", 0.0, 300.0));
    world.obstacles.push(obstacle(0.0, -100.0));
    world.obstacles.push(obstacle(50.0, -100.0));
    world.agents.push(agent(
        "on a",
        0.0,
        0.0,
        Behaviour::Predictive { path: 0, params: PredictiveParams::default() },
    ));
    world.agents.push(agent(
        "on b",
        0.0,
        100.0,
        Behaviour::Predictive { path: 1, params: PredictiveParams::default() },
    ));
    world.agents.push(agent("seeks t2", 0.0, 250.0, Behaviour::Seek { target: 1 }));
    world.agents.push(agent("seeks t1", 0.0, 250.0, Behaviour::Seek { target: 0 }));
    let mut app = app_with(world);
    let before = app.world.clone();
    app.apply(Command::SelectMany(vec![
        Selection::Path(0),
        Selection::Target(1),
        Selection::Obstacle(0),
        Selection::Agent(3),
    ]));
    app.apply(Command::DeleteSelection);
    let names: Vec<&str> = app.world.agents.iter().map(|a| a.about.name.as_str()).collect();
    assert_eq!(names, ["on b"], "the followers of path a and target t2 went with them");
    assert_eq!(app.world.paths.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["b"]);
    assert_eq!(app.world.targets.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["t1"]);
    assert_eq!(starts(&app), [Vec3::new(50.0, -100.0, 0.0)]);
    // The survivor still follows its own path (re-indexed from 1 to 0).
    assert_eq!(app.world.agents[0].behaviour.path(), Some(0));
    assert_eq!(app.selection_count(), 0);
    app.apply(Command::Undo);
    assert_eq!(app.world.agents.len(), before.agents.len());
    assert_eq!(app.world.obstacles.len(), 2);
    assert_eq!(app.selection_count(), 4, "undo brings the selection back too");
    assert!(!app.can_undo(), "one delete, one undo step");
}

#[test]
fn dragging_one_selected_item_moves_the_whole_group_by_the_same_offset_in_one_step() {
    let mut app = app_with(obstacles_world());
    app.apply(Command::SelectMany((0..3).map(Selection::Obstacle).collect()));
    let before = starts(&app);
    press_move_release(&mut app, (0.0, 100.0), (40.0, 70.0), false);
    let moved = starts(&app);
    for i in 0..3 {
        assert!((moved[i] - before[i] - Vec3::new(40.0, -30.0, 0.0)).length() < 1e-3, "{i}: {:?}", moved[i]);
    }
    assert_eq!(moved[3], before[3], "the unselected obstacle stays");
    assert_eq!(app.selection_count(), 3, "the group stays selected");
    app.apply(Command::Undo);
    assert_eq!(starts(&app), before);
    assert!(!app.can_undo());
}

#[test]
fn a_click_without_moving_on_a_group_member_selects_just_it() {
    let mut app = app_with(obstacles_world());
    app.apply(Command::SelectMany((0..3).map(Selection::Obstacle).collect()));
    click(&mut app, (100.0, 100.0), false);
    assert_eq!(app.selected(), vec![Selection::Obstacle(2)]);
    assert!(!app.can_undo(), "a click is no edit");
}

#[test]
fn move_by_moves_everything_selected_once_even_a_path_and_its_own_point() {
    let mut world = obstacles_world();
    world.paths.push(track("a", 0.0));
    let mut app = app_with(world);
    app.apply(Command::SelectMany(vec![
        Selection::Path(0),
        Selection::PathPoint { path: 0, point: 1 },
        Selection::Obstacle(3),
    ]));
    app.apply(Command::MoveSelection { delta: Vec3::new(10.0, 20.0, 0.0) });
    assert_eq!(
        app.world.paths[0].polyline.points(),
        [Vec3::new(-90.0, 20.0, 0.0), Vec3::new(110.0, 20.0, 0.0)]
    );
    assert_eq!(app.world.obstacles[3].start.0, Vec3::new(10.0, -280.0, 0.0));
}

/// A world with a path, a target, a pursuer pair and an agent with a list of two behaviours.
fn clipboard_world() -> World {
    let mut world = World::default();
    world.paths.push(track("track", 0.0));
    world.targets.push(target("flag", 0.0, 200.0));
    world.obstacles.push(obstacle(0.0, -100.0));
    let mut follower = agent(
        "follower",
        -100.0,
        0.0,
        Behaviour::Predictive { path: 0, params: PredictiveParams::default() },
    );
    follower.set_avoid_obstacles(true, steerlab::behaviours::AvoidParams::default());
    world.agents.push(follower);
    world.agents.push(agent("seeker", 0.0, 150.0, Behaviour::Seek { target: 0 }));
    world
}

#[test]
fn ctrl_v_over_the_view_centres_the_copy_under_the_mouse_and_over_a_panel_beside_the_copy() {
    let mut app = app_with(clipboard_world());
    // The obstacle (0, -100) and the target (0, 200): centre (0, 50).
    app.apply(Command::SelectMany(vec![Selection::Obstacle(0), Selection::Target(0)]));
    app.apply(Command::Copy);
    assert_eq!(app.clipboard_anchor, Some(Vec3::new(0.0, 50.0, 0.0)));
    let mouse = at(&app, 300.0, -40.0);
    let ctrl_v = |mouse, pointer_over_ui| InputFrame {
        keys: vec![Key::Letter('V')],
        ctrl: true,
        pointer_over_ui,
        ..frame(mouse)
    };
    tools::handle_input(&mut app, &ctrl_v(mouse, false));
    assert_eq!(app.world.obstacles.len(), 2);
    assert_eq!(app.world.obstacles[1].position, Vec3::new(300.0, -190.0, 0.0));
    assert_eq!(app.world.targets[1].position, Vec3::new(300.0, 110.0, 0.0));
    assert_eq!(app.selection_count(), 2, "the pasted pair is selected");
    // With snapping on, the point under the mouse snaps first.
    app.apply(Command::ToggleSnap);
    let near_grid = at(&app, 104.0, 3.0);
    tools::handle_input(&mut app, &ctrl_v(near_grid, false));
    let grid = app.snap.size;
    let snapped = app.world.obstacles[2].position + Vec3::new(0.0, 150.0, 0.0);
    assert_eq!(snapped, Vec3::new((104.0 / grid).round() * grid, (3.0 / grid).round() * grid, 0.0));
    app.apply(Command::ToggleSnap);
    // Over a panel the mouse is not on the world: the paste lands beside the copy.
    tools::handle_input(&mut app, &ctrl_v(mouse, true));
    assert_eq!(app.world.obstacles[3].position, Vec3::new(0.0, -100.0, 0.0) + PASTE_OFFSET);
    // A pasted path keeps its shape: its points move together.
    let mut app = app_with(clipboard_world());
    app.apply(Command::Select(Some(Selection::Path(0))));
    app.apply(Command::Copy);
    let original = app.world.paths[0].polyline.points().to_vec();
    app.apply(Command::Paste { at: Some(Vec3::new(500.0, 500.0, 0.0)) });
    let pasted = app.world.paths[1].polyline.points().to_vec();
    let shift = pasted[0] - original[0];
    assert!(pasted.iter().zip(&original).all(|(p, o)| *p - *o == shift), "rigidly moved");
    let (lo, hi) = pasted.iter().fold((pasted[0], pasted[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    assert_eq!(
        (lo + hi) * 0.5,
        Vec3::new(500.0, 500.0, 0.0),
        "the path's bounding-box centre is at the point"
    );
}

#[test]
fn duplicate_copies_an_agent_with_its_behaviour_list_a_unique_name_and_an_unused_colour() {
    let mut app = app_with(clipboard_world());
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::Duplicate);
    assert_eq!(app.world.agents.len(), 3);
    let (original, copy) = (&app.world.agents[0], &app.world.agents[2]);
    assert_eq!(copy.about.name, "follower 2");
    assert_eq!(copy.behaviour, original.behaviour, "same main behaviour on the same path");
    assert_eq!(copy.mix.more.len(), original.mix.more.len(), "the avoidance entry came along");
    assert!(!copy.mix.more.is_empty());
    assert_eq!(copy.about.start.position, original.about.start.position + PASTE_OFFSET);
    let copy_colour = copy.about.color;
    assert!(
        app.world.agents.iter().take(2).all(|a| a.about.color != copy_colour),
        "the copy has a colour no other agent has"
    );
    assert_eq!(app.selected(), vec![Selection::Agent(2)], "the copy is selected");
    assert!(app.clipboard.is_none(), "duplicate leaves the clipboard alone");
    // A copy of the copy is "follower 3", not "follower 2 2".
    app.apply(Command::Duplicate);
    assert_eq!(app.world.agents[3].about.name, "follower 3");
    app.apply(Command::Undo);
    app.apply(Command::Undo);
    assert_eq!(app.world.agents.len(), 2, "each duplicate is one undo step");
}

#[test]
fn copying_a_path_with_its_follower_points_the_pasted_follower_at_the_pasted_path() {
    let mut app = app_with(clipboard_world());
    app.apply(Command::SelectMany(vec![Selection::Agent(0), Selection::Path(0)]));
    app.apply(Command::Copy);
    app.apply(Command::Paste { at: None });
    assert_eq!(app.world.paths.len(), 2);
    assert_eq!(app.world.paths[1].id, "track2");
    let pasted = &app.world.agents[2];
    assert_eq!(pasted.behaviour.path(), Some(1), "follows the pasted path");
    assert_eq!(app.world.paths[1].polyline.points()[0], Vec3::new(-100.0, 0.0, 0.0) + PASTE_OFFSET);
    // Without its path, the copy follows the original path.
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::Copy);
    app.apply(Command::Paste { at: None });
    assert_eq!(app.world.agents.last().and_then(|a| a.behaviour.path()), Some(0));
}

#[test]
fn copying_both_of_a_pursuit_pair_points_the_pasted_pursuer_at_the_pasted_quarry() {
    let mut world = clipboard_world();
    world.agents.push(agent(
        "hunter",
        100.0,
        150.0,
        Behaviour::Pursuit { agent: 1, params: steerlab::behaviours::PursuitParams::default() },
    ));
    let mut app = app_with(world);
    app.apply(Command::SelectMany(vec![Selection::Agent(1), Selection::Agent(2)]));
    app.apply(Command::Duplicate);
    let names: Vec<&str> = app.world.agents.iter().map(|a| a.about.name.as_str()).collect();
    assert_eq!(names, ["follower", "seeker", "hunter", "seeker 2", "hunter 2"]);
    assert_eq!(app.world.agents[4].behaviour.other_agent(), Some(3), "hunter 2 pursues seeker 2");
    assert_eq!(app.world.agents[3].behaviour.target(), Some(0), "seeker 2 seeks the original flag");
}

#[test]
fn each_paste_lands_one_offset_further_and_is_one_undo_step() {
    let mut app = app_with(obstacles_world());
    app.apply(Command::Select(Some(Selection::Obstacle(3))));
    app.apply(Command::Copy);
    app.apply(Command::Paste { at: None });
    app.apply(Command::Paste { at: None });
    let origin = Vec3::new(0.0, -300.0, 0.0);
    assert_eq!(starts(&app)[4..], [origin + PASTE_OFFSET, origin + PASTE_OFFSET * 2.0]);
    app.apply(Command::Undo);
    assert_eq!(app.world.obstacles.len(), 5);
}

#[test]
fn pasting_an_agent_into_a_scene_without_its_target_is_refused_and_changes_nothing() {
    let mut app = app_with(clipboard_world());
    app.apply(Command::Select(Some(Selection::Agent(1))));
    app.apply(Command::Copy);
    app.apply(Command::NewScene);
    app.apply(Command::Paste { at: None });
    assert!(app.world.agents.is_empty());
    let message = app.message.clone().expect("an error");
    assert!(message.is_error);
    assert!(message.text.contains("cannot paste") && message.text.contains("flag"), "{}", message.text);
    assert!(!app.can_undo() || app.world.agents.is_empty());
}

#[test]
fn ctrl_c_ctrl_v_and_ctrl_d_go_through_the_command_table_and_do_nothing_behind_a_modal() {
    let mut app = app_with(obstacles_world());
    app.apply(Command::SelectMany((0..3).map(Selection::Obstacle).collect()));
    for focus in [Focus::Modal, Focus::TextField] {
        key(&mut app, Key::Letter('D'), true, focus);
        key(&mut app, Key::Letter('C'), true, focus);
        key(&mut app, Key::Letter('V'), true, focus);
        assert_eq!(app.world.obstacles.len(), 4);
        assert!(app.clipboard.is_none());
    }
    key(&mut app, Key::Letter('D'), true, Focus::World);
    assert_eq!(app.world.obstacles.len(), 7);
    assert_eq!(app.selection_count(), 3, "the three copies are selected");
    key(&mut app, Key::Letter('C'), true, Focus::World);
    key(&mut app, Key::Letter('V'), true, Focus::World);
    assert_eq!(app.world.obstacles.len(), 10);
    assert_eq!(app.tool, Tool::Select, "Ctrl+C is not the Curve tool");
    key(&mut app, Key::Letter('Z'), true, Focus::World);
    key(&mut app, Key::Letter('Z'), true, Focus::World);
    assert_eq!(app.world.obstacles.len(), 4);
}

#[test]
fn with_snapping_on_a_placed_obstacle_and_a_dragged_one_land_on_the_grid() {
    let mut app = app_with(World::default());
    key(&mut app, Key::Letter('G'), true, Focus::World);
    assert!(app.snap.on);
    app.apply(Command::SetGridSize(50.0));
    app.apply(Command::SetTool(Tool::Obstacle));
    click(&mut app, (61.0, 38.0), false);
    assert_eq!(app.world.obstacles[0].start.0, Vec3::new(50.0, 50.0, 0.0));
    app.apply(Command::SetTool(Tool::Select));
    // Grab it off-centre and drag: the centre, not the mouse, lands on a grid point.
    press_move_release(&mut app, (55.0, 45.0), (132.0, -61.0), false);
    assert_eq!(app.world.obstacles[0].start.0, Vec3::new(150.0, -50.0, 0.0));
    key(&mut app, Key::Letter('G'), true, Focus::World);
    assert!(!app.snap.on);
    app.apply(Command::SetGridSize(f32::NAN));
    assert_eq!(app.snap.size, 50.0, "a NaN size is ignored");
    app.apply(Command::SetGridSize(1e9));
    assert!(app.snap.size <= 500.0);
}

#[test]
fn select_all_then_delete_empties_the_scene_in_one_step() {
    let mut app = app_with(ui_support::world_with_everything());
    key(&mut app, Key::Letter('A'), true, Focus::World);
    let total = app.world.agents.len()
        + app.world.paths.len()
        + app.world.curves.len()
        + app.world.targets.len()
        + app.world.obstacles.len();
    assert_eq!(app.selection_count(), total);
    key(&mut app, Key::Delete, false, Focus::World);
    assert!(app.world.agents.is_empty() && app.world.paths.is_empty() && app.world.obstacles.is_empty());
    assert!(app.world.curves.is_empty() && app.world.targets.is_empty());
    app.apply(Command::Undo);
    assert_eq!(app.world.agents.len(), ui_support::world_with_everything().agents.len());
}

#[test]
fn the_group_inspector_says_how_many_are_selected_and_its_buttons_send_commands() {
    let mut app = app_with(obstacles_world());
    app.apply(Command::SelectMany((0..3).map(Selection::Obstacle).collect()));
    let mut state = ui_support::all_panels();
    let ctx = ui_support::settled(&app, &mut state);
    let out = ui_support::click_widget(&ctx, &app, &mut state, "group:delete");
    assert_eq!(out.commands, [Command::DeleteSelection]);
    let out = ui_support::click_widget(&ctx, &app, &mut state, "group:duplicate");
    assert_eq!(out.commands, [Command::Duplicate]);
    let out = ui_support::click_widget(&ctx, &app, &mut state, "group:move");
    assert_eq!(out.commands, [Command::MoveSelection { delta: Vec3::new(50.0, 0.0, 0.0) }]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Deleting any subset of targets, obstacles and seek agents leaves exactly what an
    /// independent oracle says: the unselected obstacles and targets, and the unselected agents
    /// whose target survived.
    #[test]
    fn deleting_any_group_leaves_exactly_what_was_not_selected_or_dependent(
        chosen in proptest::collection::vec(any::<bool>(), 12),
        seeks in proptest::collection::vec(0usize..4, 4),
    ) {
        let mut world = World::default();
        for t in 0..4 {
            world.targets.push(target(&format!("t{t}"), t as f32 * 50.0, 0.0));
            world.obstacles.push(obstacle(t as f32 * 50.0, 100.0));
        }
        for (a, &t) in seeks.iter().enumerate() {
            world.agents.push(agent(&format!("a{a}"), 0.0, -100.0, Behaviour::Seek { target: t }));
        }
        let mut items = Vec::new();
        for i in 0..4 {
            if chosen[i] { items.push(Selection::Target(i)); }
            if chosen[4 + i] { items.push(Selection::Obstacle(i)); }
            if chosen[8 + i] { items.push(Selection::Agent(i)); }
        }
        let mut app = app_with(world);
        app.apply(Command::SelectMany(items));
        app.apply(Command::DeleteSelection);
        let targets: Vec<String> = (0..4).filter(|&i| !chosen[i]).map(|i| format!("t{i}")).collect();
        let obstacles: Vec<f32> = (0..4).filter(|&i| !chosen[4 + i]).map(|i| i as f32 * 50.0).collect();
        let agents: Vec<String> =
            (0..4).filter(|&a| !chosen[8 + a] && !chosen[seeks[a]]).map(|a| format!("a{a}")).collect();
        prop_assert_eq!(app.world.targets.iter().map(|t| t.id.clone()).collect::<Vec<_>>(), targets);
        prop_assert_eq!(app.world.obstacles.iter().map(|o| o.start.0.x).collect::<Vec<_>>(), obstacles);
        prop_assert_eq!(app.world.agents.iter().map(|a| a.about.name.clone()).collect::<Vec<_>>(), agents);
        // Every survivor still seeks the target it sought (by id, after re-indexing).
        for survivor in &app.world.agents {
            let a: usize = survivor.about.name[1..].parse().unwrap();
            let id = survivor.behaviour.target().and_then(|t| app.world.targets.get(t)).map(|t| t.id.clone());
            prop_assert_eq!(id, Some(format!("t{}", seeks[a])));
        }
    }

    /// However often a set of agents is pasted, every agent's name is unique, and no pasted
    /// agent repeats a colour in use while the palette has free ones.
    #[test]
    fn pasted_agents_always_get_unique_names_and_unused_colours(pastes in 1usize..6, copied in 1usize..3) {
        let mut world = World::default();
        world.targets.push(target("flag", 0.0, 0.0));
        for a in 0..copied {
            let name = if a == 0 { "seeker" } else { "seeker 2" };
            world.agents.push(agent(name, a as f32 * 30.0, 0.0, Behaviour::Seek { target: 0 }));
        }
        let mut app = app_with(world);
        app.apply(Command::SelectMany((0..copied).map(Selection::Agent).collect()));
        app.apply(Command::Copy);
        for _ in 0..pastes {
            app.apply(Command::Paste { at: None });
        }
        let agents = &app.world.agents;
        prop_assert_eq!(agents.len(), copied * (pastes + 1));
        let names: BTreeSet<&str> = agents.iter().map(|a| a.about.name.as_str()).collect();
        prop_assert_eq!(names.len(), agents.len());
        // The originals share the palette's first colour; the (at most 10) pasted agents each
        // take one of the 11 others.
        let pasted_colours: BTreeSet<String> = agents.iter().skip(copied).map(|a| a.about.color.to_hex()).collect();
        prop_assert_eq!(pasted_colours.len(), copied * pastes);
        prop_assert!(!pasted_colours.contains(&Rgb(0xe6, 0x19, 0x4b).to_hex()));
    }
}

#[test]
fn the_toolbar_choices_display_toggles_and_dismissing_are_commands_the_app_applies() {
    use steerlab::app::tools::CurveTool;
    use steerlab::app::BehaviourKind;
    let mut app = app_with(World::default());
    app.set_error("something failed");
    let display = steerlab::app::Display { grid: !app.display.grid, ..app.display };
    for command in [
        Command::SetNewAgentKind(BehaviourKind::Arrive),
        Command::SetNewCurveKind(CurveTool::Helix),
        Command::SetDisplay(display),
        Command::DismissMessage,
    ] {
        assert!(!command.is_shell());
        app.apply(command);
    }
    assert_eq!(app.new_agent_kind, BehaviourKind::Arrive);
    assert_eq!(app.new_curve_kind, CurveTool::Helix);
    assert_eq!(app.display, display);
    assert!(app.message.is_none());
    assert!(!app.can_undo(), "choices of the window are no edits of the scene");
}

#[test]
fn a_duplicated_wanderer_gets_a_seed_no_wanderer_uses_so_the_two_walk_apart() {
    use steerlab::behaviours::WanderParams;
    let mut world = World::default();
    let params = WanderParams { seed: 7, ..WanderParams::default() };
    world.agents.push(agent("drifter", 0.0, 0.0, Behaviour::Wander { params }));
    let mut app = app_with(world);
    let seed = |app: &App, i: usize| match &app.world.agents[i].behaviour {
        Behaviour::Wander { params } => params.seed,
        other => panic!("not a wanderer: {other:?}"),
    };
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::Duplicate);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::Duplicate);
    let seeds: HashSet<u32> = (0..3).map(|i| seed(&app, i)).collect();
    assert_eq!(seed(&app, 0), 7, "the original keeps its seed");
    assert_eq!(seeds.len(), 3, "every copy walks its own walk: {seeds:?}");
}
