//! Random editing sessions on every shipped scene, checked by oracles of this test's own.
//!
//! A session is a seeded sequence of what a person (or a stale panel) can send the editor:
//! clicks and drags of every tool at random spots with random modifiers, wheel turns, hotkeys
//! with and without Ctrl under every keyboard focus, and the panels' commands with indices that
//! are sometimes stale (past the end of what they name), interleaved with simulated frames.
//! After every action:
//! - nothing panics, and every agent's position and velocity is finite;
//! - the selection and the group name things that exist;
//! - the scene saves, and the saved text loads back to a scene that saves to the same text (the
//!   editor never makes a scene its own loader refuses).
//!
//! At the end of a session, undoing everything gives the scene as loaded, and redoing
//! everything gives the scene as it was before the undoing (every edit takes its undo step, and
//! an undo step holds the whole edit).

use crate::scenes::scene_files;
use glam::{Vec2, Vec3};
use std::path::Path;
use steerlab::app::edit::selection_exists;
use steerlab::app::{
    tools, App, BehaviourKind, Command, Focus, InputFrame, Key, MouseButton, Selection, Tool,
};
use steerlab::planner::SplitMix64;
use steerlab::scene::{load_scene, parse_scene, scene_to_json};

/// A scene of more agents than this is saved and loaded after every tenth action only.
const BIG_CROWD: usize = 200;

const SCREEN: Vec2 = Vec2::new(1280.0, 800.0);

/// The crate's splitmix64, so the sessions repeat from their seeds, with the choices a session
/// makes.
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.0.next_u64() % 100 < percent
    }
    fn unit(&mut self) -> f32 {
        self.0.next_f32()
    }
    /// An index into `len` things, now and then one past the end (a stale panel's).
    fn index(&mut self, len: usize) -> usize {
        if self.chance(10) {
            len + self.below(3)
        } else {
            self.below(len)
        }
    }
    /// A spot on the screen: mostly in the world view, now and then at an edge.
    fn spot(&mut self) -> Vec2 {
        if self.chance(5) {
            Vec2::new([0.0, SCREEN.x - 1.0][self.below(2)], self.unit() * SCREEN.y)
        } else {
            Vec2::new(self.unit() * SCREEN.x, self.unit() * SCREEN.y)
        }
    }
    /// A number a panel might send: mostly ordinary, now and then absurd.
    fn amount(&mut self, ordinary: f32) -> f32 {
        match self.below(20) {
            0 => 0.0,
            1 => -ordinary,
            2 => 1e30,
            3 => f32::MIN_POSITIVE,
            _ => ordinary * (0.1 + 2.0 * self.unit()),
        }
    }
}

const KEYS: [Key; 23] = [
    Key::Space,
    Key::Right,
    Key::Period,
    Key::Left,
    Key::Comma,
    Key::Home,
    Key::End,
    Key::Delete,
    Key::Backspace,
    Key::Escape,
    Key::Enter,
    Key::Tab,
    Key::LeftBracket,
    Key::RightBracket,
    Key::Letter('F'),
    Key::Letter('Z'),
    Key::Letter('Y'),
    Key::Letter('C'),
    Key::Letter('V'),
    Key::Letter('D'),
    Key::Letter('A'),
    Key::Letter('M'),
    Key::Digit(3),
];

const FOCUSES: [Focus; 4] = [Focus::World, Focus::TextField, Focus::Popup, Focus::Modal];

fn input(mouse: Vec2) -> InputFrame {
    InputFrame { mouse, screen: SCREEN, ..InputFrame::default() }
}

/// The session's state the oracles need between actions.
struct Session {
    app: App,
    rng: Rng,
    log: Vec<String>,
    /// The deepest the undo stack went (undoing everything reaches the start only if no step was
    /// dropped for the limit).
    deepest_undo: usize,
    /// The scene as loaded, or as File ▸ New made it (which no undo goes back past).
    start: String,
    /// The scene file's name and the seed, for the failure's report.
    name: String,
    seed: u64,
}

impl Session {
    /// A session on the scene in `file`, from `seed`.
    fn open(file: &Path, seed: u64) -> Result<Session, String> {
        let world = load_scene(file).map_err(|e| e.to_string())?;
        let app = App::new(world, None);
        let start = json(&app);
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(Session {
            app,
            rng: Rng(SplitMix64::new(seed)),
            log: Vec::new(),
            deepest_undo: 0,
            start,
            name,
            seed,
        })
    }

