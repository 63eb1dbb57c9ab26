//! Wander (Reynolds 1999): a random walk that stays smooth, from a target jittered around a
//! circle ahead of the agent.
//!
//! # Motivation
//! Picking a random direction each step makes an agent twitch; Reynolds keeps a target on a
//! circle projected in front of the agent and moves it by a small random displacement each step,
//! so the heading drifts smoothly. OpenSteer's `steerForWander`, Yuka's `WanderBehavior`,
//! gdx-ai's `Wander` (which uses an angle on the circle instead of a point).
//!
//! # Implementation
//! [`WanderState`] holds the target as a unit vector on the circle in the agent's local frame
//! (x forward, y to the left) and a small seeded generator (splitmix64) — one per agent, no
//! global randomness, so a run is repeatable bit for bit from the agent's seed. Each step the
//! target moves by a random vector of at most `jitter · dt` world units per axis (Yuka's
//! convention: jitter is a rate, so the walk does not depend on the step size), is put back on
//! the circle, and the circle is placed `distance` ahead. The agent seeks the resulting world
//! point at full speed over `STEER_TIME`, clamped to `max_acceleration`. The local frame comes
//! from the velocity, or the heading when the agent is at rest.
//!
//! # Parameters
//! `radius` (world units), `distance` (world units ahead of the agent), `jitter` (world units per
//! second), and the per-agent seed.

use super::param::Param;
use super::vector::{facing, SteerVector};
use super::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of wander.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WanderParams {
    /// Radius of the wander circle (world units, typically 10–80).
    pub radius: f32,
    /// Distance of the circle's centre ahead of the agent (world units, typically 20–150).
    pub distance: f32,
    /// How fast the target moves on the circle (world units per second, typically 50–400).
    pub jitter: f32,
    /// The agent's own seed for its generator (any whole number 0–16,777,215): the same seed
    /// walks the same way, so agents with different seeds fan out.
    pub seed: u32,
}

/// Radius of the wander circle.
pub const RADIUS: Param = Param {
    kind: crate::behaviours::param::ParamKind::Float,
    key: "radius",
    label: "wander radius",
    unit: "u",
    min: 0.0,
    max: 1000.0,
    default: 30.0,
    help: "Radius of the circle ahead of the agent on which the wander target moves.",
};
/// Distance of the circle ahead.
pub const DISTANCE: Param = Param {
    kind: crate::behaviours::param::ParamKind::Float,
    key: "distance",
    label: "wander distance",
    unit: "u",
    min: 0.0,
    max: 1000.0,
    default: 60.0,
    help: "How far ahead of the agent the wander circle's centre lies.",
};
/// Jitter rate.
pub const JITTER: Param = Param {
    kind: crate::behaviours::param::ParamKind::Float,
    key: "jitter",
    label: "jitter",
    unit: "u/s",
    min: 0.0,
    max: 10_000.0,
    default: 200.0,
    help: "Largest random displacement of the target per second, per axis.",
};

/// The per-agent seed (a count: exact in f32 up to 2^24 − 1, like the planner's `fire_seed`).
pub const SEED: Param = Param {
    kind: crate::behaviours::param::ParamKind::Int,
    key: "seed",
    label: "seed",
    unit: "",
    min: 0.0,
    max: 16_777_215.0,
    default: 1.0,
    help: "The agent's own random seed: the same seed wanders the same way, bit for bit.",
};

impl WanderParams {
    /// Declaration of `radius`.
    pub const RADIUS: Param = RADIUS;
    /// Declaration of `distance`.
    pub const DISTANCE: Param = DISTANCE;
    /// Declaration of `jitter`.
    pub const JITTER: Param = JITTER;
    /// Declaration of `seed`.
    pub const SEED: Param = SEED;
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[RADIUS, DISTANCE, JITTER, SEED];
}

impl Default for WanderParams {
    fn default() -> Self {
        WanderParams {
            radius: RADIUS.default,
            distance: DISTANCE.default,
            jitter: JITTER.default,
            seed: SEED.default_u32(),
        }
    }
}

/// A small seeded generator (splitmix64): the only randomness an agent has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeededRng(u64);

