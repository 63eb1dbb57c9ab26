//! Copy, paste and duplicate, through the scene format: copying writes the selection as a scene
//! fragment (the JSON of a [`SceneFile`] holding only the copied paths, curves, targets,
//! obstacles and agents), and pasting reads it back, so what a paste can carry is exactly what a
//! scene file can, with one home for both.
//!
//! A copied agent keeps its whole list of behaviours. Its references to things copied with it
//! (its path, curve, target, or the agent it pursues) follow the copies; references to things
//! not copied stay on the originals in the scene pasted into (pasting into a scene without them
//! is refused with a clear message). Pasted things get names no other thing has ("seeker 2",
//! `track2`), agents get palette colours not in use ([`crate::scene::PALETTE`]), and everything
//! is offset from the copy so it is visible. The pasted set is selected.
//!
//! Pasting appends to the live world: the fragment is validated and built together with the
//! scene (`scene_to_world` on the scene followed by the fragment), and the built copies, which
//! come after the scene's own objects in that build exactly as they will in the live world, are
//! moved over. The live objects are not rebuilt, so a running simulation carries on.

use std::collections::{HashMap, HashSet};

use glam::Vec3;

use super::{edit, Selection};
use crate::scene::{world_to_scene, BehaviourSpec, CurveSpec, SceneFile, SceneVec, PALETTE};
use crate::sim::{Rgb, World};

/// How far each paste lands from the copy, in world units (right and down on the screen).
pub const PASTE_OFFSET: Vec3 = Vec3::new(30.0, -30.0, 0.0);

/// The scene fragment holding `items` (a path point counts as its path, a waypoint as its
/// agent), as JSON. None when nothing copyable is selected.
pub fn copy(world: &World, items: &[Selection]) -> Option<String> {
    let mut agents = HashSet::new();
    let mut paths = HashSet::new();
    let mut curves = HashSet::new();
    let mut targets = HashSet::new();
    let mut obstacles = HashSet::new();
    for item in items {
        match *item {
            Selection::Agent(i) | Selection::Waypoint { agent: i, .. } => agents.insert(i),
            Selection::Path(i) | Selection::PathPoint { path: i, .. } => paths.insert(i),
            Selection::Curve(i) => curves.insert(i),
            Selection::Target(i) => targets.insert(i),
            Selection::Obstacle(i) => obstacles.insert(i),
        };
    }
    let scene = world_to_scene(world);
    let fragment = SceneFile {
        paths: keep(scene.paths, &paths),
        curves: keep(scene.curves, &curves),
        targets: keep(scene.targets, &targets),
        obstacles: keep(scene.obstacles, &obstacles),
        agents: keep(scene.agents, &agents),
        // Painted fields are not copied: a pasted flow-field entry reads the field it read.
        fields: Vec::new(),
        bounds: None,
        avoidance: None,
        ..scene
    };
    let empty = fragment.paths.is_empty()
        && fragment.curves.is_empty()
        && fragment.targets.is_empty()
        && fragment.obstacles.is_empty()
        && fragment.agents.is_empty();
    if empty {
        return None;
    }
    serde_json::to_string(&fragment).ok()
}

