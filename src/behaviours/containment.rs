//! Containment / wall avoidance: stay inside a region (a polygon the user draws).
//!
//! # Motivation
//! Crowds and flocks need a pen: an arena, a room, a field. Reynolds' containment and
//! OpenSteer's `steerToStayWithinBoundary`, Yuka's `WallAvoidance` (feelers against walls) and
//! gdx-ai's `RaycastObstacleAvoidance` against walls all keep an agent inside by looking ahead and
//! pushing away from the boundary before it is crossed.
//!
//! # Implementation
//! The region is a simple polygon in the x-y plane (either winding, convex or not). The agent
//! looks at the point it will reach in `look_ahead` seconds at its current velocity, and at its
//! own position. For the worse of the two (outside beats inside, then the smaller distance to the
//! boundary) it finds the nearest point of the boundary and the inward direction (from the point
//! toward the nearest boundary point when outside, from the boundary toward the point when
//! inside). Inside and farther than `margin` from the boundary: no steering. Otherwise it
//! accelerates inward with a strength rising linearly from 0 at `margin` to the full
//! `max_acceleration` on and beyond the boundary. Reynolds' feelers test a few rays; the nearest
//! boundary point is exact for any polygon and costs one pass over its edges.
//! An agent keeps inside when `look_ahead · max_speed + margin` exceeds its braking distance
//! `max_speed² / (2 · max_acceleration)` (tested).
//!
//! # Parameters
//! `look_ahead` (seconds), `margin` (world units), plus the agent's limits. The polygon is a
//! path of the scene named by the entry's `region`: its points joined last to first (a region is
//! drawn with the Path tool and ticked "closed"; an open path is closed for containment all the
//! same). A region of fewer than three points asks for nothing.

use super::param::{Param, ParamKind};
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// Parameters of containment.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContainmentParams {
    /// How far ahead (along the velocity) the agent checks the boundary (seconds, 0.2–2).
    pub look_ahead: f32,
    /// Distance from the boundary at which the push starts (world units, 5–100).
    pub margin: f32,
}

/// Look-ahead time.
pub const LOOK_AHEAD: Param = Param {
    key: "look_ahead",
    label: "look ahead",
    unit: "s",
    min: 0.0,
    max: 10.0,
    default: 0.5,
    help: "How far ahead along its velocity the agent checks the region's boundary.",
    kind: ParamKind::Float,
};
/// Margin.
pub const MARGIN: Param = Param {
    key: "margin",
    label: "margin",
    unit: "u",
    min: 0.0,
    max: 1000.0,
    default: 30.0,
    help: "Distance from the boundary at which the agent starts to turn back in.",
    kind: ParamKind::Float,
};

impl ContainmentParams {
    /// Declaration of `look_ahead`.
    pub const LOOK_AHEAD: Param = LOOK_AHEAD;
    /// Declaration of `margin`.
    pub const MARGIN: Param = MARGIN;
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[LOOK_AHEAD, MARGIN];
}

impl Default for ContainmentParams {
    fn default() -> Self {
        ContainmentParams { look_ahead: LOOK_AHEAD.default, margin: MARGIN.default }
    }
}

/// Where a point stands relative to a polygon.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundaryQuery {
    /// Whether the point is inside (crossing-number rule).
    pub inside: bool,
    /// Distance to the nearest boundary point.
    pub distance: f32,
    /// The nearest boundary point (z of the query point).
    pub nearest: Vec3,
    /// Unit direction pointing into the region at that point (zero when undefined).
    pub inward: Vec3,
}

