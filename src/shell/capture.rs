//! Pictures from the window: a screenshot (one PNG of the whole window, panels included) and a
//! recording (a PNG sequence of the window at [`RECORD_FPS`] frames per second, at most
//! [`RECORD_MAX_SECONDS`] long). Frames are read from the frame buffer on the frame loop
//! (`get_screen_data()` after egui has drawn) and encoded on a writer thread, so recording
//! does not stall the window. Every file is written under a temporary name and renamed, so a
//! reader never sees half a PNG ([`write_png`], which `steerlab shot` uses too).
//!
//! Pictures go to `$STEERLAB_PICTURES_DIR`, else `~/Pictures/steerlab`, else the current
//! folder: `steerlab-SCENE-NNN.png` for screenshots and `steerlab-SCENE-rec-NNN/frame-NNNN.png`
//! for recordings, numbered with the first number not yet used.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use image::ImageEncoder as _;
use macroquad::prelude::get_screen_data;
use steerlab::scene::{io_reason, AtomicFile};

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
    write_png(&frame.path, frame.width, frame.height, &frame.rgba)
}

/// Writes a picture as a PNG at `path`, whole or not at all: `rgba` holds `height` rows of
/// `width` RGBA pixels bottom-up, as the frame buffer holds them. The PNG is encoded into a
/// temporary file beside `path` that is renamed over it ([`AtomicFile`]); on any error the
/// temporary file is removed and whatever was at `path` is untouched. The error is the reason
/// in a few words ("the disk is full"), for `cannot write FILE: REASON`.
pub fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), String> {
    let row = width as usize * 4;
    if width == 0 || height == 0 || rgba.len() != row * height as usize {
        return Err(format!("the frame buffer holds {} bytes, not a {width}x{height} picture", rgba.len()));
    }
    let mut flipped = Vec::with_capacity(rgba.len());
    for line in rgba.chunks_exact(row).rev() {
        flipped.extend_from_slice(line);
    }
    let mut file = AtomicFile::create(path).map_err(|err| io_reason(&err))?;
    image::codecs::png::PngEncoder::new(&mut file)
        .write_image(&flipped, width, height, image::ColorType::Rgba8)
        .map_err(|err| match err {
            image::ImageError::IoError(err) => io_reason(&err),
            err => err.to_string(),
        })?;
    file.commit().map_err(|err| io_reason(&err))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(label: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("steerlab-capture-{label}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn write_png_writes_the_rows_top_down_and_replaces_the_old_file_whole() {
        let dir = scratch("ok");
        let path = dir.join("pic.png");
        std::fs::write(&path, "old").unwrap();
        // Two rows bottom-up: red below, blue above.
        let rgba = [255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255];
        write_png(&path, 2, 2, &rgba).unwrap();
        let picture = image::open(&path).unwrap().to_rgba8();
        assert_eq!(picture.dimensions(), (2, 2));
        assert_eq!(picture.get_pixel(0, 0).0, [0, 0, 255, 255]);
        assert_eq!(picture.get_pixel(1, 1).0, [255, 0, 0, 255]);
        assert_eq!(names(&dir), ["pic.png"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn write_png_that_fails_leaves_no_file_and_says_why_in_words() {
        let dir = scratch("fail");
        // A buffer of the wrong size is an error, not the encoder's assertion.
        let short = write_png(&dir.join("short.png"), 4, 4, &[0; 12]);
        assert!(short.as_ref().is_err_and(|e| e.contains("not a 4x4 picture")), "{short:?}");
        // The rename fails on a directory in the way; the directory and nothing else is left.
        std::fs::create_dir(dir.join("taken.png")).unwrap();
        let taken = write_png(&dir.join("taken.png"), 1, 1, &[0; 4]);
        assert!(taken.is_err(), "{taken:?}");
        assert!(!taken.unwrap_err().contains("os error"));
        let missing = write_png(&dir.join("no/such/dir.png"), 1, 1, &[0; 4]);
        assert_eq!(missing, Err("no such file".to_string()));
        assert_eq!(names(&dir), ["taken.png"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
