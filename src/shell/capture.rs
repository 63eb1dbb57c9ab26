//! Pictures from the window: a screenshot (one PNG of the whole window, panels included) and a
//! recording (a PNG sequence of the window at [`RECORD_FPS`] frames per second, at most
//! [`RECORD_MAX_SECONDS`] long). Frames are read from the frame buffer on the frame loop
//! (`get_screen_data()` after egui has drawn) and encoded on a writer thread, so recording
//! does not stall the window. Every file is written under a temporary name and renamed, so a
//! reader never sees half a PNG.
//!
//! Pictures go to `$STEERLAB_PICTURES_DIR`, else `~/Pictures/steerlab`, else the current
//! folder: `steerlab-SCENE-NNN.png` for screenshots and `steerlab-SCENE-rec-NNN/frame-NNNN.png`
//! for recordings, numbered with the first number not yet used.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use macroquad::prelude::get_screen_data;

/// Frames per second of a recording (window time).
pub const RECORD_FPS: f64 = 10.0;
/// Longest recording, in seconds: it stops by itself after this.
pub const RECORD_MAX_SECONDS: f64 = 30.0;

/// Where pictures go.
pub fn pictures_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("STEERLAB_PICTURES_DIR") {
        return PathBuf::from(dir);
    }
    std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join("Pictures").join("steerlab"))
        .unwrap_or_else(|| PathBuf::from("."))
}

/// `DIR/PREFIX-NNN[SUFFIX]` with the first NNN (from 1) not taken on disk nor in `claimed`.
fn first_free(dir: &Path, prefix: &str, suffix: &str, claimed: &[PathBuf]) -> PathBuf {
    (1..100_000)
        .map(|n| dir.join(format!("{prefix}-{n:03}{suffix}")))
        .find(|p| !p.exists() && !claimed.contains(p))
        .unwrap_or_else(|| dir.join(format!("{prefix}-overflow{suffix}")))
}

/// A file name part made of the scene's name: letters, digits, `-` and `_` only.
fn file_part(scene: &str) -> String {
    let stem = scene.strip_suffix(".json").unwrap_or(scene);
    let part: String = stem
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .take(60)
        .collect();
    if part.is_empty() {
        "scene".to_string()
    } else {
        part
    }
}

/// One frame to write: RGBA rows bottom-up as the frame buffer holds them.
struct Frame {
    path: PathBuf,
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

fn write_frame(frame: &Frame) -> Result<(), String> {
    let row = frame.width as usize * 4;
    let mut flipped = Vec::with_capacity(frame.rgba.len());
    for line in frame.rgba.chunks_exact(row.max(1)).rev() {
        flipped.extend_from_slice(line);
    }
    let name = frame.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = frame.path.with_file_name(format!(".{name}.part"));
    image::save_buffer_with_format(
        &tmp,
        &flipped,
        frame.width,
        frame.height,
        image::ColorType::Rgba8,
        image::ImageFormat::Png,
    )
    .map_err(|err| err.to_string())?;
    std::fs::rename(&tmp, &frame.path).map_err(|err| {
        let _ = std::fs::remove_file(&tmp);
        err.to_string()
    })
}

/// A report from the writer thread.
pub enum Written {
    /// A screenshot was written.
    Screenshot(PathBuf),
    /// Writing failed (one line).
    Failed(String),
}

/// An active recording.
struct Recording {
    dir: PathBuf,
    frames: u32,
    /// Window time of the recording so far.
    seconds: f64,
    /// Window time until the next frame is due.
    next_frame_in: f64,
}

/// What the shell keeps for pictures between frames.
pub struct Capture {
    writer: Option<mpsc::Sender<(Frame, bool)>>,
    written: mpsc::Receiver<Written>,
    screenshot_in_frames: Option<u32>,
    recording: Option<Recording>,
    claimed: Vec<PathBuf>,
}

impl Default for Capture {
    fn default() -> Self {
        Capture::new()
    }
}

impl Capture {
    /// Starts the writer thread.
    pub fn new() -> Capture {
        let (frames, incoming) = mpsc::channel::<(Frame, bool)>();
        let (report, written) = mpsc::channel();
        let spawned = std::thread::Builder::new().name("steerlab-pictures".to_string()).spawn(move || {
            for (frame, is_screenshot) in incoming {
                let message = match write_frame(&frame) {
                    Ok(()) if is_screenshot => Some(Written::Screenshot(frame.path.clone())),
                    Ok(()) => None,
                    Err(err) => {
                        Some(Written::Failed(format!("cannot write {}: {err}", frame.path.display())))
                    }
                };
                if let Some(message) = message {
                    let _ = report.send(message);
                }
            }
        });
        Capture {
            writer: spawned.ok().map(|_| frames),
            written,
            screenshot_in_frames: None,
            recording: None,
            claimed: Vec::new(),
        }
    }

