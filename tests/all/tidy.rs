//! Tidy checks that keep the architecture honest (README, Architecture, Invariants 1 and 2):
//! the pure core never reaches for the window, the UI or a clock; `ui` never imports
//! macroquad; `render` and `input` never import egui.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return files };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        } else if path.is_file() {
            // A lone file module such as src/input.rs is handled by the caller.
        }
    }
    files
}

fn module_files(name: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = rust_files(&root.join(name));
    let single = root.join(format!("{name}.rs"));
    if single.is_file() {
        files.push(single);
    }
    files
}

/// Lines of code (comments stripped) that mention any of `words` as a whole word.
fn offending_lines(files: &[PathBuf], words: &[&str]) -> Vec<String> {
    let mut hits = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in words {
                let found = code.match_indices(word).any(|(at, _)| {
                    let before = code[..at].chars().last();
                    let after = code[at + word.len()..].chars().next();
                    let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                    !is_ident(before) && !is_ident(after)
                });
                if found {
                    hits.push(format!("{}:{}: {}", file.display(), number + 1, line.trim()));
                }
            }
        }
    }
    hits
}

#[test]
fn pure_core_uses_no_window_ui_or_clock() {
    let forbidden = [
        "macroquad",
        "egui",
        "miniquad",
        "egui_plot",
        "quad_rand",
        "get_time",
        "get_frame_time",
        "screen_width",
        "screen_height",
        "Instant",
        "SystemTime",
        "thread_rng",
    ];
    let mut hits = Vec::new();
    for module in ["geometry", "behaviours", "planner", "sim", "scene", "app"] {
        hits.extend(offending_lines(&module_files(module), &forbidden));
    }
    assert!(hits.is_empty(), "the pure core must not use these:\n{}", hits.join("\n"));
}

#[test]
fn ui_never_imports_macroquad() {
    let hits = offending_lines(&module_files("ui"), &["macroquad", "miniquad"]);
    assert!(hits.is_empty(), "ui/ must not import macroquad:\n{}", hits.join("\n"));
}

#[test]
fn render_and_input_never_import_egui() {
    let mut files = module_files("render");
    files.extend(module_files("input"));
    let hits = offending_lines(&files, &["egui", "egui_plot", "egui_macroquad"]);
    assert!(hits.is_empty(), "render/ and input must not import egui:\n{}", hits.join("\n"));
}

#[test]
fn tidy_check_can_fail() {
    let dir = std::env::temp_dir().join(format!("steerlab-tidy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.rs");
    std::fs::write(
        &file,
        "use macroquad::prelude::*;\n// egui in a comment is fine\nlet t = Instant::now();\n",
    )
    .unwrap();
    let hits = offending_lines(&[file], &["macroquad", "egui", "Instant"]);
    assert_eq!(hits.len(), 2, "{hits:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unsafe_code_lives_only_in_the_fenced_module() {
    // The crate denies unsafe code (lib.rs and main.rs); behaviours/branchless.rs is the one
    // documented exception. Any other file that mentions it, or lifts the deny, is reported.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).unwrap();
    let main = std::fs::read_to_string(root.join("main.rs")).unwrap();
    assert!(lib.contains("#![deny(unsafe_code)]") && main.contains("#![deny(unsafe_code)]"));
    let exception = root.join("behaviours").join("branchless.rs");
    let others: Vec<PathBuf> = rust_files(&root).into_iter().filter(|p| *p != exception).collect();
    let offending = offending_lines(&others, &["unsafe", "allow(unsafe_code)"]);
    assert!(offending.is_empty(), "unsafe code outside behaviours/branchless.rs: {offending:#?}");
}
