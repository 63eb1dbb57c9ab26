//! steerlab's own fuzzer (`steerlab fuzz`): structure-aware mutation of the shipped scenes,
//! each case loaded and run headless for a bounded number of steps.
//!
//! A case is a shipped scene parsed to a JSON value, changed by one to four mutations chosen by
//! a seeded generator (deleted, duplicated and retyped keys, numeric extremes, degenerate and
//! huge point lists, pathological expressions, control characters, serde-only forms, swapped
//! kinds and references), written back to text, and sometimes damaged as text (a cut, a stray
//! byte, a duplicated line, invalid UTF-8). Every case must end one of two ways:
//! - accepted: the world runs `steps` fixed steps and every metric is finite;
//! - refused: one line `case.json: JSON.PATH (line L, column C): reason`, L within the text.
//!
//! A panic is caught and reported with the case's number; every `process_every`-th case also
//! runs through the real binary (`steerlab run CASE --json`) with a time limit, which is where an
//! abort or a hang would show: the exit status must be 0 (with finite JSON metrics) or 2 (with one
//! line on standard error). The same seed gives the same cases, so a failure is reproduced with
//! `steerlab fuzz --seed S --first N --cases 1`. This module is a tool, not part of the pure
//! core: it reads the clock to report its speed and starts processes.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::scene::BEHAVIOUR_TYPES;
use crate::scene::{escape_controls, parse_scene_bytes, SceneError};
use crate::sim::{
    CrowdMetrics, FormationMetrics, HideMetrics, LeaderMetrics, MetricsSummary, ParametricMetrics,
    PathMetrics, PlannerMetrics, PursuitMetrics,
};

/// How to fuzz.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// Number of cases.
    pub cases: u64,
    /// Index of the first case (to reproduce one case of a long run).
    pub first: u64,
    /// Seed of the generator.
    pub seed: u64,
    /// Fixed steps each accepted case runs.
    pub steps: u32,
    /// Every this many cases, also run the case through the binary (0: never).
    pub process_every: u64,
    /// The binary for process cases.
    pub binary: Option<PathBuf>,
    /// Time limit of one process case.
    pub timeout: Duration,
    /// Where to write failing cases (none: not written).
    pub save_dir: Option<PathBuf>,
}

impl Default for FuzzConfig {
    fn default() -> Self {
        FuzzConfig {
            cases: 3000,
            first: 0,
            seed: 1,
            steps: 120,
            process_every: 0,
            binary: None,
            timeout: Duration::from_secs(10),
            save_dir: None,
        }
    }
}

/// Most fixed steps an accepted case may run (`--steps`): 10,000 steps of the 1,024-boid
/// scene take about a second, and a case run through the binary must end within its time limit.
/// Unbounded, `--steps 4000000000` ran the first accepted case for hours.
pub const MAX_STEPS: u32 = 10_000;

impl FuzzConfig {
    /// Why the run cannot be made as asked: more than [`MAX_STEPS`] steps a case, or case
    /// numbers (`first` to `first + cases - 1`) that would go past the last `u64` (the run would
    /// otherwise stop short, or run no case at all).
    pub fn problem(&self) -> Option<String> {
        if self.steps > MAX_STEPS {
            return Some(format!("--steps must be at most {MAX_STEPS}, got {}", self.steps));
        }
        let last = self.cases.checked_sub(1).map_or(Some(self.first), |more| self.first.checked_add(more));
        last.is_none().then(|| {
            format!(
                "--first {} with --cases {} numbers cases past {}; at most {} from there",
                self.first,
                self.cases,
                u64::MAX,
                u64::MAX - self.first + 1
            )
        })
    }
}

/// One case that broke a rule.
#[derive(Clone, Debug)]
pub struct FuzzFailure {
    /// The case's number.
    pub case: u64,
    /// What went wrong.
    pub problem: String,
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Cases run.
    pub cases: u64,
    /// Cases that loaded and ran with finite metrics.
    pub accepted: u64,
    /// Cases refused with a proper one-line error.
    pub refused: u64,
    /// Cases also run through the binary.
    pub process_cases: u64,
    /// Cases that broke a rule.
    pub failures: Vec<FuzzFailure>,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// The slowest case in process.
    pub slowest_case: Duration,
}

