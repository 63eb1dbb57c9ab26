//! The planar flocking kernel's best on-CPU time per boid-step on one thread, for comparing two
//! builds on a busy machine (other processes cannot inflate a thread's own CPU time, and the
//! best of several fresh flocks drops the rounds that shared a core's caches with them):
//! `cargo run --release --example flock_cpu -- 10000:20 10000:100:400 100000:20`, each argument
//! `BOIDS:STEPS[:WARM-UP STEPS]` (warm-up 10 unless given; 20 timed steps after 10 are the window
//! Yuka's `flock.mjs N 20` is timed in). Prints the figure and the mean neighbours a boid.
use steerlab::bench::{thread_cpu_ns, FlockBench};
fn main() {
    let specs: Vec<(usize, usize, usize)> = std::env::args()
        .skip(1)
        .filter_map(|s| {
            let v: Vec<usize> = s.split(':').filter_map(|x| x.parse().ok()).collect();
            Some((*v.first()?, *v.get(1).unwrap_or(&20), *v.get(2).unwrap_or(&10)))
        })
        .collect();
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else {
        eprintln!("no thread pool");
        return;
    };
    pool.install(|| {
        for (n, steps, warm) in specs {
            let mut best = f64::INFINITY;
            let mut nb = 0.0;
            let reps = (2_000_000 / (n * steps)).clamp(3, 15);
            for _ in 0..reps {
                let mut flock = FlockBench::<glam::Vec2>::with_vectors(n);
                for _ in 0..warm {
                    flock.step();
                }
                let a = thread_cpu_ns().unwrap_or(0);
                for _ in 0..steps {
                    flock.step();
                }
                let b = thread_cpu_ns().unwrap_or(0);
                best = best.min((b - a) as f64 / (steps as f64 * n as f64));
                nb = flock.mean_neighbours();
            }
            print!("{n}:{steps}:{warm} {best:.1} ({nb:.1})  ");
        }
    });
    println!();
}
