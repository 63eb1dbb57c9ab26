//! `cargo bench`: the same kernels as `steerlab bench`, under criterion. Each iteration is one
//! `World::step` of 10,000 agents; divide the reported time by 10,000 for ns per agent-step.
//! `flock_step/N` is one step of the flocking kernel of N boids; `flock_step_yuka_window/N` its 20 steps
//! at Yuka's neighbour count, per boid-step (throughput).

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
    flock_at_yuka_neighbours(c);
}

/// The planar kernel over the window `steerlab bench --flock` compares with Yuka's
/// `flock.mjs N 20` at the same neighbour count (about 3.3 a boid): a fresh flock stepped 10 times
/// (not timed), then 20 steps timed; throughput in boid-steps, so criterion prints time per
/// agent-step directly.
fn flock_at_yuka_neighbours(c: &mut Criterion) {
    use steerlab::bench::YUKA_FLOCK_STEPS;
    let mut group = c.benchmark_group("flock_step_yuka_window");
    group.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        group.throughput(criterion::Throughput::Elements(n as u64 * YUKA_FLOCK_STEPS));
        group.bench_function(format!("{n}"), |b| {
            b.iter_batched(
                || {
                    let mut flock = FlockBench::planar(n);
                    for _ in 0..10 {
                        flock.step();
                    }
                    flock
                },
                |mut flock| {
                    for _ in 0..YUKA_FLOCK_STEPS {
                        flock.step();
                    }
                    flock
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
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
