//! A batch of lines and triangles built straight into one vertex buffer and drawn with a few
//! `draw_mesh` calls, for the shapes drawn once per agent (trails, arrows). Thousands of
//! separate `draw_line` calls cost more on the CPU than the pixels they cover.

use macroquad::models::{draw_mesh, Mesh, Vertex};
use macroquad::prelude::{Color, Vec2, Vec3, Vec4};

/// Vertices and indices per mesh before it is drawn: under macroquad's default per-draw-call
/// capacity (10,000 vertices, 5,000 indices), beyond which it would clamp (drop) geometry.
pub(crate) const MAX_VERTICES: usize = 9_000;
/// See [`MAX_VERTICES`].
pub(crate) const MAX_INDICES: usize = 4_800;

/// Lines and triangles in screen space, drawn when flushed (or dropped).
#[derive(Default)]
pub struct Batch {
    vertices: Vec<Vertex>,
    indices: Vec<u16>,
}

fn rgba(color: Color) -> [u8; 4] {
    [
        (color.r.clamp(0.0, 1.0) * 255.0) as u8,
        (color.g.clamp(0.0, 1.0) * 255.0) as u8,
        (color.b.clamp(0.0, 1.0) * 255.0) as u8,
        (color.a.clamp(0.0, 1.0) * 255.0) as u8,
    ]
}

fn vertex(p: Vec2, color: [u8; 4]) -> Vertex {
    Vertex { position: Vec3::new(p.x, p.y, 0.0), uv: Vec2::ZERO, color, normal: Vec4::ZERO }
}

impl Batch {
    fn reserve(&mut self, vertices: usize, indices: usize) {
        if self.vertices.len() + vertices > MAX_VERTICES || self.indices.len() + indices > MAX_INDICES {
            self.flush();
        }
    }

    /// A line of `thickness` pixels from `a` to `b`.
    pub fn line(&mut self, a: Vec2, b: Vec2, thickness: f32, color: Color) {
        let d = b - a;
        let length = d.length();
        if length.is_nan() || length <= 1e-3 {
            return;
        }
        let n = Vec2::new(-d.y, d.x) * (0.5 * thickness / length);
        self.reserve(4, 6);
        let base = self.vertices.len() as u16;
        let c = rgba(color);
        self.vertices.extend([vertex(a + n, c), vertex(b + n, c), vertex(b - n, c), vertex(a - n, c)]);
        self.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }

    /// A filled triangle.
    pub fn triangle(&mut self, a: Vec2, b: Vec2, c: Vec2, color: Color) {
        self.reserve(3, 3);
        let base = self.vertices.len() as u16;
        let rgba = rgba(color);
        self.vertices.extend([vertex(a, rgba), vertex(b, rgba), vertex(c, rgba)]);
        self.indices.extend([base, base + 1, base + 2]);
    }

    /// Draws what was added so far.
    pub fn flush(&mut self) {
        if self.indices.is_empty() {
            self.vertices.clear();
            return;
        }
        let mesh = Mesh {
            vertices: std::mem::take(&mut self.vertices),
            indices: std::mem::take(&mut self.indices),
            texture: None,
        };
        draw_mesh(&mesh);
        // Keep the allocations for the next chunk.
        let Mesh { mut vertices, mut indices, .. } = mesh;
        vertices.clear();
        indices.clear();
        self.vertices = vertices;
        self.indices = indices;
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.flush();
    }
}
