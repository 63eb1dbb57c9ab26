//! Edits of paths and curves: appending and inserting points, opening and closing, replacing a
//! curve's shape, and restarting the agents that follow what changed.

use glam::Vec3;

use super::unique_id;
use crate::geometry::{Curve, Polyline};
use crate::sim::{BehaviourState, World};

/// Restarts the behaviour state of the agents following `path` (after its shape changed).
pub fn restart_followers(world: &mut World, path: usize) {
    for agent in &mut world.agents {
        if agent.behaviour.path() == Some(path) {
            agent.state = BehaviourState::start(&agent.behaviour);
        }
    }
}

/// Appends points to a path, or makes a new open path of them; returns (path, last point).
pub fn append_path_points(world: &mut World, path: Option<usize>, points: &[Vec3]) -> (usize, usize) {
    match path.filter(|&p| p < world.paths.len()) {
        Some(path_idx) => {
            let named = &mut world.paths[path_idx];
            let mut all = named.polyline.points().to_vec();
            all.extend_from_slice(points);
            let last = all.len() - 1;
            named.polyline = Polyline::new(all, named.polyline.is_closed());
            restart_followers(world, path_idx);
            (path_idx, last)
        }
        None => {
            let id = unique_id(world.paths.iter().map(|p| p.id.as_str()), "path");
            world.paths.push(crate::sim::NamedPath {
                id,
                polyline: Polyline::new(points.to_vec(), false),
                radius: 20.0,
            });
            (world.paths.len() - 1, points.len().saturating_sub(1))
        }
    }
}

/// Inserts a point after vertex `segment`; returns the new point's index.
pub fn insert_path_point(world: &mut World, path: usize, segment: usize, point: Vec3) -> Option<usize> {
    let named = world.paths.get_mut(path)?;
    let mut points = named.polyline.points().to_vec();
    let at = (segment + 1).min(points.len());
    points.insert(at, point);
    named.polyline = Polyline::new(points, named.polyline.is_closed());
    restart_followers(world, path);
    Some(at)
}

/// Opens or closes a path.
pub fn set_path_closed(world: &mut World, path: usize, closed: bool) {
    if let Some(named) = world.paths.get_mut(path) {
        named.polyline = Polyline::new(named.polyline.points().to_vec(), closed);
    }
    restart_followers(world, path);
}

/// Replaces a curve; its followers carry on from the nearest point.
pub fn set_curve(world: &mut World, curve_idx: usize, curve: Curve) {
    if let Some(named) = world.curves.get_mut(curve_idx) {
        named.curve = curve;
    }
}
