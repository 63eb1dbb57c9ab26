//! The editor's 3D side, headless: placing on the ground plane in the orbit view, lifting with
//! Shift+drag, appending planner waypoints with the Target tool, pushing a ship with Alt/Ctrl+drag,
//! and the planner step-through state (open, step, stack, close).

use std::path::Path;

use glam::{Vec2, Vec3};
use steerlab::app::tools::{self, PUSH_PER_UNIT};
use steerlab::app::{App, BehaviourKind, Command, InputFrame, MouseButton, Selection, Tool, ViewMode};
use steerlab::scene::load_scene;
use steerlab::sim::{Behaviour, BehaviourState, Obstacle, World};

const SCREEN: Vec2 = Vec2::new(1280.0, 800.0);

fn scene(name: &str) -> World {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap()
}

/// An editor on `world`, paused, in the orbit view looking at the origin from the default angle.
fn orbit_app(world: World) -> App {
    let mut app = App::new(world, None);
    app.camera.set_screen(SCREEN, (Vec2::ZERO, SCREEN));
    app.camera.mode = ViewMode::Orbit;
    app.camera.center = Vec3::ZERO;
    app.camera.distance = 900.0;
    app.camera.yaw = -1.2;
    app.camera.pitch = 0.6;
    app.running = false;
    app
}

fn frame(mouse: Vec2) -> InputFrame {
    InputFrame { mouse, screen: SCREEN, ..InputFrame::default() }
}

fn click(app: &mut App, at: Vec2) {
    press(app, at, false, false, false);
    tools::handle_input(app, &InputFrame { released: vec![MouseButton::Left], ..frame(at) });
}

fn press(app: &mut App, at: Vec2, shift: bool, alt: bool, ctrl: bool) {
    tools::handle_input(
        app,
        &InputFrame {
            pressed: vec![MouseButton::Left],
            down: vec![MouseButton::Left],
            shift,
            alt,
            ctrl,
            ..frame(at)
        },
    );
}

/// A left drag in four frames with the given modifiers held throughout.
fn drag(app: &mut App, from: Vec2, to: Vec2, shift: bool, alt: bool, ctrl: bool) {
    press(app, from, shift, alt, ctrl);
    for t in [0.33, 0.66, 1.0] {
        let at = from.lerp(to, t);
        tools::handle_input(
            app,
            &InputFrame { down: vec![MouseButton::Left], shift, alt, ctrl, ..frame(at) },
        );
    }
    tools::handle_input(
        app,
        &InputFrame { released: vec![MouseButton::Left], shift, alt, ctrl, ..frame(to) },
    );
}

fn screen_of(app: &App, p: Vec3) -> Vec2 {
    app.camera.project_orbit(p).expect("in front of the camera")
}

fn one_ship_world() -> World {
    let mut world = scene("planner-two-waypoints.json");
    world.reset();
    world
}

#[test]
fn orbit_clicks_place_obstacles_targets_and_agents_where_the_ground_ray_hits() {
    let mut app = orbit_app(World::default());
    app.new_agent_kind = BehaviourKind::Planner;
    for (tool, spot) in [
        (Tool::Obstacle, Vec3::new(150.0, -90.0, 0.0)),
        (Tool::Target, Vec3::new(-220.0, 130.0, 0.0)),
        (Tool::Agent, Vec3::new(60.0, 240.0, 0.0)),
    ] {
        app.apply(Command::SetTool(tool));
        let at = screen_of(&app, spot);
        click(&mut app, at);
        let placed = match tool {
            Tool::Obstacle => app.world.obstacles.last().unwrap().position,
            Tool::Target => app.world.targets.last().unwrap().position,
            _ => app.world.agents.last().unwrap().kinematics.position,
        };
        assert!(placed.distance(spot) < 1.0, "{tool:?}: clicked over {spot}, placed at {placed}");
        assert_eq!(placed.z, 0.0, "{tool:?} is on the ground");
    }
    assert_eq!((app.world.obstacles.len(), app.world.targets.len(), app.world.agents.len()), (1, 1, 1));
}

