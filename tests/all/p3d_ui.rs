//! The planner step-through panel and the planner's inspector, headless: the inspector's button
//! opens the step-through, the panel's buttons move through the iterations, its stack rows are
//! the recorded stack, and Close closes it.

use crate::ui_support;

use std::path::Path;

use steerlab::app::{App, Command, Selection};
use steerlab::scene::load_scene;
use steerlab::ui::UiState;
use ui_support::*;

fn walk_through() -> App {
    let world =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-two-waypoints.json")).unwrap();
    let mut app = App::new(world, None);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app
}

/// The stack rows the panel shows, top first, as their descriptions.
fn stack_rows(state: &UiState) -> Vec<String> {
    let mut rows: Vec<(usize, String)> = state
        .widget_rects
        .keys()
        .filter_map(|k| k.strip_prefix("step:stack:"))
        .filter_map(|rest| rest.split_once(':'))
        .map(|(depth, what)| (depth.parse().unwrap(), what.to_string()))
        .collect();
    rows.sort();
    rows.into_iter().map(|(_, what)| what).collect()
}

#[test]
fn the_planner_inspector_button_opens_the_step_through() {
    let app = walk_through();
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "planner_step_through");
    assert_eq!(out.commands, vec![Command::OpenPlannerDebug { agent: 0 }]);
}

#[test]
fn next_prev_first_last_and_close_drive_the_step_through() {
    let mut app = walk_through();
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    assert!(state.widget_rects.contains_key("step_panel"));
    assert_eq!(stack_rows(&state), ["user waypoint 1", "user waypoint 2"]);

    // Prev and First are disabled on the first iteration.
    assert!(click_widget(&ctx, &app, &mut state, "step:prev").commands.is_empty());
    let out = click_widget(&ctx, &app, &mut state, "step:next");
    assert_eq!(out.commands, vec![Command::PlannerDebugGoto(1)]);
    app.apply(Command::PlannerDebugGoto(1));
    let _ = frames(&ctx, &app, &mut state, 2);
    // Iteration 2: avoidance A was pushed on top of waypoint 1.
    assert_eq!(stack_rows(&state), ["avoidance A", "user waypoint 1", "user waypoint 2"]);
    let debug = app.planner_debug.as_ref().unwrap();
    assert_eq!(stack_rows(&state).len(), debug.current().unwrap().stack.len());

    assert_eq!(
        click_widget(&ctx, &app, &mut state, "step:last").commands,
        vec![Command::PlannerDebugGoto(7)]
    );
    assert_eq!(
        click_widget(&ctx, &app, &mut state, "step:prev").commands,
        vec![Command::PlannerDebugGoto(0)]
    );
    assert_eq!(
        click_widget(&ctx, &app, &mut state, "step:first").commands,
        vec![Command::PlannerDebugGoto(0)]
    );
    app.apply(Command::PlannerDebugGoto(7));
    let _ = frames(&ctx, &app, &mut state, 2);
    assert!(
        click_widget(&ctx, &app, &mut state, "step:next").commands.is_empty(),
        "no iteration after the last"
    );
    assert_eq!(stack_rows(&state), ["user waypoint 2"]);
    assert_eq!(click_widget(&ctx, &app, &mut state, "step:close").commands, vec![Command::ClosePlannerDebug]);
    assert_eq!(click_widget(&ctx, &app, &mut state, "step:x").commands, vec![Command::ClosePlannerDebug]);
}

#[test]
fn fire_parameters_have_sliders_in_the_planner_inspector() {
    let app = walk_through();
    let mut state = UiState::default();
    let _ctx = settled(&app, &mut state);
    for key in ["incoming_fire", "fire_strength", "fire_seed"] {
        assert!(state.widget_rects.contains_key(&format!("param:{key}")), "no slider for {key}");
    }
}

/// The walk-through's scene with waypoint 2 sealed in a shell of 48 spheres (no gap for the ship).
fn sealed_walk_through() -> steerlab::sim::World {
    let mut world =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-two-waypoints.json")).unwrap();
    world.reset();
    let steerlab::sim::Behaviour::Planner { params } = &world.agents[0].behaviour else { panic!() };
    let sealed = params.waypoints[1];
    for k in 0..48 {
        let zc = 1.0 - 2.0 * (k as f32 + 0.5) / 48.0;
        let r = (1.0 - zc * zc).sqrt();
        let a = std::f32::consts::PI * (3.0 - 5f32.sqrt()) * k as f32;
        let position = sealed + glam::Vec3::new(r * a.cos(), r * a.sin(), zc) * 46.0;
        world.obstacles.push(steerlab::sim::Obstacle {
            position,
            radius: 20.0,
            velocity: glam::Vec3::ZERO,
            start: (position, glam::Vec3::ZERO),
        });
    }
    world
}

