//! An agent's list of behaviours and how their requests are combined into one.
//!
//! # Motivation
//! Classic steering composes simple behaviours: a boid is separation + alignment + cohesion, a
//! seeker that steers around obstacles is avoidance before seek. The two standard ways are
//! weighted blending (Reynolds; OpenSteer's and Yuka's `SteeringManager`) and priority
//! arbitration (gdx-ai's `PrioritySteering`): groups are tried in order and the first whose
//! force is larger than a small threshold wins, so avoidance is not watered down by the pull
//! of the goal (adding the two let agents into obstacles in about a third of randomised runs).
//!
//! # Implementation
//! The list is the agent's main behaviour (`Agent::behaviour`, entry 0, the one metrics judge)
//! followed by [`Mix::more`]. Each entry has a [`Slot`]: a weight and a priority group.
//! - [`Combine::Blend`]: the weighted sum of every entry's request.
//! - [`Combine::Priority`]: groups in ascending group number; a group's request is the weighted
//!   sum of its entries; the first group whose force exceeds `threshold` wins, and when none
//!   does, the last group's request is used (as gdx-ai does). Unlike gdx-ai, groups after the
//!   winner are still evaluated (and draw their gizmos), so behaviours with memory — path
//!   cursors, planner timers — stay current while avoidance has the say.
//!
//! With priority, a kinematic request counts by the velocity it asks for; when a group of
//! avoidance alone wins for an agent whose other entries are kinematic, the kinematic velocity
//! is used and cleared of obstacles (`avoid::clear_velocity`) instead of a limited acceleration
//! the agent's own velocity requests would undo the next step.
//!
//! **Detour.** Avoidance alone knows nothing of where the other entries are going, so when an
//! agent has an `avoid_obstacles` entry, every other entry that has a goal point (seek, arrive,
//! pursuit, interpose, hide, offset pursuit, leader following) is handed a
//! [`detour::Detour`](crate::behaviours::detour): it aims round the obstacle between it and its
//! goal, on the side the agent committed to ([`Mix::detour`]), instead of straight into it,
//! so the two groups agree instead of undoing each other.
//!
//! A request is summed as an acceleration: a dynamic request as it is, a kinematic velocity
//! `v` as `(v − velocity) / STEER_TIME` (the force that reaches it in the path followers' steer
//! time). A group of one entry passes its request through unchanged, so a kinematic seek alone
//! stays kinematic. Curve followers move on rails (their request is a position): when the main
//! behaviour is parametric the other entries are not applied; a parametric entry that is not
//! the main one asks for a velocity toward its point on the curve instead, at most the agent's
//! maximum speed. A list of one entry costs one
//! branch (the simulation's fast path does not come here).
//!
//! # Parameters
//! Per entry `weight` (0–100, default 1) and `group` (0–99, default 0); per agent the mode and,
//! for priority, `threshold` (units/s², default 0.001, gdx-ai's epsilon).

use glam::Vec3;

use super::{behaviour_steering, Agent, Behaviour, BehaviourState, StepContext};
use crate::behaviours::detour::{Detour, DetourSide};
use crate::behaviours::param::{Param, ParamKind};
use crate::behaviours::{avoid, Kinematics, Steering, STEER_TIME};

/// Most entries in one agent's list of behaviours, the main one included (a scene file past it
/// is refused at the entry past it; the window refuses an edit that would pass it). Shipped
/// scenes use up to 4 and there are 22 behaviour types; every entry runs every step and is shown
/// in the inspector, and a crowd at the agent limit (100,000) with 16 entries each needs about
/// 750 MB (1.36 GB with 32; one agent with 1,000,000 entries took 43 s for 2 simulated seconds).
pub const MAX_BEHAVIOURS: usize = 16;

/// How an agent's entries are combined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Combine {
    /// The weighted sum of every entry's request.
    Blend,
    /// The first priority group (ascending) whose force exceeds `threshold` wins.
    Priority {
        /// Smallest force (units/s²) that counts as a group having something to say.
        threshold: f32,
    },
}

