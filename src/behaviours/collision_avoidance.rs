//! Agent–agent collision avoidance (Reynolds' unaligned collision avoidance): predict the
//! closest approach of each pair and steer away from the first threat.
//!
//! # Motivation
//! Separation only reacts to agents that are already close; two agents crossing at speed meet
//! before separation has time to act. Predicting when and how near each neighbour will pass lets
//! an agent swerve early and only for real threats. OpenSteer's
//! `steerToAvoidNeighbors` (unaligned collision avoidance) and gdx-ai's `CollisionAvoidance`.
//!
//! # Implementation
//! For each neighbour, relative position `r = q − p` and velocity `u = v_q − v_p`; the time of
//! closest approach is `t = −(r·u)/|u|²` and the miss distance `|r + u·t|` (exact; gdx-ai
//! approximates it by `|r| − |u|·t`). A neighbour is a threat when `0 < t ≤ horizon` and the miss
//! distance is below `2 · radius + margin` (both agents taken as the agent's size, as gdx-ai and
//! OpenSteer do), or when it already overlaps. The earliest threat wins. The agent accelerates at
//! full `max_acceleration` away from where the threat will be relative to it at the closest
//! approach (`−(r + u·t)`), or away from where it is now when they already overlap or would pass
//! exactly through each other (then sideways, to the agent's right, so two agents meeting head-on
//! both turn right and pass). No threat: no steering.
//!
//! # Parameters
//! `horizon` (seconds ahead), `margin` (world units of extra clearance), plus the agent's radius
//! and `max_acceleration`; neighbours come from the spatial hash.

use super::neighbourhood::{forward, Neighbour, NeighbourSource};
use super::param::Param;
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of agent–agent collision avoidance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CollisionAvoidanceParams {
    /// Only approaches within this time ahead count (seconds, typically 0.5–3).
    pub horizon: f32,
    /// Extra clearance beyond touching (world units, typically 0–20).
    pub margin: f32,
}

/// How far ahead approaches count.
pub const HORIZON: Param = Param {
    kind: crate::behaviours::param::ParamKind::Float,
    key: "horizon",
    label: "horizon",
    unit: "s",
    min: 0.0,
    max: 10.0,
    default: 1.5,
    help: "Closest approaches further ahead than this are ignored.",
};
/// Extra clearance.
pub const MARGIN: Param = Param {
    kind: crate::behaviours::param::ParamKind::Float,
    key: "margin",
    label: "margin",
    unit: "u",
    min: 0.0,
    max: 200.0,
    default: 4.0,
    help: "Extra distance beyond touching that counts as a collision.",
};

impl CollisionAvoidanceParams {
    /// Declaration of `horizon`.
    pub const HORIZON: Param = HORIZON;
    /// Declaration of `margin`.
    pub const MARGIN: Param = MARGIN;
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[HORIZON, MARGIN];
}

impl Default for CollisionAvoidanceParams {
    fn default() -> Self {
        CollisionAvoidanceParams { horizon: HORIZON.default, margin: MARGIN.default }
    }
}

/// Collision avoidance against `neighbours`. Returns [`Steering::Acceleration`].
pub fn collision_avoidance(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &[Neighbour],
    p: &CollisionAvoidanceParams,
    gizmos: &mut Gizmos,
) -> Steering {
    collision_avoidance_from(k, limits, neighbours, p, f32::INFINITY, gizmos)
}

/// The distance within which a neighbour can become a threat: it must close the gap to
/// `2 · radius + margin` within `horizon` seconds, at most at the agent's speed plus
/// `fastest_other` (the fastest other agent's speed).
pub fn threat_radius(
    k: &Kinematics,
    limits: &Limits,
    p: &CollisionAvoidanceParams,
    fastest_other: f32,
) -> f32 {
    threat_radius_of(k.velocity, limits.radius, p, fastest_other)
}

