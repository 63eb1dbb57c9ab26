//! Every integration test in one binary: each test file is a module here, so the suite links
//! macroquad and egui once instead of once per file. Shared helpers live in `scene_fixtures` and
//! `ui_support`.

mod behav_flocking;
mod behav_props;
mod behav_units;
mod e2e_window;
mod p3d_app;
mod p3d_fire;
mod p3d_ui;
mod params_declared;
mod paths_behaviours;
mod paths_local;
mod paths_props;
mod planner_checker;
mod planner_degenerate;
mod planner_dense;
mod planner_index;
mod planner_index_cache;
mod planner_ship;
mod planner_walkthrough;
mod robust_cli;
mod robust_expr;
mod robust_fuzz;
mod scene_fixtures;
mod scene_malformed;
mod scene_no_panic;
mod scene_roundtrip;
mod scene_save;
mod scenes;
mod tidy;
mod ui_commands;
mod ui_logic;
mod ui_panels;
mod ui_scenes;
mod ui_support;
