//! Scene loads off the frame loop: File ▸ Open, Examples, Recent, Revert, dropped files, the
//! autosave recovery and the command-line scene all load on a worker thread through
//! `scene::load_scene_with_progress`, so a 50 MB scene (or a file on a slow disk) never freezes
//! the window. The shell polls [`Loading::poll`] once a frame and shows the loading dialog once
//! a load has taken longer than [`DIALOG_AFTER_SECONDS`] (small files feel instant: they are
//! done before it would appear). Cancel sets the progress's cancel flag and forgets the load:
//! the open scene was never touched, and whatever the thread still builds is dropped.
//!
//! Timing and threads live here, in the shell; the loader itself (`scene::io`) reads no clock.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc};

use steerlab::scene::{load_scene_with_progress, LoadProgress, SceneError};
use steerlab::sim::World;
use steerlab::ui::loading::LoadingView;

/// Seconds a load runs before the loading dialog appears (below a person's "instant").
pub const DIALOG_AFTER_SECONDS: f64 = 0.15;

/// Stack of the loader thread: the main thread's 8 MB, so the expression limits that were
/// measured on the main thread hold on the worker too.
const LOADER_STACK_BYTES: usize = 8 << 20;

/// What the loaded scene is for, once it is ready.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Open it as the scene (its file, or an untitled copy of a shipped example).
    Open,
    /// Open it as the scene the window was started on: as [`Purpose::Open`], but the status
    /// bar keeps what it showed (the first-launch hint), as when the file was loaded before the
    /// window opened.
    CommandLine,
    /// Restore the autosave (unsaved, no file).
    Recovery,
}

/// A scene being loaded on a worker thread.
pub struct Loading {
    /// The file being loaded.
    pub path: PathBuf,
    /// What to do with the scene once loaded.
    pub purpose: Purpose,
    /// When the load started (window time, seconds).
    pub started: f64,
    progress: Arc<LoadProgress>,
    done: mpsc::Receiver<Result<World, SceneError>>,
}

impl Loading {
    /// Starts loading `path` on a worker thread at window time `now`.
    pub fn start(path: &Path, purpose: Purpose, now: f64) -> Loading {
        let progress = Arc::new(LoadProgress::default());
        let (sender, done) = mpsc::channel();
        let worker_progress = Arc::clone(&progress);
        let worker_path = path.to_path_buf();
        let worker_sender = sender.clone();
        let spawned = std::thread::Builder::new()
            .name("steerlab-loader".to_string())
            .stack_size(LOADER_STACK_BYTES)
            .spawn(move || {
                // The receiver is gone when the load was cancelled: nothing to tell.
                let _ = worker_sender.send(load_scene_with_progress(&worker_path, &worker_progress));
            });
        if let Err(err) = spawned {
            let label = path.display().to_string();
            let _ = sender.send(Err(SceneError::io_reason(
                &label,
                "read",
                format!("cannot start a loader: {err}"),
            )));
        }
        Loading { path: path.to_path_buf(), purpose, started: now, progress, done }
    }

    /// The loaded scene or its error once the worker has finished; None while it works.
    pub fn poll(&self) -> Option<Result<World, SceneError>> {
        match self.done.try_recv() {
            Ok(result) => Some(result),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                let label = self.path.display().to_string();
                Some(Err(SceneError::io_reason(
                    &label,
                    "read",
                    "the loader stopped unexpectedly".to_string(),
                )))
            }
        }
    }

    /// Asks the worker to stop (it stops at its next chunk read, or drops what it built).
    pub fn cancel(&self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether the dialog should show at window time `now`.
    pub fn dialog_due(&self, now: f64) -> bool {
        now - self.started >= DIALOG_AFTER_SECONDS
    }

    /// What the dialog shows.
    pub fn view(&self) -> LoadingView {
        LoadingView { name: self.name(), percent: self.progress.percent() }
    }

    /// The file's name as the dialog and messages show it.
    pub fn name(&self) -> String {
        let name = self
            .path
            .file_name()
            .map_or_else(|| self.path.display().to_string(), |n| n.to_string_lossy().into_owned());
        steerlab::scene::escape_controls(&name).into_owned()
    }
}
