//! On-CPU time of the predictive-following kernel on one thread (this thread's time on a CPU,
//! `bench::thread_cpu_ns`, which other processes cannot inflate the way they inflate
//! wall clock, though they still share the caches): 10,000 agents, closed circles of 8, 32,
//! 128 and 1,024 segments unless given, the best of five rounds unless told, for the kernel
//! (`bench::PredictiveBench`) and the plain loop it is tested against
//! (`bench::predictive::step_plain`).
//! `cargo run --release --example predictive_cpu [ROUNDS] [SEGMENTS...]`.

use steerlab::bench::{predictive_behaviour_only_ns_with, predictive_plain_ns};

fn main() {
    const AGENTS: usize = 10_000;
    const STEPS: u64 = 200;
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let mut segment_counts: Vec<usize> = args.filter_map(|s| s.parse().ok()).collect();
    if segment_counts.is_empty() {
        segment_counts = vec![8, 32, 128, 1024];
    }
    println!("on-CPU ns per agent-step, {AGENTS} agents, one thread, best of {rounds}");
    for segments in segment_counts {
        let mut best = [f64::INFINITY; 2];
        for _ in 0..rounds {
            let figures = [
                predictive_behaviour_only_ns_with(AGENTS, segments, STEPS, 1, true).1,
                predictive_plain_ns(AGENTS, segments, STEPS).1,
            ];
            for (best, figure) in best.iter_mut().zip(figures) {
                *best = best.min(figure.unwrap_or(f64::NAN));
            }
        }
        let [kernel, plain] = best;
        println!("{segments:>5} segments: kernel {kernel:6.1}, plain loop {plain:6.1}");
    }
}
