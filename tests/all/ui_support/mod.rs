//! Shared helpers of the headless UI tests: worlds built by hand, frames run on
//! `egui::Context::default()`, and clicks simulated with raw pointer events.

#![allow(dead_code)]

use glam::Vec3;
use steerlab::app::App;
use steerlab::behaviours::{Kinematics, Limits};
use steerlab::geometry::{Curve, CurveKind, Polyline};
use steerlab::sim::{
    Agent, ArriveParams, Behaviour, NamedCurve, NamedPath, Obstacle, ParametricParams, PlannerParams,
    PredictiveParams, ProjectedParams, Rgb, Target, WaypointsParams, World,
};
use steerlab::ui::{show, UiOutput, UiState};

/// The examples list the shell would pass.
pub fn examples() -> Vec<(String, String)> {
    vec![
        ("compare.json".to_string(), "Four path followers on one track.".to_string()),
        ("arrive.json".to_string(), "Arrive with its radii.".to_string()),
    ]
}

fn agent(name: &str, colour: Rgb, x: f32, behaviour: Behaviour) -> Agent {
    let start = Kinematics { position: Vec3::new(x, -100.0, 0.0), velocity: Vec3::ZERO, orientation: 0.0 };
    Agent::new(name.to_string(), colour, start, Limits::default(), behaviour)
}

/// A world with a target, an obstacle and seek, flee, arrive and planner agents (no paths or
/// curves, so it needs no geometry).
pub fn world_without_geometry() -> World {
    let mut world = World::default();
    world.name = "Hand-built".into();
    world.description = "For the UI tests.".into();
    let flag = Vec3::new(200.0, 100.0, 0.0);
    world.targets.push(Target {
        id: "flag".into(),
        position: flag,
        velocity: Vec3::ZERO,
        start: (flag, Vec3::ZERO),
    });
    let rock = Vec3::new(50.0, 0.0, 0.0);
    world.obstacles.push(Obstacle {
        position: rock,
        radius: 20.0,
        velocity: Vec3::ZERO,
        start: (rock, Vec3::ZERO),
    });
    world.agents.push(agent("seeker", Rgb(230, 25, 75), -200.0, Behaviour::Seek { target: 0 }));
    world.agents.push(agent("fleer", Rgb(60, 180, 75), -100.0, Behaviour::Flee { target: 0 }));
    world.agents.push(agent(
        "arriver",
        Rgb(67, 99, 216),
        0.0,
        Behaviour::Arrive { target: 0, params: ArriveParams::default() },
    ));
    let planner = PlannerParams {
        waypoints: vec![Vec3::new(300.0, 0.0, 0.0), Vec3::new(300.0, 200.0, 50.0)],
        ..PlannerParams::default()
    };
    world.agents.push(agent(
        "ship",
        Rgb(245, 130, 49),
        100.0,
        Behaviour::Planner { params: Box::new(planner) },
    ));
    world
}

/// A world with one agent of every behaviour kind, a path, a built-in and an `expr` curve.
pub fn world_with_everything() -> World {
    let mut world = world_without_geometry();
    let points = vec![
        Vec3::new(-300.0, -200.0, 0.0),
        Vec3::new(300.0, -200.0, 0.0),
        Vec3::new(300.0, 200.0, 0.0),
        Vec3::new(-300.0, 200.0, 0.0),
    ];
    world.paths.push(NamedPath { id: "track".into(), polyline: Polyline::new(points, true), radius: 24.0 });
    let circle = Curve::new(CurveKind::Circle { center: Vec3::ZERO, radius: 150.0 }).unwrap();
    world.curves.push(NamedCurve { id: "ring".into(), curve: circle });
    let wave = Curve::new(CurveKind::Expr {
        x: "200*cos(t)".into(),
        y: "100*sin(2*t)".into(),
        z: "0".into(),
        t_min: 0.0,
        t_max: 6.2831855,
    })
    .unwrap();
    world.curves.push(NamedCurve { id: "wave".into(), curve: wave });
    world.agents.push(agent(
        "parametric",
        Rgb(145, 30, 180),
        -300.0,
        Behaviour::Parametric { curve: 0, params: ParametricParams::default() },
    ));
    world.agents.push(agent(
        "waypoints",
        Rgb(66, 212, 244),
        -250.0,
        Behaviour::Waypoints { path: 0, params: WaypointsParams::default() },
    ));
    world.agents.push(agent(
        "projected",
        Rgb(240, 50, 230),
        -150.0,
        Behaviour::Projected { path: 0, params: ProjectedParams::default() },
    ));
    world.agents.push(agent(
        "predictive",
        Rgb(154, 99, 36),
        -50.0,
        Behaviour::Predictive { path: 0, params: PredictiveParams::default() },
    ));
    world
}

/// Raw input for a 1280×800 screen with these events.
pub fn raw_input(events: Vec<egui::Event>) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        events,
        ..Default::default()
    }
}

/// Runs one frame of the whole UI with these input events; returns what every pass asked for.
pub fn frame(ctx: &egui::Context, app: &App, state: &mut UiState, events: Vec<egui::Event>) -> UiOutput {
    let examples = examples();
    let mut out = UiOutput::default();
    let _ = ctx.run(raw_input(events), |ctx| out.merge(show(ctx, app, state, &examples)));
    out
}

/// Runs one frame like [`frame`]; returns the texts the frame put on the clipboard.
pub fn frame_copying(
    ctx: &egui::Context,
    app: &App,
    state: &mut UiState,
    events: Vec<egui::Event>,
) -> Vec<String> {
    let examples = examples();
    let full = ctx.run(raw_input(events), |ctx| {
        let _ = show(ctx, app, state, &examples);
    });
    full.platform_output
        .commands
        .into_iter()
        .filter_map(|command| match command {
            egui::OutputCommand::CopyText(text) => Some(text),
            _ => None,
        })
        .collect()
}

