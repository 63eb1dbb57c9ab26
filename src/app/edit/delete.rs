//! Deleting anything the editor can select, keeping the world consistent: agents that depend on
//! a deleted path, curve or target go too, list entries that refer to it are dropped, and the
//! indices agents and their entries hold are shifted. Deleting an agent (or an agent going with
//! its path, curve or target) also deletes the agents whose main behaviour pursues, evades or
//! follows it (and, in turn, theirs), drops such entries from the other agents' lists, and
//! shifts every remaining agent index.

use super::super::Selection;
use super::{restart_followers, set_behaviour};
use crate::geometry::Polyline;
use crate::sim::{Behaviour, World};

/// What a deletion did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deleted {
    /// A note for the status bar.
    pub note: String,
    /// For each agent before the deletion, whether it is still there (the others keep their
    /// order), so what the editor keeps per agent (trails, plots) can follow them.
    pub kept: Vec<bool>,
}

/// Deletes a selection; agents that depend on a deleted path, curve or target go too.
pub fn delete(world: &mut World, selection: Selection) -> Deleted {
    let mut kept = vec![true; world.agents.len()];
    let note = delete_and_mark(world, selection, &mut kept);
    Deleted { note, kept }
}

/// Removes the agents for which `goes` holds, and the agents that depend on them (as deleting
/// an agent does: [`delete_agents`]), marking them in `kept`. Without the second part, a path's
/// deletion took its leader and left the leader's followers pointing at the leader's old index,
/// which then named another agent, or the follower itself (found by the editing monkey).
fn remove_agents(world: &mut World, kept: &mut [bool], goes: impl Fn(&crate::sim::Agent) -> bool) {
    let gone: Vec<bool> = world.agents.iter().map(goes).collect();
    delete_agents(world, gone, kept);
}

fn delete_and_mark(world: &mut World, selection: Selection, kept: &mut [bool]) -> String {
    match selection {
        Selection::Agent(i) => match world.agents.get(i).map(|a| a.about.name.clone()) {
            Some(name) => {
                let dependants = delete_agent(world, i, kept);
                dependants_note("agent", &name, dependants)
            }
            None => String::new(),
        },
        Selection::Obstacle(i) => {
            if i < world.obstacles.len() {
                world.obstacles.remove(i);
            }
            "deleted obstacle".to_string()
        }
        Selection::PathPoint { path, point } => {
            let Some(named) = world.paths.get(path) else { return String::new() };
            let mut points = named.polyline.points().to_vec();
            if points.len() <= 2 {
                return delete_and_mark(world, Selection::Path(path), kept);
            }
            if point < points.len() {
                points.remove(point);
            }
            let closed = named.polyline.is_closed() && points.len() >= 3;
            if let Some(named) = world.paths.get_mut(path) {
                named.polyline = Polyline::new(points, closed);
            }
            restart_followers(world, path);
            "deleted path point".to_string()
        }
        Selection::Path(i) => {
            if i >= world.paths.len() {
                return String::new();
            }
            let removed = world.paths.remove(i);
            let before = world.agents.len();
            remove_agents(world, kept, |a| a.behaviour.path() == Some(i));
            repoint(world, i, Behaviour::path_mut);
            dependants_note("path", &removed.id, before - world.agents.len())
        }
        Selection::Target(i) => {
            if i >= world.targets.len() {
                return String::new();
            }
            let removed = world.targets.remove(i);
            let before = world.agents.len();
            remove_agents(world, kept, |a| a.behaviour.target() == Some(i));
            repoint(world, i, Behaviour::target_mut);
            dependants_note("target", &removed.id, before - world.agents.len())
        }
        Selection::Curve(i) => {
            if i >= world.curves.len() {
                return String::new();
            }
            let removed = world.curves.remove(i);
            let before = world.agents.len();
            remove_agents(world, kept, |a| a.behaviour.curve() == Some(i));
            repoint(world, i, Behaviour::curve_mut);
            dependants_note("curve", &removed.id, before - world.agents.len())
        }
        Selection::Waypoint { agent, waypoint } => {
            if let Some(Behaviour::Planner { params }) = world.agents.get(agent).map(|a| a.behaviour.clone())
            {
                let mut params = params;
                if waypoint < params.waypoints.len() && params.waypoints.len() > 1 {
                    params.waypoints.remove(waypoint);
                    set_behaviour(world, agent, Behaviour::Planner { params });
                    return "deleted waypoint".to_string();
                }
            }
            "a planner keeps at least one waypoint".to_string()
        }
    }
}

