//! Seeded dense obstacle fields, an independent grid oracle that decides which waypoints are
//! reachable, and a flight checker that flies the ship through them (issue 9's own proof; used by
//! `tests/all/planner_dense.rs` and `steerlab bench`).
//!
//! # Motivation
//! "The planner works" must be measured where it is hard: random fields of overlapping spheres,
//! walls with a gap, a tunnel, and a pocket sealed around a waypoint. Whether a waypoint can be
//! reached at all is decided here without the planner's code (no
//! [`ObstacleIndex`](super::ObstacleIndex), no casts, no fallback search): only point–sphere
//! distances on a grid.
//!
//! # Implementation
//! *Fields* ([`dense_field`]): `n` spheres with centres uniform in x 80..720, y −250..250,
//! z −150..150 and radii 15..60 (they may overlap), none within reach of the start (the origin),
//! plus one structure chosen by the seed: none, a wall of spheres with a gap, a tunnel with a
//! waypoint inside, or a sealed pocket (a shell of spheres) around a waypoint. Three waypoints keep
//! at least [`WAYPOINT_CLEAR`] from every obstacle surface.
//!
//! *Oracle* ([`Oracle`]), a grid of [`ORACLE_CELL`] units with ρ = obstacle radius + ship radius +
//! clearance, decided two-sided so that every answer is a proof:
//! - **reachable**: a 26-connected search over cells whose centres keep ρ + 4 from every centre.
//!   A segment between neighbouring centres (at most 8√3 long) then keeps ρ (for ρ ≥ 4, since
//!   (ρ + 4)² − (4√3)² ≥ ρ²), and the point itself joins a cell within half a diagonal by a checked
//!   straight segment, so a path exists.
//! - **unreachable**: a 26-connected search over cells whose centres are farther than ρ − 4√3 from
//!   every centre. Any free continuous path only visits cells whose centres are within half a
//!   diagonal (4√3) of a free point, hence loose-free, and consecutive cells along it touch; so no
//!   loose path means no path.
//! - anything else is *ambiguous*; the generator draws again, so every field is decided.
//!
//! The search runs from the waypoint toward the start (a sealed pocket is exhausted quickly) and is
//! A* with the straight-line heuristic, so it also gives the **grid shortest path** length.
//!
//! *Flights* ([`DenseRun`]): the ship of seed 004 with the limits (radius 6, speed 120,
//! acceleration 200, clearance 4, iteration limit 64, replan 0.5 s, arrival 8), integrated by the
//! simulation's own [`integrate`] at 1/60 s. The run records the minimum signed distance from the
//! ship's sphere to every obstacle, which waypoints were reached or reported unreachable, and when.
//!
//! # Parameters
//! [`DENSE_COUNTS`] (10, 30, 80, 150 random obstacles), [`ORACLE_CELL`] (8 units),
//! [`WAYPOINT_CLEAR`] (25 units), [`dense_limits`] and [`dense_params`] (the ship).

use super::{ship, PlannerParams, ShipState, SplitMix64};
use crate::behaviours::{Gizmos, Kinematics, Limits};
use crate::geometry::Sphere;
use crate::sim::integrate;
use glam::Vec3;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Random obstacle counts of the checker's fields.
pub const DENSE_COUNTS: [usize; 4] = [10, 30, 80, 150];
/// Edge of an oracle cell (world units).
pub const ORACLE_CELL: f32 = 8.0;
/// Every waypoint keeps at least this from every obstacle surface (world units).
pub const WAYPOINT_CLEAR: f32 = 25.0;
/// Step of the checker's flights (seconds).
pub const DENSE_DT: f32 = 1.0 / 60.0;

/// The structure a field carries besides its random spheres.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// Random spheres only.
    None,
    /// A wall of spheres across x with one gap.
    Wall,
    /// A tube of sphere rings along x with waypoint 2 inside.
    Tunnel,
    /// A sealed shell of spheres around waypoint 2 (unreachable).
    Pocket,
}

