//! The 3D orbit view: a ground grid on z = 0, paths and curves as lines (the helix rises),
//! obstacles as shaded spheres (per-vertex Lambert lighting, no shader needed), agents as
//! oriented cones with a drop line to the ground, planner waypoints as diamonds on drop lines, and
//! every gizmo in 3D. Lines that carry meaning (paths, the planner's green, red and black) are
//! thin lit tubes whose width is a few pixels wherever they are, so they read like the top view's
//! lines but hide behind what stands in front of them. The other lines (the grid, drop lines,
//! trails) are one point wide: a GL line at UI scale 1, a flat ribbon facing the eye above it
//! (`ribbon_quads`). The planner step-through is drawn here in 3D too, its swept sphere a faint
//! capsule. Labels are placed in screen space afterwards (never overlapping), projected with the
//! same matrix as the 3D camera, which fills the part of the window the panels leave free.

use macroquad::models::{draw_line_3d, draw_mesh, Mesh, Vertex};
use macroquad::prelude::{
    clear_background, screen_height, set_camera, set_default_camera, Camera3D, Color, Vec2, Vec3, Vec4,
};

use super::labels::Labels;
use super::planner::{self as plan_view, Picture};
use super::{curve_samples, style, waypoint_label};
use crate::app::{App, Camera, PlannerDebug, Selection, Tool};
use crate::behaviours::{GizmoRole, GizmoShape};
use crate::sim::Behaviour;

/// Where the light comes from: above, in front of and to the left of the default camera.
pub(super) const LIGHT: Vec3 = Vec3::new(-0.35, -0.55, 0.76);

pub(super) fn shade(color: Color, normal: Vec3) -> [u8; 4] {
    let lambert = normal.normalize_or_zero().dot(LIGHT.normalize()).max(0.0);
    let k = 0.42 + 0.58 * lambert;
    [
        (color.r * k * 255.0).clamp(0.0, 255.0) as u8,
        (color.g * k * 255.0).clamp(0.0, 255.0) as u8,
        (color.b * k * 255.0).clamp(0.0, 255.0) as u8,
        (color.a * 255.0).clamp(0.0, 255.0) as u8,
    ]
}

fn vertex(position: Vec3, color: [u8; 4]) -> Vertex {
    Vertex { position, uv: Vec2::ZERO, color, normal: Vec4::ZERO }
}

/// A lit sphere as a mesh (latitude-longitude, `rings` × `sectors`).
pub fn sphere_mesh(center: Vec3, radius: f32, color: Color, rings: u16, sectors: u16) -> Mesh {
    let mut vertices = Vec::with_capacity(((rings + 1) * (sectors + 1)) as usize);
    for ring in 0..=rings {
        let phi = std::f32::consts::PI * ring as f32 / rings as f32;
        for sector in 0..=sectors {
            let theta = std::f32::consts::TAU * sector as f32 / sectors as f32;
            let normal = Vec3::new(phi.sin() * theta.cos(), phi.sin() * theta.sin(), phi.cos());
            vertices.push(vertex(center + normal * radius, shade(color, normal)));
        }
    }
    let mut indices = Vec::with_capacity((rings * sectors * 6) as usize);
    for ring in 0..rings {
        for sector in 0..sectors {
            let a = ring * (sectors + 1) + sector;
            let b = a + sectors + 1;
            indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
        }
    }
    Mesh { vertices, indices, texture: None }
}

/// Two unit vectors perpendicular to `axis` and to each other.
fn perpendiculars(axis: Vec3) -> (Vec3, Vec3) {
    let helper = if axis.z.abs() < 0.9 { Vec3::Z } else { Vec3::X };
    let u = axis.cross(helper).normalize_or_zero();
    (u, axis.cross(u))
}

/// Most sides a cone has ([`cone_sides`]).
const CONE_SIDES: usize = 12;

/// A lit cone from `base` to `tip` with `sides` faces (at most [`CONE_SIDES`]) round it, starting
/// at `u` (a unit vector across the axis), seen from `eye`: each face three vertices of its own
/// shade (flat shading), the base a polygon of the back's shade. Only the faces turned toward
/// the eye are written: a cone is convex and closed, so those turned away are always hidden
/// behind them, and leaving them out halves what the GL driver transforms and sets up (a
/// software one pays for every triangle). The vertices and indices it wrote, in `vertices` and
/// `indices`.
fn cone_parts(
    (base, tip, radius, color): (Vec3, Vec3, f32, Color),
    (sides, u): (usize, Vec3),
    eye: Vec3,
    vertices: &mut [Vertex; 4 * CONE_SIDES],
    indices: &mut [u16; 6 * CONE_SIDES],
) -> (usize, usize) {
    let sides = sides.clamp(3, CONE_SIDES);
    let axis = (tip - base).normalize_or_zero();
    let v = axis.cross(u);
    let at = |i: usize| std::f32::consts::TAU * i as f32 / sides as f32;
    let rim = |angle: f32| base + (u * angle.cos() + v * angle.sin()) * radius;
    let (mut nv, mut ni) = (0, 0);
    for i in 0..sides {
        let (a0, a1) = (at(i), at(i + 1));
        let (p0, p1) = (rim(a0), rim(a1));
        // The face's plane holds the rim's chord and the tip; its outward side is away from
        // the axis.
        let mut outward = (p1 - p0).cross(tip - p0);
        if outward.dot(p0 + p1 - base * 2.0) < 0.0 {
            outward = -outward;
        }
        if outward.dot(eye - p0) <= 0.0 {
            continue;
        }
        let middle = (a0 + a1) * 0.5;
        let normal = (u * middle.cos() + v * middle.sin() + axis * 0.5).normalize_or_zero();
        let c = shade(color, normal);
        vertices[nv..nv + 3].copy_from_slice(&[vertex(p0, c), vertex(p1, c), vertex(tip, c)]);
        let first = nv as u16;
        indices[ni..ni + 3].copy_from_slice(&[first, first + 1, first + 2]);
        (nv, ni) = (nv + 3, ni + 3);
    }
    if (base - eye).dot(axis) > 0.0 {
        // The base faces the eye (its outward side is against the axis).
        let back = shade(color, -axis);
        let first = nv as u16;
        for i in 0..sides {
            vertices[nv] = vertex(rim(at(i)), back);
            nv += 1;
        }
        for i in 1..sides as u16 - 1 {
            indices[ni..ni + 3].copy_from_slice(&[first, first + i + 1, first + i]);
            ni += 3;
        }
    }
    (nv, ni)
}

