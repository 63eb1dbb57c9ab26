//! Big pathological scene files load in bounded memory: the built binary runs `steerlab run FILE
//! --seconds 0` on files of 80–120 MB under an address-space limit of 1 GiB (`ulimit -v`), and
//! each is refused with one located line (status 2, no signal), or loads (status 0) for a valid
//! scene near the limits. The loader that parsed the whole text into a `serde_json::Value` first
//! aborted on every one of them under this limit ("memory allocation of N bytes failed", signal
//! 6): it took about 44 times the file's size (10.5 GB resident for a 240 MB file of `[0]`
//! points), and 1.4 GB for the valid scene.
//!
//! The files are written one at a time (a lock) and removed after each case.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;

use steerlab::scene::{MAX_AGENTS, MAX_BEHAVIOURS, MAX_POINTS, MAX_WAYPOINTS};

use crate::scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_steerlab");

/// The address-space limit of the runs, in KiB (1 GiB).
const LIMIT_KIB: u64 = 1024 * 1024;

/// One big file on disk at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Writes `head`, `count` copies of `item` joined by commas, then `tail`; returns the byte
/// offset where the items start.
fn write_repeated(path: &Path, head: &str, item: &str, count: usize, tail: &str) -> usize {
    let mut out = BufWriter::with_capacity(1 << 20, fs::File::create(path).unwrap());
    out.write_all(head.as_bytes()).unwrap();
    let joined = format!(",{item}");
    for idx in 0..count {
        let text = if idx == 0 { item } else { &joined };
        out.write_all(text.as_bytes()).unwrap();
    }
    out.write_all(tail.as_bytes()).unwrap();
    out.flush().unwrap();
    head.len()
}

/// Status code and standard error of `steerlab run FILE --seconds 0` under the limit; standard
/// output is counted in lines.
fn run_limited(file: &Path) -> (Option<i32>, String, usize) {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(["run", &file.display().to_string(), "--seconds", "0"])
        // Each thread's malloc arena reserves 64 MB of address space (not memory): on a machine
        // of many cores rayon's threads alone would use up the limit. Two threads and two
        // arenas keep the limit about the loader, whatever the machine.
        .env("RAYON_NUM_THREADS", "2")
        .env("MALLOC_ARENA_MAX", "2")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout_lines = String::from_utf8_lossy(&output.stdout).lines().count();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned(), stdout_lines)
}

/// Runs the file under the limit and checks that it is refused with exactly `expected` (the
/// line after `error: FILE: `).
fn assert_refused(file: &Path, expected: &str) {
    let (code, stderr, _) = run_limited(file);
    let line = format!("error: {}: {expected}\n", file.display());
    assert_eq!((code, stderr.as_str()), (Some(2), line.as_str()), "{}", file.display());
}

#[test]
fn a_file_of_one_number_points_is_refused_at_the_first_point() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("memory-ones");
    let file = dir.path("ones.json");
    // 100 MB: 25 million `[0]`.
    let start =
        write_repeated(&file, r#"{"version":2,"paths":[{"id":"p","points":["#, "[0]", 25_000_000, "]}]}");
    assert_refused(
        &file,
        &format!(
            "paths[0].points[0] (line 1, column {}): expected [x, y] or [x, y, z], got 1 number",
            start + 1
        ),
    );
}

#[test]
fn a_path_past_the_point_limit_is_refused_at_its_points() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("memory-path");
    let file = dir.path("path.json");
    // 120 MB: 20 million `[0,0]`, four times the limit.
    let head = r#"{"version":2,"paths":[{"id":"p","points":"#;
    write_repeated(&file, &format!("{head}["), "[0,0]", 4 * MAX_POINTS, "]}]}");
    assert_refused(
        &file,
        &format!(
            "paths[0].points (line 1, column {}): too many points: the scene's paths, splines and planner waypoints hold at most {MAX_POINTS} in all",
            head.len() + 1
        ),
    );
}

