//! Steering behaviours, one file each, as pure functions of an agent's kinematic state and a
//! plain-data parameter struct. They return a [`Steering`] request and push [`Gizmo`]s that
//! explain themselves (drawn by the window; colours are chosen only in `render`).
//!
//! The simulation (`sim`) applies the request within the agent's limits:
//! - [`Steering::Velocity`] is kinematic (seed 001): the velocity is set at once.
//! - [`Steering::Acceleration`] is dynamic: clamped to max acceleration, integrated, then the
//!   speed is clamped to max speed.
//! - [`Steering::Position`] moves the agent onto a point (parametric curve following, seed 000);
//!   its velocity becomes the displacement over `dt`.
//!
//! An agent holds a list of behaviours (its main one, `sim::Agent::behaviour`, then
//! `sim::Mix::more`), combined by weighted blending or by priority groups (`sim::mix`).
//! Every parameter is declared once ([`param::Param`], `PARAMS` beside its struct).
//!
//! # How to add a behaviour
//! 1. **Kernel**: `src/behaviours/NAME.rs` with the three-heading `//!` doc (Motivation,
//!    Implementation, Parameters), a plain-data `NameParams` with `pub const X: Param` per
//!    field and `pub const PARAMS: &'static [Param]` in field order, `Default` reading the
//!    declarations, and a pure `fn name(k: &Kinematics, limits: &Limits, …, p: &NameParams,
//!    gizmos: &mut Gizmos) -> Steering`. Add the group to [`param::all_params`].
//! 2. **Simulation** (`src/sim/mod.rs`): a `Behaviour` variant (references as indices:
//!    `target: usize`, `agent: usize`, `path: usize`), its `type_name`, `reads_other_agents`
//!    (true for pursuit, flocking …: the step then fills `StepContext::agents`, a snapshot of
//!    every agent's kinematics taken before anyone moves), `BehaviourState::start` (a state
//!    variant if it has memory, e.g. wander's generator), and an arm in `behaviour_steering`.
//!    Keep per-agent data small and `World`'s internals private.
//! 3. **Scene form** (`src/scene/format.rs`): a `BehaviourSpec` variant with its own
//!    `NameSpec` struct (`deny_unknown_fields`; defaults from `NameParams::X.default` through
//!    the `defaults!` list), the type name in `BEHAVIOUR_TYPES` and an arm in
//!    `BehaviourSpec::read_variant`; `validate.rs`: `param(&at("key"), &NameParams::KEY, value)` per
//!    field and reference checks; `convert.rs`: arms in `behaviour` and `behaviour_spec`.
//! 4. **Panel** (`src/ui/params.rs`): arms in `behaviour_params` (one `row(&NameParams::X, …)`
//!    per field, destructured without `..`), `with_param` and `with_reference`;
//!    `src/app/edit.rs`: a `BehaviourKind` (in `ALL` if it can be an agent's main behaviour),
//!    `default_behaviour`, `behaviour_is_valid`, `compare`. The list editor offers every kind.
//! 5. **Gizmos**: new [`GizmoRole`] variants here, their colours only in `render/style.rs`.
//! 6. **Tests**: a unit test of the defining property, a proptest that it never gives NaN or
//!    exceeds the limits; add an agent with it to `tests/all/scene_fixtures` (FULL_SCENE) so
//!    the declared-parameter tests (`tests/all/params_declared.rs`) cover it; regenerate the
//!    README table with `README_BLESS=1 cargo test --release --test all the_readme_parameter`.

use glam::Vec3;
use param::{Param, ParamKind};
use serde::{Deserialize, Serialize};

pub mod arrive;
pub mod avoid;
pub mod branchless;
pub mod kinematic;
pub mod param;
pub mod parametric;
pub mod predictive;
pub mod projected;
pub mod waypoints;

// The classic behaviours (issue 10 §2), one file each.
pub mod alignment;
pub mod cohesion;
pub mod collision_avoidance;
pub mod containment;
pub mod detour;
pub mod evade;
pub mod face;
pub mod flocking;
pub mod flow_field;
pub mod hide;
pub mod interpose;
pub mod leader_following;
pub mod neighbourhood;
pub mod offset_pursuit;
pub mod pursuit;
pub mod separation;
pub mod vector;
pub mod wander;

