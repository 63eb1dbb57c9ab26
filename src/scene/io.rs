//! Reading and writing scene files; the only module of the core that touches the file system.
//!
//! Reading goes in stages, and the first problem found is reported as one [`SceneError`]:
//! 1. JSON syntax (serde_json, with its line and column; the path is the innermost value
//!    around the error), then duplicate keys (serde_json would silently keep the last);
//! 2. the version, before anything else, so a newer file gets "unsupported version" rather
//!    than a complaint about a field it added;
//! 3. shape: unknown fields, wrong types, missing fields (serde with `serde_path_to_error`),
//!    the size limits of `validate` (`too many agents: N, at most 100000`), objects written as
//!    arrays and names written as maps — the first of these in the text;
//! 4. meaning: `validate` (ids, references, ranges, radii, colours, names), then `convert`
//!    (expressions).
//!
//! For stages 2–4 the line and column come from `locate`: they point at the offending value
//! (at the key for an unknown field, at the object for a missing field).
//!
//! # Memory
//!
//! The text is never held as a [`serde_json::Value`] (about 44 times the file's size). Stage 1
//! reads it through keeping nothing but the root's `version` (`stream::check_syntax`, with the
//! errors of `serde_json::from_str`); stage 3 deserialises [`SceneFile`] straight from the text,
//! and `stream` refuses a list at its first item past its limit, so nothing past a limit is built
//! (see `stream` for curves and behaviours, and for point totals). A load holds the text and the
//! scene it describes. Peak resident memory and wall time of `steerlab run FILE --seconds 0`
//! (`/usr/bin/time -v`, 2 shared cores, 2026-11-27), the build before against this one:
//!
//! | file | before | now |
//! | --- | --- | --- |
//! | 240 MB, one path of `[0]` points (refused at the first) | 10.6 GB, 34 s | 247 MB, 3.6 s |
//! | 79 MB valid: 4 M path points, a spline of 0.9 M, 100,000 agents | 1.42 GB, 4.0 s | 621 MB, 2.1 s |
//! | 240 MB, eight paths of 5 M `[0,0]` (refused at `paths[1].points`) | — | 406 MB, 8.4 s |
//!
//! `tests/all/robust_memory.rs` runs files like these through the binary under a 1 GiB
//! address-space limit (the build before aborted on each).
//!
//! Saving validates first (a non-finite number in the live world is refused with the path where
//! it would have been written, rather than written as `null`), then writes a temporary file
//! next to the target, syncs it and renames it over the target: on any error the old file is
//! untouched and the temporary file is removed. One writer per file at a time is assumed.

use std::fmt;
use std::fs;
use std::io::{self, Read as _, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_json::Value;

use super::convert::{scene_to_world, world_to_scene};
use super::format::{
    segments_of, tidy_message, BehaviourSpec, CurveSpec, SceneFile, FORMAT_VERSION, READABLE_VERSIONS,
};
use super::locate::{
    find_duplicate_key, format_path, locate_key, locate_value, number_at, number_start_of_serde, parse_path,
    path_at, position_of_offset, position_of_serde, value_text, PathSegment, TextPosition,
};
use super::pretty::pretty_json;
use super::stream::{check_syntax, reread_tagged, without_position, Container, Held, TaggedAt};
use super::validate::validate_scene;
use crate::sim::World;

/// The file label of errors found while turning a world into JSON (before a file is named).
pub const UNSAVED_LABEL: &str = "<scene>";

/// Why a scene could not be read or written: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneError {
    /// The file as given (or [`UNSAVED_LABEL`]).
    pub file: String,
    /// Path of the offending value: `agents[2].behaviour.path_radius`, `$` for the root.
    pub json_path: String,
    /// 1-based line of the offending value.
    pub line: usize,
    /// 1-based column (in characters) of the offending value.
    pub column: usize,
    /// What is wrong, as a sentence fragment.
    pub reason: String,
    /// For an error of the file system rather than of the text, what could not be done to the
    /// file (`"open"`, `"read"`, `"write"`); the message is then `cannot open FILE: reason`.
    pub io_action: Option<&'static str>,
}

impl fmt::Display for SceneError {
    /// One line whatever the file holds: control characters in the file name, the path and
    /// the reason (which quotes ids, types and expressions from the file) are escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = escape_controls(&self.file);
        let reason = escape_controls(&self.reason);
        match self.io_action {
            Some(action) => write!(f, "cannot {action} {file}: {reason}"),
            None => write!(
                f,
                "{file}: {} (line {}, column {}): {reason}",
                escape_controls(&self.json_path),
                self.line,
                self.column
            ),
        }
    }
}

