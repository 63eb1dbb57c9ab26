//! Scene files, version 1. TEMPORARY stub until the scene branch is merged.

use std::path::Path;

use crate::sim::World;

/// Why a scene could not be loaded or saved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {json_path} (line {line}, column {column}): {reason}")]
pub struct SceneError {
    /// The file.
    pub file: String,
    /// Where in the JSON.
    pub json_path: String,
    /// Line.
    pub line: usize,
    /// Column.
    pub column: usize,
    /// Why.
    pub reason: String,
}

/// Loads a scene.
pub fn load_scene(path: &Path) -> Result<World, SceneError> {
    Err(SceneError {
        file: path.display().to_string(),
        json_path: "$".into(),
        line: 1,
        column: 1,
        reason: "not yet".into(),
    })
}
