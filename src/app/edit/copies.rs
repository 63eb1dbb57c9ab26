//! Copies of one agent spread around it: a crowd made in the window (the inspector's "Copies"
//! row), for what only a crowd shows — a flock forming, collision avoidance in a crowd, a big
//! crowd's frame rate — without writing a scene file by hand.
//!
//! Placement: Vogel's sunflower spiral round the agent's start. Copy `k` (1-based; the agent
//! itself is `k = 0`) sits at distance `c·√k` and angle `k·φ` from it, where φ = π(3 − √5) is
//! the golden angle and `c = spacing / √π`: each agent then has about `spacing²` of ground and
//! its nearest neighbours are about `spacing` away, whatever the count. The disc is even,
//! deterministic (no random numbers), and grows outward with the count: the first 100 of 1,000
//! copies are where 100 copies would be. Copies lie in the agent's own plane (its start's z).
//!
//! Each copy is the agent as it starts: its list of behaviours, limits and colour, at rest or
//! with its start velocity (turned by `k·φ` too when headings are spread, so that a crowd starts
//! facing every way). Names are the agent's base name with the next free numbers ("boid 2",
//! "boid 3" …); each wander entry gets the next seed no wanderer uses yet (as a paste does), so
//! the copies wander their own ways; a curve follower's copies start spread evenly over the
//! curve's parameter range (Reset would otherwise put them all on the curve's point at T0).
//!
//! Limits: the world holds at most [`MAX_AGENTS`] agents (the scene format's limit, so that what
//! the window makes it can save and open again): fewer copies are made when there is no room
//! for all, and [`Copies::limited`] says so. A spiral that would leave the coordinates a scene
//! may hold is refused whole, with the scene's own message.

use std::collections::HashSet;

use glam::Vec3;

use crate::behaviours::param::{Param, ParamKind};
use crate::scene::MAX_AGENTS;
use crate::sim::{Agent, Behaviour, World};

/// Declaration of how many copies one press makes.
pub const COPIES: Param = Param {
    key: "copies",
    label: "copies",
    unit: "",
    min: 1.0,
    max: MAX_AGENTS as f32,
    default: 100.0,
    help: "How many copies of the agent to add (no more than the scene's agent limit leaves room for).",
    kind: ParamKind::Int,
};

/// Declaration of the distance between neighbouring copies.
pub const SPACING: Param = Param {
    key: "spacing",
    label: "spacing",
    unit: "u",
    min: 1.0,
    max: 1000.0,
    default: 30.0,
    help: "About how far apart neighbouring copies start (a sunflower spiral round the agent).",
    kind: ParamKind::Float,
};

/// Declaration of whether the copies' headings are spread.
pub const SPREAD_HEADINGS: Param = Param {
    key: "spread_headings",
    label: "spread headings",
    unit: "",
    min: 0.0,
    max: 1.0,
    default: 1.0,
    help: "Turn each copy's start heading and velocity by a different angle, so the crowd starts facing every way.",
    kind: ParamKind::Bool,
};

/// The golden angle, π(3 − √5) radians: consecutive spiral points never line up.
const GOLDEN_ANGLE: f64 = 2.399_963_229_728_653;

/// Copy `k`'s turn, `k·φ` reduced to [0, 2π) in double precision: in single precision the
/// product's rounding alone (an ulp of 0.016 rad at k = 100,000) would move the outer copies by
/// more than their spacing.
fn copy_turn(k: usize) -> f32 {
    (k as f64 * GOLDEN_ANGLE).rem_euclid(std::f64::consts::TAU) as f32
}

/// What [`copies_of`] made, for [`append_copies`].
#[derive(Clone, Debug)]
pub struct Copies {
    /// The copies, each at its start (to go after the world's agents, in this order).
    pub agents: Vec<Agent>,
    /// Fewer than asked for, because the world would pass [`MAX_AGENTS`].
    pub limited: bool,
}

/// Where copy `k` (1-based) of an agent starting at `centre` sits: `k` steps along the sunflower
/// spiral of the given `spacing` (see the module header).
fn spiral_point(centre: Vec3, k: usize, spacing: f32) -> Vec3 {
    let c = f64::from(spacing) / std::f64::consts::PI.sqrt();
    let r = c * (k as f64).sqrt();
    let angle = copy_turn(k) as f64;
    centre + Vec3::new((r * angle.cos()) as f32, (r * angle.sin()) as f32, 0.0)
}