/// After item `removed` of a list (paths, targets or curves) went: every remaining agent's
/// references into that list (`reference` picks them out of a behaviour) that pointed past it
/// shift down by one, in the main behaviour and in every further entry of its list; further
/// entries that referred to the removed item are dropped (agents whose main behaviour did are
/// already gone).
fn repoint(world: &mut World, removed: usize, reference: fn(&mut Behaviour) -> Option<&mut usize>) {
    for agent in &mut world.agents {
        if let Some(index) = reference(&mut agent.behaviour) {
            if *index > removed {
                *index -= 1;
            }
        }
        agent.mix.retain_entries(|entry| match reference(&mut entry.behaviour) {
            Some(index) if *index == removed => false,
            Some(index) => {
                if *index > removed {
                    *index -= 1;
                }
                true
            }
            None => true,
        });
    }
}

/// Deletes agent `idx` and every agent whose main behaviour (transitively) refers to it
/// ([`delete_agents`]). Returns how many agents went besides `idx`.
fn delete_agent(world: &mut World, idx: usize, kept: &mut [bool]) -> usize {
    let mut gone = vec![false; world.agents.len()];
    if let Some(flag) = gone.get_mut(idx) {
        *flag = true;
    }
    delete_agents(world, gone, kept).saturating_sub(1)
}

/// Deletes the agents marked in `gone` (one flag per agent) and every agent whose main behaviour
/// (transitively) refers to one of them; drops the list entries of the remaining agents that
/// refer to a deleted agent and re-indexes the others. Marks the agents that went in `kept`.
/// Returns how many agents went.
fn delete_agents(world: &mut World, mut gone: Vec<bool>, kept: &mut [bool]) -> usize {
    gone.resize(world.agents.len(), false);
    // Follow main references until nothing new goes (each pass adds at least one or stops).
    loop {
        let mut added = false;
        for (j, agent) in world.agents.iter().enumerate() {
            let refers_to_gone = [agent.behaviour.other_agent(), agent.behaviour.second_agent()]
                .into_iter()
                .flatten()
                .any(|o| gone.get(o) == Some(&true));
            if refers_to_gone && gone.get(j) == Some(&false) {
                if let Some(flag) = gone.get_mut(j) {
                    *flag = true;
                }
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    // New index of each old one (None: deleted).
    let mut new_index = Vec::with_capacity(gone.len());
    let mut next = 0;
    for &g in &gone {
        new_index.push((!g).then(|| {
            next += 1;
            next - 1
        }));
    }
    for (flag, &g) in kept.iter_mut().zip(&gone) {
        *flag = !g;
    }
    let mut flags = gone.iter();
    world.agents.retain(|_| flags.next() == Some(&false));
    let remap = |reference: &mut usize| match new_index.get(*reference).copied().flatten() {
        Some(new) => {
            *reference = new;
            true
        }
        None => false,
    };
    for agent in &mut world.agents {
        if let Some(other) = agent.behaviour.other_agent_mut() {
            remap(other);
        }
        if let Some(other) = agent.behaviour.second_agent_mut() {
            remap(other);
        }
        agent.mix.retain_entries(|entry| {
            entry.behaviour.other_agent_mut().is_none_or(&remap)
                && entry.behaviour.second_agent_mut().is_none_or(&remap)
        });
    }
    gone.iter().filter(|&&g| g).count()
}

fn dependants_note(what: &str, id: &str, agents: usize) -> String {
    match agents {
        0 => format!("deleted {what} {id}"),
        1 => format!("deleted {what} {id} and the agent that used it"),
        n => format!("deleted {what} {id} and the {n} agents that used it"),
    }
}