/// Reads the seed scenes: every `.json` file of `dir`, sorted by name, each read as JSON with
/// the scene loader's checks ([`crate::scene::read_json_file`]: a FIFO, a device or a file over
/// the size limit is refused before reading). Errors are one line in the loader's words:
/// `cannot open FILE: not a regular file (a pipe or a device)`, `FILE: $ (line L, column C): …`.
pub fn seed_scenes(dir: &Path) -> Result<Vec<(String, Value)>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|err| SceneError::io(&dir.display().to_string(), "read", &err).to_string())?;
    let mut files: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    let mut scenes = Vec::new();
    for file in files {
        let value = crate::scene::read_json_file(&file).map_err(|err| err.to_string())?;
        scenes.push((file.display().to_string(), value));
    }
    if scenes.is_empty() {
        return Err(format!("no .json scenes in {}", escape_controls(&dir.display().to_string())));
    }
    Ok(scenes)
}

/// Runs the fuzzer over mutations of `seeds`; `progress` is called every 1000 cases.
pub fn fuzz(
    config: &FuzzConfig,
    seeds: &[(String, Value)],
    mut progress: impl FnMut(&FuzzReport),
) -> FuzzReport {
    let started = Instant::now();
    let mut report = FuzzReport::default();
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // Where the cases run through the binary are written; removed when the run ends.
    let case_dir = (config.process_every > 0 && config.binary.is_some()).then(CaseDir::new);
    // `first + cases - 1` may be the last u64 itself (`FuzzConfig::problem` refuses beyond).
    for case in (0..config.cases).map_while(|more| config.first.checked_add(more)) {
        let bytes = make_case(config.seed, case, seeds);
        let case_started = Instant::now();
        let outcome = std::panic::catch_unwind(|| check_in_process(&bytes, config.steps))
            .unwrap_or_else(|panic| Err(format!("panicked: {}", panic_text(&panic))));
        report.slowest_case = report.slowest_case.max(case_started.elapsed());
        let mut problems = Vec::new();
        // The case's step, when it was accepted: the binary then runs the same number of steps.
        let mut dt = None;
        match outcome {
            Ok(Some(step)) => {
                report.accepted += 1;
                dt = Some(step);
            }
            Ok(None) => report.refused += 1,
            Err(problem) => problems.push(problem),
        }
        if config.process_every > 0 && case % config.process_every == 0 {
            if let (Some(binary), Some(dir)) = (&config.binary, &case_dir) {
                report.process_cases += 1;
                if let Err(problem) = check_in_process_of_its_own(binary, &dir.0, &bytes, config, case, dt) {
                    problems.push(format!("binary: {problem}"));
                }
            }
        }
        for problem in problems {
            if let Some(dir) = &config.save_dir {
                let _ = std::fs::create_dir_all(dir);
                let _ = std::fs::write(dir.join(format!("case-{}-{case}.json", config.seed)), &bytes);
            }
            report.failures.push(FuzzFailure { case, problem });
        }
        report.cases += 1;
        if report.cases % 1000 == 0 {
            report.elapsed = started.elapsed();
            progress(&report);
        }
    }
    std::panic::set_hook(previous_hook);
    report.elapsed = started.elapsed();
    report
}

/// The directory a fuzz run writes its cases to before running them through the binary: one a
/// run (two runs in one process, as tests are, never share a case file), removed when dropped.
struct CaseDir(PathBuf);

impl CaseDir {
    fn new() -> CaseDir {
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        CaseDir(std::env::temp_dir().join(format!("steerlab-fuzz-{}-{run}", std::process::id())))
    }
}

impl Drop for CaseDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// The label cases carry in errors.
pub const CASE_LABEL: &str = "case.json";

