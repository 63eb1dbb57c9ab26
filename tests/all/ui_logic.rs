//! Tests of the UI's pure helpers: behaviour parameters as data, the metrics CSV and table
//! sorting, the expression validator, the file dialog's listing, output merging.

use glam::Vec3;
use steerlab::app::{BehaviourKind, Command, ShellCommand};
use steerlab::behaviours::{
    FlockingParams, OffsetPursuitParams, ParametricMethod, PursuitParams, WanderParams,
};
use steerlab::sim::{
    ArriveParams, Behaviour, MetricsSummary, ParametricMetrics, ParametricParams, PathMetrics,
    PlannerMetrics, PlannerParams, PredictiveParams, ProjectedParams, WaypointsParams,
};
use steerlab::ui::file_dialog::{list_dir, DirEntry, FileDialog, FileDialogMode};
use steerlab::ui::metrics::{sorted_rows, visible_columns};
use steerlab::ui::params::with_reference;
use steerlab::ui::{
    behaviour_params, metrics_csv, one_line, param_command, validate_expr_curve, with_param, MetricColumn,
    ParamValue, UiOutput,
};

fn one_of_each() -> Vec<Behaviour> {
    vec![
        Behaviour::Seek { target: 0 },
        Behaviour::Flee { target: 0 },
        Behaviour::Arrive { target: 0, params: ArriveParams::default() },
        Behaviour::Parametric { curve: 0, params: ParametricParams::default() },
        Behaviour::Waypoints { path: 0, params: WaypointsParams::default() },
        Behaviour::Projected { path: 0, params: ProjectedParams::default() },
        Behaviour::Predictive { path: 0, params: PredictiveParams::default() },
        Behaviour::Planner {
            params: Box::new(PlannerParams { waypoints: vec![Vec3::X * 100.0], ..PlannerParams::default() }),
        },
        Behaviour::Pursuit { agent: 0, params: PursuitParams::default() },
        Behaviour::Evade { agent: 0, params: PursuitParams::default() },
        Behaviour::Wander { params: WanderParams::default() },
        Behaviour::Flocking { params: FlockingParams::default() },
        Behaviour::OffsetPursuit { agent: 0, params: OffsetPursuitParams::default() },
        Behaviour::FlowField {
            path: None,
            field: None,
            params: steerlab::behaviours::FlowFieldParams::default(),
        },
        Behaviour::FlowField {
            path: Some(0),
            field: None,
            params: steerlab::behaviours::FlowFieldParams::default(),
        },
        Behaviour::FlowField {
            path: None,
            field: Some(0),
            params: steerlab::behaviours::FlowFieldParams::default(),
        },
        Behaviour::LeaderFollowing { agent: 0, params: Default::default() },
        Behaviour::Interpose { agent: 0, other: 1, params: Default::default() },
        Behaviour::Hide { agent: 0, params: Default::default() },
    ]
}

/// A different value of the same type inside the spec's range.
fn other_value(value: ParamValue, range: (f32, f32)) -> ParamValue {
    match value {
        ParamValue::Float(v) => ParamValue::Float(if v == range.1 { range.0 } else { (v + range.1) * 0.5 }),
        ParamValue::Int(v) => ParamValue::Int(if v == range.1 as u32 { range.0 as u32 } else { v + 1 }),
        ParamValue::Bool(v) => ParamValue::Bool(!v),
        ParamValue::Method(ParametricMethod::Secant) => ParamValue::Method(ParametricMethod::ArcLength),
        ParamValue::Method(ParametricMethod::ArcLength) => ParamValue::Method(ParametricMethod::Secant),
    }
}

