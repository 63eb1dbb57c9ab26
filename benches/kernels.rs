//! `cargo bench`: the same kernels as `steerlab bench`, under criterion. Each iteration is one
//! `World::step` of 10,000 agents; divide the reported time by 10,000 for ns per agent-step.
//! `flock_step/N` is one step of the flocking kernel of N boids.

use criterion::{criterion_group, criterion_main, Criterion};
use steerlab::bench::{world_for, FlockBench, Kernel};

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

/// Issue 10 §5: one step of the flocking kernel (as Yuka's flock.mjs) at 1k, 10k and 100k
/// boids, planar (`flock_step`, 2D vectors) and in 3D vectors (`flock_step_3d`); divide by the
/// boid count for ns per agent-step.
fn flocking(c: &mut Criterion) {
    flock_group::<glam::Vec2>(c, "flock_step");
    flock_group::<glam::Vec3>(c, "flock_step_3d");
}

fn flock_group<V: steerlab::behaviours::vector::SteerVector>(c: &mut Criterion, name: &str) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        let mut flock = FlockBench::<V>::with_vectors(n);
        for _ in 0..10 {
            flock.step();
        }
        group.bench_function(format!("{n}"), |b| b.iter(|| flock.step()));
    }
    group.finish();
}

criterion_group!(benches, behaviours, predictive_segments, flocking);
criterion_main!(benches);
