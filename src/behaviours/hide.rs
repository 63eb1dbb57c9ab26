//! Hide (Buckland, after Reynolds): put an obstacle between yourself and a hunter.
//!
//! # Motivation
//! Fleeing in the open only works for the faster agent; a slower one survives by breaking line of
//! sight. Buckland's hide, also in Yuka (`HideBehavior`), computes a hiding spot behind every
//! obstacle and arrives at the nearest one.
//!
//! # Implementation
//! For each obstacle (a sphere; discs in 2D scenes) the hiding spot lies on the ray from the
//! hunter through the obstacle's centre, `radius + agent radius + distance_from_boundary` beyond
//! the centre. The agent arrives (seed 001's dynamic arrive) at the spot nearest to itself; a
//! spot whose straight route would pass the hunter closer than the hunter is to the agent now is
//! skipped when another spot exists (don't run past the hunter to hide). No obstacles: the agent
//! evades the hunter instead ([`super::evade`]).
//!
//! # Parameters
//! `distance_from_boundary` (world units) and `slow_radius` (world units), plus the agent's
//! limits and `max_prediction` for the fallback evade; the hunter is another agent's kinematics,
//! the obstacles the scene's.

use super::arrive::{arrive, ArriveParams};
use super::evade::evade;
use super::param::{Param, ParamKind};
use super::pursuit::PursuitParams;
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Sphere;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of hide.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HideParams {
    /// Clearance between the obstacle's surface and the agent's body at the hiding spot (world units).
    pub distance_from_boundary: f32,
    /// Inside this distance of the spot the agent slows down (world units).
    pub slow_radius: f32,
}

/// Clearance behind the obstacle.
pub const DISTANCE_FROM_BOUNDARY: Param = Param {
    key: "distance_from_boundary",
    label: "distance from obstacle",
    unit: "u",
    min: 0.0,
    max: 500.0,
    default: 10.0,
    help: "Gap between the obstacle and the agent at the hiding spot.",
    kind: ParamKind::Float,
};
/// Slow radius.
pub const SLOW_RADIUS: Param = Param {
    help: "Inside this distance of the hiding spot the agent slows down.",
    ..super::interpose::SLOW_RADIUS
};

impl HideParams {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[DISTANCE_FROM_BOUNDARY, SLOW_RADIUS];
}

impl Default for HideParams {
    fn default() -> Self {
        HideParams {
            distance_from_boundary: DISTANCE_FROM_BOUNDARY.default,
            slow_radius: SLOW_RADIUS.default,
        }
    }
}

/// The hiding spot behind `obstacle` from `hunter` for an agent of `agent_radius`.
pub fn hiding_spot(obstacle: &Sphere, hunter: Vec3, agent_radius: f32, distance_from_boundary: f32) -> Vec3 {
    let away = (obstacle.center - hunter).normalize_or(Vec3::X);
    obstacle.center
        + away * (obstacle.radius.max(0.0) + agent_radius.max(0.0) + distance_from_boundary.max(0.0))
}

