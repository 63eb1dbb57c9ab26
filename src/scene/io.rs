//! Reading and writing scene files; the only module of the core that touches the file system.
//!
//! Reading goes in stages, and the first problem found is reported as one [`SceneError`]:
//! 1. JSON syntax (serde_json, with its line and column; the path is the innermost value
//!    around the error), then duplicate keys (serde_json would silently keep the last);
//! 2. the version, before anything else, so a newer file gets "unsupported version" rather
//!    than a complaint about a field it added;
//! 3. shape: unknown fields, wrong types, missing fields (serde with `serde_path_to_error`;
//!    curves and behaviours are re-read through their tag for the exact path);
//! 4. meaning: `validate` (ids, references, ranges, radii, colours, names), then `convert`
//!    (expressions).
//!
//! For stages 2–4 the line and column come from `locate`: they point at the offending value
//! (at the key for an unknown field, at the object for a missing field).
//!
//! Saving validates first (a non-finite number in the live world is refused with the path where
//! it would have been written, rather than written as `null`), then writes a temporary file
//! next to the target, syncs it and renames it over the target: on any error the old file is
//! untouched and the temporary file is removed. One writer per file at a time is assumed.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::convert::{scene_to_world, world_to_scene};
use super::format::{
    behaviour_from_value, curve_from_value, entry_from_value, segments_of, tidy_message, SceneFile,
    FORMAT_VERSION, READABLE_VERSIONS,
};
use super::locate::{
    find_duplicate_key, format_path, locate_key, locate_value, parse_path, path_at, position_of_offset,
    position_of_serde, PathSegment, TextPosition,
};
use super::pretty::pretty_json;
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
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (line {}, column {}): {}",
            self.file, self.json_path, self.line, self.column, self.reason
        )
    }
}

impl std::error::Error for SceneError {}

impl SceneError {
    /// An I/O error on `file` (path `$`, line 1, column 1).
    pub fn io(file: &str, err: &io::Error) -> SceneError {
        SceneError {
            file: file.to_string(),
            json_path: "$".into(),
            line: 1,
            column: 1,
            reason: err.to_string(),
        }
    }

    /// An error at `json_path`, located in `text` (at the key when `at_key`, else at the value;
    /// falling back to the nearest enclosing value that is in the text).
    fn located(file: &str, text: &str, json_path: String, reason: String, at_key: bool) -> SceneError {
        let exact = if at_key { locate_key(text, &json_path) } else { locate_value(text, &json_path) };
        let position = exact.or_else(|| nearest_enclosing(text, &json_path));
        let TextPosition { line, column } = position.unwrap_or(TextPosition { line: 1, column: 1 });
        SceneError { file: file.to_string(), json_path, line, column, reason }
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

/// Loads a scene file and builds its world.
pub fn load_scene(path: &Path) -> Result<World, SceneError> {
    let label = path.display().to_string();
    let bytes = fs::read(path).map_err(|err| SceneError::io(&label, &err))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let valid_up_to = err.utf8_error().valid_up_to();
            let valid =
                err.as_bytes().get(..valid_up_to).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or("");
            let TextPosition { line, column } = position_of_offset(valid, valid.len());
            return Err(SceneError {
                file: label,
                json_path: "$".into(),
                line,
                column,
                reason: "the file is not valid UTF-8 text".into(),
            });
        }
    };
    parse_scene(&text, &label)
}