#[test]
fn every_behaviour_kind_is_covered_and_defaults_are_the_current_values() {
    let behaviours = one_of_each();
    let kinds: Vec<BehaviourKind> = behaviours.iter().map(BehaviourKind::of).collect();
    assert_eq!(kinds, BehaviourKind::ALL.to_vec());
    let counts: Vec<usize> = behaviours.iter().map(|b| behaviour_params(b).len()).collect();
    assert_eq!(counts, vec![0, 0, 4, 4, 2, 1, 2, 8, 1, 1, 4, 6, 4, 3, 2, 1, 5, 1, 2]);
    for behaviour in &behaviours {
        for spec in behaviour_params(behaviour) {
            assert_eq!(spec.value, spec.default, "{} of {}", spec.key, behaviour.type_name());
            assert!(!spec.doc.is_empty() && !spec.label.is_empty());
            if let ParamValue::Float(v) = spec.value {
                assert!(
                    v >= spec.range.0 && v <= spec.range.1,
                    "{} default inside its slider range",
                    spec.key
                );
            }
        }
    }
}

#[test]
fn changing_any_parameter_returns_set_behaviour_with_only_that_parameter_changed() {
    for behaviour in one_of_each() {
        for spec in behaviour_params(&behaviour) {
            let value = other_value(spec.value, spec.range);
            let command = param_command(5, &behaviour, spec.key, value).expect("a change makes a command");
            let Command::SetBehaviour { agent, behaviour: changed } = command else {
                panic!("not SetBehaviour")
            };
            assert_eq!(agent, 5);
            for after in behaviour_params(&changed) {
                let expected =
                    if after.key == spec.key { value } else { before_value(&behaviour, after.key) };
                assert_eq!(after.value, expected, "{} after setting {}", after.key, spec.key);
            }
            assert_eq!(
                with_param(&changed, spec.key, spec.value),
                Some(behaviour.clone()),
                "setting it back restores"
            );
        }
    }
}

fn before_value(behaviour: &Behaviour, key: &str) -> ParamValue {
    behaviour_params(behaviour).into_iter().find(|s| s.key == key).map(|s| s.value).unwrap()
}

#[test]
fn setting_the_same_value_makes_no_command() {
    let behaviour = Behaviour::Arrive { target: 1, params: ArriveParams::default() };
    assert_eq!(param_command(0, &behaviour, "slow_radius", ParamValue::Float(80.0)), None);
}

#[test]
fn unknown_keys_wrong_types_and_non_finite_values_are_refused() {
    let arrive = Behaviour::Arrive { target: 0, params: ArriveParams::default() };
    assert_eq!(with_param(&arrive, "offset", ParamValue::Float(3.0)), None);
    assert_eq!(with_param(&arrive, "slow_radius", ParamValue::Bool(true)), None);
    assert_eq!(with_param(&arrive, "slow_radius", ParamValue::Float(f32::NAN)), None);
    assert_eq!(with_param(&Behaviour::Seek { target: 0 }, "speed", ParamValue::Float(1.0)), None);
    let planner = Behaviour::Planner { params: Box::default() };
    assert_eq!(with_param(&planner, "iteration_limit", ParamValue::Float(3.0)), None);
}

#[test]
fn a_slider_edit_of_predictive_prediction_time_is_exact() {
    let behaviour = Behaviour::Predictive { path: 2, params: PredictiveParams::default() };
    let command = param_command(1, &behaviour, "prediction_time", ParamValue::Float(1.25));
    let expected = Behaviour::Predictive {
        path: 2,
        params: PredictiveParams { prediction_time: 1.25, path_radius: 20.0 },
    };
    assert_eq!(command, Some(Command::SetBehaviour { agent: 1, behaviour: expected }));
}

#[test]
fn with_reference_changes_the_followed_thing_and_keeps_parameters() {
    let params = WaypointsParams { node_radius: 33.0, closest_node: true };
    assert_eq!(
        with_reference(&Behaviour::Waypoints { path: 0, params }, 3),
        Behaviour::Waypoints { path: 3, params }
    );
    assert_eq!(with_reference(&Behaviour::Flee { target: 0 }, 2), Behaviour::Flee { target: 2 });
    let planner = Behaviour::Planner { params: Box::default() };
    assert_eq!(with_reference(&planner, 4), planner);
}

