//! The predictive-following kernel of issue 11: the behaviour with its integration (steer, then
//! move, then observe where the agent now is on its path), the job other libraries' figures
//! measure, without the simulation's metrics and events.
//!
//! [`PredictiveBench`] keeps the crowd in groups of four agents, each number of a group in the
//! four lanes of one SIMD register ([`crate::geometry::lanes`]), and steps it in chunks of
//! groups over the current rayon pool, as [`super::FlockBench`] does for flocking. A group's
//! steering, integration and observation are [`predictive::predictive`], [`crate::sim::integrate`]
//! and [`predictive::observe`] made lane by lane with the same operations in the same order; the
//! branchy parts (a projection leaving its segment other than by the common forward move, a
//! correction target looked up on the path) are made per lane by the scalar code itself, and a
//! group in any other state (a first step, a finished agent, an observation not made for the
//! agent as it is) is stepped agent by agent by the scalar code. Every agent reads only its own
//! state and the shared path, and writes only its own lanes, so the result is the same bits on
//! any thread count. [`step_plain`] is the loop the kernel was first measured with (one `Vec` of
//! `(Kinematics, PredictiveState)`, every agent's steering, then every agent's integration and
//! observation, one thread): kept as the oracle the kernel is tested against bit for bit
//! (`tests/all/perf_predictive.rs`).
//!
//! Measured gain of the lanes (10,000 agents, one thread, 2026-11-24, 2-core EPYC at load
//! 3–11; callgrind instructions and on-CPU time per agent-step, `examples/predictive_cpu.rs`):
//! 727 → 360 instructions and 71.6 → about 50 ns at 32 segments, 955 → 534 instructions and
//! 85.8 → about 57.5 ns at 1,024 (`docs/performance-history.md`, its sixth pass, gives each step).

use super::{circle_path, world_for, Kernel};
use crate::behaviours::kinematic::heading_atan2_x4;
use crate::behaviours::predictive::{self, Observation, PredictiveParams, PredictiveState};
use crate::behaviours::{seek_acceleration, Gizmos, Kinematics, Limits, Steering, STEER_TIME};
use crate::geometry::lanes::{
    bits, f32x4, get, max_num, select, set, PathCursorX4, PathProjectionX4, Vec3x4, LANES,
};
use crate::geometry::{max_of_number, PathProjection, Polyline};

/// Groups of four agents steered before any is moved, inside a chunk: the kernel keeps the
/// simulation's two passes (every steering, then every integration), each a shorter chain of
/// dependent arithmetic than one fused pass. 32 groups (128 agents, about 22 KB of state and
/// 2 KB of steerings) stay in the first-level cache between the passes: on one thread (10,000
/// agents, on-CPU, load 6–8, 2026-11-24, two alternating rounds each) 49.7–49.9 / 57.1–57.8 ns
/// per agent-step at 32 / 1,024 segments against 49.6–50.4 / 58.7–59.9 ns with 640 groups (a
/// whole chunk at 10,000 agents on two threads), and 49.9–50.0 / 56.8–58.3 ns with 128.
const BLOCK_GROUPS: usize = 32;

/// Four agents: every number of the kernel's agents, lane `i` agent `i` of the group.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    position: Vec3x4,
    velocity: Vec3x4,
    orientation: f32x4,
    cursor: PathCursorX4,
    predicted_cursor: PathCursorX4,
    finished: [bool; LANES],
    observed: [bool; LANES],
    /// The observation's fields ([`Observation`]), lane by lane.
    inputs: [f32x4; 9],
    agent_along: f32x4,
    path_direction: Vec3x4,
    heading: Vec3x4,
    predicted: Vec3x4,
    prediction: PathProjectionX4,
}

impl Group {
    /// Lane `lane`'s agent.
    fn agent(&self, lane: usize) -> (Kinematics, PredictiveState) {
        let k = Kinematics {
            position: self.position.lane(lane),
            velocity: self.velocity.lane(lane),
            orientation: get(self.orientation, lane),
        };
        let state = PredictiveState {
            cursor: self.cursor.lane(lane),
            predicted_cursor: self.predicted_cursor.lane(lane),
            finished: self.finished.get(lane).copied().unwrap_or(false),
            observed: self.observed.get(lane).copied().unwrap_or(false),
            observation: Observation {
                inputs: self.inputs.map(|input| get(input, lane)),
                agent_along: get(self.agent_along, lane),
                path_direction: self.path_direction.lane(lane),
                heading: self.heading.lane(lane),
                predicted: self.predicted.lane(lane),
                prediction: self.prediction.lane(lane),
            },
        };
        (k, state)
    }

