//! The planner's step-through mode (seed 004's walk-through, one picture per loop iteration):
//! a plan made with `record: true` from the ship's current position through the waypoints it has
//! left, frozen together with the obstacles it was made against, and a cursor on its iterations.
//!
//! The editor opens it with [`Command::OpenPlannerDebug`](super::Command::OpenPlannerDebug)
//! (the simulation pauses), moves the cursor with `PlannerDebugGoto`, and closes it with
//! `ClosePlannerDebug`. The panel lists [`PlannerDebug::current`]'s stack; the world view draws the
//! iteration in the seed's colours from [`PlannerDebug::path_so_far`] and the frozen obstacles.

use glam::Vec3;

use crate::geometry::Sphere;
use crate::planner::fallback::{FallbackOutcome, FallbackSearch};
use crate::planner::{plan_spheres, Plan, PlanIteration, PlanOptions, WaypointKind};
use crate::sim::{Behaviour, BehaviourState, World};

/// A move through the recorded iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepMove {
    /// To the first iteration.
    First,
    /// One back.
    Previous,
    /// One on.
    Next,
    /// To the last iteration: the finished plan.
    Last,
}

/// A recorded plan and the iteration being looked at.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannerDebug {
    /// The planner agent (index into `world.agents`).
    pub agent: usize,
    /// The recorded plan (its `iterations` hold one entry per loop turn).
    pub plan: Plan,
    /// The iteration shown, `0..plan.iterations.len()` (0 when there are none).
    pub iteration: usize,
    /// The user waypoints the plan was made through (the ship's remaining ones).
    pub user_waypoints: Vec<Vec3>,
    /// The obstacles as they were when the plan was made.
    pub obstacles: Vec<Sphere>,
    /// The ship's radius.
    pub ship_radius: f32,
    /// The radius the casts swept: ship radius plus clearance.
    pub cast_radius: f32,
}

impl PlannerDebug {
    /// Replans for agent `agent` of `world` from where it is now, recording every iteration;
    /// None when the agent is not a planner. Smoothing is left out: it runs after the loop and
    /// the step-through shows the loop (the panel says so).
    pub fn record(world: &World, agent: usize) -> Option<PlannerDebug> {
        let a = world.agents.get(agent)?;
        let Behaviour::Planner { params } = &a.behaviour else { return None };
        let user_waypoints = match &a.state {
            BehaviourState::Planner(ship) if ship.has_planned => ship.remaining.clone(),
            _ => params.waypoints.clone(),
        };
        let obstacles: Vec<Sphere> =
            world.obstacles.iter().map(|o| Sphere { center: o.position, radius: o.radius }).collect();
        let options = PlanOptions { record: true, smoothing: false, ..params.plan_options() };
        let ship_radius = a.limits.radius.max(0.0);
        let plan = plan_spheres(a.kinematics.position, ship_radius, &user_waypoints, &obstacles, &options);
        Some(PlannerDebug {
            agent,
            plan,
            iteration: 0,
            user_waypoints,
            obstacles,
            ship_radius,
            cast_radius: ship_radius + options.clearance.max(0.0),
        })
    }

    /// How many iterations were recorded.
    pub fn count(&self) -> usize {
        self.plan.iterations.len()
    }

    /// The iteration shown.
    pub fn current(&self) -> Option<&PlanIteration> {
        self.plan.iterations.get(self.iteration)
    }

    /// Moves the cursor to `iteration`, clamped to the recorded range.
    pub fn goto(&mut self, iteration: usize) {
        self.iteration = iteration.min(self.count().saturating_sub(1));
    }

    /// The iteration a move leads to from the one shown (the panel's buttons and the keys).
    pub fn target(&self, step: StepMove) -> usize {
        let last = self.count().saturating_sub(1);
        match step {
            StepMove::First => 0,
            StepMove::Previous => self.iteration.saturating_sub(1),
            StepMove::Next => (self.iteration + 1).min(last),
            StepMove::Last => last,
        }
    }

    /// Real waypoints placed before the loop began (exits from a start inside an obstacle).
    fn before_loop(&self) -> usize {
        match self.plan.iterations.first() {
            Some(first) => first.real_count - usize::from(first.popped),
            None => self.plan.waypoints.len(),
        }
    }

    /// The planned path after the shown iteration: the start, then every real waypoint so far
    /// (the seed's green line), including the routes of fallback searches that ran by then (they
    /// replace the loop's own attempt at their segment, as in the plan).
    pub fn path_so_far(&self) -> Vec<Vec3> {
        let mut path = vec![self.plan.start];
        path.extend(self.replay().0);
        path
    }

    /// The routes of the fallback searches that ran by the shown iteration, each from where the
    /// search started through its corners to the user waypoint (drawn orange).
    pub fn fallback_so_far(&self) -> Vec<Vec<Vec3>> {
        self.replay().1
    }

    /// The fallback searches that ran right after the shown iteration (the loop stopped there).
    pub fn fallbacks_after_current(&self) -> impl Iterator<Item = &FallbackSearch> {
        let done = self.iterations_done();
        self.plan.fallbacks.iter().filter(move |f| f.after_iterations == done)
    }