/// `text` with control characters (and the Unicode line and paragraph separators) written as
/// escapes (`\n`, `\t`, `\u{1b}`), so a message stays on one line; and the invisible format
/// characters that reorder or hide what follows them on a terminal ([`is_hidden_format`]), so a
/// name shows as what it holds.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let needs_escape = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}' || is_hidden_format(c);
    if !text.chars().any(needs_escape) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Invisible format characters: the bidirectional embeddings, overrides and isolates (U+202A–E,
/// U+2066–9, the marks U+200E–F and U+061C), which make a terminal show the text after them
/// reversed, and the zero-width ones (U+200B–D, U+2060–4, U+FEFF, the soft hyphen U+00AD and
/// U+180E), which make two different names look the same.
pub fn is_hidden_format(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{061c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// Largest scene file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

impl std::error::Error for SceneError {}

impl SceneError {
    /// An I/O error on `file` while trying to `action` it (path `$`, line 1, column 1).
    pub fn io(file: &str, action: &'static str, err: &io::Error) -> SceneError {
        SceneError::io_reason(file, action, io_reason(err))
    }

    /// A file-system problem described in words (path `$`, line 1, column 1).
    pub fn io_reason(file: &str, action: &'static str, reason: String) -> SceneError {
        SceneError {
            file: file.to_string(),
            json_path: "$".into(),
            line: 1,
            column: 1,
            reason,
            io_action: Some(action),
        }
    }

    /// An error at `json_path`, located in `text` (at the key when `at_key`, else at the value;
    /// falling back to the nearest enclosing value that is in the text).
    fn located(file: &str, text: &str, json_path: String, reason: String, at_key: bool) -> SceneError {
        let reason = match number_at(text, &json_path) {
            Some(number) if !at_key => as_written(reason, number),
            _ => reason,
        };
        let exact = if at_key { locate_key(text, &json_path) } else { locate_value(text, &json_path) };
        let position = exact.or_else(|| nearest_enclosing(text, &json_path));
        let TextPosition { line, column } = position.unwrap_or(TextPosition { line: 1, column: 1 });
        SceneError { file: file.to_string(), json_path, line, column, reason, io_action: None }
    }
}

/// A reason that ends `got VALUE` about the number `written`, with the number as the file
/// writes it when single precision (the format's numbers) made it 0 or infinite, so the value
/// shown is not a 0 or an infinity the file never held: `got 5e-324 (0 in single precision)`,
/// `got 1e39 (too large for single precision)`. Other reasons are returned as they are.
fn as_written(reason: String, written: &str) -> String {
    let Ok(value) = written.parse::<f64>() else { return reason };
    let single = value as f32;
    let what = if value != 0.0 && single == 0.0 {
        "0 in single precision"
    } else if value.is_finite() && single.is_infinite() {
        "too large for single precision"
    } else {
        return reason;
    };
    match reason.rsplit_once(", got ") {
        Some((before, _)) => format!("{before}, got {written} ({what})"),
        None => reason,
    }
}

fn nearest_enclosing(text: &str, json_path: &str) -> Option<TextPosition> {
    let mut segments = parse_path(json_path)?;
    while segments.pop().is_some() {
        if let Some(position) = locate_value(text, &format_path(&segments)) {
            return Some(position);
        }
    }
    None
}

/// Reads and fully validates scene text without building a world (no geometry is touched).
/// `file_label` names the text in errors.
pub fn parse_scene_file(text: &str, file_label: &str) -> Result<SceneFile, SceneError> {
    read_scene_file(strip_bom(text), file_label)
}

/// Reads scene text and builds its world. `file_label` names the text in errors.
pub fn parse_scene(text: &str, file_label: &str) -> Result<World, SceneError> {
    let text = strip_bom(text);
    let scene = read_scene_file(text, file_label)?;
    scene_to_world(&scene)
        .map_err(|(path, reason)| SceneError::located(file_label, text, path, reason, false))
}

/// An I/O error in a few plain words ("no such file", "permission denied").
pub fn io_reason(err: &io::Error) -> String {
    match err.kind() {
        io::ErrorKind::NotFound => "no such file".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        io::ErrorKind::IsADirectory => "it is a directory".into(),
        io::ErrorKind::StorageFull => "the disk is full".into(),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".into(),
        _ => {
            let text = err.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text).to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
}

/// Reads a scene file as bytes: a regular file of at most [`MAX_FILE_BYTES`] (a FIFO or a
/// device would block or never end, so they are refused before reading).
pub fn read_scene_bytes(path: &Path) -> Result<Vec<u8>, SceneError> {
    let label = path.display().to_string();
    let metadata = fs::metadata(path).map_err(|err| SceneError::io(&label, "open", &err))?;
    if metadata.is_dir() {
        return Err(SceneError::io_reason(&label, "open", "it is a directory".into()));
    }
    if !metadata.is_file() {
        return Err(SceneError::io_reason(&label, "open", "not a regular file (a pipe or a device)".into()));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(SceneError::io_reason(&label, "open", too_big(metadata.len())));
    }
    fs::read(path).map_err(|err| SceneError::io(&label, "read", &err))
}

/// Why a file of `len` bytes is refused: in whole MB, or in bytes when the MB figures of the
/// size and the limit would read the same ("the file is 256 MB, at most 256 MB").
fn too_big(len: u64) -> String {
    if len >> 20 > MAX_FILE_BYTES >> 20 {
        format!("the file is {} MB, at most {} MB", len >> 20, MAX_FILE_BYTES >> 20)
    } else {
        format!("the file is {len} bytes, at most {MAX_FILE_BYTES} bytes ({} MB)", MAX_FILE_BYTES >> 20)
    }
}

/// Loads a scene file and builds its world.
pub fn load_scene(path: &Path) -> Result<World, SceneError> {
    let label = path.display().to_string();
    let bytes = read_scene_bytes(path)?;
    parse_scene_bytes(bytes, &label)
}

/// Progress and cancel of a load that runs off the caller's thread: the loader adds the bytes
/// it has consumed to `done` (of `total`, the file's size once known); setting `cancel` makes
/// the next read fail, so the load ends with a "cancelled" error and builds nothing.
#[derive(Debug, Default)]
pub struct LoadProgress {
    /// Bytes consumed so far.
    pub done: AtomicU64,
    /// The file's size in bytes (zero until it is opened).
    pub total: AtomicU64,
    /// Set to cancel the load.
    pub cancel: AtomicBool,
}

impl LoadProgress {
    /// Whole percent consumed (0 while the size is unknown), at most 100.
    pub fn percent(&self) -> u64 {
        let total = self.total.load(Ordering::Relaxed);
        if total == 0 {
            return 0;
        }
        (self.done.load(Ordering::Relaxed).saturating_mul(100) / total).min(100)
    }
    /// Whether the load was cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// Size of the chunks a progress-reporting load reads (also how often it looks at the cancel
/// flag).
const LOAD_CHUNK: usize = 256 * 1024;

/// A `Read` that counts the bytes it passes into a [`LoadProgress`] and fails once the load is
/// cancelled.
struct ProgressReader<'a, R> {
    inner: R,
    progress: &'a LoadProgress,
}

impl<R: io::Read> io::Read for ProgressReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.progress.cancelled() {
            return Err(io::Error::other(CANCELLED));
        }
        let chunk = buf.len().min(LOAD_CHUNK);
        let read = self.inner.read(buf.get_mut(..chunk).unwrap_or(&mut []))?;
        self.progress.done.fetch_add(read as u64, Ordering::Relaxed);
        Ok(read)
    }
}

/// The reason of a cancelled load's error.
pub const CANCELLED: &str = "loading was cancelled";

/// [`load_scene`] reporting bytes consumed into `progress` and stopping with a
/// [`CANCELLED`] error when its cancel flag is set (checked on every chunk read and again
/// before the world is built). Same checks and errors as [`load_scene`] otherwise.
pub fn load_scene_with_progress(path: &Path, progress: &LoadProgress) -> Result<World, SceneError> {
    let label = path.display().to_string();
    let cancelled = || SceneError::io_reason(&label, "read", CANCELLED.into());
    // The same refusals as `read_scene_bytes` (directories, devices, oversized files).
    let metadata = fs::metadata(path).map_err(|err| SceneError::io(&label, "open", &err))?;
    if !metadata.is_file() || metadata.len() > MAX_FILE_BYTES {
        return read_scene_bytes(path).and_then(|bytes| parse_scene_bytes(bytes, &label));
    }
    progress.total.store(metadata.len(), Ordering::Relaxed);
    let file = fs::File::open(path).map_err(|err| SceneError::io(&label, "open", &err))?;
    let mut reader = ProgressReader { inner: file.take(MAX_FILE_BYTES), progress };
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    if let Err(err) = io::Read::read_to_end(&mut reader, &mut bytes) {
        return Err(if progress.cancelled() { cancelled() } else { SceneError::io(&label, "read", &err) });
    }
    if progress.cancelled() {
        return Err(cancelled());
    }
    let world = parse_scene_bytes(bytes, &label)?;
    if progress.cancelled() {
        return Err(cancelled());
    }
    Ok(world)
}

/// Builds the world of a scene file's bytes (UTF-8 checked here). `label` names it in errors.
pub fn parse_scene_bytes(bytes: Vec<u8>, label: &str) -> Result<World, SceneError> {
    let text = text_of_bytes(bytes, label)?;
    parse_scene(&text, label)
}

/// Reads a file as JSON with the loader's checks — a regular file of at most
/// [`MAX_FILE_BYTES`], UTF-8, JSON syntax (errors located as the loader's are) — without
/// reading it as a scene: the fuzzer's seeds.
pub fn read_json_file(path: &Path) -> Result<Value, SceneError> {
    let label = path.display().to_string();
    let text = text_of_bytes(read_scene_bytes(path)?, &label)?;
    let text = strip_bom(&text);
    serde_json::from_str(text).map_err(|err| syntax_error(&label, text, &err))
}

/// The bytes as text, or an error at the first byte that is not UTF-8.
fn text_of_bytes(bytes: Vec<u8>, label: &str) -> Result<String, SceneError> {
    String::from_utf8(bytes).map_err(|err| {
        let valid_up_to = err.utf8_error().valid_up_to();
        let valid = err.as_bytes().get(..valid_up_to).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or("");
        let TextPosition { line, column } = position_of_offset(valid, valid.len());
        SceneError {
            file: label.to_string(),
            json_path: "$".into(),
            line,
            column,
            reason: "the file is not valid UTF-8 text".into(),
            io_action: None,
        }
    })
}

/// The world's scene as pretty JSON, validated first (errors are labelled [`UNSAVED_LABEL`]
/// Whether `path` is a shipped example: an existing file directly in `examples_dir`. The window
/// never overwrites one (its Save As dialog refuses the name, and the shell's save refuses the
/// path whatever asked for it).
pub fn is_shipped_example(path: &Path, examples_dir: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    let dir = canonical(examples_dir);
    dir.is_some() && canonical(path).and_then(|p| p.parent().map(Path::to_path_buf)) == dir
}

/// and located in the text that would have been written).
pub fn scene_to_json(world: &World) -> Result<String, SceneError> {
    let scene = world_to_scene(world);
    let compact = serde_json::to_string(&scene).map_err(|err| SceneError {
        file: UNSAVED_LABEL.into(),
        json_path: "$".into(),
        line: 1,
        column: 1,
        reason: err.to_string(),
        io_action: None,
    })?;
    let text = pretty_json(&compact);
    validate_scene(&scene)
        .map_err(|(path, reason)| SceneError::located(UNSAVED_LABEL, &text, path, reason, false))?;
    Ok(text)
}

/// Saves the world's scene to `path` atomically (see the module documentation).
pub fn save_scene(world: &World, path: &Path) -> Result<(), SceneError> {
    let label = path.display().to_string();
    let text = scene_to_json(world).map_err(|err| SceneError { file: label.clone(), ..err })?;
    write_atomically(path, text.as_bytes()).map_err(|err| SceneError::io(&label, "write", &err))
}

fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The first key written twice in one object (serde_json would silently keep the last), as
/// the loader's error at that key.
fn duplicate_key_error(text: &str, file: &str) -> Option<SceneError> {
    let (path, position) = find_duplicate_key(text)?;
    let key = match parse_path(&path).and_then(|mut s| s.pop()) {
        Some(PathSegment::Key(key)) => key,
        _ => String::new(),
    };
    let TextPosition { line, column } = position;
    let reason = format!("duplicate key `{key}` (each key may appear once per object)");
    Some(SceneError { file: file.into(), json_path: path, line, column, reason, io_action: None })
}

fn read_scene_file(text: &str, file: &str) -> Result<SceneFile, SceneError> {
    let root = check_syntax(text).map_err(|err| syntax_error(file, text, &err))?;

    if let Some(err) = duplicate_key_error(text, file) {
        return Err(err);
    }

    if !root.is_object {
        return Err(SceneError::located(
            file,
            text,
            "$".into(),
            "expected a scene object `{ ... }`".into(),
            false,
        ));
    }
    match root.version {
        None => {
            let reason = format!("missing field `version` (this build reads version {FORMAT_VERSION})");
            return Err(SceneError::located(file, text, "$".into(), reason, false));
        }
        Some(Held::Value(version))
            if version.as_u64().is_some_and(|v| READABLE_VERSIONS.iter().any(|r| u64::from(*r) == v)) => {}
        Some(version) => {
            let shown = match version {
                Held::Value(value) => value.to_string(),
                Held::TooLong(Container::Array) => "(an array too long to show)".into(),
                Held::TooLong(Container::Object) => "(an object too long to show)".into(),
            };
            let reason =
                format!("unsupported version {shown}, this build reads versions 1 and {FORMAT_VERSION}");
            return Err(SceneError::located(file, text, "version".into(), reason, false));
        }
    }

    let mut deserializer = serde_json::Deserializer::from_str(text);
    let scene: SceneFile =
        serde_path_to_error::deserialize(&mut deserializer).map_err(|err| shape_error(file, text, &err))?;
    validate_scene(&scene).map_err(|(path, reason)| SceneError::located(file, text, path, reason, false))?;
    Ok(scene)
}

/// The error of a scene that is JSON but not the format, at its path. An error inside a curve or
/// a behaviour whose tag is not its first field is found again in that object's text alone,
/// read with its tag known (the first reading held the fields before the tag and lost the path
/// of an error in them).
fn shape_error(file: &str, text: &str, err: &serde_path_to_error::Error<serde_json::Error>) -> SceneError {
    let mut segments = segments_of(err.path());
    let mut reason = tidy_message(&without_position(err.inner()));
    if let Some((at, len)) = TaggedAt::enclosing(&segments) {
        segments.truncate(len);
        let inner = value_text(text, &format_path(&segments))
            .and_then(|object| reread_tagged::<CurveSpec, BehaviourSpec>(object, at));
        match inner {
            Some((inner_path, inner_reason)) => {
                segments.extend(inner_path);
                reason = inner_reason;
            }
            None => segments = segments_of(err.path()),
        }
    }
    let at_key = reason.starts_with("unknown field");
    SceneError::located(file, text, format_path(&segments), reason, at_key)
}

fn syntax_error(file: &str, text: &str, err: &serde_json::Error) -> SceneError {
    let message = err.to_string();
    let position = if err.line() == 0 {
        TextPosition { line: 1, column: 1 }
    } else if message.starts_with("number out of range") {
        // serde stops at the number's last digit; other errors about a value point at its start.
        number_start_of_serde(text, err.line(), err.column())
    } else {
        position_of_serde(text, err.line(), err.column())
    };
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let mut reason = message.strip_suffix(&suffix).unwrap_or(&message).to_string();
    if text.trim().is_empty() {
        reason = "the file is empty".into();
    } else if reason == "number out of range" {
        reason = "number out of range (not a finite number)".into();
    } else if reason == "expected value" {
        reason = "expected a JSON value".into();
    } else if reason == "trailing characters" {
        reason = "trailing characters after the end of the scene".into();
    } else if reason.starts_with("EOF while parsing") {
        reason = format!("the text ends too early ({})", reason.replacen("EOF", "end of file", 1));
    }
    let TextPosition { line, column } = position;
    SceneError {
        file: file.into(),
        json_path: path_at(text, position),
        line,
        column,
        reason,
        io_action: None,
    }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut writer = AtomicFile::create(path)?;
    writer.write_all(bytes)?;
    writer.commit()
}

/// A file written whole or not at all: the bytes go to a temporary file created exclusively
/// beside the target (a short name, `.steerlab-PID-N.tmp`, whatever the target's length), and
/// [`AtomicFile::commit`] syncs it and renames it over the target. Dropped without a commit
/// (an error, a cancelled export), the temporary file is removed and the target is untouched.
pub struct AtomicFile {
    temporary: PathBuf,
    target: PathBuf,
    dir: PathBuf,
    file: Option<io::BufWriter<fs::File>>,
}

impl AtomicFile {
    /// Creates the temporary file for `path` (nothing is written to `path` yet).
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        if path.file_name().is_none() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "the path does not name a file"));
        }
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut attempts = 0;
        loop {
            let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let temporary = dir.join(format!(".steerlab-{}-{n}.tmp", std::process::id()));
            match fs::OpenOptions::new().write(true).create_new(true).open(&temporary) {
                Ok(file) => {
                    return Ok(AtomicFile {
                        temporary,
                        target: path.to_path_buf(),
                        dir,
                        file: Some(io::BufWriter::new(file)),
                    })
                }
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists && attempts < 100 => attempts += 1,
                Err(err) => return Err(err),
            }
        }
    }

    /// Flushes, syncs and renames the temporary file over the target (keeping the target's
    /// permissions when it existed).
    pub fn commit(mut self) -> io::Result<()> {
        let Some(writer) = self.file.take() else {
            return Err(io::Error::other("the file was already committed"));
        };
        let file = writer.into_inner().map_err(|err| err.into_error())?;
        file.sync_all()?;
        drop(file);
        if let Ok(existing) = fs::metadata(&self.target) {
            let _ = fs::set_permissions(&self.temporary, existing.permissions());
        }
        fs::rename(&self.temporary, &self.target)?;
        // Renamed: nothing left to clean up.
        self.temporary = PathBuf::new();
        if let Ok(dir_handle) = fs::File::open(&self.dir) {
            // Best effort: make the rename itself durable where the platform allows it.
            let _ = dir_handle.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.file.as_mut() {
            Some(file) => file.write(buf),
            None => Err(io::Error::other("the file was already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.temporary.as_os_str().is_empty() {
            self.file = None;
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/arrive.json");

    /// The reading before the loader streamed, kept to compare with: the whole text as a
    /// `Value`, serde from that `Value`, an error at a curve or behaviour read again from the
    /// `Value` through its tag, then the written-back comparison of forms.
    mod via_value {
        use super::super::super::format::{
            behaviour_from_value, curve_from_value, entry_from_value, CurveSpec,
        };
        use super::*;

        pub(super) fn read_scene_file(text: &str, file: &str) -> Result<SceneFile, SceneError> {
            let value: Value = serde_json::from_str(text).map_err(|err| syntax_error(file, text, &err))?;
            if let Some(err) = duplicate_key_error(text, file) {
                return Err(err);
            }
            let Value::Object(root) = &value else {
                let reason = "expected a scene object `{ ... }`".to_string();
                return Err(SceneError::located(file, text, "$".into(), reason, false));
            };
            match root.get("version") {
                None => {
                    let reason =
                        format!("missing field `version` (this build reads version {FORMAT_VERSION})");
                    return Err(SceneError::located(file, text, "$".into(), reason, false));
                }
                Some(version)
                    if !version
                        .as_u64()
                        .is_some_and(|v| READABLE_VERSIONS.iter().any(|r| u64::from(*r) == v)) =>
                {
                    let reason = format!(
                        "unsupported version {version}, this build reads versions 1 and {FORMAT_VERSION}"
                    );
                    return Err(SceneError::located(file, text, "version".into(), reason, false));
                }
                Some(_) => {}
            }
            let scene: SceneFile = serde_path_to_error::deserialize(&value).map_err(|err| {
                let mut segments = segments_of(err.path());
                let mut reason = tidy_message(&err.inner().to_string());
                if let Some((inner_path, inner_reason)) = reread_tagged(&value, &segments) {
                    segments.extend(inner_path);
                    reason = inner_reason;
                }
                let at_key = reason.starts_with("unknown field");
                SceneError::located(file, text, format_path(&segments), reason, at_key)
            })?;
            if let Some((path, reason)) = serde_only_form(&value, &scene) {
                return Err(SceneError::located(file, text, format_path(&path), reason, false));
            }
            validate_scene(&scene)
                .map_err(|(path, reason)| SceneError::located(file, text, path, reason, false))?;
            Ok(scene)
        }

        fn serde_only_form(original: &Value, scene: &SceneFile) -> Option<(Vec<PathSegment>, String)> {
            let mut skeleton = scene.clone();
            for path in &mut skeleton.paths {
                path.points.truncate(1);
            }
            for curve in &mut skeleton.curves {
                if let CurveSpec::Spline(spline) = curve {
                    spline.points.truncate(1);
                }
            }
            let written = serde_json::to_value(&skeleton).ok()?;
            let mut stack: Vec<(Vec<PathSegment>, &Value, &Value)> = vec![(Vec::new(), original, &written)];
            while let Some((path, given, expected)) = stack.pop() {
                match (given, expected) {
                    (Value::Array(_), Value::Object(_)) => {
                        return Some((
                            path,
                            "expected an object `{ ... }` with named fields, not an array".into(),
                        ))
                    }
                    (Value::Object(_), Value::String(_)) => {
                        return Some((path, "expected a string, not an object".into()));
                    }
                    (Value::Object(given), Value::Object(expected)) => {
                        for (key, value) in given {
                            if let Some(expected_value) = expected.get(key) {
                                let mut inner = path.clone();
                                inner.push(PathSegment::Key(key.clone()));
                                stack.push((inner, value, expected_value));
                            }
                        }
                    }
                    (Value::Array(given), Value::Array(expected)) => {
                        for (idx, (value, expected_value)) in given.iter().zip(expected).enumerate().rev() {
                            let is_vector =
                                value.as_array().is_some_and(|items| items.iter().all(Value::is_number));
                            if value.is_object() || (value.is_array() && !is_vector) {
                                let mut inner = path.clone();
                                inner.push(PathSegment::Index(idx));
                                stack.push((inner, value, expected_value));
                            }
                        }
                    }
                    _ => {}
                }
            }
            None
        }

        fn reread_tagged(value: &Value, segments: &[PathSegment]) -> Option<(Vec<PathSegment>, String)> {
            let mut node = value;
            for segment in segments {
                node = match segment {
                    PathSegment::Key(key) => node.get(key)?,
                    PathSegment::Index(idx) => node.get(idx)?,
                };
            }
            let node = node.clone();
            match TaggedAt::enclosing(segments) {
                Some((_, len)) if len < segments.len() => None,
                Some((TaggedAt::Curve, _)) => curve_from_value(node).err(),
                Some((TaggedAt::Behaviour, _)) => behaviour_from_value(node).err(),
                Some((TaggedAt::Entry, _)) => entry_from_value(node).err(),
                None => None,
            }
        }
    }

    /// Every `.json` file of the shipped scenes, the version 1 scenes and the malformed cases.
    fn scene_files() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["scenes", "tests/v1_scenes", "tests/malformed"] {
            let entries = fs::read_dir(root.join(dir)).map(|entries| entries.flatten().map(|e| e.path()));
            files
                .extend(entries.into_iter().flatten().filter(|p| p.extension().is_some_and(|e| e == "json")));
        }
        files.sort();
        files
    }

    #[test]
    fn streaming_reads_every_shipped_and_malformed_scene_as_the_value_reading_did() {
        let files = scene_files();
        assert!(files.len() >= 80, "only {} files", files.len());
        let (mut loaded, mut refused) = (0, 0);
        for path in files {
            let label = path.display().to_string();
            let Ok(text) = read_scene_bytes(&path).and_then(|bytes| text_of_bytes(bytes, &label)) else {
                continue;
            };
            let streamed = parse_scene_file(&text, &label);
            let via_value = via_value::read_scene_file(strip_bom(&text), &label);
            assert_eq!(streamed, via_value, "{label}");
            if streamed.is_ok() {
                loaded += 1;
            } else {
                refused += 1;
            }
        }
        assert!(loaded >= 30 && refused >= 40, "{loaded} loaded, {refused} refused");
    }

    /// Files with one problem each, where reading in the text's order could have gone wrong
    /// (a tag after the fields, held fields, names and pairs, versions), and the error line the
    /// loader gave before it streamed (measured with the build before this change).
    #[test]
    fn single_problems_give_the_error_lines_they_gave_before() {
        // As the measuring files were written: every list present, one agent.
        let scene = |version: u32, curves: &str, agent: &str| {
            format!(
                r#"{{"version":{version},"paths":[],"curves":[{curves}],"targets":[{{"id":"t","position":[0,0]}}],"agents":[{{"position":[0,0],{agent}}}]}}"#
            )
        };
        let v2 = |behaviour: &str| scene(2, "", &format!(r#""behaviours":[{behaviour}]"#));
        let v1 = |behaviour: &str| scene(1, "", &format!(r#""behaviour":{behaviour}"#));
        let curve = |curve: &str| scene(2, curve, r#""behaviours":[{"type":"seek","target":"t"}]"#);
        let cases = [
            (v2(r#"{"target":5,"type":"seek"}"#), "agents[0].behaviours[0].target (line 1, column 129): invalid type: integer `5`, expected a string"),
            (v2(r#"{"weight":"x","type":"seek","target":"t"}"#), "agents[0].behaviours[0].weight (line 1, column 129): invalid type: string \"x\", expected a number"),
            (v2(r#"{"waypoints":[[0,0],[1,"x"]],"type":"planner"}"#), "agents[0].behaviours[0].waypoints[1][1] (line 1, column 142): invalid type: string \"x\", expected a number"),
            (v2(r#"{"waypoints":[[0,0]],"type":"seek","target":"t"}"#), "agents[0].behaviours[0].waypoints (line 1, column 120): unknown field `waypoints`, expected `target`"),
            (v2(r#"{"type":"parametric","curve":"c","method":{"secant":5}}"#), "agents[0].behaviours[0].method.secant (line 1, column 171): invalid type: integer `5`, expected unit"),
            (v2(r#"{"method":5,"type":"parametric","curve":"c"}"#), "agents[0].behaviours[0].method (line 1, column 129): invalid type: integer `5`, expected string or map"),
            (v2(r#"{"type":1.5e3}"#), "agents[0].behaviours[0].type (line 1, column 127): expected a string naming the behaviour type, got the number 1500.0"),
            (v1(r#"{"agents":["a","b","c"],"type":"interpose"}"#), "agents[0].behaviour.agents (line 1, column 127): invalid length 3, expected fewer elements in array"),
            (v1("2.50"), "agents[0].behaviour (line 1, column 117): expected an object with a `type` field, got the number 2.5"),
            (curve(r#"{"center":[0,"x"],"kind":"circle","id":"c","radius":5}"#), "curves[0].center[1] (line 1, column 48): invalid type: string \"x\", expected a number"),
            (curve(r#"{"points":[[0,0],[1,1]],"kind":"circle","id":"c","radius":5}"#), "curves[0].points (line 1, column 36): unknown field `points`, expected one of `id`, `center`, `radius`"),
            (curve(r#"{"id":"s","points":[[0,0],[1,1]]}"#), "curves[0] (line 1, column 35): missing field `kind` (one of `circle`, `ellipse`, `lemniscate`, `lissajous`, `helix`, `spline`, `expr`)"),
            (r#"{"version":2,"curves":[{"kind":"circle","id":"c","radius":1,"zz":1e999}]}"#.to_string(), "curves[0].zz (line 1, column 66): number out of range (not a finite number)"),
            (r#"{"version":2,"fields":[{"id":"f","origin":[0,0],"columns":1,"rows":1,"vectors":[[1,2,3]]}],"agents":[]}"#.to_string(), "fields[0].vectors[0] (line 1, column 81): invalid length 3, expected fewer elements in array"),
            (r#"{"version":2,"bounds":[[0,0],[1,1]],"agents":[]}"#.to_string(), "bounds (line 1, column 23): expected an object `{ ... }` with named fields, not an array"),
            (r#"{"version":2,"targets":[["t",[0,"x"]]],"agents":[]}"#.to_string(), "targets[0][1][1] (line 1, column 33): invalid type: string \"x\", expected a number"),
            (r#"{"version":{"a":[1,2]},"agents":[]}"#.to_string(), "version (line 1, column 12): unsupported version {\"a\":[1,2]}, this build reads versions 1 and 2"),
            (r#"{"version":2.0,"agents":[]}"#.to_string(), "version (line 1, column 12): unsupported version 2.0, this build reads versions 1 and 2"),
        ];
        for (text, expected) in cases {
            let streamed = parse_scene_file(&text, "case.json").map(|_| ()).map_err(|err| err.to_string());
            assert_eq!(streamed, Err(format!("case.json: {expected}")), "{text}");
            let via_value =
                via_value::read_scene_file(&text, "case.json").map(|_| ()).map_err(|err| err.to_string());
            assert_eq!(streamed, via_value, "{text}");
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// How many JSON values `value` holds, itself included.
        fn values_in(value: &Value) -> usize {
            1 + match value {
                Value::Array(items) => items.iter().map(values_in).sum(),
                Value::Object(entries) => entries.values().map(values_in).sum(),
                _ => 0,
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            /// The fuzzer's mutations of the shipped scenes: both readings accept the same files and
            /// read them into the same scene. (Where a file has several problems, streaming reports
            /// the first in the text, the `Value` reading the first in sorted key order.)
            #[test]
            fn streaming_and_the_value_reading_accept_the_same_mutated_scenes(case in 0u64..1_000_000) {
                thread_local! {
                    static SEEDS: Vec<(String, Value)> =
                        crate::fuzz::seed_scenes(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")).unwrap_or_default();
                }
                let bytes = SEEDS.with(|seeds| crate::fuzz::make_case(11, case, seeds));
                if let Ok(text) = String::from_utf8(bytes) {
                    let streamed = parse_scene_file(&text, "case.json");
                    let via_value = via_value::read_scene_file(strip_bom(&text), "case.json");
                    prop_assert_eq!(streamed.as_ref().ok(), via_value.as_ref().ok(), "{}", text);
                    if let (Err(a), Err(b)) = (&streamed, &via_value) {
                        // Syntax, duplicate keys and the version are checked before any reading.
                        let early = |e: &SceneError| e.json_path == "$" || e.json_path == "version" || e.reason.starts_with("duplicate key");
                        // Streaming keeps at most `VERSION_VALUES` values of a version for its
                        // message; the `Value` reading shows all of it.
                        let version_values = serde_json::from_str::<Value>(strip_bom(&text))
                            .ok()
                            .and_then(|root| root.get("version").map(values_in));
                        let shortened = a.reason.contains("too long to show)");
                        if shortened || version_values.is_some_and(|n| n > crate::scene::stream::VERSION_VALUES) {
                            prop_assert!(shortened, "{:?} {:?}", a, version_values);
                            prop_assert!(version_values.is_some_and(|n| n >= crate::scene::stream::VERSION_VALUES));
                            prop_assert_eq!((&a.file, &a.json_path, a.line, a.column), (&b.file, &b.json_path, b.line, b.column));
                            prop_assert!(["unsupported version [", "unsupported version {"].iter().any(|s| b.reason.starts_with(s)), "{}", b.reason.get(..40).unwrap_or_default());
                        } else if early(b) {
                            prop_assert_eq!(a, b);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_load_with_progress_counts_every_byte_and_builds_the_same_world() {
        let progress = LoadProgress::default();
        let world = load_scene_with_progress(Path::new(SCENE), &progress).map_err(|e| e.to_string());
        let plain = load_scene(Path::new(SCENE)).map_err(|e| e.to_string());
        let size = fs::metadata(SCENE).map(|m| m.len()).unwrap_or(0);
        assert!(size > 0);
        assert_eq!(progress.total.load(Ordering::Relaxed), size);
        assert_eq!(progress.done.load(Ordering::Relaxed), size);
        assert_eq!(progress.percent(), 100);
        let as_json =
            |world: Result<World, String>| world.and_then(|w| scene_to_json(&w).map_err(|e| e.to_string()));
        assert_eq!(as_json(world), as_json(plain));
    }

    #[test]
    fn a_load_cancelled_before_it_starts_reads_nothing_and_says_cancelled() {
        let progress = LoadProgress::default();
        progress.cancel.store(true, Ordering::Relaxed);
        let err = load_scene_with_progress(Path::new(SCENE), &progress).err().map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| e.contains(CANCELLED)), "{err:?}");
        assert_eq!(progress.done.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_file_just_over_the_limit_gives_sizes_that_differ() {
        let dir = std::env::temp_dir().join(format!("steerlab-io-too-big-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.json");
        // Sparse: no disk is used.
        fs::File::create(&path).unwrap().set_len(MAX_FILE_BYTES + 3).unwrap();
        let err = read_scene_bytes(&path).map(|_| ()).map_err(|e| e.reason);
        assert_eq!(err, Err("the file is 268435459 bytes, at most 268435456 bytes (256 MB)".to_string()));
        fs::File::create(&path).unwrap().set_len(MAX_FILE_BYTES + (5 << 20)).unwrap();
        let err = read_scene_bytes(&path).map(|_| ()).map_err(|e| e.reason);
        assert_eq!(err, Err("the file is 261 MB, at most 256 MB".to_string()));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A reader that sets the cancel flag while it serves its first read.
    struct CancelsAfterFirstRead<'a> {
        inner: io::Cursor<Vec<u8>>,
        progress: &'a LoadProgress,
    }

    impl io::Read for CancelsAfterFirstRead<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.progress.cancel.store(true, Ordering::Relaxed);
            self.inner.read(buf)
        }
    }

    #[test]
    fn cancelling_mid_read_fails_the_next_read_with_progress_at_one_chunk() {
        let progress = LoadProgress::default();
        let data = vec![b' '; 4 * LOAD_CHUNK];
        progress.total.store(data.len() as u64, Ordering::Relaxed);
        let inner = CancelsAfterFirstRead { inner: io::Cursor::new(data), progress: &progress };
        let mut reader = ProgressReader { inner, progress: &progress };
        let mut bytes = Vec::new();
        let result = reader.read_to_end(&mut bytes);
        assert!(result.is_err_and(|err| err.to_string() == CANCELLED));
        assert_eq!(progress.done.load(Ordering::Relaxed), bytes.len() as u64);
        assert!(bytes.len() <= LOAD_CHUNK, "read {} bytes after the cancel", bytes.len());
        assert_eq!(progress.percent(), 25 * bytes.len() as u64 / LOAD_CHUNK as u64);
    }
}
