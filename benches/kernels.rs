//! `cargo bench`: the same kernels as `steerlab bench`, under criterion. Each iteration is one
//! `World::step` of 10,000 agents; divide the reported time by 10,000 for ns per agent-step.

use criterion::{criterion_group, criterion_main, Criterion};
use steerlab::bench::{world_for, Kernel};

const AGENTS: usize = 10_000;

fn behaviours(c: &mut Criterion) {
    let mut group = c.benchmark_group("step_10k_agents");
    group.sample_size(20);
    for kernel in Kernel::ALL {
        let mut world = world_for(kernel, AGENTS, 32);
        group.bench_function(kernel.label(), |b| b.iter(|| world.step()));
    }
    group.finish();
}

fn predictive_segments(c: &mut Criterion) {
    let mut group = c.benchmark_group("predictive_10k_agents_by_segments");
    group.sample_size(20);
    for segments in [8, 32, 128, 1024] {
        let mut world = world_for(Kernel::Predictive, AGENTS, segments);
        group.bench_function(format!("{segments}"), |b| b.iter(|| world.step()));
    }
    group.finish();
}

criterion_group!(benches, behaviours, predictive_segments);
criterion_main!(benches);
