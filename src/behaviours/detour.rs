//! Going round an obstacle that stands between an agent and its goal (for pursuit and
//! interpose when the agent avoids obstacles).
//!
//! # Motivation
//! Obstacle avoidance in priority before a goal-seeking behaviour (gdx-ai's `PrioritySteering`,
//! steerlab's `avoid_obstacles` in group 0) keeps the body clear, but it knows nothing of the
//! goal: when the goal lies straight behind a rock, the goal pulls straight into it, avoidance
//! pushes back or sideways, and each undoes the other — the hunter of `hiding.json` pursuing a
//! hider crept round the hider's rock at a sixth of its speed, and an interposer whose midpoint
//! was inside a rock circled it for ever. Reynolds' answer to "the target is behind something"
//! is to steer for the edge of the obstruction (the silhouette edge of his obstacle avoidance,
//! and Buckland's hiding spot on an obstacle's far rim is the same construction the other way
//! round): so the goal-seeking behaviour aims past the obstacle instead of into it, and the two
//! entries agree.
//!
//! # Implementation
//! Every obstacle is grown by the agent's radius plus the avoidance margin.
//! 1. A goal inside a grown obstacle cannot be reached: it moves to the grown obstacle's rim,
//!    along the ray from the centre through the goal (through the agent when the goal is the
//!    centre) — the nearest point the agent can stand on.
//! 2. The segment from the agent to the goal is swept by the agent's body plus the margin
//!    ([`cast_sphere_sphere`]); the first obstacle it meets is gone round: the agent aims along
//!    the tangent from its position to the grown circle, in the plane of the agent, the centre
//!    and the goal, as far as the goal is (so a slowing behaviour slows by the distance still
//!    to go, not at the tangent point). Inside the grown circle (within the margin) it aims
//!    along the circle's tangent at its position.
//! 3. The side: the one the agent is already moving round (its velocity's component across
//!    the line to the centre), else the goal's side — so once it has turned one way it keeps
//!    that way while the goal swings from side to side behind the obstacle, with no memory
//!    beyond the velocity. A goal dead behind with the agent at rest goes left (x-y plane).
//!
//! Obstacle avoidance stays in charge of contact: its group still wins whenever its probe sees
//! a threat, and a tangent grazes the grown circle, so the body stays `margin` clear.
//!
//! # Parameters
//! The avoidance entry's `margin`, the agent's radius, the world's obstacles; no parameters of
//! its own.

use super::{GizmoRole, GizmoShape, Gizmos};
use crate::geometry::{cast_sphere_sphere, Sphere};
use glam::Vec3;

/// Speed across the line to the obstacle below which the agent counts as not yet going round
/// either side (world units per second).
const SIDE_SPEED: f32 = 1.0;