/// The best hiding spot for `k`, if there is an obstacle (see the module notes).
pub fn best_hiding_spot(
    k: &Kinematics,
    limits: &Limits,
    hunter: Vec3,
    obstacles: &[Sphere],
    p: &HideParams,
) -> Option<Vec3> {
    let threat = (hunter - k.position).length();
    let mut best: Option<(bool, f32, Vec3)> = None; // (passes the hunter, distance, spot)
    for o in obstacles {
        if !o.center.is_finite() || !o.radius.is_finite() {
            continue;
        }
        let spot = hiding_spot(o, hunter, limits.radius, p.distance_from_boundary);
        let route = spot - k.position;
        let length = route.length();
        if !length.is_finite() {
            continue;
        }
        let t = if length > 0.0 {
            ((hunter - k.position).dot(route) / (length * length)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let passes = (k.position + route * t - hunter).length() < 0.5 * threat;
        let candidate = (passes, length, spot);
        let better = match best {
            None => true,
            Some((bp, bl, _)) => (passes, length) < (bp, bl),
        };
        if better {
            best = Some(candidate);
        }
    }
    best.map(|(_, _, spot)| spot)
}

/// Hide from `hunter` behind one of `obstacles`. Returns [`Steering::Acceleration`].
#[allow(clippy::too_many_arguments)]
pub fn hide(
    k: &Kinematics,
    limits: &Limits,
    hunter: &Kinematics,
    obstacles: &[Sphere],
    p: &HideParams,
    evade_params: &PursuitParams,
    gizmos: &mut Gizmos,
) -> Steering {
    hide_aiming(k, limits, hunter, obstacles, p, evade_params, |spot, _| spot, gizmos)
}

/// Hide from `hunter` arriving at `aim(hiding spot)` instead of the spot itself (an agent that
/// avoids obstacles aims round the one in the way: `detour::Detour::aim`).
#[allow(clippy::too_many_arguments)]
pub fn hide_aiming(
    k: &Kinematics,
    limits: &Limits,
    hunter: &Kinematics,
    obstacles: &[Sphere],
    p: &HideParams,
    evade_params: &PursuitParams,
    aim: impl FnOnce(Vec3, &mut Gizmos) -> Vec3,
    gizmos: &mut Gizmos,
) -> Steering {
    let Some(spot) = best_hiding_spot(k, limits, hunter.position, obstacles, p) else {
        return evade(k, limits, hunter, evade_params, gizmos);
    };
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Prediction, GizmoShape::Line(hunter.position, spot));
    }
    let arrive_params = ArriveParams { slow_radius: p.slow_radius, ..ArriveParams::default() };
    match arrive(k, limits, aim(spot, gizmos), &arrive_params, gizmos) {
        Steering::Acceleration(a) if a.is_finite() => Steering::Acceleration(a),
        _ => Steering::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use crate::sim::integrate;
    use proptest::prelude::*;

    /// Whether the segment from `a` to `b` passes through `obstacle`.
    fn blocked(a: Vec3, b: Vec3, obstacle: &Sphere) -> bool {
        let ab = b - a;
        let t = ((obstacle.center - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        (a + ab * t - obstacle.center).length() < obstacle.radius
    }

    #[test]
    fn hider_ends_out_of_the_hunters_sight_behind_the_nearest_obstacle() {
        let limits = Limits { radius: 6.0, max_speed: 120.0, max_acceleration: 400.0 };
        let obstacles = [
            Sphere { center: Vec3::new(100.0, 50.0, 0.0), radius: 30.0 },
            Sphere { center: Vec3::new(-300.0, 300.0, 0.0), radius: 40.0 },
        ];
        // A hunter walking slowly along the x axis.
        let mut hunter = Kinematics {
            position: Vec3::new(-200.0, -100.0, 0.0),
            velocity: Vec3::new(10.0, 0.0, 0.0),
            orientation: 0.0,
        };
        let mut k = Kinematics { position: Vec3::new(0.0, 0.0, 0.0), ..Kinematics::default() };
        let dt = 1.0 / 60.0;
        for _ in 0..8 * 60 {
            let s = hide(
                &k,
                &limits,
                &hunter,
                &obstacles,
                &HideParams::default(),
                &PursuitParams::default(),
                &mut Gizmos::disabled(),
            );
            integrate(&mut k, &limits, s, dt);
            hunter.position += hunter.velocity * dt;
        }
        assert!(
            blocked(hunter.position, k.position, &obstacles[0]),
            "hunter {} sees hider {}",
            hunter.position,
            k.position
        );
        assert!((k.position - obstacles[0].center).length() > obstacles[0].radius + limits.radius);
    }

    #[test]
    fn with_no_obstacle_hide_is_evade() {
        let k = Kinematics::default();
        let hunter = Kinematics { position: Vec3::new(50.0, 0.0, 0.0), ..Kinematics::default() };
        let limits = Limits::default();
        let pp = PursuitParams::default();
        assert_eq!(
            hide(&k, &limits, &hunter, &[], &HideParams::default(), &pp, &mut Gizmos::disabled()),
            evade(&k, &limits, &hunter, &pp, &mut Gizmos::disabled())
        );
    }

    proptest! {
        #[test]
        fn hide_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), hunter in testing::kinematics(),
            obstacles in proptest::collection::vec((testing::vec3(500.0), 0.0f32..100.0), 0..6),
            distance_from_boundary in 0.0f32..500.0, slow_radius in 0.0f32..2000.0,
        ) {
            let obstacles: Vec<Sphere> = obstacles.into_iter().map(|(center, radius)| Sphere { center, radius }).collect();
            let p = HideParams { distance_from_boundary, slow_radius };
            let s = hide(&k, &limits, &hunter, &obstacles, &p, &PursuitParams::default(), &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