/// How many sides a cone needs whose base is `radius_px` pixels round on screen: twelve from
/// 6 px, where facets show; eight from 3 px; below that four, a pyramid turned so that two of
/// its edges face the eye and its outline is the cone's (see [`Drawing::cone`]). A crowd's
/// agents are a few pixels across: 12 sides took 72 vertices an agent.
fn cone_sides(radius_px: f32) -> usize {
    if radius_px >= 6.0 || radius_px.is_nan() {
        CONE_SIDES
    } else if radius_px >= 3.0 {
        8
    } else {
        4
    }
}

/// A lit tube (a six-sided prism) from `a` to `b`: a thick line that respects depth.
pub fn tube_mesh(a: Vec3, b: Vec3, radius: f32, color: Color) -> Option<Mesh> {
    let axis = (b - a).try_normalize()?;
    let (u, v) = perpendiculars(axis);
    let sides = 6u16;
    let mut vertices = Vec::with_capacity(2 * sides as usize);
    for i in 0..sides {
        let angle = std::f32::consts::TAU * i as f32 / sides as f32;
        let normal = u * angle.cos() + v * angle.sin();
        let c = shade(color, normal);
        vertices.push(vertex(a + normal * radius, c));
        vertices.push(vertex(b + normal * radius, c));
    }
    let mut indices = Vec::with_capacity(6 * sides as usize);
    for i in 0..sides {
        let j = (i + 1) % sides;
        let (a0, b0, a1, b1) = (2 * i, 2 * i + 1, 2 * j, 2 * j + 1);
        indices.extend_from_slice(&[a0, b0, a1, a1, b0, b1]);
    }
    Some(Mesh { vertices, indices, texture: None })
}

/// The channel of half-width `radius` around a path, as in the top view: a flat band in the
/// horizontal plane through each segment and a disc at each point (so bends are filled), sunk
/// a third of a pixel below the path's height so the centre line and the agents' trails, drawn
/// at that height, stay on top of it.
fn draw_channel(d: &mut Drawing, path: &crate::geometry::Polyline, radius: f32, upp: f32) {
    if radius.is_nan() || radius <= 0.0 {
        return;
    }
    let lift = Vec3::new(0.0, 0.0, -0.3 * upp);
    let color: [u8; 4] = style::PATH_BAND.into();
    for segment in 0..path.segment_count() {
        let (a, b) = path.segment(segment);
        let Some(along) = (b - a).with_z(0.0).try_normalize() else { continue };
        let side = Vec3::new(-along.y, along.x, 0.0) * radius;
        let corners = [a - side, a + side, b + side, b - side].map(|p| vertex(p + lift, color));
        d.triangles(&corners, &[0, 1, 2, 0, 2, 3]);
    }
    const SECTORS: u16 = 24;
    let mut fan = [vertex(Vec3::ZERO, color); SECTORS as usize + 1];
    let mut indices = [0u16; 3 * SECTORS as usize];
    for i in 0..SECTORS {
        let at = 3 * usize::from(i);
        indices[at..at + 3].copy_from_slice(&[0, 1 + i, 1 + (i + 1) % SECTORS]);
    }
    for &p in path.points() {
        fan[0] = vertex(p + lift, color);
        for i in 0..SECTORS {
            let angle = std::f32::consts::TAU * f32::from(i) / f32::from(SECTORS);
            fan[1 + usize::from(i)] =
                vertex(p + lift + Vec3::new(angle.cos(), angle.sin(), 0.0) * radius, color);
        }
        d.triangles(&fan, &indices);
    }
}

/// A regular octahedron (a diamond) of `radius` around `center`.
pub fn diamond_mesh(center: Vec3, radius: f32, color: Color) -> Mesh {
    let tips = [Vec3::X, Vec3::Y, -Vec3::X, -Vec3::Y];
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for i in 0..4 {
        let (a, b) = (tips[i], tips[(i + 1) % 4]);
        for pole in [Vec3::Z, -Vec3::Z] {
            let normal = (a + b + pole).normalize_or_zero();
            let c = shade(color, normal);
            let start = vertices.len() as u16;
            vertices.extend([
                vertex(center + a * radius, c),
                vertex(center + b * radius, c),
                vertex(center + pole * radius * 1.3, c),
            ]);
            indices.extend([start, start + 1, start + 2]);
        }
    }
    Mesh { vertices, indices, texture: None }
}

/// World units per point at a point: per screen pixel at UI scale 1, per
/// [`Camera::pixel_scale`] pixels above it (for widths and markers that stay a few points wide,
/// as the top view's do).
fn units_per_point(camera: &Camera, at: Vec3) -> f32 {
    camera.eye().distance(at).max(1.0) * units_per_point_at_depth_one(camera)
}

/// [`units_per_point`] at one unit from the eye: it grows with the distance from there. Worked
/// out once a frame by [`Drawing`] (the eye takes four sines and cosines).
pub(super) fn units_per_point_at_depth_one(camera: &Camera) -> f32 {
    2.0 * (Camera::FOV_Y * 0.5).tan() / camera.viewport_size().y.max(1.0) * camera.pixel_scale()
}

/// Whether a line `px` points wide is a hairline (one screen pixel, drawn as a GL line).
fn hairline(camera: &Camera, px: f32) -> bool {
    px * camera.pixel_scale() <= 1.0
}

/// What the orbit view draws in one frame, gathered into as few draw calls as it can:
/// - Triangles (every mesh: spheres, cones, tubes, diamonds, the channels, and the ribbons
///   below) go into one vertex buffer, drawn in order when it is full (under macroquad's
///   per-call capacity, [`super::batch::MAX_VERTICES`]) or flushed. Drawn with a `draw_mesh`
///   each, between the drop lines' GL lines (another draw mode, so another draw call), a crowd
///   cost two draw calls an agent. With the cones' hidden faces left out and fewer sides for
///   small ones ([`cone_parts`], [`cone_sides`]), 10,000 agents went from 240–264 ms a frame to
///   89–101 ms (`steerlab frames --agents 10000 --view 3d`; see the README's performance
///   section).
/// - Lines one point wide that carry no meaning of their own (the ground grid, drop lines,
///   trails, painted arrows, the capsule's edges; [`Drawing::line`]). At UI scale 1 (and below)
///   each is one screen pixel, a GL line, drawn after the triangles gathered with it. Above it a
///   GL line would stay one pixel, a hairline on a screen whose text is twice as large, so each
///   becomes a flat unlit ribbon facing the eye, [`Camera::pixel_scale`] pixels wide at both
///   ends (it still hides behind what stands in front of it; see [`ribbon_quads`]).
struct Drawing<'a> {
    camera: &'a Camera,
    eye: Vec3,
    /// [`units_per_point_at_depth_one`].
    per_depth: f32,
    /// Ribbons, not GL lines.
    wide: bool,
    vertices: Vec<Vertex>,
    indices: Vec<u16>,
    gl_lines: Vec<(Vec3, Vec3, Color)>,
}

