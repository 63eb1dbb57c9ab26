//! A short run of steerlab's own fuzzer (`src/fuzz.rs`) as a test: mutations of the shipped
//! scenes are refused with one located line or run with finite metrics, in process and through
//! the binary. CI runs a longer one (`.ci/run`); the long run's figure is in the README.

use std::path::Path;

use steerlab::fuzz::{fuzz, make_case, seed_scenes, FuzzConfig, MAX_STEPS};

#[test]
fn mutated_shipped_scenes_are_refused_in_one_line_or_run_finite() {
    let seeds = seed_scenes(Path::new("scenes")).unwrap();
    let config = FuzzConfig {
        cases: 400,
        seed: 20261123,
        steps: 60,
        process_every: 40,
        binary: Some(env!("CARGO_BIN_EXE_steerlab").into()),
        ..Default::default()
    };
    let report = fuzz(&config, &seeds, |_| {});
    let failures: Vec<String> =
        report.failures.iter().map(|f| format!("case {}: {}", f.case, f.problem)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(report.cases, 400);
    assert_eq!(report.process_cases, 10);
    // Both outcomes occur: the mutations neither always break nor never break a scene.
    assert!(report.accepted >= 20 && report.refused >= 100, "{report:?}");
}

#[test]
fn fuzz_cases_are_reproducible_from_seed_and_number() {
    let seeds = seed_scenes(Path::new("scenes")).unwrap();
    for case in [0, 17, 999_999] {
        assert_eq!(make_case(5, case, &seeds), make_case(5, case, &seeds));
    }
    assert_ne!(make_case(5, 1, &seeds), make_case(6, 1, &seeds));
}

#[test]
fn a_case_whose_json_report_outgrows_the_pipe_is_read_while_it_runs_not_taken_for_a_hang() {
    // The 1,024-boid scene's `run --json` is far bigger than a pipe's buffer: a checker that only
    // waits for the exit would leave the child blocked on writing and call it a hang.
    let seeds: Vec<_> = seed_scenes(Path::new("scenes"))
        .unwrap()
        .into_iter()
        .filter(|(name, _)| name.ends_with("flock.json"))
        .collect();
    assert_eq!(seeds.len(), 1);
    let config = FuzzConfig {
        cases: 8,
        seed: 1,
        steps: 30,
        process_every: 1,
        binary: Some(env!("CARGO_BIN_EXE_steerlab").into()),
        ..Default::default()
    };
    let report = fuzz(&config, &seeds, |_| {});
    let failures: Vec<String> =
        report.failures.iter().map(|f| format!("case {}: {}", f.case, f.problem)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(report.accepted >= 1, "at least one big case ran through the binary: {report:?}");
}

#[test]
fn a_fuzz_run_through_the_binary_leaves_nothing_in_the_temporary_directory() {
    // `steerlab fuzz` as a user runs it, its temporary directory one of the test's own: the
    // cases it wrote for the binary are gone when it ends.
    let tmp = crate::scratch::Scratch::new("fuzz-tmpdir");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["fuzz", "--cases", "6", "--steps", "10", "--process-every", "2"])
        .env("TMPDIR", &*tmp)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("6 cases"), "{stdout}");
    assert!(tmp.names().is_empty(), "left behind: {:?}", tmp.names());
}