/// The world's scene as pretty JSON, validated first (errors are labelled [`UNSAVED_LABEL`]
/// and located in the text that would have been written).
pub fn scene_to_json(world: &World) -> Result<String, SceneError> {
    let scene = world_to_scene(world);
    let compact = serde_json::to_string(&scene).map_err(|err| SceneError {
        file: UNSAVED_LABEL.into(),
        json_path: "$".into(),
        line: 1,
        column: 1,
        reason: err.to_string(),
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
    write_atomically(path, text.as_bytes()).map_err(|err| SceneError::io(&label, &err))
}

fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn read_scene_file(text: &str, file: &str) -> Result<SceneFile, SceneError> {
    let value: Value = serde_json::from_str(text).map_err(|err| syntax_error(file, text, &err))?;

    if let Some((path, position)) = find_duplicate_key(text) {
        let key = match parse_path(&path).and_then(|mut s| s.pop()) {
            Some(PathSegment::Key(key)) => key,
            _ => String::new(),
        };
        let TextPosition { line, column } = position;
        let reason = format!("duplicate key `{key}` (each key may appear once per object)");
        return Err(SceneError { file: file.into(), json_path: path, line, column, reason });
    }

    let Value::Object(root) = &value else {
        return Err(SceneError::located(
            file,
            text,
            "$".into(),
            "expected a scene object `{ ... }`".into(),
            false,
        ));
    };
    match root.get("version") {
        None => {
            let reason = format!("missing field `version` (this build reads version {FORMAT_VERSION})");
            return Err(SceneError::located(file, text, "$".into(), reason, false));
        }
        Some(version)
            if !version.as_u64().is_some_and(|v| READABLE_VERSIONS.iter().any(|r| u64::from(*r) == v)) =>
        {
            let reason =
                format!("unsupported version {version}, this build reads versions 1 and {FORMAT_VERSION}");
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

    validate_scene(&scene).map_err(|(path, reason)| SceneError::located(file, text, path, reason, false))?;
    Ok(scene)
}

/// When an error is reported at a curve or a behaviour as a whole, reads that object again
/// through its tag to learn the path inside it.
fn reread_tagged(value: &Value, segments: &[PathSegment]) -> Option<(Vec<PathSegment>, String)> {
    let pointer = |segments: &[PathSegment]| -> Option<Value> {
        let mut node = value;
        for segment in segments {
            node = match segment {
                PathSegment::Key(key) => node.get(key)?,
                PathSegment::Index(idx) => node.get(idx)?,
            };
        }
        Some(node.clone())
    };
    match segments {
        [PathSegment::Key(list), PathSegment::Index(_)] if list == "curves" => {
            curve_from_value(pointer(segments)?).err()
        }
        [PathSegment::Key(list), PathSegment::Index(_), PathSegment::Key(field)]
            if list == "agents" && field == "behaviour" =>
        {
            behaviour_from_value(pointer(segments)?).err()
        }
        [PathSegment::Key(list), PathSegment::Index(_), PathSegment::Key(field), PathSegment::Index(_)]
            if list == "agents" && field == "behaviours" =>
        {
            entry_from_value(pointer(segments)?).err()
        }
        _ => None,
    }
}

fn syntax_error(file: &str, text: &str, err: &serde_json::Error) -> SceneError {
    let position = if err.line() == 0 {
        TextPosition { line: 1, column: 1 }
    } else {
        position_of_serde(text, err.line(), err.column())
    };
    let message = err.to_string();
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
    SceneError { file: file.into(), json_path: path_at(text, position), line, column, reason }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let file_name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path does not name a file"))?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temporary = dir.join(format!(".{}.tmp-{}", file_name.to_string_lossy(), std::process::id()));
    let result = write_then_rename(&temporary, path, bytes);
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    } else if let Ok(dir_handle) = fs::File::open(&dir) {
        // Best effort: make the rename itself durable where the platform allows it.
        let _ = dir_handle.sync_all();
    }
    result
}

fn write_then_rename(temporary: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = fs::OpenOptions::new().write(true).create(true).truncate(true).open(temporary)?;
    file.write_all(bytes)?;
    file.flush()?;
    file.sync_all()?;
    drop(file);
    if let Ok(existing) = fs::metadata(path) {
        // Keep the permissions of the file being replaced.
        let _ = fs::set_permissions(temporary, existing.permissions());
    }
    fs::rename(temporary, path)
}