#[test]
fn shift_drag_in_3d_lifts_the_selection_and_a_plain_drag_keeps_its_height() {
    let mut app = orbit_app(World::default());
    app.apply(Command::AddObstacle { position: Vec3::new(0.0, 0.0, 0.0), radius: 30.0 });
    app.apply(Command::SetTool(Tool::Select));
    let start = screen_of(&app, Vec3::ZERO);
    drag(&mut app, start, start - Vec2::new(0.0, 100.0), true, false, false);
    let lifted = app.world.obstacles[0].position;
    assert!(lifted.z > 50.0, "dragging up 100 px with Shift lifts it: {lifted}");
    assert!(lifted.x.abs() < 1e-3 && lifted.y.abs() < 1e-3, "Shift only changes the height: {lifted}");
    assert_eq!(app.world.obstacles[0].start.0, lifted, "the start moves too, so Reset keeps the edit");

    // A plain drag moves it across the plane at its new height.
    let from = screen_of(&app, lifted);
    let target = Vec3::new(120.0, 80.0, lifted.z);
    let to = screen_of(&app, target);
    drag(&mut app, from, to, false, false, false);
    let moved = app.world.obstacles[0].position;
    assert!((moved.z - lifted.z).abs() < 1e-3, "height kept: {moved}");
    assert!(moved.distance(target) < 2.0, "{moved} vs {target}");

    // Undo takes both drags back one at a time.
    app.apply(Command::Undo);
    assert!(app.world.obstacles[0].position.distance(lifted) < 1e-3);
    app.apply(Command::Undo);
    assert_eq!(app.world.obstacles[0].position, Vec3::ZERO);
}

#[test]
fn target_tool_with_a_planner_selected_appends_waypoints_at_the_click() {
    let mut app = orbit_app(one_ship_world());
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::SetTool(Tool::Target));
    let spot = Vec3::new(-150.0, -250.0, 0.0);
    let at = screen_of(&app, spot);
    click(&mut app, at);
    let Behaviour::Planner { params } = &app.world.agents[0].behaviour else { panic!() };
    assert_eq!(params.waypoints.len(), 3, "a waypoint, not a target");
    assert!(app.world.targets.is_empty());
    assert!(params.waypoints[2].distance(spot) < 1.0, "{}", params.waypoints[2]);
    assert_eq!(app.selection, Some(Selection::Waypoint { agent: 0, waypoint: 2 }));

    // The new waypoint is selected: lift it, and the next click lands at its height.
    app.apply(Command::SetTool(Tool::Select));
    let from = screen_of(&app, spot);
    drag(&mut app, from, from - Vec2::new(0.0, 80.0), true, false, false);
    let Behaviour::Planner { params } = &app.world.agents[0].behaviour else { panic!() };
    let height = params.waypoints[2].z;
    assert!(height > 30.0, "lifted: {}", params.waypoints[2]);
    app.apply(Command::SetTool(Tool::Target));
    let next = Vec3::new(100.0, -350.0, height);
    let at = screen_of(&app, next);
    click(&mut app, at);
    let Behaviour::Planner { params } = &app.world.agents[0].behaviour else { panic!() };
    assert_eq!(params.waypoints.len(), 4);
    assert!(params.waypoints[3].distance(next) < 1.0, "{} vs {next}", params.waypoints[3]);

    // The ship starts over on its new list (it replans on its next step).
    let BehaviourState::Planner(ship) = &app.world.agents[0].state else { panic!() };
    assert!(!ship.has_planned && ship.remaining.len() == 4);

    // With nothing selected the Target tool places a target again.
    app.apply(Command::Select(None));
    let at = screen_of(&app, Vec3::new(300.0, 300.0, 0.0));
    click(&mut app, at);
    assert_eq!(app.world.targets.len(), 1);
}