    /// Sets lane `lane` to an agent.
    fn set_agent(&mut self, lane: usize, k: &Kinematics, state: &PredictiveState) {
        self.position.set_lane(lane, k.position);
        self.velocity.set_lane(lane, k.velocity);
        set(&mut self.orientation, lane, k.orientation);
        self.cursor.set_lane(lane, state.cursor);
        self.predicted_cursor.set_lane(lane, state.predicted_cursor);
        if let (Some(finished), Some(observed)) = (self.finished.get_mut(lane), self.observed.get_mut(lane)) {
            *finished = state.finished;
            *observed = state.observed;
        }
        let observation = &state.observation;
        for (input, &value) in self.inputs.iter_mut().zip(&observation.inputs) {
            set(input, lane, value);
        }
        set(&mut self.agent_along, lane, observation.agent_along);
        self.path_direction.set_lane(lane, observation.path_direction);
        self.heading.set_lane(lane, observation.heading);
        self.predicted.set_lane(lane, observation.predicted);
        self.prediction.set_lane(lane, observation.prediction);
    }
}

/// What every agent of the kernel shares.
#[derive(Clone, Copy)]
struct Setting<'a> {
    path: &'a Polyline,
    limits: Limits,
    params: PredictiveParams,
    dt: f32,
    observe_ahead: bool,
}