impl<'a> Drawing<'a> {
    fn new(camera: &'a Camera) -> Self {
        Drawing {
            camera,
            eye: camera.eye(),
            per_depth: units_per_point_at_depth_one(camera),
            wide: !hairline(camera, 1.0),
            vertices: Vec::new(),
            indices: Vec::new(),
            gl_lines: Vec::new(),
        }
    }

    /// [`units_per_point`] at `at`.
    fn upp(&self, at: Vec3) -> f32 {
        self.eye.distance(at).max(1.0) * self.per_depth
    }

    /// Triangles (`indices` into `vertices`), after those gathered before.
    fn triangles(&mut self, vertices: &[Vertex], indices: &[u16]) {
        use super::batch::{MAX_INDICES, MAX_VERTICES};
        if vertices.len() > MAX_VERTICES || indices.len() > MAX_INDICES {
            // Larger than one draw call holds (no mesh drawn here is): on its own, as before.
            self.draw_triangles();
            draw_mesh(&Mesh { vertices: vertices.to_vec(), indices: indices.to_vec(), texture: None });
            return;
        }
        if self.vertices.len() + vertices.len() > MAX_VERTICES
            || self.indices.len() + indices.len() > MAX_INDICES
        {
            self.draw_triangles();
        }
        let base = self.vertices.len() as u16;
        self.vertices.extend_from_slice(vertices);
        self.indices.extend(indices.iter().map(|&i| base + i));
    }

    fn mesh(&mut self, mesh: &Mesh) {
        self.triangles(&mesh.vertices, &mesh.indices);
    }

    /// A lit cone from `base` to `tip`, with as many sides as show at its size on screen
    /// ([`cone_sides`]).
    fn cone(&mut self, base: Vec3, tip: Vec3, radius: f32, color: Color) {
        let radius_px = radius / self.upp(base) * self.camera.pixel_scale();
        let sides = cone_sides(radius_px);
        let axis = (tip - base).normalize_or_zero();
        let fixed = perpendiculars(axis).0;
        let u = if sides == 4 {
            // Edges at ±u and ±v, u across the line of sight: the outline is whole from any
            // side (a square turned with the cone would show a thin edge-on profile).
            axis.cross(self.eye - base).try_normalize().unwrap_or(fixed)
        } else {
            fixed
        };
        let mut vertices = [vertex(Vec3::ZERO, [0; 4]); 4 * CONE_SIDES];
        let mut indices = [0u16; 6 * CONE_SIDES];
        let (nv, ni) =
            cone_parts((base, tip, radius, color), (sides, u), self.eye, &mut vertices, &mut indices);
        self.triangles(&vertices[..nv], &indices[..ni]);
    }

    /// A line from `a` to `b`, one point wide.
    fn line(&mut self, a: Vec3, b: Vec3, color: Color) {
        if !self.wide {
            self.gl_lines.push((a, b, color));
            return;
        }
        self.ribbon(a, b, 1.0, color.into());
    }

    /// A flat ribbon `points` wide from `a` to `b`, facing the eye, all of colour `c`.
    fn ribbon(&mut self, a: Vec3, b: Vec3, points: f32, c: [u8; 4]) {
        for quad in ribbon_quads(self.camera, self.eye, a, b, points) {
            self.triangles(&quad.map(|p| vertex(p, c)), &[0, 1, 2, 0, 2, 3]);
        }
    }

    fn draw_triangles(&mut self) {
        if !self.indices.is_empty() {
            draw_mesh(&Mesh {
                vertices: std::mem::take(&mut self.vertices),
                indices: std::mem::take(&mut self.indices),
                texture: None,
            });
        }
    }

    /// Draws what was gathered: the triangles, then the GL lines.
    fn flush(&mut self) {
        self.draw_triangles();
        for (a, b, color) in self.gl_lines.drain(..) {
            draw_line_3d(a, b, color);
        }
    }
}

/// A line `px` points thick (measured at its middle).
fn thick_line(d: &mut Drawing, a: Vec3, b: Vec3, px: f32, color: Color) {
    let radius = 0.5 * px * d.upp((a + b) * 0.5);
    if let Some(mesh) = tube_mesh(a, b, radius, color) {
        d.mesh(&mesh);
    }
}

/// Most pieces one ribbon is cut into (see [`ribbon_quads`]).
const MAX_RIBBON_PIECES: usize = 64;

/// A line from `a` to `b` `points` wide as flat quads facing `eye` (corners in order round
/// each quad), `points` × [`Camera::pixel_scale`] pixels wide at each quad's ends. A quad's width is set at
/// its two ends only, so a long line that passes near the eye (a grid line under the camera) is
/// cut into pieces no longer than half the line's least distance from the eye: widths set only
/// at its far ends would make it wide where it passes close. None for a line of no length, one
/// pointing at the eye, or one not made of numbers.
fn ribbon_quads(
    camera: &Camera,
    eye: Vec3,
    a: Vec3,
    b: Vec3,
    points: f32,
) -> impl Iterator<Item = [Vec3; 4]> + '_ {
    let side = (b - a).cross(eye - (a + b) * 0.5).try_normalize();
    let nearest = closest_on_segment(eye, a, b).distance(eye).max(1.0);
    let pieces = match side {
        Some(_) => (2.0 * a.distance(b) / nearest).ceil().clamp(1.0, MAX_RIBBON_PIECES as f32) as usize,
        None => 0,
    };
    let side = side.unwrap_or(Vec3::ZERO);
    let per_depth = units_per_point_at_depth_one(camera);
    let half = move |p: Vec3| side * (0.5 * points * eye.distance(p).max(1.0) * per_depth);
    (0..pieces).map(move |piece| {
        let from = a.lerp(b, piece as f32 / pieces as f32);
        let to = a.lerp(b, (piece + 1) as f32 / pieces as f32);
        [from - half(from), from + half(from), to + half(to), to - half(to)]
    })
}

