//! The 3D view's crowd: above [`crowd::MESH_AGENTS_MAX`] agents, the orbit view draws each agent
//! as the top view's arrow ([`super::agent_arrow`]) at the point where its body projects, turned
//! to its heading as seen on screen and sized by its depth, through the same CPU layer as the top
//! view's crowd ([`crowd`]): painted far to near, so a nearer agent covers a farther one, and left
//! out where an obstacle's sphere stands between the eye and the agent ([`Occluders`]). Up to that
//! count every agent is a lit cone with its velocity arrow, as before.
//!
//! Why: llvmpipe (the software OpenGL these machines draw with) spends its time on each
//! triangle and each covered pixel, and a cone, its arrow and their overlap in a dense crowd kept
//! 10,000 agents at 89–101 ms a frame and 100,000 at about 580 ms (2 fps) after the cones lost
//! their hidden faces. A stamped arrow costs the few dozen pixels it covers, on every core: 22 ms
//! and 40–47 ms (2026-12-08; README, "The window").
//!
//! What differs from the cones, on purpose: an arrow is flat and unlit apart from one shade of
//! its colour (the cone's side turned to the light, outlined in a darker shade), keeps its shape
//! when the agent heads toward or away from the eye (a marker, as in the top view, not a
//! foreshortened body), and its size steps through [`SIZE_STEPS`] sizes a factor [`SIZE_RATIO`]
//! apart (so that a crowd's arrows share a few stamped shapes); velocity arrows are left out, as
//! the top view leaves them out above [`super::MAX_VELOCITY_ARROWS`]. Only obstacles hide agents:
//! the layer lies over the paths, gizmos and the step-through's capsule.

use macroquad::prelude::{Vec2, Vec3};
use rayon::prelude::*;

use super::crowd::{self, ArrowSprite};
use super::orbit::{shade, units_per_point_at_depth_one, LIGHT};
use super::style;
use crate::app::{App, Projection};
use crate::sim::Obstacle;

/// Sizes an arrow takes, in points: [`MIN_POINTS`], then each [`SIZE_RATIO`] times the last;
/// beyond the last step the size is kept as it is (such arrows are too big to be stamped and are
/// drawn shape by shape anyway).
pub const SIZE_STEPS: usize = 5;
/// The smallest arrow's half-size, points: the cones' (at least 6 points, so that a far agent
/// stays visible).
pub const MIN_POINTS: f32 = 6.0;
/// The largest, as in the top view.
pub const MAX_POINTS: f32 = 40.0;
/// See [`SIZE_STEPS`]: at most half of it (12%) between an agent's size and its arrow's.
pub const SIZE_RATIO: f32 = 1.25;

/// Screen pixels a side of one bin of [`Occluders`].
const BIN_PIXELS: f32 = 32.0;

/// The obstacles' spheres, sorted into square bins of the screen by the part of it each may
/// cover, to find which of them can stand in front of a point.
pub struct Occluders {
    eye: Vec3,
    spheres: Vec<(Vec3, f32)>,
    columns: usize,
    rows: usize,
    /// Per bin, the spheres that may cover some of it (indices into `spheres`).
    bins: Vec<Vec<u32>>,
    /// Spheres whose reach on screen is not known (they cross the eye's plane) or covers a
    /// quarter of the bins or more: tried for every point.
    everywhere: Vec<u32>,
}