impl Setting<'_> {
    /// A group's steering accelerations, as [`predictive::predictive`] makes them lane by lane;
    /// or None when the group is not in the state the lanes handle (a path that is open or
    /// without segments, a finished agent, some agents observed for their state and some
    /// not): it has then been stepped agent by agent by the scalar code, integration and
    /// observation included.
    #[inline(always)]
    fn steer(&self, group: &mut Group) -> Option<Vec3x4> {
        let Setting { path, limits, params, .. } = *self;
        if !path.is_closed() || path.segment_count() == 0 || group.finished.contains(&true) {
            self.step_alone(group);
            return None;
        }
        // `observed && observation.made_for(..)`, lane by lane.
        let now = [
            group.position.x,
            group.position.y,
            group.position.z,
            group.velocity.x,
            group.velocity.y,
            group.velocity.z,
            f32x4::splat(params.prediction_time),
            f32x4::splat(params.path_radius),
            f32x4::splat(limits.max_speed),
        ];
        let differing = group
            .inputs
            .iter()
            .zip(&now)
            .fold(wide::u32x4::ZERO, |acc, (a, b)| acc | (a.to_bits() ^ b.to_bits()));
        let differing = differing.to_array();
        let made = (0..LANES).fold(0u32, |made, lane| {
            let same = differing.get(lane) == Some(&0) && group.observed.get(lane) == Some(&true);
            made | (u32::from(same) << lane)
        });
        if made == 0 {
            self.make_observation(group);
        } else if made != (1 << LANES) - 1 {
            self.step_alone(group);
            return None;
        }
        group.observed = [false; LANES];

        // 5. The target a little ahead of the farther projection (arc lengths modulo laps).
        let path_radius = predictive::non_negative(params.path_radius);
        let length = path.length();
        let ahead = group.prediction.distance_along - group.agent_along;
        let ahead = select(
            ahead.simd_gt(f32x4::splat(0.5 * length)),
            ahead - f32x4::splat(length),
            select(ahead.simd_lt(f32x4::splat(-0.5 * length)), ahead + f32x4::splat(length), ahead),
        );
        let lead = max_of_number(path_radius, limits.radius).max(1.0);
        let target_distance = group.agent_along + max_num(ahead, f32x4::ZERO) + f32x4::splat(lead);

        // 4. Inside the channel and going the right way: accelerate along the heading.
        let right_way = group.heading.dot(group.path_direction).simd_gt(f32x4::ZERO);
        let inside = group.prediction.distance.simd_le(f32x4::splat(path_radius)) & right_way;
        let desired = group.heading.scale(f32x4::splat(limits.max_speed.max(0.0)));
        let mut acceleration = (desired - group.velocity)
            .over(f32x4::splat(STEER_TIME.max(1e-4)))
            .clamp_length_max(f32x4::splat(limits.max_acceleration.max(0.0)));

        // Otherwise seek the correction target, looked up on the path lane by lane.
        let outside = !bits(inside) & ((1 << LANES) - 1);
        if outside != 0 {
            self.correct_lanes(group, outside, target_distance, path_radius, &mut acceleration);
        }
        Some(acceleration)
    }

    /// The lanes in `outside` of [`Setting::steer`]: seeking the correction target, made by
    /// the scalar code lane by lane (out of line: the common lanes' code keeps its registers).
    #[inline(never)]
    fn correct_lanes(
        &self,
        group: &Group,
        outside: u32,
        target_distance: f32x4,
        path_radius: f32,
        acceleration: &mut Vec3x4,
    ) {
        for lane in 0..LANES {
            if outside & (1 << lane) == 0 {
                continue;
            }
            let k = Kinematics {
                position: group.position.lane(lane),
                velocity: group.velocity.lane(lane),
                orientation: 0.0,
            };
            let prediction: PathProjection = group.prediction.lane(lane);
            let target = predictive::correction_target(
                self.path,
                get(target_distance, lane),
                group.predicted.lane(lane),
                &prediction,
                path_radius,
            );
            acceleration.set_lane(lane, seek_acceleration(&k, &self.limits, target));
        }
    }

    /// [`crate::sim::integrate`] of an acceleration, lane by lane, then (if `observe_ahead`)
    /// [`predictive::observe`].
    #[inline(always)]
    fn integrate_and_observe(&self, group: &mut Group, linear: Vec3x4) {
        let Setting { limits, dt, .. } = *self;
        let dt = f32x4::splat(dt);
        let linear = Vec3x4::select(linear.is_finite(), linear, Vec3x4::ZERO);
        let linear = linear.clamp_length_max(f32x4::splat(limits.max_acceleration.max(0.0)));
        let velocity =
            (group.velocity + linear.scale(dt)).clamp_length_max(f32x4::splat(limits.max_speed.max(0.0)));
        group.position = group.position + velocity.scale(dt);
        group.velocity = velocity;
        let has_heading = velocity.x.simd_ne(f32x4::ZERO) | velocity.y.simd_ne(f32x4::ZERO);
        group.orientation = select(has_heading, heading_atan2_x4(velocity.y, velocity.x), group.orientation);
        if self.observe_ahead {
            // A finished agent or a path without segments never reaches here (see `steer`).
            self.make_observation(group);
            group.observed = [true; LANES];
        }
    }

    /// `predictive::make_observation` (steps 1–3, without a projection handed over), lane by
    /// lane, into the group's observation.
    #[inline(always)]
    fn make_observation(&self, group: &mut Group) {
        let Setting { path, limits, params, .. } = *self;
        let prediction_time = predictive::non_negative(params.prediction_time);
        let reacquire_distance = (4.0 * predictive::non_negative(params.path_radius)).max(100.0);

        // 1. Where the agent is on the path.
        let mut agent = PathProjectionX4::default();
        let mut path_direction = Vec3x4::ZERO;
        path.project_points_local_x4(
            group.position,
            &mut group.cursor,
            reacquire_distance,
            &mut agent,
            &mut path_direction,
        );

        // 2. Where it will be.
        let (position, velocity) = (group.position, group.velocity);
        let speed = velocity.length_squared().sqrt();
        let moving = speed.simd_gt(f32x4::splat(predictive::REST_SPEED));
        let start_speed = predictive::START_SPEED_FRACTION * limits.max_speed.max(0.0);
        let prediction_time_x4 = f32x4::splat(prediction_time);
        let heading = Vec3x4::select(moving, velocity.over(speed), path_direction);
        let ahead_of_velocity = position + velocity.scale(prediction_time_x4);
        // Agents that all move (the common case) predict without waiting for the path's
        // direction under them, so the prediction's projection need not wait for the agent's.
        let predicted = if bits(moving) == (1 << LANES) - 1 {
            ahead_of_velocity
        } else {
            let along_path =
                position + path_direction.scale(f32x4::splat(start_speed)).scale(prediction_time_x4);
            Vec3x4::select(moving, ahead_of_velocity, along_path)
        };

        // 3. Where that is on the path.
        for lane in 0..LANES {
            if group.predicted_cursor.initialised.get(lane) == Some(&false) {
                group.predicted_cursor.set_lane(lane, group.cursor.lane(lane));
            }
        }
        let mut prediction_direction = Vec3x4::ZERO;
        path.project_points_local_x4(
            predicted,
            &mut group.predicted_cursor,
            reacquire_distance,
            &mut group.prediction,
            &mut prediction_direction,
        );
        group.inputs = [
            position.x,
            position.y,
            position.z,
            velocity.x,
            velocity.y,
            velocity.z,
            f32x4::splat(params.prediction_time),
            f32x4::splat(params.path_radius),
            f32x4::splat(limits.max_speed),
        ];
        group.agent_along = agent.distance_along;
        group.path_direction = path_direction;
        group.heading = heading;
        group.predicted = predicted;
    }

    /// One step of each of the group's agents by the scalar code, as [`step_plain`] steps it.
    #[cold]
    #[inline(never)]
    fn step_alone(&self, group: &mut Group) {
        let Setting { path, limits, params, dt, observe_ahead } = *self;
        let mut gizmos = Gizmos::disabled();
        for lane in 0..LANES {
            let (mut k, mut state) = group.agent(lane);
            let steering = predictive::predictive(&k, &limits, path, &mut state, &params, &mut gizmos);
            crate::sim::integrate(&mut k, &limits, steering, dt);
            if observe_ahead {
                predictive::observe(&k, &limits, path, &mut state, &params, None);
            }
            group.set_agent(lane, &k, &state);
        }
    }
}

