//! The planner's obstacle grid answers exactly as testing every obstacle does, and plans through
//! the 10,000-obstacle benchmark field stay cheap.

use glam::Vec3;
use proptest::prelude::*;
use steerlab::geometry::Sphere;
use steerlab::planner::field::{bench_scenario, BENCH_WAYPOINTS};
use steerlab::planner::{bench_field, plan, ObstacleIndex, PlanOptions, SplitMix64};

fn random_spheres(seed: u64, n: usize, half: f32) -> Vec<Sphere> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| Sphere {
            center: rng.point_in(Vec3::splat(-half), Vec3::splat(half)),
            radius: rng.range(1.0, 30.0),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn grid_cast_equals_testing_every_obstacle(
        seed in any::<u64>(),
        n in 1usize..300,
        query in 0.0f32..25.0,
        radius_fraction in 0.0f32..=1.0,
        ax in -400.0f32..400.0, ay in -400.0f32..400.0, az in -400.0f32..400.0,
        bx in -400.0f32..400.0, by in -400.0f32..400.0, bz in -400.0f32..400.0,
    ) {
        let spheres = random_spheres(seed, n, 300.0);
        let grid = ObstacleIndex::with_grid(&spheres, query);
        let brute = ObstacleIndex::brute_force(&spheres, query);
        let a = Vec3::new(ax, ay, az);
        let b = Vec3::new(bx, by, bz);
        let radius = query * radius_fraction;
        prop_assert_eq!(grid.cast(a, b, radius), brute.cast(a, b, radius));
        prop_assert_eq!(grid.cast(b, a, radius), brute.cast(b, a, radius));
        // Degenerate segments too.
        prop_assert_eq!(grid.cast(a, a, radius), brute.cast(a, a, radius));
    }

    #[test]
    fn grid_and_brute_force_plans_agree(seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let spheres = random_spheres(seed ^ 0x5eed, 60 + rng.below(100), 250.0);
        let start = rng.point_in(Vec3::splat(-250.0), Vec3::splat(250.0));
        let waypoints: Vec<Vec3> =
            (0..3).map(|_| rng.point_in(Vec3::splat(-250.0), Vec3::splat(250.0))).collect();
        let options = PlanOptions { iteration_limit: 64, ..PlanOptions::default() };
        let grid = ObstacleIndex::with_grid(&spheres, 18.0);
        let brute = ObstacleIndex::brute_force(&spheres, 18.0);
        let with_grid = plan(start, 8.0, &waypoints, &grid, &options);
        let with_brute = plan(start, 8.0, &waypoints, &brute, &options);
        prop_assert_eq!(with_grid, with_brute);
    }
}

#[test]
fn ten_thousand_obstacle_field_plans_completely_with_few_iterations() {
    let field = bench_scenario(10_000, 1);
    assert_eq!(field.waypoints.len(), BENCH_WAYPOINTS);
    let (obstacles, waypoints) = bench_field(10_000, 1);
    assert_eq!(obstacles, field.obstacles);
    assert_eq!(waypoints, field.waypoints);
    let index = ObstacleIndex::new(&field.obstacles, field.ship_radius + field.clearance);
    let stats = index.stats();
    assert!(!stats.brute_force);
    let options = PlanOptions { clearance: field.clearance, iteration_limit: 1000, ..PlanOptions::default() };
    let result = plan(field.start, field.ship_radius, &field.waypoints, &index, &options);
    eprintln!(
        "10k field: {} iterations, {} waypoints, {} avoidances, length {:.0} vs straight {:.0}; grid {:?} cells of {:.1}, \
         {} entries, {} large, at most {} per cell",
        result.iteration_count,
        result.waypoints.len(),
        result.avoidances.len(),
        result.planned_length(),
        steerlab::planner::straight_length(field.start, &field.waypoints),
        stats.dims,
        stats.cell_size,
        stats.entries,
        stats.large,
        stats.max_per_cell,
    );
    assert!(result.is_complete(), "{}", result.summary());
    assert!(result.iteration_count < 400);
}

/// A rough timing (debug build); run with `cargo test --test planner_index -- --ignored --nocapture`.
#[test]
#[ignore]
fn time_ten_thousand_obstacle_plans() {
    let field = bench_scenario(10_000, 1);
    let query = field.ship_radius + field.clearance;
    let options = PlanOptions { clearance: field.clearance, iteration_limit: 1000, ..PlanOptions::default() };
    let built = std::time::Instant::now();
    let index = ObstacleIndex::new(&field.obstacles, query);
    let build_time = built.elapsed();
    let runs = 50;
    let started = std::time::Instant::now();
    let mut iterations = 0;
    for _ in 0..runs {
        iterations +=
            plan(field.start, field.ship_radius, &field.waypoints, &index, &options).iteration_count;
    }
    let per_plan = started.elapsed() / runs;
    let brute = ObstacleIndex::brute_force(&field.obstacles, query);
    let started = std::time::Instant::now();
    let brute_result = plan(field.start, field.ship_radius, &field.waypoints, &brute, &options);
    let brute_time = started.elapsed();
    eprintln!(
        "index build {build_time:?}; plan {per_plan:?} ({} iterations); brute force {brute_time:?} ({} iterations)",
        iterations / runs,
        brute_result.iteration_count
    );
}
