//! A fixed workload for instruction-level profiling of one kernel:
//! `valgrind --tool=callgrind target/release/examples/profile_step predictive [SEGMENTS] [STEPS]`
//! steps 2,000 agents of the chosen behaviour (seek, projected or predictive) 50 times unless told;
//! `profile_step flock [BOIDS]` steps the flocking benchmark (`steerlab bench --flock`, 10,000
//! boids unless given) 20 times, `profile_step flock-planar [BOIDS]` the same flock in 2D vectors;
//! `profile_step world-flock [BOIDS]` steps the same flock as agents of `World::step`
//! (`Kernel::Flocking`) 20 times; `profile_step kernel [SEGMENTS] [STEPS]` steps the
//! predictive-following kernel (`bench::PredictiveBench`, behaviour + integration, 10,000
//! agents) 25 times unless told (run it with `RAYON_NUM_THREADS=1`); `kernel-plain` the same
//! crowd stepped by the plain loop the kernel is tested against.
//! Instruction counts are repeatable whatever else the machine is doing, unlike timings.

use steerlab::bench::{world_for, FlockBench, Kernel, PredictiveBench};
fn main() {
    let kind = std::env::args().nth(1);
    if kind.as_deref() == Some("flock") {
        return flock::<glam::Vec3>();
    }
    if kind.as_deref() == Some("flock-planar") {
        return flock::<glam::Vec2>();
    }
    if kind.as_deref() == Some("world-flock") {
        let n: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
        let mut world = world_for(Kernel::Flocking, n, 0);
        world.run_steps(20);
        println!("{}", world.agents[0].kinematics.position);
        return;
    }
    if matches!(kind.as_deref(), Some("kernel" | "kernel-plain")) {
        let segments: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(32);
        let steps: usize = std::env::args().nth(3).and_then(|s| s.parse().ok()).unwrap_or(25);
        let mut crowd = PredictiveBench::new(10_000, segments, true);
        if kind.as_deref() == Some("kernel-plain") {
            let mut plain = crowd.plain();
            for _ in 0..steps {
                steerlab::bench::predictive::step_plain(&mut plain);
            }
            println!("{}", plain.agents.first().map(|(k, _)| k.position).unwrap_or_default());
            return;
        }
        for _ in 0..steps {
            crowd.step();
        }
        println!("{}", crowd.agents().first().map(|(k, _)| k.position).unwrap_or_default());
        return;
    }
    let kernel = match kind.as_deref() {
        Some("seek") => Kernel::Seek,
        Some("projected") => Kernel::Projected,
        _ => Kernel::Predictive,
    };
    let segments: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(32);
    let steps: u64 = std::env::args().nth(3).and_then(|s| s.parse().ok()).unwrap_or(50);
    let mut world = world_for(kernel, 2000, segments);
    world.run_steps(steps);
    println!("{}", world.agents[0].kinematics.position);
}

/// 20 steps of the flocking benchmark's flock (10,000 boids unless given) in vectors `V`.
fn flock<V: steerlab::behaviours::vector::SteerVector>() {
    let n: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let mut flock = FlockBench::<V>::with_vectors(n);
    for _ in 0..20 {
        flock.step();
    }
    println!("neighbours {:.2}", flock.mean_neighbours());
}