/// [`threat_radius`] of an agent moving at `velocity` with body `radius`.
#[inline]
pub fn threat_radius_of(
    velocity: Vec3,
    radius: f32,
    p: &CollisionAvoidanceParams,
    fastest_other: f32,
) -> f32 {
    let reach = 2.0 * radius.max(0.0) + p.margin.max(0.0);
    let radius = reach + p.horizon.max(0.0) * (velocity.length() + fastest_other.max(0.0));
    if radius.is_nan() {
        0.0
    } else {
        radius
    }
}

/// [`collision_avoidance`] over any [`NeighbourSource`] (the world's spatial hash), asking it
/// for the neighbours within [`threat_radius`] given the fastest other agent's speed:
/// [`first_threat`], then [`avoid_threat`].
pub fn collision_avoidance_from<S: NeighbourSource + ?Sized>(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &S,
    p: &CollisionAvoidanceParams,
    fastest_other: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    let threat = first_threat(k, limits.radius, neighbours, p, fastest_other);
    avoid_threat(k, limits, p, threat, gizmos)
}

/// The earliest threat among the neighbours (see the module documentation): what
/// [`collision_avoidance_from`] steers away from. It reads only the agent's kinematics and body
/// radius, not its other limits, so the world can find every agent's threat before the step,
/// in the order its spatial hash keeps them, and steer each agent from its own later.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threat {
    /// Where the neighbour is now, relative to the agent.
    pub now: Vec3,
    /// Where it will be relative to the agent at their closest approach.
    pub at_closest: Vec3,
    /// When (seconds from now; 0 for a neighbour that already overlaps).
    pub t: f32,
}

/// The earliest threat among the neighbours within [`threat_radius`] of an agent of body
/// `radius` in state `k` (an overlapping one first of all; the first found among equals).
#[inline]
pub fn first_threat<S: NeighbourSource + ?Sized>(
    k: &Kinematics,
    radius: f32,
    neighbours: &S,
    p: &CollisionAvoidanceParams,
    fastest_other: f32,
) -> Option<Threat> {
    let mut search = ThreatSearch::new(radius, p);
    let query = threat_radius_of(k.velocity, radius, p, fastest_other);
    neighbours.for_each_near(k.position, query, |n| {
        search.offer(n.position - k.position, n.velocity - k.velocity, true);
    });
    search.threat()
}

/// The search of [`first_threat`] under way: the earliest threat among the neighbours offered
/// so far, in the order offered. The world's collision avoidance walk offers them beside its
/// crowd metrics' walk, in one walk over the grid.
#[derive(Clone, Copy, Debug)]
pub struct ThreatSearch {
    reach: f32,
    horizon: f32,
    earliest: f32,
    threat: Option<Threat>,
}

impl ThreatSearch {
    /// A search for an agent of body `radius` with parameters `p`, no neighbour offered yet.
    #[inline(always)]
    pub fn new(radius: f32, p: &CollisionAvoidanceParams) -> ThreatSearch {
        let reach = 2.0 * radius.max(0.0) + p.margin.max(0.0);
        ThreatSearch { reach, horizon: p.horizon, earliest: f32::INFINITY, threat: None }
    }