    /// The report of a failure: the scene, the seed, and the last actions.
    fn failure(&self, what: String) -> String {
        let last: Vec<&String> = self.log.iter().rev().take(12).collect();
        format!(
            "{}, seed {}, after {} actions: {what}\nlast actions, newest first: {last:#?}",
            self.name,
            self.seed,
            self.log.len()
        )
    }

    /// Runs `actions` actions made by `act`, checking after each (nothing panics, [`Session::check`]),
    /// then undoes and redoes everything.
    fn run(mut self, actions: usize, mut act: impl FnMut(&mut Session)) -> Result<(), String> {
        for action in 0..actions {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| act(&mut self)));
            if outcome.is_err() {
                return Err(self.failure("panicked".into()));
            }
            self.check(action % 10 == 9).map_err(|what| self.failure(what))?;
        }
        self.undo_and_redo_everything()
    }

    /// Undoes everything, which must give the scene as it started (unless steps were dropped for
    /// the limit), then redoes as many steps, which must give the scene back (a redo stack the
    /// session left is redone past the end, so the count matters).
    fn undo_and_redo_everything(&mut self) -> Result<(), String> {
        let end = json(&self.app);
        let mut undone = 0;
        while self.app.can_undo() {
            self.app.undo();
            undone += 1;
        }
        if self.deepest_undo < steerlab::app::UNDO_LIMIT && json(&self.app) != self.start {
            let at = first_difference(&self.start, &json(&self.app));
            return Err(self.failure(format!("{undone} undos do not give the scene as loaded ({at})")));
        }
        for _ in 0..undone {
            self.app.redo();
        }
        if json(&self.app) != end {
            let at = first_difference(&end, &json(&self.app));
            return Err(
                self.failure(format!("{undone} undos and as many redos do not give the scene back ({at})"))
            );
        }
        self.check(true).map_err(|what| self.failure(format!("after undo and redo: {what}")))
    }

    fn frame(&mut self, frame: InputFrame) {
        // File commands and help go to the UI in the window; here they are dropped.
        let _ = tools::handle_input(&mut self.app, &frame);
    }

    fn press_drag_release(
        &mut self,
        from: Vec2,
        to: Vec2,
        modifiers: (bool, bool, bool),
        button: MouseButton,
    ) {
        let (ctrl, shift, alt) = modifiers;
        let held = |mouse| InputFrame { down: vec![button], ctrl, shift, alt, ..input(mouse) };
        self.frame(InputFrame { pressed: vec![button], ..held(from) });
        let moves = self.rng.below(4);
        for k in 1..=moves {
            let t = k as f32 / (moves + 1) as f32;
            self.frame(held(from.lerp(to, t)));
        }
        self.frame(held(to));
        self.frame(InputFrame { released: vec![button], ctrl, shift, alt, ..input(to) });
    }

    fn random_command(&mut self) -> Command {
        let world = &self.app.world;
        let (agents, paths, obstacles, targets, curves, fields) = (
            world.agents.len(),
            world.paths.len(),
            world.obstacles.len(),
            world.targets.len(),
            world.curves.len(),
            world.fields.len(),
        );
        let rng = &mut self.rng;
        let point = Vec3::new(rng.unit() * 1200.0 - 600.0, rng.unit() * 800.0 - 400.0, 0.0);
        match rng.below(27) {
            0 | 1 => Command::Undo,
            2 => Command::Redo,
            3 => Command::DeleteSelection,
            4 => Command::Copy,
            5 => Command::Paste { at: rng.chance(50).then_some(point) },
            6 => Command::Duplicate,
            7 => Command::MoveSelection { delta: Vec3::new(rng.amount(40.0), rng.amount(-30.0), 0.0) },
            8 => Command::AddAgent {
                position: point,
                kind: BehaviourKind::ALL[rng.below(BehaviourKind::ALL.len())],
            },
            9 => Command::AddObstacle { position: point, radius: rng.amount(20.0) },
            10 => Command::AddTarget { position: point },
            11 => Command::Compare { agent: rng.index(agents) },
            12 => Command::Push { agent: rng.index(agents), impulse: Vec3::new(rng.amount(80.0), 0.0, 0.0) },
            13 => Command::AddWaypoint { agent: rng.index(agents), position: point },
            14 => match rng.below(3) {
                0 => Command::OpenPlannerDebug { agent: rng.index(agents) },
                1 => Command::PlannerDebugGoto(rng.below(40)),
                _ => Command::ClosePlannerDebug,
            },
            15 => Command::ToggleView,
            16 => {
                [Command::Step, Command::Reset, Command::StepBack, Command::TogglePlay][rng.below(4)].clone()
            }
            17 => Command::Seek(rng.below(400) as u64),
            18 => Command::SetPathClosed { path: rng.index(paths), closed: rng.chance(50) },
            19 => Command::SetPathRadius { path: rng.index(paths), radius: rng.amount(24.0) },
            20 => Command::InsertPathPoint { path: rng.index(paths), segment: rng.below(12), point },
            21 => Command::AppendPathPoint {
                path: rng.chance(70).then(|| rng.index(paths)),
                points: (0..rng.below(3)).map(|k| point + Vec3::new(30.0 * k as f32, 10.0, 0.0)).collect(),
            },
            22 => Command::SetObstacle {
                obstacle: rng.index(obstacles),
                position: point,
                radius: rng.amount(15.0),
                velocity: Vec3::new(rng.amount(10.0), 0.0, 0.0),
            },
            23 => Command::SetTarget { target: rng.index(targets), position: point, velocity: Vec3::ZERO },
            24 => match rng.below(3) {
                0 => Command::DeleteField(rng.index(fields)),
                1 => Command::Paint {
                    from: point,
                    to: point + Vec3::new(rng.amount(60.0), 20.0, 0.0),
                    stroke: rng.below(3) as u32,
                },
                _ => Command::SetBrushRadius(rng.amount(60.0)),
            },
            25 => Command::AddCopies {
                agent: rng.index(agents),
                // Mostly a few; now and then none or more than a scene holds (both refused).
                copies: [1, 2, 7, 40, 0, steerlab::scene::MAX_AGENTS + 1][rng.below(6)],
                spacing: rng.amount(20.0),
                spread_headings: rng.chance(50),
            },
            _ => match rng.below(5) {
                0 => Command::SetGridSize(rng.amount(25.0)),
                1 => Command::ToggleSnap,
                2 => Command::CycleAgent { forward: rng.chance(50) },
                3 => Command::SetAgentVisible { agent: rng.index(agents), visible: rng.chance(50) },
                _ => Command::SetCurve {
                    curve: rng.index(curves),
                    kind: steerlab::geometry::CurveKind::Circle { center: point, radius: rng.amount(100.0) },
                },
            },
        }
    }

    /// One random action; its description goes to the log.
    fn act(&mut self) {
        let modifiers = (self.rng.chance(15), self.rng.chance(15), self.rng.chance(10));
        match self.rng.below(12) {
            0 => {
                let tool = Tool::ALL[self.rng.below(Tool::ALL.len())];
                self.log.push(format!("tool {tool:?}"));
                self.app.apply(Command::SetTool(tool));
            }
            1 => {
                let kind = BehaviourKind::ALL[self.rng.below(BehaviourKind::ALL.len())];
                self.log.push(format!("new agent kind {kind:?}"));
                self.app.apply(Command::SetNewAgentKind(kind));
            }
            2..=4 => {
                let at = self.rng.spot();
                self.log.push(format!("click {at} {modifiers:?} with {:?}", self.app.tool));
                self.press_drag_release(at, at, modifiers, MouseButton::Left);
            }
            5 | 6 => {
                let (from, to) = (self.rng.spot(), self.rng.spot());
                let button = [MouseButton::Left, MouseButton::Left, MouseButton::Right, MouseButton::Middle]
                    [self.rng.below(4)];
                self.log
                    .push(format!("drag {from} → {to} {modifiers:?} {button:?} with {:?}", self.app.tool));
                self.press_drag_release(from, to, modifiers, button);
            }
            7 => {
                let key = KEYS[self.rng.below(KEYS.len())];
                let focus = if self.rng.chance(70) { Focus::World } else { FOCUSES[self.rng.below(4)] };
                let at = self.rng.spot();
                self.log.push(format!(
                    "key {key:?} ctrl {} shift {} {focus:?} at {at}",
                    modifiers.0, modifiers.1
                ));
                self.frame(InputFrame {
                    keys: vec![key],
                    ctrl: modifiers.0,
                    shift: modifiers.1,
                    focus,
                    ..input(at)
                });
            }
            8 => {
                let at = self.rng.spot();
                let wheel = [-3.0, -1.0, 1.0, 4.0][self.rng.below(4)];
                self.log.push(format!("wheel {wheel} at {at}"));
                self.frame(InputFrame { wheel, ..input(at) });
            }
            9 => {
                let frames = 1 + self.rng.below(20);
                self.log.push(format!("{frames} frames"));
                for _ in 0..frames {
                    self.app.advance(1.0 / 60.0);
                }
            }
            _ => {
                let command = self.random_command();
                self.log.push(format!("{command:?}"));
                self.app.apply(command);
            }
        }
        self.deepest_undo = self.deepest_undo.max(self.app.undo_depth());
    }

    /// What must hold after every action (`full`: the save and load too, which a big crowd's
    /// session checks only after every tenth action, to keep the test short).
    fn check(&self, full: bool) -> Result<(), String> {
        let world = &self.app.world;
        for (i, agent) in world.agents.iter().enumerate() {
            let k = &agent.kinematics;
            if !(k.position.is_finite() && k.velocity.is_finite()) {
                return Err(format!("agent {i} is at {} moving {}", k.position, k.velocity));
            }
        }
        let selected = self.app.selection.iter().chain(&self.app.group);
        if let Some(gone) = selected.into_iter().find(|s| !selection_exists(world, **s)) {
            return Err(format!("{gone:?} is selected but does not exist"));
        }
        if !full && world.agents.len() > BIG_CROWD {
            return Ok(());
        }
        let saved = scene_to_json(world).map_err(|e| format!("the scene does not save: {e}"))?;
        let loaded =
            parse_scene(&saved, "saved").map_err(|e| format!("the saved scene does not load: {e}"))?;
        let again = scene_to_json(&loaded).map_err(|e| format!("the loaded scene does not save: {e}"))?;
        if again != saved {
            return Err(format!(
                "the scene saved, loaded and saved again differs: {}",
                first_difference(&saved, &again)
            ));
        }
        Ok(())
    }
}