/// Pastes a fragment made by [`copy`] into `world`, moved by `offset`; returns the pasted
/// things (to select them), or a one-line reason when it cannot be pasted (nothing changes).
pub fn paste(world: &mut World, fragment_json: &str, offset: Vec3) -> Result<Vec<Selection>, String> {
    let mut fragment: SceneFile =
        serde_json::from_str(fragment_json).map_err(|err| format!("cannot paste: {err}"))?;
    if !offset.is_finite() {
        return Err("cannot paste: the offset is not finite".to_string());
    }
    let mut scene = world_to_scene(world);
    let counts = (
        scene.paths.len(),
        scene.curves.len(),
        scene.targets.len(),
        scene.obstacles.len(),
        scene.agents.len(),
    );

    // Unique ids and names, and the map from the copied ones to the pasted ones.
    let mut path_ids: HashMap<String, String> = HashMap::new();
    let mut taken: Vec<String> = scene.paths.iter().map(|p| p.id.clone()).collect();
    for path in &mut fragment.paths {
        let id = unique_like(&path.id, &taken);
        taken.push(id.clone());
        path_ids.insert(std::mem::replace(&mut path.id, id.clone()), id);
        for point in &mut path.points {
            point.0 += offset;
        }
    }
    let mut curve_ids: HashMap<String, String> = HashMap::new();
    let mut taken: Vec<String> = scene.curves.iter().map(|c| c.id().to_string()).collect();
    for curve in &mut fragment.curves {
        let id = unique_like(curve.id(), &taken);
        taken.push(id.clone());
        curve_ids.insert(curve.id().to_string(), id.clone());
        set_curve_id(curve, id);
    }
    let mut target_ids: HashMap<String, String> = HashMap::new();
    let mut taken: Vec<String> = scene.targets.iter().map(|t| t.id.clone()).collect();
    for target in &mut fragment.targets {
        let id = unique_like(&target.id, &taken);
        taken.push(id.clone());
        target_ids.insert(std::mem::replace(&mut target.id, id.clone()), id);
        target.position.0 += offset;
    }
    for obstacle in &mut fragment.obstacles {
        obstacle.position.0 += offset;
        obstacle.id = None;
    }
    let mut agent_names: HashMap<String, String> = HashMap::new();
    let mut taken: Vec<String> = scene.agents.iter().enumerate().map(|(i, a)| a.name_or_default(i)).collect();
    let mut colours: Vec<Rgb> = world.agents.iter().map(|a| a.about.color).collect();
    for (i, agent) in fragment.agents.iter_mut().enumerate() {
        let old = agent.name_or_default(i);
        let name = unique_name(edit::base_name(&old), &taken);
        taken.push(name.clone());
        agent_names.insert(old, name.clone());
        agent.name = Some(name);
        let colour = least_used_colour(&colours);
        colours.push(colour);
        agent.color = Some(colour.to_hex());
        agent.position.0 += offset;
    }
    for agent in &mut fragment.agents {
        for entry in &mut agent.behaviours {
            remap(&mut entry.behaviour, &path_ids, &curve_ids, &target_ids, &agent_names, offset);
        }
        if let Some(behaviour) = agent.behaviour.as_mut() {
            remap(behaviour, &path_ids, &curve_ids, &target_ids, &agent_names, offset);
        }
    }

    // A pasted wanderer walks its own walk: its seed becomes one no wanderer here uses yet.
    let mut seeds = edit::FreshSeeds::new(scene.agents.iter().flat_map(wander_seeds));
    for agent in &mut fragment.agents {
        let specs = agent.behaviour.iter_mut().chain(agent.behaviours.iter_mut().map(|e| &mut e.behaviour));
        for spec in specs {
            if let BehaviourSpec::Wander(w) = spec {
                w.seed = seeds.fresh(w.seed);
            }
        }
    }

    let pasted = (
        fragment.paths.len(),
        fragment.curves.len(),
        fragment.targets.len(),
        fragment.obstacles.len(),
        fragment.agents.len(),
    );
    scene.paths.extend(fragment.paths);
    scene.curves.extend(fragment.curves);
    scene.targets.extend(fragment.targets);
    scene.obstacles.extend(fragment.obstacles);
    scene.agents.extend(fragment.agents);
    let mut built = crate::scene::scene_to_world(&scene).map_err(|(path, reason)| {
        format!("cannot paste here: {path}: {reason} (copy what it refers to along with it)")
    })?;

    let tail = |len: usize, skip: usize| skip..len;
    let mut selection = Vec::new();
    let (paths, curves, targets, obstacles, agents) = counts;
    selection.extend(tail(paths + pasted.0, paths).map(Selection::Path));
    selection.extend(tail(curves + pasted.1, curves).map(Selection::Curve));
    selection.extend(tail(targets + pasted.2, targets).map(Selection::Target));
    selection.extend(tail(obstacles + pasted.3, obstacles).map(Selection::Obstacle));
    selection.extend(tail(agents + pasted.4, agents).map(Selection::Agent));
    // The built copies follow the scene's own objects, in the same order as in the live world.
    world.paths.extend(built.paths.drain(paths.min(built.paths.len())..));
    // Curves are moved once built, by the editor's own translation (expressions get `+ dx`).
    for mut named in built.curves.drain(curves.min(built.curves.len())..) {
        if let Ok(curve) =
            crate::geometry::Curve::new(edit::translate_curve(named.curve.kind().clone(), offset))
        {
            named.curve = curve;
        }
        world.curves.push(named);
    }
    world.targets.extend(built.targets.drain(targets.min(built.targets.len())..));
    world.obstacles.extend(built.obstacles.drain(obstacles.min(built.obstacles.len())..));
    let first_built = agents.min(built.agents.len());
    world.agents.extend(built.agents.as_mut_vec().drain(first_built..));
    for i in agents..world.agents.len() {
        world.reset_agent(i);
    }
    Ok(selection)
}

