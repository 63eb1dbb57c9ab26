//! Benchmark kernels shared by `steerlab bench` and `cargo bench` (criterion), so both measure
//! the same thing: [`World::step`] with metrics on and gizmos off, over many agents of one
//! behaviour. This module reads the wall clock; the simulation it drives never does.

pub mod peer;
pub mod predictive;
pub use predictive::{PredictiveBench, PredictivePlain};

use std::io::Write;
use std::time::Instant;

use glam::{Vec2, Vec3};

use crate::behaviours::vector::SteerVector;

use crate::behaviours::neighbourhood::Neighbour;
use crate::behaviours::wander::{WanderParams, WanderState};
use crate::behaviours::{
    alignment::AlignmentParams, cohesion::CohesionParams, separation::SeparationParams, Kinematics, Limits,
};
use crate::behaviours::{
    AvoidParams, CollisionAvoidanceParams, ContainmentParams, FaceParams, FlockingParams, FlowFieldParams,
    HideParams, InterposeParams, LeaderFollowingParams, OffsetPursuitParams, PursuitParams,
};
use crate::geometry::{Curve, CurveKind, Polyline, Sphere};
use crate::planner::{bench_scenario, plan, FallbackMode, ObstacleIndex, PlanOptions, PlannerParams};
use crate::sim::neighbours::NeighbourGrid;
use crate::sim::{
    Agent, ArriveParams, Behaviour, Entry, MetricsSummary, Mix, NamedCurve, NamedPath, Obstacle,
    ParametricParams, PredictiveParams, ProjectedParams, Rgb, Slot, Target, WaypointsParams, World,
};

/// A behaviour set up for benchmarking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Kinematic seek toward a fixed target.
    Seek,
    /// Kinematic flee from a fixed target.
    Flee,
    /// Dynamic arrive at a fixed target.
    Arrive,
    /// Parametric following of a circle, the seed's secant method.
    ParametricSecant,
    /// Parametric following of a circle, the arc-length method.
    ParametricArcLength,
    /// Waypoints with a node radius on a closed path.
    Waypoints,
    /// Projected path following on a closed path.
    Projected,
    /// Predictive path following on a closed path.
    Predictive,
    /// Pursuit of the next agent round the ring (each agent pursues agent `i + 1`).
    Pursuit,
    /// Evasion of the next agent round the ring.
    Evade,
    /// Wander, each agent with its own seed.
    Wander,
    /// Offset pursuit of a slot beside the next agent round the ring.
    OffsetPursuit,
    /// Interpose between the next two agents round the ring.
    Interpose,
    /// Hide from the next agent round the ring behind one of 16 obstacles.
    Hide,
    /// Containment inside the closed path's polygon.
    Containment,
    /// Following a seeded noise flow field.
    FlowField,
    /// Flocking through `World::step`: the set-up of [`FlockBench`] (Yuka's `flock.mjs`) as
    /// agents of the simulation, a `flocking` entry blended with wander (weight 0.5), spread at
    /// [`FLOCK_DENSITY`] over a square, so the neighbour count does not grow with the crowd.
    Flocking,
    /// Agent–agent collision avoidance, spread like [`Kernel::Flocking`] with random headings.
    CollisionAvoidance,
    /// Leader following of the next agent round the ring (each agent follows agent `i + 1`).
    LeaderFollowing,
    /// Leader following as a crowd has it (Reynolds' three parts): groups of
    /// [`LEADER_GROUP`] spread like [`Kernel::Flocking`] at [`FLOCK_DENSITY`], each group's
    /// first agent wandering (its leader) and the others, placed near it, following it by index;
    /// everyone kept apart by separation (a flocking entry without alignment and cohesion, as
    /// `scenes/leader-following.json` has it). Entries that name another agent beside a walk
    /// over neighbours: a big crowd of them is stored in the grid's order too.
    LeaderCrowd,
    /// Facing the next agent round the ring while wandering (face changes only the heading: it
    /// is an entry beside a moving one).
    Face,
    /// Looking where it goes while wandering (a heading that turns at a bounded rate).
    LookWhereYouAreGoing,
    /// Projected path following with obstacle avoidance in the priority group before it, among
    /// 16 pillars standing on the path.
    AvoidObstacles,
    /// The 3D waypoint planner's ship: three waypoints across the ring, 16 pillars (spheres) in
    /// the way, a replan every 0.05 s (its interval's minimum), so that a plan falls into every
    /// few steps measured and its cost counts.
    Planner,
}

impl Kernel {
    /// Every kernel, in report order.
    pub const ALL: [Kernel; 24] = [
        Kernel::Seek,
        Kernel::Flee,
        Kernel::Arrive,
        Kernel::ParametricSecant,
        Kernel::ParametricArcLength,
        Kernel::Waypoints,
        Kernel::Projected,
        Kernel::Predictive,
        Kernel::Pursuit,
        Kernel::Evade,
        Kernel::Wander,
        Kernel::OffsetPursuit,
        Kernel::Interpose,
        Kernel::Hide,
        Kernel::Containment,
        Kernel::FlowField,
        Kernel::Flocking,
        Kernel::CollisionAvoidance,
        Kernel::LeaderFollowing,
        Kernel::LeaderCrowd,
        Kernel::Face,
        Kernel::LookWhereYouAreGoing,
        Kernel::AvoidObstacles,
        Kernel::Planner,
    ];

    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            Kernel::Seek => "seek",
            Kernel::Flee => "flee",
            Kernel::Arrive => "arrive",
            Kernel::ParametricSecant => "parametric/secant",
            Kernel::ParametricArcLength => "parametric/arc_length",
            Kernel::Waypoints => "waypoints",
            Kernel::Projected => "projected",
            Kernel::Predictive => "predictive",
            Kernel::Pursuit => "pursuit",
            Kernel::Evade => "evade",
            Kernel::Wander => "wander",
            Kernel::OffsetPursuit => "offset_pursuit",
            Kernel::Interpose => "interpose",
            Kernel::Hide => "hide",
            Kernel::Containment => "containment",
            Kernel::FlowField => "flow_field",
            Kernel::Flocking => "flocking",
            Kernel::CollisionAvoidance => "collision_avoidance",
            Kernel::LeaderFollowing => "leader_following",
            Kernel::LeaderCrowd => "leader_crowd",
            Kernel::Face => "face",
            Kernel::LookWhereYouAreGoing => "look_where_you_are_going",
            Kernel::AvoidObstacles => "avoid_obstacles",
            Kernel::Planner => "planner",
        }
    }

    /// How many agent-steps a timing of this kernel takes, for `budget` agent-steps of the
    /// others: the planner's ship costs about 5 µs an agent-step (a plan every third step), 50
    /// times seek's, so it is timed over a tenth of the steps (at least one copy of the crowd
    /// either way: see [`ns_per_agent_step_alike`]).
    pub fn budget(self, budget: u64) -> u64 {
        match self {
            Kernel::Planner => budget / 10,
            _ => budget,
        }
    }
}

/// Deterministic pseudo-random numbers (splitmix64) for placing agents.
struct SplitMix(u64);

