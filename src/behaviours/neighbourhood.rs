//! What the group behaviours (separation, alignment, cohesion, collision avoidance) read about
//! other agents, and who counts as a neighbour: within a radius and inside a view cone.
//!
//! # Motivation
//! Reynolds' boids react only to flockmates they can perceive: near enough, and not straight
//! behind (OpenSteer's `inBoidNeighborhood`, gdx-ai's `Proximity`, Yuka's `neighborhoodRadius`).
//! The view cone is what makes a column of boids follow its head instead of milling.
//!
//! # Implementation
//! A [`Neighbour`] is plain data (position and velocity) gathered by the caller, normally from
//! the spatial hash in `sim::neighbours`; the behaviours stay pure functions of slices.
//! [`in_view`] accepts another agent at distance `0 < d ≤ radius` whose direction makes an angle
//! of at most `view_angle / 2` with the agent's forward direction (its velocity, or its heading
//! when it stands still). A neighbour on the very same point has no direction and is ignored.
//!
//! # Parameters
//! `radius` (world units) and `view_angle` (radians, the full cone: 2π sees all around), declared
//! by each behaviour that uses them.

use super::param::Param;
use super::Kinematics;
use glam::Vec3;

/// Another agent as a group behaviour sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Neighbour {
    /// Its position in world units.
    pub position: Vec3,
    /// Its velocity in world units per second.
    pub velocity: Vec3,
}

/// Where a group behaviour reads its neighbours from: a slice (unit tests, benchmarks) or the
/// world's spatial hash (`sim`), which passes only the agents near the query point and never
/// the asking agent itself.
pub trait NeighbourSource {
    /// Calls `visit` with every other agent that may be within `radius` of `point`. A source
    /// may pass more (a slice passes all); the behaviours test the exact distance themselves.
    fn for_each_near(&self, point: Vec3, radius: f32, visit: impl FnMut(&Neighbour));

    /// [`Self::for_each_near`], each neighbour with its unit heading
    /// (`velocity.normalize_or_zero()`, what alignment averages). A source that keeps the
    /// headings of a step (computed once per agent instead of once per agent that sees it)
    /// passes them; the default computes them, bit for bit the same.
    #[inline]
    fn for_each_near_with_heading(&self, point: Vec3, radius: f32, mut visit: impl FnMut(&Neighbour, Vec3)) {
        self.for_each_near(point, radius, |n| visit(n, n.velocity.normalize_or_zero()));
    }
}

/// A flock kept in arrays in a spatial index's slot order, read run by run: the index hands
/// over the runs of slots that may hold the agents within `radius` of `point` (the world's
/// `NeighbourGrid`: rows of cells), and the caller tests the exact distance over the slots of
/// each run. What [`flocking_over_runs`](super::flocking::flocking_over_runs) walks.
pub trait SlotRuns {
    /// Calls `visit` with each run of slots that may hold an agent within `radius` of `point`,
    /// in ascending slot order within a run; no slot in two runs.
    fn for_each_run(&self, point: Vec3, radius: f32, visit: impl FnMut(std::ops::Range<usize>));
}

impl NeighbourSource for [Neighbour] {
    #[inline]
    fn for_each_near(&self, _point: Vec3, _radius: f32, visit: impl FnMut(&Neighbour)) {
        self.iter().for_each(visit);
    }
}

/// The neighbourhood radius declaration shared in shape by the group behaviours.
pub const fn radius_param(default: f32, help: &'static str) -> Param {
    Param {
        kind: crate::behaviours::param::ParamKind::Float,
        key: "radius",
        label: "neighbour radius",
        unit: "u",
        min: 0.0,
        max: 1000.0,
        default,
        help,
    }
}

/// The view-angle declaration shared in shape by the group behaviours.
pub const VIEW_ANGLE: Param = Param {
    kind: crate::behaviours::param::ParamKind::Float,
    key: "view_angle",
    label: "view angle",
    unit: "rad",
    min: 0.0,
    max: std::f32::consts::TAU,
    default: 4.18879,
    help: "Full angle of the cone in which neighbours are seen (2π sees all around).",
};

/// The agent's forward direction: its velocity, or its heading when it is at rest.
#[inline]
pub fn forward(k: &Kinematics) -> Vec3 {
    super::vector::facing(k.velocity, k.orientation)
}

/// A neighbourhood test prepared once per agent: its position, forward direction, radius and
/// the cosine of half the view angle.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The agent's position.
    pub position: Vec3,
    /// Its unit forward direction.
    pub forward: Vec3,
    /// The neighbourhood radius.
    pub radius: f32,
    /// `cos(view_angle / 2)`; −1 or less sees all around.
    pub cos_half_angle: f32,
}