/// `steerlab fuzz --cases 1 --scenes DIR` with a time limit: status and standard error.
fn fuzz_on_seeds(dir: &Path) -> (Option<i32>, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["fuzz", "--cases", "1", "--process-every", "0", "--scenes"])
        .arg(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fuzz --scenes {} hangs", dir.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn seed_scenes_that_are_fifos_devices_or_broken_are_refused_in_the_loaders_words() {
    // A FIFO among the seeds used to block the fuzzer for ever, and a link to /dev/zero to eat
    // memory without end; the errors were not the product's one-line format either.
    let scratch = crate::scratch::Scratch::new("fuzz-seeds");
    let dir = |name: &str| {
        let dir = scratch.path(name);
        std::fs::create_dir(&dir).unwrap();
        dir
    };
    let mut cases: Vec<(std::path::PathBuf, &str)> = Vec::new();
    #[cfg(unix)]
    {
        let fifo = dir("fifo");
        if std::process::Command::new("mkfifo")
            .arg(fifo.join("pipe.json"))
            .status()
            .is_ok_and(|s| s.success())
        {
            cases.push((fifo, "pipe.json: not a regular file"));
        }
        let zero = dir("zero");
        std::os::unix::fs::symlink("/dev/zero", zero.join("zero.json")).unwrap();
        cases.push((zero, "zero.json: not a regular file"));
    }
    let folder = dir("folder");
    std::fs::create_dir(folder.join("sub.json")).unwrap();
    cases.push((folder, "sub.json: it is a directory"));
    let broken = dir("broken");
    std::fs::write(broken.join("a.json"), "{\"version\": 2,\n  \"agents\": [}").unwrap();
    cases.push((broken, "a.json: agents[0] (line 2, column 14): expected a JSON value"));
    let empty = dir("empty");
    std::fs::write(empty.join("e.json"), "").unwrap();
    cases.push((empty, "e.json: $ (line 1, column 1): the file is empty"));
    let nothing = dir("nothing");
    cases.push((nothing, "no .json scenes in"));
    cases.push((scratch.path("missing"), "cannot read "));
    for (seeds, expected) in &cases {
        let (code, stderr) = fuzz_on_seeds(seeds);
        assert_eq!(code, Some(2), "{}: {stderr}", seeds.display());
        assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(expected),
            "expected `{expected}`: {stderr:?}"
        );
        assert!(!stderr.contains("os error") && !stderr.contains("panicked"), "{stderr:?}");
    }
}

#[test]
fn case_numbers_past_the_last_u64_are_refused_not_run_short() {
    // `--cases 5 --first 18446744073709551615` used to run no case at all, with status 0.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["fuzz", "--cases", "5", "--first", "18446744073709551615", "--process-every", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: --first 18446744073709551615 with --cases 5 numbers cases past 18446744073709551615; \
         at most 1 from there\n"
    );
    // The very last case can still be run on its own.
    let seeds = seed_scenes(Path::new("scenes")).unwrap();
    let last = FuzzConfig { cases: 1, first: u64::MAX, steps: 5, ..Default::default() };
    assert_eq!(last.problem(), None);
    assert_eq!(fuzz(&last, &seeds, |_| {}).cases, 1);
    assert!(FuzzConfig { cases: 2, ..last }.problem().is_some());
}

#[test]
fn more_steps_a_case_than_the_limit_are_refused_not_run_for_hours() {
    // `--steps 4000000000` ran the first accepted case for hours.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["fuzz", "--cases", "5", "--steps", "4000000000", "--process-every", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr, format!("error: --steps must be at most {MAX_STEPS}, got 4000000000\n"));
    assert_eq!(FuzzConfig { steps: MAX_STEPS, ..Default::default() }.problem(), None);
}

#[test]
fn a_case_of_a_small_step_runs_as_many_steps_through_the_binary_as_in_process() {
    // A thousand seekers in steps of 0.0001 s: the binary was asked for `steps / 60` seconds,
    // 167 times the steps run in process, and the case was reported as a hang.
    let agents: Vec<serde_json::Value> = (0..1000)
        .map(|i| {
            serde_json::json!({"name": format!("a{i}"), "position": [i, 0],
                "behaviours": [{"type": "seek", "target": "t"}]})
        })
        .collect();
    let scene = serde_json::json!({"version": 2, "dt": 0.0001,
        "targets": [{"id": "t", "position": [0, 500]}], "agents": agents});
    let seeds = vec![("small-step.json".to_string(), scene)];
    let config = FuzzConfig {
        cases: 12,
        seed: 3,
        steps: 600,
        process_every: 1,
        binary: Some(env!("CARGO_BIN_EXE_steerlab").into()),
        timeout: std::time::Duration::from_secs(3),
        ..Default::default()
    };
    let report = fuzz(&config, &seeds, |_| {});
    let failures: Vec<String> =
        report.failures.iter().map(|f| format!("case {}: {}", f.case, f.problem)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(report.accepted >= 1, "{report:?}");
}
