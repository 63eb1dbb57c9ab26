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
//! - `steerlab frames [--agents N | --scene FILE] [--frames F] [--view top|3d]` measures the
//!   window's frame time.
//!
//! Bad input exits with status 2 and one line: `error: FILE: JSON.PATH (line L, column C): reason`
//! (`error: cannot open FILE: no such file` when the file cannot be read). Output that cannot
//! be written ends quietly when the reader has gone (a closed pipe: `run … | head`) and with one
//! line and status 1 otherwise (a full disk). `--trace` is written atomically and never over the
//! scene being run or any other JSON file; `shot --out` must end in `.png`, is checked before a
//! window opens and is written atomically too. Window commands without a display say so in one line.

#![deny(unsafe_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

use steerlab::scene::{escape_controls, io_reason, load_scene, AtomicFile, SceneError};
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
        #[arg(long, default_value_t = 60.0, allow_negative_numbers = true)]
        seconds: f64,
        /// Print the metrics as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Write one CSV row per agent per step: t,agent,x,y,z,vx,vy,vz,orientation.
        #[arg(long, value_name = "FILE.csv")]
        trace: Option<PathBuf>,
        /// Threads for big crowds (default: one per core); results are the same for any N.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
    /// Render the scene after S simulated seconds to a PNG (needs a display; Xvfb works).
    Shot {
        /// The scene file.
        scene: PathBuf,
        /// Where to write the PNG.
        #[arg(long)]
        out: PathBuf,
        /// Simulated seconds before the picture.
        #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
        seconds: f64,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1280x800")]
        size: String,
        /// Which view to draw: `top` (the 2D top view) or `3d` (the orbit view); default top.
        #[arg(long, value_enum, default_value_t = ViewArg::Top)]
        view: ViewArg,
        /// Show the planner step-through of the first planner ship at this iteration (1-based),
        /// recorded from where the ship is after S seconds.
        #[arg(long, value_name = "K")]
        step_through: Option<usize>,
        /// UI scale of the panels and the world's lines and markers, 0.5–3 (as View ▸ UI
        /// scale; a picture never reads the user's saved preference).
        #[arg(long, value_name = "K", default_value_t = 1.0, allow_negative_numbers = true)]
        ui_scale: f32,
    },
    /// Measure frame times in the window with N agents on the compare track, or on a scene
    /// (needs a display).
    Frames {
        /// How many agents (cycling through the four path-following behaviours).
        #[arg(long, default_value_t = 1000)]
        agents: usize,
        /// Measure this scene as it is instead of the compare track's crowd.
        #[arg(long, value_name = "FILE.json", conflicts_with = "agents")]
        scene: Option<PathBuf>,
        /// Frames to measure (after 30 warm-up frames).
        #[arg(long, default_value_t = 300)]
        frames: u32,
        /// Window size, WIDTHxHEIGHT.
        #[arg(long, default_value = "1280x800")]
        size: String,
        /// Which view to draw: `top` (the 2D top view) or `3d` (the orbit view); default top.
        #[arg(long, value_enum, default_value = "top")]
        view: ViewArg,
        /// UI scale of the panels and the world's lines and markers, 0.5–3 (as View ▸ UI
        /// scale; with `--size 2560x1600 --ui-scale 2`, a HiDPI screen's frames).
        #[arg(long, value_name = "K", default_value_t = 1.0, allow_negative_numbers = true)]
        ui_scale: f32,
    },
    /// Fuzz the scene reader and the simulation with mutations of the shipped scenes.
    Fuzz {
        /// Number of cases.
        #[arg(long, default_value_t = 3000)]
        cases: u64,
        /// Number of the first case (to reproduce one case of a long run).
        #[arg(long, default_value_t = 0)]
        first: u64,
        /// Seed of the mutations.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fixed steps each accepted case runs.
        #[arg(long, default_value_t = 120)]
        steps: u32,
        /// Every K-th case also runs through this binary as its own process (0: never).
        #[arg(long, default_value_t = 100, value_name = "K")]
        process_every: u64,
        /// The folder of seed scenes.
        #[arg(long, default_value = "scenes")]
        scenes: PathBuf,
        /// Where to write failing cases.
        #[arg(long)]
        save: Option<PathBuf>,
    },
    /// Print nanoseconds per agent-step for each behaviour and planner timings.
    Bench {
        /// Fewer steps and smaller sizes (a smoke run).
        #[arg(long)]
        quick: bool,
        /// Only the flocking kernel (1k, 10k and 100k boids), to run beside Yuka's flock.mjs.
        #[arg(long)]
        flock: bool,
        /// Only the planner: the seed's loop, the complete fallback and the dense-field checker
        /// (not with --flock, --full or --yuka, which it would ignore).
        #[arg(long, conflicts_with_all = ["flock", "full", "yuka"])]
        planner: bool,
        /// Also 1,000,000 agents in the behaviour table (a few minutes, about 1 GB).
        #[arg(long)]
        full: bool,
        /// The "all threads" rows of the behaviour table use N threads (default: one per core).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Run Yuka beside the predictive and flocking figures, from DIR (../shared/peers/yuka/
        /// with `npm install` done; Node from STEERLAB_NODE or `node`), and print the ratios.
        #[arg(long, value_name = "DIR")]
        yuka: Option<PathBuf>,
    },
}

