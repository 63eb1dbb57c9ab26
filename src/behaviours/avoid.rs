//! Obstacle avoidance for agents with `avoid_obstacles` (spheres in 3D, circles in 2D).
//!
//! # Motivation
//! Path followers and seekers steer at a point and ignore what is in between. Reynolds'
//! obstacle avoidance looks a little way ahead along the velocity and, if the agent's body would
//! hit an obstacle, steers sideways before it gets there: the nearer the contact, the harder.
//! Seeds 002 and 004 both assume agents do not drive through obstacles; this is the shared
//! mechanism (the planner of seed 004 avoids by replanning instead).
//!
//! # Implementation
//! 1. If the agent already overlaps obstacles (centre distance < sum of radii), it is pushed
//!    straight out of the deepest one at `max_acceleration`.
//! 2. An obstacle the agent could not stop short of any more (its approach speed one step from
//!    now, assuming the other behaviours spend that step's acceleration toward it, needs more
//!    braking distance than the gap leaves) gets full braking straight away from it.
//! 3. Otherwise a probe sphere of radius `radius + margin` is cast from the position along the
//!    velocity for `speed · look_ahead` (at least `2 · radius`) with
//!    [`cast_sphere_sphere`]. An agent at rest probes
//!    nothing (it is not going anywhere; a resting agent next to an obstacle is not nudged). A
//!    probe that starts inside an obstacle's margin while moving away from it ignores that one.
//! 4. For the earliest hit, the acceleration is perpendicular to the velocity, away from the
//!    obstacle's centre: the component of (hit point − centre) perpendicular to the velocity
//!    (this works unchanged in 3D). When that component vanishes (the centre dead ahead), the
//!    agent turns to the left of its velocity in the x-y plane (any perpendicular for a purely
//!    vertical velocity), so the choice is deterministic. Its magnitude is
//!    `max_acceleration · (1 − toi)`: full at contact, nothing at the end of the probe.
//!
//! The result is meant to take priority over the agent's behaviour while it is `Some` (the
//! simulation uses it instead of, or clamped together with, the behaviour's acceleration).
//! Allocation-free: one pass over the obstacles.
//!
//! # Parameters
//! `look_ahead` (seconds of travel probed, typically 0.5–2) and `margin` (extra clearance in
//! world units, typically 2–20), plus the agent's radius and max acceleration.

use super::param::{Param, ParamKind};
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits};
use crate::geometry::{cast_sphere_sphere, Sphere, SphereCastHit};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of obstacle avoidance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AvoidParams {
    /// How far ahead the probe looks, in seconds of travel at the current speed (typically 0.5–2).
    pub look_ahead: f32,
    /// Extra clearance kept beyond the sum of radii (world units, typically 2–20).
    pub margin: f32,
}

impl AvoidParams {
    /// Declaration of `look_ahead`.
    pub const LOOK_AHEAD: Param = Param {
        key: "look_ahead",
        label: "look ahead",
        unit: "s",
        min: 0.0,
        max: 10.0,
        default: 1.0,
        help: "How far ahead the probe looks, in seconds of travel at the current speed.",
        kind: ParamKind::Float,
    };
    /// Declaration of `margin`.
    pub const MARGIN: Param = Param {
        key: "margin",
        label: "margin",
        unit: "u",
        min: 0.0,
        max: 200.0,
        default: 6.0,
        help: "Extra clearance kept beyond the sum of the radii.",
        kind: ParamKind::Float,
    };
    /// Every parameter, in field order (the panel, the validator and the docs read this).
    pub const PARAMS: &'static [Param] = &[Self::LOOK_AHEAD, Self::MARGIN];
}

impl Default for AvoidParams {
    fn default() -> Self {
        AvoidParams { look_ahead: Self::LOOK_AHEAD.default, margin: Self::MARGIN.default }
    }
}

