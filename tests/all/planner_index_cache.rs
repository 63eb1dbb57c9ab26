//! The ship reuses its obstacle index between replans only while the obstacles are unchanged:
//! a moved obstacle is never planned against at its old position.

use glam::Vec3;
use steerlab::behaviours::{Gizmos, Kinematics, Limits};
use steerlab::geometry::Sphere;
use steerlab::planner::{ship, PlannerParams, ShipState};

fn step_until_replan(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    params: &PlannerParams,
    state: &mut ShipState,
) {
    let replans = state.replans;
    let mut gizmos = Gizmos::disabled();
    for _ in 0..120 {
        ship(k, limits, obstacles, params, state, 1.0 / 60.0, &mut gizmos);
        if state.replans > replans {
            return;
        }
    }
    panic!("no replan within two seconds");
}

#[test]
fn the_index_follows_moved_obstacles_and_is_kept_for_static_ones() {
    let params = PlannerParams { waypoints: vec![Vec3::new(600.0, 0.0, 0.0)], ..PlannerParams::default() };
    let limits = Limits::default();
    let k = Kinematics::default();
    let mut state = ShipState::new(&params);
    let field: Vec<Sphere> = (0..60)
        .map(|i| Sphere { center: Vec3::new(100.0 + 8.0 * i as f32, 60.0, 0.0), radius: 10.0 })
        .collect();
    let mut gizmos = Gizmos::disabled();
    ship(&k, &limits, &field, &params, &mut state, 1.0 / 60.0, &mut gizmos);
    assert_eq!(state.index.as_ref().map(|i| i.spheres().to_vec()), Some(field.clone()));

    // Moved: the next plan uses the new positions.
    let mut moved = field.clone();
    moved[7].center.y = -200.0;
    step_until_replan(&k, &limits, &moved, &params, &mut state);
    assert_eq!(state.index.as_ref().map(|i| i.spheres().to_vec()), Some(moved.clone()));

    // Unchanged: the same index serves again (equal content, and planning still works).
    let before = state.index.clone();
    step_until_replan(&k, &limits, &moved, &params, &mut state);
    assert_eq!(state.index, before);
    assert!(!state.planned.is_empty());
}
