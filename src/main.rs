//! The `steerlab` binary: the command line (clap) and the window shell.
//!
//! - `steerlab [SCENE.json]` opens the window on a scene (the embedded `scenes/compare.json`
//!   when none is given).
//! - `steerlab run SCENE.json [--seconds S] [--json] [--trace FILE.csv]` runs headless in fixed
//!   steps and prints per-agent metrics.
//! - `steerlab shot SCENE.json --out FILE.png [--seconds S] [--size WxH] [--view top|3d]
//!   [--step-through K]` renders a picture in the top view or the 3D orbit view, optionally with
//!   the first planner ship's step-through open at iteration K.
//! - `steerlab bench` prints nanoseconds per agent-step and planner timings.
//!
//! Bad input exits with status 2 and one line: `error: FILE: JSON.PATH (line L, column C): reason`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use steerlab::scene::{load_scene, SceneError};
use steerlab::sim::{MetricsSummary, World};

mod shell;

/// A sandbox for steering behaviours, path following and 3D waypoint planning.
#[derive(Parser, Debug)]
#[command(name = "steerlab", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    /// Scene to open in the window (default: the built-in compare scene).
    scene: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a scene headless in fixed steps and print per-agent metrics.
    Run {
        /// The scene file.
        scene: PathBuf,
        /// Simulated seconds to run.
        #[arg(long, default_value_t = 60.0)]
        seconds: f64,
        /// Print the metrics as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Write one CSV row per agent per step: t,agent,x,y,z,vx,vy,vz,orientation.
        #[arg(long, value_name = "FILE.csv")]
        trace: Option<PathBuf>,
    },
    /// Render the scene after S simulated seconds to a PNG (needs a display; Xvfb works).
    Shot {
        /// The scene file.
        scene: PathBuf,
        /// Where to write the PNG.
        #[arg(long)]
        out: PathBuf,
        /// Simulated seconds before the picture.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1280x800")]
        size: String,
        /// Which view to draw: `top` (the 2D top view) or `3d` (the orbit view); default top.
        #[arg(long, value_enum, default_value_t = ShotView::Top)]
        view: ShotView,
        /// Show the planner step-through of the first planner ship at this iteration (1-based),
        /// recorded from where the ship is after S seconds.
        #[arg(long, value_name = "K")]
        step_through: Option<usize>,
    },
    /// Measure frame times in the window with N agents on the compare track (needs a display).
    Frames {
        /// How many agents (cycling through the four path-following behaviours).
        #[arg(long, default_value_t = 1000)]
        agents: usize,
        /// Frames to measure (after 30 warm-up frames).
        #[arg(long, default_value_t = 300)]
        frames: u32,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1280x800")]
        size: String,
    },
    /// Print nanoseconds per agent-step for each behaviour and planner timings.
    Bench {
        /// Fewer steps and smaller sizes (a smoke run).
        #[arg(long)]
        quick: bool,
        /// Only the flocking kernel (1k, 10k and 100k boids), to run beside Yuka's flock.mjs.
        #[arg(long)]
        flock: bool,
    },
}

/// The view a `shot` picture shows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ShotView {
    /// The 2D top view.
    Top,
    /// The 3D orbit view.
    #[value(name = "3d")]
    Orbit,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Run { scene, seconds, json, trace }) => run(&scene, seconds, json, trace.as_deref()),
        Some(Command::Shot { scene, out, seconds, size, view, step_through }) => {
            shot(&scene, &out, seconds, &size, view, step_through)
        }
        Some(Command::Frames { agents, frames, size }) => frames_command(agents, frames, &size),
        Some(Command::Bench { quick, flock: true }) => {
            steerlab::bench::print_flocking(quick);
            ExitCode::SUCCESS
        }
        Some(Command::Bench { quick, flock: false }) => {
            steerlab::bench::print_report(quick);
            ExitCode::SUCCESS
        }
        None => window(cli.scene.as_deref()),
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn load(path: &Path) -> Result<World, SceneError> {
    load_scene(path)
}

