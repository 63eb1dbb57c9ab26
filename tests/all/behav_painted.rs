//! Painted flow fields: the scene's `fields` round trip and their refusals (located by JSON
//! path, line and column), and the Paint tool driven headless by hand-made input frames — a
//! stroke sets the cells under it to its direction, each stroke is one undo step, and the tool's
//! key never fires behind a dialog, and the toolbar picks it and sets its brush.

use glam::{Vec2, Vec3};
use steerlab::app::tools::{self, InputFrame, Key, MouseButton};
use steerlab::app::{App, Command, Focus, Tool};
use steerlab::scene::{parse_scene, scene_to_json};
use steerlab::sim::Behaviour;

const SCREEN: Vec2 = Vec2::new(1280.0, 800.0);

/// A scene with a 4 × 3 field of 50 u cells at (−100, −75), its vectors given by `vectors`
/// (the JSON text of the list, or None to omit it), and one agent reading it.
fn field_scene(vectors: Option<&str>) -> String {
    let vectors = vectors.map_or(String::new(), |v| format!(",\n      \"vectors\": {v}"));
    format!(
        r#"{{
  "version": 2,
  "name": "painted",
  "fields": [
    {{ "id": "swirl", "origin": [-100, -75], "cell_size": 50,
      "columns": 4, "rows": 3{vectors} }}
  ],
  "agents": [
    {{ "name": "leaf", "position": [0, 0], "max_speed": 60, "max_acceleration": 200,
      "behaviours": [{{ "type": "flow_field", "field": "swirl", "look_ahead": 0 }}] }}
  ]
}}
"#
    )
}

const TWELVE: &str = "[[1,0],[1,0],[1,0],[1,0],[0,1],[0,1],[0,1],[0,1],[-1,0],[-1,0],[-1,0],[-0.5,0.25]]";

fn error_of(text: &str) -> String {
    parse_scene(text, "painted.json").map(|_| ()).unwrap_err().to_string()
}

#[test]
fn a_painted_field_round_trips_bit_for_bit_and_a_blank_one_is_saved_without_vectors() {
    let world = parse_scene(&field_scene(Some(TWELVE)), "painted.json").unwrap();
    assert_eq!(world.fields.len(), 1);
    let field = &world.fields[0].field;
    assert_eq!(field.size(), (4, 3));
    assert_eq!(field.cell(3, 2), Vec3::new(-0.5, 0.25, 0.0));
    assert_eq!(field.cell(0, 1), Vec3::Y);
    assert!(matches!(world.agents[0].behaviour, Behaviour::FlowField { field: Some(0), path: None, .. }));
    let saved = scene_to_json(&world).unwrap();
    assert!(saved.contains("\"field\": \"swirl\""), "{saved}");
    let again = parse_scene(&saved, "saved.json").unwrap();
    assert_eq!(again.fields, world.fields);
    assert_eq!(scene_to_json(&again).unwrap(), saved);

    let blank = parse_scene(&field_scene(None), "blank.json").unwrap();
    assert!(blank.fields[0].field.is_blank());
    let saved = scene_to_json(&blank).unwrap();
    assert!(!saved.contains("vectors"), "{saved}");
    assert_eq!(parse_scene(&saved, "saved.json").unwrap().fields, blank.fields);
}

#[test]
fn an_agent_reads_its_painted_field_and_never_gets_a_nan() {
    // Every cell +y: the leaf turns north and keeps going.
    let north = format!("[{}]", ["[0, 1]"; 12].join(", "));
    let mut world = parse_scene(&field_scene(Some(&north)), "north.json").unwrap();
    for _ in 0..240 {
        world.step();
    }
    let agent = &world.agents[0];
    assert!(agent.kinematics.velocity.y > 55.0, "{}", agent.kinematics.velocity);
    assert!(agent.kinematics.position.is_finite());
}

