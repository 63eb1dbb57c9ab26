//! The flocking kernel of issue 10 §5 as a whole: the benchmark's flock (separation, alignment,
//! cohesion and wander over the spatial hash, structure-of-arrays in cell order) repeats bit for
//! bit, stays within its limits, sees about as many neighbours as Yuka's set-up, and finds
//! exactly the neighbours a brute-force scan finds.

use glam::Vec3;
use steerlab::bench::{FlockBench, FLOCK_RADIUS};
use steerlab::sim::neighbours::NeighbourGrid;

#[test]
fn the_flock_repeats_bit_for_bit_from_the_same_start() {
    let mut a = FlockBench::new(800);
    let mut b = FlockBench::new(800);
    for _ in 0..60 {
        a.step();
        b.step();
    }
    assert_eq!(a.positions(), b.positions());
    assert_eq!(a.velocities(), b.velocities());
}

#[test]
fn boids_stay_finite_and_within_their_speed_and_the_world() {
    let n = 2_000;
    let mut flock = FlockBench::new(n);
    let half = (n as f32 / steerlab::bench::FLOCK_DENSITY).sqrt() / 2.0;
    for _ in 0..120 {
        flock.step();
    }
    for (p, v) in flock.positions().iter().zip(flock.velocities()) {
        assert!(p.is_finite() && v.is_finite());
        assert!(v.length() <= 10.0 * (1.0 + 1e-5), "speed {}", v.length());
        assert!(p.x.abs() <= half + 1.0 && p.y.abs() <= half + 1.0, "{p} outside ±{half}");
    }
}

#[test]
fn the_flock_sees_a_handful_of_neighbours_like_yukas_set_up() {
    // Same density at every size: the neighbour count does not grow with the flock.
    for n in [1_000, 8_000] {
        let mut flock = FlockBench::new(n);
        flock.step();
        let seen = flock.mean_neighbours();
        assert!((2.0..6.0).contains(&seen), "{n} boids: {seen} neighbours each");
    }
}

#[test]
fn every_boid_finds_exactly_its_brute_force_neighbours() {
    let mut flock = FlockBench::new(1_500);
    for _ in 0..30 {
        flock.step();
    }
    let positions: Vec<Vec3> = flock.positions().to_vec();
    let mut grid = NeighbourGrid::new();
    grid.rebuild(&positions, FLOCK_RADIUS);
    let mut found = Vec::new();
    for (i, &p) in positions.iter().enumerate().step_by(7) {
        grid.neighbours_within(p, FLOCK_RADIUS, &mut found);
        let expected: Vec<u32> = positions
            .iter()
            .enumerate()
            .filter(|(_, q)| (**q - p).length_squared() <= FLOCK_RADIUS * FLOCK_RADIUS)
            .map(|(j, _)| j as u32)
            .collect();
        assert_eq!(found, expected, "boid {i}");
    }
}

#[test]
fn the_fast_flock_step_equals_the_plain_one_bit_for_bit() {
    // `step` reads neighbours straight from the grid with headings computed once per boid;
    // `step_plain` gathers a list per boid and normalises every heading it sees: same bits.
    let mut fast = FlockBench::new(3_000);
    let mut plain = FlockBench::new(3_000);
    for step in 0..90 {
        fast.step();
        plain.step_plain();
        assert_eq!(fast.positions(), plain.positions(), "step {step}");
        assert_eq!(fast.velocities(), plain.velocities(), "step {step}");
        assert_eq!(fast.mean_neighbours(), plain.mean_neighbours(), "step {step}");
    }
}

#[test]
fn the_planar_flock_kernel_moves_every_boid_as_the_3d_oracle_bit_for_bit() {
    // `FlockBench::<Vec2>` runs the same functions over 2D vectors: with every z at 0 the 3D
    // arithmetic's x and y are the 2D arithmetic's (see `behaviours::vector`), checked here on
    // the bits themselves (== would let a -0.0 pass for 0.0).
    use glam::{Vec2, Vec3};
    let bits2 = |v: &[Vec2]| v.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect::<Vec<_>>();
    let bits3 = |v: &[Vec3]| v.iter().map(|p| (p.x.to_bits(), p.y.to_bits())).collect::<Vec<_>>();
    let mut planar = FlockBench::planar(3_000);
    let mut plain = FlockBench::new(3_000);
    for step in 0..90 {
        planar.step();
        plain.step_plain();
        assert_eq!(bits2(planar.positions()), bits3(plain.positions()), "step {step}");
        assert_eq!(bits2(planar.velocities()), bits3(plain.velocities()), "step {step}");
        assert!(plain.positions().iter().chain(plain.velocities()).all(|p| p.z == 0.0));
        assert_eq!(planar.mean_neighbours(), plain.mean_neighbours(), "step {step}");
    }
    assert!(planar.polarization() > 0.0);
}

#[test]
fn the_worlds_flocking_fast_path_steers_as_the_gizmo_path_bit_for_bit() {
    // Without gizmos `World::step` reads a flocking entry's neighbours straight from the grid's
    // slot-ordered arrays; with gizmos on it walks them through the neighbour source as before.
    use steerlab::bench::{world_for, Kernel};
    let mut fast = world_for(Kernel::Flocking, 2_500, 0);
    let mut drawn = world_for(Kernel::Flocking, 2_500, 0);
    drawn.set_gizmos_enabled(true);
    for step in 0..60 {
        fast.step();
        drawn.step();
        let same = fast.agents.iter().zip(&drawn.agents).all(|(a, b)| a.kinematics == b.kinematics);
        assert!(same, "step {step}");
    }
    let metrics = |world: &steerlab::sim::World| format!("{:?}", world.metrics());
    assert_eq!(metrics(&fast), metrics(&drawn));
}

