//! Quick timing of the speed goal's kernel: predictive following, 10,000 agents, closed circles
//! of 8, 32, 128 and 1,024 segments, as the whole `World::step` and as the behaviour with its
//! integration (and the same with predictive's observation made on demand instead of ahead of
//! time, the gain of that cache); the best of five rounds (timings on a shared machine move when other work
//! runs). `cargo run --release --example predictive_speed`.

use steerlab::bench::{ns_per_agent_step, predictive_behaviour_only_ns_with, world_for, Kernel};

fn main() {
    for segments in [8, 32, 128, 1024] {
        let mut best_world = f64::INFINITY;
        let mut best_alone = f64::INFINITY;
        let mut best_on_demand = f64::INFINITY;
        for _ in 0..5 {
            let mut world = world_for(Kernel::Predictive, 10_000, segments);
            best_world = best_world.min(ns_per_agent_step(&mut world, 200));
            best_alone = best_alone.min(predictive_behaviour_only_ns_with(10_000, segments, 200, true));
            best_on_demand =
                best_on_demand.min(predictive_behaviour_only_ns_with(10_000, segments, 200, false));
        }
        println!(
            "{segments:>5} segments: World::step {best_world:6.1} ns, behaviour + integration {best_alone:6.1} ns \
             (observing on demand instead of ahead: {best_on_demand:6.1} ns)"
        );
    }
}