    /// Takes a screenshot of the window as it is drawn after this frame and the next (so a
    /// menu that was clicked has closed).
    pub fn request_screenshot(&mut self) {
        self.screenshot_in_frames = Some(2);
    }

    /// Seconds recorded so far (None when not recording).
    pub fn recorded_seconds(&self) -> Option<f64> {
        self.recording.as_ref().map(|r| r.seconds)
    }

    /// Starts a recording into a new folder for `scene`, or stops the one running. Returns the
    /// status line to show.
    pub fn toggle_recording(&mut self, scene: &str) -> Result<String, String> {
        if let Some(recording) = self.recording.take() {
            return Ok(format!("recorded {} frames to {}", recording.frames, recording.dir.display()));
        }
        let parent = pictures_dir();
        std::fs::create_dir_all(&parent)
            .map_err(|err| format!("cannot create {}: {err}", parent.display()))?;
        let dir = first_free(&parent, &format!("steerlab-{}-rec", file_part(scene)), "", &[]);
        std::fs::create_dir(&dir).map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
        let text = format!(
            "recording to {} ({RECORD_FPS:.0} frames/s, at most {RECORD_MAX_SECONDS:.0} s); the same command stops it",
            dir.display()
        );
        self.recording = Some(Recording { dir, frames: 0, seconds: 0.0, next_frame_in: 0.0 });
        Ok(text)
    }

    /// Call after everything is drawn and before `next_frame`: reads the frame buffer when a
    /// screenshot or a recording frame is due. `frame_seconds` is the last frame's window time.
    /// Returns a status line when the recording stopped by itself (the length cap) or a
    /// screenshot could not be started.
    pub fn after_draw(&mut self, scene: &str, frame_seconds: f64) -> Option<Result<String, String>> {
        let mut status = None;
        if let Some(left) = self.screenshot_in_frames.as_mut() {
            if *left > 0 {
                *left -= 1;
            } else {
                self.screenshot_in_frames = None;
                let dir = pictures_dir();
                match std::fs::create_dir_all(&dir) {
                    Ok(()) => {
                        let prefix = format!("steerlab-{}", file_part(scene));
                        let path = first_free(&dir, &prefix, ".png", &self.claimed);
                        // A second screenshot before this one is written gets the next number.
                        self.claimed.push(path.clone());
                        status = self.send(path, true).err().map(Err);
                    }
                    Err(err) => status = Some(Err(format!("cannot create {}: {err}", dir.display()))),
                }
            }
        }
        let mut frame_path = None;
        let mut stopped = None;
        if let Some(recording) = self.recording.as_mut() {
            let step = if frame_seconds.is_finite() { frame_seconds.clamp(0.0, 1.0) } else { 0.0 };
            recording.next_frame_in -= step;
            recording.seconds += step;
            if recording.next_frame_in <= 0.0 {
                recording.next_frame_in += 1.0 / RECORD_FPS;
                recording.next_frame_in = recording.next_frame_in.max(0.0);
                frame_path = Some(recording.dir.join(format!("frame-{:04}.png", recording.frames)));
                recording.frames += 1;
            }
            if recording.seconds >= RECORD_MAX_SECONDS {
                stopped = Some(format!(
                    "recorded {} frames to {} (stopped at the {RECORD_MAX_SECONDS:.0} s limit)",
                    recording.frames,
                    recording.dir.display()
                ));
            }
        }
        if let Some(path) = frame_path {
            if let Err(err) = self.send(path, false) {
                self.recording = None;
                return Some(Err(err));
            }
        }
        if let Some(text) = stopped {
            self.recording = None;
            status = Some(Ok(text));
        }
        status
    }

    fn send(&self, path: PathBuf, is_screenshot: bool) -> Result<(), String> {
        let image = get_screen_data();
        let frame =
            Frame { path, width: u32::from(image.width), height: u32::from(image.height), rgba: image.bytes };
        let Some(writer) = &self.writer else {
            return Err("cannot write pictures: no writer thread".to_string());
        };
        writer
            .send((frame, is_screenshot))
            .map_err(|_| "cannot write pictures: the writer stopped".to_string())
    }

    /// Reports of written screenshots and failures since the last call.
    pub fn written(&self) -> Vec<Written> {
        self.written.try_iter().collect()
    }
}
