//! Flow-field following (Reynolds 1999): steer along a vector field laid over the world — a
//! current, a wind, a traffic pattern, or a field made to lead along a curve.
//!
//! # Motivation
//! A field answers "which way here?" for any number of agents at the cost of one lookup each,
//! which is why crowds and RTS units use them. Reynolds' flow-field following, OpenSteer's
//! flow-field demo, Shiffman's *Nature of Code* flow fields; gdx-ai and Yuka leave the field to
//! the user.
//!
//! # Implementation
//! [`FlowField`] is a grid of vectors over a rectangle (row-major, one vector per cell, sampled
//! at cell centres and blended bilinearly; outside the grid the edge cells extend). It is built
//! from a function, along a polyline (the path's tangent at the nearest point plus a pull toward
//! the path that grows with distance and saturates at `pull` units, so agents join the curve and
//! then run along it), or from seeded noise (the heading is Perlin noise on a lattice `feature`
//! units wide times a full turn: never zero, no vortex or point sink; the same seed gives the
//! same field).
//! The agent samples the field at the point it will reach in `look_ahead` seconds and asks for
//! that direction at full speed, reached over `STEER_TIME` and clamped to `max_acceleration`.
//! A zero vector in the field means "no preference": the agent keeps its velocity there.
//!
//! In a scene the field is a rule read where the agent is ([`FieldSource`]: no grid, no edges):
//! noise from the entry's `seed` and `scale`, or, when the entry names a `path`, the field along
//! that path. The grid ([`FlowField`]) is for fields given cell by cell: a painted field (the
//! scene's `fields`, drawn with the window's Paint tool, [`FlowField::paint_segment`]), read
//! through [`FieldSource::Painted`].
//!
//! A grid is sampled **bilinearly** between cell centres, and outside the grid the edge cells
//! extend (clamped, never wrapped). An unpainted cell holds zero, so half a cell beyond the edge of
//! a stroke the blend fades out, and where every cell around is zero the agent keeps its
//! velocity. Two opposite painted neighbours blend to zero between them (no preference there).
//!
//! # Parameters
//! `look_ahead` (seconds); the noise field's `seed` and `scale` (world units); the path field's
//! `pull` (world units); plus the agent's limits.

use super::param::{Param, ParamKind};
use super::wander::SeededRng;
use super::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use crate::geometry::Polyline;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of flow-field following: the look-ahead, and the field's own parameters (noise:
/// `seed` and `scale`; along a path: `pull`; the unused ones are kept, so switching back finds
/// them as they were).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlowFieldParams {
    /// Where along its velocity the agent samples the field (seconds, typically 0–1).
    pub look_ahead: f32,
    /// Noise field: the seed of its lattice (a whole number 0–16,777,215).
    pub seed: u32,
    /// Noise field: the width of a lattice cell, the size of its swirls (world units, 50–1000).
    pub scale: f32,
    /// Field along a path: the distance at which the pull toward the path is full (world units,
    /// typically 20–200).
    pub pull: f32,
}

/// Look-ahead time.
pub const LOOK_AHEAD: Param = Param {
    key: "look_ahead",
    label: "look ahead",
    unit: "s",
    min: 0.0,
    max: 10.0,
    default: 0.2,
    help: "How far ahead along its velocity the agent reads the field.",
    kind: ParamKind::Float,
};
/// The noise field's seed (a count: exact in f32 up to 2^24 − 1, like wander's seed).
pub const SEED: Param = Param {
    key: "seed",
    label: "seed",
    unit: "",
    min: 0.0,
    max: 16_777_215.0,
    default: 1.0,
    help: "Noise field: the seed of its lattice; the same seed gives the same field.",
    kind: ParamKind::Int,
};
/// The noise field's feature size.
pub const SCALE: Param = Param {
    key: "scale",
    label: "scale",
    unit: "u",
    min: 1.0,
    max: 10_000.0,
    default: 200.0,
    help: "Noise field: the width of a lattice cell, the size of the field's swirls.",
    kind: ParamKind::Log,
};
/// The pull toward the path of a field along a path.
pub const PULL: Param = Param {
    key: "pull",
    label: "pull",
    unit: "u",
    min: 1.0,
    max: 1000.0,
    default: 60.0,
    help: "Field along a path: distance from the path at which the pull toward it is full.",
    kind: ParamKind::Float,
};

