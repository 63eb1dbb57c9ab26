//! The predictive-following kernel (`bench::PredictiveBench`, structure-of-arrays on all
//! cores) against the plain loop it replaced (`bench::predictive::step_plain`), bit for bit, on
//! any thread count.

use steerlab::behaviours::{Kinematics, PredictiveState};
use steerlab::bench::predictive::step_plain;
use steerlab::bench::PredictiveBench;

/// Every number of every agent as bits, so NaNs compare too and -0.0 differs from 0.0.
fn bits(agents: &[(Kinematics, PredictiveState)]) -> Vec<String> {
    agents
        .iter()
        .map(|(k, state)| {
            let numbers = [k.position.to_array(), k.velocity.to_array()].concat();
            let numbers: Vec<u32> = numbers.iter().chain([&k.orientation]).map(|x| x.to_bits()).collect();
            format!("{numbers:?} {state:?}")
        })
        .collect()
}

/// The kernel's crowd after `steps` steps on a pool of `threads` threads.
fn kernel_after(threads: usize, segments: usize, steps: usize, observe_ahead: bool) -> Vec<String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
    pool.install(|| {
        let mut crowd = PredictiveBench::new(3_000, segments, observe_ahead);
        for _ in 0..steps {
            crowd.step();
        }
        bits(&crowd.agents())
    })
}

#[test]
fn the_predictive_kernel_moves_every_agent_as_the_plain_loop_bit_for_bit() {
    // The kernel steps four agents per instruction: 3,001 agents leave a group with one.
    for (segments, observe_ahead, n_agents) in
        [(32, true, 3_000), (1024, true, 3_000), (128, true, 3_001), (8, false, 3_000), (1024, false, 1_002)]
    {
        let mut crowd = PredictiveBench::new(n_agents, segments, observe_ahead);
        let mut plain = crowd.plain();
        assert_eq!(bits(&crowd.agents()), bits(&plain.agents));
        for step in 0..40 {
            crowd.step();
            step_plain(&mut plain);
            assert_eq!(bits(&crowd.agents()), bits(&plain.agents), "{segments} segments, step {step}");
        }
        // The agents went round some of the path, not nowhere.
        let moved = crowd
            .agents()
            .iter()
            .zip(PredictiveBench::new(n_agents, segments, true).agents())
            .all(|((now, _), (start, _))| now.position.distance(start.position) > 10.0);
        assert!(moved, "{segments} segments");
        assert_eq!(crowd.len(), n_agents);
    }
}

#[test]
fn the_predictive_kernel_splits_long_chunks_into_blocks_with_the_same_bits() {
    // 12,000 agents on one thread: chunks of 3,000 agents, longer than a block.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    pool.install(|| {
        let mut crowd = PredictiveBench::new(12_000, 32, true);
        let mut plain = crowd.plain();
        for step in 0..5 {
            crowd.step();
            step_plain(&mut plain);
            assert_eq!(bits(&crowd.agents()), bits(&plain.agents), "step {step}");
        }
    });
}

#[test]
fn the_predictive_kernel_gives_the_same_bits_on_one_thread_and_on_three_and_four() {
    // Chunks of 256 agents or more: 3,000 agents make several chunks on 3 and 4 threads.
    for segments in [32, 1024] {
        let one = kernel_after(1, segments, 60, true);
        assert_eq!(one, kernel_after(3, segments, 60, true), "{segments} segments");
        assert_eq!(one, kernel_after(4, segments, 60, true), "{segments} segments");
    }
}