fn summary(name: &str, behaviour: &str, distance: f32) -> MetricsSummary {
    MetricsSummary {
        name: name.into(),
        behaviour: behaviour.into(),
        final_position: Vec3::new(1.5, -2.0, 0.0),
        distance_travelled: distance,
        mean_speed: 10.0,
        max_speed: 20.0,
        collisions: 1,
        min_clearance: None,
        arrived_at: None,
        path: None,
        parametric: None,
        planner: None,
        crowd: None,
        pursuit: None,
        formation: None,
        hide: None,
        leader: None,
    }
}

#[test]
fn metrics_csv_has_a_header_and_one_row_per_agent() {
    let mut follower = summary("pred, \"fast\"", "predictive", 100.0);
    follower.path = Some(PathMetrics { mean_cross_track: 2.5, backtracks: 3, ..PathMetrics::default() });
    follower.arrived_at = Some(4.5);
    let mut ship = summary("ship", "planner", 50.0);
    ship.planner = Some(PlannerMetrics { iterations: 7, plan_time_us: None, ..PlannerMetrics::default() });
    let mut curve = summary("curve", "parametric", 10.0);
    curve.parametric = Some(ParametricMetrics { speed_error_mean: 0.25, speed_error_max: 0.5 });
    let csv = metrics_csv(&[follower, ship, curve]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(
        lines[0],
        "name,behaviour,final_x,final_y,final_z,distance_travelled,mean_speed,max_speed,collisions,min_clearance,\
         arrived_at,mean_cross_track,max_cross_track,time_outside_radius,progress,backtracks,skips,speed_error_mean,\
         speed_error_max,plan_time_us,iterations,replans,waypoints_reached,planned_length,straight_length,\
         agent_collisions,min_agent_gap,mean_nearest_neighbour,alignment,polarization,capture_time,mean_slot_error,max_slot_error,\
         time_seen,mean_hunter_distance,min_leader_gap"
    );
    assert_eq!(
        lines[1],
        "\"pred, \"\"fast\"\"\",predictive,1.5,-2,0,100,10,20,1,,4.5,2.5,0,0,0,3,0,,,,,,,,,,,,,,,,,,,"
    );
    assert_eq!(lines[2], "ship,planner,1.5,-2,0,50,10,20,1,,,,,,,,,,,,7,0,0,0,0,,,,,,,,,,,");
    assert_eq!(lines[3], "curve,parametric,1.5,-2,0,10,10,20,1,,,,,,,,,0.25,0.5,,,,,,,,,,,,,,,,,");
    let columns = lines[0].split(',').count();
    assert_eq!(columns, 36);
}

#[test]
fn metrics_csv_of_no_agents_is_just_the_header() {
    let csv = metrics_csv(&[]);
    assert_eq!(csv.lines().count(), 1);
    assert!(csv.starts_with("name,behaviour,final_x"));
}

#[test]
fn path_planner_and_parametric_columns_appear_only_when_some_agent_has_them() {
    let plain = vec![summary("a", "seek", 1.0)];
    let columns = visible_columns(&plain);
    assert_eq!(columns.len(), 9);
    assert!(!columns.contains(&MetricColumn::MeanCrossTrack));
    let mut follower = summary("b", "projected", 2.0);
    follower.path = Some(PathMetrics::default());
    let columns = visible_columns(&[plain[0].clone(), follower]);
    assert_eq!(columns.len(), 15);
    assert!(columns.contains(&MetricColumn::Skips) && !columns.contains(&MetricColumn::Iterations));
}

#[test]
fn sorting_by_a_column_orders_rows_both_ways_with_missing_values_last() {
    let mut rows = vec![summary("b", "seek", 5.0), summary("a", "seek", 9.0), summary("c", "seek", 1.0)];
    assert_eq!(sorted_rows(&rows, None), vec![0, 1, 2]);
    assert_eq!(sorted_rows(&rows, Some((MetricColumn::DistanceTravelled, false))), vec![2, 0, 1]);
    assert_eq!(sorted_rows(&rows, Some((MetricColumn::DistanceTravelled, true))), vec![1, 0, 2]);
    assert_eq!(sorted_rows(&rows, Some((MetricColumn::Name, false))), vec![1, 0, 2]);
    rows[0].arrived_at = Some(3.0);
    rows[2].arrived_at = Some(1.0);
    assert_eq!(sorted_rows(&rows, Some((MetricColumn::ArrivedAt, false))), vec![2, 0, 1]);
    assert_eq!(sorted_rows(&rows, Some((MetricColumn::ArrivedAt, true))), vec![0, 2, 1]);
}

#[test]
fn the_expression_validator_names_the_bad_component() {
    let err = validate_expr_curve("2*", "sin(t)", "0", "0", "6.28").unwrap_err();
    assert!(err.starts_with("bad expression for x"), "{err}");
    let err = validate_expr_curve("t", "sin(", "0", "0", "6.28").unwrap_err();
    assert!(err.starts_with("bad expression for y"), "{err}");
}

#[test]
fn the_expression_validator_accepts_a_good_curve_and_checks_the_range() {
    let kind = validate_expr_curve(" 200*cos(t)", "100*sin(2*t)", "0", "0", "6.5").unwrap();
    assert_eq!(
        kind,
        steerlab::geometry::CurveKind::Expr {
            x: "200*cos(t)".into(),
            y: "100*sin(2*t)".into(),
            z: "0".into(),
            t_min: 0.0,
            t_max: 6.5
        }
    );
}

#[test]
fn the_expression_validator_refuses_bad_parameter_ranges_before_parsing() {
    assert!(validate_expr_curve("t", "t", "0", "abc", "1")
        .unwrap_err()
        .starts_with("t_min must be a finite number"));
    assert!(validate_expr_curve("t", "t", "0", "0", "inf")
        .unwrap_err()
        .starts_with("t_max must be a finite number"));
    assert!(validate_expr_curve("t", "t", "0", "2", "1").unwrap_err().contains("greater than t_min"));
}

#[test]
fn pasted_line_breaks_are_removed_and_nothing_else() {
    assert_eq!(one_line("200*cos(t)\r\n"), "200*cos(t)");
    assert_eq!(one_line("a\nb  c\t"), "ab  c\t");
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("steerlab-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::create_dir_all(dir.join(".hidden")).unwrap();
    for file in ["b.json", "A.JSON", "notes.txt", "metrics.csv"] {
        std::fs::write(dir.join(file), "{}").unwrap();
    }
    dir
}

#[test]
fn the_file_dialog_lists_folders_first_then_matching_files() {
    let dir = scratch_dir("list");
    let entries = list_dir(&dir, "json").unwrap();
    let expected = vec![
        DirEntry { name: "sub".into(), is_dir: true },
        DirEntry { name: "A.JSON".into(), is_dir: false },
        DirEntry { name: "b.json".into(), is_dir: false },
    ];
    assert_eq!(entries, expected);
    let csv: Vec<String> = list_dir(&dir, "csv").unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(csv, vec!["sub".to_string(), "metrics.csv".to_string()]);
    assert!(list_dir(&dir.join("missing"), "json").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_file_dialog_adds_the_extension_when_saving_and_needs_a_listed_file_when_opening() {
    let dir = scratch_dir("choose");
    let mut save = FileDialog::new(FileDialogMode::Save, dir.clone(), "track");
    assert_eq!(save.chosen_path().unwrap().file_name().unwrap(), "track.json");
    save.file_name = "  ".into();
    assert!(save.chosen_path().is_err());
    let mut open = FileDialog::new(FileDialogMode::Open, dir.clone(), "");
    assert!(open.chosen_path().is_err());
    open.file_name = "b.json".into();
    assert!(open.chosen_path().unwrap().ends_with("b.json"));
    open.file_name = "notes.txt".into();
    assert!(open.chosen_path().is_err());
    open.change_dir(dir.join("sub"));
    assert!(open.entries.is_empty());
    open.go_up();
    assert_eq!(open.entries.len(), 3);
    let export = FileDialog::new(FileDialogMode::ExportCsv, dir.clone(), "out");
    assert_eq!(export.chosen_path().unwrap().file_name().unwrap(), "out.csv");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An audit: `scene.json` typed into Export CSV wrote the metrics table over the scene (and a
/// scene saved as `notes.txt` could not be opened again): a typed name takes the dialog's own
/// extension unless it already has it.
#[test]
fn a_typed_name_with_another_extension_gets_the_dialogs_own_so_nothing_else_is_overwritten() {
    let dir = scratch_dir("extensions");
    let mut export = FileDialog::new(FileDialogMode::ExportCsv, dir.clone(), "out");
    export.file_name = "scene.json".into();
    assert_eq!(export.chosen_path().unwrap().file_name().unwrap(), "scene.json.csv");
    export.file_name = "table.CSV".into();
    assert_eq!(export.chosen_path().unwrap().file_name().unwrap(), "table.CSV");
    let mut save = FileDialog::new(FileDialogMode::Save, dir.clone(), "track");
    save.file_name = "metrics.csv".into();
    assert_eq!(save.chosen_path().unwrap().file_name().unwrap(), "metrics.csv.json");
    save.file_name = "run v1.2".into();
    assert_eq!(save.chosen_path().unwrap().file_name().unwrap(), "run v1.2.json");
    save.file_name = "Track.JSON".into();
    assert_eq!(save.chosen_path().unwrap().file_name().unwrap(), "Track.JSON");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A whole path typed into the folder field: a file's path lists its folder with the name
/// filled in (Open then takes it; Save takes a new name in an existing folder); a folder's path
/// lists the folder; a relative path is read from the folder shown. An audit typed a scene's
/// full path there and got "Not a directory".
#[test]
fn a_file_path_typed_into_the_folder_field_chooses_the_file() {
    let dir = scratch_dir("typed");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub").join("deep.json"), "{}").unwrap();
    let mut open = FileDialog::new(FileDialogMode::Open, dir.join("sub"), "");
    let typed = dir.join("b.json");
    assert!(open.go_to_typed(typed.to_str().unwrap()));
    assert_eq!(open.file_name, "b.json");
    assert!(open.error.is_none(), "{:?}", open.error);
    assert_eq!(open.chosen_path().unwrap(), std::fs::canonicalize(&dir).unwrap().join("b.json"));
    assert!(open.go_to_typed("sub/deep.json"), "relative to the folder shown");
    assert!(open.chosen_path().unwrap().ends_with("sub/deep.json"));
    assert!(!open.go_to_typed(dir.to_str().unwrap()), "a folder is listed, not chosen");
    assert!(open.lists_file("b.json"));
    let mut save = FileDialog::new(FileDialogMode::Save, dir.clone(), "track");
    assert!(save.go_to_typed(dir.join("sub").join("new-name").to_str().unwrap()));
    assert!(save.chosen_path().unwrap().ends_with("sub/new-name.json"));
    assert!(!save.go_to_typed(dir.join("missing").join("x.json").to_str().unwrap()));
    assert!(save.error.is_some(), "a folder that is not there says so");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merging_outputs_keeps_both_passes_commands_and_flags() {
    let mut first = UiOutput { commands: vec![Command::Step] };
    first.shell(ShellCommand::Exit);
    let mut second =
        UiOutput { commands: vec![Command::Reset, Command::SetNewAgentKind(BehaviourKind::Seek)] };
    second.shell(ShellCommand::WriteScene("a.json".into()));
    first.merge(second);
    assert_eq!(
        first.commands,
        vec![
            Command::Step,
            Command::Shell(ShellCommand::Exit),
            Command::Reset,
            Command::SetNewAgentKind(BehaviourKind::Seek),
            Command::Shell(ShellCommand::WriteScene("a.json".into())),
        ]
    );
    assert!(first.quit());
    assert_eq!(first.save_path(), Some("a.json".into()));
    first.merge(UiOutput::default());
    assert_eq!(first.save_path(), Some("a.json".into()), "an empty pass keeps earlier values");
    // A later load replaces an earlier one, as the shell carries them out in order.
    first.shell(ShellCommand::Load("one.json".into()));
    first.shell(ShellCommand::Load("two.json".into()));
    assert_eq!(first.open_path(), Some("two.json".into()));
}

#[test]
fn recent_files_move_to_the_front_without_duplicates_and_are_capped() {
    let mut state = steerlab::ui::UiState::default();
    for i in 0..12 {
        state.note_recent(format!("{i}.json").into());
    }
    state.note_recent("5.json".into());
    assert_eq!(state.recent.len(), steerlab::ui::RECENT_LIMIT);
    assert_eq!(state.recent[0], std::path::PathBuf::from("5.json"));
    assert_eq!(state.recent.iter().filter(|p| p.ends_with("5.json")).count(), 1);
}

/// `n` agents seeking one target, spread on a line (a crowd for the metrics cache).
fn seeking_crowd(n: usize) -> steerlab::app::App {
    let agents: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "name": format!("a{i}"),
                "position": [i as f32 * 3.0, 50.0],
                "behaviour": { "type": if i % 2 == 0 { "seek" } else { "flee" }, "target": "t" },
            })
        })
        .collect();
    let text = serde_json::json!({
        "version": 1, "name": "crowd", "targets": [{ "id": "t", "position": [0, 0] }], "agents": agents,
    })
    .to_string();
    let world = steerlab::scene::parse_scene(&text, "crowd.json").expect("scene");
    steerlab::app::App::new(world, None)
}

#[test]
fn a_small_scenes_metrics_table_is_recomputed_every_frame() {
    use steerlab::ui::metrics::{MetricsCache, MetricsTable};
    let mut app = seeking_crowd(30);
    let mut cache = MetricsCache::default();
    for frame in 0..5 {
        app.step_once();
        let table = cache.table(&app, None, 0.01 * f64::from(frame)).clone();
        assert_eq!(table, MetricsTable::compute(&app, None), "frame {frame}");
        assert_eq!(table.steps, app.world.steps);
    }
}

#[test]
fn a_huge_crowds_metrics_table_is_refreshed_less_often_in_proportion_to_its_size() {
    use steerlab::ui::metrics::{crowd_refresh_seconds, CROWD_REFRESH_AGENTS, CROWD_REFRESH_SECONDS};
    assert_eq!(crowd_refresh_seconds(2_100), CROWD_REFRESH_SECONDS);
    assert_eq!(crowd_refresh_seconds(CROWD_REFRESH_AGENTS), CROWD_REFRESH_SECONDS);
    assert_eq!(crowd_refresh_seconds(5 * CROWD_REFRESH_AGENTS), 5.0 * CROWD_REFRESH_SECONDS);
    // The cache follows it: a 100,000-agent table taken at t = 10 s is still the one shown
    // 1 s later, and is recomputed once the interval has passed.
    let mut app = seeking_crowd(5 * CROWD_REFRESH_AGENTS);
    let mut cache = steerlab::ui::metrics::MetricsCache::default();
    app.step_once();
    let first = cache.table(&app, None, 10.0).clone();
    app.step_once();
    assert_eq!(cache.table(&app, None, 11.0), &first);
    assert_eq!(cache.table(&app, None, 10.0 + 5.0 * CROWD_REFRESH_SECONDS).steps, app.world.steps);
}

#[test]
fn a_crowds_metrics_table_shows_the_values_of_the_time_it_names_until_it_is_due() {
    use steerlab::ui::metrics::{MetricsCache, MetricsTable, CROWD_REFRESH_SECONDS, LIVE_TABLE_AGENTS};
    let mut app = seeking_crowd(LIVE_TABLE_AGENTS + 100);
    let mut cache = MetricsCache::default();
    app.step_once();
    let first = MetricsTable::compute(&app, None);
    assert_eq!(cache.table(&app, None, 10.0), &first);
    // Between refreshes the table is the one taken at the time it says, not a mix.
    for _ in 0..3 {
        app.step_once();
    }
    let later = MetricsTable::compute(&app, None);
    assert_ne!(later, first, "stepping changed the values (the test is not vacuous)");
    let shown = cache.table(&app, None, 10.0 + CROWD_REFRESH_SECONDS * 0.5).clone();
    assert_eq!(shown, first);
    assert_eq!(shown.time, first.time);
    // Due: the values now.
    assert_eq!(cache.table(&app, None, 10.0 + CROWD_REFRESH_SECONDS), &later);
    // A sort, a reset or a removed agent make the old table wrong: recomputed at once.
    let sort = Some((MetricColumn::DistanceTravelled, true));
    let sorted = cache.table(&app, sort, 10.0 + CROWD_REFRESH_SECONDS).clone();
    assert_eq!(sorted, MetricsTable::compute(&app, sort));
    assert_ne!(sorted.rows.first().map(|r| r.0), later.rows.first().map(|r| r.0), "the sort reordered rows");
    app.world.reset();
    assert_eq!(cache.table(&app, sort, 10.0 + CROWD_REFRESH_SECONDS), &MetricsTable::compute(&app, sort));
    app.step_once();
    app.world.agents.pop();
    app.world.reset();
    app.step_once();
    let table = cache.table(&app, sort, 10.0 + CROWD_REFRESH_SECONDS).clone();
    assert_eq!(table.agents, LIVE_TABLE_AGENTS + 99);
    assert_eq!(table, MetricsTable::compute(&app, sort));
}

#[test]
fn metric_tooltips_write_lengths_and_speeds_as_the_rest_of_the_window_does() {
    // The parameter rows, plots and inspector write "u" and "u/s"; the metric columns'
    // tooltips say the same, and every column that is a length or a speed names its unit.
    for column in MetricColumn::ALL {
        let doc = column.doc();
        assert!(!doc.contains("units"), "{column:?}: {doc}");
    }
    for column in [
        MetricColumn::FinalPosition,
        MetricColumn::DistanceTravelled,
        MetricColumn::MinClearance,
        MetricColumn::MeanCrossTrack,
        MetricColumn::MaxCrossTrack,
        MetricColumn::Progress,
        MetricColumn::PlannedLength,
        MetricColumn::MinAgentGap,
        MetricColumn::MeanNearestNeighbour,
        MetricColumn::MeanSlotError,
        MetricColumn::MinLeaderGap,
    ] {
        let doc = column.doc();
        assert!(doc.contains("(u") || doc.contains(", u)"), "{column:?}: {doc}");
    }
    for column in [MetricColumn::MeanSpeed, MetricColumn::MaxSpeed] {
        assert!(column.doc().contains("(u/s)"), "{column:?}");
    }
}

#[test]
fn the_plots_say_which_agents_they_leave_out_of_a_big_crowd() {
    let cap = steerlab::app::HISTORY_AGENTS;
    assert_eq!(steerlab::ui::plots::plotted_note(cap), None);
    assert_eq!(steerlab::ui::plots::plotted_note(3), None);
    let note = steerlab::ui::plots::plotted_note(1024).unwrap();
    assert_eq!(note, format!("the first {cap} of 1024 agents are plotted"));
}
