//! Deterministic random obstacle fields for the planner's benchmark and tests: a tiny splitmix64
//! generator (no `rand`, no OS entropy) and [`bench_field`], the 3D field `steerlab bench` and the
//! tests plan through.
//!
//! # Motivation
//! Seed 004 promises that the iteration limit keeps planning cheap; the design asks for 10
//! waypoints through 10,000 obstacles in under a millisecond. Measuring that needs the same field
//! on every machine and every run.
//!
//! # Implementation
//! splitmix64 (Steele, Lea and Flood) gives 64 well-mixed bits per call from a counter. The field
//! is a cube centred on the origin whose side grows with the cube root of the obstacle count, so
//! the obstacles inflated by the ship radius and clearance fill about a tenth of it whatever the
//! count. Obstacles never cover the start (the origin); waypoints are drawn until they keep the
//! clearance from every obstacle.
//!
//! # Parameters
//! Radii are uniform in 5–25 world units; the ship radius is [`BENCH_SHIP_RADIUS`] and the
//! clearance [`BENCH_CLEARANCE`]; there are [`BENCH_WAYPOINTS`] waypoints.

use crate::geometry::Sphere;
use glam::Vec3;

/// Ship radius the benchmark field is sized for (world units).
pub const BENCH_SHIP_RADIUS: f32 = 8.0;
/// Clearance the benchmark field is sized for (world units).
pub const BENCH_CLEARANCE: f32 = 10.0;
/// Where the benchmark ship starts.
pub const BENCH_START: Vec3 = Vec3::ZERO;
/// Number of user waypoints in a benchmark field.
pub const BENCH_WAYPOINTS: usize = 10;

/// The splitmix64 generator: deterministic, tiny, good enough for test fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed` (any value, zero included).
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }

    /// Uniform integer in [0, n) (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// Uniform point in the box [lo, hi).
    pub fn point_in(&mut self, lo: Vec3, hi: Vec3) -> Vec3 {
        Vec3::new(self.range(lo.x, hi.x), self.range(lo.y, hi.y), self.range(lo.z, hi.z))
    }
}

/// A benchmark scenario: obstacles, the ship's start and size, and the user's waypoints.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchField {
    /// The obstacles.
    pub obstacles: Vec<Sphere>,
    /// Where the ship starts ([`BENCH_START`]).
    pub start: Vec3,
    /// The user waypoints ([`BENCH_WAYPOINTS`] of them).
    pub waypoints: Vec<Vec3>,
    /// Ship radius ([`BENCH_SHIP_RADIUS`]).
    pub ship_radius: f32,
    /// Clearance ([`BENCH_CLEARANCE`]).
    pub clearance: f32,
    /// Half the side of the cube the field fills.
    pub half_size: f32,
}

/// The benchmark field of `n_obstacles` obstacles for `seed`: the obstacles and the
/// [`BENCH_WAYPOINTS`] user waypoints; the ship starts at [`BENCH_START`] with radius
/// [`BENCH_SHIP_RADIUS`] and clearance [`BENCH_CLEARANCE`].
pub fn bench_field(n_obstacles: usize, seed: u64) -> (Vec<Sphere>, Vec<Vec3>) {
    let field = bench_scenario(n_obstacles, seed);
    (field.obstacles, field.waypoints)
}

/// The full benchmark scenario behind [`bench_field`].
pub fn bench_scenario(n_obstacles: usize, seed: u64) -> BenchField {
    let mut rng = SplitMix64::new(seed);
    let query = BENCH_SHIP_RADIUS + BENCH_CLEARANCE;
    // Mean inflated volume is about 160,000 cubic units; fill about 10% of the cube with it.
    let half_size = (0.5 * 117.0 * (n_obstacles.max(1) as f32).cbrt()).max(200.0);
    let lo = Vec3::splat(-half_size);
    let hi = Vec3::splat(half_size);
    let mut obstacles = Vec::with_capacity(n_obstacles);
    while obstacles.len() < n_obstacles {
        let center = rng.point_in(lo, hi);
        let radius = rng.range(5.0, 25.0);
        if center.distance(BENCH_START) > (radius + query) * 1.1 {
            obstacles.push(Sphere { center, radius });
        }
    }
    let mut waypoints = Vec::with_capacity(BENCH_WAYPOINTS);
    while waypoints.len() < BENCH_WAYPOINTS {
        let mut candidate = rng.point_in(lo, hi);
        for _ in 0..1000 {
            if obstacles.iter().all(|s| candidate.distance(s.center) > (s.radius + query) * 1.05) {
                break;
            }
            candidate = rng.point_in(lo, hi);
        }
        waypoints.push(candidate);
    }
    BenchField {
        obstacles,
        start: BENCH_START,
        waypoints,
        ship_radius: BENCH_SHIP_RADIUS,
        clearance: BENCH_CLEARANCE,
        half_size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence_for_seed_zero() {
        // Reference values of splitmix64 seeded with 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn unit_floats_stay_below_one() {
        let mut rng = SplitMix64::new(7);
        assert!((0..10_000).map(|_| rng.next_f32()).all(|x| (0.0..1.0).contains(&x)));
    }

    #[test]
    fn the_same_seed_gives_the_same_field() {
        assert_eq!(bench_field(200, 3), bench_field(200, 3));
        assert_ne!(bench_field(200, 3), bench_field(200, 4));
    }

    #[test]
    fn bench_waypoints_keep_the_clearance() {
        let field = bench_scenario(500, 1);
        assert_eq!(field.waypoints.len(), BENCH_WAYPOINTS);
        for w in &field.waypoints {
            for s in &field.obstacles {
                assert!(w.distance(s.center) > s.radius + field.ship_radius + field.clearance);
            }
        }
    }
}