/// `copies` copies of agent `agent_idx` of `world` (see the module header), to be appended by
/// [`append_copies`]; the world is only read, so the editor takes its undo snapshot only once
/// they are made. Errors: no such agent, a count or spacing outside its declaration, no room
/// left, or a spiral reaching coordinates a scene cannot hold.
pub fn copies_of(
    world: &World,
    agent_idx: usize,
    copies: usize,
    spacing: f32,
    spread_headings: bool,
) -> Result<Copies, String> {
    let Some(original) = world.agents.get(agent_idx).cloned() else {
        return Err("no such agent to copy".to_string());
    };
    COPIES.check(copies as f32).map_err(|err| format!("no copies added: {err}"))?;
    let spacing = SPACING.check(spacing).map_err(|err| format!("no copies added: {err}"))?;
    let room = MAX_AGENTS.saturating_sub(world.agents.len());
    if room == 0 {
        return Err(format!("no copies added: the scene holds the most agents it can ({MAX_AGENTS})"));
    }
    let count = copies.min(room);
    let centre = original.about.start.position;
    // Every copy lies in the disc out to the last one's distance: if the disc's four extreme
    // points fit, every copy does.
    let reach = spiral_point(Vec3::ZERO, count, spacing).length();
    for side in [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y] {
        crate::scene::check_point("copies", centre + side * reach)
            .map_err(|(_, reason)| format!("no copies added: the spiral reaches too far: {reason}"))?;
    }

    let base = super::base_name(&original.about.name).to_string();
    let taken: HashSet<&str> = world.agents.iter().map(|a| a.about.name.as_str()).collect();
    let mut number = 2usize;
    let mut names = Vec::with_capacity(count);
    while names.len() < count {
        let name = format!("{base} {number}");
        number += 1;
        if !taken.contains(name.as_str()) {
            names.push(name);
        }
    }
    let mut seeds = super::FreshSeeds::new(world.agents.iter().flat_map(wander_seeds));
    let curve_range = match &original.behaviour {
        Behaviour::Parametric { curve, .. } => world.curves.get(*curve).map(|named| named.curve.t_range()),
        _ => None,
    };

    let start = original.about.start;
    let mut made: Vec<Agent> = Vec::with_capacity(count);
    for (offset, name) in names.into_iter().enumerate() {
        let k = offset + 1;
        let mut agent = original.clone();
        let about = &mut *agent.about;
        about.name = name;
        about.start.position = spiral_point(centre, k, spacing);
        if spread_headings {
            let turn = copy_turn(k);
            about.start.velocity = glam::Quat::from_rotation_z(turn) * start.velocity;
            about.start.orientation = crate::behaviours::face::wrap_angle(start.orientation + turn);
        }
        for seed in wander_seeds_mut(&mut agent) {
            *seed = seeds.fresh(*seed);
        }
        if let (Some((t_min, t_max)), Behaviour::Parametric { params, .. }) =
            (curve_range, &mut agent.behaviour)
        {
            let t0 = t_min + (t_max - t_min) * k as f32 / (count + 1) as f32;
            if let Ok(t0) = crate::sim::ParametricParams::T0.check(t0) {
                params.t0 = t0;
            }
        }
        made.push(agent);
    }
    Ok(Copies { agents: made, limited: count < copies })
}

/// Appends `copies` after the world's agents, each reset to its start; how many. The list is
/// made anew, so that the crowd's boxes lie kind by kind as a scene read from a file has them
/// (see `sim::Agents`' `From<Vec<Agent>>`): pushed one by one, each copy's boxes would lie
/// together and a big crowd's step would stream its names too.
pub fn append_copies(world: &mut World, copies: Copies) -> usize {
    let first = world.agents.len();
    let mut list = std::mem::take(world.agents.as_mut_vec());
    list.extend(copies.agents);
    world.agents = list.into();
    for idx in first..world.agents.len() {
        world.reset_agent(idx);
    }
    world.agents.len() - first
}

/// The wander seeds of an agent's list.
fn wander_seeds(agent: &Agent) -> impl Iterator<Item = u32> + '_ {
    agent.behaviours().filter_map(|behaviour| match behaviour {
        Behaviour::Wander { params } => Some(params.seed),
        _ => None,
    })
}