/// Loads and runs one case: Ok(Some(dt)) accepted with finite metrics (its fixed step),
/// Ok(None) properly refused, Err(problem) otherwise.
fn check_in_process(bytes: &[u8], steps: u32) -> Result<Option<f32>, String> {
    match parse_scene_bytes(bytes.to_vec(), CASE_LABEL) {
        Ok(mut world) => {
            for _ in 0..steps {
                world.step();
            }
            let metrics = world.metrics();
            match metrics.iter().find_map(non_finite_metric) {
                Some(problem) => Err(problem),
                None => Ok(Some(world.dt)),
            }
        }
        Err(err) => {
            let message = err.to_string();
            check_error_line(&message, bytes)?;
            Ok(None)
        }
    }
}

/// Checks a refusal: one line naming the case, a JSON path and a line and column in the text.
fn check_error_line(message: &str, bytes: &[u8]) -> Result<(), String> {
    if message.contains(['\n', '\r']) {
        return Err(format!("error is not one line: {message:?}"));
    }
    let rest = message
        .strip_prefix(CASE_LABEL)
        .and_then(|r| r.strip_prefix(": "))
        .ok_or_else(|| format!("error does not start with the file: {message:?}"))?;
    let (path, rest) = rest.split_once(" (line ").ok_or_else(|| format!("no line in {message:?}"))?;
    if path.is_empty() {
        return Err(format!("no JSON path in {message:?}"));
    }
    let (line, rest) = rest.split_once(", column ").ok_or_else(|| format!("no column in {message:?}"))?;
    let (column, reason) = rest.split_once("): ").ok_or_else(|| format!("no reason in {message:?}"))?;
    let line: usize = line.parse().map_err(|_| format!("bad line in {message:?}"))?;
    let column: usize = column.parse().map_err(|_| format!("bad column in {message:?}"))?;
    let lines = bytes.split(|b| *b == b'\n').count().max(1);
    if line == 0 || column == 0 || line > lines {
        return Err(format!("line {line}, column {column} is outside the text ({lines} lines): {message:?}"));
    }
    if reason.trim().is_empty() {
        return Err(format!("empty reason in {message:?}"));
    }
    Ok(())
}

