//! The size limits of a scene (agents, paths, points, obstacles, curves, targets) and of a run:
//! one past each limit is refused with a message naming it; the limit itself loads.

use steerlab::scene::{
    parse_scene, scene_to_json, validate_scene, world_to_scene, MAX_AGENTS, MAX_BEHAVIOURS, MAX_OBSTACLES,
    MAX_PATHS, MAX_POINTS, MAX_TARGETS, MAX_WAYPOINTS,
};

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

/// A version-2 scene with one planner ship whose entry is `entry` (its fields in that order).
fn ship(entry: &str) -> String {
    format!(r#"{{"version":2,"agents":[{{"name":"ship","position":[0,0],"behaviours":[{entry}]}}]}}"#)
}

#[test]
fn a_planner_ship_past_its_waypoint_limit_is_refused_and_the_limit_loads() {
    let waypoints = |n: usize| (0..n).map(|i| format!("[{},5]", i % 500)).collect::<Vec<_>>().join(",");
    for n in [MAX_WAYPOINTS + 1, 10 * MAX_WAYPOINTS] {
        // Before and after the tag: the reader holds fields written before `type` too.
        for entry in [
            format!(r#"{{"type":"planner","waypoints":[{}]}}"#, waypoints(n)),
            format!(r#"{{"waypoints":[{}],"type":"planner"}}"#, waypoints(n)),
        ] {
            let err = parse_scene(&ship(&entry), "ship.json").map(|_| ()).unwrap_err();
            assert_eq!(err.json_path, "agents[0].behaviours[0].waypoints", "{err}");
            assert_eq!(
                err.reason,
                format!("too many waypoints: a planner ship holds at most {MAX_WAYPOINTS}")
            );
            assert!(err
                .to_string()
                .starts_with("ship.json: agents[0].behaviours[0].waypoints (line 1, column "));
        }
    }
    // Version 1 holds the same list.
    let v1 = format!(
        r#"{{"version":1,"agents":[{{"position":[0,0],"behaviour":{{"type":"planner","waypoints":[{}]}}}}]}}"#,
        waypoints(MAX_WAYPOINTS + 1)
    );
    assert_eq!(
        parse_scene(&v1, "v1.json").map(|_| ()).unwrap_err().json_path,
        "agents[0].behaviour.waypoints"
    );
    // The limit itself loads, runs and saves.
    let at_limit = format!(r#"{{"type":"planner","waypoints":[{}]}}"#, waypoints(MAX_WAYPOINTS));
    let mut world = parse_scene(&ship(&at_limit), "ship.json").unwrap();
    for _ in 0..10 {
        world.step();
    }
    assert!(world.agents[0].kinematics.position.is_finite());
    assert!(parse_scene(&scene_to_json(&world).unwrap(), "again.json").is_ok());
}

#[test]
fn an_agents_behaviour_list_past_its_limit_is_refused_and_the_limit_loads() {
    let list = |n: usize| vec![r#"{"type":"wander"}"#; n].join(",");
    for n in [MAX_BEHAVIOURS + 1, 100_000] {
        let err = parse_scene(&ship(&list(n)), "list.json").map(|_| ()).unwrap_err();
        assert_eq!(err.json_path, "agents[0].behaviours", "{err}");
        assert_eq!(
            err.reason,
            format!("too many behaviours: an agent's list holds at most {MAX_BEHAVIOURS}")
        );
        assert!(err.to_string().starts_with("list.json: agents[0].behaviours (line 1, column "), "{err}");
    }
    let mut world = parse_scene(&ship(&list(MAX_BEHAVIOURS)), "list.json").unwrap();
    assert_eq!(world.agents[0].mix.more.len() + 1, MAX_BEHAVIOURS);
    for _ in 0..10 {
        world.step();
    }
    assert!(world.agents[0].kinematics.position.is_finite());
    // A scene built in code past the limit is refused by validation (saving validates first).
    let mut scene = world_to_scene(&world);
    let extra = scene.agents[0].behaviours[1].clone();
    scene.agents[0].behaviours.push(extra);
    let (path, reason) = validate_scene(&scene).unwrap_err();
    assert_eq!((path.as_str(), reason.starts_with("too many behaviours")), ("agents[0].behaviours", true));
}

#[test]
fn planner_waypoints_count_toward_the_points_total() {
    let scene = |extra: usize| {
        format!(
            r#"{{"version":2,"paths":[{{"id":"a","points":[{}]}}],"agents":[{{"name":"s","position":[0,0],"behaviours":[{{"type":"wander"}},{{"type":"planner","waypoints":[{}]}}]}}]}}"#,
            repeated("[0,0]", MAX_POINTS - 10),
            repeated("[1,0]", 10 + extra)
        )
    };
    let err = parse_scene(&scene(1), "pts.json").map(|_| ()).unwrap_err();
    assert_eq!(err.json_path, "agents[0].behaviours[1].waypoints");
    assert!(err.reason.contains(&format!("at most {MAX_POINTS} in all")), "{err}");
    assert!(parse_scene(&scene(0), "pts.json").is_ok());
}
