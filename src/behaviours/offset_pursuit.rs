//! Offset pursuit (Reynolds 1999): hold a slot at a fixed offset in a leader's frame — the
//! building block of formations.
//!
//! # Motivation
//! A formation is a set of slots that move and turn with the leader ("two units behind, three to
//! the left"). OpenSteer's `steerForPursuit` with an offset, Buckland's (and Yuka's)
//! `OffsetPursuitBehavior`, gdx-ai's formation slots.
//!
//! # Implementation
//! The slot is `leader + forward · offset_x + left · offset_y`, where forward is the leader's
//! velocity direction (its heading when it stands still) and left is forward turned a quarter
//! anticlockwise in the x-y plane. Buckland arrives at the slot predicted ahead by
//! `distance / (speed + leader speed)`; arrive slows to rest, so a follower of a moving leader
//! settles behind its slot. Here the desired velocity is the leader's velocity plus a correction
//! `(slot − position) / approach_time` (clamped to `max_speed`), so the slot error of a follower of
//! a leader at constant velocity decays to zero instead of to a lag. The desired velocity is
//! reached over `STEER_TIME` and clamped to `max_acceleration`. A leader turning at ω moves its slot
//! faster than itself (by ω × offset), which the follower cannot see in the leader's kinematics:
//! there a steady error of about ω · |offset| · approach_time remains (tested). The simulation
//! therefore uses [`offset_pursuit_tracked`], which measures the slot's own velocity from where
//! the slot was the step before (a [`SlotTracker`]), turning included (tested).
//! [`slot_position`] is shared with leader following and the formation metrics.
//!
//! # Parameters
//! `offset_x` (forward, world units), `offset_y` (to the left, world units), `approach_time`
//! (seconds), `match_velocity` (on by default; off drops the slot's velocity and leaves only the
//! correction, the plain approach that Compare races against), plus the agent's limits; the
//! leader is another agent's kinematics.

use super::neighbourhood::forward;
use super::param::{Param, ParamKind};
use super::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of offset pursuit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OffsetPursuitParams {
    /// The slot's offset ahead of the leader (world units; negative is behind).
    pub offset_x: f32,
    /// The slot's offset to the leader's left (world units; negative is right).
    pub offset_y: f32,
    /// Time over which a slot error is closed (seconds, typically 0.3–2).
    pub approach_time: f32,
    /// Whether the slot's own velocity is matched (on: the slot's velocity plus the correction;
    /// off: only the correction, a plain approach of the slot point that lags behind a moving
    /// leader by about its speed times `approach_time` — what Compare sets beside it).
    pub match_velocity: bool,
}

/// Slot offset ahead.
pub const OFFSET_X: Param = Param {
    key: "offset_x",
    label: "offset ahead",
    unit: "u",
    min: -2000.0,
    max: 2000.0,
    default: -40.0,
    help: "The slot's distance ahead of the leader (negative: behind).",
    kind: ParamKind::Float,
};
/// Slot offset to the left.
pub const OFFSET_Y: Param = Param {
    key: "offset_y",
    label: "offset left",
    unit: "u",
    min: -2000.0,
    max: 2000.0,
    default: 30.0,
    help: "The slot's distance to the leader's left (negative: right).",
    kind: ParamKind::Float,
};
/// Approach time.
pub const APPROACH_TIME: Param = Param {
    key: "approach_time",
    label: "approach time",
    unit: "s",
    min: 0.05,
    max: 10.0,
    default: 0.5,
    help: "Time over which the follower closes the distance to its slot.",
    kind: ParamKind::Float,
};
/// Velocity matching.
pub const MATCH_VELOCITY: Param = Param {
    key: "match_velocity",
    label: "match slot velocity",
    unit: "",
    min: 0.0,
    max: 1.0,
    default: 1.0,
    help: "Move with the slot (its measured velocity plus the correction); off: only close the distance, lagging behind a moving slot.",
    kind: ParamKind::Bool,
};

impl OffsetPursuitParams {
    /// Declaration of `offset_x`.
    pub const OFFSET_X: Param = OFFSET_X;
    /// Declaration of `offset_y`.
    pub const OFFSET_Y: Param = OFFSET_Y;
    /// Declaration of `approach_time`.
    pub const APPROACH_TIME: Param = APPROACH_TIME;
    /// Declaration of `match_velocity`.
    pub const MATCH_VELOCITY: Param = MATCH_VELOCITY;
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[OFFSET_X, OFFSET_Y, APPROACH_TIME, MATCH_VELOCITY];
}