/// The first metric of `m` that is not finite, named.
fn non_finite_metric(m: &MetricsSummary) -> Option<String> {
    // Destructured without `..`: a new metric cannot be forgotten here.
    let MetricsSummary {
        name,
        behaviour: _,
        final_position,
        distance_travelled,
        mean_speed,
        max_speed,
        collisions: _,
        min_clearance,
        arrived_at,
        path,
        parametric,
        planner,
        crowd,
        pursuit,
        formation,
        hide,
        leader,
    } = m;
    let mut values: Vec<(&str, f64)> = vec![
        ("final_position.x", f64::from(final_position.x)),
        ("final_position.y", f64::from(final_position.y)),
        ("final_position.z", f64::from(final_position.z)),
        ("distance_travelled", f64::from(*distance_travelled)),
        ("mean_speed", f64::from(*mean_speed)),
        ("max_speed", f64::from(*max_speed)),
        ("min_clearance", min_clearance.map_or(0.0, f64::from)),
        ("arrived_at", arrived_at.unwrap_or(0.0)),
    ];
    if let Some(PathMetrics {
        mean_cross_track,
        max_cross_track,
        time_outside_radius,
        progress,
        backtracks: _,
        skips: _,
    }) = path
    {
        values.extend([
            ("mean_cross_track", f64::from(*mean_cross_track)),
            ("max_cross_track", f64::from(*max_cross_track)),
            ("time_outside_radius", f64::from(*time_outside_radius)),
            ("progress", f64::from(*progress)),
        ]);
    }
    if let Some(ParametricMetrics { speed_error_mean, speed_error_max }) = parametric {
        values.extend([
            ("speed_error_mean", f64::from(*speed_error_mean)),
            ("speed_error_max", f64::from(*speed_error_max)),
        ]);
    }
    if let Some(PlannerMetrics {
        plan_time_us,
        iterations: _,
        replans: _,
        waypoints_reached: _,
        planned_length,
        straight_length,
        status: _,
        unreachable_waypoint: _,
        unreachable_reason: _,
        fallback_plans: _,
    }) = planner
    {
        values.extend([
            ("plan_time_us", plan_time_us.unwrap_or(0.0)),
            ("planned_length", f64::from(*planned_length)),
            ("straight_length", f64::from(*straight_length)),
        ]);
    }
    if let Some(CrowdMetrics {
        agent_collisions: _,
        min_agent_gap,
        mean_nearest_neighbour,
        alignment,
        polarization,
    }) = crowd
    {
        values.extend([
            ("min_agent_gap", min_agent_gap.map_or(0.0, f64::from)),
            ("mean_nearest_neighbour", mean_nearest_neighbour.map_or(0.0, f64::from)),
            ("alignment", alignment.map_or(0.0, f64::from)),
            ("polarization", polarization.map_or(0.0, f64::from)),
        ]);
    }
    if let Some(FormationMetrics { mean_slot_error, max_slot_error }) = formation {
        values.extend([
            ("mean_slot_error", f64::from(*mean_slot_error)),
            ("max_slot_error", f64::from(*max_slot_error)),
        ]);
    }
    if let Some(HideMetrics { time_seen, mean_hunter_distance }) = hide {
        values.extend([
            ("time_seen", f64::from(*time_seen)),
            ("mean_hunter_distance", f64::from(*mean_hunter_distance)),
        ]);
    }
    if let Some(LeaderMetrics { min_leader_gap }) = leader {
        values.push(("min_leader_gap", min_leader_gap.map_or(0.0, f64::from)));
    }
    if let Some(PursuitMetrics { capture_time }) = pursuit {
        values.push(("capture_time", capture_time.unwrap_or(0.0)));
    }
    values
        .into_iter()
        .find(|(_, v)| !v.is_finite())
        .map(|(metric, v)| format!("agent `{name}`: metric {metric} is {v}"))
}

/// Runs the case through the binary with a time limit.
fn check_in_process_of_its_own(
    binary: &Path,
    dir: &Path,
    bytes: &[u8],
    config: &FuzzConfig,
    case: u64,
    dt: Option<f32>,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|err| format!("scratch dir: {err}"))?;
    let file = dir.join(CASE_LABEL);
    std::fs::write(&file, bytes).map_err(|err| format!("scratch file: {err}"))?;
    // The steps the case ran in process, in its own step (`run` rounds seconds / dt): a case of
    // dt 0.0001 read as 1/60 s steps ran 167 times as many and was reported as a hang.
    let seconds = format!("{}", f64::from(config.steps) * dt.map_or(1.0 / 60.0, f64::from));
    let mut child = Command::new(binary)
        .args(["run", &file.to_string_lossy(), "--json", "--seconds", &seconds])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("cannot start {}: {err}", binary.display()))?;
    // Drain both pipes while waiting: a child whose output outgrows the pipe buffer (a
    // thousand agents' JSON) would otherwise block on writing and look like a hang.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout_reader = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let stderr_reader = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let deadline = Instant::now() + config.timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("case {case} did not finish in {:?} (a hang)", config.timeout));
            }
        }
    };
    let stdout_bytes = stdout_reader.join().unwrap_or_default();
    let stderr_bytes = stderr_reader.join().unwrap_or_default();
    let stdout = String::from_utf8_lossy(&stdout_bytes);
    let stderr = String::from_utf8_lossy(&stderr_bytes);
    match status.code() {
        Some(0) => {
            let value: Value =
                serde_json::from_str(&stdout).map_err(|err| format!("exit 0 without JSON: {err}"))?;
            // serde_json writes a non-finite number as null: only the optional metrics may be null.
            let optional = crate::sim::NULLABLE_METRICS;
            for agent in value.as_array().ok_or("exit 0, the JSON is not a list of agents")? {
                let fields = agent.as_object().ok_or("exit 0, an agent is not an object")?;
                if let Some((key, _)) =
                    fields.iter().find(|(k, v)| v.is_null() && !optional.contains(&k.as_str()))
                {
                    return Err(format!("exit 0 with a non-finite metric `{key}` (null)"));
                }
            }
            Ok(())
        }
        Some(2) => {
            let line = stderr.strip_suffix('\n').unwrap_or(&stderr);
            if line.contains('\n') || !line.starts_with("error: ") {
                return Err(format!("exit 2 without one error line: {stderr:?}"));
            }
            Ok(())
        }
        code => Err(format!(
            "exit status {code:?} (a panic or an abort): {}",
            stderr.lines().next().unwrap_or("")
        )),
    }
}