impl FlowFieldParams {
    /// Declaration of `look_ahead`.
    pub const LOOK_AHEAD: Param = LOOK_AHEAD;
    /// Declaration of `seed`.
    pub const SEED: Param = SEED;
    /// Declaration of `scale`.
    pub const SCALE: Param = SCALE;
    /// Declaration of `pull`.
    pub const PULL: Param = PULL;
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[LOOK_AHEAD, SEED, SCALE, PULL];
}

impl Default for FlowFieldParams {
    fn default() -> Self {
        FlowFieldParams {
            look_ahead: LOOK_AHEAD.default,
            seed: SEED.default_u32(),
            scale: SCALE.default,
            pull: PULL.default,
        }
    }
}

/// Something that gives a direction at every point of the x-y plane.
pub trait VectorField {
    /// The field at `point` (zero: no preference there).
    fn sample(&self, point: Vec3) -> Vec3;
}

/// A field defined everywhere by a rule, read where it is needed (no grid, so it has no edges
/// and follows edits of its path at once).
#[derive(Clone, Copy, Debug)]
pub enum FieldSource<'a> {
    /// Seeded noise with lattice cells `scale` units wide, anchored at the world origin.
    Noise {
        /// The lattice seed.
        seed: u64,
        /// The lattice cell width.
        scale: f32,
    },
    /// Along a path: its tangent at the nearest point plus a pull toward it.
    AlongPolyline {
        /// The path.
        path: &'a Polyline,
        /// Distance at which the pull is full.
        pull: f32,
    },
    /// A grid given cell by cell (painted), sampled bilinearly.
    Painted(&'a FlowField),
}

impl VectorField for FieldSource<'_> {
    fn sample(&self, point: Vec3) -> Vec3 {
        if !point.is_finite() {
            return Vec3::ZERO;
        }
        match *self {
            FieldSource::Noise { seed, scale } => noise_at(seed, scale, point.x, point.y),
            FieldSource::AlongPolyline { path, pull } => along_polyline_at(path, pull, point),
            FieldSource::Painted(field) => VectorField::sample(field, point),
        }
    }
}

/// The unit vector of the noise field at (`x`, `y`): its heading is seeded gradient (Perlin)
/// noise on a lattice `scale` units wide — a random unit gradient at every lattice corner,
/// blended with quintic weights — times a full turn (Shiffman's *Nature of Code* field).
/// Because the heading is one continuous function over the whole plane, the field is never zero
/// and has no vortex or point sink anywhere (a singular point needs the heading to wind round
/// it): agents may gather along lines where the field converges, but they flow along them
/// instead of piling up or circling a point, as agents do in a field built from the gradient of
/// noise or from blended random vectors.
fn noise_at(seed: u64, scale: f32, x: f32, y: f32) -> Vec3 {
    let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
    let gradient = |ix: i64, iy: i64| {
        let mut rng = SeededRng::new(
            seed ^ (ix as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (iy as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F),
        );
        let angle = rng.next_signed() * std::f32::consts::PI;
        (angle.cos(), angle.sin())
    };
    let (fx, fy) = (x / scale, y / scale);
    let (ix, iy) = (fx.floor(), fy.floor());
    let (tx, ty) = (fx - ix, fy - iy);
    let (ix, iy) = (ix as i64, iy as i64);
    let fade = |t: f32| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let dot = |(gx, gy): (f32, f32), dx: f32, dy: f32| gx * dx + gy * dy;
    let n00 = dot(gradient(ix, iy), tx, ty);
    let n10 = dot(gradient(ix + 1, iy), tx - 1.0, ty);
    let n01 = dot(gradient(ix, iy + 1), tx, ty - 1.0);
    let n11 = dot(gradient(ix + 1, iy + 1), tx - 1.0, ty - 1.0);
    let (sx, sy) = (fade(tx), fade(ty));
    let bottom = n00 + (n10 - n00) * sx;
    let top = n01 + (n11 - n01) * sx;
    // A turn of the whole field by the seed, so that seeds differ in their prevailing direction
    // too (the noise is most often near zero, so each field has one).
    let turn = SeededRng::new(seed).next_signed() * std::f32::consts::PI;
    let heading = (bottom + (top - bottom) * sy) * std::f32::consts::TAU + turn;
    if heading.is_finite() {
        Vec3::new(heading.cos(), heading.sin(), 0.0)
    } else {
        Vec3::ZERO
    }
}

/// The field along `path` at `point`: the tangent at the nearest path point plus a pull toward
/// it (full at `pull` units away and beyond, weighted twice the tangent), normalised.
fn along_polyline_at(path: &Polyline, pull: f32, point: Vec3) -> Vec3 {
    if path.segment_count() == 0 {
        return Vec3::ZERO;
    }
    let pull = if pull.is_finite() { pull.max(1e-3) } else { 1.0 };
    let projection = path.project_point(point);
    let tangent = path.direction_at_distance(projection.distance_along);
    let toward = ((projection.point - point) / pull).with_z(0.0);
    let v = (tangent.with_z(0.0) + toward.clamp_length_max(1.0) * 2.0).normalize_or_zero();
    if v.is_finite() {
        v
    } else {
        Vec3::ZERO
    }
}

/// A grid of vectors over a rectangle of the x-y plane.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowField {
    origin: Vec3,
    cell_size: f32,
    width: usize,
    height: usize,
    vectors: Vec<Vec3>,
}

