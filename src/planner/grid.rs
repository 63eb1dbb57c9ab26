//! A uniform-grid spatial index over sphere obstacles, so that a planner cast only tests the
//! obstacles near the swept segment (seed 004 asks for sphere casts; a field of 10,000 obstacles
//! needs them to be cheap).
//!
//! # Motivation
//! The planner casts a sphere of radius `ship radius + clearance` from its perspective to the top
//! proto-waypoint every iteration and asks for the *earliest* hit. Testing every obstacle is
//! O(n) per cast; with a grid the cost follows the number of cells the segment crosses.
//!
//! # Implementation
//! Each obstacle is registered in every cell its *reach* overlaps: its axis-aligned box inflated
//! by the query radius (plus 3% and a small absolute pad, so points at the planner's safety
//! margins are covered too). Cells are stored compactly (one offsets array and one item array).
//! A cast walks the cells along the segment in order (Amanatides–Woo traversal) and stops as soon
//! as the best hit so far lies before the exit of the current cell: any earlier hit would touch the
//! obstacle's inflated surface inside a cell already visited. Obstacles whose reach covers very
//! many cells are kept in a short "large" list that every query tests. Below
//! [`BRUTE_FORCE_BELOW`] obstacles, or when a query asks for a larger radius than the index was
//! built for, every obstacle is tested instead; results are identical either way (ties go to the
//! lower obstacle index). Obstacles with a non-finite centre or radius are never hit.
//!
//! # Parameters
//! `query_radius` (world units): the largest cast radius the grid serves, normally the ship radius
//! plus the clearance. The cell size is about twice the mean reach, grown until the grid has at
//! most `8 n + 64` cells and at most 256 cells per axis.

use crate::geometry::{cast_sphere_sphere, Sphere, SphereCastHit};
use glam::Vec3;

/// Below this many obstacles the index tests every obstacle (faster than a grid walk).
pub const BRUTE_FORCE_BELOW: usize = 48;

/// An obstacle whose reach covers more cells than this goes into the list tested by every query.
const MAX_CELLS_PER_OBSTACLE: usize = 512;

/// The most cells along one axis.
const MAX_CELLS_PER_AXIS: usize = 256;

/// The earliest obstacle a cast touches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IndexHit {
    /// Index of the obstacle in the slice the index was built from.
    pub obstacle: usize,
    /// Where and when the cast touched it.
    pub hit: SphereCastHit,
}

/// Numbers describing an index (for the bench and the planner panel).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IndexStats {
    /// Obstacles indexed.
    pub obstacles: usize,
    /// True when queries test every obstacle.
    pub brute_force: bool,
    /// Cells along x, y and z (zero when brute force).
    pub dims: [usize; 3],
    /// Edge length of a cell in world units (zero when brute force).
    pub cell_size: f32,
    /// Obstacle registrations over all cells.
    pub entries: usize,
    /// Obstacles in the list every query tests.
    pub large: usize,
    /// The most obstacles registered in one cell.
    pub max_per_cell: usize,
}

/// Sphere obstacles with an optional uniform grid for fast casts and point queries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObstacleIndex {
    spheres: Vec<Sphere>,
    query_radius: f32,
    grid: Option<Grid>,
}

#[derive(Clone, Debug, PartialEq)]
struct Grid {
    origin: Vec3,
    cell_size: f32,
    dims: [usize; 3],
    /// `cell_start[i]..cell_start[i + 1]` are cell i's items.
    cell_start: Vec<u32>,
    items: Vec<u32>,
    large: Vec<u32>,
}

impl ObstacleIndex {
    /// Indexes `spheres` for casts of radius up to `query_radius`; uses a grid from
    /// [`BRUTE_FORCE_BELOW`] obstacles on.
    pub fn new(spheres: &[Sphere], query_radius: f32) -> Self {
        if spheres.len() < BRUTE_FORCE_BELOW {
            Self::brute_force(spheres, query_radius)
        } else {
            Self::with_grid(spheres, query_radius)
        }
    }

    /// Indexes `spheres` without a grid: every query tests every obstacle.
    pub fn brute_force(spheres: &[Sphere], query_radius: f32) -> Self {
        ObstacleIndex { spheres: spheres.to_vec(), query_radius: sanitize(query_radius), grid: None }
    }

