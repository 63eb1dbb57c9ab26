//! The timeline: scrub back and forth through the simulated time of the open scene and step
//! backwards. The simulation is deterministic (fixed steps, no clock), so a copy of the world
//! every [`KEYFRAME_EVERY`] steps is enough: going to step `n` restores the last keyframe at or
//! before `n` and re-simulates the few steps in between, giving bit for bit the world the run
//! had at `n`. Metrics live in the world, so they follow; the plots' history is cut back to the
//! keyframe and re-recorded.
//!
//! Any edit makes the recorded future (and past) a different scene's: the timeline then starts
//! again from the edited world (`App::checkpoint` invalidates it).

use crate::sim::World;

/// Steps between two keyframes (one simulated second at the default dt).
pub const KEYFRAME_EVERY: u64 = 60;
/// Agent-keyframes kept at most (keyframes × agents), so a crowd does not fill the memory: the
/// timeline then covers less time, and stops growing (you can still scrub what it holds).
pub const KEYFRAME_AGENT_BUDGET: usize = 200_000;
/// Path-point keyframes kept at most (keyframes × points of every path), so a scene of millions
/// of path points (a 50 MB file) keeps only a couple of keyframes instead of filling the memory.
pub const KEYFRAME_POINT_BUDGET: usize = 2_000_000;
/// Keyframes kept at most for a small scene (ten minutes at the default dt).
pub const MAX_KEYFRAMES: usize = 600;

/// Keyframes of the current run.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    keyframes: Vec<World>,
    furthest: u64,
}

impl Timeline {
    /// Forgets every keyframe (after an edit, a reset or a new scene); the next step or seek
    /// starts again from the world as it is then.
    pub fn clear(&mut self) {
        self.keyframes.clear();
        self.furthest = 0;
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.keyframes.is_empty()
    }

    /// Starts the timeline at `world` when it is empty.
    pub fn start_if_empty(&mut self, world: &World) {
        if self.keyframes.is_empty() {
            self.keyframes.push(world.clone());
            self.furthest = world.steps;
        }
    }

    fn capacity(world: &World) -> usize {
        let points: usize = world.paths.iter().map(|p| p.polyline.points().len()).sum();
        (KEYFRAME_AGENT_BUDGET / world.agents.len().max(1))
            .min(KEYFRAME_POINT_BUDGET / points.max(1))
            .clamp(2, MAX_KEYFRAMES)
    }

    /// Notes a step just taken: extends the recorded range and keeps a keyframe every
    /// [`KEYFRAME_EVERY`] steps (re-simulated steps already have theirs).
    pub fn record(&mut self, world: &World) {
        let Some(last_steps) = self.keyframes.last().map(|k| k.steps) else { return };
        if world.steps <= self.furthest {
            return; // re-simulating what is recorded
        }
        let full = self.keyframes.len() >= Self::capacity(world);
        if full && world.steps > last_steps + KEYFRAME_EVERY {
            return; // past what the keyframes cover: the timeline stops growing
        }
        self.furthest = world.steps;
        if !full && world.steps.is_multiple_of(KEYFRAME_EVERY) && world.steps > last_steps {
            self.keyframes.push(world.clone());
        }
    }

    /// The first and the furthest step recorded.
    pub fn range(&self) -> Option<(u64, u64)> {
        self.keyframes.first().map(|k| (k.steps, self.furthest.max(k.steps)))
    }

    /// The last keyframe at or before `step`.
    pub fn keyframe_before(&self, step: u64) -> Option<&World> {
        self.keyframes.iter().rev().find(|k| k.steps <= step)
    }
}
