//! The 3D waypoint planner (seed 004) and the ship that flies it. CONTRACT skeleton: the planner
//! helper fills this module (and may split it into files under `planner/`).

use crate::behaviours::{Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Sphere;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of the `planner` behaviour (scene fields besides `waypoints`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlannerParams {
    /// The user's waypoints, in order (a queue).
    pub waypoints: Vec<Vec3>,
    /// Extra clearance kept from obstacles beyond the ship's radius (world units, typically 2–30).
    pub clearance: f32,
    /// Most planner iterations per plan (typically 8–64); a partial plan is extended by replans.
    pub iteration_limit: u32,
    /// Seconds between replans (seed: 0.5).
    pub replan_interval: f32,
    /// A waypoint is reached inside this distance (world units, typically 5–30).
    pub arrival_radius: f32,
    /// Drop waypoints whose neighbours see each other.
    pub smoothing: bool,
}

impl Default for PlannerParams {
    fn default() -> Self {
        PlannerParams {
            waypoints: Vec::new(),
            clearance: 10.0,
            iteration_limit: 32,
            replan_interval: 0.5,
            arrival_radius: 10.0,
            smoothing: false,
        }
    }
}

/// The ship's memory between steps: waypoints left, the current plan, replan timer and counters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShipState {
    /// User waypoints not yet reached.
    pub remaining: Vec<Vec3>,
    /// Real waypoints of the current plan.
    pub planned: Vec<Vec3>,
    /// Seconds since the last plan.
    pub since_replan: f32,
    /// Plans made after the first.
    pub replans: u32,
    /// User waypoints reached.
    pub waypoints_reached: u32,
    /// Iterations used by all plans so far.
    pub iterations: u32,
    /// Length of the first plan from the start through all waypoints.
    pub planned_length: f32,
    /// Straight-line length from the start through the user waypoints.
    pub straight_length: f32,
    /// True once every waypoint is reached.
    pub finished: bool,
}

impl ShipState {
    /// A ship that has not planned yet.
    pub fn new(params: &PlannerParams) -> Self {
        ShipState { remaining: params.waypoints.clone(), ..Default::default() }
    }
}

/// One step of the ship: (re)plan when due, drop reached waypoints, thrust toward the next one.
pub fn ship(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    params: &PlannerParams,
    state: &mut ShipState,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    let _ = (k, limits, obstacles, params, state, dt, gizmos);
    todo!("planner helper")
}