#[test]
fn a_spline_past_the_point_limit_is_refused_whether_its_kind_comes_first_or_last() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("memory-spline");
    let agent = r#"{"position":[0,0],"behaviours":[{"type":"parametric","curve":"s"}]}"#;
    let too_many = format!(
        "too many points: the scene's paths, splines and planner waypoints hold at most {MAX_POINTS} in all"
    );
    for (name, head, tail) in [
        ("kind-first.json", r#"{"version":2,"curves":[{"kind":"spline","id":"s","points":"#, "]}]"),
        ("kind-last.json", r#"{"version":2,"curves":[{"points":"#, r#"],"kind":"spline","id":"s"}]"#),
    ] {
        let file = dir.path(name);
        let tail = format!(r#"{tail},"agents":[{agent}]}}"#);
        write_repeated(&file, &format!("{head}["), "[1,2]", 4 * MAX_POINTS, &tail);
        assert_refused(&file, &format!("curves[0].points (line 1, column {}): {too_many}", head.len() + 1));
        fs::remove_file(&file).unwrap();
    }
}

#[test]
fn a_ship_of_millions_of_waypoints_and_a_list_of_millions_of_behaviours_are_refused_at_the_first_past() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("memory-lists");
    // 120 MB: 20 million waypoints on one ship (it loaded before, and ran 2 s in minutes).
    let file = dir.path("waypoints.json");
    let head = r#"{"version":2,"agents":[{"position":[0,0],"behaviours":[{"type":"planner","waypoints":"#;
    write_repeated(&file, &format!("{head}["), "[0,0]", 20_000_000, "]}]}]}");
    assert_refused(
        &file,
        &format!(
            "agents[0].behaviours[0].waypoints (line 1, column {}): too many waypoints: a planner ship holds at most {MAX_WAYPOINTS}",
            head.len() + 1
        ),
    );
    fs::remove_file(&file).unwrap();
    // 108 MB: 6 million entries in one agent's list.
    let file = dir.path("behaviours.json");
    let head = r#"{"version":2,"agents":[{"position":[0,0],"behaviours":"#;
    write_repeated(&file, &format!("{head}["), r#"{"type":"wander"}"#, 6_000_000, "]}]}");
    assert_refused(
        &file,
        &format!(
            "agents[0].behaviours (line 1, column {}): too many behaviours: an agent's list holds at most {MAX_BEHAVIOURS}",
            head.len() + 1
        ),
    );
}

#[test]
fn agents_past_the_limit_are_counted_not_built() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("memory-agents");
    let file = dir.path("agents.json");
    // 114 MB: 6 million agents, sixty times the limit.
    let head = r#"{"version":2,"agents":"#;
    write_repeated(&file, &format!("{head}["), r#"{"position":[0,0]}"#, 6_000_000, "]}");
    assert_refused(
        &file,
        &format!(
            "agents (line 1, column {}): too many agents: 6000000, at most {MAX_AGENTS}",
            head.len() + 1
        ),
    );
    // `{}` is not an agent (it has no position): refused at the first.
    let head = r#"{"version":2,"agents":["#;
    write_repeated(&file, head, "{}", 40_000_000, "]}");
    assert_refused(
        &file,
        &format!("agents[0] (line 1, column {}): missing field `position`", head.len() + 1),
    );
}

#[test]
fn an_unknown_field_holding_a_huge_array_is_refused_at_its_key() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("memory-unknown");
    let file = dir.path("unknown.json");
    // 100 MB: 50 million zeros, at the root.
    write_repeated(&file, r#"{"version":2,"junk":["#, "0", 50_000_000, "]}");
    assert_refused(
        &file,
        "junk (line 1, column 14): unknown field `junk`, expected one of `version`, `name`, `description`, \
         `dt`, `bounds`, `avoidance`, `paths`, `curves`, `fields`, `targets`, `obstacles`, `agents`",
    );
    // And in a curve, before its kind (where the fields before the tag are held).
    let head = r#"{"version":2,"curves":[{"junk":["#;
    write_repeated(&file, head, "0", 50_000_000, r#"],"kind":"circle","id":"c","radius":5}]}"#);
    assert_refused(
        &file,
        "curves[0].junk (line 1, column 25): unknown field `junk`, expected one of `id`, `center`, `radius`",
    );
}

#[test]
fn a_valid_scene_near_the_limits_loads_under_the_same_limit() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("memory-valid");
    let file = dir.path("big.json");
    // 79 MB: a path of 4,000,000 points, a spline of 900,000 (4.9 million of the 5 million in all)
    // and 100,000 agents seeking a target.
    let mut out = BufWriter::with_capacity(1 << 20, fs::File::create(&file).unwrap());
    write!(out, r#"{{"version":2,"name":"big","paths":[{{"id":"p","points":["#).unwrap();
    for i in 0..4_000_000u32 {
        let sep = if i == 0 { "" } else { "," };
        write!(out, "{sep}[{}.{},{}.5]", i % 9000, i % 10, (i * 7) % 5000).unwrap();
    }
    write!(out, r#"]}}],"curves":[{{"kind":"spline","id":"s","points":["#).unwrap();
    for i in 0..900_000u32 {
        let sep = if i == 0 { "" } else { "," };
        write!(out, "{sep}[{}.25,{}]", i % 7000, (i * 3) % 4000).unwrap();
    }
    write!(out, r#"]}}],"targets":[{{"id":"t","position":[0,0]}}],"agents":["#).unwrap();
    for i in 0..MAX_AGENTS {
        let sep = if i == 0 { "" } else { "," };
        let (x, y) = (i % 1000, i / 1000);
        write!(out, r#"{sep}{{"position":[{x},{y}],"behaviours":[{{"type":"seek","target":"t"}}]}}"#)
            .unwrap();
    }
    write!(out, "]}}").unwrap();
    out.flush().unwrap();
    drop(out);
    let (code, stderr, stdout_lines) = run_limited(&file);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    // A header line and one line per agent.
    assert!(stdout_lines > MAX_AGENTS, "{stdout_lines} lines");
}
