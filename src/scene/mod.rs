//! Scene files, version 1: a versioned JSON format of its own ([`SceneFile`]) and its conversion
//! to and from the live [`crate::sim::World`], which is never serialised itself.
//!
//! The format is the one in design.md ("Scene format, version 1"). `format` holds the types,
//! `validate` the checks, `convert` the conversion, `locate` the line and column finder, `pretty`
//! the saved layout, and `io` the only code that touches files. Reading rejects a bad file as a
//! whole with one [`SceneError`]; nothing is half-loaded.
//!
//! # Defaults
//!
//! | where | field | default |
//! | --- | --- | --- |
//! | scene | `name`, `description` | `""` |
//! | scene | `dt` | 1/60 s |
//! | scene | `paths`, `curves`, `targets`, `obstacles`, `agents` | `[]` |
//! | path | `closed` | `false` |
//! | path | `radius` | 20 |
//! | curve (all kinds with a centre) | `center` | `[0, 0]` |
//! | lissajous | `phase` | 0 |
//! | spline | `closed` | `false` |
//! | expr | `z`, `t_min`, `t_max` | `"0"`, 0, 2π |
//! | target | `velocity` | `[0, 0]` |
//! | obstacle | `velocity`, `id` | `[0, 0]`, none |
//! | agent | `name` | `agent N` (N counts agents from 1) |
//! | agent | `color` | [`PALETTE`]`[index % 12]` |
//! | agent | `velocity`, `orientation` | `[0, 0]`, 0 |
//! | agent | `radius`, `max_speed`, `max_acceleration` | 8, 150, 400 |
//! | agent | `avoid_obstacles` | `false` |
//! | arrive | `target_radius`, `slow_radius`, `time_to_target`, `braking_cap` | 5, 80, 0.1, `true` |
//! | parametric | `speed`, `delta_t`, `t0`, `method` | 100, 0.01, 0, `"secant"` |
//! | waypoints | `node_radius`, `closest_node` | 20, `false` |
//! | projected | `offset` | 30 |
//! | predictive | `prediction_time`, `path_radius` | 0.5, 20 |
//! | planner | `waypoints`, `clearance`, `iteration_limit` | `[]`, 10, 32 |
//! | planner | `replan_interval`, `arrival_radius`, `smoothing` | 0.5, 10, `false` |
//! | avoidance | `look_ahead`, `margin` | 1, 6 |
//!
//! Behaviour parameter defaults are read from the parameter structs' `Default` impls, so this
//! table follows them. Required: `version`; every `id` (obstacle ids are optional); path
//! `points`; curve shape parameters (`radius`, `radius_x`/`radius_y`, `size`, `amplitude`,
//! `freq_x`/`freq_y`, `pitch`/`turns`, spline `points`, expr `x`/`y`); target and obstacle
//! `position`, obstacle `radius`; agent `position` and `behaviour`; the `target`, `path` or
//! `curve` a behaviour refers to.
//!
//! # Extensions to design.md's format
//!
//! - `bounds: { "min": vec, "max": vec }`: the box in which moving targets and obstacles bounce.
//!   When absent and something moves, the box around all content (path points, sampled curves,
//!   targets, obstacles with their radii, agents, planner waypoints) padded by
//!   [`AUTO_BOUNDS_PADDING`] (150) on every side is used; a saved world writes it explicitly.
//! - `avoidance: { "look_ahead": s, "margin": units }`: obstacle avoidance for every agent with
//!   `avoid_obstacles`; written only when it differs from the default.
//! - Obstacles may carry an `id` for the reader; nothing refers to it and it is not kept.
//! - `method` of `parametric` is `"secant"` or `"arc_length"`; the planner takes `smoothing`.
//!
//! # Limits
//!
//! Every number must be finite; coordinates, radii and distances are at most 1e6 in size,
//! speeds and accelerations at most 1e6, `dt` in (0, 0.1], `iteration_limit` 1–10,000, and
//! `slow_radius` ≥ `target_radius` (see `validate` for the full list).
//!
//! # Errors
//!
//! One line, `FILE: JSON.PATH (line L, column C): reason` (the CLI adds `error: `), e.g.
//!
//! ```text
//! scenes/hairpin.json: agents[2].behaviour.path_radius (line 31, column 76): `path_radius` must be greater than 0, got -5
//! scenes/hairpin.json: agents[0].behaviour.path (line 14, column 43): no path with id `trak`; paths are: `track`
//! ```

mod convert;
mod format;
mod io;
pub mod locate;
mod pretty;
mod stream;
mod validate;

pub use convert::{
    automatic_bounds, curve_spec, migrate, palette_color, scene_to_world, world_to_scene,
    AUTO_BOUNDS_PADDING, PALETTE,
};
pub use format::{
    AgentSpec, ArriveSpec, AvoidanceSpec, BehaviourSpec, BoundsSpec, CircleSpec, CollisionAvoidanceSpec,
    CombineMode, CombineSpec, CurveSpec, EllipseSpec, EntrySpec, ExprSpec, FaceSpec, FlockingSpec, HelixSpec,
    HideSpec, InterposeSpec, KinematicSpec, LeaderFollowingSpec, LemniscateSpec, LissajousSpec, LookSpec,
    ObstacleSpec, OffsetPursuitSpec, ParametricSpec, PathSpec, PlannerSpec, PredictiveSpec, ProjectedSpec,
    PursuitSpec, RelativeIssue, SceneFile, SceneVec, SplineSpec, TargetSpec, WanderSpec, WaypointsSpec,
    BEHAVIOUR_TYPES, CURVE_KINDS, FORMAT_VERSION, READABLE_VERSIONS,
};
pub use format::{ContainmentSpec, FlowFieldSpec};
pub use io::{
    escape_controls, io_reason, is_hidden_format, is_shipped_example, load_scene, load_scene_with_progress,
    parse_scene, parse_scene_bytes, parse_scene_file, read_json_file, read_scene_bytes, save_scene,
    scene_to_json, AtomicFile, LoadProgress, SceneError, CANCELLED as LOAD_CANCELLED, MAX_FILE_BYTES,
    UNSAVED_LABEL,
};
pub use pretty::pretty_json;
pub use validate::{
    check_curve, check_obstacle, check_path_radius, check_point, check_target, validate_scene, Issue,
    MAX_AGENTS, MAX_BEHAVIOURS, MAX_COORDINATE, MAX_CURVES, MAX_DISTANCE, MAX_DT, MAX_FREQUENCY,
    MAX_OBSTACLES, MAX_PARAMETER, MAX_PATHS, MAX_POINTS, MAX_SPEED, MAX_TARGETS, MAX_WAYPOINTS, MIN_DT,
};
