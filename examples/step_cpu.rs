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
use steerlab::bench::{crowds_alike, ns_per_agent_step_alike, thread_cpu_ns, world_for, Kernel};
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
        eprintln!("usage: step_cpu KERNEL N... [--once]");
        return;
    };
    let once = args.iter().any(|a| a == "--once");
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
            // The same steps of the scene at every size, on crowds that hold 16,384 agents
            // between them (see `ns_per_agent_step_alike` and `crowds_alike`).
            let crowds = crowds_alike(kernel, n, 32);
            let mut best = f64::INFINITY;
            for _ in 0..5 {
                let cpu = || thread_cpu_ns().unwrap_or(0);
                best = best.min(ns_per_agent_step_alike(&crowds, 4_000_000, cpu));
            }
            print!("{n}: {best:.1}  ");
        }
    });
    println!();
}
