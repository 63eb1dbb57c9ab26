//! The predictive-following kernel of issue 11: the behaviour with its integration (steer, then
//! move, then observe where the agent now is on its path), the job other libraries' figures
//! measure, without the simulation's metrics and events.
//!
//! [`PredictiveBench`] keeps the crowd as structure-of-arrays (positions, velocities,
//! orientations, the behaviour's path cursors and observation) and steps it in chunks over the
//! current rayon pool, as [`super::FlockBench`] does for flocking. Every agent reads only its
//! own state and the shared path, and writes only its own slots, so the result is the same bits
//! on any thread count. [`step_plain`] is the loop the kernel was first measured with (one
//! `Vec` of `(Kinematics, PredictiveState)`, every agent's steering, then every agent's
//! integration and observation, one thread): kept as the oracle the kernel is tested against
//! bit for bit (`tests/all/perf_predictive.rs`).

use glam::Vec3;

use super::{circle_path, world_for, Kernel};
use crate::behaviours::predictive::{self, PredictiveParams, PredictiveState};
use crate::behaviours::{Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Polyline;

/// Agents steered before any is moved, inside a chunk: the kernel keeps the simulation's two
/// passes (every steering, then every integration), each a shorter chain of dependent
/// arithmetic than one fused pass. Long passes pay: on one thread (10,000 agents, on-CPU time,
/// load 5.5–6.5, 2026-11-24, two alternating rounds each) blocks of 2,560 agents (a whole chunk
/// at 10,000 agents; 40 KB of steerings on the stack) took 105.4–105.8 / 112.0–113.2 ns per
/// agent-step at 32 / 1,024 segments, blocks of 64 agents 108.0–108.4 / 118.3–118.5 ns, the
/// plain loop (`step_plain`, one vector of agents) 101.4–101.9 / 105.5–105.7 ns. Earlier, at 32
/// segments: one fused pass 118 ns, three passes (observation apart) 114–116 ns.
const BLOCK: usize = 2560;

/// Predictive following of a closed circle of some segments by a crowd laid out as
/// [`world_for`]`(Kernel::Predictive, ..)` lays it out, as hot arrays.
pub struct PredictiveBench {
    path: Polyline,
    limits: Limits,
    params: PredictiveParams,
    dt: f32,
    /// Whether each step observes the agent ahead of time right after moving it, as the
    /// simulation does (else each steering makes its own projections at its start).
    observe_ahead: bool,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    orientations: Vec<f32>,
    states: Vec<PredictiveState>,
}

impl PredictiveBench {
    /// `n_agents` followers of a closed circle of radius 400 with `segments` segments, started
    /// where [`world_for`] starts them; `observe_ahead` as the simulation does.
    pub fn new(n_agents: usize, segments: usize, observe_ahead: bool) -> Self {
        let world = world_for(Kernel::Predictive, n_agents, segments);
        let kinematics = world.agents.iter().map(|a| a.kinematics);
        PredictiveBench {
            path: circle_path(segments),
            limits: world.agents.first().map(|a| a.limits).unwrap_or_default(),
            params: PredictiveParams::default(),
            dt: world.dt,
            observe_ahead,
            positions: kinematics.clone().map(|k| k.position).collect(),
            velocities: kinematics.clone().map(|k| k.velocity).collect(),
            orientations: kinematics.map(|k| k.orientation).collect(),
            states: vec![PredictiveState::default(); n_agents],
        }
    }

    /// One fixed step of every agent: its steering, its integration within its limits, and (if
    /// `observe_ahead`) its observation for the next step. Chunks of agents go to the current
    /// rayon pool's threads (one thread inside a one-thread pool); inside a chunk, blocks of
    /// [`BLOCK`] agents are steered, then moved.
    pub fn step(&mut self) {
        use rayon::prelude::*;
        let n = self.positions.len();
        let chunk = super::parallel_chunk(n);
        let (path, limits, params, dt, observe_ahead) =
            (&self.path, self.limits, self.params, self.dt, self.observe_ahead);
        self.positions
            .par_chunks_mut(chunk)
            .zip(self.velocities.par_chunks_mut(chunk))
            .zip(self.orientations.par_chunks_mut(chunk))
            .zip(self.states.par_chunks_mut(chunk))
            .for_each(|(((positions, velocities), orientations), states)| {
                let blocks = positions
                    .chunks_mut(BLOCK)
                    .zip(velocities.chunks_mut(BLOCK))
                    .zip(orientations.chunks_mut(BLOCK))
                    .zip(states.chunks_mut(BLOCK));
                let mut gizmos = Gizmos::disabled();
                for (((positions, velocities), orientations), states) in blocks {
                    let mut steerings = [Steering::NONE; BLOCK];
                    let agents = positions.iter().zip(velocities.iter()).zip(orientations.iter());
                    for ((((&position, &velocity), &orientation), state), steering) in
                        agents.zip(states.iter_mut()).zip(steerings.iter_mut())
                    {
                        let k = Kinematics { position, velocity, orientation };
                        *steering = predictive::predictive(&k, &limits, path, state, &params, &mut gizmos);
                    }
                    let agents = positions.iter_mut().zip(velocities.iter_mut()).zip(orientations.iter_mut());
                    for ((((position, velocity), orientation), state), steering) in
                        agents.zip(states.iter_mut()).zip(steerings.iter())
                    {
                        let mut k = Kinematics {
                            position: *position,
                            velocity: *velocity,
                            orientation: *orientation,
                        };
                        crate::sim::integrate(&mut k, &limits, *steering, dt);
                        if observe_ahead {
                            predictive::observe(&k, &limits, path, state, &params, None);
                        }
                        (*position, *velocity, *orientation) = (k.position, k.velocity, k.orientation);
                    }
                }
            });
    }

    /// Every agent's kinematics and behaviour state, in agent order.
    pub fn agents(&self) -> Vec<(Kinematics, PredictiveState)> {
        let kinematics = self.positions.iter().zip(&self.velocities).zip(&self.orientations);
        kinematics
            .zip(&self.states)
            .map(|(((&position, &velocity), &orientation), &state)| {
                (Kinematics { position, velocity, orientation }, state)
            })
            .collect()
    }

    /// The crowd as [`step_plain`] steps it: one `(Kinematics, PredictiveState)` per agent.
    pub fn plain(&self) -> PredictivePlain {
        PredictivePlain {
            path: self.path.clone(),
            limits: self.limits,
            params: self.params,
            dt: self.dt,
            observe_ahead: self.observe_ahead,
            agents: self.agents(),
            steerings: Vec::with_capacity(self.positions.len()),
        }
    }

    /// How many agents.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// The kernel's oracle: the crowd of a [`PredictiveBench`] as one vector of agents, stepped by
/// [`step_plain`].
pub struct PredictivePlain {
    path: Polyline,
    limits: Limits,
    params: PredictiveParams,
    dt: f32,
    observe_ahead: bool,
    /// Every agent's kinematics and behaviour state.
    pub agents: Vec<(Kinematics, PredictiveState)>,
    steerings: Vec<Steering>,
}

/// One step of the crowd as it was first measured, on one thread: every agent's steering, then
/// every agent's integration and (if `observe_ahead`) observation.
pub fn step_plain(crowd: &mut PredictivePlain) {
    let PredictivePlain { path, limits, params, dt, observe_ahead, agents, steerings } = crowd;
    let mut gizmos = Gizmos::disabled();
    steerings.clear();
    steerings.extend(
        agents
            .iter_mut()
            .map(|(k, state)| predictive::predictive(k, limits, path, state, params, &mut gizmos)),
    );
    for ((k, state), steering) in agents.iter_mut().zip(steerings.iter()) {
        crate::sim::integrate(k, limits, *steering, *dt);
        if *observe_ahead {
            predictive::observe(k, limits, path, state, params, None);
        }
    }
}