    /// A neighbour at `r` relative to the agent, moving at `u` relative to it; one with
    /// `counts` false changes nothing (the caller's own test, folded in without a branch).
    #[inline(always)]
    pub fn offer(&mut self, r: Vec3, u: Vec3, counts: bool) {
        if !r.is_finite() || !u.is_finite() {
            return;
        }
        // Every test worked out, then one branch on whether this neighbour is the new earliest
        // threat (rarely taken): branches on the tests themselves went either way in no
        // pattern a big crowd repeats (see `sim::neighbours::pick_within`). A neighbour already
        // overlapping is the most urgent threat of all (time 0, the first found among them);
        // one closing in is a threat when its closest approach, within the horizon and before
        // the earliest so far, overlaps. (`t` of a neighbour at rest relative to the agent is
        // worked out too, and never used: `closing` is false.) Measured gain: `World::step` at
        // 1,000 / 10,000 / 100,000 / 1,000,000 agents 876.5 / 953.5 / 985.5 / 1,014.1 -> 683.1
        // / 742.1 / 781.8 / 816.2 ns per agent-step (one thread, on-CPU, `examples/step_cpu
        // collision_avoidance`, idle, 2026-11-26); callgrind's branch simulation, 20,000
        // agents: 29 -> 17 mispredicted branches an agent-step. The tests below hold it to the
        // module's rules; `first_threat_is_the_plain_walk` to the walk with a branch a test.
        let reach = self.reach;
        let overlapping = r.length_squared() < reach * reach;
        let speed_sq = u.length_squared();
        let t = -r.dot(u) / speed_sq;
        let at_closest = r + u * t;
        let first_overlap = counts & overlapping & ((self.earliest > 0.0) | self.threat.is_none());
        let closing = counts
            & !overlapping
            & (speed_sq > 0.0)
            & (t > 0.0)
            & (t <= self.horizon)
            & (t < self.earliest)
            & (at_closest.length_squared() < reach * reach);
        if first_overlap | closing {
            let (at_closest, t) = if first_overlap { (r, 0.0) } else { (at_closest, t) };
            self.earliest = t;
            self.threat = Some(Threat { now: r, at_closest, t });
        }
    }

    /// The earliest threat offered (none: no threat).
    #[inline(always)]
    pub fn threat(self) -> Option<Threat> {
        self.threat
    }
}