impl View {
    /// The view of agent `k` with `radius` and full `view_angle` (radians).
    #[inline]
    pub fn new(k: &Kinematics, radius: f32, view_angle: f32) -> View {
        View::with_forward(k.position, forward(k), radius, view_angle)
    }

    /// The view from `position` looking along the unit vector `forward` (when the caller has
    /// already computed the forward direction).
    #[inline]
    pub fn with_forward(position: Vec3, forward: Vec3, radius: f32, view_angle: f32) -> View {
        View { position, forward, radius: radius.max(0.0), cos_half_angle: cos_half_angle(view_angle) }
    }

    /// The offset to `other` and its length if `other` is a neighbour, else `None`.
    #[inline]
    pub fn sees(&self, other: Vec3) -> Option<(Vec3, f32)> {
        let offset = other - self.position;
        let d2 = offset.length_squared();
        if !(d2 > 0.0 && d2 <= self.radius * self.radius) {
            return None;
        }
        let d = d2.sqrt();
        if self.cos_half_angle > -1.0 && offset.dot(self.forward) < self.cos_half_angle * d {
            return None;
        }
        Some((offset, d))
    }
}

/// `cos(view_angle / 2)`, or −2 for a cone that sees all around ([`View::cos_half_angle`]).
#[inline]
pub fn cos_half_angle(view_angle: f32) -> f32 {
    if view_angle >= std::f32::consts::TAU - 1e-6 {
        -2.0
    } else {
        (0.5 * view_angle.max(0.0)).cos()
    }
}

/// Whether `other` is a neighbour of `k` (see the module notes).
pub fn in_view(k: &Kinematics, other: Vec3, radius: f32, view_angle: f32) -> bool {
    View::new(k, radius, view_angle).sees(other).is_some()
}

#[cfg(test)]
pub(crate) mod testing {
    //! Strategies shared by the behaviours' property tests.
    use super::*;
    use crate::behaviours::Limits;
    use proptest::prelude::*;

    /// A finite vector in a box of half-width `half` (z kept small, as in 2D scenes).
    pub fn vec3(half: f32) -> impl Strategy<Value = Vec3> {
        (-half..half, -half..half, -half * 0.01..half * 0.01 + 1e-6).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// Any agent state, including standing still and sitting on others.
    pub fn kinematics() -> impl Strategy<Value = Kinematics> {
        (vec3(500.0), prop_oneof![Just(Vec3::ZERO), vec3(400.0)], -4.0f32..4.0)
            .prop_map(|(position, velocity, orientation)| Kinematics { position, velocity, orientation })
    }

    /// Limits from tiny to large, zero acceleration and speed included.
    pub fn limits() -> impl Strategy<Value = Limits> {
        (0.0f32..30.0, prop_oneof![Just(0.0f32), 0.0f32..500.0], prop_oneof![Just(0.0f32), 0.0f32..2000.0])
            .prop_map(|(radius, max_speed, max_acceleration)| Limits { radius, max_speed, max_acceleration })
    }

    /// Up to 12 neighbours, some possibly on the agent's own point.
    pub fn neighbours() -> impl Strategy<Value = Vec<Neighbour>> {
        proptest::collection::vec(
            (vec3(500.0), vec3(400.0)).prop_map(|(position, velocity)| Neighbour { position, velocity }),
            0..12,
        )
    }

    /// Whether an acceleration request is finite and within the agent's limit (with rounding).
    pub fn within_acceleration(steering: crate::behaviours::Steering, limits: &Limits) -> bool {
        match steering {
            crate::behaviours::Steering::Acceleration(a) => {
                a.is_finite() && a.length() <= limits.max_acceleration * (1.0 + 1e-5) + 1e-4
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_cone_rejects_behind_and_beyond_radius_and_the_same_point() {
        let k = Kinematics { position: Vec3::ZERO, velocity: Vec3::new(10.0, 0.0, 0.0), orientation: 0.0 };
        let cone = std::f32::consts::FRAC_PI_2; // ±45°
        assert!(in_view(&k, Vec3::new(5.0, 1.0, 0.0), 10.0, cone));
        assert!(!in_view(&k, Vec3::new(5.0, 6.0, 0.0), 10.0, cone));
        assert!(!in_view(&k, Vec3::new(-5.0, 0.0, 0.0), 10.0, cone));
        assert!(in_view(&k, Vec3::new(-5.0, 0.0, 0.0), 10.0, std::f32::consts::TAU));
        assert!(!in_view(&k, Vec3::new(11.0, 0.0, 0.0), 10.0, cone));
        assert!(!in_view(&k, Vec3::ZERO, 10.0, std::f32::consts::TAU));
        // At rest, the heading is forward.
        let still = Kinematics { orientation: std::f32::consts::PI, ..Kinematics::default() };
        assert!(in_view(&still, Vec3::new(-5.0, 0.0, 0.0), 10.0, cone));
    }
}