fn run(scene: &Path, seconds: f64, json: bool, trace: Option<&Path>) -> ExitCode {
    let mut world = match load(scene) {
        Ok(world) => world,
        Err(err) => return fail(err),
    };
    if !(seconds.is_finite() && (0.0..=1e6).contains(&seconds)) {
        return fail(format!("--seconds must be between 0 and 1000000, got {seconds}"));
    }
    let steps = (seconds / world.dt as f64).round() as u64;
    let mut trace_out = match trace {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => {
                let mut out = std::io::BufWriter::new(file);
                if writeln!(out, "t,agent,x,y,z,vx,vy,vz,orientation").is_err() {
                    return fail(format!("{}: cannot write", path.display()));
                }
                Some((path, out))
            }
            Err(err) => return fail(format!("{}: {err}", path.display())),
        },
        None => None,
    };
    if let Some((path, out)) = trace_out.as_mut() {
        if write_trace_rows(out, &world).is_err() {
            return fail(format!("{}: cannot write", path.display()));
        }
    }
    for _ in 0..steps {
        world.step();
        if let Some((path, out)) = trace_out.as_mut() {
            if write_trace_rows(out, &world).is_err() {
                return fail(format!("{}: cannot write", path.display()));
            }
        }
    }
    if let Some((path, mut out)) = trace_out {
        if out.flush().is_err() {
            return fail(format!("{}: cannot write", path.display()));
        }
    }
    let mut metrics = world.metrics();
    steerlab::bench::fill_plan_times(&world, &mut metrics);
    if json {
        match serde_json::to_string_pretty(&metrics) {
            Ok(text) => println!("{text}"),
            Err(err) => return fail(err),
        }
    } else {
        print!("{}", metrics_table(&world, &metrics));
    }
    ExitCode::SUCCESS
}

