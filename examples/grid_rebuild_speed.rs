//! Wall-clock ns per agent of `NeighbourGrid::rebuild` alone, over the flocking benchmark's
//! layout (its density and cell size), the crowd moving a little between rebuilds: the figure
//! behind the grid's sort by blocks (`BLOCK_SORT_MIN_BUCKETS` in `src/sim/neighbours.rs`).
//! Run on one core for a one-thread figure: `taskset -c 1 grid_rebuild_speed [N...] [--grid-order]`
//! (`--grid-order`: the positions laid out row by row of the cells first, as the simulation
//! stores a big crowd: `sim::SPACE_ORDER_MIN_AGENTS`).
use glam::Vec3;
use std::time::Instant;
use steerlab::bench::{FLOCK_DENSITY, FLOCK_RADIUS};
use steerlab::sim::neighbours::NeighbourGrid;

fn main() {
    let grid_order = std::env::args().any(|a| a == "--grid-order");
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if args.is_empty() { vec![1000, 10_000, 100_000, 1_000_000] } else { args };
    for n in sizes {
        let side = (n as f32 / FLOCK_DENSITY).sqrt();
        let mut s = 7u64;
        let mut rnd = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 40) as f32) / (1u64 << 24) as f32
        };
        let mut positions: Vec<Vec3> =
            (0..n).map(|_| Vec3::new((rnd() - 0.5) * side, (rnd() - 0.5) * side, 0.0)).collect();
        if grid_order {
            let cell = |v: f32| (v / FLOCK_RADIUS).floor() as i64;
            positions.sort_by_key(|p| (cell(p.y), cell(p.x)));
        }
        let vel: Vec<Vec3> = (0..n).map(|_| Vec3::new(rnd() - 0.5, rnd() - 0.5, 0.0)).collect();
        let mut grid = NeighbourGrid::new();
        let budget = 20_000_000usize;
        let steps = (budget / n).max(3);
        let mut best = f64::MAX;
        for _round in 0..5 {
            let t = Instant::now();
            for _ in 0..steps {
                for (p, v) in positions.iter_mut().zip(&vel) {
                    *p += *v * 0.1;
                }
                grid.rebuild(&positions, FLOCK_RADIUS);
            }
            let ns = t.elapsed().as_nanos() as f64 / (steps * n) as f64;
            best = best.min(ns);
        }
        let check: u64 = grid.order().iter().take(1000).map(|&x| x as u64).sum();
        println!("{n:>8}: {best:6.2} ns an agent (best of 5, with the move) order check {check}");
    }
}