/// Lateral acceleration that steers around the most imminent obstacle on the probe, or None
/// when the probe is clear. Also pushes out of an obstacle the agent already overlaps.
pub fn avoid_obstacles(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    dt: f32,
    p: &AvoidParams,
    gizmos: &mut Gizmos,
) -> Option<Vec3> {
    // The simulation's fixed step (a non-finite or negative one counts as none).
    let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
    let radius = limits.radius.max(0.0);
    let max_acceleration = limits.max_acceleration.max(0.0);
    let heading = k.velocity.normalize_or_zero();

    // 1. Already overlapping: push out of the deepest obstacle.
    let mut deepest: Option<(f32, Vec3)> = None;
    for obstacle in obstacles {
        let offset = k.position - obstacle.center;
        let reach = radius + obstacle.radius.max(0.0);
        let distance = offset.length();
        let penetration = reach - distance;
        if penetration > 0.0 && deepest.is_none_or(|(depth, _)| penetration > depth) {
            let normal = offset.try_normalize().unwrap_or_else(|| side_of(heading));
            deepest = Some((penetration, normal));
        }
    }
    if let Some((_, normal)) = deepest {
        let push = normal * max_acceleration;
        if gizmos.is_enabled() {
            gizmos.push(
                GizmoRole::AvoidanceVector,
                GizmoShape::Arrow(k.position, k.position + normal * radius),
            );
        }
        return Some(push);
    }

    // 2. Too close to stop: an obstacle the agent could be approaching, one step from now,
    //    faster than it can still cancel before contact (plus two steps of reaction)
    //    gets full braking straight away from it; the speed along its surface is kept, so the
    //    agent slides around it. "One step from now" assumes the worst: that the other
    //    behaviours spend this step's whole acceleration toward the obstacle (an agent gliding
    //    along a surface at a gap of almost nothing would otherwise be pulled in by up to
    //    `max_acceleration · dt²` before this rule sees any approach speed at all).
    let worst_push = max_acceleration * dt;
    let mut most_urgent: Option<(f32, Vec3)> = None;
    for obstacle in obstacles {
        let offset = k.position - obstacle.center;
        let distance = offset.length();
        let normal = offset.normalize_or_zero();
        let approach = -k.velocity.dot(normal) + worst_push;
        if approach <= 0.0 || distance <= 0.0 {
            continue;
        }
        let gap = distance - radius - obstacle.radius.max(0.0);
        let needed = approach * approach / (2.0 * max_acceleration.max(1e-3)) + approach * reaction_time(dt);
        let slack = gap - needed;
        if slack < 0.0 && most_urgent.is_none_or(|(best, _)| slack < best) {
            most_urgent = Some((slack, normal));
        }
    }
    if let Some((_, normal)) = most_urgent {
        if gizmos.is_enabled() {
            gizmos.push(
                GizmoRole::AvoidanceVector,
                GizmoShape::Arrow(k.position, k.position + normal * radius * 2.0),
            );
        }
        return Some(normal * max_acceleration);
    }

    // 3. Probe ahead along the velocity.
    let speed = k.velocity.length();
    if !speed.is_finite() || speed <= 1e-3 {
        return None;
    }
    let probe_length = (speed * p.look_ahead.max(0.0)).max(2.0 * radius);
    let from = k.position;
    let to = from + heading * probe_length;
    let cast_radius = radius + p.margin.max(0.0);
    let mut earliest: Option<(SphereCastHit, Sphere)> = None;
    for obstacle in obstacles {
        let Some(hit) = cast_sphere_sphere(from, to, cast_radius, obstacle.center, obstacle.radius) else {
            continue;
        };
        if hit.started_inside && heading.dot(from - obstacle.center) >= 0.0 {
            // Inside the margin but already moving away: nothing to avoid.
            continue;
        }
        if earliest.is_none_or(|(best, _)| hit.toi < best.toi) {
            earliest = Some((hit, *obstacle));
        }
    }
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Probe, GizmoShape::Line(from, to));
    }
    let (hit, obstacle) = earliest?;

    // 4. Lateral acceleration away from the centre, scaled by urgency.
    let outward = hit.point - obstacle.center;
    let lateral = outward - heading * heading.dot(outward);
    let inflated = cast_radius + obstacle.radius.max(0.0);
    let side = if lateral.length() > 1e-3 * inflated.max(1e-3) {
        lateral.normalize_or_zero()
    } else {
        side_of(heading)
    };
    let urgency = (1.0 - hit.toi).clamp(0.0, 1.0);
    let acceleration = side * max_acceleration * urgency;
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::CastHit, GizmoShape::Point(hit.point));
        gizmos.push(
            GizmoRole::AvoidanceVector,
            GizmoShape::Arrow(hit.point, hit.point + side * inflated * urgency),
        );
    }
    Some(acceleration)
}

