//! What one entry that names another agent costs a big flock: the flocking kernel
//! (`steerlab::bench::world_for(Kernel::Flocking, N, 0)`), with and without its first boid
//! pursuing boid 7 instead of flocking, warmed up 70 steps, then 128 steps timed on one thread
//! (on-CPU, the step's storings in the grid's order among them: `sim::SPACE_ORDER_MIN_AGENTS`).
//! Until 2026-11-29 a crowd with any such entry was never stored in the grid's order, so one
//! pursuer left a million boids walking their neighbours in agent order (random in space).
//! `cargo run --release --example flock_pursuer -- 100000 1000000`.
use steerlab::bench::{thread_cpu_ns, world_for, Kernel};
use steerlab::sim::{Behaviour, BehaviourState};

fn main() {
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else { return };
    pool.install(|| {
        for n in sizes {
            for pursuer in [false, true] {
                let mut world = world_for(Kernel::Flocking, n, 0);
                if pursuer && n > 7 {
                    let pursuit = Behaviour::Pursuit { agent: 7, params: Default::default() };
                    world.agents[0].state = BehaviourState::start(&pursuit);
                    world.agents[0].behaviour = pursuit;
                }
                world.run_steps(70);
                let start = thread_cpu_ns().unwrap_or(0);
                world.run_steps(128);
                let ns = thread_cpu_ns().unwrap_or(0).saturating_sub(start) as f64 / (128 * n.max(1)) as f64;
                let label = if pursuer { "one pursuer" } else { "all flocking" };
                print!("{n} {label}: {ns:.1}  ");
            }
            println!();
        }
    });
}