/// A small seeded generator (SplitMix64): the same seed and case give the same mutations.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, case: u64) -> Rng {
        let mut rng = Rng(seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in 0..n (0 when n is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The bytes of case `case` of seed `seed`.
pub fn make_case(seed: u64, case: u64, seeds: &[(String, Value)]) -> Vec<u8> {
    let mut rng = Rng::new(seed, case);
    let mut value = seeds.get(rng.below(seeds.len())).map_or(Value::Null, |(_, v)| v.clone());
    // Mostly one or two mutations (so a fair share of cases still loads and runs), sometimes four.
    let mutations = if rng.chance(70) { 1 + rng.below(2) } else { 1 + rng.below(4) };
    for _ in 0..mutations {
        mutate_value(&mut value, &mut rng);
    }
    let text = if rng.chance(50) {
        serde_json::to_string_pretty(&value).unwrap_or_default()
    } else {
        serde_json::to_string(&value).unwrap_or_default()
    };
    let mut bytes = text.into_bytes();
    if rng.chance(15) {
        mutate_text(&mut bytes, &mut rng);
    }
    bytes
}

/// Paths (as lists of steps) to every value in `value`, parents before children.
fn all_paths(value: &Value) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut stack = vec![(Vec::new(), value)];
    while let Some((path, node)) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (key, child) in map {
                    let mut inner = path.clone();
                    inner.push(Step::Key(key.clone()));
                    stack.push((inner, child));
                }
            }
            Value::Array(items) => {
                // Long point lists: a few elements are enough.
                for (idx, child) in items.iter().enumerate().take(8) {
                    let mut inner = path.clone();
                    inner.push(Step::Index(idx));
                    stack.push((inner, child));
                }
            }
            _ => {}
        }
        out.push(path);
    }
    out
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn at_mut<'a>(value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut node = value;
    for step in path {
        node = match step {
            Step::Key(key) => node.get_mut(key.as_str())?,
            Step::Index(idx) => node.get_mut(*idx)?,
        };
    }
    Some(node)
}

const EXPRESSIONS: &[&str] = &[
    "t/0",
    "1/t",
    "sqrt(-1)",
    "ln(t)",
    "ln(0)",
    "10^1000",
    "t^1000",
    "1e30*sin(t)",
    "1e5*cos(t)",
    "2t",
    "sin(",
    ")t(",
    "u*t",
    "",
    "   ",
    "tan(t)*1e6",
    "exp(t*100)",
    "asin(t)",
    "t\n+1",
    "abs(t)-floor(t)",
];

const NUMBERS: &[f64] = &[
    0.0,
    -0.0,
    -1.0,
    1.0,
    1e-40,
    1e-320,
    1e-7,
    1e-4,
    0.1,
    0.10001,
    1e6,
    1e6 + 1.0,
    -1e6,
    1e7,
    1e30,
    -1e30,
    3.4e38,
    1e300,
    9.007_199_254_740_993e15,
    4_294_967_296.0,
    0.5,
    100.0,
    6.283_185_5,
];