/// A seeded dense field with its oracle verdicts.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseField {
    /// The seed it was made from.
    pub seed: u64,
    /// Random obstacles asked for.
    pub random_obstacles: usize,
    /// The structure added.
    pub structure: Structure,
    /// Every obstacle (random ones first).
    pub obstacles: Vec<Sphere>,
    /// Where the ship starts.
    pub start: Vec3,
    /// The user waypoints, in order.
    pub waypoints: Vec<Vec3>,
    /// The oracle's verdict for each waypoint (reachable from the start).
    pub reachable: Vec<bool>,
    /// Grid shortest path from the start through the reachable waypoints in order (world units).
    pub grid_length: f32,
}

/// The ship limits: radius 6, max speed 120, max acceleration 200.
pub fn dense_limits() -> Limits {
    Limits { radius: 6.0, max_speed: 120.0, max_acceleration: 200.0 }
}

/// The planner parameters for `waypoints`: clearance 4, iteration limit 64, replan every
/// 0.5 s, arrival radius 8.
pub fn dense_params(waypoints: &[Vec3]) -> PlannerParams {
    PlannerParams {
        waypoints: waypoints.to_vec(),
        clearance: 4.0,
        iteration_limit: 64,
        replan_interval: 0.5,
        arrival_radius: 8.0,
        ..PlannerParams::default()
    }
}

/// The inflation the oracle and the checker use: ship radius plus clearance.
fn inflation() -> f32 {
    dense_limits().radius + dense_params(&[]).clearance
}

/// The oracle's answer for one pair of points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// A path keeping the clearance exists; the grid shortest path has this length.
    Reachable(f32),
    /// No path keeping the clearance exists.
    Unreachable,
    /// The grid cannot tell (the generator draws again).
    Ambiguous,
}

/// The two-sided grid oracle of the module header.
pub struct Oracle {
    origin: Vec3,
    dims: [usize; 3],
    /// Bit 0: strictly free; bit 1: loosely free.
    cells: Vec<u8>,
    obstacles: Vec<Sphere>,
    inflate: f32,
}

const STRICT: u8 = 1;
const LOOSE: u8 = 2;

