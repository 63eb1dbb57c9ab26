//! Selecting several things at once: the group (Shift+click adds or removes, a rubber band on
//! empty space selects what is inside), deleting a group in one step, moving it rigidly, and
//! grid snapping for placing and dragging.
//!
//! The group lives beside [`App::selection`], which stays the *primary* item (the one the
//! inspector shows when one thing is selected, and the one a drag grabs). The group counts only
//! while it contains the primary: any code that points the selection at something else (a new
//! agent, a click) thereby ends the group, so a stale group can never be acted on.
//!
//! What a rubber band selects: agents, obstacles, targets and curves whose handle (the point
//! they are dragged by) lies inside it, and whole paths whose every vertex lies inside it.
//! Single path points and planner waypoints are picked by clicking (Shift+click adds them).

use glam::{Vec2, Vec3};

use super::camera::Camera;
use super::edit;
use super::{plural, App, Selection};
use crate::sim::World;

/// Default grid spacing for snapping, in world units.
pub const DEFAULT_GRID_SIZE: f32 = 25.0;
/// The range the grid spacing can be set to, in world units.
pub const GRID_SIZE_RANGE: std::ops::RangeInclusive<f32> = 1.0..=500.0;

/// Grid snapping: an editing aid of the window, not part of the scene (it is not saved).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snap {
    /// Placing and dragging snap to the grid.
    pub on: bool,
    /// Grid spacing in world units (see [`GRID_SIZE_RANGE`]).
    pub size: f32,
}

impl Default for Snap {
    fn default() -> Self {
        Snap { on: false, size: DEFAULT_GRID_SIZE }
    }
}

impl Snap {
    /// `p` with x and y rounded to the nearest grid line when snapping is on (z is kept: the
    /// grid is the ground plane's).
    pub fn apply(self, p: Vec3) -> Vec3 {
        if !self.on || !self.size.is_finite() || self.size <= 0.0 || !p.is_finite() {
            return p;
        }
        let round = |v: f32| (v / self.size).round() * self.size;
        Vec3::new(round(p.x), round(p.y), p.z)
    }
}

impl App {
    /// Everything selected: the group when several things are, else the one selection.
    pub fn selected(&self) -> Vec<Selection> {
        match self.selection {
            Some(primary) if self.group.len() > 1 && self.group.contains(&primary) => self.group.clone(),
            Some(primary) => vec![primary],
            None => Vec::new(),
        }
    }

    /// Whether `item` is selected (alone or in the group).
    pub fn is_selected(&self, item: Selection) -> bool {
        match self.selection {
            Some(primary) if primary == item => true,
            Some(primary) => {
                self.group.len() > 1 && self.group.contains(&primary) && self.group.contains(&item)
            }
            None => false,
        }
    }

    /// How many things are selected.
    pub fn selection_count(&self) -> usize {
        self.selected().len()
    }

    /// Selects `items` (the first is the primary); drops items that do not exist and repeats.
    pub fn select_many(&mut self, items: Vec<Selection>) {
        let mut group: Vec<Selection> = Vec::with_capacity(items.len());
        for item in items {
            if edit::selection_exists(&self.world, item) && !group.contains(&item) {
                group.push(item);
            }
        }
        self.selection = group.first().copied();
        self.group = if group.len() > 1 { group } else { Vec::new() };
    }

    /// Adds `item` to the selection, or removes it when it is already selected (Shift+click).
    pub fn toggle_selected(&mut self, item: Selection) {
        let mut items = self.selected();
        if let Some(at) = items.iter().position(|s| *s == item) {
            items.remove(at);
        } else {
            // The clicked item becomes the primary (the inspector and a drag follow it).
            items.insert(0, item);
        }
        self.select_many(items);
    }

    /// Grid snapping applied to a world point (placing and dragging go through this).
    pub fn snapped(&self, p: Vec3) -> Vec3 {
        self.snap.apply(p)
    }
}

