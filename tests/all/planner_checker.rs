//! An independent check of the planner on many seeded random 3D fields: it measures every planned
//! segment against every obstacle with `distance_point_segment`, not with the planner's own casts.

use glam::Vec3;
use steerlab::geometry::cast::distance_point_segment;
use steerlab::geometry::Sphere;
use steerlab::planner::{
    plan, FallbackMode, ObstacleIndex, Plan, PlanOptions, PlanStatus, SplitMix64, UnreachableReason,
    WaypointKind,
};

struct Case {
    obstacles: Vec<Sphere>,
    start: Vec3,
    waypoints: Vec<Vec3>,
    ship_radius: f32,
    options: PlanOptions,
    use_grid: bool,
}

fn random_case(seed: u64) -> Case {
    let mut rng = SplitMix64::new(seed);
    let half = 200.0;
    let lo = Vec3::splat(-half);
    let hi = Vec3::splat(half);
    let n_obstacles = rng.below(41);
    let obstacles = (0..n_obstacles)
        .map(|_| Sphere { center: rng.point_in(lo, hi), radius: rng.range(3.0, 40.0) })
        .collect();
    let start = rng.point_in(lo, hi);
    let n_waypoints = 1 + rng.below(4);
    let waypoints = (0..n_waypoints).map(|_| rng.point_in(lo, hi)).collect();
    let ship_radius = rng.range(2.0, 10.0);
    let options = PlanOptions {
        clearance: rng.range(1.0, 15.0),
        iteration_limit: 100,
        smoothing: rng.below(2) == 0,
        record: rng.below(4) == 0,
        fallback: FallbackMode::WhenStuck,
    };
    Case { obstacles, start, waypoints, ship_radius, options, use_grid: rng.below(2) == 0 }
}

/// Every leg except an exit leg keeps the inflated radius from every obstacle centre.
fn check_clearance(case: &Case, result: &Plan) -> Result<(), String> {
    let mut previous = case.start;
    for (i, (&w, &kind)) in result.waypoints.iter().zip(&result.kinds).enumerate() {
        if !w.is_finite() {
            return Err(format!("waypoint {i} is not finite: {w}"));
        }
        if kind != WaypointKind::Exit {
            for (k, s) in case.obstacles.iter().enumerate() {
                let needed = s.radius + case.ship_radius + case.options.clearance;
                let distance = distance_point_segment(s.center, previous, w);
                if distance < needed - 1e-3 - 1e-4 * needed {
                    return Err(format!(
                        "leg {i} ({previous} -> {w}) passes {distance} from obstacle {k}, needs {needed}"
                    ));
                }
            }
        }
        previous = w;
    }
    Ok(())
}

#[test]
fn complete_plans_keep_the_clearance_on_a_thousand_random_fields() {
    let (mut complete, mut with_unreachable, mut limited, mut exits) = (0, 0, 0, 0);
    for seed in 0..1000u64 {
        let case = random_case(seed);
        let query = case.ship_radius + case.options.clearance;
        let index = if case.use_grid {
            ObstacleIndex::with_grid(&case.obstacles, query)
        } else {
            ObstacleIndex::new(&case.obstacles, query)
        };
        let result = plan(case.start, case.ship_radius, &case.waypoints, &index, &case.options);
        assert!(
            result.iteration_count <= case.options.iteration_limit,
            "seed {seed}: {} iterations",
            result.iteration_count
        );
        assert_eq!(result.waypoints.len(), result.kinds.len(), "seed {seed}");
        if case.options.record {
            assert_eq!(result.iterations.len() as u32, result.iteration_count, "seed {seed}");
        }
        for u in result.unreachable() {
            let UnreachableReason::InsideObstacle { obstacle } = u.reason else {
                panic!("seed {seed}: unexpected reason {:?}", u.reason);
            };
            let s = case.obstacles[obstacle];
            assert!(u.position.distance(s.center) < s.radius + case.ship_radius, "seed {seed}");
        }
        if result.kinds.first() == Some(&WaypointKind::Exit) {
            exits += 1;
        }
        match &result.status {
            PlanStatus::Complete => complete += 1,
            PlanStatus::Unreachable(_) => with_unreachable += 1,
            PlanStatus::IterationLimit { .. } => limited += 1,
        }
        if result.is_finished() {
            if let Err(message) = check_clearance(&case, &result) {
                panic!("seed {seed}: {message}");
            }
            // Every reachable user waypoint appears once, in order.
            let users: Vec<usize> = result
                .kinds
                .iter()
                .filter_map(|k| match k {
                    WaypointKind::User(i) => Some(*i),
                    _ => None,
                })
                .collect();
            assert!(users.windows(2).all(|w| w[0] < w[1]), "seed {seed}: {users:?}");
            assert_eq!(
                users.len() + result.unreachable().len(),
                case.waypoints.len(),
                "seed {seed}: {:?}",
                result.notes
            );
        } else {
            // A partial plan still only contains checked legs.
            if let Err(message) = check_clearance(&case, &result) {
                panic!("seed {seed} (partial): {message}");
            }
        }
    }
    eprintln!(
        "random fields: {complete} complete, {with_unreachable} complete except unreachable waypoints, \
         {limited} hit the iteration limit, {exits} started inside an obstacle"
    );
    assert!(complete + with_unreachable >= 900, "too many partial plans: {limited}");
}