impl Oracle {
    /// Builds the grid over everything in `obstacles` and `points`, with a free margin round it.
    pub fn new(obstacles: &[Sphere], points: &[Vec3], inflate: f32) -> Self {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        for s in obstacles {
            lo = lo.min(s.center - Vec3::splat(s.radius + inflate));
            hi = hi.max(s.center + Vec3::splat(s.radius + inflate));
        }
        for &p in points {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        let margin = Vec3::splat(4.0 * ORACLE_CELL);
        let origin = lo - margin;
        let extent = hi + margin - origin;
        let dims = [0, 1, 2].map(|a| (extent[a] / ORACLE_CELL).ceil().max(1.0) as usize + 1);
        let mut cells = vec![STRICT | LOOSE; dims[0] * dims[1] * dims[2]];
        let half_diagonal = 0.5 * ORACLE_CELL * 3f32.sqrt();
        for s in obstacles {
            let rho = s.radius + inflate;
            let reach = rho + 4.0;
            let a = ((s.center - Vec3::splat(reach) - origin) / ORACLE_CELL).floor().max(Vec3::ZERO);
            let b = ((s.center + Vec3::splat(reach) - origin) / ORACLE_CELL).ceil();
            for z in a.z as usize..=(b.z as usize).min(dims[2] - 1) {
                for y in a.y as usize..=(b.y as usize).min(dims[1] - 1) {
                    for x in a.x as usize..=(b.x as usize).min(dims[0] - 1) {
                        let c = origin + Vec3::new(x as f32, y as f32, z as f32) * ORACLE_CELL;
                        let d = c.distance(s.center);
                        let i = (z * dims[1] + y) * dims[0] + x;
                        if d < rho + 4.0 {
                            cells[i] &= !STRICT;
                        }
                        if d <= rho - half_diagonal + 1e-3 {
                            cells[i] &= !LOOSE;
                        }
                    }
                }
            }
        }
        Oracle { origin, dims, cells, obstacles: obstacles.to_vec(), inflate }
    }

    fn centre(&self, i: usize) -> Vec3 {
        let x = i % self.dims[0];
        let y = (i / self.dims[0]) % self.dims[1];
        let z = i / (self.dims[0] * self.dims[1]);
        self.origin + Vec3::new(x as f32, y as f32, z as f32) * ORACLE_CELL
    }

    fn coords(&self, p: Vec3) -> Option<[usize; 3]> {
        let g = (p - self.origin) / ORACLE_CELL;
        let ok = (0..3).all(|a| g[a] >= 0.0 && (g[a] as usize) < self.dims[a]);
        ok.then_some([g.x as usize, g.y as usize, g.z as usize])
    }

    fn index(&self, c: [usize; 3]) -> usize {
        (c[2] * self.dims[1] + c[1]) * self.dims[0] + c[0]
    }

    /// True when the straight segment keeps the clearance from every obstacle (exact).
    fn segment_clear(&self, a: Vec3, b: Vec3) -> bool {
        self.obstacles
            .iter()
            .all(|s| crate::geometry::cast::distance_point_segment(s.center, a, b) >= s.radius + self.inflate)
    }

    /// The cells a point may start from in the given mode: strict cells joined by a clear segment
    /// (the 8 surrounding centres), or the loose cell containing it.
    fn entries(&self, p: Vec3, mode: u8) -> Vec<usize> {
        let Some(c) = self.coords(p) else { return Vec::new() };
        if mode == LOOSE {
            return vec![self.index(c)];
        }
        let mut out = Vec::new();
        for dz in 0..2 {
            for dy in 0..2 {
                for dx in 0..2 {
                    let cc = [c[0] + dx, c[1] + dy, c[2] + dz];
                    if (0..3).any(|a| cc[a] >= self.dims[a]) {
                        continue;
                    }
                    let i = self.index(cc);
                    if self.cells[i] & STRICT != 0 && self.segment_clear(p, self.centre(i)) {
                        out.push(i);
                    }
                }
            }
        }
        out
    }

    /// A* from `from` to `to` over the cells of `mode`; the path length (with the joining
    /// segments) when they connect.
    fn search(&self, from: Vec3, to: Vec3, mode: u8) -> Option<f32> {
        let sources = self.entries(from, mode);
        let goals = self.entries(to, mode);
        if sources.is_empty() || goals.is_empty() {
            return None;
        }
        if mode == LOOSE && self.cells[sources[0]] & LOOSE == 0 {
            return None;
        }
        let n = self.cells.len();
        let mut g = vec![f32::INFINITY; n];
        let mut goal_extra = vec![f32::NAN; 0];
        goal_extra.resize(n, f32::NAN);
        for &i in &goals {
            goal_extra[i] = if mode == STRICT { self.centre(i).distance(to) } else { 0.0 };
        }
        let mut heap = BinaryHeap::new();
        for &i in &sources {
            let d = if mode == STRICT { from.distance(self.centre(i)) } else { 0.0 };
            if d < g[i] {
                g[i] = d;
                heap.push(Open { f: d + self.centre(i).distance(to), i });
            }
        }
        let mut best = f32::INFINITY;
        let [nx, ny, nz] = self.dims;
        while let Some(Open { f, i }) = heap.pop() {
            if f >= best {
                break;
            }
            let gi = g[i];
            if f > gi + self.centre(i).distance(to) + 1e-3 {
                continue;
            }
            if !goal_extra[i].is_nan() {
                best = best.min(gi + goal_extra[i]);
            }
            let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx * ny));
            for dz in -1i32..=1 {
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        if dx == 0 && dy == 0 && dz == 0 {
                            continue;
                        }
                        let (xx, yy, zz) = (x as i32 + dx, y as i32 + dy, z as i32 + dz);
                        if xx < 0 || yy < 0 || zz < 0 || xx >= nx as i32 || yy >= ny as i32 || zz >= nz as i32
                        {
                            continue;
                        }
                        let j = (zz as usize * ny + yy as usize) * nx + xx as usize;
                        if self.cells[j] & mode == 0 {
                            continue;
                        }
                        let step = ORACLE_CELL * ((dx * dx + dy * dy + dz * dz) as f32).sqrt();
                        let gj = gi + step;
                        if gj < g[j] {
                            g[j] = gj;
                            heap.push(Open { f: gj + self.centre(j).distance(to), i: j });
                        }
                    }
                }
            }
        }
        best.is_finite().then_some(best)
    }

    /// Decides whether `to` can be reached from `from` keeping the clearance (module header).
    pub fn verdict(&self, from: Vec3, to: Vec3) -> Verdict {
        // Searching from the waypoint exhausts a sealed pocket quickly.
        if let Some(length) = self.search(to, from, STRICT) {
            return Verdict::Reachable(length);
        }
        match self.search(to, from, LOOSE) {
            None => Verdict::Unreachable,
            Some(_) => Verdict::Ambiguous,
        }
    }
}