#[test]
fn a_crowded_flock_steers_as_the_gizmo_path_bit_for_bit() {
    // Packed twenty times closer, a row of cells holds far more than the 32 candidates the walk
    // picks without a branch, so the fast path also takes its one-at-a-time branch for long
    // runs; it must still add the neighbours in the order the gizmo path does.
    use steerlab::bench::{world_for, Kernel};
    let crowd = || {
        let mut world = world_for(Kernel::Flocking, 2_000, 0);
        for agent in world.agents.iter_mut() {
            agent.kinematics.position *= 0.05;
        }
        world
    };
    let (mut fast, mut drawn) = (crowd(), crowd());
    drawn.set_gizmos_enabled(true);
    for step in 0..20 {
        fast.step();
        drawn.step();
        let same = fast.agents.iter().zip(drawn.agents.iter()).all(|(a, b)| a.kinematics == b.kinematics);
        assert!(same, "step {step}");
    }
}

/// A flock of 5,000 stepped 40 times on a pool of `threads`: its positions, velocities and
/// neighbour count.
fn flock_on<V: steerlab::behaviours::vector::SteerVector>(threads: usize) -> (Vec<V>, Vec<V>, f64) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
    pool.install(|| {
        let mut flock = FlockBench::<V>::with_vectors(5_000);
        for _ in 0..40 {
            flock.step();
        }
        (flock.positions().to_vec(), flock.velocities().to_vec(), flock.mean_neighbours())
    })
}

#[test]
fn the_flock_kernel_gives_the_same_bits_on_one_thread_and_on_four() {
    // `FlockBench::step` shares the boids out over the current rayon pool in chunks: every boid
    // reads the previous step only, so the split must not change a bit, in 3D or in a plane.
    let one = flock_on::<glam::Vec3>(1);
    assert_eq!(one, flock_on(4));
    assert_eq!(one, flock_on(3));
    let one = flock_on::<glam::Vec2>(1);
    assert_eq!(one, flock_on(4));
    assert_eq!(one, flock_on(3));
}

/// A crowd of `n` of `kernel`'s agents stacked within half a unit of (1, 1) (one grid cell holds
/// them all), their headings kept.
fn stacked(kernel: steerlab::bench::Kernel, n: usize) -> steerlab::sim::World {
    let mut world = steerlab::bench::world_for(kernel, n, 0);
    for (i, agent) in world.agents.iter_mut().enumerate() {
        let turn = i as f32 * 2.399_963;
        agent.kinematics.position =
            Vec3::new(1.0, 1.0, 0.0) + Vec3::new(turn.cos(), turn.sin(), 0.0) * 0.5 * (i % 7) as f32 / 7.0;
    }
    world
}

#[test]
fn a_stacked_crowd_reads_its_cells_first_agents_on_every_path_and_thread() {
    // A crowd on one point made everyone everyone's neighbour: N² a step, seconds for 20,000.
    // Each agent now reads the cell's first MAX_CELL_SLOTS agents; the fast path, the gizmo
    // path and four threads must still agree bit for bit, and the neighbours an agent draws
    // are the ones it read.
    use steerlab::behaviours::GizmoRole;
    use steerlab::bench::Kernel;
    use steerlab::sim::neighbours::MAX_CELL_SLOTS;
    let n = 3 * MAX_CELL_SLOTS + 5;
    for kernel in [Kernel::Flocking, Kernel::CollisionAvoidance] {
        let (mut fast, mut drawn) = (stacked(kernel, n), stacked(kernel, n));
        drawn.set_gizmos_enabled(true);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a pool");
        let mut split = stacked(kernel, n);
        for step in 0..10 {
            fast.step();
            drawn.step();
            pool.install(|| split.step());
            let same = |a: &steerlab::sim::World, b: &steerlab::sim::World| {
                a.agents.iter().zip(&b.agents).all(|(a, b)| a.kinematics == b.kinematics)
            };
            assert!(same(&fast, &drawn), "{kernel:?} step {step}: gizmos changed the step");
            assert!(same(&fast, &split), "{kernel:?} step {step}: threads changed the step");
            assert!(fast.agents.iter().all(|a| a.kinematics.position.is_finite()));
        }
        if kernel == Kernel::Flocking {
            let mut first = stacked(kernel, n);
            first.set_gizmos_enabled(true);
            first.step();
            let links = |agent: usize| {
                first.agents[agent]
                    .gizmos
                    .items()
                    .iter()
                    .filter(|g| g.role == GizmoRole::NeighbourLink)
                    .count()
            };
            // Agent 0 is among the cell's first agents (and is no neighbour of itself); the
            // last agent is not, and still reads them all.
            let (me, last) = (links(0), links(n - 1));
            assert!(me > MAX_CELL_SLOTS / 2 && me < MAX_CELL_SLOTS, "agent 0 sees {me}");
            assert!(last > MAX_CELL_SLOTS / 2 && last <= MAX_CELL_SLOTS, "the last agent sees {last}");
        }
    }
}
