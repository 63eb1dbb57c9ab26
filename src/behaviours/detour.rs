//! Going round an obstacle that stands between an agent and its goal: the detour every
//! goal-seeking entry of an agent with obstacle avoidance takes (the combination of an
//! `avoid_obstacles` entry with the rest of the list, `sim::mix`, hands it to them).
//!
//! # Motivation
//! Obstacle avoidance in priority before a goal-seeking behaviour (gdx-ai's `PrioritySteering`,
//! steerlab's `avoid_obstacles` in group 0) keeps the body clear, but it knows nothing of the
//! goal: when the goal lies straight behind a rock, the goal pulls straight into it, avoidance
//! pushes back or sideways, and each undoes the other — the hunter of `hiding.json` pursuing a
//! hider crept round the hider's rock at a sixth of its speed, an interposer whose midpoint
//! was inside a rock circled it for ever, and a kinematic seeker slid into the crook between two
//! rocks and stopped there. Reynolds' answer to "the target is behind something" is to steer
//! for the edge of the obstruction (the silhouette edge of his obstacle avoidance, and
//! Buckland's hiding spot on an obstacle's far rim is the same construction the other way
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
//!    and the goal, as far as the way round is (tangent, arc, tangent: so a slowing behaviour
//!    slows by the distance still to go, not at the tangent point nor, for a goal just behind
//!    the obstacle, half-way round). Inside the grown circle (within the margin) it aims
//!    along the circle's tangent at its position. Rocks whose grown circles overlap that one's
//!    (a wall of rocks with no gap the body fits through) are gone round as one: the aim turns
//!    further, to the tangent of the farthest of them on the same side.
//! 3. The side is committed: the first time an obstacle is in the way, the agent takes the side
//!    it is already moving round (its velocity's component across the line to the centre), else
//!    the goal's side, and remembers it ([`DetourSide`], kept in the agent's list state) while
//!    that obstacle stays in the way — so it never turns back while the goal swings from side
//!    to side behind the obstacle, nor when avoidance brakes it to a stand; only when it is
//!    plainly carried round the other way (moving across against the side at half its speed)
//!    does the side follow it. A goal dead behind
//!    with the agent at rest goes left (x-y plane). The memory is cleared once the way is clear.
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

/// The tangent is taken to the grown circle enlarged by this fraction, so that the aim clears
/// it by a hair and avoidance's casts along it do not see a graze as a hit (as the planner's
/// avoidance waypoints do).
const TANGENT_SLACK: f32 = 0.02;

/// The share of its speed with which an agent must move across against its committed side
/// before the side follows its velocity instead.
const CARRIED: f32 = 0.5;

/// Most rocks of one overlapping group gone round as one (step 2 of the module notes).
const MAX_CHAINED: usize = 8;

/// Which side an agent committed to going round an obstacle on (step 3 of the module notes):
/// the obstacle's index in the world's list and the side, a unit vector across the line to its
/// centre when it was chosen. `Default` is "no detour under way".
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DetourSide {
    committed: Option<(u32, Vec3)>,
}

impl DetourSide {
    /// No detour under way (`Default`, usable in constants).
    pub const NONE: DetourSide = DetourSide { committed: None };

    /// The obstacle being gone round, if any.
    pub fn obstacle(&self) -> Option<usize> {
        self.committed.map(|(index, _)| index as usize)
    }
}

/// The detour of one agent for one step: what the combination hands to the goal-seeking
/// entries of an agent that avoids obstacles.
#[derive(Debug)]
pub struct Detour<'a> {
    /// The avoidance entry's margin (world units).
    pub margin: f32,
    /// The world's obstacles.
    pub obstacles: &'a [Sphere],
    /// The agent's committed side.
    pub side: &'a mut DetourSide,
}

impl Detour<'_> {
    /// Where an agent at `position` moving at `velocity` with body `radius` aims to reach
    /// `goal`: [`detour_target`] with this detour's margin, obstacles and memory.
    pub fn aim(
        &mut self,
        position: Vec3,
        velocity: Vec3,
        goal: Vec3,
        radius: f32,
        gizmos: &mut Gizmos,
    ) -> Vec3 {
        detour_target(position, velocity, goal, radius, self.margin, self.obstacles, self.side, gizmos)
    }
}