impl SplitMix {
    fn next_f32(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A closed polygon approximating a circle of radius 400 with `segments` segments.
pub fn circle_path(segments: usize) -> Polyline {
    let n = segments.max(3);
    let points = (0..n)
        .map(|i| {
            let angle = i as f32 / n as f32 * std::f32::consts::TAU;
            Vec3::new(400.0 * angle.cos(), 400.0 * angle.sin(), 0.0)
        })
        .collect();
    Polyline::new(points, true)
}

/// A world of `n_agents` agents running `kernel`; path kernels use a closed path of
/// `segments` segments. Agents start spread around the path (or the target) with small offsets.
pub fn world_for(kernel: Kernel, n_agents: usize, segments: usize) -> World {
    world_variant(kernel, n_agents, segments, 0)
}

/// [`world_for`]'s world laid out from another seed (variant 0 is [`world_for`]'s): the same
/// scene, its agents at other places (and wandering from other seeds), so that timing copies
/// of several variants does not replay one crowd's branches (see [`crowds_alike`]).
pub fn world_variant(kernel: Kernel, n_agents: usize, segments: usize, variant: u64) -> World {
    if matches!(kernel, Kernel::Flocking | Kernel::CollisionAvoidance | Kernel::LeaderCrowd) {
        return neighbour_crowd_world(kernel, n_agents, variant);
    }
    let mut world = World::default();
    world.name = format!("bench {}", kernel.label());
    world.paths.push(NamedPath { id: "loop".into(), polyline: circle_path(segments), radius: 20.0 });
    if let Ok(curve) = Curve::new(CurveKind::Circle { center: Vec3::ZERO, radius: 400.0 }) {
        world.curves.push(NamedCurve { id: "circle".into(), curve });
    }
    world.targets.push(Target {
        id: "flag".into(),
        position: Vec3::ZERO,
        velocity: Vec3::ZERO,
        start: (Vec3::ZERO, Vec3::ZERO),
    });
    // Sixteen pillars: inside the ring to hide behind or plan round, or on the path to avoid.
    let pillars_at = match kernel {
        Kernel::Hide | Kernel::Planner => Some(300.0),
        Kernel::AvoidObstacles => Some(400.0),
        _ => None,
    };
    if let Some(ring) = pillars_at {
        for i in 0..16 {
            let angle = i as f32 / 16.0 * std::f32::consts::TAU;
            let position = Vec3::new(angle.cos(), angle.sin(), 0.0) * ring;
            world.obstacles.push(Obstacle::still(position, 20.0));
        }
    }
    let mut rng = SplitMix(0x5EED ^ variant_seed(variant));
    let limits = Limits { radius: 6.0, max_speed: 150.0, max_acceleration: 400.0 };
    let next = |i: usize, k: usize| (i + k) % n_agents.max(1);
    for i in 0..n_agents {
        let angle = rng.next_f32() * std::f32::consts::TAU;
        let offset = (rng.next_f32() - 0.5) * 30.0;
        let radial = Vec3::new(angle.cos(), angle.sin(), 0.0);
        let tangent = Vec3::new(-angle.sin(), angle.cos(), 0.0);
        let position = radial * (400.0 + offset);
        let start = Kinematics { position, velocity: tangent * 100.0, orientation: 0.0 };
        let behaviour = match kernel {
            Kernel::Seek => Behaviour::Seek { target: 0 },
            Kernel::Flee => Behaviour::Flee { target: 0 },
            Kernel::Arrive => Behaviour::Arrive { target: 0, params: ArriveParams::default() },
            Kernel::ParametricSecant | Kernel::ParametricArcLength => Behaviour::Parametric {
                curve: 0,
                params: ParametricParams {
                    t0: angle,
                    method: if kernel == Kernel::ParametricSecant {
                        crate::behaviours::ParametricMethod::Secant
                    } else {
                        crate::behaviours::ParametricMethod::ArcLength
                    },
                    ..ParametricParams::default()
                },
            },
            Kernel::Waypoints => Behaviour::Waypoints { path: 0, params: WaypointsParams::default() },
            Kernel::Projected => Behaviour::Projected { path: 0, params: ProjectedParams::default() },
            Kernel::Predictive => Behaviour::Predictive { path: 0, params: PredictiveParams::default() },
            Kernel::Pursuit => Behaviour::Pursuit { agent: next(i, 1), params: PursuitParams::default() },
            Kernel::Evade => Behaviour::Evade { agent: next(i, 1), params: PursuitParams::default() },
            Kernel::Wander => Behaviour::Wander {
                params: WanderParams { seed: wander_seed(i, n_agents, variant), ..WanderParams::default() },
            },
            Kernel::OffsetPursuit => {
                Behaviour::OffsetPursuit { agent: next(i, 1), params: OffsetPursuitParams::default() }
            }
            Kernel::Interpose => Behaviour::Interpose {
                agent: next(i, 1),
                other: next(i, 2),
                params: InterposeParams::default(),
            },
            Kernel::Hide => Behaviour::Hide { agent: next(i, 1), params: HideParams::default() },
            Kernel::Containment => Behaviour::Containment { region: 0, params: ContainmentParams::default() },
            Kernel::FlowField => {
                Behaviour::FlowField { path: None, field: None, params: FlowFieldParams::default() }
            }
            Kernel::LeaderFollowing => {
                Behaviour::LeaderFollowing { agent: next(i, 1), params: LeaderFollowingParams::default() }
            }
            Kernel::Face => Behaviour::Face { agent: next(i, 1), params: FaceParams::default() },
            Kernel::LookWhereYouAreGoing => Behaviour::LookWhereYouAreGoing { params: FaceParams::default() },
            Kernel::AvoidObstacles => Behaviour::Projected { path: 0, params: ProjectedParams::default() },
            Kernel::Planner => Behaviour::Planner {
                params: Box::new(PlannerParams {
                    // Across the ring and back out: every leg passes the pillars.
                    waypoints: [0.5f32, 0.75, 0.25]
                        .map(|turn| {
                            let across = angle + turn * std::f32::consts::TAU;
                            Vec3::new(across.cos(), across.sin(), 0.0) * 400.0
                        })
                        .to_vec(),
                    replan_interval: PlannerParams::REPLAN_INTERVAL.min,
                    ..PlannerParams::default()
                }),
            },
            Kernel::Flocking | Kernel::CollisionAvoidance | Kernel::LeaderCrowd => {
                Behaviour::Seek { target: 0 }
            }
        };
        let mut agent = Agent::new(format!("a{i}"), Rgb(200, 80, 80), start, limits, behaviour);
        match kernel {
            // The heading turners beside a moving entry, wandering from their own seeds.
            Kernel::Face | Kernel::LookWhereYouAreGoing => {
                let wander =
                    WanderParams { seed: wander_seed(i, n_agents, variant), ..WanderParams::default() };
                agent.mix.edit().more =
                    [Entry::new(Behaviour::Wander { params: wander }, Slot { weight: 1.0, group: 0 })].into();
            }
            Kernel::AvoidObstacles => agent.set_avoid_obstacles(true, AvoidParams::default()),
            _ => {}
        }
        world.agents.push(agent);
    }
    world.reset();
    world
}

/// What a bench world's seed is mixed with for `variant` (0 for variant 0: [`world_for`]'s).
fn variant_seed(variant: u64) -> u64 {
    variant.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Agent `i`'s wander seed in variant `variant` of a crowd of `n_agents`: variants' seeds
/// follow one another (variant 0's are 0, 1, 2, …).
fn wander_seed(i: usize, n_agents: usize, variant: u64) -> u32 {
    ((i as u64).wrapping_add(variant.wrapping_mul(n_agents as u64)) % (1 << 24)) as u32
}

/// A crowd of `n_agents` for the agent–agent kernels, laid out as [`FlockBench`] lays out its
/// boids (same seed, same square at [`FLOCK_DENSITY`]), so each agent has a handful of
/// neighbours at every size: flocking with the benchmark's radii and weights plus wander
/// (weight 0.5), or collision avoidance with its defaults.
fn neighbour_crowd_world(kernel: Kernel, n_agents: usize, variant: u64) -> World {
    let mut world = World::default();
    world.name = format!("bench {}", kernel.label());
    let side = (n_agents.max(1) as f32 / FLOCK_DENSITY).sqrt();
    let mut rng = SplitMix(7 ^ variant_seed(variant));
    let limits = Limits { radius: 1.0, max_speed: 10.0, max_acceleration: 20.0 };
    let mut leader_at = Vec3::ZERO;
    for i in 0..n_agents {
        let mut position = Vec3::new((rng.next_f32() - 0.5) * side, (rng.next_f32() - 0.5) * side, 0.0);
        let direction = Vec3::new(rng.next_f32() * 2.0 - 1.0, rng.next_f32() * 2.0 - 1.0, 0.0);
        if kernel == Kernel::LeaderCrowd {
            // A follower starts near its leader, within a square of the group's share of the
            // area (the crowd's density on average).
            let leader = i - i % LEADER_GROUP;
            if i == leader {
                leader_at = position;
            } else {
                let group_side = (LEADER_GROUP as f32 / FLOCK_DENSITY).sqrt();
                position = leader_at + Vec3::new(direction.y, direction.x, 0.0) * 0.5 * group_side;
            }
        }
        let start =
            Kinematics { position, velocity: direction.normalize_or(Vec3::X) * 5.0, orientation: 0.0 };
        let (behaviour, more) = match kernel {
            Kernel::CollisionAvoidance => {
                (Behaviour::CollisionAvoidance { params: CollisionAvoidanceParams::default() }, Vec::new())
            }
            Kernel::LeaderCrowd => {
                let apart = FlockingParams {
                    separation: 10.0,
                    alignment: 0.0,
                    cohesion: 0.0,
                    separation_radius: FLOCK_RADIUS,
                    radius: FLOCK_RADIUS,
                    view_angle: std::f32::consts::TAU,
                };
                let apart = Entry::new(Behaviour::Flocking { params: apart }, Slot { weight: 1.0, group: 0 });
                let leader = i - i % LEADER_GROUP;
                if i == leader {
                    let wander =
                        WanderParams { seed: wander_seed(i, n_agents, variant), ..flock_wander_params() };
                    (Behaviour::Wander { params: wander }, vec![apart])
                } else {
                    let params = LeaderFollowingParams { behind: 10.0, ..LeaderFollowingParams::default() };
                    (Behaviour::LeaderFollowing { agent: leader, params }, vec![apart])
                }
            }
            _ => {
                let params = FlockingParams {
                    separation: 2.0,
                    alignment: 1.0,
                    cohesion: 1.0,
                    separation_radius: FLOCK_RADIUS,
                    radius: FLOCK_RADIUS,
                    view_angle: std::f32::consts::TAU,
                };
                let wander =
                    WanderParams { seed: wander_seed(i, n_agents, variant), ..flock_wander_params() };
                let entry = Entry::new(Behaviour::Wander { params: wander }, Slot { weight: 0.5, group: 0 });
                (Behaviour::Flocking { params }, vec![entry])
            }
        };
        // A leader a little slower than its followers, so that they keep up.
        let limits = match kernel {
            Kernel::LeaderCrowd if i % LEADER_GROUP == 0 => {
                Limits { max_speed: 0.7 * limits.max_speed, ..limits }
            }
            _ => limits,
        };
        let mut agent = Agent::new(format!("a{i}"), Rgb(200, 80, 80), start, limits, behaviour);
        agent.mix = Mix { more: more.into(), ..Mix::DEFAULT }.into();
        world.agents.push(agent);
    }
    world.reset();
    world
}

/// `base` (the window's frame measurement uses the built-in compare scene) with `n` agents
/// spread evenly along its first path, cycling through its agents as templates: the crowd that
/// `steerlab frames --agents N` and `examples/crowd_layer_speed.rs` measure. A scene without a
/// path or without agents is returned as it is.
pub fn crowd_world(mut world: World, n: usize) -> World {
    let templates = world.agents.clone();
    let Some(path) = world.paths.first().map(|p| p.polyline.clone()) else { return world };
    if templates.is_empty() {
        return world;
    }
    let mut agents = Vec::with_capacity(n);
    for i in 0..n {
        let Some(template) = templates.get(i % templates.len()) else { break };
        let mut agent = template.clone();
        let distance = path.length() * i as f32 / n as f32;
        agent.about.start.position = path.point_at_distance(distance);
        agent.about.start.velocity = path.direction_at_distance(distance) * 100.0;
        agent.about.name = format!("{} {}", template.about.name, i + 1);
        agents.push(agent);
    }
    // Laid out by kind, as a scene read from a file is (see `Agents`' `From<Vec<Agent>>`).
    world.agents = agents.into();
    world.reset();
    world
}

/// Wander as the flocking benchmark (and Yuka's `flock.mjs`) sets it up, without its seed.
fn flock_wander_params() -> WanderParams {
    WanderParams { radius: 1.0, distance: 5.0, jitter: 5.0, ..WanderParams::default() }
}

/// Nanoseconds per agent-step of predictive following alone — the behaviour (its two path
/// projections included) and the integration, without the simulation's metrics and events —
/// the job peers' figures measure: [`PredictiveBench`] with `n_agents` agents on a closed path
/// of `segments` segments, on a pool of `threads` threads. Returns (wall clock, on-CPU): see
/// `time_steps`.
pub fn predictive_behaviour_only_ns(
    n_agents: usize,
    segments: usize,
    steps: u64,
    threads: usize,
) -> (f64, Option<f64>) {
    predictive_behaviour_only_ns_with(n_agents, segments, steps, threads, true)
}

/// [`predictive_behaviour_only_ns`], with the observation made ahead of time beside the
/// integration as the simulation makes it (`observe_ahead`), or not (each step then makes its
/// projections itself at its start): the measured gain of predictive's observation cache.
pub fn predictive_behaviour_only_ns_with(
    n_agents: usize,
    segments: usize,
    steps: u64,
    threads: usize,
    observe_ahead: bool,
) -> (f64, Option<f64>) {
    let measure = move || {
        let mut crowd = PredictiveBench::new(n_agents, segments, observe_ahead);
        for _ in 0..5 {
            crowd.step();
        }
        time_steps(n_agents, steps, threads, || crowd.step())
    };
    on_threads(threads, measure, (f64::NAN, None))
}

/// The same job stepped by [`predictive::step_plain`] (one vector of agents, one thread): what
/// the behaviour-only figure measured before the kernel was made structure-of-arrays.
pub fn predictive_plain_ns(n_agents: usize, segments: usize, steps: u64) -> (f64, Option<f64>) {
    let mut crowd = PredictiveBench::new(n_agents, segments, true).plain();
    for _ in 0..5 {
        predictive::step_plain(&mut crowd);
    }
    time_steps(n_agents, steps, 1, || predictive::step_plain(&mut crowd))
}

/// Runs `steps` steps after a short warm-up and returns nanoseconds per agent-step.
pub fn ns_per_agent_step(world: &mut World, steps: u64) -> f64 {
    world.run_steps(5);
    let agents = world.agents.len().max(1) as f64;
    let start = Instant::now();
    world.run_steps(steps);
    let elapsed = start.elapsed().as_nanos() as f64;
    elapsed / (agents * steps.max(1) as f64)
}

/// Steps the behaviour table lets every crowd take before it measures (see
/// [`ns_per_agent_step_alike`]).
pub const TABLE_WARM_UP: u64 = 5;
/// Steps the behaviour table measures on each copy of a warmed-up crowd.
pub const TABLE_STEPS: u64 = 3;

/// Agents that the timed copies of a small crowd hold between them, at least
/// ([`crowds_alike`]).
pub const DISTINCT_AGENTS: usize = 16_384;

/// The crowds [`ns_per_agent_step_alike`] times for `kernel` at `n_agents`: variants of
/// [`world_for`]'s world ([`world_variant`]) until they hold [`DISTINCT_AGENTS`] agents
/// between them (one for 16,384 agents and more, 17 for 1,000).
///
/// Why: timed on copies of one crowd, a small crowd replays the same agent-steps copy after
/// copy, and the processor's predictors learn them. Measured (one thread, on-CPU ns per
/// agent-step, 1,000 agents, two rounds each, idle, 2026-11-26): copies of one crowd against
/// copies of 10 crowds of the same size, wander 66.8-67.0 against 76.2-76.4, seek 35.3-35.4
/// against 39.4-39.6, flee 33.9 against 37.9-39.4, where 10,000 agents read 77.6, 39.6 and
/// 37.4: the step from 1,000 to 10,000 agents was the replay, not the caches.
pub fn crowds_alike(kernel: Kernel, n_agents: usize, segments: usize) -> Vec<World> {
    let variants = DISTINCT_AGENTS.div_ceil(n_agents.max(1));
    (0..variants as u64).map(|variant| world_variant(kernel, n_agents, segments, variant)).collect()
}

/// Nanoseconds per agent-step over the same steps of `crowds` (variants of one scene, see
/// [`crowds_alike`]) whatever their size: steps [`TABLE_WARM_UP`] to [`TABLE_WARM_UP`] +
/// [`TABLE_STEPS`], timed on as many copies of the crowds, each warmed up once and taken in
/// turn, as make about `budget` agent-steps (one copy for a big crowd, a thousand for a small
/// one); `clock` reads nanoseconds (wall or on-CPU time).
///
/// Why copies, not more steps: a crowd's cost changes as the scene plays out (arriving agents
/// slow down and stop, evaders scatter), and a small crowd stepped for longer, to be timed as
/// long as a big one, was measured in a later part of the scene. Arrive, for one, showed
/// 1,000 agents at 29 ns against 50 at 1,000,000 (one thread, on-CPU, 2026-11-26): the small
/// crowd had mostly arrived.
pub fn ns_per_agent_step_alike(crowds: &[World], budget: u64, clock: impl Fn() -> u64) -> f64 {
    ns_per_agent_step_alike_timed(crowds, budget, |copy| {
        let start = clock();
        copy.run_steps(TABLE_STEPS);
        clock().saturating_sub(start)
    })
}

/// [`ns_per_agent_step_alike`] with the timing of each copy's [`TABLE_STEPS`] steps left to
/// `take_steps`, which steps the copy and returns the nanoseconds it counts (`step_cpu --cold`
/// empties the caches before each step, untimed).
pub fn ns_per_agent_step_alike_timed(
    crowds: &[World],
    budget: u64,
    mut take_steps: impl FnMut(&mut World) -> u64,
) -> f64 {
    let Some(first) = crowds.first() else { return f64::NAN };
    let agents = first.agents.len().max(1) as u64;
    let copies = (budget / (agents * TABLE_STEPS)).clamp(1, 10_000);
    let warmed: Vec<World> = crowds
        .iter()
        .map(|crowd| {
            let mut warmed = crowd.clone();
            warmed.run_steps(TABLE_WARM_UP);
            warmed
        })
        .collect();
    let mut elapsed = 0u64;
    for warmed in warmed.iter().cycle().take(copies as usize) {
        let mut copy = warmed.clone();
        elapsed += take_steps(&mut copy);
    }
    elapsed as f64 / (agents * TABLE_STEPS * copies) as f64
}

/// Wall-clock nanoseconds since the first call (the clock [`print_behaviour_table`] times by).
pub fn wall_ns() -> u64 {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    u64::try_from(EPOCH.get_or_init(Instant::now).elapsed().as_nanos()).unwrap_or(u64::MAX)
}

fn steps_for(n_agents: usize, quick: bool) -> u64 {
    let budget: u64 = if quick { 200_000 } else { 3_000_000 };
    (budget / n_agents.max(1) as u64).clamp(3, 600)
}

/// Fills `plan_time_us` for planner agents by timing their first plan from the start
/// (the shell measures; the simulation never reads a clock).
pub fn fill_plan_times(world: &World, metrics: &mut [MetricsSummary]) {
    fill_plan_times_with(world, metrics, 20);
}

/// [`fill_plan_times`] averaging over `runs` plans (the window uses fewer, now and then).
pub fn fill_plan_times_with(world: &World, metrics: &mut [MetricsSummary], runs: u32) {
    let spheres: Vec<Sphere> =
        world.obstacles.iter().map(|o| Sphere { center: o.start.0, radius: o.radius }).collect();
    for (agent, summary) in world.agents.iter().zip(metrics.iter_mut()) {
        let (Behaviour::Planner { params }, Some(planner)) = (&agent.behaviour, summary.planner.as_mut())
        else {
            continue;
        };
        let options = params.plan_options();
        let radius = agent.limits.radius;
        let index = ObstacleIndex::new(&spheres, radius + params.clearance);
        let runs = runs.max(1);
        let start = Instant::now();
        for _ in 0..runs {
            std::hint::black_box(plan(
                agent.about.start.position,
                radius,
                &params.waypoints,
                &index,
                &options,
            ));
        }
        planner.plan_time_us = Some(start.elapsed().as_secs_f64() * 1e6 / runs as f64);
    }
}

/// Planner timings for a field of `n_obstacles`: (µs to build the index, µs to plan, iterations, status).
pub fn planner_timings(n_obstacles: usize, runs: u32) -> (f64, f64, u32, String) {
    let field = bench_scenario(n_obstacles, 1);
    let options = PlanOptions {
        clearance: field.clearance,
        iteration_limit: 256,
        smoothing: false,
        record: false,
        fallback: FallbackMode::Off,
    };
    let query = field.ship_radius + field.clearance;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(ObstacleIndex::new(&field.obstacles, query));
    }
    let build_us = start.elapsed().as_secs_f64() * 1e6 / runs as f64;
    let index = ObstacleIndex::new(&field.obstacles, query);
    let start = Instant::now();
    let mut result = None;
    for _ in 0..runs {
        result = Some(std::hint::black_box(plan(
            field.start,
            field.ship_radius,
            &field.waypoints,
            &index,
            &options,
        )));
    }
    let plan_us = start.elapsed().as_secs_f64() * 1e6 / runs as f64;
    let (iterations, status) = result.map_or((0, String::new()), |p| (p.iteration_count, p.summary()));
    (build_us, plan_us, iterations, status)
}

/// How big and how wide the report of [`print_report`] is, and whether the peer runs beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchSize<'a> {
    /// Fewer steps and smaller sizes (a smoke run).
    pub quick: bool,
    /// Also 1,000,000 agents (about half a gigabyte of agents, a few minutes).
    pub full: bool,
    /// The "all threads" rows: this many threads (rayon's default: one per core).
    pub threads: usize,
    /// Yuka, run beside the predictive and flocking figures (`steerlab bench --yuka DIR`).
    pub peer: Option<&'a peer::Peer>,
}

/// The behaviour table: ns per agent-step of every kernel at each size, on one thread and on
/// `threads` threads (`World::step` splits crowds of [`crate::sim::PARALLEL_MIN_AGENTS`] or
/// more; smaller ones run on one thread either way).
pub fn print_behaviour_table(out: &mut dyn Write, size: BenchSize) -> std::io::Result<()> {
    let sizes: &[usize] = match (size.quick, size.full) {
        (true, _) => &[1_000, 10_000],
        (false, false) => &[1_000, 10_000, 100_000],
        (false, true) => &[1_000, 10_000, 100_000, 1_000_000],
    };
    let threads = size.threads.max(1);
    writeln!(
        out,
        "steerlab bench — nanoseconds per agent-step (World::step with metrics), 1 and {threads} threads"
    )?;
    write!(out, "{:<24}{:>9}", "behaviour", "threads")?;
    for n in sizes {
        write!(out, "{:>14}", format!("{n} agents"))?;
    }
    writeln!(out)?;
    let pools = [1, threads].map(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build());
    for kernel in Kernel::ALL {
        for (pool, n_threads) in pools.iter().zip([1, threads]) {
            let Ok(pool) = pool else { continue };
            write!(out, "{:<24}{:>9}", if n_threads == 1 { kernel.label() } else { "" }, n_threads)?;
            for &n in sizes {
                let crowds = crowds_alike(kernel, n, 32);
                let budget = kernel.budget(steps_for(n, size.quick) * n as u64);
                let ns = pool.install(|| ns_per_agent_step_alike(&crowds, budget, wall_ns));
                write!(out, "{:>14.1}", ns)?;
            }
            writeln!(out)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Nanoseconds per call of each heading function over the same `n` random directions, best of
/// `rounds` interleaved rounds: the branch-free `heading_atan2` (bit masks behind the one
/// inline-assembly barrier), the same with plain `if`s, and the standard library's `atan2`.
pub fn heading_timings(n: usize, rounds: usize) -> [(&'static str, f64); 3] {
    use crate::behaviours::kinematic::{heading_atan2, heading_atan2_plain};
    let mut rng = SplitMix(7);
    let inputs: Vec<(f32, f32)> = (0..n)
        .map(|_| {
            let angle = rng.next_f32() * std::f32::consts::TAU;
            let length = 0.5 + rng.next_f32() * 100.0;
            (length * angle.sin(), length * angle.cos())
        })
        .collect();
    // Generic, so each function is inlined into its own loop as it is into a step.
    fn time(inputs: &[(f32, f32)], function: impl Fn(f32, f32) -> f32) -> f64 {
        let start = Instant::now();
        let mut sum = 0.0f32;
        for &(y, x) in std::hint::black_box(inputs) {
            sum += function(y, x);
        }
        std::hint::black_box(sum);
        start.elapsed().as_nanos() as f64 / inputs.len().max(1) as f64
    }
    let mut best = [f64::INFINITY; 3];
    for _ in 0..rounds.max(1) {
        best[0] = best[0].min(time(&inputs, heading_atan2));
        best[1] = best[1].min(time(&inputs, heading_atan2_plain));
        best[2] = best[2].min(time(&inputs, f32::atan2));
    }
    [
        ("heading_atan2 (branch-free)", best[0]),
        ("heading_atan2_plain (if)", best[1]),
        ("f32::atan2 (libm)", best[2]),
    ]
}

/// The whole report: behaviours, the predictive-following goal, flocking and the planner.
/// Writes the report of `steerlab bench` to `out` as it measures (a write error, such as a
/// closed pipe, ends it).
pub fn print_report(out: &mut dyn Write, size: BenchSize) -> std::io::Result<()> {
    let quick = size.quick;
    print_behaviour_table(out, size)?;
    writeln!(out)?;
    writeln!(out, "heading from velocity, random directions (ns per call, best of rounds):")?;
    for (name, ns) in heading_timings(if quick { 100_000 } else { 1_000_000 }, if quick { 3 } else { 9 }) {
        writeln!(out, "  {name:<30}{ns:>8.2}")?;
    }
    writeln!(out)?;
    print_predictive(out, size)?;
    writeln!(out)?;
    print_flocking(out, size)?;
    writeln!(out)?;
    print_planner(out, quick)
}

/// The predictive-following part of the report (issue 11's goal): at 10,000 agents (2,000
/// with `quick`) on closed paths of 8 to 1,024 segments, `World::step` and the behaviour with
/// its integration ([`PredictiveBench`]), each on one thread and on `size.threads`.
pub fn print_predictive(out: &mut dyn Write, size: BenchSize) -> std::io::Result<()> {
    let quick = size.quick;
    let n = if quick { 2_000 } else { 10_000 };
    let threads = size.threads.max(1);
    writeln!(
        out,
        "predictive following, {n} agents, closed path of N segments (ns per agent-step, wall clock)"
    )?;
    writeln!(
        out,
        "{:<16}{:>24}{:>24}{:>33}{:>33}{:>12}{:>12}",
        "",
        "World::step 1 thread",
        format!("World::step {threads} threads"),
        "behaviour + integrate 1 thread",
        format!("behaviour + integrate {threads} threads"),
        "Yuka",
        "Yuka/b+i"
    )?;
    let mut peer_errors = Vec::new();
    for segments in [8, 32, 128, 1024] {
        let steps = steps_for(n, quick);
        let world_ns = |threads: usize| {
            on_threads(
                threads,
                move || ns_per_agent_step(&mut world_for(Kernel::Predictive, n, segments), steps),
                f64::NAN,
            )
        };
        let (world_one, world_all) = (world_ns(1), world_ns(threads));
        let (alone_one, _) = predictive_behaviour_only_ns(n, segments, steps, 1);
        let (alone_all, _) = predictive_behaviour_only_ns(n, segments, steps, threads);
        // Yuka's OnPath grows with the segment count: 1,024 segments only in a full run.
        let yuka = size
            .peer
            .filter(|_| segments <= 128 || size.full)
            .map(|peer| peer.path_following(n, steps, segments));
        writeln!(
            out,
            "{:<16}{:>24.1}{:>24.1}{:>33.1}{:>33.1}{:>12}{:>12}",
            format!("{segments} segments"),
            world_one,
            world_all,
            alone_one,
            alone_all,
            peer::figure(&yuka),
            peer::ratio(&yuka, alone_all)
        )?;
        if let Some(Err(err)) = yuka {
            peer_errors.push(err);
        }
        out.flush()?;
    }
    print_peer_note(out, size, &peer_errors, "node bench.mjs N K 0.5 1 SEGMENTS")
}

/// The line under a table with Yuka's column: how Yuka was run, or why it was not.
fn print_peer_note(
    out: &mut dyn Write,
    size: BenchSize,
    errors: &[String],
    how: &str,
) -> std::io::Result<()> {
    match size.peer {
        None => writeln!(out, "(Yuka: not run; `steerlab bench --yuka DIR` runs it beside these figures)"),
        Some(_) if errors.is_empty() => {
            writeln!(out, "(Yuka 0.7.8 run in this same run, `{how}`, same N and K; ratio = Yuka / steerlab)")
        }
        Some(_) => {
            for err in errors {
                writeln!(out, "(Yuka: {err})")?;
            }
            Ok(())
        }
    }
}

/// The planner's part of the report (`steerlab bench --planner` prints only this): the seed's
/// loop through 100 to 10,000 obstacles, the complete fallback on 1,000, and the dense-field
/// checker of issue 9.
pub fn print_planner(out: &mut dyn Write, quick: bool) -> std::io::Result<()> {
    writeln!(out, "planner: 10 waypoints through N obstacles (3D field, grid index)")?;
    writeln!(out, "{:<24}{:>14}{:>14}{:>12}  status", "obstacles", "index µs", "plan µs", "iterations")?;
    for n in [100, 1_000, 10_000] {
        let runs = if quick { 3 } else { 50 };
        let (build_us, plan_us, iterations, status) = planner_timings(n, runs);
        writeln!(out, "{:<24}{:>14.1}{:>14.1}{:>12}  {status}", n, build_us, plan_us, iterations)?;
    }
    writeln!(out)?;
    let fallback = fallback_timings(1_000, if quick { 2 } else { 10 });
    writeln!(
        out,
        "planner fallback (complete grid search) on the 1000-obstacle field, start to each waypoint:"
    )?;
    let cpu = fallback.worst_cpu_us.map_or("-".to_string(), |us| format!("{us:.0} µs"));
    writeln!(
        out,
        "  p50 {:.0} µs, max {:.0} µs wall, max {cpu} on-CPU (this thread's time on a core)",
        fallback.p50_us, fallback.worst_us
    )?;
    writeln!(out)?;
    let per_count = if quick { 10 } else { 75 };
    writeln!(
        out,
        "planner in dense fields (issue 9 checker, {per_count} fields per count, oracle-decided):"
    )?;
    writeln!(
        out,
        "{:<12}{:>10}{:>10}{:>10}{:>14}{:>12}{:>12}",
        "obstacles", "fields", "success", "contacts", "time/grid", "plan p50", "plan p99"
    )?;
    for n in crate::planner::dense::DENSE_COUNTS {
        let r = dense_report(n, per_count);
        writeln!(
            out,
            "{:<12}{:>10}{:>9.1}%{:>10}{:>14.2}{:>10.0}µs{:>10.0}µs",
            n,
            r.fields,
            100.0 * r.succeeded as f64 / r.fields.max(1) as f64,
            r.contacts,
            r.time_over_grid,
            r.plan_p50_us,
            r.plan_p99_us
        )?;
    }
    Ok(())
}

/// Timings of the complete fallback search ([`fallback_timings`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FallbackTiming {
    /// Median wall-clock microseconds of one search.
    pub p50_us: f64,
    /// Worst wall-clock microseconds (other processes' load counts here).
    pub worst_us: f64,
    /// Worst on-CPU microseconds of one search, where Linux reports it.
    pub worst_cpu_us: Option<f64>,
}

/// Microseconds of the complete fallback search from the benchmark field's start to each of its
/// waypoints (median and worst over `runs` rounds, wall clock and on-CPU).
pub fn fallback_timings(n_obstacles: usize, runs: u32) -> FallbackTiming {
    let field = bench_scenario(n_obstacles, 1);
    let radius = field.ship_radius + field.clearance;
    let index = ObstacleIndex::new(&field.obstacles, radius);
    let mut times = Vec::new();
    let mut worst_cpu: Option<f64> = None;
    for _ in 0..runs.max(1) {
        for &w in &field.waypoints {
            let cpu_start = thread_cpu_ns();
            let start = Instant::now();
            std::hint::black_box(crate::planner::fallback::search(field.start, w, &index, radius));
            times.push(start.elapsed().as_secs_f64() * 1e6);
            if let (Some(a), Some(b)) = (cpu_start, thread_cpu_ns()) {
                let us = b.saturating_sub(a) as f64 / 1e3;
                worst_cpu = Some(worst_cpu.map_or(us, |w| w.max(us)));
            }
        }
    }
    times.sort_by(f64::total_cmp);
    FallbackTiming {
        p50_us: percentile(&times, 0.5),
        worst_us: times.last().copied().unwrap_or(0.0),
        worst_cpu_us: worst_cpu,
    }
}

/// What `steerlab bench` reports for the dense fields of one obstacle count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DenseReport {
    /// Fields flown.
    pub fields: usize,
    /// Fields where every reachable waypoint was reached in time, every unreachable one reported
    /// within four replans, and the ship never touched an obstacle.
    pub succeeded: usize,
    /// Fields with any contact.
    pub contacts: usize,
    /// Mean flight time over the grid shortest path at full speed (fields with every waypoint
    /// reachable).
    pub time_over_grid: f64,
    /// Median wall-clock microseconds of a step that replanned.
    pub plan_p50_us: f64,
    /// 99th percentile of the same.
    pub plan_p99_us: f64,
}

/// Flies `fields` dense fields of `n` random obstacles (seeds 0..fields) and measures them.
pub fn dense_report(n: usize, fields: u64) -> DenseReport {
    use crate::planner::dense::{dense_field, time_bound, DenseRun, Outcome};
    let mut report = DenseReport::default();
    let mut plan_times = Vec::new();
    let (mut ratio_sum, mut ratio_n) = (0.0, 0usize);
    for seed in 0..fields {
        let field = dense_field(n, seed);
        let bound = time_bound(&field);
        let mut run = DenseRun::new(&field, 0.0);
        let steps = (bound / crate::planner::dense::DENSE_DT).ceil() as usize + 60;
        while run.steps < steps && !run.resolved() {
            let start = Instant::now();
            if run.step() {
                plan_times.push(start.elapsed().as_secs_f64() * 1e6);
            }
        }
        report.fields += 1;
        let contact = run.contact_steps > 0;
        report.contacts += usize::from(contact);
        let ok = run.outcomes.iter().zip(&field.reachable).all(|(outcome, &reachable)| match *outcome {
            Outcome::Reached(t) => reachable && t <= bound,
            Outcome::ReportedUnreachable(_, replans) => !reachable && replans <= 4,
            Outcome::Pending => false,
        });
        report.succeeded += usize::from(ok && !contact);
        if field.reachable.iter().all(|&r| r) && run.resolved() && field.grid_length > 0.0 {
            ratio_sum +=
                f64::from(run.time() / (field.grid_length / crate::planner::dense::dense_limits().max_speed));
            ratio_n += 1;
        }
    }
    plan_times.sort_by(f64::total_cmp);
    report.time_over_grid = ratio_sum / ratio_n.max(1) as f64;
    report.plan_p50_us = percentile(&plan_times, 0.5);
    report.plan_p99_us = percentile(&plan_times, 0.99);
    report
}

/// The `q` quantile of sorted `values` (0 when empty).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted.get(i).copied().unwrap_or(0.0)
}

/// The flocking kernel of issue 10 §5, set up like Yuka's `flock.mjs` so the two can be run side
/// by side: `n` boids with separation (weight 2) + alignment (1) + cohesion (1) + wander (0.5),
/// neighbour radius 10, max speed 10, max acceleration 20, in a square world that wraps, sized so
/// the density is 0.01 boids per square unit at every `n` (about 3.5 neighbours each).
///
/// The hot data is structure-of-arrays (positions, velocities, wander states) and is put in the
/// spatial hash's cell order every step, so an agent's neighbours are also near it in memory;
/// neighbours are found through [`NeighbourGrid`]; the step is Jacobi (every boid reads the
/// previous step's flock), so it does not depend on the order of the agents and is deterministic.
pub struct FlockBench<V: SteerVector = Vec3> {
    positions: Vec<V>,
    velocities: Vec<V>,
    wander: Vec<WanderState>,
    next_positions: Vec<V>,
    next_velocities: Vec<V>,
    next_wander: Vec<WanderState>,
    /// Unit headings in cell order (scratch of [`Self::step`]).
    headings: Vec<V>,
    /// A planar flock's positions as the 3D points the grid indexes (scratch).
    grid_points: Vec<Vec3>,
    grid: NeighbourGrid,
    buffer: Vec<Neighbour>,
    half_side: f32,
    limits: Limits,
    radius: f32,
    /// Total neighbours seen in the last step.
    neighbour_count: u64,
}

/// Boids of the flocking kernel walked over their neighbours before their tails (the rules'
/// clamps, wander, the dynamic step) are finished together: eight at a time in SIMD lanes for a
/// planar flock (`behaviours::flocking::lanes`). The lanes took the planar kernel's step from
/// about 180 to 139 ns per boid on one thread (10,000 boids at Yuka's neighbour count, on-CPU,
/// best of fresh flocks, `examples/flock_cpu.rs`, 2026-11-25), and picking a run's neighbours
/// without a branch (`flocking_sums_over_runs_of`) from 139 to 118.
const TAIL_BLOCK: usize = 64;

/// Neighbour radius of the flocking benchmark (Yuka's `flock.mjs` R).
pub const FLOCK_RADIUS: f32 = 10.0;
/// Boids per square unit in the flocking benchmark (Yuka's `flock.mjs` density).
pub const FLOCK_DENSITY: f32 = 0.01;
/// Agents per group of [`Kernel::LeaderCrowd`]: a leader and its followers.
pub const LEADER_GROUP: usize = 16;

impl FlockBench {
    /// A flock of `n_boids` at the benchmark's density, seeded, in 3D vectors (whose `z` stays 0).
    pub fn new(n_boids: usize) -> Self {
        Self::with_vectors(n_boids)
    }
}

impl FlockBench<Vec2> {
    /// The same flock as [`FlockBench::new`], kept in 2D vectors: every boid's `x` and `y` are
    /// the 3D flock's, bit for bit (tested), with a third less arithmetic.
    pub fn planar(n_boids: usize) -> Self {
        Self::with_vectors(n_boids)
    }
}

impl<V: SteerVector> FlockBench<V> {
    /// A flock of `n_boids` at the benchmark's density, seeded.
    pub fn with_vectors(n_boids: usize) -> Self {
        let side = (n_boids.max(1) as f32 / FLOCK_DENSITY).sqrt();
        let mut rng = SplitMix(7);
        let mut positions = Vec::with_capacity(n_boids);
        let mut velocities = Vec::with_capacity(n_boids);
        let mut wander = Vec::with_capacity(n_boids);
        for i in 0..n_boids {
            positions.push(V::from_xy((rng.next_f32() - 0.5) * side, (rng.next_f32() - 0.5) * side));
            let direction = Vec3::new(rng.next_f32() * 2.0 - 1.0, rng.next_f32() * 2.0 - 1.0, 0.0);
            velocities.push(V::from_vec3(direction.normalize_or(Vec3::X) * 5.0));
            wander.push(WanderState::new(i as u64));
        }
        FlockBench {
            next_positions: positions.clone(),
            next_velocities: velocities.clone(),
            next_wander: wander.clone(),
            positions,
            velocities,
            wander,
            headings: Vec::with_capacity(n_boids),
            grid_points: Vec::new(),
            grid: NeighbourGrid::new(),
            buffer: Vec::with_capacity(32),
            half_side: side * 0.5,
            limits: Limits { radius: 1.0, max_speed: 10.0, max_acceleration: 20.0 },
            radius: FLOCK_RADIUS,
            neighbour_count: 0,
        }
    }

    /// Rebuilds the grid over the positions and puts the flock in its cell order: the grid's
    /// sorted positions become the positions, and the other arrays follow (gathered on every
    /// thread of the current pool: each slot reads its own agent, so any split gives the same).
    fn put_in_cell_order(&mut self) {
        use rayon::prelude::*;
        let points = match V::as_vec3s(&self.positions) {
            Some(points) => points,
            None => {
                self.grid_points.clear();
                self.grid_points.extend(self.positions.iter().map(|p| p.to_vec3()));
                &self.grid_points
            }
        };
        self.grid.rebuild(points, self.radius);
        let n = self.positions.len();
        self.next_velocities.resize(n, V::ZERO);
        self.next_wander.resize(n, WanderState::new(0));
        self.headings.resize(n, V::ZERO);
        let (velocities, wander) = (&self.velocities, &self.wander);
        let chunk = parallel_chunk(n);
        // One pass over the pool: each slot's velocity, wander state and position gathered from
        // its agent, and its unit heading worked out (a serial pass between two parallel ones
        // leaves the pool's threads asleep, and waking them costs more than the pass).
        self.next_velocities
            .par_chunks_mut(chunk)
            .zip(self.next_wander.par_chunks_mut(chunk))
            .zip(self.headings.par_chunks_mut(chunk))
            .zip(self.positions.par_chunks_mut(chunk))
            .zip(self.grid.order().par_chunks(chunk))
            .zip(self.grid.sorted_positions().par_chunks(chunk))
            .for_each(|(((((next_velocities, next_wander), headings), positions), order), sorted)| {
                let slots = next_velocities.iter_mut().zip(next_wander).zip(headings).zip(positions);
                for ((((nv, nw), heading), position), (&agent_idx, &sorted)) in
                    slots.zip(order.iter().zip(sorted))
                {
                    let i = agent_idx as usize;
                    if let (Some(v), Some(w)) = (velocities.get(i), wander.get(i)) {
                        *nv = *v;
                        *nw = *w;
                        *heading = v.normalize_or_zero();
                    }
                    *position = V::from_vec3(sorted);
                }
            });
        std::mem::swap(&mut self.velocities, &mut self.next_velocities);
        std::mem::swap(&mut self.wander, &mut self.next_wander);
    }

    /// One fixed step of 1/60 s: the flock in cell order, every boid's unit heading computed
    /// once, then, for each block of `TAIL_BLOCK` boids, every boid's walk over its neighbours
    /// straight over the grid's cells
    /// ([`flocking_sums_over_runs_of`](crate::behaviours::flocking::flocking_sums_over_runs_of):
    /// no neighbour list, no closure per neighbour) and its wander draw, then the block's tails
    /// (the rules' clamps, wander's aim, integration; eight at a time in SIMD lanes for a planar
    /// flock, [`crate::behaviours::flocking::lanes`]) and the wrap. The boids are
    /// shared out in chunks over the current rayon pool's threads (one thread inside a one-thread
    /// pool): every boid reads only the previous step's flock and writes only its own slot, so
    /// the result is the same bits on any number of threads (tested).
    pub fn step(&mut self) {
        use crate::behaviours::flocking::{
            finish_tails, flocking_sums_over_runs_of, FlockRules, FlockingWeights, Tail, TailOut, TailShared,
        };
        use crate::behaviours::vector::facing_heading;
        use rayon::prelude::*;
        let separation_p = SeparationParams { radius: self.radius, view_angle: std::f32::consts::TAU };
        let alignment_p = AlignmentParams { radius: self.radius, view_angle: std::f32::consts::TAU };
        let cohesion_p = CohesionParams { radius: self.radius, view_angle: std::f32::consts::TAU };
        let weights = FlockingWeights { separation: 2.0, alignment: 1.0, cohesion: 1.0 };
        let rules = FlockRules::new(&separation_p, &alignment_p, &cohesion_p, &weights);
        let shared = TailShared {
            rules,
            limits: self.limits,
            wander: flock_wander_params(),
            wander_weight: 0.5,
            dt: 1.0 / 60.0,
        };
        self.put_in_cell_order();
        let n = self.positions.len();
        let chunk = parallel_chunk(n);
        self.next_positions.resize(n, V::ZERO);
        self.next_velocities.resize(n, V::ZERO);
        let (half_side, side) = (self.half_side, 2.0 * self.half_side);
        let (grid, headings) = (&self.grid, &self.headings);
        let (positions, velocities) = (&self.positions, &self.velocities);
        let neighbour_count: u64 = self
            .next_positions
            .par_chunks_mut(chunk)
            .zip(self.next_velocities.par_chunks_mut(chunk))
            .zip(self.wander.par_chunks_mut(chunk))
            .enumerate()
            .map(|(chunk_idx, ((next_positions, next_velocities), wander_states))| {
                let mut neighbour_count = 0u64;
                let mut tails = [Tail::<V>::idle(); TAIL_BLOCK];
                let idle_out = TailOut { position: V::ZERO, velocity: V::ZERO, target: V::ZERO };
                let mut outs = [idle_out; TAIL_BLOCK];
                let blocks = next_positions
                    .chunks_mut(TAIL_BLOCK)
                    .zip(next_velocities.chunks_mut(TAIL_BLOCK))
                    .zip(wander_states.chunks_mut(TAIL_BLOCK));
                for (block_idx, ((next_positions, next_velocities), wander_states)) in blocks.enumerate() {
                    let first = chunk_idx * chunk + block_idx * TAIL_BLOCK;
                    // Every boid's walk over its neighbours, then every boid's tail (eight at a
                    // time in lanes for a planar flock).
                    let states = positions.get(first..).unwrap_or_default().iter();
                    let states = states.zip(velocities.get(first..).unwrap_or_default());
                    let states = states.zip(headings.get(first..).unwrap_or_default());
                    for (offset, (((&position, &velocity), &heading), (wander_state, tail))) in
                        states.zip(wander_states.iter_mut().zip(tails.iter_mut())).enumerate()
                    {
                        // Orientation 0: a boid at rest faces along x, as a `Kinematics` at rest
                        // does. Its heading is its velocity's `normalize_or_zero()`, worked out
                        // already.
                        let forward = facing_heading(heading, 0.0);
                        let sums = flocking_sums_over_runs_of(
                            position,
                            forward,
                            positions,
                            headings,
                            grid,
                            first + offset,
                            &rules,
                            |_, _, _| neighbour_count += 1,
                        );
                        *tail = Tail {
                            position,
                            velocity,
                            forward,
                            target: V::from_xy(wander_state.target.x, wander_state.target.y),
                            draw: wander_state.rng.next_signed_pair(),
                            sums,
                        };
                    }
                    let len = next_positions.len();
                    finish_tails(&tails[..len], &mut outs[..len], &shared);
                    let slots = next_positions.iter_mut().zip(next_velocities.iter_mut()).zip(wander_states);
                    for (((next_position, next_velocity), wander_state), out) in slots.zip(&outs) {
                        *next_position = wrap(out.position, half_side, side);
                        *next_velocity = out.velocity;
                        wander_state.target = Vec3::new(out.target.x(), out.target.y(), 0.0);
                    }
                }
                neighbour_count
            })
            .sum();
        std::mem::swap(&mut self.positions, &mut self.next_positions);
        std::mem::swap(&mut self.velocities, &mut self.next_velocities);
        self.neighbour_count = neighbour_count;
    }

    /// Mean number of neighbours per boid in the last step.
    pub fn mean_neighbours(&self) -> f64 {
        self.neighbour_count as f64 / self.positions.len().max(1) as f64
    }

    /// Flock polarization: the length of the mean unit velocity (1 = all aligned, ~0 = random).
    pub fn polarization(&self) -> f64 {
        let sum = self.velocities.iter().fold(V::ZERO, |sum, v| sum + v.normalize_or_zero());
        sum.length_squared().sqrt() as f64 / self.velocities.len().max(1) as f64
    }

    /// The boids' positions (in the current cell order).
    pub fn positions(&self) -> &[V] {
        &self.positions
    }

    /// The boids' velocities (parallel to [`Self::positions`]).
    pub fn velocities(&self) -> &[V] {
        &self.velocities
    }
}

impl FlockBench {
    /// [`Self::step`] as it was first written, kept as its oracle (the two are tested equal bit
    /// for bit): each boid's neighbours gathered into a list by the grid, the list walked by
    /// [`flocking`](crate::behaviours::flocking::flocking), every heading normalised by every
    /// boid that sees it (`examples/profile_step.rs flock` under callgrind counts the
    /// instructions of [`Self::step`]; the README gives the figures).
    pub fn step_plain(&mut self) {
        use crate::behaviours::flocking::{flocking, FlockingWeights};
        use crate::behaviours::{wander, Gizmos, Steering};
        const DT: f32 = 1.0 / 60.0;
        let separation_p = SeparationParams { radius: self.radius, view_angle: std::f32::consts::TAU };
        let alignment_p = AlignmentParams { radius: self.radius, view_angle: std::f32::consts::TAU };
        let cohesion_p = CohesionParams { radius: self.radius, view_angle: std::f32::consts::TAU };
        let wander_p = flock_wander_params();
        let weights = FlockingWeights { separation: 2.0, alignment: 1.0, cohesion: 1.0 };
        let mut gizmos = Gizmos::disabled();
        self.put_in_cell_order();
        let limits = self.limits;
        let mut neighbour_count = 0u64;
        let n = self.positions.len();
        self.next_positions.resize(n, Vec3::ZERO);
        self.next_velocities.resize(n, Vec3::ZERO);
        for slot in 0..n {
            let (Some(&position), Some(&velocity), Some(wander_state)) =
                (self.positions.get(slot), self.velocities.get(slot), self.wander.get_mut(slot))
            else {
                continue;
            };
            self.buffer.clear();
            let velocities = &self.velocities;
            let buffer = &mut self.buffer;
            self.grid.for_each_within(position, self.radius, |other, other_position| {
                if other != slot {
                    let velocity = velocities.get(other).copied().unwrap_or_default();
                    buffer.push(Neighbour { position: other_position, velocity });
                }
            });
            neighbour_count += self.buffer.len() as u64;
            let mut k = Kinematics { position, velocity, orientation: 0.0 };
            let mut linear =
                flocking(&k, &limits, &self.buffer, &separation_p, &alignment_p, &cohesion_p, &weights);
            if let Steering::Acceleration(a) =
                wander::wander(&k, &limits, wander_state, &wander_p, DT, &mut gizmos)
            {
                linear += a * 0.5;
            }
            crate::sim::integrate(&mut k, &limits, Steering::Acceleration(linear), DT);
            let side = 2.0 * self.half_side;
            let mut p = k.position;
            if p.x > self.half_side {
                p.x -= side;
            } else if p.x < -self.half_side {
                p.x += side;
            }
            if p.y > self.half_side {
                p.y -= side;
            } else if p.y < -self.half_side {
                p.y += side;
            }
            if let (Some(np), Some(nv)) =
                (self.next_positions.get_mut(slot), self.next_velocities.get_mut(slot))
            {
                *np = p;
                *nv = k.velocity;
            }
        }
        std::mem::swap(&mut self.positions, &mut self.next_positions);
        std::mem::swap(&mut self.velocities, &mut self.next_velocities);
        self.neighbour_count = neighbour_count;
    }
}

/// The chunk length that shares `n` boids out over the current rayon pool: sixteen chunks per
/// thread (so one that finishes early takes another: boids in crowded cells cost more; four a
/// thread left 10,000 boids on two threads 1.5% slower), and never below 256 boids (handing out
/// a chunk costs about a microsecond).
fn parallel_chunk(n: usize) -> usize {
    n.div_ceil(rayon::current_num_threads() * 16).max(256)
}

/// A point of the wrapping square of half-width `half_side` (and width `side`) put back inside.
#[inline]
fn wrap<V: SteerVector>(p: V, half_side: f32, side: f32) -> V {
    let (mut x, mut y) = (p.x(), p.y());
    if x > half_side {
        x -= side;
    } else if x < -half_side {
        x += side;
    }
    if y > half_side {
        y -= side;
    } else if y < -half_side {
        y += side;
    }
    p.with_xy(x, y)
}

/// What one run of the flocking benchmark measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockTiming {
    /// Wall-clock nanoseconds per agent-step.
    pub wall_ns: f64,
    /// On-CPU nanoseconds per agent-step of this thread ([`thread_cpu_ns`]; unaffected by
    /// other processes taking the cores), if available.
    pub cpu_ns: Option<f64>,
    /// Mean neighbours per boid in the last step.
    pub neighbours: f64,
    /// Polarization at the end.
    pub polarization: f64,
}

impl FlockTiming {
    /// No timing (the pool could not be made): NaN everywhere.
    pub const FAILED: FlockTiming =
        FlockTiming { wall_ns: f64::NAN, cpu_ns: None, neighbours: f64::NAN, polarization: f64::NAN };
}

/// On-CPU nanoseconds of every thread of this process so far (rayon's workers and the GL
/// driver's rasteriser threads included, and threads that have ended), where the system has
/// the clock (`CLOCK_PROCESS_CPUTIME_ID`).
pub fn process_cpu_ns() -> Option<u64> {
    cpu_clock_ns(CpuClock::Process)
}

/// This thread's time on a CPU in nanoseconds, where the system has the clock
/// (`CLOCK_THREAD_CPUTIME_ID`).
///
/// Not `/proc/thread-self/schedstat`, which this read before 2026-11-26: Linux updates that
/// file's figure for a running thread only at the scheduler's tick, so it advanced in steps of
/// 4 ms here (`HZ` = 250), and a timing of 160 ms came out in whole ticks. Best-of-five
/// figures then kept the luckiest rounding: flee at 10,000 agents read 6.0 and 27.1 ns per
/// agent-step in two rounds where the clock read here gives 36-38
/// (`cpu_clock_resolves_below_a_tick` guards the resolution).
pub fn thread_cpu_ns() -> Option<u64> {
    cpu_clock_ns(CpuClock::Thread)
}

/// Which on-CPU clock [`cpu_clock_ns`] reads.
#[derive(Clone, Copy)]
enum CpuClock {
    Thread,
    Process,
}

#[cfg(unix)]
fn cpu_clock_ns(clock: CpuClock) -> Option<u64> {
    use nix::time::{clock_gettime, ClockId};
    let id = match clock {
        CpuClock::Thread => ClockId::CLOCK_THREAD_CPUTIME_ID,
        CpuClock::Process => ClockId::CLOCK_PROCESS_CPUTIME_ID,
    };
    let time = std::time::Duration::from(clock_gettime(id).ok()?);
    u64::try_from(time.as_nanos()).ok()
}

#[cfg(not(unix))]
fn cpu_clock_ns(_clock: CpuClock) -> Option<u64> {
    None
}

/// Runs `f` on a rayon pool of `threads` threads (what the flocking kernel and `World::step`
/// share their work among); NaN timings if the pool cannot be made.
fn on_threads<T>(threads: usize, f: impl FnOnce() -> T + Send, failed: T) -> T
where
    T: Send,
{
    match rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build() {
        Ok(pool) => pool.install(f),
        Err(_) => failed,
    }
}

/// Wall-clock and on-CPU nanoseconds per agent-step of `steps` calls of `step` over `agents`
/// agents. On-CPU time is this thread's ([`thread_cpu_ns`]) when `threads` is 1 —
/// other processes cannot inflate it — and the whole process's (every worker's) otherwise.
fn time_steps(agents: usize, steps: u64, threads: usize, mut step: impl FnMut()) -> (f64, Option<f64>) {
    let cpu_now = if threads <= 1 { thread_cpu_ns } else { process_cpu_ns };
    let cpu_start = cpu_now();
    let start = Instant::now();
    for _ in 0..steps {
        step();
    }
    let elapsed = start.elapsed().as_nanos() as f64;
    let agent_steps = agents.max(1) as f64 * steps.max(1) as f64;
    let cpu_ns = match (cpu_start, cpu_now()) {
        (Some(a), Some(b)) if b >= a => Some((b - a) as f64 / agent_steps),
        _ => None,
    };
    (elapsed / agent_steps, cpu_ns)
}

/// Times the flocking kernel with `n_boids` over `steps` steps after a warm-up of 10 steps, on
/// `threads` threads, in 3D vectors ([`FlockBench::new`]).
pub fn flock_ns_per_agent_step(n_boids: usize, steps: u64, threads: usize) -> FlockTiming {
    flock_timing::<Vec3>(n_boids, steps, threads)
}

/// [`flock_ns_per_agent_step`] for the planar kernel ([`FlockBench::planar`]: 2D vectors, the
/// same boids' x and y bit for bit).
pub fn planar_flock_ns_per_agent_step(n_boids: usize, steps: u64, threads: usize) -> FlockTiming {
    flock_timing::<Vec2>(n_boids, steps, threads)
}

fn flock_timing<V: SteerVector>(n_boids: usize, steps: u64, threads: usize) -> FlockTiming {
    let measure = move || {
        let mut flock = FlockBench::<V>::with_vectors(n_boids);
        for _ in 0..10 {
            flock.step();
        }
        let (wall_ns, cpu_ns) = time_steps(n_boids, steps, threads, || flock.step());
        FlockTiming {
            wall_ns,
            cpu_ns,
            neighbours: flock.mean_neighbours(),
            polarization: flock.polarization(),
        }
    };
    on_threads(threads, measure, FlockTiming::FAILED)
}

/// The planar flocking kernel timed as Yuka's `flock.mjs N 20` runs: a fresh flock, 10 steps of
/// warm-up, then the 20 steps timed, in which the flock reaches about Yuka's neighbour count
/// (the flock gathers as it runs: the longer runs of [`print_flocking`]'s first table see more
/// neighbours a boid and cost more). The best of `rounds` fresh flocks (wall clock), with that
/// round's neighbour count.
pub fn planar_flock_at_yuka_neighbours(n_boids: usize, threads: usize, rounds: usize) -> FlockTiming {
    let mut best: Option<FlockTiming> = None;
    for _ in 0..rounds.max(1) {
        let t = planar_flock_ns_per_agent_step(n_boids, YUKA_FLOCK_STEPS, threads);
        if best.as_ref().is_none_or(|b| b.wall_ns.is_nan() || t.wall_ns < b.wall_ns) {
            best = Some(t);
        }
    }
    best.unwrap_or(FlockTiming::FAILED)
}

/// The steps Yuka's flocking benchmark is run for beside ours (`node flock.mjs N 20 10 0.01`).
pub const YUKA_FLOCK_STEPS: u64 = 20;

/// Times `steps` steps of [`World::step`] on `threads` threads on the flocking crowd of
/// [`Kernel::Flocking`] with `n_boids` after a warm-up of 10 steps: the simulation's own
/// flocking, metrics and all, set up as [`FlockBench`]. Returns (wall, on-CPU) ns per agent-step.
pub fn world_flock_ns_per_agent_step(n_boids: usize, steps: u64, threads: usize) -> (f64, Option<f64>) {
    let measure = move || {
        let mut world = world_for(Kernel::Flocking, n_boids, 0);
        world.run_steps(10);
        time_steps(n_boids, steps, threads, || world.step())
    };
    on_threads(threads, measure, (f64::NAN, None))
}

/// Writes the flocking section of `steerlab bench` (also `steerlab bench --flock` alone): the
/// flocking kernel ([`FlockBench`]) and the same flock as agents of [`World::step`], each on one
/// thread and on `size.threads`, at 1,000 to 100,000 boids (and 1,000,000 with `size.full`).
pub fn print_flocking(out: &mut dyn Write, size: BenchSize) -> std::io::Result<()> {
    let sizes: &[usize] = match (size.quick, size.full) {
        (true, _) => &[1_000, 10_000],
        (false, false) => &[1_000, 10_000, 100_000],
        (false, true) => &[1_000, 10_000, 100_000, 1_000_000],
    };
    let thread_counts = if size.threads > 1 { vec![1, size.threads] } else { vec![1] };
    writeln!(out,
        "flocking: separation + alignment + cohesion + wander, radius {FLOCK_RADIUS}, {FLOCK_DENSITY} boids/unit² \
         (as Yuka's flock.mjs)"
    )?;
    writeln!(
        out,
        "{:<10}{:>8}{:>12}{:>12}{:>12}{:>12}{:>14}{:>16}{:>16}",
        "boids",
        "threads",
        "wall ns",
        "cpu ns",
        "3D wall ns",
        "neighbours",
        "polarization",
        "World wall ns",
        "World cpu ns"
    )?;
    for &n in sizes {
        let steps = if size.quick {
            (200_000 / n as u64).clamp(3, 100)
        } else {
            (5_000_000 / n as u64).clamp(10, 1_000)
        };
        for &threads in &thread_counts {
            let t = planar_flock_ns_per_agent_step(n, steps, threads);
            let cpu = t.cpu_ns.map_or("-".to_string(), |ns| format!("{ns:.1}"));
            let in_3d = flock_ns_per_agent_step(n, steps, threads);
            let (world_wall, world_cpu) = world_flock_ns_per_agent_step(n, steps, threads);
            let world_cpu = world_cpu.map_or("-".to_string(), |ns| format!("{ns:.1}"));
            writeln!(
                out,
                "{:<10}{:>8}{:>12.1}{:>12}{:>12.1}{:>12.2}{:>14.3}{:>16.1}{:>16}",
                n,
                threads,
                t.wall_ns,
                cpu,
                in_3d.wall_ns,
                t.neighbours,
                t.polarization,
                world_wall,
                world_cpu
            )?;
            out.flush()?;
        }
    }
    writeln!(
        out,
        "(ns per agent-step of the planar kernel (2D vectors; 3D = the same kernel in 3D vectors, the same x \
         and y bit for bit); cpu = time on a core: this thread's with 1 thread, which other processes \
         cannot inflate, every thread's otherwise; World = the same flock as agents of World::step, metrics on)"
    )?;
    let rounds = if size.quick { 2 } else { 5 };
    writeln!(
        out,
        "\nflocking kernel at Yuka's neighbour count: steps 10-{} of a fresh flock, as `node flock.mjs N {} 10 0.01` \
         (best of {rounds})",
        10 + YUKA_FLOCK_STEPS,
        YUKA_FLOCK_STEPS
    )?;
    writeln!(
        out,
        "{:<10}{:>8}{:>12}{:>12}{:>12}{:>16}{:>12}",
        "boids", "threads", "wall ns", "neighbours", "Yuka ns", "Yuka neighbours", "Yuka/ours"
    )?;
    let mut peer_errors = Vec::new();
    for &n in sizes.iter().filter(|&&n| n <= 100_000) {
        // Yuka's flock of 100,000 takes minutes: only in a full run.
        let yuka = size.peer.filter(|_| n <= 10_000 || size.full).map(|peer| peer.flock(n, YUKA_FLOCK_STEPS));
        for &threads in &thread_counts {
            let t = planar_flock_at_yuka_neighbours(n, threads, rounds);
            let yuka_neighbours = match &yuka {
                Some(Ok(run)) => run.neighbours.map_or("-".to_string(), |v| format!("{v:.2}")),
                _ => "-".to_string(),
            };
            writeln!(
                out,
                "{:<10}{:>8}{:>12.1}{:>12.2}{:>12}{:>16}{:>12}",
                n,
                threads,
                t.wall_ns,
                t.neighbours,
                peer::figure(&yuka),
                yuka_neighbours,
                peer::ratio(&yuka, t.wall_ns)
            )?;
            out.flush()?;
        }
        if let Some(Err(err)) = yuka {
            peer_errors.push(err);
        }
    }
    print_peer_note(out, size, &peer_errors, "node flock.mjs N 20 10 0.01")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The median of 20 successive advances of `clock`, read in a busy loop.
    fn median_advance(clock: fn() -> Option<u64>) -> u64 {
        let mut last = clock().expect("the clock is there on Linux");
        let mut advances = Vec::new();
        while advances.len() < 20 {
            let now = clock().expect("the clock is there on Linux");
            assert!(now >= last, "the clock went back: {last} -> {now}");
            if now > last {
                advances.push(now - last);
                last = now;
            }
        }
        advances.sort_unstable();
        advances[advances.len() / 2]
    }

    /// The on-CPU clocks advance by the time of one read, not by the scheduler's tick (4 ms
    /// here, 1–10 ms elsewhere): `/proc/thread-self/schedstat`, read before, advanced by whole
    /// ticks, and best-of-five timings kept its luckiest rounding (see [`thread_cpu_ns`]).
    #[test]
    #[cfg(target_os = "linux")]
    fn cpu_clock_resolves_below_a_tick() {
        for (name, clock) in [("thread", thread_cpu_ns as fn() -> Option<u64>), ("process", process_cpu_ns)] {
            let median = median_advance(clock);
            assert!(median < 100_000, "the {name} clock advances by {median} ns at a time");
        }
        fn schedstat() -> Option<u64> {
            let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
            text.split_whitespace().next()?.parse().ok()
        }
        // What the clock read before gives on this kernel, for the record (the test fails with
        // it wherever the kernel updates it only at the tick, as here).
        if schedstat().is_some() {
            let median = median_advance(schedstat);
            eprintln!("schedstat advances by {median} ns at a time");
        }
    }
}

#[cfg(test)]
mod crowd_tests {
    use super::*;