/// The most cells a field may have (a 2048 × 2048 grid, 48 MB of vectors); a scene's painted
/// fields together may not hold more either.
pub const MAX_FLOW_CELLS: usize = 2048 * 2048;

/// The width of a painted field's cells: the scene file's range, and the size of the cells of a
/// field the Paint tool starts.
pub const CELL_SIZE: Param = Param {
    key: "cell_size",
    label: "cell size",
    unit: "u",
    min: 1.0,
    max: 10_000.0,
    default: 25.0,
    help: "Painted field: the width of one cell of its grid.",
    kind: ParamKind::Log,
};

impl FlowField {
    /// A field of `width × height` cells of `cell_size` with its lower-left corner at `origin`,
    /// each cell's vector given by `f(cell centre)` (non-finite results become zero).
    pub fn from_fn(
        origin: Vec3,
        cell_size: f32,
        width: usize,
        height: usize,
        f: impl Fn(Vec3) -> Vec3,
    ) -> Result<FlowField, String> {
        if !(cell_size.is_finite() && cell_size > 0.0 && origin.is_finite()) {
            return Err(format!(
                "a flow field needs a positive cell size and a finite origin, not {cell_size}"
            ));
        }
        if width == 0 || height == 0 || width.saturating_mul(height) > MAX_FLOW_CELLS {
            return Err(format!("a flow field needs 1 to {MAX_FLOW_CELLS} cells, not {width} × {height}"));
        }
        let mut vectors = Vec::with_capacity(width * height);
        for row in 0..height {
            for col in 0..width {
                let centre =
                    origin + Vec3::new((col as f32 + 0.5) * cell_size, (row as f32 + 0.5) * cell_size, 0.0);
                let v = f(centre);
                vectors.push(if v.is_finite() { v } else { Vec3::ZERO });
            }
        }
        Ok(FlowField { origin, cell_size, width, height, vectors })
    }

    /// A field of `width × height` cells of `cell_size` with its lower-left corner at `origin`
    /// holding `vectors` (row by row from the bottom; empty: every cell zero). Refused when the
    /// sizes disagree or a number is not finite (checked before anything is allocated).
    pub fn from_vectors(
        origin: Vec3,
        cell_size: f32,
        width: usize,
        height: usize,
        vectors: Vec<Vec3>,
    ) -> Result<FlowField, String> {
        let cells = width.saturating_mul(height);
        if !vectors.is_empty() && vectors.len() != cells {
            return Err(format!(
                "a field of {width} × {height} cells needs {cells} vectors, not {}",
                vectors.len()
            ));
        }
        if !vectors.iter().all(|v| v.is_finite()) {
            return Err("a flow field's vectors must be finite".into());
        }
        let mut field = FlowField::from_fn(origin, cell_size, width, height, |_| Vec3::ZERO)?;
        if !vectors.is_empty() {
            field.vectors = vectors;
        }
        Ok(field)
    }

    /// A field leading along `path` ([`FieldSource::AlongPolyline`] sampled at the cell centres).
    pub fn along_polyline(
        path: &Polyline,
        origin: Vec3,
        cell_size: f32,
        width: usize,
        height: usize,
        pull: f32,
    ) -> Result<FlowField, String> {
        FlowField::from_fn(origin, cell_size, width, height, |centre| along_polyline_at(path, pull, centre))
    }