impl Occluders {
    /// `obstacles` seen through `projection` (the orbit view's) from `eye` on a screen `screen` pixels wide and
    /// high. A sphere with the eye inside it, or not made of numbers, hides nothing.
    pub fn new(obstacles: &[Obstacle], projection: &Projection, eye: Vec3, screen: Vec2) -> Self {
        let columns = (screen.x / BIN_PIXELS).ceil().clamp(1.0, 4096.0) as usize;
        let rows = (screen.y / BIN_PIXELS).ceil().clamp(1.0, 4096.0) as usize;
        let mut occluders = Occluders {
            eye,
            spheres: Vec::new(),
            columns,
            rows,
            bins: vec![Vec::new(); columns * rows],
            everywhere: Vec::new(),
        };
        for obstacle in obstacles {
            let (c, r) = (obstacle.position, obstacle.radius);
            if !(c.is_finite() && r.is_finite() && r > 0.0) || eye.distance_squared(c) <= r * r {
                continue;
            }
            let idx = occluders.spheres.len() as u32;
            occluders.spheres.push((c, r));
            // The sphere's picture lies inside that of its bounding cube, and a convex body in
            // front of the eye projects inside the hull of its corners' projections.
            let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
            let mut known = true;
            for corner in 0..8 {
                let sign = |bit: u32| if corner >> bit & 1 == 1 { 1.0 } else { -1.0 };
                let p = c + Vec3::new(sign(0), sign(1), sign(2)) * r;
                let clip = projection.matrix * p.extend(1.0);
                if clip.w.is_nan() || clip.w <= 1e-6 {
                    known = false;
                    break;
                }
                let s = projection.clip_to_screen(clip);
                (lo, hi) = (lo.min(s), hi.max(s));
            }
            if !(known && lo.is_finite() && hi.is_finite()) {
                occluders.everywhere.push(idx);
                continue;
            }
            // Clamped to the bins at the screen's edges, as the points are (`Self::bin`): a
            // point off the screen then still meets the spheres whose box holds it.
            let (x0, y0) = occluders.bin(lo);
            let (x1, y1) = occluders.bin(hi);
            if (x1 - x0 + 1) * (y1 - y0 + 1) * 4 >= columns * rows {
                occluders.everywhere.push(idx);
                continue;
            }
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some(list) = occluders.bins.get_mut(y * columns + x) {
                        list.push(idx);
                    }
                }
            }
        }
        occluders
    }

    /// The bin (column, row) of screen point `s`, the edge's for a point off the screen.
    fn bin(&self, s: Vec2) -> (usize, usize) {
        let at = |v: f32, n: usize| (v / BIN_PIXELS).floor().clamp(0.0, n as f32 - 1.0) as usize;
        (at(s.x, self.columns), at(s.y, self.rows))
    }

    /// Whether an obstacle stands between the eye and `p`, which lands at `s` on the screen:
    /// the line from the eye meets a sphere before it reaches `p` (or `p` is inside one).
    pub fn hides(&self, p: Vec3, s: Vec2) -> bool {
        let (x, y) = self.bin(s);
        let binned = self.bins.get(y * self.columns + x).map(Vec::as_slice).unwrap_or_default();
        let hidden_by =
            |&idx: &u32| self.spheres.get(idx as usize).is_some_and(|&(c, r)| in_front(self.eye, p, c, r));
        binned.iter().any(hidden_by) || self.everywhere.iter().any(hidden_by)
    }
}

/// Whether the segment from `eye` (outside the sphere) to `p` meets the sphere of centre `c` and
/// radius `r`: its nearest point to `c` lies within `r`.
fn in_front(eye: Vec3, p: Vec3, c: Vec3, r: f32) -> bool {
    let d = p - eye;
    let length_squared = d.length_squared();
    let t = if length_squared > 0.0 { ((c - eye).dot(d) / length_squared).clamp(0.0, 1.0) } else { 0.0 };
    (eye + d * t).distance_squared(c) < r * r
}

/// An arrow's half-size in points for an agent of `radius` world units, at `upp` world units a
/// point: its radius on screen, kept between [`MIN_POINTS`] and [`MAX_POINTS`], then stepped
/// ([`SIZE_STEPS`]).
pub fn arrow_points(radius: f32, upp: f32) -> f32 {
    let points = (radius / upp).clamp(MIN_POINTS, MAX_POINTS);
    if !points.is_finite() {
        return MIN_POINTS;
    }
    let step = (points / MIN_POINTS).ln() / SIZE_RATIO.ln();
    if step > SIZE_STEPS as f32 - 0.5 {
        return points;
    }
    MIN_POINTS * SIZE_RATIO.powi(step.round().max(0.0) as i32)
}

/// Every shown agent's arrow in the orbit view, far to near (agents equally far in agent order),
/// without the agents behind the near plane, beyond the far one or hidden by an obstacle. Built
/// on all cores; the same list for any number of threads.
pub fn sprites(app: &App) -> Vec<ArrowSprite> {
    let camera = &app.camera;
    let projection = camera.projection();
    let eye = camera.eye();
    let occluders = Occluders::new(&app.world.obstacles, &projection, eye, camera.screen);
    let per_depth = units_per_point_at_depth_one(camera);
    let k = camera.pixel_scale();
    let sprite = |(idx, agent): (usize, &crate::sim::Agent)| -> Option<(f32, usize, ArrowSprite)> {
        if app.is_hidden(idx) {
            return None;
        }
        let position = app.draw_position(idx);
        let (s, depth) = projection.project_clipped(position)?;
        if occluders.hides(position, s) {
            return None;
        }
        let heading = agent.kinematics.velocity.try_normalize().unwrap_or_else(|| {
            let (sin, cos) = agent.kinematics.orientation.sin_cos();
            Vec3::new(cos, sin, 0.0)
        });
        let upp = eye.distance(position).max(1.0) * per_depth;
        // The heading on screen: toward where a point a few points ahead lands (screen y is
        // down; `agent_arrow` takes a world angle, y up). Straight at the eye it points up.
        let ahead = projection.project_clipped(position + heading * (8.0 * upp)).map(|(a, _)| a - s);
        let angle = match ahead {
            Some(d) if d.length_squared() > 1e-6 => (-d.y).atan2(d.x),
            _ => std::f32::consts::FRAC_PI_2,
        };
        // The shade of the cone's side that faces the light (its brightest); the outline a
        // darker shade of it (the top view's near-black one turned a dense pack black), or the
        // highlight's.
        let fill = shade(style::agent_color(agent.about.color, 1.0), LIGHT - heading * LIGHT.dot(heading));
        let (edge, width) = match super::agent_highlight(app, idx) {
            Some((color, width)) => (crowd::color_bytes(color), width),
            None => {
                let dark = |c: u8| (u16::from(c) * 7 / 10) as u8;
                ([dark(fill[0]), dark(fill[1]), dark(fill[2]), fill[3]], 1.0)
            }
        };
        let size = arrow_points(agent.limits.radius, upp) * k;
        let sprite = ArrowSprite::new(s, angle, size, fill, edge, width * k);
        Some((depth, idx, sprite))
    };
    let placed: Vec<(f32, ArrowSprite)> = app
        .world
        .agents
        .par_iter()
        .enumerate()
        .with_min_len(1024)
        .filter_map(sprite)
        .map(|(depth, _, sprite)| (depth, sprite))
        .collect();
    painters_order(&placed).into_iter().filter_map(|i| placed.get(i as usize).map(|p| p.1)).collect()
}