/// What one frame of the whole UI painted: every text with its colour, and every filled
/// rectangle's fill with its rectangle.
struct Painted {
    texts: Vec<(String, egui::Color32, egui::Rect)>,
    fills: Vec<(egui::Color32, egui::Rect)>,
}

fn paint(ctx: &egui::Context, app: &App, state: &mut UiState) -> Painted {
    let examples = examples();
    let output = ctx.run(raw_input(Vec::new()), |ctx| {
        let _ = steerlab::ui::show(ctx, app, state, &examples);
    });
    let mut painted = Painted { texts: Vec::new(), fills: Vec::new() };
    fn walk(shape: &egui::Shape, painted: &mut Painted) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, painted)),
            egui::Shape::Text(text) => {
                let color =
                    text.galley.job.sections.first().map(|s| s.format.color).unwrap_or(text.fallback_color);
                painted.texts.push((text.galley.text().to_string(), color, text.visual_bounding_rect()));
            }
            egui::Shape::Rect(rect) => painted.fills.push((rect.fill, rect.rect)),
            _ => {}
        }
    }
    for clipped in &output.shapes {
        walk(&clipped.shape, &mut painted);
    }
    painted
}

#[test]
fn the_inspector_shows_a_sealed_waypoint_as_unreachable_with_its_reason_in_red() {
    let mut app = App::new(sealed_walk_through(), None);
    app.world.run_steps(60 * 60);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let painted = paint(&ctx, &app, &mut state);
    let status = painted
        .texts
        .iter()
        .find(|(text, _, _)| text.starts_with("Status:"))
        .unwrap_or_else(|| panic!("no status line among {:?}", painted.texts));
    assert!(
        status.0.contains("unreachable, holding position") && status.0.contains("waypoint 2 is sealed in"),
        "{}",
        status.0
    );
    assert_eq!(status.1, steerlab::ui::ERROR_RED);
    assert!(state.widget_rects.contains_key("planner_status"));

    // A ship that reached everything says so, not in red.
    let open =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-two-waypoints.json")).unwrap();
    let mut app = App::new(open, None);
    app.world.run_steps(60 * 60);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    let ctx = settled(&app, &mut state);
    let painted = paint(&ctx, &app, &mut state);
    let status = painted.texts.iter().find(|(text, _, _)| text.starts_with("Status:")).unwrap();
    assert_eq!(status.0, "Status: arrived");
    assert_ne!(status.1, steerlab::ui::ERROR_RED);
}

#[test]
fn the_step_through_of_a_plan_to_a_sealed_waypoint_shows_the_fallback_finding_no_route_and_the_status() {
    // Only the sealed waypoint: the loop stops at its limit short of it, so the fallback runs in
    // this plan (a plan that reaches waypoint 1 first leaves waypoint 2 to the next replan).
    let mut world = sealed_walk_through();
    let steerlab::sim::Behaviour::Planner { params } = &mut world.agents[0].behaviour else { panic!() };
    params.waypoints.remove(0);
    let mut app = App::new(world, None);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let debug = app.planner_debug.as_ref().unwrap();
    assert!(
        !debug.plan.fallbacks.is_empty(),
        "the loop stopped short and the fallback ran: {}",
        debug.plan.summary()
    );
    let last = debug.count() - 1;
    app.apply(Command::PlannerDebugGoto(last));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let painted = paint(&ctx, &app, &mut state);
    let shown = |needle: &str| painted.texts.iter().find(|(text, _, _)| text.contains(needle)).cloned();
    let status = shown("Status: unreachable: user waypoint 1 is sealed in")
        .unwrap_or_else(|| panic!("no unreachable status among {:?}", painted.texts));
    assert_eq!(status.1, steerlab::ui::ERROR_RED);
    assert!(state.widget_rects.contains_key("step:unreachable:1"));
    assert!(shown("no route: the waypoint is unreachable").is_some(), "the fallback's line");
    assert!(shown("waypoint 1 is unreachable (sealed in").is_some(), "the plan's summary");
    // Where the fallback ran, the narration says it found nothing.
    let after = debug_fallback_iteration(&app);
    app.apply(Command::PlannerDebugGoto(after));
    let _ = frames(&ctx, &app, &mut state, 2);
    let painted_then = paint(&ctx, &app, &mut state);
    assert!(
        painted_then.texts.iter().any(|(t, _, _)| t.contains("found no route: unreachable")),
        "narration at iteration {after}"
    );
}

