//! Deleting anything the editor can select, keeping the world consistent: agents that depend on
//! a deleted path, curve or target go too, and the indices agents hold are shifted.

use super::super::Selection;
use super::{restart_followers, set_behaviour};
use crate::geometry::Polyline;
use crate::sim::{Behaviour, World};

/// Deletes a selection; agents that depend on a deleted path, curve or target go too.
/// Returns a note for the status bar.
pub fn delete(world: &mut World, selection: Selection) -> String {
    match selection {
        Selection::Agent(i) => {
            if i < world.agents.len() {
                let agent = world.agents.remove(i);
                format!("deleted agent {}", agent.name)
            } else {
                String::new()
            }
        }
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
                return delete(world, Selection::Path(path));
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
            world.agents.retain(|a| a.behaviour.path() != Some(i));
            for agent in &mut world.agents {
                if let Behaviour::Waypoints { path, .. }
                | Behaviour::Projected { path, .. }
                | Behaviour::Predictive { path, .. } = &mut agent.behaviour
                {
                    if *path > i {
                        *path -= 1;
                    }
                }
            }
            dependants_note("path", &removed.id, before - world.agents.len())
        }
        Selection::Target(i) => {
            if i >= world.targets.len() {
                return String::new();
            }
            let removed = world.targets.remove(i);
            let before = world.agents.len();
            world.agents.retain(|a| a.behaviour.target() != Some(i));
            for agent in &mut world.agents {
                if let Behaviour::Seek { target }
                | Behaviour::Flee { target }
                | Behaviour::Arrive { target, .. } = &mut agent.behaviour
                {
                    if *target > i {
                        *target -= 1;
                    }
                }
            }
            dependants_note("target", &removed.id, before - world.agents.len())
        }
        Selection::Curve(i) => {
            if i >= world.curves.len() {
                return String::new();
            }
            let removed = world.curves.remove(i);
            let before = world.agents.len();
            world.agents.retain(|a| a.behaviour.curve() != Some(i));
            for agent in &mut world.agents {
                if let Behaviour::Parametric { curve, .. } = &mut agent.behaviour {
                    if *curve > i {
                        *curve -= 1;
                    }
                }
            }
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

fn dependants_note(what: &str, id: &str, agents: usize) -> String {
    match agents {
        0 => format!("deleted {what} {id}"),
        1 => format!("deleted {what} {id} and the agent that used it"),
        n => format!("deleted {what} {id} and the {n} agents that used it"),
    }
}
