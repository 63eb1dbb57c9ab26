//! A fixed workload for instruction-level profiling of one kernel:
//! `valgrind --tool=callgrind target/release/examples/profile_step predictive [SEGMENTS]`
//! steps 2,000 agents of the chosen behaviour (seek, projected or predictive) 50 times.
//! Instruction counts are repeatable whatever else the machine is doing, unlike timings.

use steerlab::bench::{world_for, Kernel};
fn main() {
    let kernel = match std::env::args().nth(1).as_deref() {
        Some("seek") => Kernel::Seek,
        Some("projected") => Kernel::Projected,
        _ => Kernel::Predictive,
    };
    let segments: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(32);
    let mut world = world_for(kernel, 2000, segments);
    world.run_steps(50);
    println!("{}", world.agents[0].kinematics.position);
}