#[derive(PartialEq)]
struct Open {
    f: f32,
    i: usize,
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        // A min-heap on f, ties by index (deterministic).
        other.f.total_cmp(&self.f).then_with(|| other.i.cmp(&self.i))
    }
}

/// The structure a seed gets: fields cycle through none, wall, tunnel, pocket.
pub fn structure_for(seed: u64) -> Structure {
    match seed % 4 {
        0 => Structure::None,
        1 => Structure::Wall,
        2 => Structure::Tunnel,
        _ => Structure::Pocket,
    }
}

/// The dense field for `random_obstacles` and `seed` (module header), decided by the oracle.
pub fn dense_field(random_obstacles: usize, seed: u64) -> DenseField {
    let structure = structure_for(seed);
    let start = Vec3::ZERO;
    let inflate = inflation();
    let lo = Vec3::new(80.0, -250.0, -150.0);
    let hi = Vec3::new(720.0, 250.0, 150.0);
    let mut attempt = 0u64;
    loop {
        let mut rng = SplitMix64::new(
            seed.wrapping_mul(0x9E37_79B9).wrapping_add(attempt << 32) ^ random_obstacles as u64,
        );
        attempt += 1;
        let mut obstacles: Vec<Sphere> = Vec::with_capacity(random_obstacles);
        while obstacles.len() < random_obstacles {
            let center = rng.point_in(lo, hi);
            let radius = rng.range(15.0, 60.0);
            if center.distance(start) > radius + inflate + 20.0 {
                obstacles.push(Sphere { center, radius });
            }
        }
        let mut designed: Option<Vec3> = None;
        match structure {
            Structure::None => {}
            Structure::Wall => {
                let x = rng.range(300.0, 500.0);
                let (gy, gz) = (rng.below(13) as i32 - 6, rng.below(9) as i32 - 4);
                let gap = Vec3::new(x, (gy as f32 + 0.5) * 40.0, (gz as f32 + 0.5) * 40.0);
                obstacles.retain(|s| s.center.distance(gap) > s.radius + inflate + 30.0);
                for iy in -8..=8 {
                    for iz in -6..=6 {
                        if (iy == gy || iy == gy + 1) && (iz == gz || iz == gz + 1) {
                            continue;
                        }
                        let center = Vec3::new(x, iy as f32 * 40.0, iz as f32 * 40.0);
                        obstacles.push(Sphere { center, radius: 30.0 });
                    }
                }
            }
            Structure::Tunnel => {
                let (y0, z0) = (rng.range(-150.0, 150.0), rng.range(-80.0, 80.0));
                let (x0, x1) = (250.0, 550.0);
                obstacles.retain(|s| {
                    let axis = Vec3::new(s.center.x.clamp(x0 - 40.0, x1 + 40.0), y0, z0);
                    s.center.distance(axis) > s.radius + 70.0
                });
                let mut x = x0;
                while x <= x1 {
                    for k in 0..10 {
                        let angle = std::f32::consts::TAU * k as f32 / 10.0;
                        let center = Vec3::new(x, y0 + 58.0 * angle.cos(), z0 + 58.0 * angle.sin());
                        obstacles.push(Sphere { center, radius: 18.0 });
                    }
                    x += 20.0;
                }
                designed = Some(Vec3::new(0.5 * (x0 + x1), y0, z0));
            }
            Structure::Pocket => {
                let p = rng.point_in(Vec3::new(200.0, -150.0, -80.0), Vec3::new(600.0, 150.0, 80.0));
                let shell = 20.0 + WAYPOINT_CLEAR + 1.0;
                obstacles.retain(|s| s.center.distance(p) > s.radius + shell + 30.0);
                let n = 48;
                let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
                for k in 0..n {
                    let zc = 1.0 - 2.0 * (k as f32 + 0.5) / n as f32;
                    let r = (1.0 - zc * zc).max(0.0).sqrt();
                    let angle = golden * k as f32;
                    let dir = Vec3::new(r * angle.cos(), r * angle.sin(), zc);
                    obstacles.push(Sphere { center: p + dir * shell, radius: 20.0 });
                }
                designed = Some(p);
            }
        }
        let clear_of = |p: Vec3, obstacles: &[Sphere]| {
            obstacles.iter().all(|s| p.distance(s.center) >= s.radius + WAYPOINT_CLEAR)
        };
        let mut waypoints = Vec::with_capacity(3);
        for k in 0..3 {
            if k == 1 {
                if let Some(p) = designed {
                    waypoints.push(p);
                    continue;
                }
            }
            let mut p = rng.point_in(lo, hi);
            for _ in 0..2000 {
                if clear_of(p, &obstacles) {
                    break;
                }
                p = rng.point_in(lo, hi);
            }
            waypoints.push(p);
        }
        if !waypoints.iter().all(|&p| clear_of(p, &obstacles)) {
            continue;
        }
        let mut points = waypoints.clone();
        points.push(start);
        let oracle = Oracle::new(&obstacles, &points, inflate);
        let mut reachable = Vec::with_capacity(3);
        let mut decided = true;
        for (k, &w) in waypoints.iter().enumerate() {
            match oracle.verdict(start, w) {
                Verdict::Reachable(_) => reachable.push(true),
                Verdict::Unreachable => reachable.push(false),
                Verdict::Ambiguous => decided = false,
            }
            // Random waypoints must be reachable; the designed one must match its design.
            let expected = !(k == 1 && structure == Structure::Pocket);
            if reachable.last() != Some(&expected) {
                decided = false;
            }
            if !decided {
                break;
            }
        }
        if !decided {
            continue;
        }
        let mut grid_length = 0.0;
        let mut previous = start;
        for (&w, &ok) in waypoints.iter().zip(&reachable) {
            if !ok {
                continue;
            }
            match oracle.verdict(previous, w) {
                Verdict::Reachable(length) => grid_length += length,
                _ => {
                    decided = false;
                    break;
                }
            }
            previous = w;
        }
        if !decided {
            continue;
        }
        return DenseField {
            seed,
            random_obstacles,
            structure,
            obstacles,
            start,
            waypoints,
            reachable,
            grid_length,
        };
    }
}