/// Where an agent at `position` moving at `velocity` with body `radius` should aim to reach
/// `goal` round the `obstacles` (each grown by `radius + margin`): `goal` itself when nothing
/// is in the way, else the rim point or the tangent direction described in the module
/// documentation, on the side remembered in `side` (which this updates). Finite whenever the
/// inputs are.
#[allow(clippy::too_many_arguments)]
pub fn detour_target(
    position: Vec3,
    velocity: Vec3,
    goal: Vec3,
    radius: f32,
    margin: f32,
    obstacles: &[Sphere],
    side: &mut DetourSide,
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
    let mut first: Option<(f32, usize)> = None;
    for (index, obstacle) in obstacles.iter().enumerate() {
        let Some(hit) = cast_sphere_sphere(position, goal, grow, obstacle.center, obstacle.radius.max(0.0))
        else {
            continue;
        };
        // A goal on the rim touches its own grown circle only at the end: not in the way.
        if hit.toi >= 1.0 - 1e-4 {
            continue;
        }
        if first.is_none_or(|(toi, _)| hit.toi < toi) {
            first = Some((hit.toi, index));
        }
    }
    let Some((index, obstacle)) = first.and_then(|(_, index)| Some((index, *obstacles.get(index)?))) else {
        *side = DetourSide::default();
        return goal;
    };
    let to_centre = obstacle.center - position;
    let Some(inward) = to_centre.try_normalize() else { return goal };
    // 3. The side: across the line to the centre, remembered while this obstacle is in the way.
    let across = |v: Vec3| (v - inward * inward.dot(v)).try_normalize();
    // Kept unless the agent is plainly carried round the other way (by avoidance, or by a
    // kinematic velocity cleared of a neighbouring rock): then the way it goes is the side.
    let carried_against = |vector: Vec3| velocity.dot(vector) < -CARRIED * velocity.length();
    let remembered = match side.committed {
        Some((committed, vector)) if committed as usize == index => {
            across(vector).filter(|&vector| !carried_against(vector))
        }
        _ => None,
    };
    let chosen = remembered.unwrap_or_else(|| {
        let left = Vec3::new(-inward.y, inward.x, 0.0)
            .try_normalize()
            .unwrap_or_else(|| inward.any_orthonormal_vector());
        let goal_side = across(goal - position).or_else(|| across(velocity)).unwrap_or(left);
        if velocity.dot(goal_side) < -SIDE_SPEED {
            -goal_side
        } else {
            goal_side
        }
    });
    // (Four billion obstacles would not fit a step; such an index is simply not remembered.)
    side.committed = u32::try_from(index).ok().map(|index| (index, chosen));
    // The tangent to the first obstacle, then to each rock whose grown circle overlaps one gone
    // round already and that the aim still runs into (turning further on the same side).
    let mut direction = tangent_direction(position, &obstacle, grow, chosen);
    let mut chained = [index; MAX_CHAINED];
    let mut n_chained = 1;
    while n_chained < MAX_CHAINED {
        let ahead = position + direction * (goal - position).length().max(obstacle.radius + grow);
        let next = obstacles.iter().enumerate().find(|(other_idx, other)| {
            let joined = chained.iter().take(n_chained).any(|&done| {
                obstacles.get(done).is_some_and(|done| {
                    done.center.distance(other.center)
                        < done.radius.max(0.0) + other.radius.max(0.0) + 2.0 * grow
                })
            });
            !chained.iter().take(n_chained).any(|done| done == other_idx)
                && joined
                && cast_sphere_sphere(position, ahead, grow, other.center, other.radius.max(0.0))
                    .is_some_and(|hit| hit.toi < 1.0 - 1e-4)
        });
        let Some((other_idx, other)) = next else { break };
        let Some(other_inward) = (other.center - position).try_normalize() else { break };
        let other_side = (chosen - other_inward * other_inward.dot(chosen)).try_normalize().unwrap_or(chosen);
        direction = tangent_direction(position, other, grow, other_side);
        if let Some(slot) = chained.get_mut(n_chained) {
            *slot = other_idx;
        }
        n_chained += 1;
    }
    let reach = obstacle.radius.max(0.0) + grow;
    let aim = position + direction * path_round(position, goal, &obstacle, reach).max(reach);
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

/// The length of the shortest way from `position` to `goal` round a circle of radius `reach`
/// about `obstacle`'s centre (in the plane of the three points): tangent, arc, tangent; a
/// point within the circle starts or ends on it.
fn path_round(position: Vec3, goal: Vec3, obstacle: &Sphere, reach: f32) -> f32 {
    let from = position - obstacle.center;
    let to = goal - obstacle.center;
    let (d_from, d_to) = (from.length(), to.length());
    let tangent = |d: f32| (d * d - reach * reach).max(0.0).sqrt();
    let wrap = |d: f32| if d > reach && d > 0.0 { (reach / d).clamp(-1.0, 1.0).acos() } else { 0.0 };
    let between = from.angle_between(to);
    let arc = (between - wrap(d_from) - wrap(d_to)).max(0.0) * reach;
    let length = tangent(d_from) + arc + tangent(d_to);
    if length.is_finite() {
        length.max(position.distance(goal))
    } else {
        position.distance(goal)
    }
}

/// The direction from `position` along the tangent to `obstacle` grown by `grow` (and
/// [`TANGENT_SLACK`]), on `side` (a unit vector across the line to its centre); `side` itself
/// inside that circle.
fn tangent_direction(position: Vec3, obstacle: &Sphere, grow: f32, side: Vec3) -> Vec3 {
    let reach = (obstacle.radius.max(0.0) + grow) * (1.0 + TANGENT_SLACK);
    let to_centre = obstacle.center - position;
    let distance = to_centre.length();
    let Some(inward) = to_centre.try_normalize() else { return side };
    if distance > reach {
        let sin = reach / distance;
        let cos = (1.0 - sin * sin).max(0.0).sqrt();
        inward * cos + side * sin
    } else {
        side
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
        let aim = detour_target(
            Vec3::ZERO,
            Vec3::ZERO,
            goal,
            10.0,
            6.0,
            &rocks,
            &mut DetourSide::default(),
            &mut Gizmos::disabled(),
        );
        assert_eq!(aim, goal);
    }

    #[test]
    fn a_goal_dead_behind_a_rock_is_aimed_at_along_the_tangent_of_the_grown_rock() {
        let rocks = [rock(100.0, 0.0, 34.0)];
        let goal = Vec3::new(200.0, 0.0, 0.0);
        let aim = detour_target(
            Vec3::ZERO,
            Vec3::ZERO,
            goal,
            10.0,
            6.0,
            &rocks,
            &mut DetourSide::default(),
            &mut Gizmos::disabled(),
        );
        // Grown radius 50 (and the slack) at distance 100: the tangent is 30° off the line, to
        // the left.
        let angle = aim.y.atan2(aim.x);
        let expected = (0.5 * (1.0 + TANGENT_SLACK)).asin();
        assert!((angle - expected).abs() < 1e-4, "{aim} ({angle} rad, {expected})");
        // As far as the way round: two tangents of √(100² − 50²) and an arc of 50 · (π − 2·π/3).
        let way = 2.0 * (100.0f32 * 100.0 - 50.0 * 50.0).sqrt() + 50.0 * std::f32::consts::FRAC_PI_3;
        assert!((aim.length() - way).abs() < 1e-2, "as far as the way round ({way}): {aim}");
    }

    #[test]
    fn an_agent_already_going_round_to_the_right_keeps_going_right() {
        let rocks = [rock(100.0, 0.0, 34.0)];
        // The goal is a little to the left, but the agent moves to the right.
        let goal = Vec3::new(200.0, 5.0, 0.0);
        let velocity = Vec3::new(20.0, -20.0, 0.0);
        let aim = detour_target(
            Vec3::ZERO,
            velocity,
            goal,
            10.0,
            6.0,
            &rocks,
            &mut DetourSide::default(),
            &mut Gizmos::disabled(),
        );
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
            &mut DetourSide::default(),
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
            &mut DetourSide::default(),
            &mut Gizmos::disabled(),
        );
        assert_eq!(centre_goal, Vec3::new(0.0, -54.0, 0.0), "the centre's rim point faces the agent");
    }

    #[test]
    fn the_committed_side_is_kept_while_the_goal_swings_to_the_other_side_until_the_way_is_clear() {
        let rocks = [rock(100.0, 0.0, 34.0)];
        let mut side = DetourSide::default();
        let aim = |goal: Vec3, side: &mut DetourSide| {
            detour_target(Vec3::ZERO, Vec3::ZERO, goal, 10.0, 6.0, &rocks, side, &mut Gizmos::disabled())
        };
        // The goal a little to the left: the agent at rest commits to the left.
        assert!(aim(Vec3::new(200.0, 5.0, 0.0), &mut side).y > 50.0);
        assert_eq!(side.obstacle(), Some(0));
        // The goal swings a little to the right: still left (a fresh agent would go right).
        assert!(aim(Vec3::new(200.0, -5.0, 0.0), &mut side).y > 50.0);
        assert!(aim(Vec3::new(200.0, -5.0, 0.0), &mut DetourSide::default()).y < -50.0);
        // The way is clear: the memory goes, and the goal is aimed at as it is.
        let clear = Vec3::new(0.0, -200.0, 0.0);
        assert_eq!(aim(clear, &mut side), clear);
        assert_eq!(side, DetourSide::default());
    }

    #[test]
    fn a_wall_of_rocks_too_close_to_pass_between_is_gone_round_as_one() {
        // Two rocks whose grown circles overlap (no gap the body fits through), the first dead
        // ahead, the second on the side the agent goes round.
        let rocks = [rock(100.0, 0.0, 30.0), rock(100.0, 60.0, 30.0)];
        let (radius, margin) = (6.0, 6.0);
        let aim = detour_target(
            Vec3::ZERO,
            Vec3::new(0.0, 1.0, 0.0) * 10.0,
            Vec3::new(250.0, 0.0, 0.0),
            radius,
            margin,
            &rocks,
            &mut DetourSide::default(),
            &mut Gizmos::disabled(),
        );
        // The aim clears both grown rocks: it passes above the second.
        for r in &rocks {
            let hit = cast_sphere_sphere(Vec3::ZERO, aim, radius + margin, r.center, r.radius);
            assert!(hit.is_none(), "the aim {aim} runs into the rock at {}", r.center);
        }
        assert!(aim.y > 0.0, "{aim}");
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
                position, Vec3::new(vx, vy, 0.0), Vec3::new(gx, gy, 0.0), 8.0, 6.0, &rocks, &mut DetourSide::default(), &mut Gizmos::disabled(),
            );
            prop_assert!(aim.is_finite());
        }
    }
}