    /// Loop iterations done when the shown one is: all of them when none were recorded.
    fn iterations_done(&self) -> u32 {
        if self.count() == 0 {
            self.plan.iteration_count
        } else {
            u32::try_from((self.iteration + 1).min(self.count())).unwrap_or(u32::MAX)
        }
    }

    /// Replays the recorded plan up to the shown iteration: the real list (loop pops and fallback
    /// routes, a fallback first dropping the loop's attempt at its segment) and the fallback routes.
    fn replay(&self) -> (Vec<Vec3>, Vec<Vec<Vec3>>) {
        let done = self.iterations_done();
        let at = |k: u32| self.plan.fallbacks.iter().filter(move |f| f.after_iterations == k);
        let initial = match at(0).next() {
            Some(first) => first.kept,
            None => self.before_loop(),
        };
        let mut real: Vec<Vec3> = self.plan.waypoints.iter().take(initial).copied().collect();
        let mut routes = Vec::new();
        let mut apply = |real: &mut Vec<Vec3>, search: &FallbackSearch| {
            real.truncate(search.kept);
            if let FallbackOutcome::Route(points) = &search.outcome {
                real.extend_from_slice(points);
                let mut route = vec![search.from];
                route.extend_from_slice(points);
                routes.push(route);
            }
        };
        for search in at(0) {
            apply(&mut real, search);
        }
        for (k, it) in self.plan.iterations.iter().enumerate().take(done as usize) {
            if it.popped {
                real.push(it.target);
            }
            let after = u32::try_from(k + 1).unwrap_or(u32::MAX);
            for search in at(after) {
                apply(&mut real, search);
            }
        }
        (real, routes)
    }

    /// The label of an avoidance waypoint, in the order the plan made them (A, B, C … as in the
    /// seed's walk-through, then AA, AB …: [`avoidance_label`]); None for other points.
    pub fn avoidance_letter(&self, point: Vec3) -> Option<String> {
        let index = self.plan.avoidances.iter().position(|a| a.waypoint.distance(point) < 1e-3)?;
        Some(avoidance_label(index))
    }

    /// What a proto-waypoint on the stack is, for the panel: "user waypoint N" when it is one of
    /// the user's waypoints, else "avoidance A" (by letter).
    pub fn describe(&self, point: Vec3) -> String {
        match self.user_waypoints.iter().position(|&w| w.distance(point) < 1e-3) {
            Some(i) => format!("user waypoint {}", i + 1),
            None => match self.avoidance_letter(point) {
                Some(letter) => format!("avoidance {letter}"),
                None => "avoidance".to_string(),
            },
        }
    }

    /// One sentence on what the shown iteration did.
    pub fn narrate(&self) -> String {
        let Some(it) = self.current() else {
            return "No iterations: there was nothing to plan.".to_string();
        };
        let what = match it.target_kind {
            WaypointKind::User(i) => format!("user waypoint {}", i + 1),
            WaypointKind::Avoidance => match self.avoidance_letter(it.target) {
                Some(letter) => format!("avoidance waypoint {letter}"),
                None => "avoidance waypoint".to_string(),
            },
            WaypointKind::Exit => "exit".to_string(),
            WaypointKind::Fallback => "fallback corner".to_string(),
        };
        let from = if it.perspective == self.plan.start {
            format!("the ship {}", fmt_point(it.perspective))
        } else {
            format!("{} {}", self.describe(it.perspective), fmt_point(it.perspective))
        };
        let then: String = self
            .fallbacks_after_current()
            .map(|search| match &search.outcome {
                FallbackOutcome::Route(points) => format!(
                    " Then the loop stopped short of the user waypoint and the complete fallback search found a route of {} corners (orange).",
                    points.len().saturating_sub(1)
                ),
                FallbackOutcome::NoRoute | FallbackOutcome::NoEntry => {
                    " Then the loop stopped short of the user waypoint and the complete fallback search found no route: unreachable.".to_string()
                }
            })
            .collect();
        let did = match (it.hit, it.avoidance) {
            (Some(hit), Some(avoidance)) => format!(
                "Cast from {from} to the {what} at {} hit obstacle {} at {}, so it pushed avoidance waypoint {} at {}.",
                fmt_point(it.target),
                hit.obstacle + 1,
                fmt_point(hit.point),
                self.avoidance_letter(avoidance.waypoint).unwrap_or_default(),
                fmt_point(avoidance.waypoint)
            ),
            _ => format!(
                "Cast from {from} to the {what} at {} is clear, so it popped into the real list ({} real waypoints) and the perspective moves there.",
                fmt_point(it.target),
                it.real_count
            ),
        };
        did + &then
    }
}

/// The label of the avoidance waypoint made `index`-th (0-based): the seed's letters A … Z, then
/// two letters AA … AZ, BA … ZZ, then three, as spreadsheet columns are named (bijective base 26),
/// so every waypoint of a long plan has its own label.
pub fn avoidance_label(index: usize) -> String {
    let mut letters = Vec::new();
    let mut n = index;
    loop {
        letters.push(char::from(b'A' + (n % 26) as u8));
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    letters.iter().rev().collect()
}

/// `(x, y, z)` with no decimals.
pub fn fmt_point(p: Vec3) -> String {
    format!("({:.0}, {:.0}, {:.0})", p.x, p.y, p.z)
}