/// Names to mutate into, besides every behaviour type (read from the format's own list).
const NAMES: &[&str] = &[
    "circle",
    "ellipse",
    "lemniscate",
    "lissajous",
    "helix",
    "spline",
    "expr",
    "secant",
    "arc_length",
    "track",
    "#e6194b",
    "#zzzzzz",
];

fn random_scalar(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 | 3 => NUMBERS
            .get(rng.below(NUMBERS.len()))
            .and_then(|n| serde_json::Number::from_f64(*n))
            .map_or(Value::Null, Value::Number),
        4 => Value::from(rng.next() as i64),
        5 => Value::String(EXPRESSIONS.get(rng.below(EXPRESSIONS.len())).copied().unwrap_or("").into()),
        6 => {
            let count = NAMES.len() + BEHAVIOUR_TYPES.len();
            let name = NAMES.iter().chain(BEHAVIOUR_TYPES.iter()).nth(rng.below(count));
            Value::String(name.copied().unwrap_or("").into())
        }
        7 => Value::String(
            ["a\nb", "tab\there", "\u{1b}[31m", "\u{2028}", "x".repeat(300).as_str()][rng.below(5)].into(),
        ),
        _ => Value::String(String::new()),
    }
}

fn pathological_expression(rng: &mut Rng) -> String {
    let n = 1 + rng.below(200);
    match rng.below(6) {
        0 => vec!["t"; n].join(["+", "*", "/", "^", "-"][rng.below(5)]),
        1 => format!("{}t{}", "(".repeat(n), ")".repeat(n)),
        2 => format!("{}t{}", "sin(".repeat(n / 4 + 1), ")".repeat(n / 4 + 1)),
        3 => vec!["sin(t)*t"; n / 8 + 1].join("+"),
        4 => format!("{}t", "-".repeat(n)),
        _ => EXPRESSIONS.get(rng.below(EXPRESSIONS.len())).copied().unwrap_or("t").to_string(),
    }
}

fn mutate_value(value: &mut Value, rng: &mut Rng) {
    let paths = all_paths(value);
    let Some(path) = paths.get(rng.below(paths.len())).cloned() else { return };
    let Some(node) = at_mut(value, &path) else { return };
    match rng.below(14) {
        // Delete a key of an object (or an element of a list).
        0 | 1 => match node {
            Value::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                if let Some(key) = keys.get(rng.below(keys.len())) {
                    map.remove(key);
                }
            }
            Value::Array(items) if !items.is_empty() => {
                let idx = rng.below(items.len());
                items.remove(idx);
            }
            _ => *node = Value::Null,
        },
        // Replace by a scalar of any type.
        2 | 3 => *node = random_scalar(rng),
        // Numeric extremes in place of a number.
        4 => {
            if let Some(n) =
                NUMBERS.get(rng.below(NUMBERS.len())).and_then(|n| serde_json::Number::from_f64(*n))
            {
                *node = Value::Number(n);
            }
        }
        // A pathological expression.
        5 => *node = Value::String(pathological_expression(rng)),
        // Duplicate an element (or the whole list many times over: huge arrays).
        6 => {
            if let Value::Array(items) = node {
                if let Some(item) = items.get(rng.below(items.len())).cloned() {
                    let copies = if rng.chance(20) { 1 + rng.below(20_000) } else { 1 + rng.below(3) };
                    items.extend(std::iter::repeat_n(item, copies));
                }
            }
        }
        // Degenerate geometry: every point of a list the same.
        7 => {
            if let Value::Array(items) = node {
                if let Some(first) = items.first().cloned() {
                    for item in items.iter_mut() {
                        *item = first.clone();
                    }
                }
            }
        }
        // serde's array form of an object, the map form of a name.
        8 => match node {
            Value::Object(map) => *node = Value::Array(map.values().cloned().collect()),
            Value::String(s) => {
                let mut map = Map::new();
                map.insert(s.clone(), Value::Null);
                *node = Value::Object(map);
            }
            _ => {}
        },
        // Add an unknown or a known key with a random value.
        9 => {
            if let Value::Object(map) = node {
                let key =
                    ["id", "type", "kind", "x", "points", "radius", "dt", "behaviour", "velocity", "zzz", ""]
                        [rng.below(11)];
                map.insert(key.to_string(), random_scalar(rng));
            }
        }
        // Swap a value with another one of the scene (kinds, references and shapes cross).
        10 => {
            let other = paths.get(rng.below(paths.len())).cloned().unwrap_or_default();
            let copy = at_mut(value, &other).map(|v| v.clone());
            if let (Some(copy), Some(node)) = (copy, at_mut(value, &path)) {
                *node = copy;
            }
        }
        // A vector of the wrong length or with a non-finite stand-in.
        11 => {
            let len = rng.below(5);
            *node = Value::Array((0..len).map(|_| random_scalar(rng)).collect());
        }
        // An empty object or list.
        12 => *node = if rng.chance(50) { Value::Object(Map::new()) } else { Value::Array(Vec::new()) },
        // A nested copy of itself (depth).
        _ => {
            let inner = node.clone();
            *node = Value::Array(vec![inner]);
        }
    }
}