/// The point of the segment from `a` to `b` nearest `p`.
fn closest_on_segment(p: Vec3, a: Vec3, b: Vec3) -> Vec3 {
    let ab = b - a;
    let length_squared = ab.length_squared();
    let t = if length_squared > 0.0 { ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0) } else { 0.0 };
    a + ab * t
}

/// A thick arrow with a cone for its head.
fn thick_arrow(d: &mut Drawing, from: Vec3, to: Vec3, px: f32, color: Color) {
    let length = from.distance(to);
    if length < 1e-3 {
        return;
    }
    let unit = (to - from) / length;
    let upp = d.upp(to);
    let head = (length * 0.35).min(upp * (10.0 + 2.0 * px));
    let base = to - unit * head;
    if px * d.camera.pixel_scale() < 2.0 {
        // Under two pixels a lit tube's six faces are a pixel's colour: a flat ribbon, lit as
        // the tube's face toward the eye, is four vertices instead of twelve (an agent's
        // velocity arrow, ten thousand of them in a crowd).
        let c = shade(color, d.eye - (from + base) * 0.5);
        d.ribbon(from, base, px, c);
    } else {
        thick_line(d, from, base, px, color);
    }
    d.cone(base, to, head * 0.45, color);
}

/// A circle of `radius` around `center` in the plane with normal `normal`.
fn ring(d: &mut Drawing, center: Vec3, normal: Vec3, radius: f32, px: f32, color: Color) {
    let (u, v) = perpendiculars(normal.normalize_or_zero());
    let n = 48;
    let point = |i: usize| {
        let angle = std::f32::consts::TAU * i as f32 / n as f32;
        center + (u * angle.cos() + v * angle.sin()) * radius
    };
    for i in 0..n {
        if hairline(d.camera, px) {
            d.line(point(i), point(i + 1), color);
        } else {
            thick_line(d, point(i), point(i + 1), px, color);
        }
    }
}

/// The seed's blue outline of a detected obstacle: a ring just outside its silhouette.
fn outline_sphere(d: &mut Drawing, center: Vec3, radius: f32, color: Color) {
    let toward_eye = d.eye - center;
    let radius = radius * 1.03 + 0.5 * d.upp(center);
    ring(d, center, toward_eye, radius, 3.0, color);
}

fn draw_ground(app: &App, d: &mut Drawing) {
    let step = super::nice_grid_step(1.0 / (app.camera.distance * 0.0025)).max(10.0);
    let extent = (app.camera.distance * 1.5 / step).ceil() as i32;
    let centre = app.camera.center;
    let cx = (centre.x / step).round() * step;
    let cy = (centre.y / step).round() * step;
    let half = extent as f32 * step;
    for i in -extent..=extent {
        let offset = i as f32 * step;
        let major = ((cx + offset) / step).round() as i64 % 5 == 0;
        let color = if major { style::GRID_MAJOR } else { style::GRID_MINOR };
        d.line(Vec3::new(cx + offset, cy - half, 0.0), Vec3::new(cx + offset, cy + half, 0.0), color);
        let major = ((cy + offset) / step).round() as i64 % 5 == 0;
        let color = if major { style::GRID_MAJOR } else { style::GRID_MINOR };
        d.line(Vec3::new(cx - half, cy + offset, 0.0), Vec3::new(cx + half, cy + offset, 0.0), color);
    }
}

/// A drop line from a point to the ground with a small cross where it lands.
fn drop_line(d: &mut Drawing, p: Vec3, color: Color, upp: f32) {
    if p.z.abs() < 0.5 {
        return;
    }
    let foot = p.with_z(0.0);
    d.line(p, foot, color);
    let arm = 4.0 * upp;
    d.line(foot - Vec3::X * arm, foot + Vec3::X * arm, color);
    d.line(foot - Vec3::Y * arm, foot + Vec3::Y * arm, color);
}

/// The 3D camera for the orbit view, filling the viewport.
fn camera_3d(camera: &Camera) -> Camera3D {
    let (near, far) = camera.orbit_clip();
    let (min, size) = (camera.viewport.0, camera.viewport_size());
    // OpenGL counts the viewport's y from the bottom of the window.
    let bottom = screen_height() - (min.y + size.y);
    Camera3D {
        position: camera.eye(),
        target: camera.center,
        up: Vec3::Z,
        fovy: Camera::FOV_Y,
        aspect: Some(camera.orbit_aspect()),
        viewport: Some((
            min.x.round() as i32,
            bottom.round() as i32,
            size.x.round() as i32,
            size.y.round() as i32,
        )),
        z_near: near,
        z_far: far,
        ..Default::default()
    }
}

fn draw_gizmos(app: &App, d: &mut Drawing) {
    let camera = &app.camera;
    for super::VisibleGizmo { gizmo, color, planner, stripe } in super::visible_gizmos(app) {
        match gizmo.shape {
            GizmoShape::Point(p) => {
                let size = if gizmo.role == GizmoRole::CastHit { 4.0 } else { 3.0 };
                d.mesh(&sphere_mesh(p, size * units_per_point(camera, p), color, 6, 8));
            }
            GizmoShape::Line(a, b) => {
                let px = match gizmo.role {
                    GizmoRole::CurrentSegment | GizmoRole::FallbackSegment if planner => 3.5,
                    GizmoRole::Probe if planner => 2.0,
                    GizmoRole::CurrentSegment => 2.5,
                    _ => 1.0,
                };
                if hairline(camera, px) {
                    d.line(a, b, color);
                } else {
                    thick_line(d, a, b, px, color);
                }
                if let (Some(stripe), GizmoRole::CurrentSegment) = (stripe, gizmo.role) {
                    // The ship's own colour as a stripe on the near side of the green tube (a
                    // thinner tube inside it would be hidden).
                    let middle = (a + b) * 0.5;
                    let toward = (camera.eye() - middle).normalize_or_zero()
                        * 0.5
                        * px
                        * units_per_point(camera, middle);
                    thick_line(d, a + toward, b + toward, 1.5, stripe);
                }
            }
            GizmoShape::Arrow(a, b) => thick_arrow(d, a, b, 2.0, color),
            GizmoShape::Circle { center, radius } => match gizmo.role {
                GizmoRole::CastHit => outline_sphere(d, center, radius, color),
                _ => ring(d, center, Vec3::Z, radius, 1.0, color),
            },
            GizmoShape::Value { .. } => {}
        }
    }
}

