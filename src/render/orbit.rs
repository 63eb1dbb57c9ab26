//! The 3D orbit view: a ground grid on z = 0, paths and curves as lines (the helix rises),
//! obstacles as shaded spheres (per-vertex Lambert lighting, no shader needed), agents as
//! oriented cones with a drop line to the ground, and every gizmo in 3D. Labels are drawn in
//! screen space afterwards, projected with the same matrix as the 3D camera.

use macroquad::models::{draw_line_3d, draw_mesh, Mesh, Vertex};
use macroquad::prelude::{
    clear_background, draw_text, set_camera, set_default_camera, Camera3D, Color, Vec2, Vec3, Vec4,
};

use super::{curve_samples, gizmo_agents, gizmo_visible, style};
use crate::app::{App, Selection};
use crate::behaviours::{GizmoRole, GizmoShape};
use crate::sim::Behaviour;

const LIGHT: Vec3 = Vec3::new(0.35, 0.25, 0.9);

fn shade(color: Color, normal: Vec3) -> [u8; 4] {
    let lambert = normal.normalize_or_zero().dot(LIGHT.normalize()).max(0.0);
    let k = 0.35 + 0.65 * lambert;
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

/// A lit cone from `base` to `tip`.
pub fn cone_mesh(base: Vec3, tip: Vec3, radius: f32, color: Color) -> Mesh {
    let axis = (tip - base).normalize_or_zero();
    let helper = if axis.z.abs() < 0.9 { Vec3::Z } else { Vec3::X };
    let u = axis.cross(helper).normalize_or_zero();
    let v = axis.cross(u);
    let sides = 10u16;
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for i in 0..sides {
        let a0 = std::f32::consts::TAU * i as f32 / sides as f32;
        let a1 = std::f32::consts::TAU * (i + 1) as f32 / sides as f32;
        let p0 = base + (u * a0.cos() + v * a0.sin()) * radius;
        let p1 = base + (u * a1.cos() + v * a1.sin()) * radius;
        let normal =
            (u * ((a0 + a1) * 0.5).cos() + v * ((a0 + a1) * 0.5).sin() + axis * 0.5).normalize_or_zero();
        let c = shade(color, normal);
        let start = vertices.len() as u16;
        vertices.extend([vertex(p0, c), vertex(p1, c), vertex(tip, c)]);
        indices.extend([start, start + 1, start + 2]);
        let back = shade(color, -axis);
        let start = vertices.len() as u16;
        vertices.extend([vertex(p1, back), vertex(p0, back), vertex(base, back)]);
        indices.extend([start, start + 1, start + 2]);
    }
    Mesh { vertices, indices, texture: None }
}

fn circle_3d(center: Vec3, radius: f32, color: Color) {
    let n = 40;
    for i in 0..n {
        let a0 = std::f32::consts::TAU * i as f32 / n as f32;
        let a1 = std::f32::consts::TAU * (i + 1) as f32 / n as f32;
        draw_line_3d(
            center + Vec3::new(a0.cos(), a0.sin(), 0.0) * radius,
            center + Vec3::new(a1.cos(), a1.sin(), 0.0) * radius,
            color,
        );
    }
}

fn arrow_3d(from: Vec3, to: Vec3, color: Color) {
    draw_line_3d(from, to, color);
    let dir = to - from;
    let length = dir.length();
    if length < 1e-3 {
        return;
    }
    let head = (length * 0.3).min(12.0);
    let unit = dir / length;
    let side = unit.cross(Vec3::Z).try_normalize().unwrap_or(Vec3::X) * head * 0.4;
    let base = to - unit * head;
    draw_line_3d(to, base + side, color);
    draw_line_3d(to, base - side, color);
}

fn draw_ground(app: &App) {
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
        draw_line_3d(Vec3::new(cx + offset, cy - half, 0.0), Vec3::new(cx + offset, cy + half, 0.0), color);
        let major = ((cy + offset) / step).round() as i64 % 5 == 0;
        let color = if major { style::GRID_MAJOR } else { style::GRID_MINOR };
        draw_line_3d(Vec3::new(cx - half, cy + offset, 0.0), Vec3::new(cx + half, cy + offset, 0.0), color);
    }
}