    /// Seeded noise ([`FieldSource::Noise`] with its lattice anchored at `origin`, cells
    /// `feature` units wide) sampled at the cell centres.
    pub fn noise(
        seed: u64,
        origin: Vec3,
        cell_size: f32,
        width: usize,
        height: usize,
        feature: f32,
    ) -> Result<FlowField, String> {
        let feature = if feature.is_finite() && feature > 0.0 { feature } else { cell_size.max(1e-3) };
        FlowField::from_fn(origin, cell_size, width, height, |centre| {
            noise_at(seed, feature, centre.x - origin.x, centre.y - origin.y)
        })
    }

    /// The lower-left corner.
    pub fn origin(&self) -> Vec3 {
        self.origin
    }
    /// The width of a cell in world units.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }
    /// Columns and rows.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }
    /// The cell vectors, row by row from the bottom.
    pub fn vectors(&self) -> &[Vec3] {
        &self.vectors
    }

    /// Whether every cell is zero (a field nothing was painted on).
    pub fn is_blank(&self) -> bool {
        self.vectors.iter().all(|v| *v == Vec3::ZERO)
    }

    /// The centre of cell (`col`, `row`).
    pub fn cell_centre(&self, col: usize, row: usize) -> Vec3 {
        self.origin + Vec3::new((col as f32 + 0.5) * self.cell_size, (row as f32 + 0.5) * self.cell_size, 0.0)
    }

    /// The cell holding `point`, None outside the grid (or for a non-finite point).
    pub fn cell_of(&self, point: Vec3) -> Option<(usize, usize)> {
        let fx = ((point.x - self.origin.x) / self.cell_size).floor();
        let fy = ((point.y - self.origin.y) / self.cell_size).floor();
        let inside = |f: f32, n: usize| f.is_finite() && f >= 0.0 && f < n as f32;
        (inside(fx, self.width) && inside(fy, self.height)).then_some((fx as usize, fy as usize))
    }

    /// The vector of cell (`col`, `row`) (zero outside the grid).
    pub fn cell(&self, col: usize, row: usize) -> Vec3 {
        if col >= self.width || row >= self.height {
            return Vec3::ZERO;
        }
        self.vectors.get(row * self.width + col).copied().unwrap_or_default()
    }