/// Runs `n` frames without input in a window of `size` points (the shell gives egui the window's
/// pixels over the UI scale).
pub fn frames_sized(ctx: &egui::Context, app: &App, state: &mut UiState, size: egui::Vec2, n: usize) {
    let examples = examples();
    for _ in 0..n {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
            ..Default::default()
        };
        let _ = ctx.run(input, |ctx| {
            let _ = show(ctx, app, state, &examples);
        });
    }
}

/// Runs `n` frames without input; returns the merged output.
pub fn frames(ctx: &egui::Context, app: &App, state: &mut UiState, n: usize) -> UiOutput {
    let mut out = UiOutput::default();
    for _ in 0..n {
        out.merge(frame(ctx, app, state, Vec::new()));
    }
    out
}

fn button_event(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Clicks at `pos` (move, rest, press, release over four frames); returns the merged output.
/// The rest frame matters: a tooltip's area appears for one frame where egui first lays it
/// out and would take the press, which a person's slower mouse never notices.
pub fn click_at(ctx: &egui::Context, app: &App, state: &mut UiState, pos: egui::Pos2) -> UiOutput {
    let mut out = frame(ctx, app, state, vec![egui::Event::PointerMoved(pos)]);
    out.merge(frame(ctx, app, state, Vec::new()));
    out.merge(frame(ctx, app, state, vec![button_event(pos, true)]));
    out.merge(frame(ctx, app, state, vec![button_event(pos, false)]));
    out
}

/// Clicks the widget recorded under `name` in the last frame (panics with the names known).
pub fn click_widget(ctx: &egui::Context, app: &App, state: &mut UiState, name: &str) -> UiOutput {
    let rect = match state.widget_rects.get(name) {
        Some(rect) => *rect,
        None => panic!("no widget {name}; known: {:?}", state.widget_rects.keys().collect::<Vec<_>>()),
    };
    click_at(ctx, app, state, rect.center())
}

/// A fresh context with the app and state after two settling frames.
pub fn settled(app: &App, state: &mut UiState) -> egui::Context {
    let ctx = egui::Context::default();
    let _ = frames(&ctx, app, state, 2);
    ctx
}

/// A UI state with every panel shown.
pub fn all_panels() -> UiState {
    let mut state = UiState::default();
    state.panels.scene = true;
    state.panels.display = true;
    state.panels.metrics = true;
    state.panels.plots = true;
    state
}

/// Clicks the number field at `at`, selects its text and types `text` a character a frame, as
/// a person types, then presses Enter; the merged output.
pub fn type_into(
    ctx: &egui::Context,
    app: &App,
    state: &mut UiState,
    at: egui::Pos2,
    text: &str,
) -> UiOutput {
    let press = |pressed| egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    let key = |key, modifiers| egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    };
    let mut out = frame(ctx, app, state, vec![egui::Event::PointerMoved(at)]);
    out.merge(frame(ctx, app, state, vec![press(true)]));
    out.merge(frame(ctx, app, state, vec![press(false)]));
    out.merge(frame(ctx, app, state, vec![key(egui::Key::A, egui::Modifiers::COMMAND)]));
    for c in text.chars() {
        out.merge(frame(ctx, app, state, vec![egui::Event::Text(c.to_string())]));
    }
    out.merge(frame(ctx, app, state, vec![key(egui::Key::Enter, egui::Modifiers::NONE)]));
    out.merge(frames(ctx, app, state, 3));
    out
}

/// Wheels the panel under the widget recorded as `name` (the pointer at its column, half way
/// down the window) until the widget is inside the 1280×800 window, as a person scrolls to a
/// button below the fold; panics if it never gets there.
pub fn scroll_to_widget(ctx: &egui::Context, app: &App, state: &mut UiState, name: &str) {
    for _ in 0..400 {
        let Some(rect) = state.widget_rects.get(name).copied() else { panic!("no widget {name}") };
        if rect.min.y >= 0.0 && rect.max.y <= 800.0 {
            let _ = frames(ctx, app, state, 2);
            return;
        }
        let delta = if rect.max.y > 800.0 {
            -(rect.max.y - 700.0).min(4000.0)
        } else {
            (100.0 - rect.min.y).min(4000.0)
        };
        let over = egui::Event::PointerMoved(egui::pos2(rect.center().x, 400.0));
        let wheel = egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, delta),
            modifiers: egui::Modifiers::NONE,
        };
        let _ = frame(ctx, app, state, vec![over, wheel]);
    }
    panic!("{name} never scrolled into the window: {:?}", state.widget_rects.get(name));
}

/// Every text the whole UI paints in one frame without input (after `settled`), as a person
/// reads the panels.
pub fn painted_texts(ctx: &egui::Context, app: &App, state: &mut UiState) -> Vec<String> {
    let examples = examples();
    let output = ctx.run(raw_input(Vec::new()), |ctx| {
        let _ = show(ctx, app, state, &examples);
    });
    let mut texts = Vec::new();
    let mut stack: Vec<egui::Shape> = output.shapes.into_iter().map(|clipped| clipped.shape).collect();
    while let Some(shape) = stack.pop() {
        match shape {
            egui::Shape::Text(text) => texts.push(text.galley.text().to_string()),
            egui::Shape::Vec(shapes) => stack.extend(shapes),
            _ => {}
        }
    }
    texts
}
