//! Issue 9's proof: the ship of seed 004 flown through seeded dense fields (overlapping spheres,
//! walls with a gap, a tunnel, a sealed pocket) at 10, 30, 80 and 150 random obstacles, checked
//! against the independent grid oracle of `planner::dense`: every reachable waypoint reached within
//! `time_bound`, zero contact, every unreachable one reported within a few replans.

use steerlab::planner::dense::{dense_field, time_bound, DenseRun, Outcome, Structure, DENSE_COUNTS};

/// Fields per obstacle count (4 counts: 300 fields in all).
const FIELDS_PER_COUNT: u64 = 75;
/// Replans after an unreachable waypoint becomes the next one by which it must be reported.
const REPORT_WITHIN_REPLANS: u32 = 4;

#[derive(Default, Debug)]
struct Tally {
    fields: usize,
    failed: Vec<String>,
    contacts: usize,
    ratio_sum: f32,
    ratio_n: usize,
}

fn check(n: usize, seed: u64, tally: &mut Tally) {
    let field = dense_field(n, seed);
    let bound = time_bound(&field);
    let mut run = DenseRun::new(&field, 0.0);
    run.fly(bound + 1.0);
    tally.fields += 1;
    let mut problems = Vec::new();
    if run.contact_steps > 0 {
        tally.contacts += 1;
        problems.push(format!("contact, min signed distance {:.2}", run.min_signed_distance));
    }
    for (k, (outcome, &reachable)) in run.outcomes.iter().zip(&field.reachable).enumerate() {
        match (*outcome, reachable) {
            (Outcome::Reached(t), true) if t <= bound => {}
            (Outcome::ReportedUnreachable(_, replans), false) if replans <= REPORT_WITHIN_REPLANS => {}
            (other, _) => problems.push(format!("waypoint {k} (reachable {reachable}): {other:?}")),
        }
    }
    if field.reachable.iter().all(|&r| r) && run.resolved() && field.grid_length > 0.0 {
        tally.ratio_sum += run.time() / (field.grid_length / 120.0);
        tally.ratio_n += 1;
    }
    if !problems.is_empty() {
        tally.failed.push(format!("n {n} seed {seed} ({:?}): {}", field.structure, problems.join("; ")));
    }
}

/// Measured with the seed's planner alone (before the fallback): 211 of 300 fields failed —
/// random-only fields 0/19 at 10 and 30 obstacles, 2/19 at 80, 8/18 at 150; nearly every wall,
/// tunnel and pocket field; 12 with contact.
#[test]
fn dense_fields_are_flown_without_contact_and_unreachable_waypoints_are_reported() {
    let mut tally = Tally::default();
    for &n in &DENSE_COUNTS {
        for seed in 0..FIELDS_PER_COUNT {
            check(n, seed, &mut tally);
        }
    }
    eprintln!(
        "dense fields: {} flown, {} failed, {} with contact, mean flight time / grid shortest path time {:.2}",
        tally.fields,
        tally.failed.len(),
        tally.contacts,
        tally.ratio_sum / tally.ratio_n.max(1) as f32
    );
    for line in &tally.failed {
        eprintln!("  {line}");
    }
    assert!(tally.fields >= 300);
    assert!(tally.failed.is_empty(), "{} of {} fields failed", tally.failed.len(), tally.fields);
}

#[test]
fn every_structure_occurs_and_pockets_are_unreachable() {
    let mut seen = Vec::new();
    for seed in 0..8 {
        let field = dense_field(80, seed);
        if !seen.contains(&field.structure) {
            seen.push(field.structure);
        }
        assert_eq!(field.reachable[1], field.structure != Structure::Pocket);
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

/// The shipped dense scene's flown length: 1,551 units when the fallback searched the fine grid
/// alone, 1,722 with the coarse-to-fine search before corners were tightened (the coarse cells'
/// extra margin round every corner), 1,566 now.
#[test]
fn the_dense_scene_is_flown_about_as_short_as_with_the_fine_grid_alone() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-dense.json");
    let mut world = steerlab::scene::load_scene(&path).unwrap();
    world.run_steps(3600);
    let metrics = world.metrics();
    assert!(metrics[0].arrived_at.is_some());
    assert_eq!(metrics[0].collisions, 0);
    let flown = metrics[0].distance_travelled;
    assert!(flown <= 1.02 * 1551.0, "flew {flown:.1}");
}

/// Route length of the complete fallback against the independent oracle's grid shortest path
/// (`planner::dense::Oracle`: 26-connected cells of 8 units whose centres keep ρ + 4 from every
/// obstacle centre, so its corridors are narrower than the fallback's ρ and its path zig-zags by
/// along cell directions). A route through the same corridor that hugs the inflated spheres (any
/// angle, same cast) is no longer than the oracle's path: the fine grid alone, untightened, gives
/// at worst 0.96 here. The coarse-to-fine search before tightening reached 1.115 (its corners keep
/// the coarse cells' extra margin); tightened, 1.048, the rest being a coarse level's choice of a
/// longer corridor. The bound 1.05 holds that.
#[test]
fn fallback_routes_are_about_as_short_as_the_oracle_grid_shortest_path() {
    use steerlab::planner::dense::{Oracle, Verdict};
    use steerlab::planner::fallback::{search, FallbackOutcome};
    use steerlab::planner::{path_length, ObstacleIndex};
    let inflate = 10.0;
    let (mut worst, mut sum, mut n) = (0.0f32, 0.0f32, 0usize);
    let mut worst_case = String::new();
    for &count in &[30usize, 80, 150] {
        for seed in 0..25 {
            let field = dense_field(count, seed);
            let (from, to) = (field.start, field.waypoints[0]);
            if !field.reachable[0] {
                continue;
            }
            let index = ObstacleIndex::new(&field.obstacles, inflate);
            if index.is_clear(from, to, inflate) {
                continue;
            }
            let oracle = Oracle::new(&field.obstacles, &[from, to], inflate);
            let Verdict::Reachable(grid) = oracle.verdict(from, to) else { continue };
            let found = search(from, to, &index, inflate);
            let FallbackOutcome::Route(route) = &found.outcome else {
                panic!(
                    "n {count} seed {seed}: the oracle proves a route, the fallback found {:?}",
                    found.outcome
                )
            };
            // Independent clearance check of every leg (distances, no casts).
            let mut a = from;
            for &b in route {
                for s in &field.obstacles {
                    let d = steerlab::geometry::cast::distance_point_segment(s.center, a, b);
                    assert!(
                        d >= s.radius + inflate - 1e-2,
                        "n {count} seed {seed}: a leg enters an obstacle"
                    );
                }
                a = b;
            }
            let ratio = path_length(from, route) / grid;
            sum += ratio;
            n += 1;
            if ratio > worst {
                worst = ratio;
                worst_case = format!(
                    "n {count} seed {seed} ({:?}): {:.1} vs {grid:.1}",
                    field.structure,
                    path_length(from, route)
                );
            }
        }
    }
    eprintln!(
        "fallback route / oracle grid path: {n} searches, mean {:.3}, worst {worst:.3} ({worst_case})",
        sum / n.max(1) as f32
    );
    assert!(n >= 30, "{n} searches");
    assert!(worst <= ROUTE_RATIO_BOUND, "worst {worst:.3}: {worst_case}");
}

/// See `fallback_routes_are_about_as_short_as_the_oracle_grid_shortest_path`.
const ROUTE_RATIO_BOUND: f32 = 1.05;
