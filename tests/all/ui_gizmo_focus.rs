//! Gizmos in a crowd, headless: above `MAX_GIZMO_AGENTS` agents the window draws only the
//! selected agent's gizmos, and the world records only those (so the other agents take the
//! simulation's fast paths); picking another agent of a paused crowd shows its gizmos at once,
//! exactly as its next step records them; none of this changes where anyone goes.

use std::path::Path;

use glam::{Vec2, Vec3};
use steerlab::app::{App, Command, Selection, MAX_GIZMO_AGENTS};
use steerlab::sim::{GizmoFocus, World};

const SCREEN: Vec2 = Vec2::new(1280.0, 800.0);

fn flock() -> World {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/flock.json");
    steerlab::scene::load_scene(&path).expect("flock.json loads")
}

fn app_with(world: World) -> App {
    let mut app = App::new(world, None);
    app.camera.set_screen(SCREEN, (Vec2::ZERO, SCREEN));
    app.camera.center = Vec3::ZERO;
    app.running = false;
    app
}

fn recording(app: &App) -> Vec<usize> {
    let agents = app.world.agents.iter().enumerate();
    agents.filter(|(_, a)| a.gizmos.is_enabled()).map(|(i, _)| i).collect()
}

fn with_gizmos(app: &App) -> Vec<usize> {
    let agents = app.world.agents.iter().enumerate();
    agents.filter(|(_, a)| !a.gizmos.items().is_empty()).map(|(i, _)| i).collect()
}

#[test]
fn a_crowd_records_only_the_selected_agents_gizmos_and_moves_as_when_all_record() {
    let mut app = app_with(flock());
    assert!(app.world.agents.len() > MAX_GIZMO_AGENTS);
    app.selection = Some(Selection::Agent(5));
    app.running = true;
    while app.world.steps < 30 {
        app.advance(1.0 / 60.0);
    }
    assert_eq!(recording(&app), vec![5]);
    assert_eq!(with_gizmos(&app), vec![5]);
    // The same 30 steps with every agent recording: the same flock, bit for bit.
    let mut all = flock();
    all.set_gizmos_enabled(true);
    all.run_steps(30);
    assert!(all.agents.iter().all(|a| !a.gizmos.items().is_empty()));
    let same = app.world.agents.iter().zip(&all.agents).all(|(a, b)| a.kinematics == b.kinematics);
    assert!(same, "recording only the selected agent's gizmos changed the flock");
    assert_eq!(format!("{:?}", app.world.metrics()), format!("{:?}", all.metrics()));
    // Nothing selected: nobody records.
    app.selection = None;
    let steps = app.world.steps;
    while app.world.steps == steps {
        app.advance(1.0 / 60.0);
    }
    assert!(recording(&app).is_empty() && with_gizmos(&app).is_empty());
}

#[test]
fn picking_an_agent_of_a_paused_crowd_shows_the_gizmos_its_next_step_records() {
    let mut app = app_with(flock());
    app.selection = Some(Selection::Agent(3));
    app.running = true;
    while app.world.steps < 20 {
        app.advance(1.0 / 60.0);
    }
    app.running = false;
    let before = app.world.clone();
    // Another agent, while paused: its gizmos are there before any step runs...
    app.selection = Some(Selection::Agent(700));
    app.sync_gizmo_focus();
    assert_eq!(app.world.gizmo_focus(), GizmoFocus::Only(Some(700)));
    let preview = app.world.agents[700].gizmos.items().to_vec();
    assert!(!preview.is_empty(), "no gizmos for the agent just picked");
    // ... nothing moved for it ...
    assert_eq!(app.world.steps, before.steps);
    let same = app.world.agents.iter().zip(&before.agents).all(|(a, b)| a.kinematics == b.kinematics);
    assert!(same);
    assert_eq!(format!("{:?}", app.world.targets), format!("{:?}", before.targets));
    assert_eq!(format!("{:?}", app.world.metrics()), format!("{:?}", before.metrics()));
    // ... and they are exactly what its next step records.
    app.apply(Command::Step);
    assert_eq!(app.world.steps, before.steps + 1);
    assert_eq!(format!("{:?}", app.world.agents[700].gizmos.items()), format!("{preview:?}"));
}

#[test]
fn a_small_scene_records_every_agents_gizmos_and_a_shifted_selection_still_records() {
    let mut small = flock();
    small.agents.truncate(MAX_GIZMO_AGENTS);
    let mut app = app_with(small);
    app.selection = Some(Selection::Agent(2));
    app.apply(Command::Step);
    assert_eq!(recording(&app), (0..MAX_GIZMO_AGENTS).collect::<Vec<_>>());
    assert_eq!(with_gizmos(&app).len(), MAX_GIZMO_AGENTS);

    // A crowd in which the agents before the selected one are removed: the agent now at the
    // selected index records from the next step on.
    let mut app = app_with(flock());
    app.selection = Some(Selection::Agent(10));
    app.apply(Command::Step);
    assert_eq!(recording(&app), vec![10]);
    app.world.agents.remove(0);
    app.apply(Command::Step);
    assert!(app.world.agents[10].gizmos.is_enabled());
    assert!(!app.world.agents[10].gizmos.items().is_empty());
}