#[test]
fn dragging_a_waypoint_sends_the_ship_to_where_it_now_is() {
    let mut app = orbit_app(one_ship_world());
    app.world.run_steps(60);
    let BehaviourState::Planner(ship) = &app.world.agents[0].state else { panic!() };
    assert!(ship.has_planned);
    app.apply(Command::SetTool(Tool::Select));
    let Behaviour::Planner { params } = &app.world.agents[0].behaviour else { panic!() };
    let w = params.waypoints[1];
    let target = w + Vec3::new(-150.0, 0.0, 0.0);
    let (from, to) = (screen_of(&app, w), screen_of(&app, target));
    drag(&mut app, from, to, false, false, false);
    let Behaviour::Planner { params } = app.world.agents[0].behaviour.clone() else { panic!() };
    assert!(params.waypoints[1].distance(target) < 2.0);
    app.world.step();
    let BehaviourState::Planner(ship) = &app.world.agents[0].state else { panic!() };
    assert_eq!(ship.remaining, params.waypoints, "the ship flies the edited list");
}

#[test]
fn alt_or_ctrl_drag_from_a_ship_pushes_it_by_the_arrow() {
    for (alt, ctrl) in [(true, false), (false, true)] {
        let mut app = orbit_app(one_ship_world());
        app.apply(Command::SetTool(Tool::Select));
        let ship = app.world.agents[0].kinematics.position;
        let before = app.world.agents[0].kinematics.velocity;
        let head = ship + Vec3::new(0.0, 80.0, 0.0);
        let from = screen_of(&app, ship);
        let to = screen_of(&app, head);
        press(&mut app, from, false, alt, ctrl);
        tools::handle_input(&mut app, &InputFrame { down: vec![MouseButton::Left], alt, ctrl, ..frame(to) });
        let aimed = app.tool_state.push.expect("aiming a push");
        assert!(aimed.to.distance(head) < 1.0, "the arrow follows the mouse: {}", aimed.to);
        tools::handle_input(
            &mut app,
            &InputFrame { released: vec![MouseButton::Left], alt, ctrl, ..frame(to) },
        );
        assert!(app.tool_state.push.is_none());
        let change = app.world.agents[0].kinematics.velocity - before;
        let expected = (head - ship) * PUSH_PER_UNIT;
        assert!(change.distance(expected) < 1.0, "alt {alt} ctrl {ctrl}: {change} vs {expected}");
        assert_eq!(app.world.agents[0].kinematics.position, ship, "a push does not move it by itself");
    }
}

#[test]
fn a_plain_drag_from_a_ship_moves_it_instead_of_pushing() {
    let mut app = orbit_app(one_ship_world());
    app.apply(Command::SetTool(Tool::Select));
    let ship = app.world.agents[0].kinematics.position;
    let target = ship + Vec3::new(0.0, 80.0, 0.0);
    let (from, to) = (screen_of(&app, ship), screen_of(&app, target));
    drag(&mut app, from, to, false, false, false);
    assert!(app.world.agents[0].kinematics.position.distance(target) < 2.0);
    assert_eq!(app.world.agents[0].kinematics.velocity, Vec3::ZERO);
}

#[test]
fn push_command_adds_to_the_velocity_and_ignores_nonsense() {
    let mut app = orbit_app(one_ship_world());
    app.apply(Command::Push { agent: 0, impulse: Vec3::new(10.0, -5.0, 2.0) });
    app.apply(Command::Push { agent: 0, impulse: Vec3::new(1.0, 1.0, 1.0) });
    assert_eq!(app.world.agents[0].kinematics.velocity, Vec3::new(11.0, -4.0, 3.0));
    app.apply(Command::Push { agent: 0, impulse: Vec3::new(f32::NAN, 0.0, 0.0) });
    app.apply(Command::Push { agent: 9, impulse: Vec3::X });
    assert_eq!(app.world.agents[0].kinematics.velocity, Vec3::new(11.0, -4.0, 3.0));
}

#[test]
fn a_pushed_ship_recovers_and_still_arrives_without_touching_an_obstacle() {
    let mut app = orbit_app(one_ship_world());
    app.running = true;
    // Fly a second, then shove it sideways toward Obstruction 1.
    app.world.run_steps(60);
    app.apply(Command::Push { agent: 0, impulse: Vec3::new(0.0, 60.0, 0.0) });
    app.world.run_steps(90 * 60);
    let metrics = app.world.metrics();
    let planner = metrics[0].planner.as_ref().unwrap();
    assert_eq!(planner.waypoints_reached, 2, "{:?}", metrics[0]);
    assert_eq!(metrics[0].collisions, 0);
    assert!(metrics[0].arrived_at.is_some());
}