/// The planner step-through in 3D; translucent parts come last (see [`draw_capsule`]).
fn draw_debug(app: &App, debug: &PlannerDebug, d: &mut Drawing) -> Picture {
    let camera = &app.camera;
    let picture = Picture::of(debug);
    if let Some(sphere) = picture.hit_sphere {
        outline_sphere(d, sphere.center, sphere.radius, plan_view::blue());
    }
    if let Some((a, b)) = picture.red {
        thick_line(d, a, b, 2.0, plan_view::red());
    }
    for pair in picture.green.windows(2) {
        thick_line(d, pair[0], pair[1], 4.0, plan_view::green());
    }
    for &p in picture.green.iter().skip(1) {
        d.mesh(&sphere_mesh(p, 3.5 * units_per_point(camera, p), plan_view::green(), 6, 8));
    }
    for route in &picture.fallback {
        for pair in route.windows(2) {
            thick_line(d, pair[0], pair[1], 4.0, plan_view::orange());
        }
        for &p in route.iter().skip(1) {
            d.mesh(&sphere_mesh(p, 4.0 * units_per_point(camera, p), plan_view::orange(), 6, 8));
        }
    }
    if let Some(hit) = picture.hit_point {
        d.mesh(&sphere_mesh(hit, 4.0 * units_per_point(camera, hit), plan_view::blue(), 6, 8));
    }
    if let Some((from, to)) = picture.avoidance {
        thick_arrow(d, from, to, 2.5, plan_view::black());
    }
    if let Some((from, to)) = picture.beyond {
        d.line(from, to, plan_view::CAPSULE_EDGE);
    }
    for &(p, top) in &picture.stack {
        let upp = units_per_point(camera, p);
        let radius = if top { 11.0 } else { 8.0 } * upp;
        ring(d, p, camera.eye() - p, radius, if top { 2.5 } else { 1.5 }, plan_view::STACK);
    }
    let perspective = picture.perspective;
    ring(
        d,
        perspective,
        camera.eye() - perspective,
        6.0 * units_per_point(camera, perspective),
        2.0,
        plan_view::black(),
    );
    picture
}

/// The swept sphere of the current cast: rings at both ends and in the middle, four lines along
/// its sides, and a faint translucent hull (drawn last, so it hides nothing).
fn draw_capsule(picture: &Picture, d: &mut Drawing) {
    let Some((from, to, radius)) = picture.capsule else { return };
    let axis = (to - from).try_normalize().unwrap_or(Vec3::X);
    let (u, v) = perpendiculars(axis);
    for t in [0.0, 0.5, 1.0] {
        ring(d, from.lerp(to, t), axis, radius, 1.0, plan_view::CAPSULE_EDGE);
    }
    for side in [u, v, -u, -v] {
        d.line(from + side * radius, to + side * radius, plan_view::CAPSULE_EDGE);
    }
    // Everything before the translucent hull, which must come last.
    d.flush();
    draw_mesh(&sphere_mesh(from, radius, plan_view::CAPSULE_FILL, 10, 16));
    draw_mesh(&sphere_mesh(to, radius, plan_view::CAPSULE_FILL, 10, 16));
    let sides = 24u16;
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    let color = shade(plan_view::CAPSULE_FILL, Vec3::Z);
    for i in 0..sides {
        let angle = std::f32::consts::TAU * i as f32 / sides as f32;
        let offset = (u * angle.cos() + v * angle.sin()) * radius;
        vertices.push(vertex(from + offset, color));
        vertices.push(vertex(to + offset, color));
        let j = (i + 1) % sides;
        indices.extend_from_slice(&[2 * i, 2 * i + 1, 2 * j, 2 * j, 2 * i + 1, 2 * j + 1]);
    }
    draw_mesh(&Mesh { vertices, indices, texture: None });
}

/// The 3D orbit view.
pub fn draw_orbit(app: &App) {
    clear_background(style::BACKGROUND);
    let camera = &app.camera;
    // A crowd's arrows (`super::orbit_crowd`) are worked out and rasterised on rayon's threads
    // while this thread gathers and draws the meshes, as the top view's are.
    let crowd = super::crowd::use_crowd_layer(app.world.agents.len());
    let mut prepared = if crowd { super::crowd::Ahead::take_for(camera.screen) } else { None };
    let picture = rayon::in_place_scope(|scope| {
        if let Some(prepared) = prepared.as_mut() {
            scope.spawn(move |_| {
                prepared.prepare(super::orbit_crowd::sprites(app), camera.screen, camera.viewport)
            });
        }
        draw_meshes(app, crowd)
    });
    set_default_camera();
    if let Some(prepared) = prepared {
        super::crowd::draw_prepared(prepared, camera.screen);
    }
    draw_labels(app, picture.as_ref());
}