/// Everything inside the screen rectangle spanned by `a` and `b` (see the module documentation
/// for what counts as inside).
pub fn select_in_box(world: &World, camera: &Camera, a: Vec2, b: Vec2) -> Vec<Selection> {
    let (min, max) = (a.min(b), a.max(b));
    let projection = camera.projection();
    let inside = |p: Vec3| {
        projection.to_screen(p).is_some_and(|s| s.x >= min.x && s.x <= max.x && s.y >= min.y && s.y <= max.y)
    };
    let mut items = Vec::new();
    for (i, agent) in world.agents.iter().enumerate() {
        if inside(agent.kinematics.position) {
            items.push(Selection::Agent(i));
        }
    }
    for (i, obstacle) in world.obstacles.iter().enumerate() {
        if inside(obstacle.position) {
            items.push(Selection::Obstacle(i));
        }
    }
    for (i, target) in world.targets.iter().enumerate() {
        if inside(target.position) {
            items.push(Selection::Target(i));
        }
    }
    for (i, path) in world.paths.iter().enumerate() {
        let points = path.polyline.points();
        if !points.is_empty() && points.iter().all(|&p| inside(p)) {
            items.push(Selection::Path(i));
        }
    }
    for (i, curve) in world.curves.iter().enumerate() {
        if inside(edit::curve_handle(&curve.curve)) {
            items.push(Selection::Curve(i));
        }
    }
    items
}

/// The items of a group that move on their own: a path point or a waypoint whose path or agent
/// is moved as a whole is left to it, so nothing moves twice.
fn movable(items: &[Selection]) -> Vec<Selection> {
    items
        .iter()
        .copied()
        .filter(|item| match item {
            Selection::PathPoint { path, .. } => !items.contains(&Selection::Path(*path)),
            _ => true,
        })
        .collect()
}

/// Moves every item by `delta` (their starts too, so Reset keeps the edit).
pub fn move_many(world: &mut World, items: &[Selection], delta: Vec3) {
    if !delta.is_finite() || delta == Vec3::ZERO {
        return;
    }
    for item in movable(items) {
        if let Some(at) = edit::selection_position(world, item) {
            edit::move_selection(world, item, at + delta);
        }
    }
}

/// A name no agent of a scene can have, marking agent `n` for deletion.
fn doomed_name(n: usize) -> String {
    format!("\u{1}doomed {n}")
}