fn mutate_text(bytes: &mut Vec<u8>, rng: &mut Rng) {
    if bytes.is_empty() {
        return;
    }
    let at = rng.below(bytes.len());
    match rng.below(7) {
        0 => bytes.truncate(at),
        1 => bytes.insert(at, [0x00, 0x07, b'\t', b'\n', 0xff, 0xc3, b'"'][rng.below(7)]),
        2 => {
            // Duplicate a line (duplicate keys).
            let start =
                bytes.get(..at).and_then(|b| b.iter().rposition(|c| *c == b'\n')).map_or(0, |p| p + 1);
            let end = bytes
                .get(at..)
                .and_then(|b| b.iter().position(|c| *c == b'\n'))
                .map_or(bytes.len(), |p| at + p + 1);
            if let Some(line) = bytes.get(start..end).map(<[u8]>::to_vec) {
                let tail = bytes.split_off(end);
                bytes.extend_from_slice(&line);
                bytes.extend_from_slice(&tail);
            }
        }
        3 => {
            let mut bom = "\u{feff}".as_bytes().to_vec();
            bom.extend_from_slice(bytes);
            *bytes = bom;
        }
        4 => {
            if let Some(b) = bytes.get_mut(at) {
                *b ^= 1 << rng.below(8);
            }
        }
        5 => {
            let digits: Vec<u8> = std::iter::repeat_n(b'9', 1 + rng.below(400)).collect();
            let tail = bytes.split_off(at);
            bytes.extend_from_slice(&digits);
            bytes.extend_from_slice(&tail);
        }
        _ => {
            let deep = 1 + rng.below(300);
            let tail = bytes.split_off(at);
            bytes.extend(std::iter::repeat_n(b'[', deep));
            bytes.extend_from_slice(&tail);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_line_check_refuses_two_lines_and_positions_outside_the_text() {
        let text = b"{\n}\n";
        assert!(check_error_line("case.json: dt (line 2, column 1): bad", text).is_ok());
        assert!(check_error_line("case.json: dt (line 9, column 1): bad", text).is_err());
        assert!(check_error_line("case.json: dt (line 1, column 1): a\nb", text).is_err());
        assert!(check_error_line("other.json: dt (line 1, column 1): bad", text).is_err());
        assert!(check_error_line("case.json: (line 1, column 1): bad", text).is_err());
    }

    #[test]
    fn the_same_seed_and_case_give_the_same_bytes() {
        let seeds = vec![(
            "s".to_string(),
            serde_json::json!({"version": 1, "paths": [{"id": "p", "points": [[0, 0], [1, 1]]}]}),
        )];
        for case in 0..50 {
            assert_eq!(make_case(7, case, &seeds), make_case(7, case, &seeds));
        }
        let distinct: std::collections::HashSet<Vec<u8>> =
            (0..50).map(|case| make_case(7, case, &seeds)).collect();
        assert!(distinct.len() > 30, "{}", distinct.len());
    }
}