impl Combine {
    /// gdx-ai's epsilon: any force above it wins.
    pub const DEFAULT_THRESHOLD: f32 = 0.001;
    /// Declaration of the priority `threshold`.
    pub const THRESHOLD: Param = Param {
        key: "threshold",
        label: "threshold",
        unit: "u/s²",
        min: 0.0,
        max: 10_000.0,
        default: Self::DEFAULT_THRESHOLD,
        help: "Priority: the first group whose force exceeds this wins.",
        kind: ParamKind::Float,
    };
}

/// An entry's weight and priority group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    /// Factor on the entry's request when summed with others.
    pub weight: f32,
    /// Priority group (smaller is tried first; blending ignores it).
    pub group: u32,
}

impl Slot {
    /// Declaration of `weight`.
    pub const WEIGHT: Param = Param {
        key: "weight",
        label: "weight",
        unit: "",
        min: 0.0,
        max: 100.0,
        default: 1.0,
        help: "Factor on this entry's request when it is summed with others.",
        kind: ParamKind::Float,
    };
    /// Declaration of `group`.
    pub const GROUP: Param = Param {
        key: "group",
        label: "group",
        unit: "",
        min: 0.0,
        max: 99.0,
        default: 0.0,
        help: "Priority group: smaller groups are tried first (blending ignores it).",
        kind: ParamKind::Int,
    };
    /// Both, in field order.
    pub const PARAMS: &'static [Param] = &[Self::WEIGHT, Self::GROUP];
    /// Both at their declared defaults (`Default`, usable in constants).
    pub const DEFAULT: Slot = Slot { weight: Self::WEIGHT.default, group: Self::GROUP.default_u32() };
}

impl Default for Slot {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// One more behaviour of an agent, after its main one.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// What it does.
    pub behaviour: Behaviour,
    /// Its memory.
    pub state: BehaviourState,
    /// Weight and group.
    pub slot: Slot,
}

impl Entry {
    /// An entry with fresh state.
    pub fn new(behaviour: Behaviour, slot: Slot) -> Entry {
        let state = BehaviourState::start(&behaviour);
        Entry { behaviour, state, slot }
    }
}

/// The entries after an agent's main behaviour (see [`Mix::more`]).
pub type Entries = smallvec::SmallVec<[Entry; 1]>;

/// The agent's list beyond its main behaviour, and how the list is combined. The agent's
/// record holds it behind [`MixBox`]'s pointer.
#[derive(Clone, Debug, PartialEq)]
pub struct Mix {
    /// Blending or priority.
    pub combine: Combine,
    /// The main behaviour's weight and group.
    pub main: Slot,
    /// The side the agent committed to going round the obstacle in its way (state, not a
    /// setting: cleared by a reset, never saved).
    pub detour: DetourSide,
    /// The entries after the main behaviour, in list order. The first is held inline, in the
    /// box itself, so that a list of two entries (a crowd's usual one: a goal and separation)
    /// is read from one place in memory, not from the box and then a vector's buffer.
    pub more: Entries,
}

impl Mix {
    /// One entry, blended, no detour (`Default`, usable in constants): what [`MixBox`] holds
    /// without a box.
    pub const DEFAULT: Mix = Mix {
        combine: Combine::Blend,
        main: Slot::DEFAULT,
        detour: DetourSide::NONE,
        more: Entries::new_const(),
    };
}

impl Default for Mix {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What an agent's list never is when the record holds no box.
static NO_MIX: Mix = Mix::DEFAULT;

/// An agent's [`Mix`] as its record holds it: one pointer, none for an agent of one behaviour
/// that is blended (most of a crowd), so that the record every step streams is 56 bytes
/// shorter than with the list inline (see [`crate::sim::Agent`]'s layout).
///
/// Reads go through `Deref` (the default list when there is no box); a change goes through
/// [`MixBox::edit`], which makes the box, so that no step makes one by reading: the step's
/// own writes go through [`MixBox::entries_mut`] and [`MixBox::reset_states`], which make
/// none. Equality is the lists' (no box equals a box holding the default).
#[derive(Clone, Debug, Default)]
pub struct MixBox(Option<Box<Mix>>);

impl MixBox {
    /// The list to change (boxed from the default if there was no box).
    pub fn edit(&mut self) -> &mut Mix {
        self.0.get_or_insert_with(Box::default)
    }