    /// Indexes `spheres` with a grid whatever their number (tests and benchmarks compare both).
    pub fn with_grid(spheres: &[Sphere], query_radius: f32) -> Self {
        let query_radius = sanitize(query_radius);
        let grid = Grid::build(spheres, query_radius);
        ObstacleIndex { spheres: spheres.to_vec(), query_radius, grid }
    }

    /// The obstacles, in the order given.
    pub fn spheres(&self) -> &[Sphere] {
        &self.spheres
    }

    /// Number of obstacles.
    pub fn len(&self) -> usize {
        self.spheres.len()
    }

    /// True when there are no obstacles.
    pub fn is_empty(&self) -> bool {
        self.spheres.is_empty()
    }

    /// The largest cast radius the grid serves without falling back to brute force.
    pub fn query_radius(&self) -> f32 {
        self.query_radius
    }

    /// Obstacle `index`, if it exists.
    pub fn get(&self, index: usize) -> Option<&Sphere> {
        self.spheres.get(index)
    }

    /// The earliest obstacle touched by a sphere of `radius` swept from `from` to `to` (lowest
    /// time of impact, then lowest index). A cast starting inside an inflated obstacle hits it at
    /// time 0.
    pub fn cast(&self, from: Vec3, to: Vec3, radius: f32) -> Option<IndexHit> {
        match &self.grid {
            Some(grid) if radius <= self.query_radius && from.is_finite() && to.is_finite() => {
                grid.cast(&self.spheres, from, to, radius)
            }
            _ => self.cast_all(from, to, radius),
        }
    }

    /// True when a sphere of `radius` swept from `from` to `to` touches nothing.
    pub fn is_clear(&self, from: Vec3, to: Vec3, radius: f32) -> bool {
        self.cast(from, to, radius).is_none()
    }

    /// Calls `visit` with every obstacle whose sphere inflated by `radius` (and 1%) might contain
    /// `point` (a superset, in increasing index order within a cell; may repeat none).
    pub fn visit_near(&self, point: Vec3, radius: f32, mut visit: impl FnMut(usize, &Sphere)) {
        match &self.grid {
            Some(grid) if radius <= self.query_radius && point.is_finite() => {
                for &k in &grid.large {
                    if let Some(sphere) = self.spheres.get(k as usize) {
                        visit(k as usize, sphere);
                    }
                }
                if let Some(cell) = grid.cell_of(point) {
                    for &k in grid.cell_items(cell) {
                        if let Some(sphere) = self.spheres.get(k as usize) {
                            visit(k as usize, sphere);
                        }
                    }
                }
            }
            _ => {
                for (k, sphere) in self.spheres.iter().enumerate() {
                    if is_valid(sphere) {
                        visit(k, sphere);
                    }
                }
            }
        }
    }

    /// Grid dimensions and occupancy.
    pub fn stats(&self) -> IndexStats {
        match &self.grid {
            None => IndexStats {
                obstacles: self.spheres.len(),
                brute_force: true,
                dims: [0; 3],
                cell_size: 0.0,
                entries: 0,
                large: 0,
                max_per_cell: 0,
            },
            Some(grid) => IndexStats {
                obstacles: self.spheres.len(),
                brute_force: false,
                dims: grid.dims,
                cell_size: grid.cell_size,
                entries: grid.items.len(),
                large: grid.large.len(),
                max_per_cell: grid
                    .cell_start
                    .windows(2)
                    .map(|w| match w {
                        [a, b] => (b - a) as usize,
                        _ => 0,
                    })
                    .max()
                    .unwrap_or(0),
            },
        }
    }

    fn cast_all(&self, from: Vec3, to: Vec3, radius: f32) -> Option<IndexHit> {
        let mut best: Option<IndexHit> = None;
        for (k, sphere) in self.spheres.iter().enumerate() {
            consider(&mut best, k, sphere, from, to, radius);
        }
        best
    }
}

fn sanitize(radius: f32) -> f32 {
    if radius.is_finite() {
        radius.max(0.0)
    } else {
        0.0
    }
}