/// The view a `shot` picture shows and `frames` measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ViewArg {
    /// The 2D top view.
    Top,
    /// The 3D orbit view.
    #[value(name = "3d")]
    Orbit,
}

impl From<ViewArg> for steerlab::app::ViewMode {
    fn from(view: ViewArg) -> Self {
        match view {
            ViewArg::Top => steerlab::app::ViewMode::Top,
            ViewArg::Orbit => steerlab::app::ViewMode::Orbit,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    match cli.command {
        Some(Command::Run { scene, seconds, json, trace, threads }) => {
            if let Err(err) = set_threads(threads) {
                return fail(err);
            }
            run(&scene, seconds, json, trace.as_deref())
        }
        Some(Command::Shot { scene, out, seconds, size, view, step_through, ui_scale }) => {
            shot(&scene, &out, seconds, &size, view, step_through, ui_scale)
        }
        Some(Command::Frames { agents, scene, frames, size, view, ui_scale }) => {
            frames_command(agents, scene.as_deref(), frames, &size, view.into(), ui_scale)
        }
        Some(Command::Fuzz { cases, first, seed, steps, process_every, scenes, save }) => {
            let config = steerlab::fuzz::FuzzConfig {
                cases,
                first,
                seed,
                steps,
                process_every,
                binary: std::env::current_exe().ok(),
                save_dir: save,
                ..Default::default()
            };
            fuzz_command(&config, &scenes)
        }
        Some(Command::Bench { quick, flock, planner, full, threads, yuka }) => {
            if let Err(err) = set_threads(threads) {
                return fail(err);
            }
            if let Some(dir) = &yuka {
                if !dir.join("flock.mjs").is_file() || !dir.join("bench.mjs").is_file() {
                    return fail(format!(
                        "--yuka {}: no flock.mjs and bench.mjs there (copy ../shared/peers/yuka/ and run `npm install`)",
                        dir.display()
                    ));
                }
            }
            let peer = yuka.as_deref().map(steerlab::bench::peer::Peer::new);
            let size = steerlab::bench::BenchSize {
                quick,
                full,
                threads: rayon::current_num_threads(),
                peer: peer.as_ref(),
            };
            if flock {
                return emit_with(|out| steerlab::bench::print_flocking(out, size));
            }
            if planner {
                return emit_with(|out| steerlab::bench::print_planner(out, quick));
            }
            emit_with(|out| steerlab::bench::print_report(out, size))
        }
        None => window(cli.scene.as_deref()),
    }
}

/// A command line clap refuses, as one line and status 2 like every other error: clap's message
/// (its lines up to the first blank one, joined) and where the options are listed. Clap's own
/// output was five lines, and for `--seconds -1` a tip to write `-- -1`, which makes `-1` the
/// scene. Help and version are printed as clap prints them.
fn usage_error(err: &clap::Error) -> ExitCode {
    if matches!(err.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = err.print();
        return ExitCode::SUCCESS;
    }
    let text = err.to_string();
    let message: Vec<&str> = text.lines().take_while(|line| !line.trim().is_empty()).map(str::trim).collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    // `Usage: steerlab run [OPTIONS] <SCENE>` names the command whose help lists the options.
    let command: Vec<&str> = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("Usage: "))
        .map(|usage| usage.split_whitespace().take_while(|w| !w.starts_with(['[', '<', '-'])).collect())
        .unwrap_or_default();
    let command =
        if command.is_empty() { subcommand_named(std::env::args().skip(1)) } else { command.join(" ") };
    fail(format!("{}; see `{command} --help`", escape_controls(message)))
}

/// `steerlab SUBCOMMAND` for the first argument that names a subcommand (clap gives no usage
/// line for a bad value, `run --seconds abc`), else `steerlab`.
fn subcommand_named(args: impl Iterator<Item = String>) -> String {
    let cli = <Cli as clap::CommandFactory>::command();
    let named = args.take_while(|arg| arg != "--").find(|arg| cli.find_subcommand(arg).is_some());
    named.map_or_else(|| "steerlab".to_string(), |name| format!("steerlab {name}"))
}

/// Sizes rayon's global pool (the threads `World::step` shares big crowds among).
fn set_threads(threads: Option<usize>) -> Result<(), String> {
    let Some(n) = threads else { return Ok(()) };
    if !(1..=256).contains(&n) {
        return Err(format!("--threads must be 1–256, got {n}"));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()
        .map_err(|err| format!("--threads {n}: {err}"))
}

/// Most fixed steps one `run` may take (`--seconds` / `dt`).
const MAX_RUN_STEPS: f64 = 1e7;

fn fail(message: impl std::fmt::Display) -> ExitCode {
    // Never panics, even when standard error is closed.
    let _ = writeln!(std::io::stderr(), "error: {message}");
    ExitCode::from(2)
}

/// Writes `text` to standard output: a closed pipe ends quietly (status 0), another write
/// error is one line and status 1.
fn emit(text: &str) -> ExitCode {
    emit_with(|out| out.write_all(text.as_bytes()))
}

/// [`emit`] for output written as it is made (`bench`): `write` gets standard output.
fn emit_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            let _ =
                writeln!(std::io::stderr(), "error: cannot write to standard output: {}", io_reason(&err));
            ExitCode::from(1)
        }
    }
}