    /// The entries after the main one, to change in place (none without a box; makes none).
    pub fn entries_mut(&mut self) -> &mut [Entry] {
        match &mut self.0 {
            Some(mix) => &mut mix.more,
            None => &mut [],
        }
    }

    /// Keeps the entries after the main one for which `keep` is true (`Vec::retain_mut`),
    /// without making a box.
    pub fn retain_entries(&mut self, keep: impl FnMut(&mut Entry) -> bool) {
        if let Some(mix) = &mut self.0 {
            mix.more.retain_mut(keep);
        }
    }

    /// [`Mix::reset_states`], without making a box.
    pub fn reset_states(&mut self) {
        if let Some(mix) = &mut self.0 {
            mix.reset_states();
        }
    }

    /// Whether the record holds a box.
    pub fn is_boxed(&self) -> bool {
        self.0.is_some()
    }
}

impl std::ops::Deref for MixBox {
    type Target = Mix;

    fn deref(&self) -> &Mix {
        self.0.as_deref().unwrap_or(&NO_MIX)
    }
}

impl From<Mix> for MixBox {
    /// No box for the default list.
    fn from(mix: Mix) -> MixBox {
        MixBox((mix != Mix::DEFAULT).then(|| Box::new(mix)))
    }
}

impl PartialEq for MixBox {
    fn eq(&self, other: &MixBox) -> bool {
        **self == **other
    }
}

impl PartialEq<Mix> for MixBox {
    fn eq(&self, other: &Mix) -> bool {
        **self == *other
    }
}

impl Mix {
    /// Restarts every entry's state (the main behaviour's is the agent's own) and forgets the
    /// detour's side.
    pub fn reset_states(&mut self) {
        for entry in &mut self.more {
            entry.state = BehaviourState::start(&entry.behaviour);
        }
        self.detour = DetourSide::default();
    }
}

/// The force a request stands for, as an acceleration (see the module documentation).
fn as_acceleration(k: &Kinematics, steering: Steering) -> Vec3 {
    match steering {
        Steering::Acceleration(a) => a,
        Steering::Velocity(v) => (v - k.velocity) / STEER_TIME,
        // Not reached: positional requests are never summed.
        Steering::Position(_) => Vec3::ZERO,
    }
}

/// The combined request of an agent with more than one entry.
pub(super) fn combined_steering(agent: &mut Agent, ctx: &StepContext) -> Steering {
    if matches!(agent.behaviour, Behaviour::Parametric { .. }) {
        let Agent { kinematics, limits, behaviour, state, gizmos, .. } = agent;
        return behaviour_steering(kinematics, limits, behaviour, state, gizmos, ctx, None);
    }
    let request = match agent.mix.combine {
        Combine::Blend => group_request(agent, ctx, None),
        Combine::Priority { threshold } => {
            // Every group is evaluated, winner or not, so that behaviours with memory (path
            // cursors, planner timers) stay current while a group before them wins.
            let mut previous: Option<u32> = None;
            let mut last = Steering::NONE;
            let mut winner: Option<(Steering, bool)> = None;
            let mut kinematic: Option<Vec3> = None;
            while let Some(group) = next_group(&agent.mix, previous) {
                last = group_request(agent, ctx, Some(group));
                if let Steering::Velocity(v) = last {
                    kinematic = kinematic.or(Some(v));
                }
                if winner.is_none() && force(&agent.kinematics, last) > threshold {
                    winner = Some((last, only_avoidance(&agent.mix, group)));
                }
                previous = Some(group);
            }
            match (winner, kinematic) {
                // A kinematic agent avoids through its velocity (below), not with a limited
                // acceleration it cannot out-turn its own velocity requests with.
                (Some((_, true)), Some(velocity)) => Steering::Velocity(velocity),
                (Some((request, _)), _) => request,
                (None, _) => last,
            }
        }
    };
    // A kinematic request is made safe by every avoidance entry (see `avoid::clear_velocity`).
    match request {
        Steering::Velocity(mut velocity) => {
            for entry in &agent.mix.more {
                if let Behaviour::AvoidObstacles { params } = &entry.behaviour {
                    velocity = avoid::clear_velocity(
                        &agent.kinematics,
                        &agent.limits,
                        ctx.spheres,
                        params,
                        velocity,
                    );
                }
            }
            Steering::Velocity(velocity)
        }
        other => other,
    }
}

/// Whether every entry of `group` is obstacle avoidance.
fn only_avoidance(mix: &Mix, group: u32) -> bool {
    let main_in = mix.main.group == group;
    let others_ok = mix
        .more
        .iter()
        .filter(|entry| entry.slot.group == group)
        .all(|entry| matches!(entry.behaviour, Behaviour::AvoidObstacles { .. }));
    !main_in && others_ok
}

/// The smallest group number after `previous` (the first when None).
fn next_group(mix: &Mix, previous: Option<u32>) -> Option<u32> {
    // Turning-only entries (face) make no linear request and form no group of their own.
    let groups = mix
        .more
        .iter()
        .filter(|entry| !entry.behaviour.turns_only())
        .map(|entry| entry.slot.group)
        .chain([mix.main.group]);
    groups.filter(|g| previous.is_none_or(|p| *g > p)).min()
}

/// The request of the entries in `group` (of every entry when None): their weighted sum, or
/// the one entry's request unchanged when it is alone with weight 1.
fn group_request(agent: &mut Agent, ctx: &StepContext, group: Option<u32>) -> Steering {
    let Agent { kinematics, limits, behaviour, state, mix, gizmos, .. } = agent;
    // An agent of more than one entry has its box already: this makes none.
    let Mix { main, more, detour: side, .. } = mix.edit();
    let k = &*kinematics;
    // Goal-seeking entries of an agent that avoids obstacles aim round the one in their way.
    let margin = more.iter().find_map(|entry| match entry.behaviour {
        Behaviour::AvoidObstacles { params } => Some(params.margin),
        _ => None,
    });
    let mut detour = margin.map(|margin| Detour { margin, obstacles: ctx.spheres, side });
    let in_group = |slot: &Slot| group.is_none_or(|g| slot.group == g);
    let mut sum = Vec3::ZERO;
    let mut alone: Option<(Steering, f32)> = None;
    let mut count = 0usize;
    if in_group(main) {
        let request = behaviour_steering(k, limits, behaviour, state, gizmos, ctx, detour.as_mut());
        sum += as_acceleration(k, request) * main.weight;
        alone = Some((request, main.weight));
        count += 1;
    }
    for entry in more.iter_mut().filter(|entry| in_group(&entry.slot) && !entry.behaviour.turns_only()) {
        let request =
            behaviour_steering(k, limits, &entry.behaviour, &mut entry.state, gizmos, ctx, detour.as_mut());
        let request = off_rails(k, limits.max_speed, request, ctx.dt);
        sum += as_acceleration(k, request) * entry.slot.weight;
        alone = Some((request, entry.slot.weight));
        count += 1;
    }
    match alone {
        Some((request, weight)) if count == 1 && weight == 1.0 => request,
        _ => Steering::Acceleration(sum),
    }
}

/// A request as an entry that is not the main behaviour makes it: a curve follower's position
/// on its curve (parametric following moves on rails) becomes a kinematic velocity toward that
/// point, at most `max_speed`, reaching it in one step of `dt` when it is that close. Only the
/// main behaviour puts the agent on its curve: before, a `parametric` entry alone in its group
/// moved the agent there in one step (5e6 u/s in a trace), and in a priority list it always won.
fn off_rails(k: &Kinematics, max_speed: f32, request: Steering, dt: f32) -> Steering {
    match request {
        Steering::Position(point) => {
            let offset = point - k.position;
            // `min` passes over a NaN (0 / 0) and caps an infinite quotient (a tiny `dt`).
            let speed = (offset.length() / dt).min(max_speed.max(0.0));
            Steering::Velocity(offset.normalize_or_zero() * speed)
        }
        other => other,
    }
}

/// The size of a request as a force: an acceleration's length; a kinematic velocity counts by
/// what it asks for (`|v| / STEER_TIME`, so a satisfied flee still has its say); a positional
/// request always counts.
fn force(_k: &Kinematics, steering: Steering) -> f32 {
    match steering {
        Steering::Position(_) => f32::INFINITY,
        Steering::Velocity(v) => v.length() / STEER_TIME,
        Steering::Acceleration(a) => a.length(),
    }
}
