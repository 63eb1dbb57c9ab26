//! Scene texts shared by the scene tests.

#![allow(dead_code)]

/// Every curve kind and behaviour type, 2D and 3D vectors, defaults and explicit values.
pub const FULL_SCENE: &str = r##"{
  "version": 1,
  "name": "Everything",
  "description": "One of each, for round trips.",
  "dt": 0.016666668,
  "bounds": { "min": [-1000, -1000, -100], "max": [1000, 1000, 100] },
  "avoidance": { "look_ahead": 1.5, "margin": 4 },
  "paths": [
    { "id": "track", "points": [[0, 0], [400, 0], [400, 60], [0, 60]], "closed": false, "radius": 20 },
    { "id": "ring", "points": [[0, 0, 5], [100, 0, 5], [100, 100, 5]], "closed": true }
  ],
  "curves": [
    { "id": "round", "kind": "circle", "center": [10, 20], "radius": 100 },
    { "id": "oval", "kind": "ellipse", "radius_x": 200, "radius_y": 80 },
    { "id": "eight", "kind": "lemniscate", "center": [0, 0], "size": 200 },
    { "id": "knot", "kind": "lissajous", "center": [5, 5], "amplitude": [100, 50, 3], "freq_x": 3, "freq_y": 2, "phase": 0.5 },
    { "id": "spring", "kind": "helix", "center": [0, 0, 0], "radius": 50, "pitch": 20, "turns": 3.5 },
    { "id": "loop", "kind": "spline", "points": [[0, 0], [100, 50], [200, 0]], "closed": true },
    { "id": "wave", "kind": "expr", "x": "200*cos(t)", "y": "100*sin(2*t)", "z": "0", "t_min": 0, "t_max": 6.2831855 }
  ],
  "targets": [
    { "id": "flag", "position": [300, 200], "velocity": [0, 0] },
    { "id": "hare", "position": [-300, 200, 10], "velocity": [40, -15] }
  ],
  "obstacles": [
    { "id": "rock", "position": [200, 30, 0], "radius": 25, "velocity": [0, 0, 0] },
    { "position": [-120.5, 77.25], "radius": 12 }
  ],
  "agents": [
    { "name": "seeker", "color": "#e6194b", "position": [0, 0], "velocity": [10, 0], "orientation": 0.25,
      "radius": 8, "max_speed": 150, "max_acceleration": 400, "avoid_obstacles": true,
      "behaviour": { "type": "seek", "target": "flag" } },
    { "name": "coward", "position": [50, 50], "behaviour": { "type": "flee", "target": "hare" } },
    { "name": "lander", "position": [-50, 50], "behaviour": { "type": "arrive", "target": "flag", "target_radius": 4, "slow_radius": 90, "time_to_target": 0.2 } },
    { "name": "circler", "position": [0, 0], "behaviour": { "type": "parametric", "curve": "eight", "speed": 120, "delta_t": 0.02, "t0": 1, "method": "arc_length" } },
    { "name": "seed", "position": [0, 0], "behaviour": { "type": "parametric", "curve": "wave" } },
    { "name": "nodes", "position": [0, -10], "behaviour": { "type": "waypoints", "path": "track", "node_radius": 25, "closest_node": true } },
    { "name": "projector", "position": [0, 10], "behaviour": { "type": "projected", "path": "ring", "offset": 40 } },
    { "name": "predictive", "color": "#3CB44B", "position": [0, 0], "behaviour": { "type": "predictive", "path": "track", "prediction_time": 0.5, "path_radius": 20 } },
    { "name": "ship", "position": [0, 0, 20], "max_speed": 90.5,
      "behaviour": { "type": "planner", "waypoints": [[400, 0, 50], [400, 300, 0]], "clearance": 12, "iteration_limit": 64, "replan_interval": 0.25, "arrival_radius": 8, "smoothing": true } },
    { "name": "hound", "position": [-200, -200], "behaviour": { "type": "pursuit", "agent": "seeker", "max_prediction": 2 } },
    { "name": "fox", "position": [-150, -250], "behaviour": { "type": "evade", "agent": "hound" } },
    { "name": "drifter", "position": [250, -250], "velocity": [0, 40], "behaviour": { "type": "wander", "radius": 25, "distance": 70, "jitter": 150, "seed": 9 } },
    { "name": "boid", "position": [260, -230], "velocity": [20, 30],
      "behaviour": { "type": "flocking", "separation": 2.5, "alignment": 0.75, "cohesion": 1.25, "separation_radius": 20, "radius": 60, "view_angle": 3.5 } },
    { "name": "walker", "position": [270, -260], "velocity": [-30, 0],
      "behaviour": { "type": "collision_avoidance", "horizon": 2, "margin": 6 } },
    { "name": "wingman", "position": [-20, -30],
      "behaviour": { "type": "offset_pursuit", "agent": "seeker", "offset_x": -30, "offset_y": 25, "approach_time": 0.75 } },
    { "name": "follower", "position": [-40, -20],
      "behaviour": { "type": "leader_following", "agent": "seeker", "behind": 40, "sight_distance": 70, "sight_radius": 20, "approach_time": 0.6 } },
    { "name": "referee", "position": [-100, -200], "behaviour": { "type": "interpose", "agents": ["hound", "fox"], "slow_radius": 50 } },
    { "name": "hider", "position": [150, 60], "behaviour": { "type": "hide", "agent": "hound", "distance_from_boundary": 12, "slow_radius": 40 } },
    { "name": "turret", "position": [0, -300], "orientation": 1,
      "behaviour": { "type": "face", "agent": "fox", "max_rotation": 4, "slow_angle": 0.4 } },
    { "name": "looker", "position": [100, -300], "velocity": [0, -20],
      "behaviour": { "type": "look_where_you_are_going", "max_rotation": 3, "slow_angle": 0.6 } },
    { "name": "penned", "position": [60, 30], "velocity": [30, 10],
      "behaviour": { "type": "containment", "region": "ring", "look_ahead": 0.75, "margin": 12 } },
    { "name": "drift", "position": [-300, -100], "velocity": [10, 0],
      "behaviour": { "type": "flow_field", "look_ahead": 0.3, "seed": 42, "scale": 180, "pull": 50 } },
    { "name": "river", "position": [100, 100], "behaviour": { "type": "flow_field", "path": "track", "pull": 35 } }
  ]
}
"##;

/// No paths or curves and no parametric agent: builds a world without the geometry helpers.
pub const GEOMETRY_FREE_SCENE: &str = r##"{
  "version": 1,
  "name": "Chase",
  "description": "Seek, flee, arrive and a planner around moving obstacles.",
  "targets": [
    { "id": "flag", "position": [300, 200] },
    { "id": "hare", "position": [-300, 100], "velocity": [40, -15] }
  ],
  "obstacles": [
    { "position": [200, 30], "radius": 25 },
    { "position": [-100, -50], "radius": 10, "velocity": [0, 20] }
  ],
  "agents": [
    { "position": [0, 0], "behaviour": { "type": "seek", "target": "flag" } },
    { "name": "coward", "position": [50, 50], "velocity": [3, 4], "avoid_obstacles": true,
      "behaviour": { "type": "flee", "target": "hare" } },
    { "name": "lander", "color": "#4363D8", "position": [-50, 50],
      "behaviour": { "type": "arrive", "target": "flag", "slow_radius": 120 } },
    { "name": "ship", "position": [0, 0, 20],
      "behaviour": { "type": "planner", "waypoints": [[400, 0, 50], [-400, -300]] } }
  ]
}
"##;
