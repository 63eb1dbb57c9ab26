//! What a few agents of another kind cost a big crowd, on one thread (on-CPU ns per agent-step
//! of the whole crowd; 5 steps, then 30 timed):
//! - `boids N K...`: the seek kernel (`steerlab::bench::world_for(Kernel::Seek, N, 0)`, the
//!   seekers soon packed on their target) with its first K agents flocking as the flocking
//!   kernel's boids do;
//! - `avoiders N K...`: the collision avoidance kernel with its first K agents seeking instead;
//! - `flock N K...`: the flocking kernel with its first K agents seeking instead.
//!
//! A uniform flock or avoidance is walked before the step, the slots of the agents that read
//! no walk skipped (session 38); the neighbour runs are read ahead only when at most one agent
//! in `sim::NEARLY_ALL_BUT_ONE_IN` does not walk them. In session 36 one boid among 100,000
//! seekers cost every seeker a walk over its packed neighbours; in session 37 the walks before
//! the step were taken only when at most one agent in eight read none, so a flock with more
//! seekers than that walked each boid in its own step.
//! `--agent-order` after the counts: the step's storing in the grid's order off
//! (`World::set_space_order(false)`).
//! `cargo run --release --example mixed_crowd -- boids 100000 0 1 1000`.
use steerlab::bench::{thread_cpu_ns, world_for, Kernel};
use steerlab::sim::{Behaviour, BehaviourState};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<usize> = args.iter().filter_map(|s| s.parse().ok()).collect();
    let (kernel, other, label) = match args.first().map(String::as_str) {
        Some("boids") => {
            (Kernel::Seek, world_for(Kernel::Flocking, 1, 0).agents[0].behaviour.clone(), "boids")
        }
        Some("avoiders") => (Kernel::CollisionAvoidance, Behaviour::Seek { target: 0 }, "seekers"),
        Some("flock") => (Kernel::Flocking, Behaviour::Seek { target: 0 }, "seekers"),
        _ => {
            eprintln!("usage: mixed_crowd boids|avoiders|flock N K...");
            return;
        }
    };
    let Some((&n, counts)) = numbers.split_first() else {
        eprintln!("usage: mixed_crowd boids|avoiders|flock N K...");
        return;
    };
    let agent_order = args.iter().any(|a| a == "--agent-order");
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else { return };
    pool.install(|| {
        for &k in counts {
            let mut world = world_for(kernel, n, 0);
            for agent in world.agents.iter_mut().take(k) {
                agent.state = BehaviourState::start(&other);
                agent.behaviour = other.clone();
            }
            if agent_order {
                world.set_space_order(false);
            }
            world.run_steps(5);
            let start = thread_cpu_ns().unwrap_or(0);
            world.run_steps(30);
            let ns = thread_cpu_ns().unwrap_or(0).saturating_sub(start) as f64 / (30 * n.max(1)) as f64;
            print!("{n} agents, {k} {label}: {ns:.1}  ");
        }
        println!();
    });
}