/// The wander seeds of an agent's list, to change (the list's box is made only when it has
/// entries beyond the first).
fn wander_seeds_mut(agent: &mut Agent) -> impl Iterator<Item = &mut u32> {
    let main = std::iter::once(&mut agent.behaviour);
    let more = agent.mix.entries_mut().iter_mut().map(|entry| &mut entry.behaviour);
    main.chain(more).filter_map(|behaviour| match behaviour {
        Behaviour::Wander { params } => Some(&mut params.seed),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::behaviours::{FlockingParams, Kinematics, Limits, WanderParams};
    use crate::sim::{Entry, Mix, Rgb, Slot};
    use proptest::prelude::*;

    /// What [`copies_of`] and [`append_copies`] make together (the editor's order of the two,
    /// without its undo snapshot): how many were added, and whether fewer than asked for.
    fn add_copies(
        world: &mut World,
        agent: usize,
        copies: usize,
        spacing: f32,
        spread: bool,
    ) -> Result<(usize, bool), String> {
        let made = copies_of(world, agent, copies, spacing, spread)?;
        let limited = made.limited;
        Ok((append_copies(world, made), limited))
    }

    /// A world of one boid ("boid") at (100, 50, 0) heading along +x that also wanders (seed 7), and a
    /// second wanderer (seed 8).
    fn boid_world() -> World {
        let start = Kinematics {
            position: Vec3::new(100.0, 50.0, 0.0),
            velocity: Vec3::new(40.0, 0.0, 0.0),
            orientation: 0.0,
        };
        let mut boid = Agent::new(
            "boid".into(),
            Rgb(10, 20, 30),
            start,
            Limits::default(),
            Behaviour::Flocking { params: FlockingParams::default() },
        );
        let wander = Behaviour::Wander { params: WanderParams { seed: 7, ..WanderParams::default() } };
        boid.mix = Mix { more: [Entry::new(wander, Slot::DEFAULT)].into(), ..Mix::DEFAULT }.into();
        let other = Agent::new(
            "boid 3".into(),
            Rgb(1, 2, 3),
            Kinematics::default(),
            Limits::default(),
            Behaviour::Wander { params: WanderParams { seed: 8, ..WanderParams::default() } },
        );
        let mut world = World::default();
        world.agents.extend([boid, other]);
        world.reset();
        world
    }

    #[test]
    fn copies_are_the_agent_with_their_own_names_seeds_and_places() {
        let mut world = boid_world();
        let made = add_copies(&mut world, 0, 500, 20.0, false).unwrap();
        assert_eq!(made, (500, false));
        assert_eq!(world.agents.len(), 502);
        let names: HashSet<&str> = world.agents.iter().map(|a| a.about.name.as_str()).collect();
        assert_eq!(names.len(), 502, "every name is new");
        assert!(names.contains("boid 2") && names.contains("boid 4") && names.contains("boid 502"));
        let seeds: Vec<u32> = world.agents.iter().flat_map(wander_seeds).collect();
        assert_eq!(seeds.len(), 502);
        assert_eq!(seeds.iter().collect::<HashSet<_>>().len(), 502, "every wanderer walks its own walk");
        let original = world.agents[0].clone();
        for (offset, copy) in world.agents.iter().skip(2).enumerate() {
            let k = offset + 1;
            assert_eq!(copy.about.color, original.about.color);
            assert_eq!(copy.limits, original.limits);
            assert_eq!(copy.behaviour, original.behaviour);
            assert_eq!(copy.mix.more.len(), 1);
            assert_eq!(copy.about.start.position, spiral_point(original.about.start.position, k, 20.0));
            assert_eq!(copy.kinematics, copy.about.start, "reset to its start");
            assert_eq!(copy.about.start.velocity, original.about.start.velocity, "headings not spread");
            assert_eq!(copy.about.start.orientation, original.about.start.orientation);
        }
    }

    /// The spacing is what the neighbours see: brute force over every pair, an oracle apart from
    /// the spiral's formula.
    #[test]
    fn every_copy_has_a_neighbour_about_one_spacing_away_and_none_much_closer() {
        for (count, spacing) in [(50usize, 10.0f32), (5_000, 30.0), (1_500, 3.5)] {
            let mut world = boid_world();
            add_copies(&mut world, 0, count, spacing, true).unwrap();
            let points: Vec<Vec3> = std::iter::once(world.agents[0].about.start.position)
                .chain(world.agents.iter().skip(2).map(|a| a.about.start.position))
                .collect();
            let centre = points[0];
            for (i, p) in points.iter().enumerate() {
                let nearest = points
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, q)| p.distance(*q))
                    .fold(f32::INFINITY, f32::min);
                assert!(
                    nearest >= 0.5 * spacing && nearest <= 1.3 * spacing,
                    "{count}/{spacing}: point {i} nearest {nearest}"
                );
            }
            // About spacing² of ground each: the disc holding them all has area ≈ count · spacing².
            let reach = points.iter().map(|p| p.distance(centre)).fold(0.0, f32::max);
            let area = std::f32::consts::PI * reach * reach;
            let per_agent = area / points.len() as f32;
            assert!((per_agent / (spacing * spacing) - 1.0).abs() < 0.1, "{count}: {per_agent} per agent");
        }
    }

    #[test]
    fn spread_headings_turn_velocity_and_orientation_alike() {
        let mut world = boid_world();
        add_copies(&mut world, 0, 40, 20.0, true).unwrap();
        let mut orientations = HashSet::new();
        for copy in world.agents.iter().skip(2) {
            let start = copy.about.start;
            assert!((start.velocity.length() - 40.0).abs() < 1e-3);
            let heading = start.velocity.y.atan2(start.velocity.x);
            let diff = (heading - start.orientation).rem_euclid(std::f32::consts::TAU);
            assert!(
                !(1e-3..=std::f32::consts::TAU - 1e-3).contains(&diff),
                "{heading} against {}",
                start.orientation
            );
            orientations.insert(start.orientation.to_bits());
        }
        assert_eq!(orientations.len(), 40, "each copy faces its own way");
    }

    #[test]
    fn copies_are_the_same_every_time() {
        let mut a = boid_world();
        let mut b = boid_world();
        add_copies(&mut a, 0, 300, 12.5, true).unwrap();
        add_copies(&mut b, 0, 300, 12.5, true).unwrap();
        a.run_steps(30);
        b.run_steps(30);
        for (x, y) in a.agents.iter().zip(b.agents.iter()) {
            assert_eq!(
                x.kinematics.position.to_array().map(f32::to_bits),
                y.kinematics.position.to_array().map(f32::to_bits)
            );
        }
        assert!(a.agents.iter().all(|agent| agent.kinematics.position.is_finite()));
    }

    #[test]
    fn refusals_change_nothing() {
        for (agent, copies, spacing) in [
            (5usize, 10usize, 20.0f32),
            (0, 0, 20.0),
            (0, MAX_AGENTS + 1, 20.0),
            (0, 10, 0.0),
            (0, 10, f32::NAN),
            (0, 10, 1e30),
            (0, 10, -5.0),
        ] {
            let mut world = boid_world();
            let err = add_copies(&mut world, agent, copies, spacing, true).unwrap_err();
            assert!(!err.is_empty());
            assert_eq!(world.agents.len(), 2, "{agent} {copies} {spacing}: {err}");
        }
        // A spiral past the coordinates a scene may hold is refused whole.
        let mut world = boid_world();
        world.agents[0].about.start.position.x = crate::scene::MAX_COORDINATE - 100.0;
        let err = add_copies(&mut world, 0, 10_000, 1000.0, false).unwrap_err();
        assert!(err.contains("too far"), "{err}");
        assert_eq!(world.agents.len(), 2);
    }

    #[test]
    fn no_more_than_the_scenes_limit_are_made() {
        let mut world = boid_world();
        add_copies(&mut world, 0, MAX_AGENTS - 10, 1.0, false).unwrap();
        assert_eq!(world.agents.len(), MAX_AGENTS - 8);
        let made = add_copies(&mut world, 1, 100, 1.0, false).unwrap();
        assert_eq!(made, (8, true));
        assert_eq!(world.agents.len(), MAX_AGENTS);
        let err = add_copies(&mut world, 1, 1, 1.0, false).unwrap_err();
        assert!(err.contains("most agents"), "{err}");
        // What the window made, a file holds: saved and read back whole.
        let json = crate::scene::scene_to_json(&world).unwrap();
        let back = crate::scene::parse_scene(&json, "copies.json").unwrap();
        assert_eq!(back.agents.len(), MAX_AGENTS);
    }

    #[test]
    fn a_curve_followers_copies_start_spread_over_its_curve() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("parametric.json");
        let mut world = crate::scene::load_scene(&path).unwrap();
        let idx =
            world.agents.iter().position(|a| matches!(a.behaviour, Behaviour::Parametric { .. })).unwrap();
        add_copies(&mut world, idx, 12, 20.0, false).unwrap();
        let first = world.agents.len() - 12;
        let starts: Vec<Vec3> = world.agents.iter().skip(first).map(|a| a.kinematics.position).collect();
        for (i, p) in starts.iter().enumerate() {
            for q in starts.iter().skip(i + 1) {
                assert!(p.distance(*q) > 1.0, "copies start apart on the curve: {p} {q}");
            }
        }
    }

    #[test]
    fn the_golden_angle_is_pi_times_three_minus_root_five() {
        let exact = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        assert!((GOLDEN_ANGLE - exact).abs() < 1e-12);
    }

    #[test]
    fn spiral_points_follow_vogels_formula() {
        let centre = Vec3::new(10.0, -5.0, 3.0);
        for k in [1usize, 2, 7, 100, 99_999] {
            let p = spiral_point(centre, k, 30.0);
            let r = 30.0 / std::f32::consts::PI.sqrt() * (k as f32).sqrt();
            assert!(((p - centre).length() - r).abs() <= r * 1e-5, "k {k}");
            assert_eq!(p.z, 3.0);
            let angle = (k as f64 * GOLDEN_ANGLE).rem_euclid(std::f64::consts::TAU) as f32;
            let seen = (p.y - centre.y).atan2(p.x - centre.x).rem_euclid(std::f32::consts::TAU);
            let diff = (angle - seen).abs();
            assert!(diff.min(std::f32::consts::TAU - diff) < 1e-3, "k {k}: {angle} against {seen}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any count, spacing and start, near the coordinate limit included: either nothing
        /// changes and the reason is given, or `min(count, room)` copies are added, each at a
        /// place a scene may hold, with a name no other agent has, finite, and inside the disc of
        /// the last copy's distance.
        #[test]
        fn copies_anywhere_are_made_whole_or_refused_whole(
            count in prop_oneof![0usize..300, Just(MAX_AGENTS + 1)],
            spacing in prop_oneof![0.5f32..1200.0, Just(f32::NAN), Just(1e30f32), Just(-3.0f32)],
            x in prop_oneof![-2_000.0f32..2_000.0, Just(crate::scene::MAX_COORDINATE - 50.0)],
            y in -2_000.0f32..2_000.0,
            spread in any::<bool>(),
        ) {
            let mut world = boid_world();
            world.agents[0].about.start.position = Vec3::new(x, y, 0.0);
            world.reset();
            let before = world.agents.len();
            match add_copies(&mut world, 0, count, spacing, spread) {
                Err(why) => {
                    prop_assert!(!why.is_empty());
                    prop_assert_eq!(world.agents.len(), before);
                }
                Ok((added, _)) => {
                    prop_assert_eq!(added, count.min(MAX_AGENTS - before));
                    prop_assert_eq!(world.agents.len(), before + added);
                    let centre = world.agents[0].about.start.position;
                    let reach = spiral_point(Vec3::ZERO, added, spacing).length();
                    let names: HashSet<&str> = world.agents.iter().map(|a| a.about.name.as_str()).collect();
                    prop_assert_eq!(names.len(), world.agents.len());
                    for copy in world.agents.iter().skip(before) {
                        let p = copy.about.start.position;
                        prop_assert!(p.is_finite() && copy.kinematics.velocity.is_finite());
                        prop_assert!(crate::scene::check_point("copy", p).is_ok(), "{}", p);
                        prop_assert!(p.distance(centre) <= reach * 1.0001 + 1e-3, "{} beyond {}", p, reach);
                    }
                }
            }
        }
    }

    proptest! {
        /// The shared seed hand-out against the plain search it replaces (each seed probed
        /// upward from itself over everything taken so far): the same seeds in the same order.
        #[test]
        fn fresh_seeds_are_those_a_search_from_each_seed_finds(
            taken in proptest::collection::vec(0u32..40, 0..30),
            asked in proptest::collection::vec(prop_oneof![0u32..40, Just((1 << 24) - 1)], 0..60),
        ) {
            let mut fresh = super::super::FreshSeeds::new(taken.iter().copied());
            let mut plain: HashSet<u32> = taken.iter().copied().collect();
            for &seed in &asked {
                let mut expected = seed;
                while plain.contains(&expected) {
                    expected = (expected + 1) % (1 << 24);
                }
                plain.insert(expected);
                prop_assert_eq!(fresh.fresh(seed), expected);
            }
        }
    }
}