/// Deletes every item (and, as a single delete does, the agents that depend on a deleted path,
/// curve, target or agent). Indices shift as things go, so the items are first turned into
/// names that do not: ids for paths, targets and curves, a marker name for agents; obstacles
/// (nothing refers to them, and nothing else removes them) go by falling index. Returns a note
/// and, for each agent left, its index before.
pub fn delete_many(world: &mut World, items: &[Selection]) -> (String, Vec<usize>) {
    let mut survivors: Vec<usize> = (0..world.agents.len()).collect();
    let mut delete = |world: &mut World, item: Selection| {
        let deleted = edit::delete(world, item);
        let mut kept = deleted.kept.iter();
        survivors.retain(|_| kept.next() != Some(&false));
        deleted.note
    };
    if let [one] = items {
        let note = delete(world, *one);
        return (note, survivors);
    }
    let agents_before = world.agents.len();
    let mut doomed_agents = 0;
    for item in items {
        if let Selection::Agent(i) = item {
            if let Some(agent) = world.agents.get_mut(*i) {
                agent.about.name = doomed_name(doomed_agents);
                doomed_agents += 1;
            }
        }
    }
    let path_id = |world: &World, i: usize| world.paths.get(i).map(|p| p.id.clone());
    let mut paths: Vec<String> = Vec::new();
    let mut targets: Vec<String> = Vec::new();
    let mut curves: Vec<String> = Vec::new();
    let mut obstacles: Vec<usize> = Vec::new();
    let mut points: Vec<(String, usize)> = Vec::new();
    let mut waypoints: Vec<(usize, usize)> = Vec::new();
    for item in items {
        match *item {
            Selection::Agent(_) => {}
            Selection::Path(i) => paths.extend(path_id(world, i)),
            Selection::PathPoint { path, point } => {
                if !items.contains(&Selection::Path(path)) {
                    points.extend(path_id(world, path).map(|id| (id, point)));
                }
            }
            Selection::Obstacle(i) => obstacles.push(i),
            Selection::Target(i) => targets.extend(world.targets.get(i).map(|t| t.id.clone())),
            Selection::Curve(i) => curves.extend(world.curves.get(i).map(|c| c.id.clone())),
            Selection::Waypoint { agent, waypoint } => {
                if !items.contains(&Selection::Agent(agent)) {
                    waypoints.push((agent, waypoint));
                }
            }
        }
    }
    // Waypoints first, by falling index: removing one changes no other index.
    waypoints.sort_unstable();
    for &(agent, waypoint) in waypoints.iter().rev() {
        delete(world, Selection::Waypoint { agent, waypoint });
    }
    points.sort_unstable_by_key(|point| std::cmp::Reverse(point.1));
    for (id, point) in points {
        if let Some(path) = world.paths.iter().position(|p| p.id == id) {
            delete(world, Selection::PathPoint { path, point });
        }
    }
    obstacles.sort_unstable();
    obstacles.dedup();
    for &i in obstacles.iter().rev() {
        delete(world, Selection::Obstacle(i));
    }
    for id in paths {
        if let Some(i) = world.paths.iter().position(|p| p.id == id) {
            delete(world, Selection::Path(i));
        }
    }
    for id in targets {
        if let Some(i) = world.targets.iter().position(|t| t.id == id) {
            delete(world, Selection::Target(i));
        }
    }
    for id in curves {
        if let Some(i) = world.curves.iter().position(|c| c.id == id) {
            delete(world, Selection::Curve(i));
        }
    }
    for n in 0..doomed_agents {
        let name = doomed_name(n);
        if let Some(i) = world.agents.iter().position(|a| a.about.name == name) {
            delete(world, Selection::Agent(i));
        }
    }
    let agents_gone = agents_before - world.agents.len();
    let others = items.len() - doomed_agents;
    let note = match (others, agents_gone) {
        (0, agents) => format!("deleted {}", plural(agents, "agent")),
        (others, 0) => format!("deleted {}", plural(others, "item")),
        (others, agents) => format!("deleted {} and {}", plural(others, "item"), plural(agents, "agent")),
    };
    (note, survivors)
}

impl App {
    /// Deletes everything selected in one undo step.
    pub(crate) fn delete_selection(&mut self) {
        let items = self.selected();
        if items.is_empty() {
            return;
        }
        self.checkpoint(None);
        let followed = self.followed();
        let (note, survivors) = delete_many(&mut self.world, &items);
        // Indices may have shifted: the recorded plan no longer names its agent safely.
        self.planner_debug = None;
        self.selection = None;
        self.group.clear();
        self.hover = None;
        self.tool_state.drag = None;
        let ids = survivors.iter().filter_map(|&i| self.agent_ids.get(i).copied()).collect();
        self.set_agent_ids(ids);
        self.previous_positions = self.world.agents.iter().map(|a| a.kinematics.position).collect();
        match self.keep_following(followed) {
            Some(stopped) => self.info(format!("{note}; {stopped}")),
            None => self.info(note),
        }
    }

    /// Moves everything selected by `delta` in one undo step.
    pub(crate) fn move_selection_by(&mut self, delta: Vec3) {
        let items = self.selected();
        if items.is_empty() || !delta.is_finite() || delta == Vec3::ZERO {
            return;
        }
        // A move the scene file could not hold would leave a scene that can no longer be saved
        // or autosaved: refuse it whole.
        let limit = crate::scene::MAX_COORDINATE;
        let beyond = |p: Vec3| p.abs().max_element() > limit;
        if extent(&self.world, &items).is_some_and(|(min, max)| beyond(min + delta) || beyond(max + delta)) {
            self.set_error(format!(
                "not moved: the selection would leave the scene's limits (coordinates within ±{limit})"
            ));
            return;
        }
        self.checkpoint(None);
        move_many(&mut self.world, &items, delta);
        self.previous_positions = self.world.agents.iter().map(|a| a.kinematics.position).collect();
    }