    /// The kernels that join a behaviour to a moving one do what their labels say: the ships
    /// plan every 0.05 s and get past the pillars to waypoints; avoidance keeps followers off
    /// the pillars standing on their path (without it they run into them); facers turn toward
    /// the agent they face, not along their velocity; leader followers keep near their leader.
    #[test]
    fn the_added_kernels_do_what_their_labels_say() {
        let run = |kernel: Kernel, seconds: u64| {
            let mut world = world_for(kernel, 64, 32);
            world.run_steps(seconds * 60);
            world
        };
        let ships = run(Kernel::Planner, 12);
        for summary in ships.metrics() {
            let planner = summary.planner.expect("a ship's metrics");
            assert!(planner.replans >= 200, "{}: {} replans in 12 s", summary.name, planner.replans);
            assert!(planner.waypoints_reached >= 1, "{}: no waypoint reached", summary.name);
            assert_eq!(summary.collisions, 0, "{}", summary.name);
        }

        let avoiding = run(Kernel::AvoidObstacles, 8);
        let mut plain = world_for(Kernel::AvoidObstacles, 64, 32);
        for agent in plain.agents.iter_mut() {
            agent.set_avoid_obstacles(false, AvoidParams::default());
        }
        plain.run_steps(8 * 60);
        let collisions = |world: &World| world.metrics().iter().map(|m| m.collisions).sum::<u32>();
        assert!(
            collisions(&plain) >= 32,
            "without avoidance the followers hit the pillars: {}",
            collisions(&plain)
        );
        assert!(
            collisions(&avoiding) * 10 <= collisions(&plain),
            "{} collisions with avoidance, {} without",
            collisions(&avoiding),
            collisions(&plain)
        );

        let heading_error = |world: &World, toward: &dyn Fn(usize) -> Vec3| {
            let errors: Vec<f32> = (0..world.agents.len())
                .map(|i| {
                    let agent = &world.agents[i];
                    let want = toward(i);
                    let (sin, cos) = agent.kinematics.orientation.sin_cos();
                    Vec2::new(cos, sin).angle_between(Vec2::new(want.x, want.y)).abs()
                })
                .collect();
            errors.iter().sum::<f32>() / errors.len() as f32
        };
        let facers = run(Kernel::Face, 4);
        let at = |world: &World, i: usize| world.agents[i].kinematics.position;
        let n = facers.agents.len();
        let to_next = |i: usize| at(&facers, (i + 1) % n) - at(&facers, i);
        let along = |i: usize| facers.agents[i].kinematics.velocity;
        assert!(heading_error(&facers, &to_next) < 0.2, "facers: {}", heading_error(&facers, &to_next));
        assert!(heading_error(&facers, &along) > 0.5, "facers look along their velocity");
        let lookers = run(Kernel::LookWhereYouAreGoing, 4);
        let along = |i: usize| lookers.agents[i].kinematics.velocity;
        assert!(heading_error(&lookers, &along) < 0.2, "lookers: {}", heading_error(&lookers, &along));

        let followers = run(Kernel::LeaderFollowing, 10);
        let gaps: Vec<f32> =
            (0..n).map(|i| at(&followers, i).distance(at(&followers, (i + 1) % n))).collect();
        let mean_gap = gaps.iter().sum::<f32>() / n as f32;
        assert!(mean_gap < 150.0, "followers {mean_gap} from their leaders on average");

        // The crowd's followers close on their leaders and keep apart from one another.
        let gap_to_leaders = |world: &World| {
            let gaps: Vec<f32> = (0..world.agents.len())
                .filter(|i| i % LEADER_GROUP != 0)
                .map(|i| at(world, i).distance(at(world, i - i % LEADER_GROUP)))
                .collect();
            gaps.iter().sum::<f32>() / gaps.len() as f32
        };
        let crowd = run(Kernel::LeaderCrowd, 10);
        // The same crowd with every follower wandering instead, its leader forgotten.
        let mut wanderers = world_for(Kernel::LeaderCrowd, 64, 32);
        for (i, agent) in wanderers.agents.iter_mut().enumerate() {
            if i % LEADER_GROUP != 0 {
                let params = WanderParams { seed: i as u32, ..flock_wander_params() };
                agent.behaviour = Behaviour::Wander { params };
                agent.state = crate::sim::BehaviourState::start(&agent.behaviour);
            }
        }
        wanderers.run_steps(10 * 60);
        assert!(
            gap_to_leaders(&crowd) < 0.5 * gap_to_leaders(&wanderers),
            "followers {} from their leaders after 10 s, wanderers {}",
            gap_to_leaders(&crowd),
            gap_to_leaders(&wanderers)
        );
        // Separation keeps them apart: the same crowd without it ends up closer together.
        let nearest = |world: &World| {
            let n = world.agents.len();
            let sum: f32 = (0..n)
                .map(|i| {
                    (0..n)
                        .filter(|&j| j != i)
                        .map(|j| at(world, i).distance(at(world, j)))
                        .fold(f32::MAX, f32::min)
                })
                .sum();
            sum / n as f32
        };
        let mut huddled = world_for(Kernel::LeaderCrowd, 64, 32);
        for agent in huddled.agents.iter_mut() {
            agent.mix.edit().more.clear();
        }
        huddled.run_steps(10 * 60);
        assert!(
            nearest(&crowd) > 2.0 * nearest(&huddled),
            "the nearest other {} away on average, {} without separation",
            nearest(&crowd),
            nearest(&huddled)
        );
    }

