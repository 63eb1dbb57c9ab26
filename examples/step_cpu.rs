//! `World::step` of one benchmark kernel (`steerlab::bench::world_for`) on one thread, for
//! comparing two builds on a busy machine: the best on-CPU time per agent-step of a few rounds
//! (other processes cannot inflate a thread's own CPU time), over the same steps of the scene
//! at every crowd size (`steerlab::bench::ns_per_agent_step_alike`).
//! `cargo run --release --example step_cpu -- seek 1000 10000 100000 1000000` (kernel label as
//! `steerlab bench` prints it, then crowd sizes). Under callgrind's cache simulation pass
//! `--once` after the sizes (one world, 2 warm-up steps, then 2 measured steps in
//! `measured_steps`):
//! `valgrind --tool=callgrind --cache-sim=yes --LL=33554432,16,64 --toggle-collect='step_cpu::measured_steps'
//! target/release/examples/step_cpu seek 1000000 --once`.
//!
//! Two more ways to time the same steps, to tell apart what a crowd's size costs:
//! - `--cold`: every measured step starts with the caches emptied (a buffer three times the
//!   last-level cache written first, untimed), so a small crowd is read from memory as a big one
//!   is. Printed beside the usual figure, in which a small crowd stays in the caches.
//! - `--space-order`: the crowds' records stored in space order (sorted by the cells of the
//!   flock's radius, row by row: the neighbour grid's slot order) before the first step, instead
//!   of the order they were made in, random in space. Printed beside the usual figure. (A big
//!   crowd that walks over neighbours is now stored so by the step itself, every
//!   `sim::RESTORE_EVERY` steps: see `sim::SPACE_ORDER_MIN_AGENTS`.)
//! - `--agent-order`: the step's storing off (`World::set_space_order(false)`): the records
//!   stay in agent order. Printed beside the usual figure.
//! - `--long`: one crowd warmed up, then 128 steps timed one by one (the storings among them):
//!   the mean and the dearest step per agent-step, with the storing on and off.
//! - `--neighbours` (flocking, collision avoidance and the leader crowd): no timing; the work a walk has at each
//!   size, over the same crowds after the same warm-up: the agents within each agent's query
//!   radius and the candidates its walk reads (the slots of the cells its query overlaps), a
//!   mean an agent. A small crowd has more of its agents near its edge, with fewer neighbours.
use steerlab::bench::{
    crowds_alike, ns_per_agent_step_alike, ns_per_agent_step_alike_timed, thread_cpu_ns, world_for, Kernel,
    FLOCK_RADIUS, TABLE_STEPS,
};
use steerlab::sim::World;

#[inline(never)]
fn measured_steps(world: &mut World, steps: u64) {
    world.run_steps(steps);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("layout") {
        use std::mem::{offset_of, size_of};
        use steerlab::sim::Agent;
        println!("Agent {}", size_of::<Agent>());
        println!(
            "kinematics {} limits {} gizmos {} mix {} behaviour {} metrics {} state {} about {}",
            offset_of!(Agent, kinematics),
            offset_of!(Agent, limits),
            offset_of!(Agent, gizmos),
            offset_of!(Agent, mix),
            offset_of!(Agent, behaviour),
            offset_of!(Agent, metrics),
            offset_of!(Agent, state),
            offset_of!(Agent, about)
        );
        println!(
            "Behaviour {} BehaviourState {} Entry {}",
            size_of::<steerlab::sim::Behaviour>(),
            size_of::<steerlab::sim::BehaviourState>(),
            size_of::<steerlab::sim::Entry>()
        );
        return;
    }
    let Some(kernel) = args.first().and_then(|label| Kernel::ALL.into_iter().find(|k| k.label() == label))
    else {
        eprintln!("usage: step_cpu KERNEL N... [--once | --cold | --space-order | --agent-order | --long | --neighbours]");
        return;
    };
    let once = args.iter().any(|a| a == "--once");
    let cold = args.iter().any(|a| a == "--cold");
    let space_order = args.iter().any(|a| a == "--space-order");
    let agent_order = args.iter().any(|a| a == "--agent-order");
    let long = args.iter().any(|a| a == "--long");
    let neighbours = args.iter().any(|a| a == "--neighbours");
    let sizes: Vec<usize> = args.iter().skip(1).filter_map(|s| s.parse().ok()).collect();
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else {
        eprintln!("no thread pool");
        return;
    };
    pool.install(|| {
        for n in sizes {
            let mut world = world_for(kernel, n, 32);
            if once {
                world.run_steps(2);
                measured_steps(&mut world, 2);
                println!("{} {n}: {}", kernel.label(), world.agents[0].kinematics.position);
                continue;
            }
            if long {
                for on in [true, false] {
                    let mut world = world_for(kernel, n, 32);
                    world.set_space_order(on);
                    world.run_steps(5);
                    let mut times = Vec::new();
                    for _ in 0..128 {
                        let start = thread_cpu_ns().unwrap_or(0);
                        world.run_steps(1);
                        times.push(thread_cpu_ns().unwrap_or(0).saturating_sub(start) as f64 / n as f64);
                    }
                    let mean = times.iter().sum::<f64>() / times.len() as f64;
                    let dearest = times.iter().copied().fold(0.0, f64::max);
                    let label = if on { "stored by the step" } else { "agent order" };
                    print!("{n} {label}: mean {mean:.1}, dearest {dearest:.1}  ");
                }
                println!();
                continue;
            }
            // The same steps of the scene at every size, on crowds that hold 16,384 agents
            // between them (see `ns_per_agent_step_alike` and `crowds_alike`).
            let crowds = crowds_alike(kernel, n, 32);
            if neighbours {
                match walk_work(kernel, &crowds) {
                    Some((within, candidates)) => {
                        print!("{n}: within {within:.2}, candidates {candidates:.2}  ")
                    }
                    None => print!("{n}: no walk over neighbours  "),
                }
                continue;
            }
            let cpu = || thread_cpu_ns().unwrap_or(0);
            let best_of = |rounds: usize, time: &dyn Fn() -> f64| {
                (0..rounds).map(|_| time()).fold(f64::INFINITY, f64::min)
            };
            let best = best_of(5, &|| ns_per_agent_step_alike(&crowds, kernel.budget(4_000_000), cpu));
            if cold {
                let cold = best_of(3, &|| cold_ns_per_agent_step(&crowds, kernel.budget(400_000)));
                print!("{n}: {best:.1} (cold {cold:.1})  ");
            } else if agent_order {
                let mut kept: Vec<World> = crowds.clone();
                kept.iter_mut().for_each(|world| world.set_space_order(false));
                let kept = best_of(5, &|| ns_per_agent_step_alike(&kept, kernel.budget(4_000_000), cpu));
                print!("{n}: {best:.1} (agent order {kept:.1})  ");
            } else if space_order {
                let Some(sorted) = crowds.iter().map(in_space_order).collect::<Option<Vec<World>>>() else {
                    eprintln!("--space-order: {}'s agents name other agents by index", kernel.label());
                    return;
                };
                let sorted = best_of(5, &|| ns_per_agent_step_alike(&sorted, kernel.budget(4_000_000), cpu));
                print!("{n}: {best:.1} (space order {sorted:.1})  ");
            } else {
                print!("{n}: {best:.1}  ");
            }
        }
    });
    println!();
}

