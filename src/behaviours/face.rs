//! Face and look-where-you-are-going (Millington, after Reynolds): turn the agent's heading
//! toward a direction, smoothly and within a turn rate.
//!
//! # Motivation
//! Seed 001 snaps the orientation to the velocity every step, which flickers when the velocity
//! is small or noisy and cannot point a turret at a target while moving elsewhere. Face turns
//! toward a point, look-where-you-are-going toward the velocity, both at a bounded rate that
//! slows near the goal so the heading settles without overshoot. gdx-ai's `Face` and
//! `LookWhereYouAreGoing`, Millington's `Align`.
//!
//! # Implementation
//! The heading error is wrapped to (−π, π], so the agent always turns the short way. Outside
//! `slow_angle` the agent turns at `max_rotation`; inside it, at `max_rotation · error /
//! slow_angle` — a kinematic rate, not an angular acceleration, because the kinematics hold no
//! angular velocity (the simulation integrates `orientation += rate · dt`). The rate never
//! exceeds `max_rotation`, and at a step of `dt` the heading cannot pass the goal as long as
//! `max_rotation · dt ≤ slow_angle` (tested). No direction to face (zero vector): no turning.
//!
//! # Parameters
//! `max_rotation` (radians per second) and `slow_angle` (radians).

use super::param::{Param, ParamKind};
use super::Kinematics;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of face and look-where-you-are-going.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FaceParams {
    /// The fastest turn (radians per second, typically 2–10).
    pub max_rotation: f32,
    /// Inside this heading error the turn slows down (radians, typically 0.2–1).
    pub slow_angle: f32,
}

/// Maximum turn rate.
pub const MAX_ROTATION: Param = Param {
    key: "max_rotation",
    label: "max rotation",
    unit: "rad/s",
    min: 0.0,
    max: 100.0,
    default: 6.0,
    help: "The fastest the agent turns its heading.",
    kind: ParamKind::Float,
};
/// Slow angle.
pub const SLOW_ANGLE: Param = Param {
    key: "slow_angle",
    label: "slow angle",
    unit: "rad",
    min: 0.001,
    max: std::f32::consts::PI,
    default: 0.5,
    help: "Inside this heading error the turn slows down, so the heading settles without overshoot.",
    kind: ParamKind::Float,
};

impl FaceParams {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[MAX_ROTATION, SLOW_ANGLE];
}

impl Default for FaceParams {
    fn default() -> Self {
        FaceParams { max_rotation: MAX_ROTATION.default, slow_angle: SLOW_ANGLE.default }
    }
}

/// `angle` wrapped to (−π, π].
pub fn wrap_angle(angle: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if !angle.is_finite() {
        return 0.0;
    }
    let wrapped = angle - TAU * ((angle + PI) / TAU).floor();
    if wrapped <= -PI {
        wrapped + TAU
    } else {
        wrapped
    }
}

/// The turn rate (radians per second, anticlockwise positive) that brings `orientation` toward
/// the heading of `direction` (its x-y part).
pub fn face_direction(orientation: f32, direction: Vec3, p: &FaceParams) -> f32 {
    if direction.x == 0.0 && direction.y == 0.0 || !direction.is_finite() {
        return 0.0;
    }
    let error = wrap_angle(direction.y.atan2(direction.x) - orientation);
    let max_rotation = p.max_rotation.max(0.0);
    let slow_angle = p.slow_angle.max(1e-3);
    let rate = if error.abs() >= slow_angle {
        max_rotation * error.signum()
    } else {
        max_rotation * error / slow_angle
    };
    if rate.is_finite() {
        rate
    } else {
        0.0
    }
}

/// Face `target`: the turn rate toward the direction from the agent to it.
pub fn face(k: &Kinematics, target: Vec3, p: &FaceParams) -> f32 {
    face_direction(k.orientation, target - k.position, p)
}

/// Look where you are going: the turn rate toward the agent's velocity.
pub fn look_where_you_are_going(k: &Kinematics, p: &FaceParams) -> f32 {
    face_direction(k.orientation, k.velocity, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn face_turns_the_short_way_across_the_seam() {
        let p = FaceParams::default();
        // From 170° to −170°: 20° anticlockwise, not 340° clockwise.
        let k = Kinematics { orientation: 170f32.to_radians(), ..Kinematics::default() };
        let target = Vec3::new((-170f32).to_radians().cos(), (-170f32).to_radians().sin(), 0.0) * 10.0;
        assert!(face(&k, target, &p) > 0.0);
        assert_eq!(face(&k, k.position, &p), 0.0);
    }

    #[test]
    fn heading_settles_on_the_velocity_without_overshoot() {
        let p = FaceParams::default();
        let dt = 1.0 / 60.0;
        let mut k =
            Kinematics { velocity: Vec3::new(0.0, -50.0, 0.0), orientation: 2.5, ..Kinematics::default() };
        let goal = -std::f32::consts::FRAC_PI_2;
        let mut previous_error = wrap_angle(goal - k.orientation);
        for _ in 0..240 {
            k.orientation = wrap_angle(k.orientation + look_where_you_are_going(&k, &p) * dt);
            let error = wrap_angle(goal - k.orientation);
            assert!(error.abs() <= previous_error.abs() + 1e-6 && error * previous_error >= 0.0, "overshoot");
            previous_error = error;
        }
        assert!(previous_error.abs() < 1e-3, "{previous_error}");
    }

    proptest! {
        #[test]
        fn turn_rate_is_finite_and_within_max_rotation(
            orientation in -100.0f32..100.0, dx in -1e3f32..1e3, dy in -1e3f32..1e3,
            max_rotation in 0.0f32..100.0, slow_angle in 0.0f32..4.0,
        ) {
            let rate = face_direction(orientation, Vec3::new(dx, dy, 0.0), &FaceParams { max_rotation, slow_angle });
            prop_assert!(rate.is_finite() && rate.abs() <= max_rotation * (1.0 + 1e-6));
            let w = wrap_angle(orientation);
            prop_assert!(w > -std::f32::consts::PI - 1e-6 && w <= std::f32::consts::PI + 1e-6);
        }
    }
}