    /// Paints a brush stroke: every cell whose centre lies within `radius` of the segment
    /// `from`–`to` (in the x-y plane) takes `direction` (flattened and normalised; zero erases).
    /// Only the cells in the segment's box grown by the radius are visited. Returns how many
    /// cells changed. Non-finite input paints nothing.
    pub fn paint_segment(&mut self, from: Vec3, to: Vec3, radius: f32, direction: Vec3) -> usize {
        let direction = direction.with_z(0.0).normalize_or_zero();
        if !(from.is_finite() && to.is_finite() && radius.is_finite() && radius >= 0.0) {
            return 0;
        }
        let (from, to) = (from.with_z(0.0), to.with_z(0.0));
        let lo = from.min(to) - Vec3::splat(radius);
        let hi = from.max(to) + Vec3::splat(radius);
        let index = |v: f32, origin: f32, n: usize| {
            (((v - origin) / self.cell_size - 0.5).clamp(-1.0, n as f32)) as isize
        };
        let (c0, c1) =
            (index(lo.x, self.origin.x, self.width).max(0), index(hi.x, self.origin.x, self.width) + 1);
        let (r0, r1) =
            (index(lo.y, self.origin.y, self.height).max(0), index(hi.y, self.origin.y, self.height) + 1);
        let (c1, r1) = (c1.min(self.width as isize - 1), r1.min(self.height as isize - 1));
        let mut changed = 0;
        for row in r0..=r1 {
            for col in c0..=c1 {
                let (col, row) = (col as usize, row as usize);
                let centre = self.cell_centre(col, row).with_z(0.0);
                let segment = to - from;
                let t = if segment.length_squared() > 0.0 {
                    ((centre - from).dot(segment) / segment.length_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                if centre.distance(from + segment * t) > radius {
                    continue;
                }
                if let Some(cell) = self.vectors.get_mut(row * self.width + col) {
                    if *cell != direction {
                        *cell = direction;
                        changed += 1;
                    }
                }
            }
        }
        changed
    }

    fn at(&self, col: usize, row: usize) -> Vec3 {
        self.vectors
            .get(row.min(self.height - 1) * self.width + col.min(self.width - 1))
            .copied()
            .unwrap_or_default()
    }

    /// The field at `point`: bilinear between cell centres, edge cells extended outside.
    pub fn sample(&self, point: Vec3) -> Vec3 {
        VectorField::sample(self, point)
    }
}

impl VectorField for FlowField {
    fn sample(&self, point: Vec3) -> Vec3 {
        if !point.is_finite() {
            return Vec3::ZERO;
        }
        let fx = ((point.x - self.origin.x) / self.cell_size - 0.5).clamp(0.0, (self.width - 1) as f32);
        let fy = ((point.y - self.origin.y) / self.cell_size - 0.5).clamp(0.0, (self.height - 1) as f32);
        let (col, row) = (fx.floor() as usize, fy.floor() as usize);
        let (tx, ty) = (fx - col as f32, fy - row as f32);
        let bottom = self.at(col, row).lerp(self.at(col + 1, row), tx);
        let top = self.at(col, row + 1).lerp(self.at(col + 1, row + 1), tx);
        bottom.lerp(top, ty)
    }
}

/// Length of the gizmo arrow showing the field's direction, in world units.
pub const ARROW_LENGTH: f32 = 20.0;

/// Flow-field following. Returns [`Steering::Acceleration`].
pub fn flow_field(
    k: &Kinematics,
    limits: &Limits,
    field: &impl VectorField,
    p: &FlowFieldParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let ahead = k.position + k.velocity * p.look_ahead.max(0.0);
    let direction = field.sample(ahead).normalize_or_zero();
    if direction == Vec3::ZERO {
        return Steering::NONE;
    }
    let desired = direction * limits.max_speed.max(0.0);
    let linear = accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration);
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Probe, GizmoShape::Line(k.position, ahead));
        gizmos.push(GizmoRole::FlowVector, GizmoShape::Arrow(ahead, ahead + direction * ARROW_LENGTH));
        gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(k.position, k.position + desired));
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use crate::sim::integrate;
    use proptest::prelude::*;

    #[test]
    fn sampling_blends_between_cell_centres_and_extends_the_edges() {
        let field =
            FlowField::from_fn(Vec3::ZERO, 10.0, 2, 1, |c| if c.x < 10.0 { Vec3::X } else { Vec3::Y })
                .unwrap();
        assert_eq!(field.sample(Vec3::new(5.0, 5.0, 0.0)), Vec3::X);
        assert_eq!(field.sample(Vec3::new(10.0, 5.0, 0.0)), Vec3::new(0.5, 0.5, 0.0));
        assert_eq!(field.sample(Vec3::new(-100.0, 50.0, 0.0)), Vec3::X);
        assert_eq!(field.sample(Vec3::new(100.0, -50.0, 0.0)), Vec3::Y);
        assert!(FlowField::from_fn(Vec3::ZERO, 0.0, 2, 2, |_| Vec3::X).is_err());
        assert!(FlowField::from_fn(Vec3::ZERO, 1.0, 0, 2, |_| Vec3::X).is_err());
    }

    #[test]
    fn an_agent_in_a_field_along_a_line_joins_the_line_and_runs_along_it() {
        let path = Polyline::new(vec![Vec3::new(0.0, 200.0, 0.0), Vec3::new(1000.0, 200.0, 0.0)], false);
        let field = FlowField::along_polyline(&path, Vec3::ZERO, 20.0, 60, 20, 40.0).unwrap();
        let limits = Limits { radius: 5.0, max_speed: 100.0, max_acceleration: 400.0 };
        let mut k = Kinematics {
            position: Vec3::new(50.0, 20.0, 0.0),
            velocity: Vec3::new(0.0, -50.0, 0.0),
            orientation: 0.0,
        };
        for _ in 0..6 * 60 {
            let s = flow_field(&k, &limits, &field, &FlowFieldParams::default(), &mut Gizmos::disabled());
            integrate(&mut k, &limits, s, 1.0 / 60.0);
        }
        assert!((k.position.y - 200.0).abs() < 10.0, "{}", k.position);
        assert!(k.velocity.x > 90.0, "{}", k.velocity);
    }

    #[test]
    fn noise_fields_are_unit_and_repeatable_from_their_seed() {
        let a = FlowField::noise(9, Vec3::ZERO, 10.0, 30, 20, 160.0).unwrap();
        assert_eq!(a, FlowField::noise(9, Vec3::ZERO, 10.0, 30, 20, 160.0).unwrap());
        assert_ne!(a, FlowField::noise(10, Vec3::ZERO, 10.0, 30, 20, 160.0).unwrap());
        // Every vector is a unit vector: the field is never zero.
        assert!(a.vectors().iter().all(|v| (v.length() - 1.0).abs() < 1e-4));
        // Smooth: side-by-side cells (a sixteenth of the lattice apart) nearly always point
        // within 45° of each other (the heading turns fastest where the noise is steepest).
        let pairs: Vec<f32> =
            a.vectors().chunks(30).flat_map(|row| row.windows(2).map(|w| w[0].dot(w[1]))).collect();
        let smooth = pairs.iter().filter(|&&d| d > 0.7).count();
        assert!(smooth * 100 >= pairs.len() * 95, "{smooth} of {}", pairs.len());
    }

    #[test]
    fn a_painted_field_is_sampled_bilinearly_between_cell_centres_and_its_edges_extend() {
        // Two columns, one row: left cell painted +x, right cell left blank.
        let field = FlowField::from_vectors(Vec3::ZERO, 10.0, 2, 1, vec![Vec3::X, Vec3::ZERO]).unwrap();
        let painted = FieldSource::Painted(&field);
        // At a cell centre the cell itself; halfway between centres the mean.
        assert_eq!(painted.sample(Vec3::new(5.0, 5.0, 0.0)), Vec3::X);
        assert_eq!(painted.sample(Vec3::new(10.0, 5.0, 0.0)), Vec3::new(0.5, 0.0, 0.0));
        assert_eq!(painted.sample(Vec3::new(15.0, 5.0, 0.0)), Vec3::ZERO);
        // Outside the grid the edge cells extend (above, below, left, far right).
        assert_eq!(painted.sample(Vec3::new(5.0, 500.0, 0.0)), Vec3::X);
        assert_eq!(painted.sample(Vec3::new(-300.0, -40.0, 0.0)), Vec3::X);
        assert_eq!(painted.sample(Vec3::new(1e6, 5.0, 0.0)), Vec3::ZERO);
        // Non-finite points read nothing.
        assert_eq!(painted.sample(Vec3::new(f32::NAN, 5.0, 0.0)), Vec3::ZERO);
        assert_eq!(painted.sample(Vec3::new(f32::INFINITY, 5.0, 0.0)), Vec3::ZERO);
        // No vectors given: blank.
        assert!(FlowField::from_vectors(Vec3::ZERO, 10.0, 3, 3, Vec::new()).unwrap().is_blank());
    }

    #[test]
    fn a_painted_field_refuses_wrong_sizes_non_finite_vectors_and_huge_grids() {
        let err = FlowField::from_vectors(Vec3::ZERO, 10.0, 2, 2, vec![Vec3::X; 3]).unwrap_err();
        assert_eq!(err, "a field of 2 × 2 cells needs 4 vectors, not 3");
        assert!(FlowField::from_vectors(Vec3::ZERO, 10.0, 1, 1, vec![Vec3::new(f32::NAN, 0.0, 0.0)]).is_err());
        // Refused from the sizes, before anything is allocated.
        assert!(FlowField::from_vectors(Vec3::ZERO, 10.0, usize::MAX, 2, Vec::new()).is_err());
        assert!(FlowField::from_vectors(Vec3::ZERO, 10.0, 2049, 2048, Vec::new()).is_err());
    }

    #[test]
    fn a_stroke_paints_the_cells_within_the_brush_in_its_direction_and_nothing_else() {
        let mut field = FlowField::from_vectors(Vec3::ZERO, 10.0, 10, 10, Vec::new()).unwrap();
        // A stroke along y = 45 from x = 20 to 70 with a brush of 6: the centres on rows 3 and 4
        // (y = 35 and 45) lie 10 and 0 away, so only row 4 is painted: columns 2 to 6 under the
        // segment, and columns 1 and 7 whose centres lie 5 beyond its ends.
        let changed = field.paint_segment(
            Vec3::new(20.0, 45.0, 0.0),
            Vec3::new(70.0, 45.0, 0.0),
            6.0,
            Vec3::new(3.0, 0.0, 0.0),
        );
        assert_eq!(changed, 7);
        for row in 0..10 {
            for col in 0..10 {
                let expected = if row == 4 && (1..=7).contains(&col) { Vec3::X } else { Vec3::ZERO };
                assert_eq!(field.cell(col, row), expected, "cell ({col}, {row})");
            }
        }
        // Painting the same again changes nothing; a stroke off the grid paints nothing.
        assert_eq!(
            field.paint_segment(Vec3::new(20.0, 45.0, 0.0), Vec3::new(70.0, 45.0, 0.0), 6.0, Vec3::X),
            0
        );
        assert_eq!(
            field.paint_segment(Vec3::new(500.0, 0.0, 0.0), Vec3::new(900.0, 0.0, 0.0), 50.0, Vec3::Y),
            0
        );
        // A zero direction erases; a non-finite stroke does nothing.
        assert_eq!(
            field.paint_segment(Vec3::new(25.0, 45.0, 0.0), Vec3::new(25.0, 45.0, 0.0), 1.0, Vec3::ZERO),
            1
        );
        assert_eq!(field.cell(2, 4), Vec3::ZERO);
        assert_eq!(field.paint_segment(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ZERO, 100.0, Vec3::X), 0);
        assert_eq!(field.cell_of(Vec3::new(99.0, 0.0, 0.0)), Some((9, 0)));
        assert_eq!(field.cell_of(Vec3::new(100.0, 0.0, 0.0)), None);
        assert_eq!(field.cell_of(Vec3::new(-0.1, 0.0, 0.0)), None);
    }

    #[test]
    fn an_agent_in_a_painted_river_turns_and_runs_the_way_it_was_painted() {
        let mut field = FlowField::from_vectors(Vec3::ZERO, 20.0, 50, 20, Vec::new()).unwrap();
        field.paint_segment(Vec3::new(0.0, 200.0, 0.0), Vec3::new(1000.0, 200.0, 0.0), 400.0, Vec3::Y);
        let limits = Limits { radius: 5.0, max_speed: 100.0, max_acceleration: 400.0 };
        let mut k = Kinematics {
            position: Vec3::new(500.0, 100.0, 0.0),
            velocity: Vec3::new(-80.0, 0.0, 0.0),
            orientation: 0.0,
        };
        for _ in 0..3 * 60 {
            let s = flow_field(
                &k,
                &limits,
                &FieldSource::Painted(&field),
                &FlowFieldParams::default(),
                &mut Gizmos::disabled(),
            );
            integrate(&mut k, &limits, s, 1.0 / 60.0);
        }
        assert!(k.velocity.y > 95.0 && k.velocity.x.abs() < 5.0, "{}", k.velocity);
    }

    proptest! {
        #[test]
        fn painting_and_sampling_a_field_stays_finite(
            strokes in proptest::collection::vec(
                (-1e4f32..1e4, -1e4f32..1e4, -1e4f32..1e4, -1e4f32..1e4, 0.0f32..3000.0), 0..6),
            cell in 1.0f32..200.0, w in 1usize..30, h in 1usize..30,
            x in proptest::num::f32::ANY, y in proptest::num::f32::ANY,
        ) {
            let mut field = FlowField::from_vectors(Vec3::new(-500.0, -500.0, 0.0), cell, w, h, Vec::new()).unwrap();
            for (x0, y0, x1, y1, radius) in strokes {
                let (from, to) = (Vec3::new(x0, y0, 0.0), Vec3::new(x1, y1, 0.0));
                field.paint_segment(from, to, radius, to - from);
            }
            prop_assert!(field.vectors().iter().all(|v| v.is_finite() && v.length() <= 1.0 + 1e-5));
            prop_assert!(field.sample(Vec3::new(x, y, 0.0)).is_finite());
        }

        #[test]
        fn flow_field_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), seed in any::<u64>(),
            look_ahead in 0.0f32..10.0, cell in 1.0f32..100.0, w in 1usize..12, h in 1usize..12,
        ) {
            let field = FlowField::noise(seed, Vec3::new(-300.0, -300.0, 0.0), cell, w, h, 50.0).unwrap();
            let s = flow_field(&k, &limits, &field, &FlowFieldParams { look_ahead, ..FlowFieldParams::default() }, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