/// What happened to one waypoint in a flight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// Still in the queue when the flight ended.
    Pending,
    /// Reached at this time (seconds).
    Reached(f32),
    /// Reported unreachable at this time, this many replans after it became the next waypoint.
    ReportedUnreachable(f32, u32),
}

/// A flight of the checker's ship through a dense field, one step at a time.
pub struct DenseRun<'a> {
    field: &'a DenseField,
    /// The planner's parameters.
    pub params: PlannerParams,
    limits: Limits,
    /// The ship's motion state.
    pub kinematics: Kinematics,
    /// The ship's planner state.
    pub state: ShipState,
    gizmos: Gizmos,
    /// Steps flown.
    pub steps: usize,
    /// Per waypoint: what happened.
    pub outcomes: Vec<Outcome>,
    /// Replan count when each waypoint became the next one.
    became_next: Vec<Option<u32>>,
    /// Smallest signed distance from the ship's sphere to an obstacle surface.
    pub min_signed_distance: f32,
    /// Steps on which the ship's sphere overlapped an obstacle.
    pub contact_steps: usize,
}

impl<'a> DenseRun<'a> {
    /// A ship at the field's start with the limits; `incoming_fire` hits per second.
    pub fn new(field: &'a DenseField, incoming_fire: f32) -> Self {
        let params = PlannerParams { incoming_fire, fire_seed: field.seed, ..dense_params(&field.waypoints) };
        DenseRun {
            field,
            state: ShipState::new(&params),
            params,
            limits: dense_limits(),
            kinematics: Kinematics { position: field.start, ..Default::default() },
            gizmos: Gizmos::disabled(),
            steps: 0,
            outcomes: vec![Outcome::Pending; field.waypoints.len()],
            became_next: vec![None; field.waypoints.len()],
            min_signed_distance: f32::INFINITY,
            contact_steps: 0,
        }
    }

    /// Simulated seconds so far.
    pub fn time(&self) -> f32 {
        self.steps as f32 * DENSE_DT
    }

