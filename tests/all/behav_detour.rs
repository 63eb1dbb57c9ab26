//! The detour in the combination of obstacle avoidance with an agent's behaviour list (issue 10
//! §3: "wherever an agent's limits allow it to keep clear of static obstacles, it does", and it
//! still gets where it is going): seek, arrive, hide and offset pursuit, each with an
//! `avoid_obstacles` entry in priority before it, cross random dense fields of static rocks
//! with a rock across the way to their goal. An oracle independent of the simulation checks
//! every step that the body is clear of every rock (centre distance ≥ the sum of the radii),
//! and at the end that the goal was reached (or, for hide, that the hider is out of sight).

use glam::Vec3;
use steerlab::behaviours::hide::best_hiding_spot;
use steerlab::behaviours::offset_pursuit::slot_position;
use steerlab::behaviours::{AvoidParams, HideParams, Kinematics, Limits, OffsetPursuitParams, WanderParams};
use steerlab::geometry::Sphere;
use steerlab::sim::{Agent, Behaviour, Obstacle, Rgb, Target, World};

/// A small deterministic generator (splitmix64), so every field can be named by its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// What the agent under test does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Seek,
    Arrive,
    Hide,
    OffsetPursuit,
}

/// The slot of the offset pursuer behind its standing leader (the default offset).
const SLOT_OFFSET: (f32, f32) = (-40.0, 30.0);

/// An agent that only brakes where it stands (wander on a circle of radius 0 at distance 0).
fn standing() -> Behaviour {
    Behaviour::Wander { params: WanderParams { radius: 0.0, distance: 0.0, jitter: 0.0, seed: 1 } }
}

fn agent(name: &str, position: Vec3, limits: Limits, behaviour: Behaviour) -> Agent {
    let start = Kinematics { position, ..Kinematics::default() };
    Agent::new(name.into(), Rgb(1, 2, 3), start, limits, behaviour)
}