/// Predictive following of a closed circle of some segments by a crowd laid out as
/// [`world_for`]`(Kernel::Predictive, ..)` lays it out, in groups of four agents.
pub struct PredictiveBench {
    path: Polyline,
    limits: Limits,
    params: PredictiveParams,
    dt: f32,
    /// Whether each step observes the agent ahead of time right after moving it, as the
    /// simulation does (else each steering makes its own projections at its start).
    observe_ahead: bool,
    n_agents: usize,
    /// The agents four by four; the last group's spare lanes (when the count is not a multiple
    /// of four) hold copies of the last agent, stepped and never read back.
    groups: Vec<Group>,
}

impl PredictiveBench {
    /// `n_agents` followers of a closed circle of radius 400 with `segments` segments, started
    /// where [`world_for`] starts them; `observe_ahead` as the simulation does.
    pub fn new(n_agents: usize, segments: usize, observe_ahead: bool) -> Self {
        let world = world_for(Kernel::Predictive, n_agents, segments);
        let agents: Vec<Kinematics> = world.agents.iter().map(|a| a.kinematics).collect();
        let groups = agents
            .chunks(LANES)
            .map(|agents| {
                let mut group = Group::default();
                for lane in 0..LANES {
                    let k = agents.get(lane).or(agents.last()).copied().unwrap_or_default();
                    group.set_agent(lane, &k, &PredictiveState::default());
                }
                group
            })
            .collect();
        PredictiveBench {
            path: circle_path(segments),
            limits: world.agents.first().map(|a| a.limits).unwrap_or_default(),
            params: PredictiveParams::default(),
            dt: world.dt,
            observe_ahead,
            n_agents,
            groups,
        }
    }

    /// One fixed step of every agent: its steering, its integration within its limits, and (if
    /// `observe_ahead`) its observation for the next step. Chunks of groups go to the current
    /// rayon pool's threads (one thread inside a one-thread pool); inside a chunk, blocks of
    /// `BLOCK_GROUPS` groups are steered, then moved.
    pub fn step(&mut self) {
        use rayon::prelude::*;
        let chunk = super::parallel_chunk(self.n_agents).div_ceil(LANES);
        let setting = Setting {
            path: &self.path,
            limits: self.limits,
            params: self.params,
            dt: self.dt,
            observe_ahead: self.observe_ahead,
        };
        self.groups.par_chunks_mut(chunk).for_each(|groups| {
            for block in groups.chunks_mut(BLOCK_GROUPS) {
                let mut accelerations = [None; BLOCK_GROUPS];
                for (group, acceleration) in block.iter_mut().zip(accelerations.iter_mut()) {
                    *acceleration = setting.steer(group);
                }
                for (group, acceleration) in block.iter_mut().zip(accelerations.iter()) {
                    if let Some(acceleration) = acceleration {
                        setting.integrate_and_observe(group, *acceleration);
                    }
                }
            }
        });
    }

    /// Every agent's kinematics and behaviour state, in agent order.
    pub fn agents(&self) -> Vec<(Kinematics, PredictiveState)> {
        self.groups
            .iter()
            .flat_map(|group| (0..LANES).map(|lane| group.agent(lane)))
            .take(self.n_agents)
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
            steerings: Vec::with_capacity(self.n_agents),
        }
    }

    /// How many agents.
    pub fn len(&self) -> usize {
        self.n_agents
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.n_agents == 0
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