impl SeededRng {
    /// A generator from `seed` (any value, zero included).
    pub fn new(seed: u64) -> Self {
        SeededRng(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in [−1, 1).
    #[inline]
    pub fn next_signed(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (2.0 / (1u64 << 24) as f32) - 1.0
    }

    /// Two independent uniform numbers in [−1, 1) from one draw (24 bits each).
    #[inline]
    pub fn next_signed_pair(&mut self) -> (f32, f32) {
        let bits = self.next_u64();
        let scale = 2.0 / (1u64 << 24) as f32;
        ((bits >> 40) as f32 * scale - 1.0, ((bits >> 8) & 0xFF_FFFF) as f32 * scale - 1.0)
    }
}

/// A wandering agent's memory: its generator and its target on the circle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WanderState {
    /// The generator.
    pub rng: SeededRng,
    /// The target on the circle in the local frame (x forward, y left), unit length.
    pub target: Vec3,
}

impl WanderState {
    /// The state of an agent with `seed`: the target starts at a seeded point on the circle.
    pub fn new(seed: u64) -> Self {
        let mut rng = SeededRng::new(seed);
        let angle = rng.next_signed() * std::f32::consts::PI;
        WanderState { rng, target: Vec3::new(angle.cos(), angle.sin(), 0.0) }
    }
}

impl Default for WanderState {
    fn default() -> Self {
        WanderState::new(0)
    }
}

/// Wander for one step of `dt` seconds: moves the target in `state` and returns
/// [`Steering::Acceleration`] toward it.
#[inline(always)]
pub fn wander(
    k: &Kinematics,
    limits: &Limits,
    state: &mut WanderState,
    p: &WanderParams,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    let aim = wander_aim(k.position, k.velocity, facing(k.velocity, k.orientation), limits, state, p, dt);
    if gizmos.is_enabled() {
        let radius = p.radius.max(0.0);
        gizmos.push(GizmoRole::WanderCircle, GizmoShape::Circle { center: aim.centre, radius });
        gizmos.push(GizmoRole::Target, GizmoShape::Point(aim.target));
        gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(k.position, k.position + aim.desired));
    }
    Steering::Acceleration(aim.linear)
}

/// What one step of wander chose: the circle's centre, the target on it, the desired velocity
/// and the acceleration (finite, zero otherwise).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WanderAim<V> {
    /// Centre of the wander circle.
    pub centre: V,
    /// The target on the circle.
    pub target: V,
    /// Full speed toward the target.
    pub desired: V,
    /// The acceleration toward the desired velocity.
    pub linear: V,
}

/// [`wander`]'s arithmetic for an agent at `position` moving at `velocity` and facing `fwd`
/// (its [`facing`], which a caller that has it already passes on), in 3D or in a plane (the planar flocking benchmark; the same `x` and `y` bit for bit, see
/// [`super::vector`]).
#[inline(always)]
pub fn wander_aim<V: SteerVector>(
    position: V,
    velocity: V,
    fwd: V,
    limits: &Limits,
    state: &mut WanderState,
    p: &WanderParams,
    dt: f32,
) -> WanderAim<V> {
    let draw = state.rng.next_signed_pair();
    let (aim, moved) = wander_aim_drawn(
        position,
        velocity,
        fwd,
        limits,
        V::from_xy(state.target.x, state.target.y),
        draw,
        p,
        dt,
    );
    state.target = Vec3::new(moved.x(), moved.y(), 0.0);
    aim
}

