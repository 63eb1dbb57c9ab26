//! Colours of everything drawn in the world view, chosen here and only here (behaviours tag
//! their gizmos with a role). The palette follows the look of Reynolds' diagrams: a light paper
//! background, dark paths, black avoidance vectors; the planner uses the seed's picture language
//! (green plan, red direct route, blue detected obstacle, black avoidance). Line widths and
//! marker sizes are given in points where each shape is drawn, and drawn
//! `Camera::pixel_scale` times as many pixels (the UI scale).

use macroquad::color::Color;

use crate::behaviours::GizmoRole;
use crate::sim::Rgb;

/// A colour from 0–255 channels and an alpha 0–1.
pub const fn rgba(r: u8, g: u8, b: u8, a: f32) -> Color {
    Color { r: r as f32 / 255.0, g: g as f32 / 255.0, b: b as f32 / 255.0, a }
}

/// Background of the world view.
pub const BACKGROUND: Color = rgba(0xf6, 0xf4, 0xee, 1.0);
/// Minor grid lines.
pub const GRID_MINOR: Color = rgba(0xe4, 0xe0, 0xd6, 1.0);
/// Major grid lines and axes.
pub const GRID_MAJOR: Color = rgba(0xd2, 0xcc, 0xbf, 1.0);
/// Path centre lines.
pub const PATH: Color = rgba(0x3a, 0x3f, 0x4a, 1.0);
/// The channel band around a path.
pub const PATH_BAND: Color = rgba(0xdc, 0xe6, 0xf0, 1.0);
/// Curves.
pub const CURVE: Color = rgba(0x6b, 0x5b, 0x95, 1.0);
/// Obstacle fill.
pub const OBSTACLE: Color = rgba(0x9a, 0x9a, 0x9a, 1.0);
/// Obstacle outline.
pub const OBSTACLE_EDGE: Color = rgba(0x55, 0x55, 0x55, 1.0);
/// Targets.
pub const TARGET: Color = rgba(0xc0, 0x39, 0x2b, 1.0);
/// Labels.
pub const TEXT: Color = rgba(0x22, 0x22, 0x22, 1.0);
/// Selection highlight.
pub const SELECTED: Color = rgba(0xff, 0x8c, 0x00, 1.0);
/// The inside of a box selection's rubber band.
pub const RUBBER_BAND_FILL: Color = rgba(0xff, 0x8c, 0x00, 0.12);
/// Hover highlight.
pub const HOVER: Color = rgba(0xff, 0xb3, 0x47, 0.8);
/// The arrows of a painted flow field's cells.
pub const PAINTED_FIELD: Color = rgba(0x16, 0x8a, 0x8a, 0.75);
/// The outline of a painted field's grid (shown with the Paint tool).
pub const PAINTED_FIELD_EDGE: Color = rgba(0x16, 0x8a, 0x8a, 0.35);
/// Previews of what a tool is about to make.
pub const PREVIEW: Color = rgba(0x1f, 0x77, 0xb4, 0.8);
/// A planner waypoint reported unreachable: the cross over it and its label (a deeper red than
/// the seed's direct route and the targets, so it can be told apart and found in a screenshot).
pub const UNREACHABLE: Color = rgba(0xc8, 0x00, 0x32, 1.0);
/// Channels of the route from the complete fallback search (orange, apart from the seed's green,
/// red, blue and black); the panels' legend swatches read it here too.
pub const FALLBACK_ROUTE_RGB: (u8, u8, u8) = (0xf0, 0x8c, 0x00);

/// An agent's colour.
pub fn agent_color(rgb: Rgb, alpha: f32) -> Color {
    rgba(rgb.0, rgb.1, rgb.2, alpha)
}

/// The colour of a gizmo; `planner` selects the seed's picture language.
pub fn gizmo_color(role: GizmoRole, planner: bool) -> Color {
    if planner {
        match role {
            GizmoRole::CurrentSegment => return rgba(0x1e, 0xa0, 0x3c, 0.95),
            GizmoRole::Probe => return rgba(0xd6, 0x27, 0x28, 0.9),
            GizmoRole::CastHit => return rgba(0x1f, 0x4e, 0xd8, 1.0),
            GizmoRole::AvoidanceVector => return rgba(0x10, 0x10, 0x10, 1.0),
            _ => {}
        }
    }
    match role {
        GizmoRole::Target => rgba(0xd6, 0x27, 0x28, 1.0),
        GizmoRole::Projection => rgba(0x17, 0x8f, 0xa8, 1.0),
        GizmoRole::Prediction => rgba(0x8c, 0x56, 0x4b, 1.0),
        GizmoRole::DesiredVelocity => rgba(0x2c, 0xa0, 0x2c, 0.9),
        GizmoRole::SteeringForce => rgba(0xe3, 0x77, 0xc2, 0.9),
        GizmoRole::CurrentSegment => rgba(0x17, 0x8f, 0xa8, 0.6),
        GizmoRole::NodeRadius => rgba(0x7f, 0x7f, 0x7f, 0.7),
        GizmoRole::TargetRadius => rgba(0xd6, 0x27, 0x28, 0.8),
        GizmoRole::SlowRadius => rgba(0xff, 0x7f, 0x0e, 0.7),
        GizmoRole::PathRadius => rgba(0x17, 0x8f, 0xa8, 0.5),
        GizmoRole::Tangent => rgba(0x94, 0x67, 0xbd, 0.9),
        GizmoRole::ParameterValue => rgba(0x44, 0x44, 0x44, 1.0),
        GizmoRole::Probe => rgba(0x7f, 0x7f, 0x7f, 0.8),
        GizmoRole::CastHit => rgba(0xff, 0x7f, 0x0e, 1.0),
        GizmoRole::AvoidanceVector => rgba(0x10, 0x10, 0x10, 1.0),
        GizmoRole::Disturbance => rgba(0xc0, 0x1c, 0x8c, 1.0),
        GizmoRole::FallbackSegment => {
            let (r, g, b) = FALLBACK_ROUTE_RGB;
            rgba(r, g, b, 0.95)
        }
        GizmoRole::NeighbourRadius => rgba(0x7f, 0x7f, 0x7f, 0.35),
        GizmoRole::NeighbourLink => rgba(0x17, 0xbe, 0xcf, 0.6),
        GizmoRole::WanderCircle => rgba(0x94, 0x67, 0xbd, 0.6),
        GizmoRole::Boundary => rgba(0xbc, 0xbd, 0x22, 0.9),
        GizmoRole::FlowVector => rgba(0x1f, 0x77, 0xb4, 0.45),
        GizmoRole::Heading => rgba(0x2c, 0xa0, 0x2c, 0.95),
    }
}