/// A random dense field for `kind` from `seed`: the agent under test is agent 0, the goal (a
/// target, or the hunter or leader as agent 1) lies across the field, and one rock stands
/// across the straight way to it. Rocks keep their grown circles apart (the body plus the
/// avoidance margin fits between any two), stand clear of the start by more than the agent
/// needs to stop from full speed, and leave the goal itself free.
fn field(kind: Kind, seed: u64) -> World {
    let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5EED);
    let limits = Limits {
        radius: rng.range(3.0, 10.0),
        max_speed: rng.range(60.0, 220.0),
        max_acceleration: rng.range(250.0, 900.0),
    };
    let margin = AvoidParams::default().margin;
    let grow = limits.radius + margin;
    let start = Vec3::new(-300.0, rng.range(-60.0, 60.0), 0.0);
    let goal = Vec3::new(300.0, rng.range(-120.0, 120.0), 0.0);
    // Where the agent must be able to stand: the goal, or for hide the spots are behind rocks.
    let free_point = match kind {
        Kind::OffsetPursuit => goal + Vec3::new(SLOT_OFFSET.0, SLOT_OFFSET.1, 0.0),
        _ => goal,
    };
    let stopping =
        limits.max_speed * limits.max_speed / (2.0 * limits.max_acceleration) + limits.max_speed / 30.0;
    let mut rocks: Vec<(Vec3, f32)> = Vec::new();
    let try_rock = |rocks: &mut Vec<(Vec3, f32)>, centre: Vec3, r: f32| {
        let apart = rocks.iter().all(|(c, other)| c.distance(centre) > r + other + 2.0 * grow + 2.0);
        let clear_of_start = centre.distance(start) > r + limits.radius + stopping + 10.0;
        let clear_of_goal =
            centre.distance(free_point) > r + grow + 12.0 && centre.distance(goal) > r + grow + 12.0;
        if apart && clear_of_start && clear_of_goal {
            rocks.push((centre, r));
        }
    };
    // The rock across the way, just before the goal (for hide: right in front of the hider,
    // with the hunter behind the hider, so the hiding spot is dead behind the rock).
    let heading = (free_point - start).normalize();
    let rock_radius = rng.range(25.0, 55.0);
    let across = match kind {
        Kind::Hide => start + heading * (rock_radius + stopping + limits.radius + rng.range(12.0, 40.0)),
        _ => free_point - heading * (rock_radius + grow + rng.range(14.0, 60.0)),
    } + Vec3::new(0.0, rng.range(-8.0, 8.0), 0.0);
    try_rock(&mut rocks, across, rock_radius);
    for _ in 0..60 {
        let centre = Vec3::new(rng.range(-240.0, 260.0), rng.range(-260.0, 260.0), 0.0);
        try_rock(&mut rocks, centre, rng.range(8.0, 45.0));
    }
    let mut world = World::default();
    world.targets.push(Target {
        id: "goal".into(),
        position: goal,
        velocity: Vec3::ZERO,
        start: (goal, Vec3::ZERO),
    });
    for (position, radius) in rocks {
        world.obstacles.push(Obstacle::still(position, radius));
    }
    let behaviour = match kind {
        Kind::Seek => Behaviour::Seek { target: 0 },
        Kind::Arrive => Behaviour::Arrive { target: 0, params: Default::default() },
        Kind::Hide => Behaviour::Hide { agent: 1, params: HideParams::default() },
        Kind::OffsetPursuit => Behaviour::OffsetPursuit {
            agent: 1,
            params: OffsetPursuitParams {
                offset_x: SLOT_OFFSET.0,
                offset_y: SLOT_OFFSET.1,
                ..Default::default()
            },
        },
    };
    let mut tested = agent("tested", start, limits, behaviour);
    tested.set_avoid_obstacles(true, AvoidParams::default());
    world.agents.push(tested);
    match kind {
        // The hunter stands behind the hider, so every hiding spot is beyond a rock.
        Kind::Hide => {
            world.agents.push(agent("hunter", Vec3::new(-520.0, start.y, 0.0), Limits::default(), standing()))
        }
        Kind::OffsetPursuit => world.agents.push(agent("leader", goal, Limits::default(), standing())),
        Kind::Seek | Kind::Arrive => {}
    }
    world.reset();
    world
}

/// How a run went: the smallest clearance the oracle saw, and how slowly the goal was reached.
#[derive(Debug)]
struct Outcome {
    min_clearance: f32,
    /// The time until the goal was first reached over the time of a straight run to it (at
    /// full speed, plus the time to reach that speed from rest); infinite when never reached.
    slowness: f32,
}