/// The nearest boundary point of the closed polygon `region` (x-y) to `point`, and whether
/// `point` is inside. `None` for fewer than three vertices or non-finite input.
pub fn query_point_polygon(point: Vec3, region: &[Vec3]) -> Option<BoundaryQuery> {
    if region.len() < 3 || !point.is_finite() {
        return None;
    }
    let q = Vec2::new(point.x, point.y);
    let mut inside = false;
    let mut best = (f32::INFINITY, Vec2::ZERO);
    let mut previous = region.last().map(|v| Vec2::new(v.x, v.y))?;
    for v in region {
        let (a, b) = (previous, Vec2::new(v.x, v.y));
        previous = b;
        if !a.is_finite() || !b.is_finite() {
            return None;
        }
        if (a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
        let ab = b - a;
        let len_sq = ab.length_squared();
        let t = if len_sq > 0.0 { ((q - a).dot(ab) / len_sq).clamp(0.0, 1.0) } else { 0.0 };
        let c = a + ab * t;
        let d = (q - c).length_squared();
        if d < best.0 {
            best = (d, c);
        }
    }
    let (d_sq, c) = best;
    let toward_boundary = (c - q).normalize_or_zero();
    let inward = if inside { -toward_boundary } else { toward_boundary };
    Some(BoundaryQuery {
        inside,
        distance: d_sq.sqrt(),
        nearest: Vec3::new(c.x, c.y, point.z),
        inward: Vec3::new(inward.x, inward.y, 0.0),
    })
}

/// Containment inside `region`. Returns [`Steering::Acceleration`].
pub fn containment(
    k: &Kinematics,
    limits: &Limits,
    region: &[Vec3],
    p: &ContainmentParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let ahead = k.position + k.velocity * p.look_ahead.max(0.0);
    let (Some(now), Some(later)) =
        (query_point_polygon(k.position, region), query_point_polygon(ahead, region))
    else {
        return Steering::NONE;
    };
    // The worse of the two: outside first, then nearer the boundary.
    let rank = |b: &BoundaryQuery| if b.inside { b.distance } else { -b.distance };
    let worst = if rank(&now) <= rank(&later) { now } else { later };
    let margin = p.margin.max(0.0);
    let strength = if !worst.inside {
        1.0
    } else if worst.distance >= margin {
        0.0
    } else {
        1.0 - worst.distance / margin
    };
    let mut inward = worst.inward;
    if inward == Vec3::ZERO && strength > 0.0 {
        // On the boundary itself: steer from the nearest point toward the current position's
        // inward direction, or back against the velocity.
        inward = if now.inward != Vec3::ZERO { now.inward } else { -k.velocity.normalize_or_zero() };
    }
    let linear = inward * (strength * limits.max_acceleration.max(0.0));
    if gizmos.is_enabled() {
        // The region's outline, highlighted, then the feeler along the velocity.
        let mut previous = region.last().copied();
        for &vertex in region {
            if let Some(from) = previous {
                gizmos.push(GizmoRole::Boundary, GizmoShape::Line(from, vertex));
            }
            previous = Some(vertex);
        }
        gizmos.push(GizmoRole::Probe, GizmoShape::Line(k.position, ahead));
        if strength > 0.0 {
            gizmos.push(GizmoRole::CastHit, GizmoShape::Point(worst.nearest));
            gizmos
                .push(GizmoRole::AvoidanceVector, GizmoShape::Arrow(k.position, k.position + linear * 0.25));
        }
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::super::wander::{wander, WanderParams, WanderState};
    use super::*;
    use crate::sim::integrate;
    use proptest::prelude::*;

    fn l_shape() -> Vec<Vec3> {
        [(0.0, 0.0), (400.0, 0.0), (400.0, 150.0), (150.0, 150.0), (150.0, 400.0), (0.0, 400.0)]
            .iter()
            .map(|&(x, y)| Vec3::new(x, y, 0.0))
            .collect()
    }

    #[test]
    fn nearest_boundary_and_inside_for_a_concave_polygon_of_either_winding() {
        let mut region = l_shape();
        for _ in 0..2 {
            let q = query_point_polygon(Vec3::new(200.0, 140.0, 0.0), &region).unwrap();
            assert!(q.inside);
            assert!((q.distance - 10.0).abs() < 1e-4, "{q:?}");
            assert!((q.inward - Vec3::new(0.0, -1.0, 0.0)).length() < 1e-6);
            // In the notch of the L: outside, nearest the notch's lower wall, inward is down.
            let q = query_point_polygon(Vec3::new(250.0, 200.0, 0.0), &region).unwrap();
            assert!(!q.inside);
            assert!((q.nearest - Vec3::new(250.0, 150.0, 0.0)).length() < 1e-3);
            assert!((q.inward - Vec3::new(0.0, -1.0, 0.0)).length() < 1e-6);
            region.reverse();
        }
        assert!(query_point_polygon(Vec3::ZERO, &region[..2]).is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Wandering agents, combined with containment by priority (containment first whenever
        /// it asks for anything), never leave a concave region when the look-ahead covers their
        /// braking distance.
        #[test]
        fn wanderers_stay_inside_a_concave_region(seed in any::<u64>(), start in 0usize..3, heading in 0.0f32..6.3) {
            let region = l_shape();
            let limits = Limits { radius: 5.0, max_speed: 120.0, max_acceleration: 400.0 };
            let p = ContainmentParams::default();
            let starts = [Vec3::new(75.0, 75.0, 0.0), Vec3::new(300.0, 75.0, 0.0), Vec3::new(75.0, 300.0, 0.0)];
            let mut k = Kinematics { position: starts[start], velocity: Vec3::new(heading.cos(), heading.sin(), 0.0) * 120.0, orientation: heading };
            let mut state = WanderState::new(seed);
            for step in 0..900 {
                let s = match containment(&k, &limits, &region, &p, &mut Gizmos::disabled()) {
                    Steering::Acceleration(a) if a != Vec3::ZERO => Steering::Acceleration(a),
                    _ => wander(&k, &limits, &mut state, &WanderParams::default(), 1.0 / 60.0, &mut Gizmos::disabled()),
                };
                integrate(&mut k, &limits, s, 1.0 / 60.0);
                let q = query_point_polygon(k.position, &region).unwrap();
                prop_assert!(q.inside, "left the region at step {} at {}", step, k.position);
            }
        }

        #[test]
        fn containment_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(),
            region in proptest::collection::vec(testing::vec3(600.0), 0..8),
            look_ahead in 0.0f32..10.0, margin in 0.0f32..1000.0,
        ) {
            let s = containment(&k, &limits, &region, &ContainmentParams { look_ahead, margin }, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