impl Default for OffsetPursuitParams {
    fn default() -> Self {
        OffsetPursuitParams {
            offset_x: OFFSET_X.default,
            offset_y: OFFSET_Y.default,
            approach_time: APPROACH_TIME.default,
            match_velocity: MATCH_VELOCITY.default_bool(),
        }
    }
}

/// The world position of the slot `(offset_x ahead, offset_y left)` of `leader`.
pub fn slot_position(leader: &Kinematics, offset_x: f32, offset_y: f32) -> Vec3 {
    let fwd = forward(leader);
    let left = Vec3::new(-fwd.y, fwd.x, 0.0);
    leader.position + fwd * offset_x + left * offset_y
}

/// Steers toward the point `slot` that moves with `slot_velocity`: the shared rule of offset
/// pursuit and leader following.
pub fn hold_slot(
    k: &Kinematics,
    limits: &Limits,
    slot: Vec3,
    slot_velocity: Vec3,
    approach_time: f32,
) -> Vec3 {
    let desired = slot_desired_velocity(k, limits, slot, slot_velocity, approach_time);
    accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration)
}

/// The velocity [`hold_slot`] steers toward: the slot's velocity plus the remaining offset closed
/// over `approach_time`, clamped to `max_speed`.
pub fn slot_desired_velocity(
    k: &Kinematics,
    limits: &Limits,
    slot: Vec3,
    slot_velocity: Vec3,
    approach_time: f32,
) -> Vec3 {
    (slot_velocity + (slot - k.position) / approach_time.max(0.05))
        .clamp_length_max(limits.max_speed.max(0.0))
}

/// What a formation member remembers between steps: where its slot was, so that it knows how
/// fast the slot moves. A slot of a turning leader moves faster (outside) or slower (inside) than
/// the leader by ω × offset, which the leader's kinematics do not show.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlotTracker {
    previous: Option<Vec3>,
}

/// Offset pursuit of `leader`, with the slot's velocity measured from where the slot was the
/// step before (`dt` seconds ago; the leader's velocity on the first step). This removes the
/// steady error of about ω · |offset| · approach_time of [`offset_pursuit`] behind a turning
/// leader. Returns [`Steering::Acceleration`].
pub fn offset_pursuit_tracked(
    k: &Kinematics,
    limits: &Limits,
    leader: &Kinematics,
    p: &OffsetPursuitParams,
    tracker: &mut SlotTracker,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    offset_pursuit_tracked_aiming(k, limits, leader, p, tracker, dt, |slot, _| slot, gizmos)
}

/// [`offset_pursuit_tracked`] holding `aim(slot)` instead of the slot itself (an agent that
/// avoids obstacles aims round the one between it and its slot: `detour::Detour::aim`); the
/// slot's velocity is still measured from the slot. While the aim is not the slot, the slot's
/// velocity is left out of the desired velocity (it may well point into the obstacle).
#[allow(clippy::too_many_arguments)]
pub fn offset_pursuit_tracked_aiming(
    k: &Kinematics,
    limits: &Limits,
    leader: &Kinematics,
    p: &OffsetPursuitParams,
    tracker: &mut SlotTracker,
    dt: f32,
    aim: impl FnOnce(Vec3, &mut Gizmos) -> Vec3,
    gizmos: &mut Gizmos,
) -> Steering {
    let slot = slot_position(leader, p.offset_x, p.offset_y);
    let measured = match tracker.previous {
        Some(previous) if dt > 0.0 => (slot - previous) / dt,
        _ => leader.velocity,
    };
    let slot_velocity = if measured.is_finite() { measured } else { leader.velocity };
    tracker.previous = slot.is_finite().then_some(slot);
    let aimed = aim(slot, gizmos);
    let slot_velocity = if p.match_velocity { slot_velocity } else { Vec3::ZERO };
    let linear = if aimed == slot {
        hold_slot(k, limits, slot, slot_velocity, p.approach_time)
    } else {
        hold_slot(k, limits, aimed, Vec3::ZERO, p.approach_time)
    };
    slot_gizmos(k, leader, slot, linear, gizmos)
}