#[test]
fn the_bench_report_gives_both_figures_on_one_thread_and_on_all_for_every_segment_count() {
    let mut out = Vec::new();
    let size = steerlab::bench::BenchSize { quick: true, full: false, threads: 2, peer: None };
    steerlab::bench::print_predictive(&mut out, size).expect("written to memory");
    let text = String::from_utf8(out).expect("text");
    assert!(
        text.contains("behaviour + integrate 1 thread") && text.contains("behaviour + integrate 2 threads")
    );
    for segments in [8, 32, 128, 1024] {
        let row = text.lines().find(|line| line.starts_with(&format!("{segments} segments")));
        let figures: Vec<f64> = row
            .unwrap_or_else(|| panic!("no row for {segments} segments in {text}"))
            .split_whitespace()
            .skip(2)
            .take(4)
            .map(|figure| figure.parse().expect("a number"))
            .collect();
        assert_eq!(figures.len(), 4, "{text}");
        assert!(figures.iter().all(|ns| ns.is_finite() && *ns > 0.0), "{text}");
    }
}

/// `steerlab bench --flock --yuka DIR` runs the peer's flock script beside each size, with the
/// benchmark's own set-up, and prints its figure, its neighbours and the ratio; a stand-in for
/// Node (`STEERLAB_NODE`) answers as `flock.mjs` does and records what it was asked.
#[test]
fn the_flock_bench_runs_yuka_beside_it_and_prints_the_ratio() {
    use std::os::unix::fs::PermissionsExt;
    let dir = crate::e2e_window::temp_dir("bench_yuka");
    for script in ["flock.mjs", "bench.mjs"] {
        std::fs::write(dir.join(script), "// stand-in\n").expect("script written");
    }
    let asked = dir.join("asked.txt");
    let node = dir.join("node.sh");
    std::fs::write(
        &node,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\necho \"yuka-flock N=$2 K=$3 R=$4 time=1.000s 20000.0 ns/agent-step neighbours=3.20 polarization=0.004\"\n",
            asked.display()
        ),
    )
    .expect("stand-in written");
    std::fs::set_permissions(&node, std::fs::Permissions::from_mode(0o755)).expect("executable");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["bench", "--flock", "--quick", "--threads", "2", "--yuka"])
        .arg(&dir)
        .env("STEERLAB_NODE", &node)
        .output()
        .expect("bench ran");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    // Once per size, with the benchmark's radius, density and step count.
    let asked = std::fs::read_to_string(&asked).expect("the stand-in was run");
    assert_eq!(
        asked.lines().collect::<Vec<_>>(),
        ["flock.mjs 1000 20 10 0.01", "flock.mjs 10000 20 10 0.01"]
    );
    let table = text.split("at Yuka's neighbour count").nth(1).expect("the Yuka-matched table");
    for n in ["1000", "10000"] {
        for threads in ["1", "2"] {
            let row: Vec<&str> = table
                .lines()
                .map(|line| line.split_whitespace().collect::<Vec<_>>())
                .find(|words| words.first() == Some(&n) && words.get(1) == Some(&threads))
                .unwrap_or_else(|| panic!("no row {n} {threads} in {text}"));
            let ours: f64 = row[2].parse().expect("our figure");
            assert_eq!(&row[4..6], ["20000.0", "3.20"], "{text}");
            // Our figure is printed to 0.1 ns, the ratio worked out from the unrounded one.
            let ratio: f64 = row[6].strip_suffix('x').and_then(|r| r.parse().ok()).expect("a ratio");
            let (low, high) = (20000.0 / (ours + 0.05), 20000.0 / (ours - 0.05));
            assert!(ratio >= low.round() && ratio <= high.round(), "{} not in {low}..{high}: {text}", row[6]);
        }
    }
    assert!(table.contains("Yuka 0.7.8 run in this same run"), "{text}");
}

/// A `--yuka` directory without the peer's scripts is refused before anything is measured.
#[test]
fn the_bench_refuses_a_yuka_directory_without_the_scripts() {
    let dir = crate::e2e_window::temp_dir("bench_yuka_empty");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["bench", "--flock", "--quick", "--yuka"])
        .arg(&dir)
        .output()
        .expect("bench ran");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no flock.mjs and bench.mjs there"), "{err}");
    assert!(out.stdout.is_empty());
}