/// The first line where two saved scenes differ, with both versions.
fn first_difference(a: &str, b: &str) -> String {
    let (line, (a, b)) = a
        .lines()
        .chain(["<end>"])
        .zip(b.lines().chain(["<end>"]))
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .unwrap_or((0, ("", "")));
    format!("line {}: {} / {}", line + 1, a.trim(), b.trim())
}

fn json(app: &App) -> String {
    scene_to_json(&app.world).unwrap_or_else(|e| format!("unsaveable: {e}"))
}

/// One session of `actions` on `scene`; on failure, the seed, the action and the last actions.
fn session(scene: &Path, seed: u64, actions: usize) -> Result<(), String> {
    let mut session = Session::open(scene, seed)?;
    session.app.camera.set_screen(SCREEN, (Vec2::new(340.0, 45.0), Vec2::new(1280.0, 600.0)));
    session.app.fit_view();
    session.app.running = seed.is_multiple_of(2);
    session.run(actions, Session::act)
}

/// Runs `rounds` sessions (`STEERLAB_MONKEY_ROUNDS=100` runs more: a longer local hunt;
/// `STEERLAB_MONKEY_FIRST=1000` starts at another round, so a hunt tries seeds not tried before)
/// of 150 actions on every shipped scene, seeded from `base`; fails with every failed session's
/// report.
fn on_every_scene(rounds: u64, base: u64, session: fn(&Path, u64, usize) -> Result<(), String>) {
    let number = |name: &str| std::env::var(name).ok().and_then(|r| r.parse::<u64>().ok());
    let rounds = number("STEERLAB_MONKEY_ROUNDS").unwrap_or(rounds);
    let first = number("STEERLAB_MONKEY_FIRST").unwrap_or(0);
    let mut failures = Vec::new();
    for (k, scene) in scene_files().iter().enumerate() {
        for round in first..first.saturating_add(rounds) {
            if let Err(what) = session(scene, base + ((k as u64) << 20) + round, 150) {
                failures.push(what);
            }
        }
    }
    assert!(failures.is_empty(), "{} sessions failed:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn random_editing_sessions_on_every_shipped_scene_keep_the_scene_sound_and_undo_whole() {
    on_every_scene(4, 0x5EED_0000, session);
}

/// The beginnings of the names of the widgets that edit the scene.
const EDITING: [&str; 13] = [
    "param:",
    "copies:",
    "limit:",
    "pick:",
    "mix",
    "behaviour",
    "agent_",
    "obstacle",
    "target",
    "path",
    "curve",
    "waypoint",
    "field",
];

/// What a person types into a field: numbers, absurd numbers and words.
const TYPED: [&str; 12] =
    ["0", "-5", "12.5", "1e30", "-1e30", "1e-40", "nan", "inf", "", "abc", "999999999", "3"];

/// One session of `actions` on the panels of `scene` (headless egui, every panel open): clicks on
/// random widgets of the last frame, random text typed into them, Enter, Esc and Tab, random
/// selections so the inspector shows every kind of item, and simulated frames; what the panels
/// ask for is applied as the shell applies it. The same oracles as the editor's sessions.
fn panel_session(scene: &Path, seed: u64, actions: usize) -> Result<(), String> {
    use crate::ui_support;
    let mut session = Session::open(scene, seed)?;
    session.app.running = false;
    let mut state = ui_support::all_panels();
    let ctx = ui_support::settled(&session.app, &mut state);
    session.run(actions, |session| {
        let rng = &mut session.rng;
        let app = &session.app;
        let on_screen: Vec<(String, egui::Rect)> = state
            .widget_rects
            .iter()
            .filter(|(_, r)| r.min.x >= 0.0 && r.min.y >= 0.0 && r.max.x <= SCREEN.x && r.max.y <= SCREEN.y)
            .map(|(n, r)| (n.clone(), *r))
            .collect();
        // Mostly the widgets that edit (the inspector's), else any.
        let editing: Vec<(String, egui::Rect)> =
            on_screen.iter().filter(|(n, _)| EDITING.iter().any(|p| n.starts_with(p))).cloned().collect();
        let on_screen = if !editing.is_empty() && rng.chance(70) { editing } else { on_screen };
        let (what, output) = match rng.below(8) {
            0..=3 if !on_screen.is_empty() => {
                let (widget, rect) = &on_screen[rng.below(on_screen.len())];
                (format!("click {widget}"), ui_support::click_at(&ctx, app, &mut state, rect.center()))
            }
            4 if !on_screen.is_empty() => {
                let (widget, rect) = &on_screen[rng.below(on_screen.len())];
                let text = TYPED[rng.below(TYPED.len())];
                (
                    format!("type {text:?} into {widget}"),
                    ui_support::type_into(&ctx, app, &mut state, rect.center(), text),
                )
            }
            5 => {
                let key = [egui::Key::Escape, egui::Key::Enter, egui::Key::Tab][rng.below(3)];
                let event = egui::Event::Key {
                    key,
                    physical_key: None,
                    pressed: true,
                    repeat: false,
                    modifiers: egui::Modifiers::NONE,
                };
                (format!("key {key:?}"), ui_support::frame(&ctx, app, &mut state, vec![event]))
            }
            6 => {
                let world = &app.world;
                let pick = match rng.below(5) {
                    0 => Selection::Agent(rng.below(world.agents.len())),
                    1 => Selection::Path(rng.below(world.paths.len())),
                    2 => Selection::Obstacle(rng.below(world.obstacles.len())),
                    3 => Selection::Target(rng.below(world.targets.len())),
                    _ => Selection::Curve(rng.below(world.curves.len())),
                };
                let mut out = steerlab::ui::UiOutput::default();
                out.commands.push(Command::Select(Some(pick)));
                (format!("select {pick:?}"), out)
            }
            _ => {
                let frames = 1 + rng.below(10);
                (format!("{frames} frames"), ui_support::frames(&ctx, app, &mut state, frames))
            }
        };
        session.log.push(what);
        for command in output.commands {
            if command.is_shell() {
                session.log.push(format!("  (shell: {command:?})"));
            } else {
                session.log.push(format!("  {command:?}"));
                let new = command == Command::NewScene;
                session.app.apply(command);
                if new {
                    session.start = json(&session.app);
                    session.deepest_undo = 0;
                }
            }
        }
        if session.rng.chance(30) {
            session.app.advance(1.0 / 60.0);
        }
        session.deepest_undo = session.deepest_undo.max(session.app.undo_depth());
    })
}

#[test]
fn random_panel_sessions_on_every_shipped_scene_keep_the_scene_sound_and_undo_whole() {
    on_every_scene(1, 0xBA7E_0000, panel_session);
}