#[test]
fn step_through_walks_the_recorded_iterations_of_the_seed_walk_through() {
    let mut app = orbit_app(one_ship_world());
    app.running = true;
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    assert!(!app.running, "stepping pauses the simulation");
    let debug = app.planner_debug.clone().expect("open");
    assert_eq!(debug.count(), 8, "the seed's walk-through takes eight iterations");
    assert_eq!(debug.iteration, 0);
    let story: Vec<bool> = debug.plan.iterations.iter().map(|it| it.hit.is_some()).collect();
    assert_eq!(story, [true, false, true, false, false, true, false, false]);

    let Behaviour::Planner { params } = &app.world.agents[0].behaviour else { panic!() };
    let (w1, w2) = (params.waypoints[0], params.waypoints[1]);
    let mut shown_paths = Vec::new();
    for k in 0..debug.count() {
        app.apply(Command::PlannerDebugGoto(k));
        let d = app.planner_debug.as_ref().unwrap();
        let it = d.current().unwrap();
        assert_eq!(it, &d.plan.iterations[k], "iteration {k} is the recorded one");
        // The stack is the planner's own snapshot; the bottom is always waypoint 2.
        assert_eq!(it.stack.first(), Some(&w2), "iteration {k}");
        assert_eq!(it.stack.last(), Some(&it.target), "the top is the proto-waypoint tested");
        let narration = d.narrate();
        if it.hit.is_some() {
            assert!(narration.contains("pushed avoidance waypoint"), "{narration}");
        } else {
            assert!(narration.contains("popped"), "{narration}");
        }
        shown_paths.push(d.path_so_far());
    }
    // The green path grows by one real waypoint at every pop and ends with the whole plan.
    let lengths: Vec<usize> = shown_paths.iter().map(Vec::len).collect();
    assert_eq!(lengths, [1, 2, 2, 3, 4, 4, 5, 6]);
    let last = shown_paths.last().unwrap();
    assert_eq!(&last[1..], &debug.plan.waypoints[..]);
    assert_eq!(last.get(3), Some(&w1));
    assert_eq!(last.last(), Some(&w2));
    assert_eq!(debug.describe(w1), "user waypoint 1");
    let a = debug.plan.iterations[0].avoidance.unwrap().waypoint;
    let c = debug.plan.iterations[5].avoidance.unwrap().waypoint;
    assert_eq!(debug.describe(a), "avoidance A");
    assert_eq!(debug.describe(c), "avoidance C");
    app.apply(Command::PlannerDebugGoto(2));
    let narration = app.planner_debug.as_ref().unwrap().narrate();
    assert!(narration.starts_with("Cast from avoidance A"), "{narration}");
    assert!(
        narration.contains("hit obstacle 1") && narration.contains("avoidance waypoint B"),
        "{narration}"
    );

    // Going past either end stays on the first or the last iteration.
    app.apply(Command::PlannerDebugGoto(99));
    assert_eq!(app.planner_debug.as_ref().unwrap().iteration, 7);
    app.apply(Command::ClosePlannerDebug);
    assert!(app.planner_debug.is_none());
}

