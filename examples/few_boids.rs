//! What a few boids cost a big crowd of seekers: the seek kernel
//! (`steerlab::bench::world_for(Kernel::Seek, N, 0)`, the seekers soon packed on their target)
//! with its first K agents flocking as the flocking kernel's boids do, warmed up 5 steps, then
//! 30 steps timed on one thread (on-CPU ns per agent-step of the whole crowd). A uniform flock
//! is walked before the step, every slot's walk taken, only when at most one agent in
//! `sim::NEARLY_ALL_BUT_ONE_IN` does not flock; in session 36 the bound was missing, and one
//! boid among 100,000 seekers cost every seeker a walk over its packed neighbours.
//! `cargo run --release --example few_boids -- 100000 0 1 1000 50000 100000` (crowd size, then
//! boid counts).
use steerlab::bench::{thread_cpu_ns, world_for, Kernel};
use steerlab::sim::BehaviourState;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let Some((&n, boid_counts)) = args.split_first() else {
        eprintln!("usage: few_boids N K...");
        return;
    };
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else { return };
    let boid = world_for(Kernel::Flocking, 1, 0).agents[0].behaviour.clone();
    pool.install(|| {
        for &boids in boid_counts {
            let mut world = world_for(Kernel::Seek, n, 0);
            for agent in world.agents.iter_mut().take(boids) {
                agent.state = BehaviourState::start(&boid);
                agent.behaviour = boid.clone();
            }
            world.run_steps(5);
            let start = thread_cpu_ns().unwrap_or(0);
            world.run_steps(30);
            let ns = thread_cpu_ns().unwrap_or(0).saturating_sub(start) as f64 / (30 * n.max(1)) as f64;
            print!("{n} agents, {boids} boids: {ns:.1}  ");
        }
        println!();
    });
}