/// Everything the orbit view draws in 3D (the agents' cones only when not `crowd`), the
/// step-through's picture returned for the labels.
fn draw_meshes(app: &App, crowd: bool) -> Option<Picture> {
    let camera = &app.camera;
    set_camera(&camera_3d(camera));
    let d = &mut Drawing::new(camera);
    if app.display.grid {
        draw_ground(app, d);
        // Before the paths' translucent channels, which lie on the ground above nothing else.
        d.flush();
    }
    let focus_upp = units_per_point(camera, camera.center);
    if app.display.path_radius {
        for path in &app.world.paths {
            draw_channel(d, &path.polyline, path.radius, focus_upp);
        }
    }
    for (idx, path) in app.world.paths.iter().enumerate() {
        let color = if app.path_selected(idx) { style::SELECTED } else { style::PATH };
        for segment in 0..path.polyline.segment_count() {
            let (a, b) = path.polyline.segment(segment);
            thick_line(d, a, b, 2.0, color);
        }
    }
    for (idx, named) in app.world.curves.iter().enumerate() {
        let color = if app.is_selected(Selection::Curve(idx)) { style::SELECTED } else { style::CURVE };
        let samples = curve_samples(&named.curve, 360);
        for pair in samples.windows(2) {
            thick_line(d, pair[0], pair[1], 2.0, color);
        }
        // Heights read better with a few drop lines from the curve to the ground.
        for p in samples.iter().step_by(30) {
            drop_line(d, *p, style::GRID_MAJOR, focus_upp);
        }
    }
    for (idx, obstacle) in app.world.obstacles.iter().enumerate() {
        let this = Selection::Obstacle(idx);
        let color = if app.is_selected(this) {
            style::SELECTED
        } else if app.hover == Some(this) {
            style::HOVER
        } else {
            style::OBSTACLE
        };
        d.mesh(&sphere_mesh(obstacle.position, obstacle.radius, color, 14, 20));
        drop_line(d, obstacle.position - Vec3::Z * obstacle.radius, style::GRID_MAJOR, focus_upp);
        if obstacle.velocity.length_squared() > 0.0 {
            // Where the surface will be in a second: an arrow out of the sphere.
            let start = obstacle.position + obstacle.velocity.normalize_or_zero() * obstacle.radius;
            thick_arrow(d, start, start + obstacle.velocity, 1.5, style::OBSTACLE_EDGE);
        }
    }
    for (idx, target) in app.world.targets.iter().enumerate() {
        let color = if app.is_selected(Selection::Target(idx)) { style::SELECTED } else { style::TARGET };
        d.mesh(&sphere_mesh(target.position, 6.0 * units_per_point(camera, target.position), color, 6, 8));
        drop_line(d, target.position, style::GRID_MAJOR, focus_upp);
    }
    draw_painted_fields(app, d);
    draw_gizmos(app, d);
    let picture = app.planner_debug.as_ref().map(|debug| draw_debug(app, debug, d));
    for (agent_idx, agent) in app.world.agents.iter().enumerate() {
        if let Behaviour::Planner { params } = &agent.behaviour {
            for (i, &w) in params.waypoints.iter().enumerate() {
                let this = Selection::Waypoint { agent: agent_idx, waypoint: i };
                let color = if app.is_selected(this) || app.hover == Some(this) {
                    style::SELECTED
                } else {
                    style::agent_color(agent.about.color, 1.0)
                };
                d.mesh(&diamond_mesh(w, 7.0 * units_per_point(camera, w), color));
                drop_line(d, w, style::agent_color(agent.about.color, 0.6), focus_upp);
            }
        }
        if app.is_hidden(agent_idx) {
            continue;
        }
        let position = app.draw_position(agent_idx);
        drop_line(d, position, style::agent_color(agent.about.color, 0.45), focus_upp);
        if crowd {
            // Arrows through the CPU layer, drawn after the rest (`super::orbit_crowd`).
            continue;
        }
        let heading = agent.kinematics.velocity.try_normalize().unwrap_or_else(|| {
            let (sin, cos) = agent.kinematics.orientation.sin_cos();
            Vec3::new(cos, sin, 0.0)
        });
        // At least a few pixels long, so a small ship stays visible from afar.
        let size = agent.limits.radius.max(6.0 * d.upp(position));
        let this = Selection::Agent(agent_idx);
        let color = if app.is_selected(this) {
            style::SELECTED
        } else if app.hover == Some(this) {
            style::HOVER
        } else {
            style::agent_color(agent.about.color, 1.0)
        };
        d.cone(position - heading * size, position + heading * size * 1.6, size * 0.7, color);
        if app.display.trails && app.world.agents.len() <= 200 {
            let trail: Vec<Vec3> = app.trails.trail(agent_idx).collect();
            for pair in trail.windows(2) {
                d.line(pair[0], pair[1], style::agent_color(agent.about.color, 0.5));
            }
        }
        if app.display.velocity && agent.kinematics.velocity.length_squared() > 1.0 {
            let tip = position + agent.kinematics.velocity * 0.4;
            thick_arrow(d, position, tip, 1.5, style::agent_color(agent.about.color, 0.8));
        }
    }
    if let Some(push) = app.tool_state.push {
        if let Some(agent) = app.world.agents.get(push.agent) {
            let color = style::gizmo_color(GizmoRole::Disturbance, true);
            thick_arrow(d, agent.kinematics.position, push.to, 3.0, color);
        }
    }
    if let Some(picture) = &picture {
        draw_capsule(picture, d);
    }
    d.flush();
    picture
}

/// Most arrows a painted field draws in the 3D view (cells are taken every k-th beyond).
const MAX_PAINTED_ARROWS_3D: f32 = 10_000.0;

/// Every painted field on the ground, as the top view draws it: an arrow per painted cell (every
/// k-th where the cells are closer on screen than the top view's spacing, or more than
/// [`MAX_PAINTED_ARROWS_3D`]), and with the Paint tool the outline of each grid.
fn draw_painted_fields(app: &App, d: &mut Drawing) {
    for named in &app.world.fields {
        let field = &named.field;
        let (columns, rows) = field.size();
        let cell = field.cell_size();
        let origin = field.origin();
        let extent = Vec3::new(columns as f32 * cell, rows as f32 * cell, 0.0);
        if app.tool == Tool::Paint {
            let corners = [origin, origin + extent * Vec3::X, origin + extent, origin + extent * Vec3::Y];
            for (i, &corner) in corners.iter().enumerate() {
                d.line(corner, corners[(i + 1) % 4], style::PAINTED_FIELD_EDGE);
            }
        }
        let upp = units_per_point(&app.camera, origin + extent * 0.5);
        let by_pixels = super::PAINTED_ARROW_MIN_PX * upp / cell.max(1e-6);
        let by_count = ((columns as f32 * rows as f32) / MAX_PAINTED_ARROWS_3D).sqrt();
        // Never 0 (NaN reads as the widest spacing, then at least 1): `step_by(0)` panics.
        let every = by_pixels.max(by_count).ceil().min(columns.max(rows) as f32).max(1.0) as usize;
        for (from, to) in super::painted_arrows(field, 0..columns, 0..rows, every) {
            d.line(from, to, style::PAINTED_FIELD);
            // The head: two strokes back from the tip, in the ground's plane.
            let (along, side) = ((to - from) * 0.25, Vec3::new(from.y - to.y, to.x - from.x, 0.0) * 0.175);
            d.line(to, to - along + side, style::PAINTED_FIELD);
            d.line(to, to - along - side, style::PAINTED_FIELD);
        }
    }
}