/// The line from `a` to `b` passes through a rock (the hider is out of the hunter's sight).
fn sight_blocked_by(rocks: &[Sphere], a: Vec3, b: Vec3) -> bool {
    rocks.iter().any(|rock| {
        let ab = b - a;
        let t = ((rock.center - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
        (a + ab * t).distance(rock.center) < rock.radius
    })
}

/// Runs `seconds` and checks every step with the oracle.
fn run(mut world: World, kind: Kind, seconds: f32) -> Outcome {
    let rocks: Vec<Sphere> =
        world.obstacles.iter().map(|o| Sphere { center: o.position, radius: o.radius }).collect();
    let limits = world.agents[0].limits;
    let start = world.agents[0].kinematics.position;
    let steps = (seconds / world.dt).round() as u64;
    let mut min_clearance = f32::INFINITY;
    let mut reached: Option<(u64, Vec3)> = None;
    for step in 0..steps {
        world.step();
        let me = &world.agents[0];
        let position = me.kinematics.position;
        for rock in &rocks {
            min_clearance = min_clearance.min(position.distance(rock.center) - rock.radius - limits.radius);
        }
        let goal = match kind {
            Kind::Seek | Kind::Arrive => Some(world.targets[0].position),
            Kind::OffsetPursuit => {
                Some(slot_position(&world.agents[1].kinematics, SLOT_OFFSET.0, SLOT_OFFSET.1))
            }
            // Hidden: out of the hunter's sight, near the best hiding spot.
            Kind::Hide => {
                let hunter = world.agents[1].kinematics.position;
                best_hiding_spot(&me.kinematics, &me.limits, hunter, &rocks, &HideParams::default()).filter(
                    |spot| sight_blocked_by(&rocks, hunter, position) && spot.distance(position) < 15.0,
                )
            }
        };
        if reached.is_none() {
            reached = goal.filter(|goal| goal.distance(position) < 10.0).map(|goal| (step + 1, goal));
        }
    }
    let slowness = reached.map_or(f32::INFINITY, |(steps, goal)| {
        let straight = goal.distance(start) / limits.max_speed + limits.max_speed / limits.max_acceleration;
        steps as f32 * world.dt / straight
    });
    Outcome { min_clearance, slowness }
}

/// Fields per behaviour.
const FIELDS: u64 = 100;

/// The slowest a run may reach its goal, against a straight run (see [`Outcome::slowness`]).
/// Hide is judged by its median instead: its goal, the nearest hiding spot, jumps from rock to
/// rock as the hider moves, so a single run says little about the way round.
fn slowest(kind: Kind) -> f32 {
    match kind {
        Kind::Hide => f32::INFINITY,
        _ => 2.5,
    }
}

/// The slowest median of the runs of `kind`.
fn slowest_median(kind: Kind) -> f32 {
    match kind {
        Kind::Hide => 1.75,
        _ => 1.5,
    }
}

/// Runs by the seed of their field.
type Runs = Vec<(u64, Outcome)>;

/// Every field of `kind`: the seeds whose run touched a rock, those that did not reach the goal
/// in time, and the median slowness.
fn failures(kind: Kind) -> (Runs, Runs, f32) {
    let (mut touched, mut stalled) = (Vec::new(), Vec::new());
    let mut slowness = Vec::new();
    for seed in 0..FIELDS {
        let outcome = run(field(kind, seed), kind, 20.0);
        slowness.push(outcome.slowness);
        if outcome.min_clearance < 0.0 {
            touched.push((seed, outcome));
        } else if outcome.slowness > slowest(kind) || outcome.slowness.is_infinite() {
            stalled.push((seed, outcome));
        }
    }
    slowness.sort_by(f32::total_cmp);
    let never = slowness.iter().filter(|s| s.is_infinite()).count();
    println!(
        "{kind:?}: {} of {FIELDS} fields touched a rock, {} reached the goal too slowly ({never} never); \
         slowness median {:.2}, 90th percentile {:.2}, worst {:.2}",
        touched.len(),
        stalled.len(),
        slowness[slowness.len() / 2],
        slowness[slowness.len() * 9 / 10],
        slowness[slowness.len() - 1],
    );
    (touched, stalled, slowness[slowness.len() / 2])
}

fn assert_every_field_is_crossed_cleanly(kind: Kind) {
    let (touched, stalled, median) = failures(kind);
    assert!(
        touched.is_empty() && stalled.is_empty(),
        "{kind:?}: first touching {touched:?}; first too slow {stalled:?}",
        touched = touched.first(),
        stalled = stalled.first()
    );
    assert!(median <= slowest_median(kind), "{kind:?}: median slowness {median}");
}

#[test]
fn a_seeker_crosses_random_dense_fields_round_the_rock_in_its_way_without_contact() {
    assert_every_field_is_crossed_cleanly(Kind::Seek);
}

#[test]
fn an_arriver_crosses_random_dense_fields_round_the_rock_in_its_way_without_contact() {
    assert_every_field_is_crossed_cleanly(Kind::Arrive);
}

#[test]
fn a_hider_goes_round_the_rock_in_front_of_it_to_hide_behind_it_without_contact() {
    assert_every_field_is_crossed_cleanly(Kind::Hide);
}

#[test]
fn an_offset_pursuer_reaches_its_slot_across_random_dense_fields_without_contact() {
    assert_every_field_is_crossed_cleanly(Kind::OffsetPursuit);
}
