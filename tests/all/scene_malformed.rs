//! Every malformed scene in `tests/malformed/` is refused with the exact one-line error stored
//! beside it in `NAME.expected`, and that error's line and column point at the offending value.
//!
//! To add a case, write `NAME.json`, run with `SCENE_BLESS=1` to write `NAME.expected`, and read
//! the new file before committing it.

use std::fs;
use std::path::{Path, PathBuf};

use steerlab::scene::{load_scene, SceneError};

const DIR: &str = "tests/malformed";

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(DIR)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    cases.sort();
    cases
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

fn load_error(path: &Path) -> SceneError {
    match load_scene(path) {
        Ok(_) => panic!("{} loaded but should have been refused", path.display()),
        Err(err) => err,
    }
}

/// Compares the error with `NAME.expected`; returns a description of the mismatch, if any.
fn check_case(path: &Path) -> Option<String> {
    let err = load_error(path);
    let actual = err.to_string();
    let expected_path = path.with_extension("expected");
    if std::env::var_os("SCENE_BLESS").is_some() {
        fs::write(&expected_path, format!("{actual}\n")).unwrap();
        return None;
    }
    let expected = fs::read_to_string(&expected_path)
        .unwrap_or_else(|_| panic!("{} has no {}", path.display(), expected_path.display()));
    let expected = expected.trim_end_matches('\n');
    (actual != expected).then(|| format!("{}\n  expected: {expected}\n  actual:   {actual}", stem(path)))
}

#[test]
fn there_are_enough_malformed_cases() {
    assert!(cases().len() >= 24, "only {} malformed cases", cases().len());
}

#[test]
fn every_malformed_scene_gives_its_expected_error_line() {
    let mismatches: Vec<String> = cases().iter().filter_map(|path| check_case(path)).collect();
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn every_error_names_the_file_as_given() {
    for path in cases() {
        let path = &path;
        let err = load_error(path);
        assert_eq!(err.file, path.display().to_string());
        assert!(err.to_string().starts_with(&format!("{}: ", path.display())));
        assert!(!err.to_string().contains('\n'), "{err}");
    }
}

/// The text at the error's line and column starts with what the error is about: the value
/// for semantic errors, the key for unknown and duplicate keys, the object for missing fields.
#[test]
fn error_positions_point_at_the_offending_text() {
    let starts: [(&str, &str); 24] = [
        ("wrong_version", "3"),
        ("unknown_top_level_field", "\"gravity\""),
        ("unknown_agent_field", "\"colour\""),
        ("unknown_behaviour_type", "\"zigzag\""),
        ("unknown_behaviour_field", "\"target_radiu\""),
        ("missing_target_id", "{ \"position\": [-300"),
        ("missing_behaviour_target", "{ \"type\": \"seek\" }"),
        ("missing_path_reference", "\"trak\""),
        ("missing_curve", "\"eight\""),
        ("duplicate_path_id", "\"track\", \"points\": [[0, 100]"),
        ("duplicate_key", "\"radius\": -1"),
        ("negative_obstacle_radius", "-4"),
        ("zero_agent_radius", "0,"),
        ("negative_path_radius", "-20"),
        ("absurd_coordinate", "4000000000"),
        ("number_too_large_for_f32", "1e39"),
        ("non_finite_number", "1e999"),
        ("dt_rounds_to_zero", "5e-324"),
        ("vector_wrong_length", "[300, 200, 0, 1]"),
        ("string_for_number", "\"fast\""),
        ("bad_colour", "\"red\""),
        ("slow_radius_below_target_radius", "20 }"),
        ("iteration_limit_zero", "0 }"),
        ("bad_expression", "\"100*sin(2*t\""),
    ];
    for (name, start) in starts {
        let path = Path::new(DIR).join(format!("{name}.json"));
        let err = load_error(&path);
        let text = fs::read_to_string(&path).unwrap();
        let line = text.lines().nth(err.line - 1).unwrap_or_else(|| panic!("{name}: no line {}", err.line));
        let at: String = line.chars().skip(err.column - 1).collect();
        assert!(
            at.starts_with(start),
            "{name}: line {} column {} is `{at}`, expected `{start}`",
            err.line,
            err.column
        );
    }
}

#[test]
fn a_missing_file_is_an_io_error_at_the_root() {
    let err = load_scene(Path::new("tests/malformed/does_not_exist.json")).unwrap_err();
    assert_eq!(err.json_path, "$");
    assert_eq!((err.line, err.column), (1, 1));
    assert_eq!(err.to_string(), "cannot open tests/malformed/does_not_exist.json: no such file");
}
