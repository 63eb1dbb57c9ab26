//! The size limits of a scene (agents, paths, points, obstacles, curves, targets) and of a run:
//! one past each limit is refused with a message naming it; the limit itself loads.

use steerlab::scene::{parse_scene, MAX_AGENTS, MAX_OBSTACLES, MAX_PATHS, MAX_POINTS, MAX_TARGETS};

fn repeated(item: &str, count: usize) -> String {
    vec![item; count].join(",")
}

#[test]
fn one_agent_past_the_limit_is_refused_and_the_limit_loads() {
    let agent = r#"{"position":[0,0],"behaviour":{"type":"seek","target":"t"}}"#;
    let scene = |n: usize| {
        format!(
            r#"{{"version":1,"targets":[{{"id":"t","position":[1,1]}}],"agents":[{}]}}"#,
            repeated(agent, n)
        )
    };
    let err = parse_scene(&scene(MAX_AGENTS + 1), "big.json").map(|_| ()).unwrap_err();
    assert_eq!(err.json_path, "agents");
    assert_eq!(err.reason, format!("too many agents: {}, at most {MAX_AGENTS}", MAX_AGENTS + 1));
    assert_eq!(parse_scene(&scene(MAX_AGENTS), "big.json").unwrap().agents.len(), MAX_AGENTS);
}

#[test]
fn lists_past_their_limits_are_refused_by_name() {
    let obstacles = format!(
        r#"{{"version":1,"obstacles":[{}]}}"#,
        repeated(r#"{"position":[0,0],"radius":1}"#, MAX_OBSTACLES + 1)
    );
    let err = parse_scene(&obstacles, "o.json").map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("obstacles (line 1, column 26): too many obstacles"), "{err}");
    let paths = format!(
        r#"{{"version":1,"paths":[{}]}}"#,
        (0..=MAX_PATHS)
            .map(|i| format!(r#"{{"id":"p{i}","points":[[0,0],[1,0]]}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert!(parse_scene(&paths, "p.json").map(|_| ()).unwrap_err().reason.starts_with("too many paths"));
    let targets = format!(
        r#"{{"version":1,"targets":[{}]}}"#,
        (0..=MAX_TARGETS)
            .map(|i| format!(r#"{{"id":"t{i}","position":[0,0]}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert!(parse_scene(&targets, "t.json").map(|_| ()).unwrap_err().reason.starts_with("too many targets"));
}

#[test]
fn points_past_the_total_are_refused_at_the_path_that_crosses_it() {
    let half = MAX_POINTS / 2;
    let scene = |extra: usize| {
        format!(
            r#"{{"version":1,"paths":[{{"id":"a","points":[{}]}},{{"id":"b","points":[{}]}}]}}"#,
            repeated("[0,0]", half),
            repeated("[1,0]", MAX_POINTS - half + extra)
        )
    };
    let err = parse_scene(&scene(1), "pts.json").map(|_| ()).unwrap_err();
    assert_eq!(err.json_path, "paths[1].points");
    assert!(err.reason.contains(&format!("at most {MAX_POINTS} in all")), "{err}");
    assert!(parse_scene(&scene(0), "pts.json").is_ok());
}