fn is_valid(sphere: &Sphere) -> bool {
    sphere.center.is_finite() && sphere.radius.is_finite()
}

/// How far from its centre obstacle `sphere` is registered (its inflated radius plus a margin).
fn reach(sphere: &Sphere, query_radius: f32) -> f32 {
    (sphere.radius.max(0.0) + query_radius) * 1.03 + 0.02
}

/// Casts against one obstacle and keeps the earliest hit (ties keep the lower index).
#[inline]
fn consider(best: &mut Option<IndexHit>, k: usize, sphere: &Sphere, from: Vec3, to: Vec3, radius: f32) {
    if !is_valid(sphere) {
        return;
    }
    if let Some(hit) = cast_sphere_sphere(from, to, radius, sphere.center, sphere.radius) {
        if !hit.toi.is_finite() {
            return;
        }
        let better = match best {
            None => true,
            Some(b) => hit.toi < b.hit.toi || (hit.toi == b.hit.toi && k < b.obstacle),
        };
        if better {
            *best = Some(IndexHit { obstacle: k, hit });
        }
    }
}

impl Grid {
    fn build(spheres: &[Sphere], query_radius: f32) -> Option<Grid> {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        let mut reach_sum = 0.0f64;
        let mut n_valid = 0usize;
        for sphere in spheres.iter().filter(|s| is_valid(s)) {
            let r = reach(sphere, query_radius);
            lo = lo.min(sphere.center - Vec3::splat(r));
            hi = hi.max(sphere.center + Vec3::splat(r));
            reach_sum += f64::from(r);
            n_valid += 1;
        }
        if n_valid == 0 || !lo.is_finite() || !hi.is_finite() {
            return None;
        }
        let extent = (hi - lo).max(Vec3::splat(1e-3));
        let max_cells = 8 * n_valid + 64;
        let mut cell_size = ((2.0 * reach_sum / n_valid as f64) as f32).max(1e-3);
        let mut dims = dims_for(extent, cell_size);
        let mut guard = 0;
        while (dims.iter().product::<usize>() > max_cells || dims.iter().any(|&d| d > MAX_CELLS_PER_AXIS))
            && guard < 200
        {
            cell_size *= 1.25;
            dims = dims_for(extent, cell_size);
            guard += 1;
        }
        let n_cells = dims.iter().product::<usize>();
        let mut grid = Grid {
            origin: lo,
            cell_size,
            dims,
            cell_start: vec![0; n_cells + 1],
            items: Vec::new(),
            large: Vec::new(),
        };
        // Count pass, then prefix sums, then fill pass.
        let mut counts = vec![0u32; n_cells];
        let mut spans: Vec<Option<([usize; 3], [usize; 3])>> = Vec::with_capacity(spheres.len());
        for (k, sphere) in spheres.iter().enumerate() {
            if !is_valid(sphere) {
                spans.push(None);
                continue;
            }
            let r = reach(sphere, query_radius);
            let a = grid.clamped_cell(sphere.center - Vec3::splat(r));
            let b = grid.clamped_cell(sphere.center + Vec3::splat(r));
            let covered = (b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1);
            if covered > MAX_CELLS_PER_OBSTACLE {
                grid.large.push(k as u32);
                spans.push(None);
                continue;
            }
            for z in a[2]..=b[2] {
                for y in a[1]..=b[1] {
                    for x in a[0]..=b[0] {
                        if let Some(c) = counts.get_mut(grid.flat([x, y, z])) {
                            *c += 1;
                        }
                    }
                }
            }
            spans.push(Some((a, b)));
        }
        let mut total = 0u32;
        for (i, c) in counts.iter().enumerate() {
            if let Some(start) = grid.cell_start.get_mut(i) {
                *start = total;
            }
            total += c;
        }
        if let Some(last) = grid.cell_start.last_mut() {
            *last = total;
        }
        grid.items = vec![0; total as usize];
        let mut cursor: Vec<u32> = grid.cell_start.iter().take(n_cells).copied().collect();
        for (k, span) in spans.iter().enumerate() {
            let Some((a, b)) = span else { continue };
            for z in a[2]..=b[2] {
                for y in a[1]..=b[1] {
                    for x in a[0]..=b[0] {
                        let cell = grid.flat([x, y, z]);
                        if let Some(slot) = cursor.get_mut(cell) {
                            if let Some(item) = grid.items.get_mut(*slot as usize) {
                                *item = k as u32;
                            }
                            *slot += 1;
                        }
                    }
                }
            }
        }
        Some(grid)
    }