/// Offset pursuit of `leader`, taking the slot's velocity to be the leader's. Returns
/// [`Steering::Acceleration`].
pub fn offset_pursuit(
    k: &Kinematics,
    limits: &Limits,
    leader: &Kinematics,
    p: &OffsetPursuitParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let slot = slot_position(leader, p.offset_x, p.offset_y);
    steer_to_slot(k, limits, leader, slot, leader.velocity, p, gizmos)
}

fn steer_to_slot(
    k: &Kinematics,
    limits: &Limits,
    leader: &Kinematics,
    slot: Vec3,
    slot_velocity: Vec3,
    p: &OffsetPursuitParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let slot_velocity = if p.match_velocity { slot_velocity } else { Vec3::ZERO };
    let linear = hold_slot(k, limits, slot, slot_velocity, p.approach_time);
    slot_gizmos(k, leader, slot, linear, gizmos)
}

/// Draws the slot and the force; the request.
fn slot_gizmos(
    k: &Kinematics,
    leader: &Kinematics,
    slot: Vec3,
    linear: Vec3,
    gizmos: &mut Gizmos,
) -> Steering {
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Projection, GizmoShape::Line(leader.position, slot));
        gizmos.push(GizmoRole::Target, GizmoShape::Point(slot));
        gizmos.push(GizmoRole::SteeringForce, GizmoShape::Arrow(k.position, k.position + linear * 0.25));
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
    fn slot_turns_with_the_leader() {
        let leader = Kinematics {
            position: Vec3::new(10.0, 0.0, 0.0),
            velocity: Vec3::new(0.0, 5.0, 0.0),
            orientation: 0.0,
        };
        // Heading +y: ahead is +y, left is −x.
        let slot = slot_position(&leader, -40.0, 30.0);
        assert!((slot - Vec3::new(-20.0, -40.0, 0.0)).length() < 1e-5, "{slot}");
    }

    /// Runs a follower behind a leader that drives `leader_step` (position, velocity at time t);
    /// returns the slot error after each second.
    fn slot_errors(leader_at: impl Fn(f32) -> (Vec3, Vec3), seconds: usize) -> Vec<f32> {
        let limits = Limits { radius: 6.0, max_speed: 150.0, max_acceleration: 400.0 };
        let p = OffsetPursuitParams::default();
        let mut k = Kinematics { position: Vec3::new(-100.0, -80.0, 0.0), ..Kinematics::default() };
        let dt = 1.0 / 60.0;
        let mut errors = Vec::new();
        for step in 0..seconds * 60 {
            let (position, velocity) = leader_at(step as f32 * dt);
            let leader = Kinematics { position, velocity, orientation: 0.0 };
            let s = offset_pursuit(&k, &limits, &leader, &p, &mut Gizmos::disabled());
            integrate(&mut k, &limits, s, dt);
            if (step + 1) % 60 == 0 {
                let (position, velocity) = leader_at((step + 1) as f32 * dt);
                let slot = slot_position(
                    &Kinematics { position, velocity, orientation: 0.0 },
                    p.offset_x,
                    p.offset_y,
                );
                errors.push((slot - k.position).length());
            }
        }
        errors
    }

    #[test]
    fn follower_holds_its_slot_behind_a_straight_moving_leader_with_no_lag() {
        let errors = slot_errors(|t| (Vec3::new(80.0 * t, 0.0, 0.0), Vec3::new(80.0, 0.0, 0.0)), 8);
        assert!(errors.last().copied().unwrap_or(f32::MAX) < 0.05, "{errors:?}");
    }

    #[test]
    fn follower_stays_near_its_slot_behind_a_turning_leader() {
        // A leader on a circle of radius 200 at 60 u/s.
        let errors = slot_errors(
            |t| {
                let w = 60.0 / 200.0;
                (
                    Vec3::new(200.0 * (w * t).cos(), 200.0 * (w * t).sin(), 0.0),
                    Vec3::new(-60.0 * (w * t).sin(), 60.0 * (w * t).cos(), 0.0),
                )
            },
            15,
        );
        // The slot of a turning leader moves faster than the leader (ω × offset), which the
        // follower cannot know: the steady error is about ω · |offset| · approach_time.
        let bound = 0.3 * Vec3::new(-40.0, 30.0, 0.0).length() * 0.5;
        assert!(errors.iter().skip(5).all(|&e| e < bound), "{errors:?} (bound {bound})");
    }

    #[test]
    fn a_follower_measuring_its_slot_velocity_keeps_its_slot_behind_a_turning_leader() {
        // The same leader on a circle of radius 200 at 60 u/s, and a wide slot (160 u out),
        // where following the leader's velocity alone leaves ω · |offset| · approach_time ≈ 24 u.
        let limits = Limits { radius: 6.0, max_speed: 150.0, max_acceleration: 400.0 };
        let p = OffsetPursuitParams { offset_x: -120.0, offset_y: -105.0, ..Default::default() };
        let w = 60.0f32 / 200.0;
        let leader_at = |t: f32| Kinematics {
            position: Vec3::new(200.0 * (w * t).cos(), 200.0 * (w * t).sin(), 0.0),
            velocity: Vec3::new(-60.0 * (w * t).sin(), 60.0 * (w * t).cos(), 0.0),
            orientation: 0.0,
        };
        let dt = 1.0 / 60.0;
        let run = |tracked: bool| {
            let mut k =
                Kinematics { position: slot_position(&leader_at(0.0), -120.0, -105.0), ..Default::default() };
            let mut tracker = SlotTracker::default();
            let mut worst = 0.0f32;
            for step in 0..15 * 60 {
                let leader = leader_at(step as f32 * dt);
                let s = if tracked {
                    offset_pursuit_tracked(
                        &k,
                        &limits,
                        &leader,
                        &p,
                        &mut tracker,
                        dt,
                        &mut Gizmos::disabled(),
                    )
                } else {
                    offset_pursuit(&k, &limits, &leader, &p, &mut Gizmos::disabled())
                };
                integrate(&mut k, &limits, s, dt);
                if step >= 5 * 60 {
                    let slot = slot_position(&leader_at((step + 1) as f32 * dt), p.offset_x, p.offset_y);
                    worst = worst.max(slot.distance(k.position));
                }
            }
            worst
        };
        let (tracked, untracked) = (run(true), run(false));
        assert!(tracked < 1.5, "tracked: {tracked}");
        assert!(untracked > 15.0, "untracked: {untracked}");
    }

    #[test]
    fn without_velocity_matching_a_follower_lags_its_slot_by_the_leaders_speed_times_the_approach_time() {
        let limits = Limits { radius: 6.0, max_speed: 150.0, max_acceleration: 400.0 };
        let error_after_10_s = |match_velocity: bool| {
            let p = OffsetPursuitParams { match_velocity, ..Default::default() };
            let mut leader =
                Kinematics { position: Vec3::ZERO, velocity: Vec3::new(50.0, 0.0, 0.0), orientation: 0.0 };
            let mut k = Kinematics { position: slot_position(&leader, p.offset_x, p.offset_y), ..leader };
            let (mut tracker, dt) = (SlotTracker::default(), 1.0 / 60.0);
            for _ in 0..600 {
                let s = offset_pursuit_tracked(
                    &k,
                    &limits,
                    &leader,
                    &p,
                    &mut tracker,
                    dt,
                    &mut Gizmos::disabled(),
                );
                integrate(&mut k, &limits, s, dt);
                leader.position += leader.velocity * dt;
            }
            k.position.distance(slot_position(&leader, p.offset_x, p.offset_y))
        };
        assert!(error_after_10_s(true) < 0.1, "{}", error_after_10_s(true));
        assert!((error_after_10_s(false) - 50.0 * 0.5).abs() < 1.0, "{}", error_after_10_s(false));
    }

    proptest! {
        #[test]
        fn offset_pursuit_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), leader in testing::kinematics(),
            offset_x in -2000.0f32..2000.0, offset_y in -2000.0f32..2000.0, approach_time in 0.0f32..10.0,
            match_velocity: bool,
        ) {
            let p = OffsetPursuitParams { offset_x, offset_y, approach_time, match_velocity };
            let s = offset_pursuit(&k, &limits, &leader, &p, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