/// Seconds of reaction allowed for when deciding that an agent must brake now: two steps of
/// `dt` (the request of this step acts during the next).
pub fn reaction_time(dt: f32) -> f32 {
    2.0 * dt
}

/// A kinematic velocity request (seek and flee set their velocity at once) made safe: for
/// every obstacle the velocity would carry the agent's body into within `look_ahead` seconds
/// (plus the margin), the velocity is turned, speed kept, by the least angle that clears it:
/// to the tangent of the obstacle grown by the radii and the margin, on the side the velocity
/// already leans to, so the agent passes it instead of running into it; an agent already
/// within the margin slides along the obstacle (the component toward its centre removed).
/// Kinematic behaviours change velocity without limit, so their avoidance may too.
pub fn clear_velocity(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    p: &AvoidParams,
    velocity: Vec3,
) -> Vec3 {
    let speed = velocity.length();
    if !speed.is_finite() || speed <= 1e-6 {
        return velocity;
    }
    if let Some(cleared) = clear_velocity_in_plane(k, limits, obstacles, p, velocity, speed) {
        return cleared;
    }
    // Out of the x-y plane: clearing one obstacle can turn the velocity into a neighbour, so
    // repeat until a pass changes nothing; a velocity still blocked after that (a pocket
    // between obstacles) stops.
    let mut cleared = velocity;
    for _ in 0..CLEARING_PASSES {
        let (next, changed) = clear_pass(k, limits, obstacles, p, cleared, speed);
        cleared = next;
        if !changed {
            return cleared;
        }
    }
    Vec3::ZERO
}

/// [`clear_velocity`] for an agent moving in the x-y plane among obstacles centred in it (None
/// otherwise): every obstacle within reach blocks an exact cone of headings (those along which
/// the body, grown by the margin, would touch it within `look_ahead` seconds; the half-plane
/// toward it when the agent is already within the margin), and the velocity turns to the free
/// heading nearest to it (an edge of a cone, a hair outside), speed kept — so it threads a gap
/// its body fits through rather than turning back and forth between two obstacles. When no
/// heading within a quarter turn is free, shorter looks are tried (down to an eighth); no free
/// heading at all even then (a pocket): it stops.
fn clear_velocity_in_plane(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    p: &AvoidParams,
    velocity: Vec3,
    speed: f32,
) -> Option<Vec3> {
    let planar = |v: Vec3| v.z.abs() <= 1e-3 * (1.0 + v.x.abs() + v.y.abs());
    if !planar(velocity) || !planar(k.position) {
        return None;
    }
    let reach_extra = limits.radius.max(0.0) + p.margin.max(0.0);
    let wanted = velocity.y.atan2(velocity.x);
    // A field so dense that every heading ahead meets a rock within the whole look-ahead may
    // still have a way on a little further: shorter looks are tried before turning back (which
    // a kinematic agent would undo the next step, its goal being ahead) or stopping.
    let mut length = speed * p.look_ahead.max(0.0);
    for look in 0..SHORTER_LOOKS {
        let last = look + 1 == SHORTER_LOOKS;
        match free_heading(k.position, obstacles, reach_extra, length, wanted)? {
            Some(heading) if heading == wanted => return Some(velocity),
            Some(heading) if last || angle_between(heading, wanted) <= std::f32::consts::FRAC_PI_2 => {
                return Some(Vec3::new(heading.cos(), heading.sin(), 0.0) * speed)
            }
            _ => length *= 0.5,
        }
    }
    Some(Vec3::ZERO)
}