fn write_trace_rows(out: &mut impl Write, world: &World) -> std::io::Result<()> {
    let t = world.time();
    for agent in &world.agents {
        let k = &agent.kinematics;
        writeln!(
            out,
            "{t:.6},{},{},{},{},{},{},{},{}",
            csv_field(&agent.name),
            k.position.x,
            k.position.y,
            k.position.z,
            k.velocity.x,
            k.velocity.y,
            k.velocity.z,
            k.orientation
        )?;
    }
    Ok(())
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The metrics as an aligned text table, one row per agent.
fn metrics_table(world: &World, metrics: &[MetricsSummary]) -> String {
    let fmt_opt = |v: Option<f32>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
    let mut header = vec![
        "agent",
        "behaviour",
        "final x",
        "final y",
        "final z",
        "distance",
        "mean v",
        "max v",
        "collisions",
        "min clear",
        "arrived",
    ];
    let any_path = metrics.iter().any(|m| m.path.is_some());
    let any_param = metrics.iter().any(|m| m.parametric.is_some());
    let any_planner = metrics.iter().any(|m| m.planner.is_some());
    if any_path {
        header.extend(["xtrack mean", "xtrack max", "t outside", "progress", "backtracks", "skips"]);
    }
    if any_param {
        header.extend(["v err mean %", "v err max %"]);
    }
    if any_planner {
        header.extend(["plan us", "iters", "replans", "reached", "planned len", "straight len"]);
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    for m in metrics {
        let mut row = vec![
            m.name.clone(),
            m.behaviour.clone(),
            format!("{:.1}", m.final_position.x),
            format!("{:.1}", m.final_position.y),
            format!("{:.1}", m.final_position.z),
            format!("{:.1}", m.distance_travelled),
            format!("{:.1}", m.mean_speed),
            format!("{:.1}", m.max_speed),
            m.collisions.to_string(),
            fmt_opt(m.min_clearance),
            m.arrived_at.map_or("-".to_string(), |t| format!("{t:.2}s")),
        ];
        if any_path {
            match &m.path {
                Some(p) => row.extend([
                    format!("{:.2}", p.mean_cross_track),
                    format!("{:.2}", p.max_cross_track),
                    format!("{:.2}s", p.time_outside_radius),
                    format!("{:.1}", p.progress),
                    p.backtracks.to_string(),
                    p.skips.to_string(),
                ]),
                None => row.extend(std::iter::repeat_n("-".to_string(), 6)),
            }
        }
        if any_param {
            match &m.parametric {
                Some(p) => row.extend([
                    format!("{:.3}", p.speed_error_mean * 100.0),
                    format!("{:.3}", p.speed_error_max * 100.0),
                ]),
                None => row.extend(std::iter::repeat_n("-".to_string(), 2)),
            }
        }
        if any_planner {
            match &m.planner {
                Some(p) => row.extend([
                    p.plan_time_us.map_or("-".to_string(), |t| format!("{t:.1}")),
                    p.iterations.to_string(),
                    p.replans.to_string(),
                    p.waypoints_reached.to_string(),
                    format!("{:.1}", p.planned_length),
                    format!("{:.1}", p.straight_length),
                ]),
                None => row.extend(std::iter::repeat_n("-".to_string(), 6)),
            }
        }
        rows.push(row);
    }
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = format!(
        "{} — {} agents, {:.2} s simulated in {} steps of {:.4} s\n",
        if world.name.is_empty() { "scene" } else { &world.name },
        world.agents.len(),
        world.time(),
        world.steps,
        world.dt
    );
    let line = |cells: &[String]| -> String {
        let mut text = String::new();
        for (idx, (cell, width)) in cells.iter().zip(&widths).enumerate() {
            if idx > 0 {
                text.push_str("  ");
            }
            // Names left-aligned, numbers right-aligned.
            let pad = width.saturating_sub(cell.chars().count());
            if idx < 2 {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            } else {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            }
        }
        text.trim_end().to_string() + "\n"
    };
    out.push_str(&line(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>()));
    for row in &rows {
        out.push_str(&line(row));
    }
    out
}

/// Parses `WIDTHxHEIGHT`.
fn parse_size(size: &str) -> Option<(i32, i32)> {
    let (w, h) = size.split_once(['x', 'X'])?;
    let (w, h) = (w.trim().parse::<i32>().ok()?, h.trim().parse::<i32>().ok()?);
    ((200..=8192).contains(&w) && (200..=8192).contains(&h)).then_some((w, h))
}

fn shot(
    scene: &Path,
    out: &Path,
    seconds: f64,
    size: &str,
    view: ShotView,
    step_through: Option<usize>,
) -> ExitCode {
    let world = match load(scene) {
        Ok(world) => world,
        Err(err) => return fail(err),
    };
    let Some(size) = parse_size(size) else {
        return fail(format!("--size must be WIDTHxHEIGHT between 200 and 8192, got `{size}`"));
    };
    if !(seconds.is_finite() && (0.0..=3600.0).contains(&seconds)) {
        return fail(format!("--seconds must be between 0 and 3600, got {seconds}"));
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return fail(format!("{}: no such directory", dir.display()));
        }
    }
    let view = match view {
        ShotView::Top => steerlab::app::ViewMode::Top,
        ShotView::Orbit => steerlab::app::ViewMode::Orbit,
    };
    let step_through = match step_through {
        Some(0) => return fail("--step-through counts iterations from 1"),
        Some(k) => match world.agents.iter().position(|a| a.behaviour.type_name() == "planner") {
            Some(agent) => Some((agent, k - 1)),
            None => return fail("--step-through needs a scene with a planner ship"),
        },
        None => None,
    };
    let mode = shell::Mode::Shot { out: out.to_path_buf(), seconds, view, step_through };
    macroquad::Window::from_config(
        shell::window_conf(size),
        shell::run(world, Some(scene.to_path_buf()), mode),
    );
    if out.is_file() {
        ExitCode::SUCCESS
    } else {
        fail(format!("{}: the picture was not written", out.display()))
    }
}

fn frames_command(agents: usize, frames: u32, size: &str) -> ExitCode {
    let Some(size) = parse_size(size) else {
        return fail(format!("--size must be WIDTHxHEIGHT between 200 and 8192, got `{size}`"));
    };
    if !(1..=1_000_000).contains(&agents) || !(1..=100_000).contains(&frames) {
        return fail("--agents must be 1–1000000 and --frames 1–100000");
    }
    let world = shell::crowd_world(agents);
    macroquad::Window::from_config(
        shell::window_conf(size),
        shell::run(world, None, shell::Mode::Frames { frames }),
    );
    ExitCode::SUCCESS
}

fn window(scene: Option<&Path>) -> ExitCode {
    let (world, file) = match scene {
        Some(path) => match load(path) {
            Ok(world) => (world, Some(path.to_path_buf())),
            Err(err) => return fail(err),
        },
        None => (shell::default_world(), None),
    };
    macroquad::Window::from_config(
        shell::window_conf((1280, 800)),
        shell::run(world, file, shell::Mode::Interactive),
    );
    ExitCode::SUCCESS
}
