//! Saving is atomic: a failed save writes nothing and leaves the old file as it was, a good save
//! replaces the file whole, and no temporary file is left behind either way.

use crate::scene_fixtures;
use crate::scratch::Scratch;

use std::fs;
use std::path::Path;

use steerlab::scene::{load_scene, parse_scene, save_scene, scene_to_json, world_to_scene};
use steerlab::sim::World;

use scene_fixtures::GEOMETRY_FREE_SCENE;

fn world() -> World {
    parse_scene(GEOMETRY_FREE_SCENE, "chase.json").unwrap()
}

#[test]
fn saving_into_a_missing_directory_fails_and_writes_nothing() {
    let scratch = Scratch::new("scene-save-missing-dir");
    let target = scratch.path("no/such/dir/scene.json");
    let err = save_scene(&world(), &target).unwrap_err();
    assert_eq!(err.file, target.display().to_string());
    assert_eq!((err.json_path.as_str(), err.line, err.column), ("$", 1, 1));
    assert!(!scratch.path("no").exists());
    assert!(scratch.names().is_empty());
}

#[test]
fn saving_over_an_existing_file_replaces_it_whole() {
    let scratch = Scratch::new("scene-save-replace");
    let target = scratch.path("scene.json");
    fs::write(&target, "x".repeat(100_000)).unwrap();
    let world = world();
    save_scene(&world, &target).unwrap();
    assert_eq!(fs::read_to_string(&target).unwrap(), scene_to_json(&world).unwrap());
    assert_eq!(world_to_scene(&load_scene(&target).unwrap()), world_to_scene(&world));
    assert_eq!(scratch.names(), ["scene.json"], "no temporary file is left");
}

#[test]
fn a_refused_save_leaves_the_old_file_untouched() {
    let scratch = Scratch::new("scene-save-refused");
    let target = scratch.path("scene.json");
    fs::write(&target, "the old contents").unwrap();
    let mut world = world();
    world.agents[0].limits.radius = -1.0;
    let err = save_scene(&world, &target).unwrap_err();
    assert_eq!(err.file, target.display().to_string());
    assert_eq!(err.json_path, "agents[0].radius");
    assert_eq!(err.reason, "`radius` must be from 0.5 to 500 u, got -1");
    assert_eq!(fs::read_to_string(&target).unwrap(), "the old contents");
    assert_eq!(scratch.names(), ["scene.json"]);
}

#[test]
fn saving_onto_a_directory_fails_and_cleans_up() {
    let scratch = Scratch::new("scene-save-onto-dir");
    let target = scratch.path("taken");
    fs::create_dir(&target).unwrap();
    assert!(save_scene(&world(), &target).is_err());
    assert!(target.is_dir());
    assert_eq!(scratch.names(), ["taken"], "no temporary file is left");
}

#[test]
fn saving_to_a_path_without_a_file_name_fails() {
    assert!(save_scene(&world(), Path::new("/")).is_err());
}

#[test]
fn loading_a_file_that_is_not_utf8_points_at_the_bad_byte() {
    let scratch = Scratch::new("scene-save-utf8");
    let target = scratch.path("latin1.json");
    fs::write(&target, b"{\n  \"name\": \"caf\xe9\"\n}").unwrap();
    let err = load_scene(&target).unwrap_err();
    assert_eq!((err.line, err.column), (2, 15));
    assert_eq!(err.reason, "the file is not valid UTF-8 text");
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let scratch = Scratch::new("scene-save-bom");
    let target = scratch.path("bom.json");
    fs::write(&target, format!("\u{feff}{GEOMETRY_FREE_SCENE}")).unwrap();
    assert_eq!(world_to_scene(&load_scene(&target).unwrap()), world_to_scene(&world()));
}

#[test]
fn saving_under_a_name_of_250_bytes_works_and_leaves_no_temporary() {
    // The temporary name used to be `.NAME.tmp-PID`, longer than the 255-byte limit.
    let scratch = Scratch::new("scene-save-long-name");
    let name = format!("{}.json", "s".repeat(245));
    let target = scratch.path(&name);
    save_scene(&world(), &target).unwrap();
    assert_eq!(scratch.names(), vec![name]);
    assert!(load_scene(&target).is_ok());
}

#[test]
fn an_export_dropped_before_commit_leaves_the_target_and_no_temporary() {
    use std::io::Write;
    let scratch = Scratch::new("scene-save-dropped");
    let target = scratch.path("trace.csv");
    fs::write(&target, "old").unwrap();
    let mut file = steerlab::scene::AtomicFile::create(&target).unwrap();
    file.write_all(b"new, half written").unwrap();
    assert_eq!(scratch.names().len(), 2, "the temporary exists while writing");
    drop(file);
    assert_eq!(fs::read_to_string(&target).unwrap(), "old");
    assert_eq!(scratch.names(), vec!["trace.csv".to_string()]);
}

#[test]
fn two_exports_to_one_target_use_distinct_temporaries() {
    use std::io::Write;
    let scratch = Scratch::new("scene-save-two-writers");
    let target = scratch.path("out.csv");
    let mut first = steerlab::scene::AtomicFile::create(&target).unwrap();
    let mut second = steerlab::scene::AtomicFile::create(&target).unwrap();
    first.write_all(b"first").unwrap();
    second.write_all(b"second").unwrap();
    first.commit().unwrap();
    second.commit().unwrap();
    assert_eq!(fs::read_to_string(&target).unwrap(), "second");
    assert_eq!(scratch.names(), vec!["out.csv".to_string()]);
}