/// Looks tried by [`clear_velocity_in_plane`], each half as long as the one before.
const SHORTER_LOOKS: usize = 4;

/// The free heading nearest to `wanted` for a body grown to `reach_extra` at `position` looking
/// `length` ahead among `obstacles` (`wanted` itself when free); `Some(None)` when every heading
/// is blocked, None when an obstacle is out of the plane or there are too many to hold.
fn free_heading(
    position: Vec3,
    obstacles: &[Sphere],
    reach_extra: f32,
    length: f32,
    wanted: f32,
) -> Option<Option<f32>> {
    let planar = |v: Vec3| v.z.abs() <= 1e-3 * (1.0 + v.x.abs() + v.y.abs());
    // The cones as (centre heading, half-width), up to MAX_CONES of them.
    let mut cones = [(0.0f32, 0.0f32); MAX_CONES];
    let mut n_cones = 0;
    for obstacle in obstacles {
        let offset = obstacle.center - position;
        if !planar(obstacle.center) {
            return None;
        }
        let reach = reach_extra + obstacle.radius.max(0.0);
        let distance = offset.truncate().length();
        if !distance.is_finite() || distance <= 1e-6 || distance - reach > length {
            continue;
        }
        let half_width = if distance <= reach {
            std::f32::consts::FRAC_PI_2
        } else {
            let widest = (reach / distance).asin();
            // A segment of `length` at least as long as the tangent reaches the circle at every
            // heading within the widest; a shorter one only up to where its end touches it.
            if length * length >= distance * distance - reach * reach {
                widest
            } else if length > 0.0 {
                let cos_reached =
                    (distance * distance + length * length - reach * reach) / (2.0 * distance * length);
                cos_reached.clamp(-1.0, 1.0).acos().min(widest)
            } else {
                0.0
            }
        };
        if half_width <= 0.0 {
            continue;
        }
        let slot = cones.get_mut(n_cones)?;
        *slot = (offset.y.atan2(offset.x), half_width);
        n_cones += 1;
    }
    let cones = cones.get(..n_cones)?;
    let blocked = |heading: f32| cones.iter().any(|&(centre, half)| angle_between(heading, centre) < half);
    if !blocked(wanted) {
        return Some(Some(wanted));
    }
    let margin_angle = CLEARING_SLACK;
    let best = cones
        .iter()
        .flat_map(|&(centre, half)| [centre - half - margin_angle, centre + half + margin_angle])
        .filter(|&heading| !blocked(heading))
        .min_by(|&a, &b| angle_between(a, wanted).total_cmp(&angle_between(b, wanted)));
    Some(best)
}

/// The unsigned angle between two headings (radians, 0 to π).
fn angle_between(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(std::f32::consts::TAU);
    d.min(std::f32::consts::TAU - d)
}

/// Most obstacles within reach of one agent's kinematic velocity in the plane; beyond that the
/// general clearing is used.
const MAX_CONES: usize = 64;

/// Most passes of [`clear_velocity`] before it gives up and stops the agent.
const CLEARING_PASSES: usize = 4;

/// The tangent a cleared velocity is turned to is taken to the grown obstacle enlarged by this
/// fraction (in the plane: this many radians outside a blocked cone), so that it is seen clear
/// and not grazing.
const CLEARING_SLACK: f32 = 0.02;