/// The steering away from `threat` (none: no steering), at full `max_acceleration`, with its
/// gizmos.
#[inline]
pub fn avoid_threat(
    k: &Kinematics,
    limits: &Limits,
    p: &CollisionAvoidanceParams,
    threat: Option<Threat>,
    gizmos: &mut Gizmos,
) -> Steering {
    let Some(Threat { now, at_closest, t }) = threat else { return Steering::NONE };
    let reach = 2.0 * limits.radius.max(0.0) + p.margin.max(0.0);
    let fwd = forward(k);
    let right = Vec3::new(fwd.y, -fwd.x, 0.0);
    let mut away = (-at_closest).normalize_or_zero();
    if away == Vec3::ZERO {
        away = (-now).normalize_or_zero();
    }
    if away == Vec3::ZERO || at_closest.length_squared() < 1e-6 * reach * reach {
        // Passing straight through each other: swerve to the right.
        away = right;
    }
    let linear = away * limits.max_acceleration.max(0.0);
    if gizmos.is_enabled() {
        let me_then = k.position + k.velocity * t;
        gizmos.push(GizmoRole::Prediction, GizmoShape::Circle { center: me_then, radius: limits.radius });
        gizmos.push(GizmoRole::CastHit, GizmoShape::Point(me_then + at_closest));
        gizmos.push(GizmoRole::AvoidanceVector, GizmoShape::Arrow(k.position, k.position + linear * 0.25));
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use crate::behaviours::seek_acceleration;
    use crate::sim::integrate;
    use proptest::prelude::*;

    /// Two agents crossing toward each other's start (offset by `offset`), each seeking its goal,
    /// with or without collision avoidance; returns their closest distance.
    fn crossing(avoid: bool, offset: f32) -> f32 {
        let limits = Limits { radius: 8.0, max_speed: 100.0, max_acceleration: 400.0 };
        let mut a = Kinematics { position: Vec3::new(-200.0, 0.0, 0.0), ..Kinematics::default() };
        let mut b = Kinematics { position: Vec3::new(200.0, offset, 0.0), ..Kinematics::default() };
        let (goal_a, goal_b) = (Vec3::new(300.0, offset, 0.0), Vec3::new(-300.0, 0.0, 0.0));
        let p = CollisionAvoidanceParams::default();
        let mut closest = f32::INFINITY;
        for _ in 0..400 {
            closest = closest.min((a.position - b.position).length());
            let steer = |me: &Kinematics, other: &Kinematics, goal: Vec3| {
                let seek = seek_acceleration(me, &limits, goal);
                let n = [Neighbour { position: other.position, velocity: other.velocity }];
                match (avoid, collision_avoidance(me, &limits, &n, &p, &mut Gizmos::disabled())) {
                    (true, Steering::Acceleration(x)) if x != Vec3::ZERO => Steering::Acceleration(x),
                    _ => Steering::Acceleration(seek),
                }
            };
            let (sa, sb) = (steer(&a, &b, goal_a), steer(&b, &a, goal_b));
            integrate(&mut a, &limits, sa, 1.0 / 60.0);
            integrate(&mut b, &limits, sb, 1.0 / 60.0);
        }
        closest
    }

    #[test]
    fn agents_crossing_head_on_pass_without_touching_only_when_avoiding() {
        for offset in [0.0, 3.0, -6.0, 10.0] {
            assert!(crossing(false, offset) < 16.0, "without avoidance they meet (offset {offset})");
            let with = crossing(true, offset);
            assert!(with >= 16.0, "with avoidance closest {with} (offset {offset})");
        }
    }

    #[test]
    fn a_neighbour_that_will_miss_widely_or_is_moving_away_is_no_threat() {
        let k = Kinematics { velocity: Vec3::new(100.0, 0.0, 0.0), ..Kinematics::default() };
        let limits = Limits::default();
        let p = CollisionAvoidanceParams::default();
        let wide = Neighbour { position: Vec3::new(100.0, 60.0, 0.0), velocity: Vec3::new(-100.0, 0.0, 0.0) };
        let leaving =
            Neighbour { position: Vec3::new(-30.0, 0.0, 0.0), velocity: Vec3::new(-50.0, 0.0, 0.0) };
        let later =
            Neighbour { position: Vec3::new(1000.0, 0.0, 0.0), velocity: Vec3::new(-100.0, 0.0, 0.0) };
        assert_eq!(
            collision_avoidance(&k, &limits, &[wide, leaving, later], &p, &mut Gizmos::disabled()),
            Steering::NONE
        );
    }

    /// `first_threat` as it read before its tests lost their branches: the oracle.
    fn plain_first_threat(
        k: &Kinematics,
        radius: f32,
        neighbours: &[Neighbour],
        p: &CollisionAvoidanceParams,
    ) -> Option<Threat> {
        let reach = 2.0 * radius.max(0.0) + p.margin.max(0.0);
        let mut earliest = f32::INFINITY;
        let mut threat: Option<Threat> = None;
        for n in neighbours {
            let r = n.position - k.position;
            let u = n.velocity - k.velocity;
            if !r.is_finite() || !u.is_finite() {
                continue;
            }
            if r.length_squared() < reach * reach {
                if earliest > 0.0 || threat.is_none() {
                    earliest = 0.0;
                    threat = Some(Threat { now: r, at_closest: r, t: 0.0 });
                }
                continue;
            }
            let speed_sq = u.length_squared();
            if speed_sq <= 0.0 {
                continue;
            }
            let t = -r.dot(u) / speed_sq;
            if !(t > 0.0 && t <= p.horizon && t < earliest) {
                continue;
            }
            let at_closest = r + u * t;
            if at_closest.length_squared() < reach * reach {
                earliest = t;
                threat = Some(Threat { now: r, at_closest, t });
            }
        }
        threat
    }

    /// A threat's bits (NaN-proof equality).
    fn threat_bits(threat: Option<Threat>) -> Option<[u32; 7]> {
        threat.map(|t| {
            let [a, b, c] = t.now.to_array().map(f32::to_bits);
            let [d, e, f] = t.at_closest.to_array().map(f32::to_bits);
            [a, b, c, d, e, f, t.t.to_bits()]
        })
    }

    /// A coordinate on a coarse lattice (so that neighbours overlap, tie and sit still relative
    /// to the agent), now and then not finite.
    fn lattice() -> impl Strategy<Value = f32> {
        prop_oneof![
            8 => (-6i32..=6).prop_map(|i| i as f32 * 5.0),
            1 => -60.0f32..60.0,
            1 => prop_oneof![Just(f32::NAN), Just(f32::INFINITY), Just(1e30f32), Just(-1e30f32)],
        ]
    }

    fn lattice_vec() -> impl Strategy<Value = Vec3> {
        (lattice(), lattice()).prop_map(|(x, y)| Vec3::new(x, y, 0.0))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn first_threat_is_the_plain_walk(
            position in lattice_vec(),
            velocity in lattice_vec(),
            neighbours in proptest::collection::vec(
                (lattice_vec(), lattice_vec()).prop_map(|(position, velocity)| Neighbour { position, velocity }),
                0..16,
            ),
            radius in prop_oneof![Just(0.0f32), Just(2.5f32), 0.0f32..20.0],
            horizon in prop_oneof![Just(0.0f32), Just(1.0f32), 0.0f32..10.0],
            margin in prop_oneof![Just(0.0f32), 0.0f32..10.0],
        ) {
            let k = Kinematics { position, velocity, orientation: 0.0 };
            let p = CollisionAvoidanceParams { horizon, margin };
            let found = first_threat(&k, radius, &neighbours[..], &p, 0.0);
            prop_assert_eq!(threat_bits(found), threat_bits(plain_first_threat(&k, radius, &neighbours, &p)));
        }
    }

    #[test]
    fn an_overlapping_neighbour_outranks_an_earlier_found_closing_one_and_the_first_of_equals_wins() {
        let k = Kinematics { velocity: Vec3::new(10.0, 0.0, 0.0), ..Kinematics::default() };
        let p = CollisionAvoidanceParams { horizon: 5.0, margin: 0.0 };
        let closing = Neighbour { position: Vec3::new(50.0, 0.0, 0.0), velocity: Vec3::ZERO };
        let overlapping = Neighbour { position: Vec3::new(0.0, 1.0, 0.0), velocity: Vec3::ZERO };
        let also_overlapping = Neighbour { position: Vec3::new(0.0, -1.0, 0.0), velocity: Vec3::ZERO };
        let at_rest_relative = Neighbour { position: Vec3::new(20.0, 0.0, 0.0), velocity: k.velocity };
        let threat =
            first_threat(&k, 2.0, &[at_rest_relative, closing, overlapping, also_overlapping][..], &p, 0.0);
        assert_eq!(
            threat,
            Some(Threat { now: overlapping.position, at_closest: overlapping.position, t: 0.0 })
        );
        let threat = first_threat(&k, 2.0, &[at_rest_relative, closing][..], &p, 0.0);
        assert_eq!(threat.map(|t| t.t), Some(5.0));
        // Two closing at the same time, mirrored: the first found is the threat.
        let above = Neighbour { position: Vec3::new(50.0, 1.0, 0.0), velocity: Vec3::ZERO };
        let below = Neighbour { position: Vec3::new(50.0, -1.0, 0.0), velocity: Vec3::ZERO };
        for (first, second) in [(above, below), (below, above)] {
            let threat = first_threat(&k, 2.0, &[first, second][..], &p, 0.0);
            assert_eq!(threat.map(|t| (t.now, t.t)), Some((first.position, 5.0)));
        }
        assert_eq!(first_threat(&k, 2.0, &[at_rest_relative][..], &p, 0.0), None);
    }

    proptest! {
        #[test]
        fn collision_avoidance_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), neighbours in testing::neighbours(),
            horizon in 0.0f32..10.0, margin in 0.0f32..200.0,
        ) {
            let p = CollisionAvoidanceParams { horizon, margin };
            let s = collision_avoidance(&k, &limits, &neighbours, &p, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