/// The 3D orbit view.
pub fn draw_orbit(app: &App) {
    clear_background(style::BACKGROUND);
    let camera = &app.camera;
    let distance = camera.distance.max(1.0);
    set_camera(&Camera3D {
        position: camera.eye(),
        target: camera.center,
        up: Vec3::Z,
        fovy: crate::app::Camera::FOV_Y,
        z_near: (distance * 0.01).max(0.1),
        z_far: distance * 20.0,
        ..Default::default()
    });
    if app.display.grid {
        draw_ground(app);
    }
    for (idx, path) in app.world.paths.iter().enumerate() {
        let color =
            if app.selection.and_then(Selection::path) == Some(idx) { style::SELECTED } else { style::PATH };
        for segment in 0..path.polyline.segment_count() {
            let (a, b) = path.polyline.segment(segment);
            draw_line_3d(a, b, color);
        }
    }
    for named in &app.world.curves {
        let samples = curve_samples(&named.curve, 360);
        for pair in samples.windows(2) {
            draw_line_3d(pair[0], pair[1], style::CURVE);
        }
    }
    for (idx, obstacle) in app.world.obstacles.iter().enumerate() {
        let color =
            if app.selection == Some(Selection::Obstacle(idx)) { style::SELECTED } else { style::OBSTACLE };
        draw_mesh(&sphere_mesh(obstacle.position, obstacle.radius, color, 12, 18));
        if obstacle.position.z.abs() > 0.5 {
            draw_line_3d(obstacle.position, obstacle.position.with_z(0.0), style::GRID_MAJOR);
        }
    }
    for target in &app.world.targets {
        draw_mesh(&sphere_mesh(target.position, 5.0, style::TARGET, 6, 8));
    }
    for idx in gizmo_agents(app) {
        let Some(agent) = app.world.agents.get(idx) else { continue };
        let planner = matches!(agent.behaviour, Behaviour::Planner { .. });
        for gizmo in agent.gizmos.items() {
            if !gizmo_visible(app, gizmo, planner) {
                continue;
            }
            let color = style::gizmo_color(gizmo.role, planner);
            match gizmo.shape {
                GizmoShape::Point(p) => draw_mesh(&sphere_mesh(p, 3.0, color, 4, 6)),
                GizmoShape::Line(a, b) => draw_line_3d(a, b, color),
                GizmoShape::Arrow(a, b) => arrow_3d(a, b, color),
                GizmoShape::Circle { center, radius } => {
                    if gizmo.role == GizmoRole::CastHit {
                        draw_mesh(&sphere_mesh(center, radius, Color { a: 0.25, ..color }, 8, 12));
                    } else {
                        circle_3d(center, radius, color);
                    }
                }
                GizmoShape::Value { .. } => {}
            }
        }
    }
    for (agent_idx, agent) in app.world.agents.iter().enumerate() {
        if let Behaviour::Planner { params } = &agent.behaviour {
            for &w in &params.waypoints {
                draw_mesh(&sphere_mesh(w, 6.0, style::agent_color(agent.color, 1.0), 4, 6));
                draw_line_3d(w, w.with_z(0.0), style::GRID_MAJOR);
            }
        }
        let position = app.draw_position(agent_idx);
        let heading = agent.kinematics.velocity.try_normalize().unwrap_or_else(|| {
            let (sin, cos) = agent.kinematics.orientation.sin_cos();
            Vec3::new(cos, sin, 0.0)
        });
        let size = agent.limits.radius.max(3.0);
        let color = if app.selection == Some(Selection::Agent(agent_idx)) {
            style::SELECTED
        } else {
            style::agent_color(agent.color, 1.0)
        };
        draw_mesh(&cone_mesh(position - heading * size, position + heading * size * 1.6, size * 0.7, color));
        if position.z.abs() > 0.5 {
            draw_line_3d(position, position.with_z(0.0), style::agent_color(agent.color, 0.4));
        }
        if app.display.trails && app.world.agents.len() <= 200 {
            let trail: Vec<Vec3> = app.trails.trail(agent_idx).collect();
            for pair in trail.windows(2) {
                draw_line_3d(pair[0], pair[1], style::agent_color(agent.color, 0.5));
            }
        }
    }
    set_default_camera();
    if app.display.labels && app.world.agents.len() <= super::MAX_LABELLED_AGENTS {
        for (idx, agent) in app.world.agents.iter().enumerate() {
            if let Some(s) = camera.project_orbit(app.draw_position(idx)) {
                draw_text(&agent.name, s.x + 10.0, s.y - 10.0, 16.0, style::agent_color(agent.color, 1.0));
            }
        }
    }
    for named in &app.world.paths {
        if let Some(s) = named.polyline.points().first().and_then(|&p| camera.project_orbit(p)) {
            draw_text(&named.id, s.x + 8.0, s.y - 8.0, 16.0, style::PATH);
        }
    }
}