/// One pass over the obstacles; the velocity and whether any obstacle changed it.
fn clear_pass(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    p: &AvoidParams,
    velocity: Vec3,
    speed: f32,
) -> (Vec3, bool) {
    let mut cleared = velocity;
    let mut changed = false;
    let reach_extra = limits.radius.max(0.0) + p.margin.max(0.0);
    for obstacle in obstacles {
        let offset = obstacle.center - k.position;
        let distance = offset.length();
        let reach = reach_extra + obstacle.radius.max(0.0);
        let horizon = speed * p.look_ahead.max(0.0) + reach;
        if distance <= 1e-6 || distance > horizon {
            continue;
        }
        let inward = offset / distance;
        let toward = cleared.dot(inward);
        if toward <= 0.0 {
            continue;
        }
        // Only when the body's path actually meets the inflated obstacle.
        let lateral =
            (offset - cleared.normalize_or_zero() * offset.dot(cleared.normalize_or_zero())).length();
        if lateral >= reach {
            continue;
        }
        let across = cleared - inward * toward;
        let side = across.try_normalize().unwrap_or_else(|| side_of(inward));
        let grown = reach * (1.0 + CLEARING_SLACK);
        let direction = if distance > grown {
            // The tangent on the side the velocity leans to: the least turn that clears it.
            let sin = grown / distance;
            let cos = (1.0 - sin * sin).max(0.0).sqrt();
            inward * cos + side * sin
        } else {
            side
        };
        cleared = direction * speed;
        changed = true;
    }
    (cleared, changed)
}

/// The deterministic side to turn to when the obstacle is dead ahead: left of `heading` in the
/// x-y plane, or any perpendicular when `heading` is vertical (+x when it is zero).
fn side_of(heading: Vec3) -> Vec3 {
    Vec3::new(-heading.y, heading.x, 0.0).try_normalize().unwrap_or_else(|| {
        if heading == Vec3::ZERO {
            Vec3::X
        } else {
            heading.any_orthonormal_vector()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rock(x: f32, y: f32, radius: f32) -> Sphere {
        Sphere { center: Vec3::new(x, y, 0.0), radius }
    }

    /// Whether a body of `radius` moving from `from` along `velocity` for `seconds` touches a
    /// rock grown by `margin`.
    fn runs_into(
        from: Vec3,
        velocity: Vec3,
        seconds: f32,
        radius: f32,
        margin: f32,
        rocks: &[Sphere],
    ) -> bool {
        rocks.iter().any(|r| {
            cast_sphere_sphere(from, from + velocity * seconds, radius + margin, r.center, r.radius).is_some()
        })
    }

    #[test]
    fn a_kinematic_velocity_threads_a_gap_its_body_fits_through_instead_of_stopping() {
        // Two rocks 40 apart across the way: the grown body (2 · (5 + 6) = 22) fits between.
        let rocks = [rock(100.0, 35.0, 15.0), rock(100.0, -35.0, 15.0)];
        let limits = Limits { radius: 5.0, max_speed: 100.0, max_acceleration: 400.0 };
        let k = Kinematics::default();
        let p = AvoidParams::default();
        // Aimed at the lower rock: turned up into the gap, not stopped (the old clearing turned
        // from one rock into the other and gave up).
        let wanted = Vec3::new(100.0, -35.0, 0.0).normalize() * 100.0;
        let cleared = clear_velocity(&k, &limits, &rocks, &p, wanted);
        assert!((cleared.length() - 100.0).abs() < 1e-3, "speed kept: {cleared}");
        assert!(!runs_into(k.position, cleared, p.look_ahead, limits.radius, p.margin, &rocks), "{cleared}");
        assert!(cleared.angle_between(wanted) < 0.5, "the least turn: {cleared}");
        // A clear velocity is left exactly as it is.
        let straight = Vec3::new(100.0, 0.0, 0.0);
        assert_eq!(clear_velocity(&k, &limits, &rocks, &p, straight), straight);
    }

    #[test]
    fn a_kinematic_velocity_in_a_pocket_with_no_free_heading_stops() {
        // Ringed by rocks close enough that every heading runs into one within an eighth of a
        // second (the shortest look).
        let rocks: Vec<Sphere> = (0..8)
            .map(|i| {
                let angle = i as f32 * std::f32::consts::TAU / 8.0;
                rock(35.0 * angle.cos(), 35.0 * angle.sin(), 15.0)
            })
            .collect();
        let limits = Limits { radius: 5.0, max_speed: 100.0, max_acceleration: 400.0 };
        let cleared =
            clear_velocity(&Kinematics::default(), &limits, &rocks, &AvoidParams::default(), Vec3::X * 100.0);
        assert_eq!(cleared, Vec3::ZERO);
    }
}