/// Why `trace` must not be written for a run of `scene`: it is the scene itself, or an existing
/// JSON file (a scene a typo would replace with CSV), or not a file.
fn refuse_trace_target(scene: &Path, trace: &Path) -> Option<String> {
    let shown = escape_controls(&trace.display().to_string()).into_owned();
    if trace.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("json")) {
        return Some(format!("--trace {shown}: the trace is CSV; refusing to write it to a .json file"));
    }
    let metadata = std::fs::metadata(trace).ok()?;
    if !metadata.is_file() {
        return Some(format!("--trace {shown}: not a regular file"));
    }
    if same_file(scene, trace) {
        return Some(format!("--trace {shown}: that is the scene being run; choose another file"));
    }
    let mut head = [0u8; 256];
    let read =
        std::fs::File::open(trace).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
    let first = head.iter().take(read).find(|b| !b.is_ascii_whitespace());
    if matches!(first, Some(b'{') | Some(b'[')) {
        return Some(format!("--trace {shown}: the file holds JSON (a scene?); refusing to overwrite it"));
    }
    None
}

/// Whether two paths name the same file (same device and inode on Unix).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return ma.dev() == mb.dev() && ma.ino() == mb.ino();
        }
    }
    matches!((a.canonicalize(), b.canonicalize()), (Ok(ca), Ok(cb)) if ca == cb)
}

/// One line instead of miniquad's panic when no display can be opened.
fn display_problem() -> Option<String> {
    const HOW: &str = "run it under Xvfb: xvfb-run -a -s \"-screen 0 1280x800x24\" steerlab …";
    let display = std::env::var("DISPLAY").unwrap_or_default();
    let wayland = std::env::var("WAYLAND_DISPLAY").unwrap_or_default();
    if display.is_empty() {
        if wayland.is_empty() {
            return Some(format!("this command needs a display and DISPLAY is not set; {HOW}"));
        }
        return None;
    }
    if !wayland.is_empty() {
        return None;
    }
    let shown = escape_controls(&display).into_owned();
    let refused = || Some(format!("cannot connect to the display {shown}; {HOW}"));
    // DISPLAY is [HOST]:NUMBER[.SCREEN]; the host may be a bracketed IPv6 address.
    let Some((host, rest)) = display.rsplit_once(':') else { return refused() };
    let number = rest.split('.').next().unwrap_or(rest);
    let Ok(number) = number.parse::<u16>() else { return refused() };
    if host.is_empty() || host == "unix" {
        // A local X display `:N` (or `unix:N`) has its socket at /tmp/.X11-unix/XN. Only its
        // presence is checked: connecting without a handshake disturbs some X servers.
        #[cfg(unix)]
        if !Path::new(&format!("/tmp/.X11-unix/X{number}")).exists() {
            return refused();
        }
        return None;
    }
    // A display over TCP (`HOST:N` listens on port 6000 + N): connect and greet it with a
    // timeout, so a host that does not answer is one line after a second or two, not a hang or
    // miniquad's panic.
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let Some(port) = 6000u16.checked_add(number) else { return refused() };
    let addresses: Vec<std::net::SocketAddr> =
        std::net::ToSocketAddrs::to_socket_addrs(&(host, port)).map(Iterator::collect).unwrap_or_default();
    if addresses.iter().any(x_server_answers) {
        None
    } else {
        refused()
    }
}