#[test]
fn bad_painted_grids_are_refused_with_their_json_path_line_and_column() {
    let cases: [(String, &str); 9] = [
        // A number too big for an f32 is infinite.
        (
            field_scene(Some("[[1,0],[1,0],[1,0],[1e39,0],[0,1],[0,1],[0,1],[0,1],[-1,0],[-1,0],[-1,0],[-1,0]]")),
            "painted.json: fields[0].vectors[3][0] (line 7, column 38): `vector` must be a finite number, got 1e39 (too large for single precision)",
        ),
        (
            field_scene(Some("[[1,0],[1,0]]")),
            "painted.json: fields[0].vectors (line 7, column 18): a field of 4 × 3 cells needs 12 vectors (one per cell, row by row from the bottom) or none, got 2",
        ),
        (
            field_scene(Some("[[1,0,0],[1,0]]")),
            "painted.json: fields[0].vectors[0] (line 7, column 19): invalid length 3, expected fewer elements in array",
        ),
        (
            field_scene(None).replace("\"columns\": 4", "\"columns\": 100000").replace("\"rows\": 3", "\"rows\": 100000"),
            "painted.json: fields[0] (line 5, column 5): a painted field of 100000 × 100000 = 10000000000 cells is too big: at most 4194304 cells (2048 × 2048)",
        ),
        (
            field_scene(None).replace("\"columns\": 4", "\"columns\": 0"),
            "painted.json: fields[0].columns (line 6, column 18): `columns` must be at least 1",
        ),
        (
            field_scene(None).replace("\"cell_size\": 50", "\"cell_size\": 0"),
            "painted.json: fields[0].cell_size (line 5, column 58): `cell_size` must be from 1 to 10000 u, got 0",
        ),
        (
            field_scene(None).replace("\"columns\": 4", "\"columns\": 2048").replace("\"cell_size\": 50", "\"cell_size\": 1000"),
            "painted.json: fields[0].columns (line 6, column 18): 2048 columns of 1000 u reach 2047900 from the origin, beyond the coordinate limit (1000000)",
        ),
        (
            field_scene(None).replace("\"field\": \"swirl\"", "\"field\": \"swril\""),
            "painted.json: agents[0].behaviours[0].field (line 10, column 55): no field with id `swril`; fields are: `swirl`",
        ),
        (
            field_scene(None).replace("\"field\": \"swirl\"", "\"field\": \"swirl\", \"path\": \"river\""),
            "painted.json: agents[0].behaviours[0].field (line 10, column 55): a flow field reads a painted `field` or runs along a `path`, not both",
        ),
    ];
    let mut mismatches = Vec::new();
    for (text, expected) in cases {
        let actual = error_of(&text);
        if actual != expected {
            mismatches.push(format!("{actual}\n  (expected {expected})"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn the_cells_of_all_painted_fields_together_are_bounded_before_anything_is_allocated() {
    // Three fields of 2048 × 1024 cells: each is allowed, the third passes the total.
    let one = |id: &str| {
        format!(r#"{{ "id": "{id}", "origin": [0, 0], "cell_size": 1, "columns": 2048, "rows": 1024 }}"#)
    };
    let text =
        format!(r#"{{ "version": 2, "fields": [{}, {}, {}], "agents": [] }}"#, one("a"), one("b"), one("c"));
    let err = error_of(&text);
    assert!(
        err.starts_with("painted.json: fields[2] (line 1, column ")
            && err.ends_with("too many cells: the scene's painted fields hold at most 4194304 in all"),
        "{err}"
    );
}

fn app_on(text: &str) -> App {
    let mut app = App::new(parse_scene(text, "painted.json").unwrap(), None);
    app.camera.set_screen(SCREEN, (Vec2::ZERO, SCREEN));
    app.camera.center = Vec3::ZERO;
    app.camera.zoom = 2.0;
    app.running = false;
    app
}

fn frame(mouse: Vec2) -> InputFrame {
    InputFrame { mouse, screen: SCREEN, ..InputFrame::default() }
}

/// A Paint stroke as the window sends it: a press at world `from`, eight moves to `to`, a release.
fn stroke(app: &mut App, from: Vec3, to: Vec3) {
    let (a, b) = (app.camera.world_to_screen(from), app.camera.world_to_screen(to));
    let held = |mouse| InputFrame { down: vec![MouseButton::Left], ..frame(mouse) };
    tools::handle_input(app, &InputFrame { pressed: vec![MouseButton::Left], ..held(a) });
    for i in 1..=8 {
        tools::handle_input(app, &held(a.lerp(b, i as f32 / 8.0)));
    }
    tools::handle_input(app, &InputFrame { released: vec![MouseButton::Left], ..frame(b) });
}

#[test]
fn a_paint_stroke_sets_the_cells_under_it_to_its_direction_and_undo_restores_them() {
    let mut app = app_on(&field_scene(None));
    let keys = |app: &mut App, focus| {
        tools::handle_input(app, &InputFrame { keys: vec![Key::Letter('B')], focus, ..frame(Vec2::ZERO) })
    };
    // The key does nothing behind a dialog or while typing, and picks the tool otherwise.
    keys(&mut app, Focus::Modal);
    keys(&mut app, Focus::TextField);
    assert_eq!(app.tool, Tool::Select);
    keys(&mut app, Focus::World);
    assert_eq!(app.tool, Tool::Paint);
    app.apply(Command::SetBrushRadius(20.0));
    // Along the middle row (y = 0 … cells centred at y = −50, 0, 50), left to right.
    stroke(&mut app, Vec3::new(-90.0, 0.0, 0.0), Vec3::new(90.0, 0.0, 0.0));
    let field = &app.world.fields[0].field;
    for row in 0..3 {
        for col in 0..4 {
            let expected = if row == 1 { Vec3::X } else { Vec3::ZERO };
            assert!(
                field.cell(col, row).distance(expected) < 1e-6,
                "cell ({col}, {row}): {}",
                field.cell(col, row)
            );
        }
    }
    assert!(app.dirty);
    // A second stroke, down the first column, is its own undo step.
    stroke(&mut app, Vec3::new(-75.0, 70.0, 0.0), Vec3::new(-75.0, -70.0, 0.0));
    let field = &app.world.fields[0].field;
    assert!(field.cell(0, 2).distance(-Vec3::Y) < 1e-6 && field.cell(0, 0).distance(-Vec3::Y) < 1e-6);
    assert!(field.cell(1, 1).distance(Vec3::X) < 1e-6);
    app.apply(Command::Undo);
    let field = &app.world.fields[0].field;
    assert!(field.cell(0, 2) == Vec3::ZERO && field.cell(0, 1).distance(Vec3::X) < 1e-6);
    app.apply(Command::Undo);
    assert!(app.world.fields[0].field.is_blank());
    app.apply(Command::Redo);
    assert!(app.world.fields[0].field.cell(2, 1).distance(Vec3::X) < 1e-6);
    // The saved scene holds the stroke.
    let saved = parse_scene(&scene_to_json(&app.world).unwrap(), "saved.json").unwrap();
    assert_eq!(saved.fields, app.world.fields);
}

#[test]
fn the_first_stroke_in_a_scene_without_a_field_starts_one_over_the_view_in_the_same_undo_step() {
    let mut app = app_on(r#"{ "version": 2, "agents": [] }"#);
    app.apply(Command::SetTool(Tool::Paint));
    // A press over a panel paints nothing.
    let over_ui = |mouse| InputFrame { pointer_over_ui: true, down: vec![MouseButton::Left], ..frame(mouse) };
    tools::handle_input(
        &mut app,
        &InputFrame { pressed: vec![MouseButton::Left], ..over_ui(Vec2::new(600.0, 400.0)) },
    );
    tools::handle_input(&mut app, &over_ui(Vec2::new(700.0, 400.0)));
    tools::handle_input(
        &mut app,
        &InputFrame { released: vec![MouseButton::Left], ..frame(Vec2::new(700.0, 400.0)) },
    );
    assert!(app.world.fields.is_empty());
    stroke(&mut app, Vec3::new(0.0, 100.0, 0.0), Vec3::new(0.0, -100.0, 0.0));
    assert_eq!(app.world.fields.len(), 1);
    let field = &app.world.fields[0].field;
    // The view (640 × 400 u at zoom 2) is covered by 25 u cells.
    let (columns, rows) = field.size();
    assert!(columns * 25 >= 640 && rows * 25 >= 400, "{columns} × {rows}");
    let (col, row) = field.cell_of(Vec3::ZERO).unwrap();
    assert!(field.cell(col, row).distance(-Vec3::Y) < 1e-6);
    app.apply(Command::Undo);
    assert!(app.world.fields.is_empty());
    // A brush radius outside its declaration is refused, not clamped.
    app.apply(Command::SetBrushRadius(0.0));
    assert_eq!(app.brush_radius, tools::BRUSH_RADIUS.default);
    assert!(app.message.as_ref().is_some_and(|m| m.is_error), "{:?}", app.message);
}

#[test]
fn flow_painted_scene_leaves_circle_the_painted_loop_counter_clockwise_without_touching_a_rock() {
    let mut world = steerlab::scene::load_scene(std::path::Path::new("scenes/flow-painted.json")).unwrap();
    assert!(!world.fields.is_empty() && !world.fields[0].field.is_blank());
    let angle = |p: Vec3| p.y.atan2(p.x);
    let mut last: Vec<f32> = world.agents.iter().map(|a| angle(a.kinematics.position)).collect();
    let mut turned = vec![0.0f32; world.agents.len()];
    for _ in 0..60 * 60 {
        world.step();
        for (i, agent) in world.agents.iter().enumerate() {
            let now = angle(agent.kinematics.position);
            let mut delta = now - last[i];
            if delta > std::f32::consts::PI {
                delta -= std::f32::consts::TAU;
            } else if delta < -std::f32::consts::PI {
                delta += std::f32::consts::TAU;
            }
            turned[i] += delta;
            last[i] = now;
        }
    }
    for (m, turned) in world.metrics().iter().zip(turned) {
        let laps = turned / std::f32::consts::TAU;
        assert!(laps > 2.5, "{} went round {laps:.2} times in a minute", m.name);
        assert_eq!(m.collisions, 0, "{} touched a rock", m.name);
    }
}

#[test]
fn a_pasted_agent_reads_the_painted_field_it_was_copied_from_and_the_field_is_not_copied() {
    let mut app = app_on(&field_scene(Some(TWELVE)));
    app.apply(Command::Select(Some(steerlab::app::Selection::Agent(0))));
    app.apply(Command::Duplicate);
    assert_eq!(app.world.agents.len(), 2);
    assert_eq!(app.world.fields.len(), 1, "the field is not duplicated");
    assert!(matches!(app.world.agents[1].behaviour, Behaviour::FlowField { field: Some(0), .. }));
    // A stroke with the copy selected paints the field both read; undo takes just the stroke.
    app.apply(Command::SetTool(Tool::Paint));
    stroke(&mut app, Vec3::new(-90.0, -50.0, 0.0), Vec3::new(90.0, -50.0, 0.0));
    assert!(app.world.fields[0].field.cell(0, 0).distance(Vec3::X) < 1e-6);
    app.apply(Command::Undo);
    assert_eq!(app.world.fields[0].field.cell(3, 2), Vec3::new(-0.5, 0.25, 0.0));
    assert_eq!(app.world.agents.len(), 2);
}

#[test]
fn the_toolbar_picks_the_paint_tool_and_its_brush_slider_sets_the_radius() {
    use super::ui_support::{all_panels, click_at, click_widget, frames, settled};
    let mut app = app_on(&field_scene(None));
    let mut state = all_panels();
    let ctx = settled(&app, &mut state);
    assert!(!state.widget_rects.contains_key("brush_radius"), "the brush shows with the Paint tool only");
    let out = click_widget(&ctx, &app, &mut state, "tool:Paint");
    assert!(out.commands.contains(&Command::SetTool(Tool::Paint)), "{:?}", out.commands);
    app.apply(Command::SetTool(Tool::Paint));
    let _ = frames(&ctx, &app, &mut state, 2);
    let slider = state.widget_rects["brush_radius"];
    // A click on the right part of the slider (the rectangle holds the slider and its value) asks
    // for a bigger brush.
    let out =
        click_at(&ctx, &app, &mut state, egui::pos2(slider.min.x + slider.width() * 0.55, slider.center().y));
    let radius = out.commands.iter().find_map(|c| match c {
        Command::SetBrushRadius(r) => Some(*r),
        _ => None,
    });
    let radius = radius.unwrap_or_else(|| panic!("no brush command: {:?}", out.commands));
    assert!(radius > tools::BRUSH_RADIUS.default && radius <= tools::BRUSH_RADIUS.max, "{radius}");
    app.apply(Command::SetBrushRadius(radius));
    assert_eq!(app.brush_radius, radius);
}

#[test]
fn undo_keeps_within_its_memory_budget_however_many_strokes_paint_a_big_field() {
    // A 512 × 512 field (3 MB of vectors): each stroke's undo step keeps the field as it was,
    // so 60 strokes would hold 60 copies; the budget drops the oldest steps instead.
    let text = r#"{
  "version": 2,
  "name": "big field",
  "fields": [ { "id": "big", "origin": [-2560, -2560], "cell_size": 10, "columns": 512, "rows": 512 } ],
  "agents": [
    { "name": "leaf", "position": [0, 0], "behaviours": [{ "type": "flow_field", "field": "big" }] }
  ]
}"#;
    let mut app = app_on(text);
    let field_bytes = 512 * 512 * std::mem::size_of::<Vec3>();
    let budget = 10 * field_bytes;
    app.set_undo_bytes_limit(budget);
    // Edits that leave the field alone share it: every one of them is kept.
    for i in 0..30 {
        app.apply(Command::AddObstacle {
            position: Vec3::new(1000.0 + i as f32 * 30.0, 1000.0, 0.0),
            radius: 5.0,
        });
    }
    assert_eq!(app.undo_depth(), 30, "{} bytes", app.undo_bytes());
    let row_painted = |app: &App, y: f32| {
        let field = &app.world.fields[0].field;
        let (col, row) = field.cell_of(Vec3::new(0.0, y, 0.0)).unwrap();
        field.cell(col, row) != Vec3::ZERO
    };
    for stroke in 0..60u32 {
        let y = stroke as f32 * 40.0 - 1200.0;
        app.apply(Command::Paint { from: Vec3::new(-100.0, y, 0.0), to: Vec3::new(100.0, y, 0.0), stroke });
        assert!(row_painted(&app, y));
        assert!(app.undo_bytes() <= budget, "stroke {stroke}: {} bytes held", app.undo_bytes());
    }
    let depth = app.undo_depth();
    assert!((5..=12).contains(&depth), "{depth} undo steps kept");
    // The newest strokes are still undone one at a time.
    app.apply(Command::Undo);
    assert!(!row_painted(&app, 59.0 * 40.0 - 1200.0) && row_painted(&app, 58.0 * 40.0 - 1200.0));
    app.apply(Command::Undo);
    assert!(!row_painted(&app, 58.0 * 40.0 - 1200.0) && row_painted(&app, 57.0 * 40.0 - 1200.0));
}

#[test]
fn the_paint_toolbar_deletes_the_field_the_brush_paints_in_one_undo_step() {
    use super::ui_support::{all_panels, click_widget, frames, settled};
    // Two fields: "swirl" read by the leaf's main entry, "calm" by a second agent; the leaf also
    // reads "calm" in a later entry, which must follow "calm" to its new index.
    let text = r#"{
  "version": 2,
  "name": "two fields",
  "fields": [
    { "id": "swirl", "origin": [-100, -75], "cell_size": 50, "columns": 4, "rows": 3 },
    { "id": "calm", "origin": [-100, -75], "cell_size": 50, "columns": 4, "rows": 3 }
  ],
  "agents": [
    { "name": "leaf", "position": [0, 0],
      "behaviours": [{ "type": "flow_field", "field": "swirl" }, { "type": "flow_field", "field": "calm", "weight": 0.5 }] },
    { "name": "twig", "position": [20, 0], "behaviours": [{ "type": "flow_field", "field": "calm" }] }
  ]
}"#;
    let mut app = app_on(text);
    app.apply(Command::SetTool(Tool::Paint));
    app.apply(Command::Select(Some(steerlab::app::Selection::Agent(0))));
    let mut state = all_panels();
    let ctx = settled(&app, &mut state);
    let _ = frames(&ctx, &app, &mut state, 2);
    // The button deletes the field the brush would paint: the selected leaf's, "swirl".
    let out = click_widget(&ctx, &app, &mut state, "delete_field");
    assert_eq!(out.commands, vec![Command::DeleteField(0)]);
    app.apply(Command::DeleteField(0));
    assert_eq!(app.world.fields.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["calm"]);
    let reads = |app: &App, agent: usize| -> Vec<Option<usize>> {
        let a = &app.world.agents[agent];
        std::iter::once(&a.behaviour)
            .chain(a.mix.more.iter().map(|e| &e.behaviour))
            .filter_map(|b| match b {
                Behaviour::FlowField { field, .. } => Some(*field),
                _ => None,
            })
            .collect()
    };
    assert_eq!(reads(&app, 0), [None, Some(0)]);
    assert_eq!(reads(&app, 1), [Some(0)]);
    // Saved and loaded, the leaf's first entry is a noise field and both others read "calm".
    let saved = parse_scene(&scene_to_json(&app.world).unwrap(), "saved.json").unwrap();
    assert_eq!(saved.fields, app.world.fields);
    // The leaf still moves, and never gets a NaN.
    app.world.run_steps(120);
    assert!(app.world.agents.iter().all(|a| a.kinematics.position.is_finite()));
    // One undo brings the field and every reference back.
    app.apply(Command::Undo);
    assert_eq!(app.world.fields.len(), 2);
    assert_eq!(reads(&app, 0), [Some(0), Some(1)]);
    assert_eq!(reads(&app, 1), [Some(1)]);
    // Out of range: nothing happens, no undo step.
    let depth = app.undo_depth();
    app.apply(Command::DeleteField(7));
    assert_eq!((app.world.fields.len(), app.undo_depth()), (2, depth));
}
