//! No input makes reading a scene panic: random bytes, JSON-like noise, byte-level mutations of
//! a valid scene and structural mutations (a value replaced or removed) all give Ok or a
//! one-line error with a real position. Scenes that are still accepted after a mutation must
//! also survive a save and reload unchanged.

use crate::scene_fixtures;

use proptest::prelude::*;
use serde_json::{json, Value};
use steerlab::scene::{
    parse_scene, parse_scene_file, pretty_json, scene_to_json, world_to_scene, SceneError,
};

use scene_fixtures::{FULL_SCENE, GEOMETRY_FREE_SCENE};

fn check_error(err: &SceneError, text: &str) {
    assert!(err.line >= 1 && err.column >= 1, "{err}");
    assert!(err.line <= text.lines().count().max(1) + 1, "{err}");
    assert!(!err.to_string().contains('\n'), "{err:?}");
    assert!(!err.reason.is_empty() && !err.json_path.is_empty(), "{err:?}");
}

/// Values a mutation may put anywhere: wrong types, extremes, near-valid shapes.
fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_filter("JSON numbers are finite", |x| x.is_finite()).prop_map(|x| json!(x)),
        prop_oneof![Just(0.0), Just(-1.0), Just(1e39), Just(-1e7), Just(0.05), Just(20000.0)]
            .prop_map(|x| json!(x)),
        prop_oneof![
            Just("seek"),
            Just("planner"),
            Just("parametric"),
            Just("waypoints"),
            Just("flag"),
            Just("hare"),
            Just("#12345g"),
            Just("#abcdef"),
            Just(""),
            Just("circle"),
        ]
        .prop_map(|s| json!(s)),
        Just(json!([])),
        Just(json!([1, 2])),
        Just(json!([1, 2, 3, 4])),
        Just(json!([[0, 0]])),
        Just(json!({})),
        Just(json!({"type": "seek", "target": "flag"})),
        Just(json!({"type": "arrive", "target": "flag", "target_radius": 50})),
    ]
}

/// JSON pointers of every node.
fn pointers(value: &Value, prefix: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                pointers(child, format!("{prefix}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (idx, child) in items.iter().enumerate() {
                pointers(child, format!("{prefix}/{idx}"), out);
            }
        }
        _ => {}
    }
    out.push(prefix);
}

/// Replaces (or, with `remove`, deletes) the node at the `pick`-th pointer.
fn mutate(base: &str, pick: usize, remove: bool, with: Value) -> String {
    let mut value: Value = serde_json::from_str(base).unwrap();
    let mut all = Vec::new();
    pointers(&value, String::new(), &mut all);
    let pointer = all[pick % all.len()].clone();
    match pointer.rsplit_once('/') {
        Some((parent, last)) if remove => match value.pointer_mut(parent) {
            Some(Value::Object(map)) => {
                map.remove(&last.replace("~1", "/").replace("~0", "~"));
            }
            Some(Value::Array(items)) => {
                if let Ok(idx) = last.parse::<usize>() {
                    items.remove(idx);
                }
            }
            _ => {}
        },
        _ => {
            if let Some(node) = value.pointer_mut(&pointer) {
                *node = with;
            }
        }
    }
    pretty_json(&serde_json::to_string(&value).unwrap())
}

/// Byte-level damage: cut a range, or splice in a JSON fragment.
fn damage(base: &str, start: usize, len: usize, insert: &str) -> String {
    let bytes = base.as_bytes();
    let start = start % (bytes.len() + 1);
    let end = (start + len).min(bytes.len());
    let mut out = bytes[..start].to_vec();
    out.extend_from_slice(insert.as_bytes());
    out.extend_from_slice(&bytes[end..]);
    String::from_utf8_lossy(&out).into_owned()
}

fn fragment() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just(""),
        Just("{"),
        Just("}"),
        Just("["),
        Just("]"),
        Just(","),
        Just(":"),
        Just("\""),
        Just("\\u12"),
        Just("1e999"),
        Just("-1"),
        Just("null"),
        Just("\"x\": 1,"),
        Just("é"),
        Just("\u{0}"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(err) = parse_scene(&text, "random.json") {
            check_error(&err, &text);
        }
    }

    #[test]
    fn json_like_noise_never_panics(text in "[\\[\\]{}\":,0-9a-z .e\\-\\\\\n]{0,200}") {
        if let Err(err) = parse_scene(&text, "noise.json") {
            check_error(&err, &text);
        }
    }

    #[test]
    fn damaged_scene_text_never_panics(
        start in any::<usize>(),
        len in 0usize..20,
        insert in fragment(),
    ) {
        let text = damage(GEOMETRY_FREE_SCENE, start, len, insert);
        if let Err(err) = parse_scene(&text, "damaged.json") {
            check_error(&err, &text);
        }
        let text = damage(FULL_SCENE, start, len, insert);
        if let Err(err) = parse_scene_file(&text, "damaged.json") {
            check_error(&err, &text);
        }
    }

    #[test]
    fn mutated_geometry_free_scenes_load_or_fail_cleanly_and_accepted_ones_round_trip(
        pick in any::<usize>(),
        remove in proptest::bool::weighted(0.3),
        with in replacement(),
    ) {
        let text = mutate(GEOMETRY_FREE_SCENE, pick, remove, with);
        match parse_scene(&text, "mutated.json") {
            Err(err) => check_error(&err, &text),
            Ok(world) => {
                let saved = scene_to_json(&world).unwrap();
                let reloaded = parse_scene(&saved, "saved.json").unwrap();
                prop_assert_eq!(world_to_scene(&reloaded), world_to_scene(&world));
            }
        }
    }

    #[test]
    fn mutated_full_scenes_parse_or_fail_cleanly_and_accepted_ones_round_trip(
        pick in any::<usize>(),
        remove in proptest::bool::weighted(0.3),
        with in replacement(),
    ) {
        let text = mutate(FULL_SCENE, pick, remove, with);
        match parse_scene_file(&text, "mutated.json") {
            Err(err) => check_error(&err, &text),
            Ok(scene) => {
                let saved = pretty_json(&serde_json::to_string(&scene).unwrap());
                prop_assert_eq!(parse_scene_file(&saved, "saved.json").unwrap(), scene);
            }
        }
    }
}

#[test]
fn mutated_full_scenes_build_or_fail_cleanly() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(256));
    let strategy = (any::<usize>(), proptest::bool::weighted(0.3), replacement());
    runner
        .run(&strategy, |(pick, remove, with)| {
            let text = mutate(FULL_SCENE, pick, remove, with);
            match parse_scene(&text, "mutated.json") {
                Err(err) => check_error(&err, &text),
                Ok(world) => {
                    let saved = scene_to_json(&world).unwrap();
                    let reloaded = parse_scene(&saved, "saved.json").unwrap();
                    prop_assert_eq!(world_to_scene(&reloaded), world_to_scene(&world));
                }
            }
            Ok(())
        })
        .unwrap();
}