pub use arrive::ArriveParams;
pub use avoid::AvoidParams;
pub use collision_avoidance::CollisionAvoidanceParams;
pub use containment::ContainmentParams;
pub use face::FaceParams;
pub use flocking::FlockingParams;
pub use flow_field::FlowFieldParams;
pub use hide::HideParams;
pub use interpose::InterposeParams;
pub use leader_following::LeaderFollowingParams;
pub use offset_pursuit::OffsetPursuitParams;
pub use parametric::{ParametricMethod, ParametricParams, ParametricState};
pub use predictive::{PredictiveParams, PredictiveState};
pub use projected::{ProjectedParams, ProjectedState};
pub use pursuit::PursuitParams;
pub use wander::{WanderParams, WanderState};
pub use waypoints::{WaypointsParams, WaypointsState};

/// Position, velocity and heading of an agent: what a behaviour reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Kinematics {
    /// Position in world units.
    pub position: Vec3,
    /// Velocity in world units per second.
    pub velocity: Vec3,
    /// Heading in radians in the x-y plane from +x, counter-clockwise (`atan2(v.y, v.x)`).
    pub orientation: f32,
}

/// The physical limits of an agent.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Body radius in world units (collisions and casts), typically 4–20.
    pub radius: f32,
    /// Maximum speed in world units per second, typically 50–300.
    pub max_speed: f32,
    /// Maximum acceleration in world units per second squared, typically 100–1000.
    pub max_acceleration: f32,
}

impl Limits {
    /// Declaration of the agent's `radius`.
    pub const RADIUS: Param = Param {
        key: "radius",
        label: "radius",
        unit: "u",
        min: 0.5,
        max: 500.0,
        default: 8.0,
        help: "Body radius, for collisions and casts.",
        kind: ParamKind::Float,
    };
    /// Declaration of the agent's `max_speed`.
    pub const MAX_SPEED: Param = Param {
        key: "max_speed",
        label: "max speed",
        unit: "u/s",
        min: 0.0,
        max: 5000.0,
        default: 150.0,
        help: "Maximum speed.",
        kind: ParamKind::Float,
    };
    /// Declaration of the agent's `max_acceleration`.
    pub const MAX_ACCELERATION: Param = Param {
        key: "max_acceleration",
        label: "max acceleration",
        unit: "u/s²",
        min: 0.0,
        max: 50000.0,
        default: 400.0,
        help: "Maximum acceleration (dynamic behaviours and avoidance).",
        kind: ParamKind::Float,
    };
    /// Every limit, in field order.
    pub const PARAMS: &'static [Param] = &[Self::RADIUS, Self::MAX_SPEED, Self::MAX_ACCELERATION];
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            radius: Self::RADIUS.default,
            max_speed: Self::MAX_SPEED.default,
            max_acceleration: Self::MAX_ACCELERATION.default,
        }
    }
}

/// What a behaviour asks the simulation to do this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Steering {
    /// Kinematic: set the velocity directly (clamped to max speed).
    Velocity(Vec3),
    /// Dynamic: linear acceleration in units/s² (clamped to max acceleration).
    Acceleration(Vec3),
    /// Move straight onto this point (parametric following); velocity = displacement / dt.
    Position(Vec3),
}

impl Steering {
    /// No steering: zero acceleration, the agent keeps its velocity.
    pub const NONE: Steering = Steering::Acceleration(Vec3::ZERO);
}

/// Time over which dynamic path followers try to reach their desired velocity, in seconds.
/// Same role as arrive's `time_to_target` (seed 001).
pub const STEER_TIME: f32 = 0.1;

/// Acceleration that changes `velocity` into `desired` over `time_to_target`, clamped to
/// `max_acceleration` (the last half of seed 001's dynamic arrive, shared by the path followers).
///
/// Always inlined: out of line in `World::step`'s steering pass, the call cost more than its
/// arithmetic (with `Observation::made_for` inlined too, 1,175 -> 1,157 instructions per
/// agent-step of predictive following, callgrind).
#[inline(always)]
pub fn accelerate_toward_velocity<V: vector::SteerVector>(
    velocity: V,
    desired: V,
    time_to_target: f32,
    max_acceleration: f32,
) -> V {
    let time = time_to_target.max(1e-4);
    ((desired - velocity) / time).clamp_length_max(max_acceleration.max(0.0))
}

/// Dynamic seek toward a point at full speed: the steering the path followers use once they
/// have chosen their target point.
pub fn seek_acceleration(k: &Kinematics, limits: &Limits, target: Vec3) -> Vec3 {
    let desired = (target - k.position).normalize_or_zero() * limits.max_speed;
    accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration)
}