#[test]
fn planar_fields_give_planar_plans() {
    // 2D scenes live on z = 0: avoidance waypoints must stay there.
    for seed in 0..200u64 {
        let mut rng = SplitMix64::new(10_000 + seed);
        let flat = |rng: &mut SplitMix64| Vec3::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0), 0.0);
        let obstacles: Vec<Sphere> = (0..rng.below(25))
            .map(|_| Sphere { center: flat(&mut rng), radius: rng.range(5.0, 40.0) })
            .collect();
        let start = flat(&mut rng);
        let waypoints: Vec<Vec3> = (0..1 + rng.below(4)).map(|_| flat(&mut rng)).collect();
        let index = ObstacleIndex::new(&obstacles, 18.0);
        let options = PlanOptions { iteration_limit: 100, ..PlanOptions::default() };
        let result = plan(start, 8.0, &waypoints, &index, &options);
        for w in &result.waypoints {
            assert_eq!(w.z, 0.0, "seed {seed}: {w}");
        }
    }
}

#[test]
fn dense_fields_keep_the_clearance_and_rarely_hit_the_iteration_limit() {
    // Up to 40 obstacles of radius up to 50 in a 300-unit cube: many overlap, many waypoints are
    // inside obstacles, and narrow gaps make the loop work hard.
    let (mut finished, mut limited, mut clustered) = (0, 0, 0);
    for seed in 0..1000u64 {
        let mut rng = SplitMix64::new(seed * 31 + 5);
        let lo = Vec3::splat(-150.0);
        let hi = Vec3::splat(150.0);
        let obstacles: Vec<Sphere> = (0..rng.below(41))
            .map(|_| Sphere { center: rng.point_in(lo, hi), radius: rng.range(5.0, 50.0) })
            .collect();
        let start = rng.point_in(lo, hi);
        let waypoints: Vec<Vec3> = (0..1 + rng.below(4)).map(|_| rng.point_in(lo, hi)).collect();
        let options = PlanOptions {
            clearance: 10.0,
            iteration_limit: 200,
            smoothing: false,
            record: false,
            fallback: FallbackMode::Off,
        };
        let case = Case { obstacles, start, waypoints, ship_radius: 8.0, options, use_grid: false };
        let index = ObstacleIndex::new(&case.obstacles, 18.0);
        let result = plan(case.start, case.ship_radius, &case.waypoints, &index, &case.options);
        assert!(result.iteration_count <= 200);
        if let Err(message) = check_clearance(&case, &result) {
            panic!("seed {seed}: {message}");
        }
        clustered += result.avoidances.iter().filter(|a| a.cluster_size > 1).count();
        if result.is_finished() {
            finished += 1;
        } else {
            limited += 1;
        }
    }
    eprintln!("dense fields: {finished} finished, {limited} hit the limit, {clustered} cluster avoidances");
    assert!(limited <= 10, "{limited} dense fields hit the iteration limit");
    assert!(clustered > 0);
}