/// Where an agent at `position` moving at `velocity` with body `radius` should aim to reach
/// `goal` round the `obstacles` (each grown by `radius + margin`): `goal` itself when nothing
/// is in the way, else the rim point or the tangent direction described in the module
/// documentation. Finite whenever the inputs are.
pub fn detour_target(
    position: Vec3,
    velocity: Vec3,
    goal: Vec3,
    radius: f32,
    margin: f32,
    obstacles: &[Sphere],
    gizmos: &mut Gizmos,
) -> Vec3 {
    let grow = radius.max(0.0) + margin.max(0.0);
    // 1. A goal inside a grown obstacle moves to its rim.
    let mut goal = goal;
    for obstacle in obstacles {
        let reach = obstacle.radius.max(0.0) + grow;
        let offset = goal - obstacle.center;
        if offset.length_squared() < reach * reach {
            let outward = offset
                .try_normalize()
                .or_else(|| (position - obstacle.center).try_normalize())
                .unwrap_or(Vec3::X);
            goal = obstacle.center + outward * reach;
        }
    }
    // 2. The first obstacle across the way.
    let mut first: Option<(f32, Sphere)> = None;
    for obstacle in obstacles {
        let Some(hit) = cast_sphere_sphere(position, goal, grow, obstacle.center, obstacle.radius.max(0.0))
        else {
            continue;
        };
        // A goal on the rim touches its own grown circle only at the end: not in the way.
        if hit.toi >= 1.0 - 1e-4 {
            continue;
        }
        if first.is_none_or(|(toi, _)| hit.toi < toi) {
            first = Some((hit.toi, *obstacle));
        }
    }
    let Some((_, obstacle)) = first else { return goal };
    let reach = obstacle.radius.max(0.0) + grow;
    let to_centre = obstacle.center - position;
    let distance = to_centre.length();
    let Some(inward) = to_centre.try_normalize() else { return goal };
    // 3. The side: across the line to the centre, in the plane of the goal (or the velocity).
    let across = |v: Vec3| (v - inward * inward.dot(v)).try_normalize();
    let left = Vec3::new(-inward.y, inward.x, 0.0)
        .try_normalize()
        .unwrap_or_else(|| inward.any_orthonormal_vector());
    let goal_side = across(goal - position).or_else(|| across(velocity)).unwrap_or(left);
    let side = if velocity.dot(goal_side) < -SIDE_SPEED { -goal_side } else { goal_side };
    let direction = if distance > reach {
        let sin = reach / distance;
        let cos = (1.0 - sin * sin).max(0.0).sqrt();
        inward * cos + side * sin
    } else {
        side
    };
    let aim = position + direction * (goal - position).length().max(reach);
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Target, GizmoShape::Point(aim));
        gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(position, position + direction * reach));
    }
    if aim.is_finite() {
        aim
    } else {
        goal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rock(x: f32, y: f32, radius: f32) -> Sphere {
        Sphere { center: Vec3::new(x, y, 0.0), radius }
    }

    #[test]
    fn a_clear_line_leaves_the_goal_as_it_is() {
        let goal = Vec3::new(200.0, 0.0, 0.0);
        let rocks = [rock(100.0, 80.0, 30.0)];
        let aim = detour_target(Vec3::ZERO, Vec3::ZERO, goal, 10.0, 6.0, &rocks, &mut Gizmos::disabled());
        assert_eq!(aim, goal);
    }

    #[test]
    fn a_goal_dead_behind_a_rock_is_aimed_at_along_the_tangent_of_the_grown_rock() {
        let rocks = [rock(100.0, 0.0, 34.0)];
        let goal = Vec3::new(200.0, 0.0, 0.0);
        let aim = detour_target(Vec3::ZERO, Vec3::ZERO, goal, 10.0, 6.0, &rocks, &mut Gizmos::disabled());
        // Grown radius 50 at distance 100: the tangent is 30° off the line, to the left.
        let angle = aim.y.atan2(aim.x);
        assert!((angle - std::f32::consts::FRAC_PI_6).abs() < 1e-4, "{aim} ({angle} rad)");
        assert!((aim.length() - 200.0).abs() < 1e-3, "as far as the goal: {aim}");
    }

    #[test]
    fn an_agent_already_going_round_to_the_right_keeps_going_right() {
        let rocks = [rock(100.0, 0.0, 34.0)];
        // The goal is a little to the left, but the agent moves to the right.
        let goal = Vec3::new(200.0, 5.0, 0.0);
        let velocity = Vec3::new(20.0, -20.0, 0.0);
        let aim = detour_target(Vec3::ZERO, velocity, goal, 10.0, 6.0, &rocks, &mut Gizmos::disabled());
        assert!(aim.y < -50.0, "{aim}");
    }

    #[test]
    fn a_goal_inside_a_rock_moves_to_the_rim_nearest_it() {
        let rocks = [rock(0.0, 0.0, 40.0)];
        let aim = detour_target(
            Vec3::new(0.0, -150.0, 0.0),
            Vec3::ZERO,
            Vec3::new(0.0, 10.0, 0.0),
            8.0,
            6.0,
            &rocks,
            &mut Gizmos::disabled(),
        );
        // The goal moved to (0, 54) beyond the rock: the agent below goes round, not into it.
        assert!(aim.x.abs() > 20.0, "{aim}");
        let centre_goal = detour_target(
            Vec3::new(0.0, -150.0, 0.0),
            Vec3::ZERO,
            Vec3::ZERO,
            8.0,
            6.0,
            &rocks,
            &mut Gizmos::disabled(),
        );
        assert_eq!(centre_goal, Vec3::new(0.0, -54.0, 0.0), "the centre's rim point faces the agent");
    }

    proptest! {
        #[test]
        fn the_aim_is_finite_for_any_agent_goal_and_field(
            px in -300.0f32..300.0, py in -300.0f32..300.0,
            gx in -300.0f32..300.0, gy in -300.0f32..300.0,
            vx in -100.0f32..100.0, vy in -100.0f32..100.0,
            rocks in proptest::collection::vec((-200.0f32..200.0, -200.0f32..200.0, 5.0f32..60.0), 0..6),
        ) {
            let rocks: Vec<Sphere> = rocks.into_iter().map(|(x, y, r)| rock(x, y, r)).collect();
            let position = Vec3::new(px, py, 0.0);
            let aim = detour_target(
                position, Vec3::new(vx, vy, 0.0), Vec3::new(gx, gy, 0.0), 8.0, 6.0, &rocks, &mut Gizmos::disabled(),
            );
            prop_assert!(aim.is_finite());
        }
    }
}
