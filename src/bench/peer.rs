//! Yuka, the peer steerlab's speed is compared with, run by `steerlab bench --yuka DIR` in the
//! same run as steerlab's own figures, so that the ratio in the report is measured side by side
//! (the machine's load moves absolute times; it moves both the same way within a minute).
//!
//! `DIR` holds the peer's scripts (`../shared/peers/yuka/`: `flock.mjs` and `bench.mjs`) with
//! `npm install` done. The scripts are run with Node (`node`, or the program named by
//! `STEERLAB_NODE`) in `DIR`, with the same crowd size, step count and set-up as the steerlab
//! figure beside them; each prints one line with its ns per agent-step, which [`parse_run`]
//! reads. A peer that cannot be run (no Node, no scripts, a line that does not parse, a script
//! still running after [`Peer::timeout`], which is then killed) gives a one-line error — what
//! it echoes of the script's output with control characters escaped — that the report prints in
//! place of the figure; it never stops the report.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::scene::escape_controls;

/// Where the peer's scripts are and which Node runs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peer {
    dir: PathBuf,
    node: OsString,
    timeout: Duration,
}

/// How long one peer script may run before it is killed, unless `STEERLAB_PEER_TIMEOUT` says
/// otherwise: generous, for Yuka's flock of 100,000 in a full run takes minutes.
pub const PEER_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Most characters of a script's output echoed in an error.
const ECHO_CHARS: usize = 200;

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
    /// The peer whose scripts are in `dir`, run by `STEERLAB_NODE` if set, else `node`, each
    /// script for at most `STEERLAB_PEER_TIMEOUT` seconds if set (a positive number), else
    /// [`PEER_TIMEOUT`].
    pub fn new(dir: &Path) -> Peer {
        let node =
            std::env::var_os("STEERLAB_NODE").filter(|n| !n.is_empty()).unwrap_or_else(|| "node".into());
        let timeout = std::env::var("STEERLAB_PEER_TIMEOUT")
            .ok()
            .and_then(|text| text.trim().parse::<f64>().ok())
            .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
            .filter(|timeout| !timeout.is_zero())
            .unwrap_or(PEER_TIMEOUT);
        Peer { dir: dir.to_path_buf(), node, timeout }
    }

    /// How long one script may run before it is killed.
    pub fn timeout(&self) -> Duration {
        self.timeout
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
        let shown =
            escape_controls(&format!("{} {}", self.node.to_string_lossy(), args.join(" "))).into_owned();
        let dir = escape_controls(&self.dir.display().to_string()).into_owned();
        let mut child = Command::new(&self.node)
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| format!("`{shown}` in {dir}: {err}"))?;
        // Read both pipes as the script writes, so a chatty script never blocks on a full pipe.
        let stdout = read_on_thread(child.stdout.take());
        let stderr = read_on_thread(child.stderr.take());
        let deadline = Instant::now() + self.timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "`{shown}` in {dir} was still running after {:.0} s and was stopped \
                         (STEERLAB_PEER_TIMEOUT sets the limit in seconds)",
                        self.timeout.as_secs_f64()
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(err) => {
                    let _ = child.kill();
                    return Err(format!("`{shown}` in {dir}: {err}"));
                }
            }
        };
        // The script has ended; its pipes close unless it left a process of its own holding them.
        let collect = |output: mpsc::Receiver<Vec<u8>>| {
            String::from_utf8_lossy(&output.recv_timeout(Duration::from_secs(2)).unwrap_or_default())
                .into_owned()
        };
        let (stdout, stderr) = (collect(stdout), collect(stderr));
        if !status.success() {
            let why = echo(stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message"));
            return Err(format!("`{shown}` in {dir} failed ({status}): {why}"));
        }
        parse_run(&stdout)
            .ok_or_else(|| format!("`{shown}` printed no `… ns/agent-step`: {}", echo(stdout.trim())))
    }
}

/// Most bytes of a script's output kept (the rest is read and dropped).
const OUTPUT_BYTES: u64 = 1 << 20;

/// Reads `pipe` on a thread until it closes; its first [`OUTPUT_BYTES`] arrive on the channel.
fn read_on_thread(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (send, receive) = mpsc::channel();
    if let Some(mut pipe) = pipe {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.by_ref().take(OUTPUT_BYTES).read_to_end(&mut bytes);
            let _ = std::io::copy(&mut pipe, &mut std::io::sink());
            let _ = send.send(bytes);
        });
    } else {
        let _ = send.send(Vec::new());
    }
    receive
}

/// A script's output as an error may echo it: control characters escaped (one line, no escape
/// sequences for the terminal), at most [`ECHO_CHARS`] characters.
fn echo(text: &str) -> String {
    let mut shown: String = escape_controls(text).chars().take(ECHO_CHARS).collect();
    if escape_controls(text).chars().count() > ECHO_CHARS {
        shown.push('…');
    }
    shown
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
        let peer =
            Peer { dir: std::env::temp_dir(), node: "steerlab-no-such-node".into(), timeout: PEER_TIMEOUT };
        let err = peer.flock(10, 1).expect_err("no such program");
        assert!(err.contains("steerlab-no-such-node flock.mjs 10 1"), "{err}");
        assert_eq!(figure(&Some(Err(err))), "error");
        assert_eq!(figure(&None), "-");
        let run = Some(Ok(PeerRun { ns_per_agent_step: 2000.0, neighbours: None }));
        assert_eq!(ratio(&run, 40.0), "50x");
        assert_eq!(ratio(&run, f64::NAN), "-");
    }
}