/// `ns_per_agent_step_alike`'s steps of `crowds` (about `budget` agent-steps), each step timed
/// after the caches were emptied: on-CPU nanoseconds per agent-step.
fn cold_ns_per_agent_step(crowds: &[World], budget: u64) -> f64 {
    // Three times the 32 MiB last-level cache of the machine the README's figures come from.
    let mut flush = vec![0u64; 96 << 17];
    let ns = ns_per_agent_step_alike_timed(crowds, budget, |copy| {
        let mut elapsed = 0u64;
        for _ in 0..TABLE_STEPS {
            for (i, word) in flush.iter_mut().enumerate().step_by(8) {
                *word = word.wrapping_add(i as u64);
            }
            let start = thread_cpu_ns().unwrap_or(0);
            copy.run_steps(1);
            elapsed += thread_cpu_ns().unwrap_or(0).saturating_sub(start);
        }
        elapsed
    });
    std::hint::black_box(&flush);
    ns
}

/// `world` with its agents stored row by row of the flock's cells (the neighbour grid's slot
/// order; ties in the order they were made), or None when an agent names another by index
/// (pursuit, evade, ...: reordering would change whom it follows).
fn in_space_order(world: &World) -> Option<World> {
    let names_others = |agent: &steerlab::sim::Agent| agent.behaviours().any(|b| b.names_an_agent());
    if world.agents.iter().any(names_others) {
        return None;
    }
    let mut sorted = world.clone();
    let cell = |v: f32| (v / FLOCK_RADIUS).floor() as i64;
    sorted.agents.as_mut_vec().sort_by_key(|agent| {
        let p = agent.kinematics.position;
        (cell(p.y), cell(p.x))
    });
    Some(sorted)
}

/// The mean an agent, over `crowds` each warmed up as the timed steps are
/// (`steerlab::bench::TABLE_WARM_UP`), of the agents within its query radius and of the
/// candidates its walk reads: the grid built as the step builds it (cells as wide as the largest
/// radius asked), each agent asking its own radius (the flock's, or collision avoidance's threat
/// radius). None for a kernel that walks no neighbours.
fn walk_work(kernel: Kernel, crowds: &[World]) -> Option<(f64, f64)> {
    use steerlab::behaviours::collision_avoidance::threat_radius_of;
    use steerlab::behaviours::Kinematics;
    use steerlab::sim::neighbours::NeighbourGrid;
    if !matches!(kernel, Kernel::Flocking | Kernel::CollisionAvoidance | Kernel::LeaderCrowd) {
        return None;
    }
    let (mut within, mut candidates, mut agents) = (0u64, 0u64, 0u64);
    let mut found = Vec::new();
    for world in crowds {
        let mut world = world.clone();
        world.run_steps(steerlab::bench::TABLE_WARM_UP);
        let start: Vec<(Kinematics, f32)> =
            world.agents.iter().map(|agent| (agent.kinematics, agent.limits.radius)).collect();
        let fastest = start.iter().map(|(k, _)| k.velocity.length()).fold(0.0f32, f32::max);
        let params = Default::default();
        let radius_of = |(k, body): &(Kinematics, f32)| match kernel {
            Kernel::CollisionAvoidance => threat_radius_of(k.velocity, *body, &params, fastest),
            _ => FLOCK_RADIUS,
        };
        let cell = start.iter().map(radius_of).fold(FLOCK_RADIUS, f32::max);
        let positions: Vec<_> = start.iter().map(|(k, _)| k.position).collect();
        let mut grid = NeighbourGrid::new();
        grid.rebuild(&positions, cell);
        for agent in &start {
            let radius = radius_of(agent);
            grid.neighbours_within(agent.0.position, radius, &mut found);
            within += found.len() as u64;
            grid.for_each_run(agent.0.position, radius, |run| candidates += run.len() as u64);
            agents += 1;
        }
    }
    let per_agent = |count: u64| count as f64 / agents.max(1) as f64;
    Some((per_agent(within), per_agent(candidates)))
}