    fn flat(&self, c: [usize; 3]) -> usize {
        (c[2] * self.dims[1] + c[1]) * self.dims[0] + c[0]
    }

    fn clamped_cell(&self, p: Vec3) -> [usize; 3] {
        let rel = (p - self.origin) / self.cell_size;
        let mut out = [0usize; 3];
        for (axis, slot) in out.iter_mut().enumerate() {
            let v = rel[axis].floor();
            let max = (self.dims[axis] - 1) as f32;
            *slot = if v.is_nan() { 0 } else { v.clamp(0.0, max) as usize };
        }
        out
    }

    fn cell_of(&self, p: Vec3) -> Option<usize> {
        let rel = (p - self.origin) / self.cell_size;
        let mut out = [0usize; 3];
        for (axis, slot) in out.iter_mut().enumerate() {
            let v = rel[axis].floor();
            if !(v >= 0.0 && v < self.dims[axis] as f32) {
                return None;
            }
            *slot = v as usize;
        }
        Some(self.flat(out))
    }

    fn cell_items(&self, cell: usize) -> &[u32] {
        let start = self.cell_start.get(cell).copied().unwrap_or(0) as usize;
        let end = self.cell_start.get(cell + 1).copied().unwrap_or(0) as usize;
        self.items.get(start..end).unwrap_or(&[])
    }

    fn cast(&self, spheres: &[Sphere], from: Vec3, to: Vec3, radius: f32) -> Option<IndexHit> {
        let mut best: Option<IndexHit> = None;
        for &k in &self.large {
            if let Some(sphere) = spheres.get(k as usize) {
                consider(&mut best, k as usize, sphere, from, to, radius);
            }
        }
        let dir = to - from;
        let lo = self.origin;
        let hi = self.origin
            + Vec3::new(self.dims[0] as f32, self.dims[1] as f32, self.dims[2] as f32) * self.cell_size;
        // Clip the segment to the grid's box (slab test).
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for axis in 0..3 {
            let o = from[axis];
            let d = dir[axis];
            if d.abs() <= f32::MIN_POSITIVE {
                if o < lo[axis] || o > hi[axis] {
                    return best;
                }
            } else {
                let mut ta = (lo[axis] - o) / d;
                let mut tb = (hi[axis] - o) / d;
                if ta > tb {
                    std::mem::swap(&mut ta, &mut tb);
                }
                t0 = t0.max(ta);
                t1 = t1.min(tb);
                if t0 > t1 {
                    return best;
                }
            }
        }
        let entry = from + dir * t0;
        let mut cell = self.clamped_cell(entry);
        let mut step = [0i64; 3];
        let mut t_max = [f32::INFINITY; 3];
        let mut t_delta = [f32::INFINITY; 3];
        for axis in 0..3 {
            let d = dir[axis];
            if d > f32::MIN_POSITIVE {
                step[axis] = 1;
                let boundary = lo[axis] + (cell[axis] + 1) as f32 * self.cell_size;
                t_max[axis] = (boundary - from[axis]) / d;
                t_delta[axis] = self.cell_size / d;
            } else if d < -f32::MIN_POSITIVE {
                step[axis] = -1;
                let boundary = lo[axis] + cell[axis] as f32 * self.cell_size;
                t_max[axis] = (boundary - from[axis]) / d;
                t_delta[axis] = -self.cell_size / d;
            }
        }
        let max_steps = self.dims[0] + self.dims[1] + self.dims[2] + 3;
        for _ in 0..max_steps {
            for &k in self.cell_items(self.flat(cell)) {
                if let Some(sphere) = spheres.get(k as usize) {
                    consider(&mut best, k as usize, sphere, from, to, radius);
                }
            }
            let t_exit = t_max[0].min(t_max[1]).min(t_max[2]);
            if let Some(b) = best {
                if b.hit.toi < t_exit {
                    break;
                }
            }
            if t_exit > t1 {
                break;
            }
            let axis = if t_max[0] <= t_max[1] && t_max[0] <= t_max[2] {
                0
            } else if t_max[1] <= t_max[2] {
                1
            } else {
                2
            };
            let next = cell[axis] as i64 + step[axis];
            if next < 0 || next >= self.dims[axis] as i64 {
                break;
            }
            cell[axis] = next as usize;
            t_max[axis] += t_delta[axis];
        }
        best
    }
}

