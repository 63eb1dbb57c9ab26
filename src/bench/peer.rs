//! Yuka, the peer steerlab's speed is compared with, run by `steerlab bench --yuka DIR` in the
//! same run as steerlab's own figures, so that the ratio in the report is measured side by side
//! (the machine's load moves absolute times; it moves both the same way within a minute).
//!
//! `DIR` holds the peer's scripts (`../shared/peers/yuka/`: `flock.mjs` and `bench.mjs`) with
//! `npm install` done. The scripts are run with Node (`node`, or the program named by
//! `STEERLAB_NODE`) in `DIR`, with the same crowd size, step count and set-up as the steerlab
//! figure beside them; each prints one line with its ns per agent-step, which [`parse_run`]
//! reads. A peer that cannot be run (no Node, no scripts, a line that does not parse) gives an
//! error the report prints in place of the figure; it never stops the report.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the peer's scripts are and which Node runs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peer {
    dir: PathBuf,
    node: OsString,
}

/// One run of a peer script: its time per agent-step and, for the flock, its neighbours a boid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeerRun {
    /// Nanoseconds per agent-step, as the script timed its steps (its set-up not included).
    pub ns_per_agent_step: f64,
    /// The flock's mean neighbours per boid after its steps (`neighbours=`), when printed.
    pub neighbours: Option<f64>,
}

/// The flocking script's neighbour radius and density: [`super::FLOCK_RADIUS`] and
/// [`super::FLOCK_DENSITY`] as the script's arguments.
fn flock_args(n_boids: usize, steps: u64) -> Vec<String> {
    vec![
        "flock.mjs".to_string(),
        n_boids.to_string(),
        steps.to_string(),
        super::FLOCK_RADIUS.to_string(),
        super::FLOCK_DENSITY.to_string(),
    ]
}

/// The path-following script's arguments: its radius 0.5 and prediction factor 1 (its
/// FollowPath + OnPath, predictive following's nearest peer) on a closed path of `segments`.
fn path_following_args(n_agents: usize, steps: u64, segments: usize) -> Vec<String> {
    vec![
        "bench.mjs".to_string(),
        n_agents.to_string(),
        steps.to_string(),
        "0.5".to_string(),
        "1".to_string(),
        segments.to_string(),
    ]
}

impl Peer {
    /// The peer whose scripts are in `dir`, run by `STEERLAB_NODE` if set, else `node`.
    pub fn new(dir: &Path) -> Peer {
        let node =
            std::env::var_os("STEERLAB_NODE").filter(|n| !n.is_empty()).unwrap_or_else(|| "node".into());
        Peer { dir: dir.to_path_buf(), node }
    }

    /// Yuka's flock (`flock.mjs`) of `n_boids` for `steps` steps, as `steerlab bench --flock`
    /// sets up its own.
    pub fn flock(&self, n_boids: usize, steps: u64) -> Result<PeerRun, String> {
        self.run(&flock_args(n_boids, steps))
    }

    /// Yuka's path following (`bench.mjs`) of `n_agents` for `steps` steps on a closed path of
    /// `segments` segments.
    pub fn path_following(&self, n_agents: usize, steps: u64, segments: usize) -> Result<PeerRun, String> {
        self.run(&path_following_args(n_agents, steps, segments))
    }

    fn run(&self, args: &[String]) -> Result<PeerRun, String> {
        let shown = format!("{} {}", self.node.to_string_lossy(), args.join(" "));
        let output = Command::new(&self.node)
            .args(args)
            .current_dir(&self.dir)
            .output()
            .map_err(|err| format!("`{shown}` in {}: {err}", self.dir.display()))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let why = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message");
            return Err(format!("`{shown}` in {} failed ({}): {why}", self.dir.display(), output.status));
        }
        parse_run(&stdout).ok_or_else(|| format!("`{shown}` printed no `… ns/agent-step`: {}", stdout.trim()))
    }
}

/// Reads a peer script's line: the number before ` ns/agent-step` and, if present, the number
/// after `neighbours=`. None when there is no finite positive time.
pub fn parse_run(stdout: &str) -> Option<PeerRun> {
    let line = stdout.lines().rev().find(|line| line.contains(" ns/agent-step"))?;
    let before = line.split(" ns/agent-step").next()?;
    let ns: f64 = before.split_whitespace().last()?.parse().ok()?;
    if !(ns.is_finite() && ns > 0.0) {
        return None;
    }
    let neighbours = line
        .split_whitespace()
        .find_map(|word| word.strip_prefix("neighbours="))
        .and_then(|value| value.parse::<f64>().ok())
        .filter(|value| value.is_finite());
    Some(PeerRun { ns_per_agent_step: ns, neighbours })
}

/// A peer figure for the report: the time, or `-` when none was asked for, or `error` (the
/// error itself is printed under the table).
pub fn figure(run: &Option<Result<PeerRun, String>>) -> String {
    match run {
        None => "-".to_string(),
        Some(Ok(run)) => format!("{:.1}", run.ns_per_agent_step),
        Some(Err(_)) => "error".to_string(),
    }
}

/// The ratio peer / steerlab for the report (`-` unless both are figures).
pub fn ratio(run: &Option<Result<PeerRun, String>>, steerlab_ns: f64) -> String {
    match run {
        Some(Ok(run)) if steerlab_ns.is_finite() && steerlab_ns > 0.0 => {
            format!("{:.0}x", run.ns_per_agent_step / steerlab_ns)
        }
        _ => "-".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_lines_are_read() {
        let flock = "yuka-flock N=10000 K=20 R=10 time=3.886s 19428.2 ns/agent-step neighbours=3.13 polarization=0.004\n";
        assert_eq!(parse_run(flock), Some(PeerRun { ns_per_agent_step: 19428.2, neighbours: Some(3.13) }));
        let path = "yuka N=10000 K=300 time=6.100s 2033.6 ns/agent-step meanCrossTrack=0.412";
        assert_eq!(parse_run(path), Some(PeerRun { ns_per_agent_step: 2033.6, neighbours: None }));
        for bad in ["", "yuka N=1 nothing", "x NaN ns/agent-step", "x -3 ns/agent-step", "x 0 ns/agent-step"]
        {
            assert_eq!(parse_run(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_scripts_get_the_benchmarks_set_up() {
        assert_eq!(flock_args(1000, 20), ["flock.mjs", "1000", "20", "10", "0.01"]);
        assert_eq!(path_following_args(10_000, 300, 32), ["bench.mjs", "10000", "300", "0.5", "1", "32"]);
    }

    #[test]
    fn a_peer_that_cannot_run_is_an_error_not_a_panic() {
        let peer = Peer { dir: std::env::temp_dir(), node: "steerlab-no-such-node".into() };
        let err = peer.flock(10, 1).expect_err("no such program");
        assert!(err.contains("steerlab-no-such-node flock.mjs 10 1"), "{err}");
        assert_eq!(figure(&Some(Err(err))), "error");
        assert_eq!(figure(&None), "-");
        let run = Some(Ok(PeerRun { ns_per_agent_step: 2000.0, neighbours: None }));
        assert_eq!(ratio(&run, 40.0), "50x");
        assert_eq!(ratio(&run, f64::NAN), "-");
    }
}