/// Whether an X server answers at `address`: the X11 connection setup (little-endian, protocol
/// 11.0, no authorisation) gets a reply whose first byte is Failed (0), Success (1) or
/// Authenticate (2) within the timeout. A port that accepts and stays silent (a proxy, a
/// firewall) is no X server.
fn x_server_answers(address: &std::net::SocketAddr) -> bool {
    use std::io::Read;
    const TIMEOUT: std::time::Duration = std::time::Duration::from_millis(1500);
    let Ok(mut stream) = std::net::TcpStream::connect_timeout(address, TIMEOUT) else { return false };
    let setup: [u8; 12] = [b'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let mut reply = [0u8; 1];
    stream.set_read_timeout(Some(TIMEOUT)).is_ok()
        && stream.set_write_timeout(Some(TIMEOUT)).is_ok()
        && stream.write_all(&setup).is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && reply[0] <= 2
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
        return fail(format!(
            "--seconds must be between 0 and 1000000, got {}",
            steerlab::behaviours::param::number_text(seconds)
        ));
    }
    let steps = (seconds / f64::from(world.dt)).round();
    if steps > MAX_RUN_STEPS {
        return fail(format!(
            "--seconds {} in steps of {} s is {steps:.0} steps; at most {MAX_RUN_STEPS:.0}",
            steerlab::behaviours::param::number_text(seconds),
            world.dt
        ));
    }
    let steps = steps as u64;
    let mut trace_out = match trace {
        Some(path) => {
            if let Some(problem) = refuse_trace_target(scene, path) {
                return fail(problem);
            }
            let shown = escape_controls(&path.display().to_string()).into_owned();
            match AtomicFile::create(path) {
                Ok(mut out) => {
                    if let Err(err) = writeln!(out, "t,agent,x,y,z,vx,vy,vz,orientation") {
                        return fail(format!("cannot write {shown}: {}", io_reason(&err)));
                    }
                    Some((shown, out))
                }
                Err(err) => return fail(format!("cannot write {shown}: {}", io_reason(&err))),
            }
        }
        None => None,
    };
    if let Some((shown, out)) = trace_out.as_mut() {
        if let Err(err) = write_trace_rows(out, &world) {
            return fail(format!("cannot write {shown}: {}", io_reason(&err)));
        }
    }
    for _ in 0..steps {
        world.step();
        if let Some((shown, out)) = trace_out.as_mut() {
            if let Err(err) = write_trace_rows(out, &world) {
                return fail(format!("cannot write {shown}: {}", io_reason(&err)));
            }
        }
    }
    if let Some((shown, out)) = trace_out {
        if let Err(err) = out.commit() {
            return fail(format!("cannot write {shown}: {}", io_reason(&err)));
        }
    }
    let mut metrics = world.metrics();
    steerlab::bench::fill_plan_times(&world, &mut metrics);
    if json {
        match serde_json::to_string_pretty(&metrics) {
            Ok(text) => emit(&(text + "\n")),
            Err(err) => fail(err),
        }
    } else {
        emit(&metrics_table(&world, &metrics))
    }
}

