//! What the window remembers of the past: fading trails of every agent and time series of
//! speed and cross-track error for the plots. Sampled in simulation steps, never in frames.

use std::collections::VecDeque;

use glam::Vec3;

use crate::sim::World;

/// Steps between trail samples.
pub const TRAIL_EVERY: u64 = 3;
/// Trail samples kept per agent (6 s at 60 steps per second).
pub const TRAIL_LENGTH: usize = 120;
/// Steps between plot samples (10 per second at 60 steps per second).
pub const HISTORY_EVERY: u64 = 6;
/// Plot samples kept per agent.
pub const HISTORY_LENGTH: usize = 3000;
/// Agents beyond this many are not plotted (the plot would be unreadable anyway).
pub const HISTORY_AGENTS: usize = 32;

/// Recent positions of every agent, oldest first.
#[derive(Clone, Debug, Default)]
pub struct Trails {
    trails: Vec<VecDeque<Vec3>>,
}

impl Trails {
    /// Forgets everything.
    pub fn clear(&mut self) {
        self.trails.clear();
    }
    /// Keeps one trail per agent (after agents were added or removed).
    pub fn resize(&mut self, agents: usize) {
        self.trails.resize_with(agents, VecDeque::new);
    }
    /// Follows the agents to their new places after agents were added, removed or brought back
    /// (`old[i]`: where agent `i` was before, None for one new to the trails): each keeps its
    /// own trail, a new one starts without one.
    pub fn remap(&mut self, old: &[Option<usize>]) {
        self.trails = remapped(&mut self.trails, old);
    }
    /// Samples every agent's position every [`TRAIL_EVERY`] steps.
    pub fn record(&mut self, world: &World) {
        if !world.steps.is_multiple_of(TRAIL_EVERY) {
            return;
        }
        self.resize(world.agents.len());
        for (trail, agent) in self.trails.iter_mut().zip(&world.agents) {
            if trail.len() == TRAIL_LENGTH {
                trail.pop_front();
            }
            trail.push_back(agent.kinematics.position);
        }
    }
    /// How many samples one agent's trail holds.
    pub fn trail_len(&self, agent: usize) -> usize {
        self.trails.get(agent).map_or(0, VecDeque::len)
    }
    /// One agent's trail, oldest first.
    pub fn trail(&self, agent: usize) -> impl Iterator<Item = Vec3> + '_ {
        self.trails.get(agent).into_iter().flatten().copied()
    }
}

/// Entry `i` of the result is `entries[old[i]]` (taken out of it), or empty.
fn remapped<T>(entries: &mut [VecDeque<T>], old: &[Option<usize>]) -> Vec<VecDeque<T>> {
    old.iter().map(|&o| o.and_then(|o| entries.get_mut(o)).map(std::mem::take).unwrap_or_default()).collect()
}

/// One plot sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Simulated time, s.
    pub time: f64,
    /// Speed, units/s.
    pub speed: f32,
    /// Distance to the followed path's centre line (None for agents that follow no path).
    pub cross_track: Option<f32>,
}

/// Time series per agent for the plots.
#[derive(Clone, Debug, Default)]
pub struct History {
    series: Vec<VecDeque<Sample>>,
}

impl History {
    /// Forgets everything.
    pub fn clear(&mut self) {
        self.series.clear();
    }
    /// Samples the first [`HISTORY_AGENTS`] agents every [`HISTORY_EVERY`] steps.
    pub fn record(&mut self, world: &World) {
        if !world.steps.is_multiple_of(HISTORY_EVERY) {
            return;
        }
        let n = world.agents.len().min(HISTORY_AGENTS);
        self.series.resize_with(n, VecDeque::new);
        let time = world.time();
        for (series, agent) in self.series.iter_mut().zip(&world.agents) {
            if series.len() == HISTORY_LENGTH {
                series.pop_front();
            }
            series.push_back(Sample {
                time,
                speed: agent.kinematics.velocity.length(),
                cross_track: agent.metrics.last_cross_track(),
            });
        }
    }
    /// Follows the agents to their new places (as [`Trails::remap`]; only the first
    /// [`HISTORY_AGENTS`] are plotted).
    pub fn remap(&mut self, old: &[Option<usize>]) {
        let plotted = old.get(..HISTORY_AGENTS).unwrap_or(old);
        self.series = remapped(&mut self.series, plotted);
    }
    /// Drops the samples taken after `time` (the timeline went back).
    pub fn truncate_after(&mut self, time: f64) {
        for series in &mut self.series {
            while series.back().is_some_and(|s| s.time > time + 1e-9) {
                series.pop_back();
            }
        }
    }
    /// One agent's samples, oldest first.
    pub fn series(&self, agent: usize) -> impl Iterator<Item = &Sample> + '_ {
        self.series.get(agent).into_iter().flatten()
    }
    /// How many agents have series.
    pub fn len(&self) -> usize {
        self.series.len()
    }
    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.series.iter().all(VecDeque::is_empty)
    }
}