    /// True when every waypoint is reached or reported.
    pub fn resolved(&self) -> bool {
        self.outcomes.iter().all(|o| *o != Outcome::Pending)
    }

    /// One fixed step; returns true when the ship replanned in it.
    pub fn step(&mut self) -> bool {
        let replans = self.state.replans;
        let first = !self.state.has_planned;
        let steering = ship(
            &self.kinematics,
            &self.limits,
            &self.field.obstacles,
            &self.params,
            &mut self.state,
            DENSE_DT,
            &mut self.gizmos,
        );
        integrate(&mut self.kinematics, &self.limits, steering, DENSE_DT);
        self.steps += 1;
        let p = self.kinematics.position;
        for s in &self.field.obstacles {
            let d = p.distance(s.center) - s.radius - self.limits.radius;
            self.min_signed_distance = self.min_signed_distance.min(d);
        }
        if self.min_signed_distance < 0.0
            && self.field.obstacles.iter().any(|s| p.distance(s.center) < s.radius + self.limits.radius)
        {
            self.contact_steps += 1;
        }
        self.update_outcomes();
        first || self.state.replans > replans
    }

    fn update_outcomes(&mut self) {
        let t = self.time();
        // `remaining` is the original queue minus a prefix-free set of removed waypoints, in order.
        let mut remaining = self.state.remaining.iter().peekable();
        let mut first_pending = true;
        for (k, &w) in self.field.waypoints.iter().enumerate() {
            let present = remaining.peek().is_some_and(|&&r| r == w);
            if present {
                remaining.next();
                if first_pending && self.became_next[k].is_none() {
                    self.became_next[k] = Some(self.state.replans);
                }
                first_pending = false;
                continue;
            }
            if self.outcomes[k] != Outcome::Pending {
                continue;
            }
            let reported = self.state.unreachable.iter().any(|u| u.position == w);
            self.outcomes[k] = if reported {
                let since = self.became_next[k].map_or(0, |r| self.state.replans.saturating_sub(r));
                Outcome::ReportedUnreachable(t, since)
            } else {
                Outcome::Reached(t)
            };
        }
    }

    /// Flies until every waypoint is resolved or `seconds` have passed.
    pub fn fly(&mut self, seconds: f32) {
        let steps = (seconds / DENSE_DT).ceil() as usize;
        while self.steps < steps && !self.resolved() {
            self.step();
        }
    }
}

/// The time a flight through `field` may take: twice the grid shortest path at full speed, plus
/// three seconds per waypoint (speeding up, slowing for corners and arrival, a replan's delay).
pub fn time_bound(field: &DenseField) -> f32 {
    2.0 * field.grid_length / dense_limits().max_speed + 3.0 * field.waypoints.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_shell_is_unreachable_and_open_space_is_reachable() {
        let p = Vec3::new(300.0, 0.0, 0.0);
        let shell: Vec<Sphere> = (0..48)
            .map(|k| {
                let zc = 1.0 - 2.0 * (k as f32 + 0.5) / 48.0;
                let r = (1.0 - zc * zc).sqrt();
                let a = std::f32::consts::PI * (3.0 - 5f32.sqrt()) * k as f32;
                Sphere { center: p + Vec3::new(r * a.cos(), r * a.sin(), zc) * 46.0, radius: 20.0 }
            })
            .collect();
        let outside = Vec3::new(300.0, 120.0, 0.0);
        let oracle = Oracle::new(&shell, &[Vec3::ZERO, p, outside], 10.0);
        assert_eq!(oracle.verdict(Vec3::ZERO, p), Verdict::Unreachable);
        let Verdict::Reachable(length) = oracle.verdict(Vec3::ZERO, outside) else { panic!("open space") };
        // Within the 26-grid's detour of the straight line.
        let straight = outside.length();
        assert!(length >= straight - 1e-3 && length < 1.1 * straight, "{length} vs {straight}");
    }

    #[test]
    fn dense_fields_repeat_and_match_their_design() {
        for seed in 0..8 {
            let a = dense_field(30, seed);
            assert_eq!(a, dense_field(30, seed));
            assert_eq!(a.waypoints.len(), 3);
            assert_eq!(a.reachable[1], a.structure != Structure::Pocket, "seed {seed}");
        }
    }
}