fn write_trace_rows(out: &mut impl Write, world: &World) -> std::io::Result<()> {
    let t = world.time();
    for agent in &world.agents {
        let k = &agent.kinematics;
        writeln!(
            out,
            "{t:.6},{},{},{},{},{},{},{},{}",
            steerlab::ui::metrics::csv_field(&agent.about.name),
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

/// The metrics as an aligned text table, one row per agent: the columns and cells of the
/// window's Metrics panel (`ui::metrics`, the one column table), so both show the same thing.
fn metrics_table(world: &World, metrics: &[MetricsSummary]) -> String {
    use steerlab::ui::metrics::{cell_text, visible_columns, Cell};
    let columns = visible_columns(metrics);
    let header: Vec<String> = columns.iter().map(|c| c.header().to_string()).collect();
    // Text columns (name, behaviour) are left-aligned, numbers right-aligned.
    let left: Vec<bool> =
        columns.iter().map(|c| metrics.first().is_some_and(|m| matches!(c.cell(m), Cell::Text(_)))).collect();
    // Names come from the file: control characters are escaped as in error lines, so a name
    // cannot break a row or send the terminal an escape sequence.
    let rows: Vec<Vec<String>> = metrics
        .iter()
        .map(|m| columns.iter().map(|c| escape_controls(&cell_text(&c.cell(m))).into_owned()).collect())
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = format!(
        "{} — {} agents, {:.2} s simulated in {} steps of {:.4} s\n",
        if world.name.is_empty() { "scene".into() } else { escape_controls(&world.name) },
        world.agents.len(),
        world.time(),
        world.steps,
        world.dt
    );
    let polarization = world.polarization();
    if let (Some(mean), Some(now)) = (polarization.mean(), polarization.now()) {
        out.push_str(&format!("flock polarization {now:.3} now, {mean:.3} mean\n"));
    }
    let line = |cells: &[String]| -> String {
        let mut text = String::new();
        for (idx, (cell, width)) in cells.iter().zip(&widths).enumerate() {
            if idx > 0 {
                text.push_str("  ");
            }
            // Names left-aligned, numbers right-aligned.
            let pad = width.saturating_sub(cell.chars().count());
            if left.get(idx).copied().unwrap_or(false) {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            } else {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            }
        }
        text.trim_end().to_string() + "\n"
    };
    out.push_str(&line(&header));
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
    view: ViewArg,
    step_through: Option<usize>,
    ui_scale: f32,
) -> ExitCode {
    let world = match load(scene) {
        Ok(world) => world,
        Err(err) => return fail(err),
    };
    let Some(size) = parse_size(size) else {
        return fail(format!("--size must be WIDTHxHEIGHT between 200 and 8192, got `{size}`"));
    };
    if !(seconds.is_finite() && (0.0..=3600.0).contains(&seconds)) {
        return fail(format!(
            "--seconds must be between 0 and 3600, got {}",
            steerlab::behaviours::param::number_text(seconds)
        ));
    }
    if let Err(problem) = check_ui_scale(ui_scale) {
        return fail(problem);
    }
    if let Some(problem) = refuse_shot_target(out) {
        return fail(problem);
    }
    let view = view.into();
    let step_through = match step_through {
        Some(0) => return fail("--step-through counts iterations from 1"),
        Some(k) => match world.agents.iter().position(|a| a.behaviour.type_name() == "planner") {
            Some(agent) => Some((agent, k - 1)),
            None => return fail("--step-through needs a scene with a planner ship"),
        },
        None => None,
    };
    if let Some(problem) = display_problem() {
        return fail(problem);
    }
    let written = std::sync::Arc::new(std::sync::OnceLock::new());
    let mode = shell::Mode::Shot {
        out: out.to_path_buf(),
        seconds,
        view,
        step_through,
        ui_scale,
        written: written.clone(),
    };
    macroquad::Window::from_config(
        shell::window_conf(size),
        shell::run(world, Some(scene.to_path_buf()), mode),
    );
    let shown = escape_controls(&out.display().to_string()).into_owned();
    match written.get() {
        Some(Ok(())) => emit(&format!("wrote {shown}\n")),
        Some(Err(reason)) => fail(format!("cannot write {shown}: {reason}")),
        None => fail(format!("{shown}: the picture was not written")),
    }
}

/// Why `shot` must not write its picture to `out`, found before a window opens: the name does
/// not end in `.png` (the picture is always PNG), it names a directory or something other than
/// a regular file (a device, a FIFO), its folder does not exist, or a file cannot be created
/// there. The picture itself is written atomically (`shell::capture::write_png`).
fn refuse_shot_target(out: &Path) -> Option<String> {
    let shown = escape_controls(&out.display().to_string()).into_owned();
    if out.file_name().is_none() || out.to_string_lossy().ends_with(std::path::is_separator) {
        return Some(format!("--out {shown}: does not name a file"));
    }
    if !out.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("png")) {
        return Some(format!("--out {shown}: the picture is PNG; the name must end in .png"));
    }
    if let Ok(metadata) = std::fs::metadata(out) {
        if metadata.is_dir() {
            return Some(format!("--out {shown}: it is a directory"));
        }
        if !metadata.is_file() {
            return Some(format!("--out {shown}: not a regular file"));
        }
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            let dir = escape_controls(&dir.display().to_string()).into_owned();
            return Some(format!("--out {shown}: no such directory {dir}"));
        }
    }
    // A file can be made beside the target (the temporary file is removed at once).
    if let Err(err) = AtomicFile::create(out) {
        return Some(format!("cannot write {shown}: {}", io_reason(&err)));
    }
    None
}

fn fuzz_command(config: &steerlab::fuzz::FuzzConfig, scenes: &Path) -> ExitCode {
    if let Some(problem) = config.problem() {
        return fail(problem);
    }
    let seeds = match steerlab::fuzz::seed_scenes(scenes) {
        Ok(seeds) => seeds,
        Err(err) => return fail(err),
    };
    let report = steerlab::fuzz::fuzz(config, &seeds, |r| {
        let _ = writeln!(
            std::io::stderr(),
            "{} cases, {} failures, {:.0} s",
            r.cases,
            r.failures.len(),
            r.elapsed.as_secs_f64()
        );
    });
    let mut text = String::new();
    for failure in &report.failures {
        text.push_str(&format!("FAIL case {} (seed {}): {}\n", failure.case, config.seed, failure.problem));
    }
    text.push_str(&format!(
        "{} cases from {} scenes (seed {}, first {}, {} steps each): {} accepted, {} refused, {} failures; \
         {} also run as processes; {:.1} s, {:.0} cases/s, slowest case {:.0} ms\n",
        report.cases,
        seeds.len(),
        config.seed,
        config.first,
        config.steps,
        report.accepted,
        report.refused,
        report.failures.len(),
        report.process_cases,
        report.elapsed.as_secs_f64(),
        report.cases as f64 / report.elapsed.as_secs_f64().max(1e-9),
        report.slowest_case.as_secs_f64() * 1000.0
    ));
    let code = emit(&text);
    if report.failures.is_empty() {
        code
    } else {
        ExitCode::from(1)
    }
}

/// `--ui-scale K` of `shot` and `frames`: within `ui::preferences::UI_SCALE_RANGE`.
fn check_ui_scale(ui_scale: f32) -> Result<(), String> {
    let scales = steerlab::ui::preferences::UI_SCALE_RANGE;
    if scales.contains(&ui_scale) {
        return Ok(());
    }
    Err(format!(
        "--ui-scale must be between {} and {}, got {}",
        scales.start(),
        scales.end(),
        steerlab::behaviours::param::number_text(f64::from(ui_scale))
    ))
}

fn frames_command(
    agents: usize,
    scene: Option<&Path>,
    frames: u32,
    size: &str,
    view: steerlab::app::ViewMode,
    ui_scale: f32,
) -> ExitCode {
    let Some(size) = parse_size(size) else {
        return fail(format!("--size must be WIDTHxHEIGHT between 200 and 8192, got `{size}`"));
    };
    if !(1..=1_000_000).contains(&agents) || !(1..=100_000).contains(&frames) {
        return fail("--agents must be 1–1000000 and --frames 1–100000");
    }
    if let Err(problem) = check_ui_scale(ui_scale) {
        return fail(problem);
    }
    let world = match scene {
        Some(path) => match load_scene(path) {
            Ok(world) => world,
            Err(err) => return fail(err),
        },
        None => shell::crowd_world(agents),
    };
    if let Some(problem) = display_problem() {
        return fail(problem);
    }
    macroquad::Window::from_config(
        shell::window_conf(size),
        shell::run(world, scene.map(Path::to_path_buf), shell::Mode::Frames { frames, view, ui_scale }),
    );
    ExitCode::SUCCESS
}

fn window(scene: Option<&Path>) -> ExitCode {
    // Only a path that does not exist is refused here (one line, status 2, before a window
    // opens); everything else — a big file, a FIFO, a scene with an error — is loaded by the
    // window off its frame loop, which shows progress, offers Cancel and reports errors.
    let world = match scene {
        Some(path) => {
            if let Err(err) = std::fs::metadata(path) {
                return fail(SceneError::io(&path.display().to_string(), "open", &err));
            }
            let mut world = World::default();
            world.name = "Untitled".to_string();
            world
        }
        None => shell::default_world(),
    };
    if let Some(problem) = display_problem() {
        return fail(problem);
    }
    let open = scene.map(Path::to_path_buf);
    macroquad::Window::from_config(
        shell::window_conf((1280, 800)),
        shell::run(world, None, shell::Mode::Interactive { open }),
    );
    ExitCode::SUCCESS
}