#[test]
fn step_through_draws_the_fallback_route_in_orange_from_the_iteration_after_which_it_ran() {
    use steerlab::planner::fallback::FallbackOutcome;
    use steerlab::render::planner::Picture;
    // The dense scene sent straight to the waypoint behind the wall with an iteration limit of 4:
    // the loop stops short of it, so the complete fallback search runs inside the recorded plan.
    let mut world = scene("planner-dense.json");
    let Behaviour::Planner { params } = &mut world.agents[0].behaviour else { panic!() };
    params.waypoints.remove(0);
    params.iteration_limit = 4;
    let user = params.waypoints.clone();
    let mut app = orbit_app(world);
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let debug = app.planner_debug.clone().expect("open");
    let searches = &debug.plan.fallbacks;
    assert!(!searches.is_empty(), "the loop stopped short and the fallback ran");
    let routes: Vec<Vec<Vec3>> = searches
        .iter()
        .filter_map(|f| match &f.outcome {
            FallbackOutcome::Route(points) => Some([vec![f.from], points.clone()].concat()),
            _ => None,
        })
        .collect();
    assert!(!routes.is_empty(), "{searches:?}");
    let first_after = searches[0].after_iterations as usize;
    assert!(first_after >= 1, "the fallback ran after the loop's iterations");
    for k in 0..debug.count() {
        app.apply(Command::PlannerDebugGoto(k));
        let d = app.planner_debug.as_ref().unwrap();
        let picture = Picture::of(d);
        let ran = searches.iter().filter(|f| f.after_iterations as usize <= k + 1);
        let expected: Vec<Vec<Vec3>> = ran
            .filter_map(|f| match &f.outcome {
                FallbackOutcome::Route(points) => Some([vec![f.from], points.clone()].concat()),
                _ => None,
            })
            .collect();
        // Before the first search nothing is orange; from the iteration after which it ran, its
        // route is drawn: from where it started to a user waypoint, every corner on the green path.
        assert_eq!(picture.fallback, expected, "iteration {k}");
        assert_eq!(picture.fallback.is_empty(), k + 1 < first_after, "iteration {k}");
        for route in &picture.fallback {
            assert!(user.iter().any(|w| Some(w) == route.last()), "ends at a user waypoint: {route:?}");
            let corners = &route[1..];
            assert!(
                picture.green.windows(corners.len()).any(|w| w == corners),
                "iteration {k}: the route is part of the planned path"
            );
        }
        if k + 1 == first_after {
            assert!(d.narrate().contains("complete fallback search"), "{}", d.narrate());
        }
    }
    // At the last iteration the replayed path is the finished plan, fallback routes included.
    let d = app.planner_debug.as_ref().unwrap();
    assert_eq!(&d.path_so_far()[1..], &d.plan.waypoints[..]);
    assert_eq!(d.fallback_so_far(), routes);
}

#[test]
fn step_through_replans_from_where_the_ship_is_now_with_the_waypoints_left() {
    let mut app = orbit_app(one_ship_world());
    let remaining = |world: &World| match &world.agents[0].state {
        BehaviourState::Planner(ship) => ship.remaining.len(),
        _ => panic!(),
    };
    let mut steps = 0;
    while remaining(&app.world) == 2 && steps < 60 * 60 {
        app.world.step();
        steps += 1;
    }
    assert_eq!(remaining(&app.world), 1, "waypoint 1 reached within a minute");
    let position = app.world.agents[0].kinematics.position;
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let d = app.planner_debug.as_ref().unwrap();
    assert_eq!(d.plan.start, position);
    assert_eq!(d.user_waypoints.len(), 1);
    assert!(d.count() >= 1);
}

#[test]
fn step_through_closes_when_its_agent_goes_and_refuses_non_planners() {
    let mut app = orbit_app(one_ship_world());
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    assert!(app.planner_debug.is_some());
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::DeleteSelection);
    assert!(app.planner_debug.is_none());
    app.apply(Command::Undo);
    app.apply(Command::OpenPlannerDebug { agent: 5 });
    assert!(app.planner_debug.is_none());
    assert!(app.message.as_ref().is_some_and(|m| m.is_error));
}

fn keys(app: &mut App, keys: &[steerlab::app::Key]) {
    for &key in keys {
        tools::handle_input(app, &InputFrame { keys: vec![key], ..frame(Vec2::new(5.0, 5.0)) });
    }
}