/// [`wander_aim`] with the generator's draw (`next_signed_pair`) already made and the circle's
/// target (`state.target`'s x and y) passed in: the aim, and the moved target to store back.
/// Split out so that a caller can draw for many agents first and aim them together (the
/// flocking benchmark's tails, eight boids in lanes: `flocking::lanes`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn wander_aim_drawn<V: SteerVector>(
    position: V,
    velocity: V,
    fwd: V,
    limits: &Limits,
    target: V,
    draw: (f32, f32),
    p: &WanderParams,
    dt: f32,
) -> (WanderAim<V>, V) {
    let radius = p.radius.max(0.0);
    let step = if radius > 0.0 { (p.jitter.max(0.0) * dt.max(0.0)) / radius } else { 0.0 };
    let (jx, jy) = draw;
    let jitter = V::from_xy(jx, jy) * step;
    let moved = (target + jitter).normalize_or_zero();
    let moved = if moved == V::ZERO || !moved.is_finite() { V::from_xy(1.0, 0.0) } else { moved };
    let left = V::from_xy(-fwd.y(), fwd.x()).normalize_or_zero();
    let centre = position + fwd * p.distance.max(0.0);
    let target = centre + (fwd * moved.x() + left * moved.y()) * radius;
    let desired = (target - position).normalize_or_zero() * limits.max_speed.max(0.0);
    let linear = accelerate_toward_velocity(velocity, desired, STEER_TIME, limits.max_acceleration);
    (WanderAim { centre, target, desired, linear: if linear.is_finite() { linear } else { V::ZERO } }, moved)
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use crate::sim::integrate;
    use proptest::prelude::*;

    fn walk(seed: u64, steps: usize) -> Vec<Kinematics> {
        let limits = Limits::default();
        let mut k = Kinematics { velocity: Vec3::new(100.0, 0.0, 0.0), ..Kinematics::default() };
        let mut state = WanderState::new(seed);
        (0..steps)
            .map(|_| {
                let s = wander(
                    &k,
                    &limits,
                    &mut state,
                    &WanderParams::default(),
                    1.0 / 60.0,
                    &mut Gizmos::disabled(),
                );
                integrate(&mut k, &limits, s, 1.0 / 60.0);
                k
            })
            .collect()
    }

    #[test]
    fn wander_is_repeatable_from_its_seed_and_differs_between_seeds() {
        assert_eq!(walk(7, 600), walk(7, 600));
        assert_ne!(walk(7, 600), walk(8, 600));
    }

    #[test]
    fn wander_turns_smoothly_but_does_wander() {
        let path = walk(42, 1200);
        let headings: Vec<f32> = path.iter().map(|k| k.velocity.y.atan2(k.velocity.x)).collect();
        let mut max_turn = 0.0f32;
        let mut total_turn = 0.0f32;
        for w in headings.windows(2) {
            let mut d = w[1] - w[0];
            if d > std::f32::consts::PI {
                d -= std::f32::consts::TAU;
            } else if d < -std::f32::consts::PI {
                d += std::f32::consts::TAU;
            }
            max_turn = max_turn.max(d.abs());
            total_turn += d.abs();
        }
        // Never a twitch (max acceleration / speed bounds the turn rate: 400/150 rad/s ≈ 0.045 rad
        // per step), yet it turns more than a full circle's worth over 20 s.
        assert!(max_turn < 0.06, "max turn per step {max_turn}");
        assert!(total_turn > std::f32::consts::TAU, "total turn {total_turn}");
        // Keeps moving at close to full speed.
        assert!(path.iter().skip(60).all(|k| k.velocity.length() > 100.0));
    }

    #[test]
    fn the_target_stays_on_the_unit_circle() {
        let mut state = WanderState::new(3);
        let k = Kinematics::default();
        for _ in 0..1000 {
            let _ = wander(
                &k,
                &Limits::default(),
                &mut state,
                &WanderParams::default(),
                0.1,
                &mut Gizmos::disabled(),
            );
            assert!((state.target.length() - 1.0).abs() < 1e-5);
        }
    }

    proptest! {
        #[test]
        fn wander_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), seed in any::<u64>(),
            radius in 0.0f32..1000.0, distance in 0.0f32..1000.0, jitter in 0.0f32..10_000.0, dt in 0.0f32..1.0,
        ) {
            let mut state = WanderState::new(seed);
            let p = WanderParams { radius, distance, jitter, seed: 0 };
            for _ in 0..5 {
                let s = wander(&k, &limits, &mut state, &p, dt, &mut Gizmos::recording());
                prop_assert!(testing::within_acceleration(s, &limits));
                prop_assert!(state.target.is_finite());
            }
        }
    }
}