    /// Copies the selection to the clipboard.
    pub(crate) fn copy_selection(&mut self) {
        let items = self.selected();
        match super::clipboard::copy(&self.world, &items) {
            Some(fragment) => {
                self.clipboard = Some(fragment);
                self.clipboard_anchor = centre(&self.world, &items);
                self.pastes = 0;
                self.info(format!("copied {}", plural(items.len(), "item")));
            }
            None => self.info("nothing selected to copy"),
        }
    }

    /// Pastes the clipboard in one undo step: its centre at `at` (heights kept), or else one
    /// offset further than the last paste.
    pub(crate) fn paste_clipboard(&mut self, at: Option<Vec3>) {
        let Some(fragment) = self.clipboard.clone() else {
            self.info("the clipboard is empty: copy something first (Ctrl+C)");
            return;
        };
        let at_mouse = at.zip(self.clipboard_anchor).map(|(at, anchor)| (at - anchor).with_z(0.0));
        match at_mouse.filter(|offset| offset.is_finite()) {
            Some(offset) => {
                self.paste_fragment(&fragment, offset);
            }
            None => {
                let offset = super::clipboard::PASTE_OFFSET * (self.pastes + 1) as f32;
                if self.paste_fragment(&fragment, offset) {
                    self.pastes += 1;
                }
            }
        }
    }

    /// Duplicates the selection next to it in one undo step (the clipboard is left alone).
    pub(crate) fn duplicate_selection(&mut self) {
        let items = self.selected();
        match super::clipboard::copy(&self.world, &items) {
            Some(fragment) => {
                self.paste_fragment(&fragment, super::clipboard::PASTE_OFFSET);
            }
            None => self.info("nothing selected to duplicate"),
        }
    }

    /// Pastes `fragment` moved by `offset` and selects what was pasted; true when it went in.
    fn paste_fragment(&mut self, fragment: &str, offset: Vec3) -> bool {
        let mut world = self.world.clone();
        match super::clipboard::paste(&mut world, fragment, offset) {
            Ok(pasted) => {
                self.checkpoint(None);
                self.world = world;
                self.agents_appended();
                self.previous_positions = self.world.agents.iter().map(|a| a.kinematics.position).collect();
                self.info(format!("pasted {}", plural(pasted.len(), "item")));
                self.select_many(pasted);
                true
            }
            Err(why) => {
                self.set_error(why);
                false
            }
        }
    }
}

/// The centre of the bounding box of `items`' positions (a path counts with all its points),
/// or None when none has one.
pub fn centre(world: &World, items: &[Selection]) -> Option<Vec3> {
    extent(world, items).map(|(min, max)| (min + max) * 0.5)
}

/// The corners of the box round the selection's positions and path points.
fn extent(world: &World, items: &[Selection]) -> Option<(Vec3, Vec3)> {
    let mut points: Vec<Vec3> = Vec::new();
    for &item in items {
        match item {
            Selection::Path(i) => {
                points.extend(world.paths.get(i).map(|p| p.polyline.points().to_vec()).unwrap_or_default())
            }
            item => points.extend(edit::selection_position(world, item)),
        }
    }
    let first = *points.first()?;
    Some(points.iter().fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))))
}

/// Every agent, path, curve, target and obstacle of `world` (Select all).
pub fn everything(world: &World) -> Vec<Selection> {
    let mut items: Vec<Selection> = (0..world.agents.len()).map(Selection::Agent).collect();
    items.extend((0..world.paths.len()).map(Selection::Path));
    items.extend((0..world.curves.len()).map(Selection::Curve));
    items.extend((0..world.targets.len()).map(Selection::Target));
    items.extend((0..world.obstacles.len()).map(Selection::Obstacle));
    items
}

impl App {
    /// Whether path `path` or one of its points is selected (its line is drawn highlighted).
    pub fn path_selected(&self, path: usize) -> bool {
        match self.selection {
            Some(primary) if self.group.len() > 1 && self.group.contains(&primary) => {
                self.group.iter().any(|s| s.path() == Some(path))
            }
            Some(primary) => primary.path() == Some(path),
            None => false,
        }
    }
}