#[test]
fn keys_move_through_the_step_through_and_esc_closes_it() {
    use steerlab::app::Key;
    let mut app = orbit_app(one_ship_world());
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let iteration = |app: &App| app.planner_debug.as_ref().map(|d| d.iteration);
    let steps = app.world.steps;
    keys(&mut app, &[Key::Right, Key::Period]);
    assert_eq!(iteration(&app), Some(2), "Right and . go to the next iteration");
    assert_eq!(app.world.steps, steps, "and do not step the simulation while it is open");
    keys(&mut app, &[Key::Left]);
    assert_eq!(iteration(&app), Some(1));
    keys(&mut app, &[Key::Comma, Key::Comma]);
    assert_eq!(iteration(&app), Some(0), "Prev stops at the first iteration");
    keys(&mut app, &[Key::End]);
    assert_eq!(iteration(&app), Some(7), "End goes to the last of the eight iterations");
    keys(&mut app, &[Key::Right]);
    assert_eq!(iteration(&app), Some(7), "Next stops at the last iteration");
    keys(&mut app, &[Key::Home]);
    assert_eq!(iteration(&app), Some(0));
    keys(&mut app, &[Key::Escape]);
    assert_eq!(iteration(&app), None, "Esc closes the step-through");
    keys(&mut app, &[Key::Right]);
    assert_eq!(app.world.steps, steps + 1, "with it closed, Right steps the simulation again");
}

/// With several ships, each planned path carries its ship's colour over the seed's green, so
/// the routes can be told apart; a lone ship keeps the seed's plain green.
#[test]
fn planned_paths_carry_their_ship_colour_only_when_there_are_several_ships() {
    use steerlab::behaviours::GizmoRole;
    let stripes = |name: &str| {
        let mut app = App::new(scene(name), None);
        app.world.set_gizmos_enabled(true);
        app.world.run_steps(2);
        steerlab::render::visible_gizmos(&app)
            .filter(|g| g.planner && g.gizmo.role == GizmoRole::CurrentSegment)
            .map(|g| g.stripe.map(|c| [c.r, c.g, c.b].map(|v| (v * 255.0).round() as u8)))
            .collect::<Vec<_>>()
    };
    let several = stripes("planner-field.json");
    assert!(!several.is_empty() && several.iter().all(Option::is_some), "{several:?}");
    let mut colours: Vec<[u8; 3]> = several.into_iter().flatten().collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), 3, "one stripe colour per ship: {colours:?}");
    let lone = stripes("planner-two-waypoints.json");
    assert!(!lone.is_empty() && lone.iter().all(Option::is_none), "{lone:?}");
}

#[test]
fn avoidance_labels_go_on_past_z_as_two_letters_like_spreadsheet_columns() {
    use steerlab::app::planner_debug::avoidance_label;
    let labels: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702].into_iter().map(avoidance_label).collect();
    assert_eq!(labels, ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]);
    // Independent check: every label up to three letters is distinct and only capitals.
    let all: std::collections::HashSet<String> = (0..18_278).map(avoidance_label).collect();
    assert_eq!(all.len(), 18_278);
    assert!(all.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_uppercase())));
}

#[test]
fn a_step_through_with_more_than_twenty_six_avoidances_labels_each_one_and_never_shows_a_question_mark() {
    // Thirty legs, each blocked by one sphere in its middle: thirty avoidance waypoints.
    let mut world = one_ship_world();
    world.obstacles.clear();
    let Behaviour::Planner { params } = &mut world.agents[0].behaviour else { panic!() };
    params.waypoints = (1..=30).map(|k| Vec3::new(100.0 * k as f32, 0.0, 0.0)).collect();
    params.iteration_limit = 1000;
    params.clearance = 4.0;
    world.agents[0].kinematics.position = Vec3::ZERO;
    for k in 0..30 {
        let position = Vec3::new(100.0 * k as f32 + 50.0, 0.0, 0.0);
        world.obstacles.push(Obstacle::still(position, 10.0));
    }
    let mut app = orbit_app(world);
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let mut debug = app.planner_debug.clone().expect("open");
    assert!(debug.plan.avoidances.len() >= 30, "{} avoidances", debug.plan.avoidances.len());
    let labels: Vec<String> =
        debug.plan.avoidances.iter().map(|a| debug.avoidance_letter(a.waypoint).unwrap()).collect();
    assert_eq!(labels[26], "AA");
    assert_eq!(labels.iter().collect::<std::collections::HashSet<_>>().len(), labels.len());
    for k in 0..debug.count() {
        debug.goto(k);
        let narration = debug.narrate();
        assert!(!narration.contains('?'), "iteration {k}: {narration}");
    }
    let last = debug.plan.avoidances.last().unwrap().waypoint;
    assert_eq!(debug.describe(last), format!("avoidance {}", labels[labels.len() - 1]));
}