/// Names, ids, waypoint numbers and the step-through's letters, never overlapping.
fn draw_labels(app: &App, picture: Option<&Picture>) {
    let camera = &app.camera;
    let mut labels = Labels::new(app.camera.pixel_scale());
    let projection = camera.projection();
    let project = |p: Vec3| projection.project_orbit(p);
    for idx in 0..app.world.agents.len() {
        if let Some(s) = project(app.draw_position(idx)) {
            labels.reserve(s - Vec2::splat(6.0), s + Vec2::splat(6.0));
        }
    }
    if app.display.labels && app.world.agents.len() <= super::MAX_LABELLED_AGENTS {
        // The selected and hovered agents first, always; the others where there is room and
        // when no obstacle stands between them and the eye (a name over a sphere would name an
        // agent nobody sees).
        let picked =
            |idx: usize| app.is_selected(Selection::Agent(idx)) || app.hover == Some(Selection::Agent(idx));
        let occluders = super::orbit_crowd::Occluders::new(
            &app.world.obstacles,
            &projection,
            camera.eye(),
            camera.screen,
        );
        for first in [true, false] {
            for (idx, agent) in app.world.agents.iter().enumerate().filter(|(idx, _)| !app.is_hidden(*idx)) {
                let position = app.draw_position(idx);
                let Some(s) = project(position).filter(|_| picked(idx) == first) else {
                    continue;
                };
                if !first && occluders.hides(position, s) {
                    continue;
                }
                let color = style::agent_color(agent.about.color, 1.0);
                if first {
                    labels.add(&agent.about.name, s, 8.0, 16, color);
                } else {
                    labels.add_if_room(&agent.about.name, s, 8.0, 16, color);
                }
            }
        }
    }
    if let Some(picture) = picture {
        for (p, label) in &picture.lettered {
            if let Some(s) = project(*p) {
                labels.add(label, s, 7.0, 20, plan_view::black());
            }
        }
        if let Some(s) = picture.stack.first().and_then(|&(top, _)| project(top)) {
            labels.add("top of stack", s, 12.0, 15, plan_view::STACK);
        }
    }
    for agent in &app.world.agents {
        if let Behaviour::Planner { params } = &agent.behaviour {
            for (i, &w) in params.waypoints.iter().enumerate() {
                let Some(s) = project(w) else { continue };
                match super::unreachable_reason(agent, i) {
                    Some(reason) => {
                        super::draw_unreachable_cross(s, app.camera.pixel_scale());
                        labels.add(&super::unreachable_label(w, i, &reason), s, 10.0, 16, style::UNREACHABLE);
                    }
                    None => labels.add(
                        &waypoint_label(w, i),
                        s,
                        8.0,
                        16,
                        style::agent_color(agent.about.color, 1.0),
                    ),
                }
            }
        }
    }
    for named in &app.world.paths {
        if let Some(s) = named.polyline.points().first().and_then(|&p| project(p)) {
            labels.add_if_room(&named.id, s, 8.0, 16, style::PATH);
        }
    }
    for named in &app.world.curves {
        if let Some(s) = project(super::edit::curve_handle(&named.curve)) {
            labels.add_if_room(&named.id, s, 8.0, 16, style::CURVE);
        }
    }
    for target in &app.world.targets {
        if let Some(s) = project(target.position) {
            labels.add_if_room(&target.id, s, 10.0, 16, style::TARGET);
        }
    }
    if let Some(push) = app.tool_state.push {
        if let (Some(agent), Some(s)) = (app.world.agents.get(push.agent), project(push.to)) {
            let change = (push.to - agent.kinematics.position).length() * crate::app::tools::PUSH_PER_UNIT;
            let color = style::gizmo_color(GizmoRole::Disturbance, true);
            labels.add(&format!("push {change:.0} units/s"), s, 8.0, 16, color);
        }
    }
    super::draw_rubber_band(app);
    labels.draw();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::ViewMode;
    use proptest::prelude::*;

    fn orbit_camera(yaw: f32, pitch: f32, distance: f32, ui_scale: f32) -> Camera {
        Camera { mode: ViewMode::Orbit, yaw, pitch, distance, ui_scale, ..Camera::default() }
    }

    /// The width on screen, in pixels, across a quad at `t` along it (0 at its start, 1 at its
    /// end), measured with the camera's own projection; None where part of it is off the view
    /// (clipped: its width there is never seen) or too close to the near plane for the measure
    /// to mean anything.
    fn screen_width(camera: &Camera, quad: &[Vec3; 4], t: f32) -> Option<f32> {
        let (near, _) = camera.orbit_clip();
        let forward = (camera.center - camera.eye()).normalize();
        let left = quad[0].lerp(quad[3], t);
        let right = quad[1].lerp(quad[2], t);
        let in_front = |p: Vec3| (p - camera.eye()).dot(forward) > 4.0 * near;
        if !(in_front(left) && in_front(right)) {
            return None;
        }
        let (min, max) = camera.viewport;
        let on_view = |s: Vec2| s.x >= min.x && s.y >= min.y && s.x <= max.x && s.y <= max.y;
        let (left, right) = (camera.project_orbit(left)?, camera.project_orbit(right)?);
        (on_view(left) && on_view(right)).then(|| left.distance(right))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Every ribbon is about the UI scale's pixels wide on screen, at both ends and in the
        /// middle of each of its pieces, wherever the line lies, the grid's lines passing under
        /// the camera included; and the pieces run from `a` to `b` without a gap.
        #[test]
        fn a_ribbon_is_one_point_wide_on_screen_along_its_whole_length(
            yaw in -3.2f32..3.2,
            pitch in 0.05f32..1.55,
            distance in 20.0f32..5000.0,
            ui_scale in 1.25f32..3.0,
            a in prop::array::uniform3(-3.0f32..3.0),
            b in prop::array::uniform3(-3.0f32..3.0),
        ) {
            let camera = orbit_camera(yaw, pitch, distance, ui_scale);
            let (a, b) = (Vec3::from(a) * distance, Vec3::from(b) * distance);
            let quads: Vec<[Vec3; 4]> = ribbon_quads(&camera, camera.eye(), a, b, 1.0).collect();
            prop_assert!(!quads.is_empty() && quads.len() <= MAX_RIBBON_PIECES);
            let middle = |q: &[Vec3; 4], t: f32| (q[0].lerp(q[3], t) + q[1].lerp(q[2], t)) * 0.5;
            prop_assert!(middle(&quads[0], 0.0).distance(a) <= 1e-3 * distance);
            prop_assert!(middle(&quads[quads.len() - 1], 1.0).distance(b) <= 1e-3 * distance);
            for pair in quads.windows(2) {
                prop_assert!(middle(&pair[0], 1.0).distance(middle(&pair[1], 0.0)) <= 1e-3 * distance);
            }
            let wanted = camera.pixel_scale();
            for quad in &quads {
                for t in [0.0, 0.5, 1.0] {
                    if let Some(width) = screen_width(&camera, quad, t) {
                        prop_assert!(
                            width >= 0.5 * wanted && width <= 2.0 * wanted,
                            "{width} px where {wanted} were wanted, t {t}, {} pieces", quads.len()
                        );
                    }
                }
            }
        }
    }

    /// Where the segment from `from` to `to` crosses the triangle `t` (Möller–Trumbore), as a
    /// fraction of the way; the triangle taken a hair larger (1e-3 of its sides), so that a
    /// segment through an edge shared by two triangles crosses one of them despite rounding.
    fn crossing(from: Vec3, to: Vec3, t: [Vec3; 3]) -> Option<f32> {
        let (e1, e2, dir) = (t[1] - t[0], t[2] - t[0], to - from);
        let p = dir.cross(e2);
        let det = e1.dot(p);
        if det.abs() < 1e-9 {
            return None;
        }
        let s = from - t[0];
        let u = s.dot(p) / det;
        let q = s.cross(e1);
        let v = dir.dot(q) / det;
        let along = e2.dot(q) / det;
        let eps = 1e-3;
        (u >= -eps && v >= -eps && u + v <= 1.0 + eps && (0.0..=1.0).contains(&along)).then_some(along)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// The culled cone shows all the cone shows: every point of the whole faceted cone (its
        /// faces and base, built here apart from `cone_parts`) that the eye sees, with nothing of
        /// the cone between, lies on a triangle that `cone_parts` wrote; and it writes no more
        /// than the whole cone has.
        #[test]
        fn a_cone_without_its_far_faces_shows_every_point_the_eye_sees(
            base in prop::array::uniform3(-50.0f32..50.0),
            axis in prop::array::uniform3(-1.0f32..1.0),
            length in 1.0f32..30.0,
            radius in 0.5f32..10.0,
            sides in prop::sample::select(vec![4usize, 8, 12]),
            eye in prop::array::uniform3(-200.0f32..200.0),
            samples in prop::collection::vec((0.0f32..1.0, 0.0f32..1.0), 24),
        ) {
            let (base, eye) = (Vec3::from(base), Vec3::from(eye));
            let Some(axis) = Vec3::from(axis).try_normalize() else { return Ok(()) };
            let tip = base + axis * length;
            prop_assume!(eye.distance(base) > 2.0 * (length + radius));
            let (u, v) = perpendiculars(axis);
            let rim = |i: usize| {
                let angle = std::f32::consts::TAU * i as f32 / sides as f32;
                base + (u * angle.cos() + v * angle.sin()) * radius
            };
            let mut whole: Vec<[Vec3; 3]> = (0..sides).map(|i| [rim(i), rim(i + 1), tip]).collect();
            whole.extend((1..sides - 1).map(|i| [rim(0), rim(i + 1), rim(i)]));
            let mut vertices = [vertex(Vec3::ZERO, [0; 4]); 4 * CONE_SIDES];
            let mut indices = [0u16; 6 * CONE_SIDES];
            let (nv, ni) = cone_parts((base, tip, radius, Color::new(0.2, 0.3, 0.9, 1.0)), (sides, u), eye, &mut vertices, &mut indices);
            prop_assert!(nv <= 4 * sides && ni <= 3 * whole.len() && ni % 3 == 0);
            let written: Vec<[Vec3; 3]> = indices[..ni]
                .chunks(3)
                .map(|t| [0, 1, 2].map(|k| vertices[usize::from(t[k])].position))
                .collect();
            prop_assert!(indices[..ni].iter().all(|&i| usize::from(i) < nv));
            for (face, triangle) in whole.iter().enumerate() {
                for &(a, b) in &samples {
                    let (a, b) = if a + b > 1.0 { (1.0 - a, 1.0 - b) } else { (a, b) };
                    // A point a little inside the triangle, off its edges.
                    let (a, b) = (0.02 + 0.96 * a, 0.02 + 0.96 * b);
                    let (a, b) = (a * 0.96, b * 0.96);
                    let point = triangle[0] + (triangle[1] - triangle[0]) * a + (triangle[2] - triangle[0]) * b;
                    let hidden = whole.iter().enumerate().any(|(other, t)| {
                        other != face && crossing(eye, point, *t).is_some_and(|along| along < 1.0 - 1e-3)
                    });
                    if hidden {
                        continue;
                    }
                    // Seen: some written triangle holds it (the segment to a point just past
                    // it crosses one near the end).
                    let beyond = point + (point - eye) * 1e-3;
                    let shown = written.iter().any(|t| crossing(eye, beyond, *t).is_some_and(|along| along > 0.99));
                    prop_assert!(shown, "face {face} of {sides}: {point} is seen from {eye} and not drawn");
                }
            }
        }
    }

    #[test]
    fn a_cone_has_as_many_sides_as_show_at_its_size() {
        assert_eq!(cone_sides(40.0), CONE_SIDES);
        assert_eq!(cone_sides(6.0), CONE_SIDES);
        assert_eq!(cone_sides(5.9), 8);
        assert_eq!(cone_sides(3.0), 8);
        assert_eq!(cone_sides(2.9), 4);
        assert_eq!(cone_sides(0.0), 4);
        assert_eq!(cone_sides(f32::NAN), CONE_SIDES);
    }

    #[test]
    fn a_grid_line_under_the_camera_is_cut_into_pieces_and_nothing_degenerate_draws() {
        let camera = orbit_camera(-std::f32::consts::FRAC_PI_2, 0.3, 1200.0, 2.0);
        let eye = camera.eye();
        // A line on the ground from far behind the eye to far in front of the focus.
        let (a, b) = (Vec3::new(eye.x, eye.y - 1800.0, 0.0), Vec3::new(eye.x, eye.y + 3000.0, 0.0));
        assert!(ribbon_quads(&camera, eye, a, b, 1.0).count() > 8);
        // A line far off, short against its distance, is one quad.
        assert_eq!(ribbon_quads(&camera, eye, Vec3::ZERO, Vec3::X, 1.0).count(), 1);
        // No length, pointing at the eye, or not numbers: nothing.
        assert_eq!(ribbon_quads(&camera, eye, Vec3::ONE, Vec3::ONE, 1.0).count(), 0);
        assert_eq!(ribbon_quads(&camera, eye, camera.center, eye, 1.0).count(), 0);
        assert_eq!(ribbon_quads(&camera, eye, Vec3::NAN, Vec3::ONE, 1.0).count(), 0);
        assert_eq!(ribbon_quads(&camera, eye, Vec3::splat(f32::INFINITY), Vec3::ONE, 1.0).count(), 0);
    }
}