    /// Variant 0 is `world_for`'s world; the others place every kernel's agents elsewhere,
    /// and the crowds timed together hold at least `DISTINCT_AGENTS` agents.
    #[test]
    fn crowd_variants_differ_and_variant_zero_is_the_bench_world() {
        let starts = |world: &World| world.agents.iter().map(|a| a.about.start.position).collect::<Vec<_>>();
        for kernel in Kernel::ALL {
            let world = world_for(kernel, 300, 8);
            assert_eq!(starts(&world_variant(kernel, 300, 8, 0)), starts(&world), "{}", kernel.label());
            let other = world_variant(kernel, 300, 8, 1);
            assert_eq!(other.agents.len(), 300);
            let moved = starts(&other).iter().zip(starts(&world)).filter(|(a, b)| *a != b).count();
            assert!(moved > 290, "{}: {moved} of 300 agents placed elsewhere", kernel.label());
        }
        for n in [1, 1000, 16_383, 16_384, 100_000] {
            let count = DISTINCT_AGENTS.div_ceil(n);
            assert!(count * n >= DISTINCT_AGENTS && (count - 1) * n < DISTINCT_AGENTS, "{n}");
        }
        let crowds = crowds_alike(Kernel::Wander, 5_000, 8);
        assert_eq!(crowds.len(), 4);
        let seeds: std::collections::BTreeSet<u32> = crowds
            .iter()
            .flat_map(|w| w.agents.iter())
            .filter_map(|a| match a.behaviour {
                Behaviour::Wander { params } => Some(params.seed),
                _ => None,
            })
            .collect();
        assert_eq!(seeds.len(), 20_000, "every wanderer of the four crowds draws from its own seed");
    }
}