/// Depth slices of [`painters_order`].
const DEPTH_SLICES: usize = 1 << 16;

/// The places of `placed` (each a depth and what is drawn there, in agent order) far to near:
/// the painter's order, the layer drawing later sprites over earlier ones. A counting sort
/// over [`DEPTH_SLICES`] slices of the depths' range, each slice's in the order given; two
/// agents in one slice (at 1,000 units of range, less than 0.02 units apart) may be drawn in
/// agent order rather than by depth. Why not a comparison sort: at 100,000 agents it was a
/// tenth of the frame's CPU time (`perf`, 2026-12-08), this is one pass.
fn painters_order<T>(placed: &[(f32, T)]) -> Vec<u32> {
    let (near, far) =
        placed.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
    let scale = if far > near { (DEPTH_SLICES - 1) as f32 / (far - near) } else { 0.0 };
    let slice = |depth: f32| (((far - depth) * scale) as usize).min(DEPTH_SLICES - 1);
    let mut starts = vec![0u32; DEPTH_SLICES + 1];
    for p in placed {
        if let Some(count) = starts.get_mut(slice(p.0) + 1) {
            *count += 1;
        }
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut order = vec![0u32; placed.len()];
    for (i, p) in placed.iter().enumerate() {
        if let Some(next) = starts.get_mut(slice(p.0)) {
            if let Some(place) = order.get_mut(*next as usize) {
                *place = i as u32;
            }
            *next += 1;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Camera;
    use proptest::prelude::*;

    fn camera(yaw: f32, pitch: f32, distance: f32) -> Camera {
        Camera {
            viewport: (Vec2::new(340.0, 40.0), Vec2::new(1280.0, 780.0)),
            yaw,
            pitch,
            distance,
            center: Vec3::new(20.0, -10.0, 0.0),
            ..Camera::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The clipped projection lands where the ray under the screen point leads back to the
        /// point (the camera's inverse matrix, `orbit_ray_to_plane`), with the depth along the
        /// view, and leaves out only points outside the clipping planes.
        #[test]
        fn the_clipped_projection_lands_where_the_ray_back_finds_the_point(
            yaw in -3.2f32..3.2, pitch in 0.05f32..1.55, distance in 50.0f32..3000.0,
            x in -2000.0f32..2000.0, y in -2000.0f32..2000.0, z in -50.0f32..200.0,
        ) {
            let camera = camera(yaw, pitch, distance);
            let p = Vec3::new(x, y, z);
            let (near, far) = camera.orbit_clip();
            let forward = (camera.center - camera.eye()).normalize();
            let depth_along = (p - camera.eye()).dot(forward);
            match camera.projection().project_clipped(p) {
                Some((s, depth)) => {
                    prop_assert!((depth - depth_along).abs() <= 1e-3 * depth_along.abs().max(1.0));
                    prop_assert!(depth >= near && depth <= far);
                    // The ray back is steep enough to meet z = p.z well only away from the horizon.
                    if let Some(back) = camera.orbit_ray_to_plane(s, z) {
                        let grazing = (p - camera.eye()).normalize().z.abs() < 0.05;
                        prop_assert!(grazing || back.distance(p) <= 2e-3 * depth_along, "{back} against {p}");
                    }
                    prop_assert_eq!(camera.projection().project_orbit(p), Some(s));
                }
                None => prop_assert!(depth_along < near * 1.001 || depth_along > far * 0.999, "depth {depth_along}"),
            }
        }

        /// The binned spheres hide exactly the points that every sphere tried one by one hides
        /// (an oracle that measures the distance from each centre to the line of sight).
        #[test]
        fn the_bins_hide_what_every_sphere_tried_hides(
            yaw in -3.2f32..3.2, pitch in 0.05f32..1.55, distance in 100.0f32..1500.0,
            spheres in prop::collection::vec((-600.0f32..600.0, -600.0f32..600.0, -50.0f32..150.0, 1.0f32..400.0), 0..60),
            points in prop::collection::vec((-600.0f32..600.0, -600.0f32..600.0, 0.0f32..60.0), 1..80),
        ) {
            let camera = camera(yaw, pitch, distance);
            let obstacles: Vec<Obstacle> = spheres
                .iter()
                .map(|&(x, y, z, r)| Obstacle::still(Vec3::new(x, y, z), r))
                .collect();
            let projection = camera.projection();
            let eye = camera.eye();
            let occluders = Occluders::new(&obstacles, &projection, eye, camera.screen);
            for &(x, y, z) in &points {
                let p = Vec3::new(x, y, z);
                let Some((s, _)) = projection.project_clipped(p) else { continue };
                // The oracle: where the line from the eye first enters each sphere, from the
                // roots of |eye + t (p - eye) - c|² = r², hidden when that is at t in [0, 1].
                let mut borderline = false;
                let expected = obstacles.iter().any(|o| {
                    let (d, m) = ((p - eye).as_dvec3(), (eye - o.position).as_dvec3());
                    let r = f64::from(o.radius);
                    let (a, b, c) = (d.length_squared(), 2.0 * d.dot(m), m.length_squared() - r * r);
                    if c <= 0.0 {
                        return false; // the eye inside: hides nothing
                    }
                    let disc = b * b - 4.0 * a * c;
                    borderline |= disc.abs() < 1e-3 * b * b;
                    if disc < 0.0 {
                        return false;
                    }
                    let entry = (-b - disc.sqrt()) / (2.0 * a);
                    borderline |= (entry - 1.0).abs() < 1e-3 || entry.abs() < 1e-3;
                    (0.0..=1.0).contains(&entry)
                });
                if !borderline {
                    prop_assert_eq!(occluders.hides(p, s), expected, "point {} at {}", p, s);
                }
            }
        }
    }

    proptest! {
        /// Far to near, each place once, and equal depths in the order given.
        #[test]
        fn the_painters_order_goes_far_to_near(depths in prop::collection::vec(prop_oneof![0.1f32..5000.0, Just(100.0f32)], 0..400)) {
            let placed: Vec<(f32, ())> = depths.iter().map(|&d| (d, ())).collect();
            let order = painters_order(&placed);
            let mut seen = order.clone();
            seen.sort_unstable();
            prop_assert_eq!(seen, (0..placed.len() as u32).collect::<Vec<_>>());
            let (lo, hi) = depths.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &d| (a.min(d), b.max(d)));
            let slice = (hi - lo) / (DEPTH_SLICES - 1) as f32;
            for pair in order.windows(2) {
                let (a, b) = (depths[pair[0] as usize], depths[pair[1] as usize]);
                prop_assert!(a >= b - slice * 1.01, "{} drawn before {}", a, b);
                if a == b {
                    prop_assert!(pair[0] < pair[1]);
                }
            }
        }
    }

    /// The sizes step by the ratio from the smallest, within half a step of the agent's own
    /// size, and keep big ones as they are.
    #[test]
    fn arrow_sizes_step_within_half_a_step() {
        let mut sizes = std::collections::BTreeSet::new();
        let last = MIN_POINTS * SIZE_RATIO.powi(SIZE_STEPS as i32 - 1);
        for i in 0..=4000 {
            let wanted = MIN_POINTS + i as f32 * 0.01;
            let points = arrow_points(wanted, 1.0);
            let ratio = points / wanted;
            if wanted < last {
                let half = SIZE_RATIO.sqrt() * 1.001;
                assert!(ratio <= half && ratio >= 1.0 / half, "{wanted} -> {points}");
                sizes.insert(points.to_bits());
            } else if wanted > MIN_POINTS * SIZE_RATIO.powf(SIZE_STEPS as f32 - 0.5) {
                assert_eq!(points, wanted.min(MAX_POINTS));
            }
        }
        assert_eq!(sizes.len(), SIZE_STEPS);
        assert_eq!(arrow_points(1.0, 1.0), MIN_POINTS);
        assert_eq!(arrow_points(1e30, 1.0), MAX_POINTS);
        assert_eq!(arrow_points(f32::NAN, 1.0), MIN_POINTS);
        assert_eq!(arrow_points(5.0, 0.0), MAX_POINTS);
    }
}