/// What a gizmo shows; `render` picks the colour and style from the role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GizmoRole {
    /// The point the behaviour steers toward.
    Target,
    /// The agent's (or predicted point's) projection onto the path.
    Projection,
    /// Where the agent will be after the prediction time.
    Prediction,
    /// The velocity the behaviour wants.
    DesiredVelocity,
    /// The steering acceleration actually requested.
    SteeringForce,
    /// The current path segment the behaviour works on.
    CurrentSegment,
    /// A waypoint node's arrival radius.
    NodeRadius,
    /// Arrive's target radius (stop inside).
    TargetRadius,
    /// Arrive's slow radius (start braking inside).
    SlowRadius,
    /// Predictive following's channel half-width around the path.
    PathRadius,
    /// The parametric tangent F'(T) (scaled) at the agent.
    Tangent,
    /// A value to print next to a point (the parametric T).
    ParameterValue,
    /// An obstacle-avoidance probe (the swept segment tested).
    Probe,
    /// Where a cast hit an obstacle.
    CastHit,
    /// The avoidance vector from a hit point to the avoidance point.
    AvoidanceVector,
    /// A disturbance that knocked the agent off course (the planner ship's incoming fire).
    Disturbance,
    /// A leg of the planner's route that came from the complete fallback search.
    FallbackSegment,
    /// The radius within which a group behaviour sees its neighbours.
    NeighbourRadius,
    /// A line from an agent to a neighbour it reacts to.
    NeighbourLink,
    /// Wander's circle ahead of the agent.
    WanderCircle,
    /// A region's boundary or a hiding obstacle the behaviour reacts to.
    Boundary,
    /// A sampled vector of a flow field.
    FlowVector,
    /// Face: the heading the agent turns toward (a line) and its current heading (an arrow).
    Heading,
}

/// A shape in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GizmoShape {
    /// A marked point.
    Point(Vec3),
    /// A segment from the first point to the second.
    Line(Vec3, Vec3),
    /// An arrow from the first point to the second.
    Arrow(Vec3, Vec3),
    /// A circle in the x-y plane (a sphere in the 3D view).
    Circle {
        /// Centre.
        center: Vec3,
        /// Radius in world units.
        radius: f32,
    },
    /// A number drawn next to a point.
    Value {
        /// Where to draw it.
        at: Vec3,
        /// The value.
        value: f32,
    },
}

/// One explanatory mark a behaviour emits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gizmo {
    /// What it means.
    pub role: GizmoRole,
    /// Where it is.
    pub shape: GizmoShape,
}

/// A sink for gizmos that costs one branch when disabled (headless runs, benchmarks).
///
/// One pointer wide (none: disabled), so that an agent's record, walked by every step of a big
/// crowd, holds eight bytes of it and a step of an agent without gizmos writes none of them
/// (it was an enabled flag beside a vector, 32 bytes, cleared every step).
#[derive(Clone, Debug, Default)]
pub struct Gizmos {
    // Boxed on purpose: one pointer in the record, where a `Vec` would be three.
    #[allow(clippy::box_collection)]
    items: Option<Box<Vec<Gizmo>>>,
}

impl Gizmos {
    /// A sink that records.
    pub fn recording() -> Self {
        Gizmos { items: Some(Box::default()) }
    }
    /// A sink that drops everything.
    pub fn disabled() -> Self {
        Gizmos { items: None }
    }
    /// Whether pushes are recorded.
    #[inline]
    pub fn is_enabled(&self) -> bool {
        self.items.is_some()
    }
    /// Turns recording on or off (clears on off).
    pub fn set_enabled(&mut self, enabled: bool) {
        if enabled != self.is_enabled() {
            *self = if enabled { Gizmos::recording() } else { Gizmos::disabled() };
        }
    }
    /// Records a gizmo if enabled.
    #[inline]
    pub fn push(&mut self, role: GizmoRole, shape: GizmoShape) {
        if let Some(items) = &mut self.items {
            items.push(Gizmo { role, shape });
        }
    }
    /// The recorded gizmos.
    pub fn items(&self) -> &[Gizmo] {
        self.items.as_deref().map_or(&[], Vec::as_slice)
    }
    /// Forgets the recorded gizmos, keeping the allocation.
    #[inline]
    pub fn clear(&mut self) {
        if let Some(items) = &mut self.items {
            items.clear();
        }
    }
}
