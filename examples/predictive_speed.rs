//! Quick timing of the speed goal's kernel: predictive following, 10,000 agents, closed circles
//! of 8, 32, 128 and 1,024 segments, as the whole `World::step` (all threads) and as the
//! behaviour with its integration (`bench::PredictiveBench`) on one thread and on all threads;
//! then, on one thread, the same job as the plain loop it is tested against
//! (`bench::predictive::step_plain`) and with predictive's observation made on demand instead
//! of ahead of time (the gain of that cache). Wall clock, the best of five rounds (timings on a
//! shared machine move when other work runs). `cargo run --release --example predictive_speed`.

use steerlab::bench::{
    ns_per_agent_step, predictive_behaviour_only_ns_with, predictive_plain_ns, world_for, Kernel,
};

fn main() {
    const AGENTS: usize = 10_000;
    const STEPS: u64 = 200;
    let threads = rayon::current_num_threads();
    println!(
        "ns per agent-step, {AGENTS} agents, best of 5; World::step and behaviour + integration on 1 and {threads} threads"
    );
    for segments in [8, 32, 128, 1024] {
        let mut best = [f64::INFINITY; 5];
        for _ in 0..5 {
            let mut world = world_for(Kernel::Predictive, AGENTS, segments);
            let figures = [
                ns_per_agent_step(&mut world, STEPS),
                predictive_behaviour_only_ns_with(AGENTS, segments, STEPS, 1, true).0,
                predictive_behaviour_only_ns_with(AGENTS, segments, STEPS, threads, true).0,
                predictive_plain_ns(AGENTS, segments, STEPS).0,
                predictive_behaviour_only_ns_with(AGENTS, segments, STEPS, 1, false).0,
            ];
            for (best, figure) in best.iter_mut().zip(figures) {
                *best = best.min(figure);
            }
        }
        let [world, one, all, plain, on_demand] = best;
        println!(
            "{segments:>5} segments: World::step ({threads} threads) {world:6.1}; behaviour + integration \
             1 thread {one:6.1}, {threads} threads {all:6.1} (plain loop {plain:6.1}, observing on demand {on_demand:6.1})"
        );
    }
}