/// The iteration after which the (first) fallback search ran.
fn debug_fallback_iteration(app: &App) -> usize {
    let debug = app.planner_debug.as_ref().unwrap();
    (debug.plan.fallbacks[0].after_iterations as usize).saturating_sub(1)
}

/// A fill of exactly these channels inside `rect`.
fn has_swatch(painted: &Painted, rect: egui::Rect, (r, g, b): (u8, u8, u8)) -> bool {
    painted
        .fills
        .iter()
        .any(|(fill, at)| *fill == egui::Color32::from_rgb(r, g, b) && rect.contains_rect(*at))
}

#[test]
fn the_display_panel_and_the_step_through_key_show_the_fallback_colour_from_the_palette() {
    let fallback = steerlab::render::style::FALLBACK_ROUTE_RGB;
    let drawn = steerlab::render::style::gizmo_color(steerlab::behaviours::GizmoRole::FallbackSegment, true);
    let channel = |v: f32| (v * 255.0).round() as u8;
    assert_eq!(
        (channel(drawn.r), channel(drawn.g), channel(drawn.b)),
        fallback,
        "the world draws that colour"
    );

    let mut app = walk_through();
    let mut state = all_panels();
    let ctx = settled(&app, &mut state);
    // Past the windows' fade-in, so the swatches are painted at full opacity.
    let _ = frames(&ctx, &app, &mut state, 30);
    let painted_now = paint(&ctx, &app, &mut state);
    let row = state.widget_rects["display:legend:fallback"];
    assert!(
        has_swatch(&painted_now, row, fallback),
        "display legend swatch in {row:?}: {:?}",
        painted_now.fills.iter().filter(|(_, at)| row.intersects(*at)).collect::<Vec<_>>()
    );
    assert!(painted_now
        .texts
        .iter()
        .any(|(t, _, at)| t.contains("complete fallback search") && row.intersects(*at)));
    let cross = steerlab::render::style::UNREACHABLE;
    let unreachable = (channel(cross.r), channel(cross.g), channel(cross.b));
    assert!(has_swatch(&painted_now, state.widget_rects["display:legend:unreachable"], unreachable));
    assert!(!has_swatch(&painted_now, state.widget_rects["display:legend:plan"], fallback));

    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let _ = frames(&ctx, &app, &mut state, 30);
    let painted_now = paint(&ctx, &app, &mut state);
    assert!(
        has_swatch(&painted_now, state.widget_rects["step:key:fallback"], fallback),
        "step-through key swatch"
    );
}

#[test]
fn at_the_waypoint_limit_add_waypoint_is_greyed_and_one_below_it_adds_the_last() {
    use steerlab::planner::MAX_WAYPOINTS;
    use steerlab::sim::Behaviour;
    for count in [MAX_WAYPOINTS - 1, MAX_WAYPOINTS] {
        let mut app = walk_through();
        let Behaviour::Planner { mut params } = app.world.agents[0].behaviour.clone() else {
            panic!("a planner")
        };
        params.waypoints =
            (0..count).map(|i| glam::Vec3::new(i as f32 % 100.0, (i / 100) as f32, 0.0)).collect();
        app.apply(Command::SetBehaviour { agent: 0, behaviour: Behaviour::Planner { params } });
        let mut state = UiState::default();
        let ctx = settled(&app, &mut state);
        scroll_to_widget(&ctx, &app, &mut state, "inspector:add_waypoint");
        let out = click_widget(&ctx, &app, &mut state, "inspector:add_waypoint");
        match out.commands.as_slice() {
            [] => assert_eq!(count, MAX_WAYPOINTS, "one below the limit the button did nothing"),
            [Command::SetBehaviour { behaviour: Behaviour::Planner { params }, .. }] => {
                assert_eq!((count, params.waypoints.len()), (MAX_WAYPOINTS - 1, MAX_WAYPOINTS));
            }
            other => panic!("{count} waypoints: {other:?}"),
        }
    }
}