fn dims_for(extent: Vec3, cell_size: f32) -> [usize; 3] {
    let mut dims = [1usize; 3];
    for (axis, slot) in dims.iter_mut().enumerate() {
        let n = (extent[axis] / cell_size).ceil();
        *slot = if n.is_finite() && n >= 1.0 { (n as usize).min(1 << 20) } else { 1 };
    }
    dims
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_of_spheres(n: usize) -> Vec<Sphere> {
        (0..n).map(|i| Sphere { center: Vec3::new(i as f32 * 30.0, 0.0, 0.0), radius: 5.0 }).collect()
    }

    #[test]
    fn grid_cast_reports_the_earliest_obstacle_along_the_segment() {
        let spheres = line_of_spheres(100);
        let index = ObstacleIndex::with_grid(&spheres, 2.0);
        let hit = index.cast(Vec3::new(-50.0, 0.0, 0.0), Vec3::new(5000.0, 0.0, 0.0), 2.0).unwrap();
        assert_eq!(hit.obstacle, 0);
        let back = index.cast(Vec3::new(5000.0, 0.0, 0.0), Vec3::new(-50.0, 0.0, 0.0), 2.0).unwrap();
        assert_eq!(back.obstacle, 99);
    }

    #[test]
    fn grid_cast_missing_everything_returns_none() {
        let spheres = line_of_spheres(100);
        let index = ObstacleIndex::with_grid(&spheres, 2.0);
        assert!(index.is_clear(Vec3::new(-50.0, 20.0, 0.0), Vec3::new(5000.0, 20.0, 0.0), 2.0));
    }

    #[test]
    fn wider_query_than_built_falls_back_to_all_obstacles() {
        let spheres = line_of_spheres(100);
        let index = ObstacleIndex::with_grid(&spheres, 1.0);
        let hit = index.cast(Vec3::new(100.0, 40.0, 0.0), Vec3::new(100.0, -40.0, 0.0), 30.0).unwrap();
        let brute = ObstacleIndex::brute_force(&spheres, 30.0);
        assert_eq!(Some(hit), brute.cast(Vec3::new(100.0, 40.0, 0.0), Vec3::new(100.0, -40.0, 0.0), 30.0));
    }

    #[test]
    fn non_finite_obstacles_are_never_hit() {
        let spheres =
            vec![Sphere { center: Vec3::NAN, radius: 5.0 }, Sphere { center: Vec3::ZERO, radius: f32::NAN }];
        let index = ObstacleIndex::new(&spheres, 1.0);
        assert!(index.is_clear(Vec3::new(-10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 0.0), 1.0));
        let grid = ObstacleIndex::with_grid(&spheres, 1.0);
        assert!(grid.is_clear(Vec3::new(-10.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 0.0), 1.0));
    }

    #[test]
    fn one_huge_obstacle_goes_to_the_large_list() {
        let mut spheres = Vec::new();
        for i in 0..512 {
            let cell = Vec3::new((i % 8) as f32, ((i / 8) % 8) as f32, (i / 64) as f32);
            spheres.push(Sphere { center: cell * 30.0, radius: 5.0 });
        }
        spheres.push(Sphere { center: Vec3::new(900.0, 0.0, 0.0), radius: 800.0 });
        let index = ObstacleIndex::with_grid(&spheres, 2.0);
        assert_eq!(index.stats().large, 1);
        let hit = index.cast(Vec3::new(900.0, 2000.0, 0.0), Vec3::new(900.0, 0.0, 0.0), 2.0).unwrap();
        assert_eq!(hit.obstacle, 512);
    }
}
