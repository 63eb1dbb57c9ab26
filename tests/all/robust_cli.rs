//! The command line under hostile conditions: a reader that goes away, a full disk, a trace
//! aimed at the scene, a missing file, a FIFO, steps beyond the limit, no display, and names
//! that hold line breaks. Each runs the built binary and checks status and standard error.

use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_steerlab");
const SCENE: &str = "scenes/compare.json";

/// Status code and standard error of `steerlab ARGS`.
fn steerlab(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

fn assert_one_error_line(stderr: &str, expected: &str) {
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(stderr.starts_with("error: "), "{stderr:?}");
    assert!(stderr.contains(expected), "expected `{expected}` in {stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr:?}");
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    // `bench` writes as it measures: its first line already meets the closed pipe.
    for args in [
        vec!["run", SCENE, "--json"],
        vec!["run", SCENE],
        vec!["bench", "--quick"],
        vec!["bench", "--flock", "--quick"],
    ] {
        let mut child =
            Command::new(BIN).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        // Close the reading end at once, as `| head -0` would.
        drop(child.stdout.take());
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn output_onto_a_full_disk_is_one_line_and_status_1() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let output = Command::new(BIN).args(["run", SCENE]).stdout(full).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_one_error_line(&stderr, "cannot write to standard output: the disk is full");
}

#[test]
fn trace_onto_the_scene_being_run_is_refused_and_the_scene_survives() {
    let scratch = Scratch::new("robust-cli-trace-self");
    let original = fs::read_to_string(SCENE).unwrap();
    // Under a .json name and under another name (same file reached by two spellings).
    let copy = scratch.path("copy.json");
    fs::write(&copy, &original).unwrap();
    let copy_text = copy.to_str().unwrap();
    let (code, stderr) = steerlab(&["run", copy_text, "--seconds", "1", "--trace", copy_text]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "refusing");
    let plain = scratch.path("scene.data");
    fs::write(&plain, &original).unwrap();
    let dotted = scratch.join(".").join("scene.data");
    let (code, stderr) =
        steerlab(&["run", plain.to_str().unwrap(), "--seconds", "1", "--trace", dotted.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "that is the scene being run");
    assert_eq!(fs::read_to_string(&copy).unwrap(), original);
    assert_eq!(fs::read_to_string(&plain).unwrap(), original);
}

#[test]
fn trace_onto_another_existing_scene_is_refused() {
    let scratch = Scratch::new("robust-cli-trace-other");
    let other = scratch.path("other.txt");
    fs::write(&other, "  {\"version\": 1}").unwrap();
    let (code, stderr) = steerlab(&["run", SCENE, "--seconds", "1", "--trace", other.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "holds JSON");
    assert_eq!(fs::read_to_string(&other).unwrap(), "  {\"version\": 1}");
}

#[test]
fn trace_is_written_whole_with_no_temporary_left() {
    let scratch = Scratch::new("robust-cli-trace-ok");
    let trace = scratch.path("trace.csv");
    fs::write(&trace, "old,csv\n").unwrap();
    let (code, stderr) = steerlab(&["run", SCENE, "--seconds", "0.5", "--trace", trace.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    let text = fs::read_to_string(&trace).unwrap();
    assert!(text.starts_with("t,agent,x,y,z,vx,vy,vz,orientation\n"));
    assert_eq!(scratch.names(), vec!["trace.csv".to_string()]);
}

#[test]
fn missing_file_says_cannot_open_no_such_file() {
    let (code, stderr) = steerlab(&["run", "no/such/scene.json"]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "error: cannot open no/such/scene.json: no such file\n");
}

#[test]
fn a_fifo_as_the_scene_is_refused_without_blocking() {
    let scratch = Scratch::new("robust-cli-fifo");
    let fifo = scratch.path("scene.json");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let (code, stderr) = steerlab(&["run", fifo.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "not a regular file");
}

#[test]
fn tiny_dt_and_too_many_steps_are_refused_before_running() {
    let scratch = Scratch::new("robust-cli-steps");
    let tiny = scratch.path("tiny.json");
    fs::write(&tiny, r#"{"version":1,"dt":1e-40}"#).unwrap();
    let (code, stderr) = steerlab(&["run", tiny.to_str().unwrap(), "--seconds", "1"]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "`dt` must be from 0.0001 to 0.1 seconds");
    let small = scratch.path("small.json");
    fs::write(&small, r#"{"version":1,"dt":0.0001}"#).unwrap();
    let (code, stderr) = steerlab(&["run", small.to_str().unwrap(), "--seconds", "1000001"]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "--seconds");
    let (code, stderr) = steerlab(&["run", small.to_str().unwrap(), "--seconds", "2000"]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "steps; at most 10000000");
}

#[test]
fn window_commands_without_a_display_say_so_in_one_line() {
    for args in [vec![], vec!["shot", SCENE, "--out", "/tmp/steerlab-never.png"], vec!["frames"]] {
        let output = Command::new(BIN)
            .args(&args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_one_error_line(&stderr, "needs a display");
        assert!(stderr.contains("xvfb-run"), "{stderr}");
    }
    let output = Command::new(BIN).env("DISPLAY", ":987").env_remove("WAYLAND_DISPLAY").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_one_error_line(&stderr, "cannot connect to the display :987");
}

#[test]
fn names_with_line_breaks_stay_on_one_line() {
    let scratch = Scratch::new("robust-cli-escape");
    let file = scratch.path("bad\nname\t.json");
    fs::write(&file, "{\"version\":1,\"targets\":[{\"id\":\"a\\nb\",\"position\":[0,0]}],\"agents\":[{\"position\":[0,0],\"behaviour\":{\"type\":\"seek\",\"target\":\"x\\ty\"}}]}").unwrap();
    let (code, stderr) = steerlab(&["run", file.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert_one_error_line(&stderr, "bad\\nname\\t.json: agents[0].behaviour.target");
    assert!(stderr.contains("`x\\ty`") && stderr.contains("`a\\nb`"), "{stderr}");
}

#[test]
fn a_tcp_display_that_does_not_answer_is_one_line_not_a_panic() {
    // Nothing listens on port 6099 (display 99) of the loopback; 10.255.255.1 is a black hole
    // (or unreachable): both end in one line and status 2 (after at most the connect timeout).
    for display in ["127.0.0.1:99", "127.0.0.1:99.0", "10.255.255.1:0", "[::1]:98", "nonsense"] {
        for args in [vec![], vec!["shot", SCENE, "--out", "/tmp/steerlab-never.png"], vec!["frames"]] {
            let output = Command::new(BIN)
                .args(&args)
                .env("DISPLAY", display)
                .env_remove("WAYLAND_DISPLAY")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{display} {args:?}: {stderr}");
            assert_one_error_line(&stderr, &format!("cannot connect to the display {display}"));
            assert!(stderr.contains("xvfb-run"), "{stderr}");
        }
    }
}

#[test]
fn frames_on_a_broken_scene_is_one_located_line_before_any_window() {
    let scratch = Scratch::new("robust-cli-frames-scene");
    let file = scratch.path("broken.json");
    fs::write(
        &file,
        r#"{"version":1,"agents":[{"position":[0,0],"behaviour":{"type":"seek","target":"flag"}}]}"#,
    )
    .unwrap();
    let run = |args: &[&str]| {
        let output = Command::new(BIN)
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).to_string())
    };
    let (code, stderr) = run(&["frames", "--scene", file.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_one_error_line(&stderr, "agents[0].behaviour.target");
    // A scene is measured as it is: --agents (the compare track's crowd) does not go with it.
    let (code, stderr) = run(&["frames", "--scene", SCENE, "--agents", "10"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    // A good scene gets as far as the display check.
    let (code, stderr) = run(&["frames", "--scene", SCENE]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_one_error_line(&stderr, "needs a display");
}

/// `steerlab shot SCENE --out OUT` without a display: status and standard error.
fn shot_without_display(out: &std::ffi::OsStr) -> (Option<i32>, String) {
    let output = Command::new(BIN)
        .args(["shot", SCENE, "--out"])
        .arg(out)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn shot_out_that_is_not_a_png_file_is_one_line_before_any_window() {
    // These used to reach macroquad's `export_png` and panic (status 101) after a 0-byte file.
    let scratch = Scratch::new("robust-cli-shot-out");
    fs::create_dir(scratch.path("adir")).unwrap();
    fs::create_dir(scratch.path("adir.png")).unwrap();
    let at = |name: &str| scratch.path(name).into_os_string();
    let cases: Vec<(std::ffi::OsString, &str)> = vec![
        (at("pic.jpg"), "the name must end in .png"),
        (at("pic"), "the name must end in .png"),
        (at("x.json"), "the name must end in .png"),
        (at("adir"), "the name must end in .png"),
        ("/dev/null".into(), "the name must end in .png"),
        ("/dev/full".into(), "the name must end in .png"),
        (at("adir.png"), "adir.png: it is a directory"),
        (at("no/such/pic.png"), "no such directory"),
        (at("slash.png/"), "does not name a file"),
    ];
    for (out, expected) in &cases {
        let (code, stderr) = shot_without_display(out);
        assert_eq!(code, Some(2), "{out:?}: {stderr}");
        assert_one_error_line(&stderr, expected);
        assert!(stderr.contains("--out"), "{stderr}");
    }
    #[cfg(unix)]
    {
        let fifo = scratch.path("fifo.png");
        if Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
            let (code, stderr) = shot_without_display(fifo.as_os_str());
            assert_eq!(code, Some(2), "{stderr}");
            assert_one_error_line(&stderr, "fifo.png: not a regular file");
        }
    }
    // Nothing was created or left behind.
    let mut expected = vec!["adir", "adir.png"];
    if scratch.path("fifo.png").exists() {
        expected.push("fifo.png");
    }
    assert_eq!(scratch.names(), expected);
}

#[test]
fn shot_writes_its_png_whole_under_the_exact_name_given() {
    // A name that is not UTF-8 used to be written under its lossy spelling (`n\u{fffd}.png`).
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        if !crate::e2e_window::have("xvfb-run") {
            if std::env::var("STEERLAB_E2E").is_ok_and(|v| v == "1") {
                panic!("STEERLAB_E2E=1 but xvfb-run is not installed");
            }
            eprintln!("shot_writes_its_png_whole_under_the_exact_name_given: skipped (no xvfb-run)");
            return;
        }
        let _serial = crate::e2e_window::serial();
        let scratch = Scratch::new("robust-cli-shot-png");
        let out = scratch.join(std::ffi::OsStr::from_bytes(b"n\xff.png"));
        fs::write(&out, "old").unwrap();
        let output = Command::new("xvfb-run")
            .args([
                "-a",
                "-s",
                "-screen 0 1280x800x24",
                BIN,
                "shot",
                "scenes/arrive.json",
                "--seconds",
                "0.1",
                "--out",
            ])
            .arg(&out)
            .env("STEERLAB_CONFIG_DIR", scratch.path("config"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let png = fs::read(&out).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG: {} bytes", png.len());
        let names: Vec<Vec<u8>> =
            fs::read_dir(&*scratch).unwrap().map(|e| e.unwrap().file_name().as_bytes().to_vec()).collect();
        assert!(names.contains(&b"n\xff.png".to_vec()), "{names:?}");
        assert!(
            !names.iter().any(|n| n.ends_with(b".tmp") || n.starts_with("n\u{fffd}".as_bytes())),
            "{names:?}"
        );
    }
}

/// A scene whose name and agent names hold control characters, a comma and a quote.
const CONTROL_NAMES: &str = r#"{"version": 2, "name": "N\nA\u001bM", "agents": [
  {"name": "line\nbreak", "position": [0, 0], "behaviours": [{"type": "wander"}]},
  {"name": "cr\rx", "position": [10, 0], "behaviours": [{"type": "wander"}]},
  {"name": "esc\u001b[31mred", "position": [20, 0], "behaviours": [{"type": "wander"}]},
  {"name": "nul\u0000", "position": [30, 0], "behaviours": [{"type": "wander"}]},
  {"name": "comma,\"q\"", "position": [40, 0], "behaviours": [{"type": "wander"}]},
  {"name": "rtl\u202eevil\u200bzw", "position": [50, 0], "behaviours": [{"type": "wander"}]}]}"#;

#[test]
fn names_with_control_characters_are_escaped_in_the_table_and_quoted_in_the_trace() {
    let scratch = Scratch::new("robust-cli-control-names");
    let scene = scratch.path("names.json");
    fs::write(&scene, CONTROL_NAMES).unwrap();
    let trace = scratch.path("names.csv");
    let output = Command::new(BIN)
        .args(["run", scene.to_str().unwrap(), "--seconds", "0.1", "--trace", trace.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let table = String::from_utf8(output.stdout).unwrap();
    // The title, the header and one line per agent; no control character but the line ends.
    assert_eq!(table.lines().count(), 2 + 6, "{table}");
    assert!(!table.chars().any(|c| c.is_control() && c != '\n'), "{table:?}");
    // A right-to-left override would show the rest of its line reversed; a zero-width space
    // would hide itself.
    assert!(!table.chars().any(steerlab::scene::is_hidden_format), "{table:?}");
    assert!(table.starts_with("N\\nA\\u{1b}M — 6 agents"), "{table}");
    for name in [
        "line\\nbreak",
        "cr\\rx",
        "esc\\u{1b}[31mred",
        "nul\\u{0}",
        "comma,\"q\"",
        "rtl\\u{202e}evil\\u{200b}zw",
    ] {
        assert!(table.lines().any(|l| l.starts_with(name)), "{name} in {table}");
    }
    // The trace keeps names as they are, quoted where RFC 4180 asks: CR, LF, comma, quote.
    let csv = fs::read_to_string(&trace).unwrap();
    for row in [
        "0.000000,\"line\nbreak\",0,",
        "0.000000,\"cr\rx\",10,",
        "0.000000,esc\u{1b}[31mred,20,",
        "0.000000,nul\u{0},30,",
        "0.000000,\"comma,\"\"q\"\"\",40,",
    ] {
        assert!(csv.contains(row), "{row:?} in {csv:?}");
    }
    // JSON escapes them as JSON does.
    let output = Command::new(BIN)
        .args(["run", scene.to_str().unwrap(), "--seconds", "0.1", "--json"])
        .output()
        .unwrap();
    let json = String::from_utf8(output.stdout).unwrap();
    assert!(!json.chars().any(|c| c.is_control() && c != '\n'), "{json:?}");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value[1]["name"], "cr\rx");
    assert_eq!(value[3]["name"], "nul\u{0}");
}

#[test]
fn bench_planner_refuses_the_options_it_would_ignore() {
    // `--flock --planner` used to run the flock part alone and say nothing of the planner.
    for other in ["--flock", "--full", "--yuka=/tmp"] {
        let (code, stderr) = steerlab(&["bench", "--quick", "--planner", other]);
        assert_eq!(code, Some(2), "{other}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains("cannot be used with"), "{stderr}");
    }
}

/// `steerlab bench --quick --flock --yuka DIR` with `sh` as the peer's Node, killed (and the
/// test failed) if it has not ended after a minute: status and standard output.
fn bench_with_peer(dir: &Path, timeout_seconds: &str) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(["bench", "--quick", "--flock", "--yuka"])
        .arg(dir)
        .env("STEERLAB_NODE", "sh")
        .env("STEERLAB_PEER_TIMEOUT", timeout_seconds)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("bench --yuka {} hangs", dir.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    (child.wait().unwrap().code(), reader.join().unwrap())
}

#[test]
fn bench_yuka_stops_a_script_that_never_ends_and_escapes_what_it_echoes() {
    let scratch = Scratch::new("robust-cli-yuka");
    let endless = scratch.path("endless");
    fs::create_dir(&endless).unwrap();
    fs::write(endless.join("flock.mjs"), "exec sleep 1000\n").unwrap();
    fs::write(endless.join("bench.mjs"), "exec sleep 1000\n").unwrap();
    let (code, stdout) = bench_with_peer(&endless, "1");
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("flock.mjs 1000 20 10 0.01` in "), "{stdout}");
    assert!(stdout.contains("was still running after 1 s and was stopped"), "{stdout}");

    let noisy = scratch.path("noisy");
    fs::create_dir(&noisy).unwrap();
    fs::write(noisy.join("flock.mjs"), "printf 'a\\033[31mred\\rover\\nline2\\n'\n").unwrap();
    fs::write(noisy.join("bench.mjs"), "\n").unwrap();
    let (code, stdout) = bench_with_peer(&noisy, "60");
    assert_eq!(code, Some(0), "{stdout}");
    assert!(!stdout.chars().any(|c| c.is_control() && c != '\n'), "{stdout:?}");
    assert!(stdout.contains("printed no `… ns/agent-step`: a\\u{1b}[31mred\\rover\\nline2)"), "{stdout}");
}

#[test]
fn odd_arguments_of_every_command_are_one_line_and_status_2() {
    // Clap's own refusals were five lines (usage and tips); `--seconds -1` was "unexpected
    // argument '-1'" with a tip to write `-- -1`, which makes -1 the scene; `--seconds 1e300`
    // printed 301 digits.
    let cases: &[(&[&str], &str)] = &[
        (&["run", SCENE, "--bogus"], "unexpected argument '--bogus' found; see `steerlab run --help`"),
        (&["run", SCENE, "--seconds", "1", "--seconds", "2"], "cannot be used multiple times"),
        (&["run"], "the following required arguments were not provided: <SCENE>; see `steerlab run --help`"),
        (&["run", SCENE, "--seconds", "-1"], "--seconds must be between 0 and 1000000, got -1"),
        (&["run", SCENE, "--seconds", "1e300"], "--seconds must be between 0 and 1000000, got 1e300"),
        (&["run", SCENE, "--seconds", "NaN"], "--seconds must be between 0 and 1000000, got NaN"),
        (&["run", SCENE, "--seconds=-inf"], "got -inf"),
        // Clap gives no usage line for a bad value: the command is found among the arguments.
        (
            &["run", SCENE, "--seconds", "abc"],
            "invalid value 'abc' for '--seconds <SECONDS>': invalid float literal; see `steerlab run --help`",
        ),
        (&["bench", "--threads", "x"], "see `steerlab bench --help`"),
        (&["run", SCENE, "--threads", "0"], "--threads must be 1–256, got 0"),
        (&["run", SCENE, "--threads", "-1"], "unexpected argument '-1' found"),
        (&["run", "/"], "cannot open /: it is a directory"),
        (&["run", SCENE, "--seconds", "0", "--trace", "/"], "--trace /: not a regular file"),
        (
            &["shot", SCENE, "--out", "x.png", "--seconds", "-5"],
            "--seconds must be between 0 and 3600, got -5",
        ),
        (&["shot", SCENE, "--out", "x.png", "--size", "0x0"], "--size must be WIDTHxHEIGHT"),
        (&["shot", SCENE, "--out", "x.png", "--size", "99999x99999"], "--size must be WIDTHxHEIGHT"),
        (
            &["shot", SCENE, "--out", "x.png", "--step-through", "0"],
            "--step-through counts iterations from 1",
        ),
        (
            &["shot", SCENE, "--out", "x.png", "--ui-scale", "7"],
            "--ui-scale must be between 0.5 and 3, got 7",
        ),
        (
            &["shot", SCENE, "--out", "x.png", "--ui-scale", "NaN"],
            "--ui-scale must be between 0.5 and 3, got NaN",
        ),
        (
            &["shot", SCENE, "--out", "x.png", "--ui-scale", "-1"],
            "--ui-scale must be between 0.5 and 3, got -1",
        ),
        (&["frames", "--frames", "0"], "--agents must be 1–1000000 and --frames 1–100000"),
        (&["frames", "--ui-scale", "0.2"], "--ui-scale must be between 0.5 and 3, got 0.2"),
        (&["frames", "--agents", "5", "--scene", SCENE], "cannot be used with"),
        (&["bench", "--threads", "0"], "--threads must be 1–256, got 0"),
        (&["fuzz", "--cases", "-1"], "see `steerlab fuzz --help`"),
        (&["fuzz", "--scenes", SCENE], "not a directory"),
        (&["--bogus"], "unexpected argument '--bogus' found; see `steerlab --help`"),
    ];
    for (args, expected) in cases {
        let (code, stderr) = steerlab(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_one_error_line(&stderr, expected);
    }
    // Help and version are still clap's, on standard output, status 0.
    let output = Command::new(BIN).args(["run", "--help"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("Usage: steerlab run"));
    assert_eq!(Command::new(BIN).arg("--version").output().unwrap().status.code(), Some(0));
}