/// The wander seeds of an agent's behaviours (scene-file form).
fn wander_seeds(agent: &crate::scene::AgentSpec) -> Vec<u32> {
    let entries = agent.behaviour.iter().chain(agent.behaviours.iter().map(|e| &e.behaviour));
    entries
        .filter_map(|spec| match spec {
            BehaviourSpec::Wander(w) => Some(w.seed),
            _ => None,
        })
        .collect()
}

/// `base` when no name in `taken` is, else "base 2", "base 3"… whichever is free.
fn unique_name(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base} {n}"))
        .find(|c| !taken.iter().any(|t| t == c))
        .unwrap_or_else(|| base.to_string())
}

/// Gives a curve spec a new id.
fn set_curve_id(spec: &mut CurveSpec, id: String) {
    match spec {
        CurveSpec::Circle(s) => s.id = id,
        CurveSpec::Ellipse(s) => s.id = id,
        CurveSpec::Lemniscate(s) => s.id = id,
        CurveSpec::Lissajous(s) => s.id = id,
        CurveSpec::Helix(s) => s.id = id,
        CurveSpec::Spline(s) => s.id = id,
        CurveSpec::Expr(s) => s.id = id,
    }
}

/// The entries of `list` whose index is in `indices`, in order.
fn keep<T>(list: Vec<T>, indices: &HashSet<usize>) -> Vec<T> {
    list.into_iter().enumerate().filter(|(i, _)| indices.contains(i)).map(|(_, item)| item).collect()
}

/// `id` when free, else its stem (trailing digits removed) with the first free number: `track`
/// → `track2`, `target3` → `target4`.
fn unique_like(id: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == id) {
        return id.to_string();
    }
    let stem = id.trim_end_matches(|c: char| c.is_ascii_digit());
    let stem = if stem.is_empty() { id } else { stem };
    (2..)
        .map(|n| format!("{stem}{n}"))
        .find(|c| !taken.iter().any(|t| t == c))
        .unwrap_or_else(|| id.to_string())
}

/// The palette colour used least among `used` (the first unused while any is free).
fn least_used_colour(used: &[Rgb]) -> Rgb {
    let uses = |c: &Rgb| used.iter().filter(|u| *u == c).count();
    PALETTE.iter().copied().min_by_key(uses).unwrap_or(Rgb(0x33, 0x33, 0x33))
}

/// Points a pasted behaviour's references at the pasted copies (when they were copied too) and
/// moves a planner's waypoints with the paste.
fn remap(
    behaviour: &mut BehaviourSpec,
    paths: &HashMap<String, String>,
    curves: &HashMap<String, String>,
    targets: &HashMap<String, String>,
    agents: &HashMap<String, String>,
    offset: Vec3,
) {
    let follow = |map: &HashMap<String, String>, id: &mut String| {
        if let Some(new) = map.get(id.as_str()) {
            *id = new.clone();
        }
    };
    match behaviour {
        BehaviourSpec::Seek(s) | BehaviourSpec::Flee(s) => follow(targets, &mut s.target),
        BehaviourSpec::Arrive(s) => follow(targets, &mut s.target),
        BehaviourSpec::Parametric(s) => follow(curves, &mut s.curve),
        BehaviourSpec::Waypoints(s) => follow(paths, &mut s.path),
        BehaviourSpec::Projected(s) => follow(paths, &mut s.path),
        BehaviourSpec::Predictive(s) => follow(paths, &mut s.path),
        BehaviourSpec::Pursuit(s) | BehaviourSpec::Evade(s) => follow(agents, &mut s.agent),
        BehaviourSpec::OffsetPursuit(s) => follow(agents, &mut s.agent),
        BehaviourSpec::Containment(s) => follow(paths, &mut s.region),
        BehaviourSpec::FlowField(s) => {
            if let Some(path) = &mut s.path {
                follow(paths, path);
            }
        }
        BehaviourSpec::LeaderFollowing(s) => follow(agents, &mut s.agent),
        BehaviourSpec::Interpose(s) => {
            let [a, b] = &mut s.agents;
            follow(agents, a);
            follow(agents, b);
        }
        BehaviourSpec::Hide(s) => follow(agents, &mut s.agent),
        BehaviourSpec::Face(s) => follow(agents, &mut s.agent),
        BehaviourSpec::Planner(s) => {
            for waypoint in &mut s.waypoints {
                *waypoint = SceneVec(waypoint.0 + offset);
            }
        }
        BehaviourSpec::AvoidObstacles(_)
        | BehaviourSpec::Wander(_)
        | BehaviourSpec::Flocking(_)
        | BehaviourSpec::CollisionAvoidance(_)
        | BehaviourSpec::LookWhereYouAreGoing(_) => {}
    }
}
