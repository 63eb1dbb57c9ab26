//! Hand-computed checks of the curves and the behaviours of seeds 000 and 001 and of obstacle
//! avoidance: exact values where the arithmetic is exact, tight tolerances where f32 rounds.

use glam::Vec3;
use std::f32::consts::{FRAC_PI_2, PI, TAU};
use steerlab::behaviours::arrive::{arrive, arrive_target_speed};
use steerlab::behaviours::avoid::avoid_obstacles;
use steerlab::behaviours::kinematic::{flee, new_orientation, seek};
use steerlab::behaviours::parametric::{parametric, DEFAULT_DELTA_T};
use steerlab::behaviours::{
    ArriveParams, AvoidParams, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, ParametricMethod,
    ParametricParams, ParametricState, Steering,
};
use steerlab::geometry::{Curve, CurveError, CurveKind, Sphere};

/// The default fixed step (60 Hz).
const DT: f32 = 1.0 / 60.0;

fn at(x: f32, y: f32) -> Kinematics {
    Kinematics { position: Vec3::new(x, y, 0.0), ..Default::default() }
}

fn assert_close(actual: Vec3, expected: Vec3, tolerance: f32) {
    assert!(
        (actual - expected).length() <= tolerance,
        "expected {expected}, got {actual} (tolerance {tolerance})"
    );
}

fn velocity_of(steering: Steering) -> Vec3 {
    match steering {
        Steering::Velocity(v) => v,
        other => panic!("expected a velocity, got {other:?}"),
    }
}

fn acceleration_of(steering: Steering) -> Vec3 {
    match steering {
        Steering::Acceleration(a) => a,
        other => panic!("expected an acceleration, got {other:?}"),
    }
}

fn position_of(steering: Steering) -> Vec3 {
    match steering {
        Steering::Position(p) => p,
        other => panic!("expected a position, got {other:?}"),
    }
}

fn roles(gizmos: &Gizmos) -> Vec<GizmoRole> {
    gizmos.items().iter().map(|g| g.role).collect()
}

// Kinematic seek and flee (seed 001).

#[test]
fn seek_asks_for_max_speed_toward_the_target() {
    let v = velocity_of(seek(&at(0.0, 0.0), Vec3::new(3.0, 4.0, 0.0), 10.0, &mut Gizmos::disabled()));
    assert_close(v, Vec3::new(6.0, 8.0, 0.0), 1e-5);
}

#[test]
fn flee_asks_for_max_speed_away_from_the_target() {
    let v = velocity_of(flee(&at(0.0, 0.0), Vec3::new(3.0, 4.0, 0.0), 10.0, &mut Gizmos::disabled()));
    assert_close(v, Vec3::new(-6.0, -8.0, 0.0), 1e-5);
}

#[test]
fn seek_standing_on_the_target_asks_for_zero_velocity_and_keeps_orientation() {
    let k = Kinematics { position: Vec3::new(2.0, 2.0, 0.0), velocity: Vec3::ZERO, orientation: 1.25 };
    let v = velocity_of(seek(&k, k.position, 10.0, &mut Gizmos::disabled()));
    assert_eq!(v, Vec3::ZERO);
    let v = velocity_of(flee(&k, k.position, 10.0, &mut Gizmos::disabled()));
    assert_eq!(v, Vec3::ZERO);
    assert_eq!(new_orientation(k.orientation, v), 1.25);
}

#[test]
fn orientation_of_a_velocity_along_y_is_half_pi() {
    assert_eq!(new_orientation(0.0, Vec3::new(0.0, 1.0, 0.0)), FRAC_PI_2);
    assert_eq!(new_orientation(3.0, Vec3::new(2.0, 0.0, 0.0)), 0.0);
    assert_eq!(new_orientation(0.0, Vec3::new(-1.0, 0.0, 0.0)), PI);
}

#[test]
fn orientation_of_a_vertical_velocity_keeps_the_current_heading() {
    assert_eq!(new_orientation(0.7, Vec3::new(0.0, 0.0, 5.0)), 0.7);
}

#[test]
fn seek_gizmos_show_the_target_and_the_desired_velocity() {
    let mut gizmos = Gizmos::recording();
    seek(&at(0.0, 0.0), Vec3::new(3.0, 4.0, 0.0), 10.0, &mut gizmos);
    assert_eq!(roles(&gizmos), vec![GizmoRole::Target, GizmoRole::DesiredVelocity]);
    assert_eq!(gizmos.items()[0].shape, GizmoShape::Point(Vec3::new(3.0, 4.0, 0.0)));
}

// Dynamic arrive (seed 001).

#[test]
fn arrive_target_speed_at_half_the_slow_radius_is_half_max_speed() {
    let limits = Limits::default();
    let p = ArriveParams::default();
    assert_eq!(arrive_target_speed(40.0, &limits, &p), 75.0);
    assert_eq!(arrive_target_speed(500.0, &limits, &p), 150.0);
    assert_eq!(arrive_target_speed(4.0, &limits, &p), 0.0);
}

#[test]
fn arrive_acceleration_for_a_known_velocity_at_half_the_slow_radius() {
    let limits = Limits::default();
    let p = ArriveParams::default();
    let target = Vec3::ZERO;
    // Target velocity (-75, 0): from (-50, 0) that is (-25, 0) over 0.1 s.
    let k = Kinematics {
        position: Vec3::new(40.0, 0.0, 0.0),
        velocity: Vec3::new(-50.0, 0.0, 0.0),
        orientation: 0.0,
    };
    let a = acceleration_of(arrive(&k, &limits, target, &p, &mut Gizmos::disabled()));
    assert_close(a, Vec3::new(-250.0, 0.0, 0.0), 1e-3);
    // From (0, 30): (-750, -300) per second², longer than 400, so clamped to 400 along it.
    let k = Kinematics { velocity: Vec3::new(0.0, 30.0, 0.0), ..k };
    let a = acceleration_of(arrive(&k, &limits, target, &p, &mut Gizmos::disabled()));
    let expected = Vec3::new(-750.0, -300.0, 0.0) / (750.0f32.hypot(300.0)) * 400.0;
    assert_close(a, expected, 1e-3);
}

#[test]
fn arrive_brakes_toward_rest_inside_the_target_radius() {
    let k = Kinematics {
        position: Vec3::new(2.0, 0.0, 0.0),
        velocity: Vec3::new(10.0, 0.0, 0.0),
        orientation: 0.0,
    };
    let a = acceleration_of(arrive(
        &k,
        &Limits::default(),
        Vec3::ZERO,
        &ArriveParams::default(),
        &mut Gizmos::disabled(),
    ));
    assert_close(a, Vec3::new(-100.0, 0.0, 0.0), 1e-3);
}

#[test]
fn arrive_braking_cap_slows_a_fast_weak_agent_early() {
    let limits = Limits { radius: 8.0, max_speed: 300.0, max_acceleration: 100.0 };
    let seed = ArriveParams { slow_radius: 50.0, braking_cap: false, ..Default::default() };
    assert_eq!(arrive_target_speed(40.0, &limits, &seed), 240.0);
    // Capped: -a·τ + √((a·τ)² + 2·a·d) with a = 50, τ = 0.1, d = 40.
    let capped = ArriveParams { braking_cap: true, ..seed };
    let expected = -5.0 + (25.0f32 + 4000.0).sqrt();
    assert!((arrive_target_speed(40.0, &limits, &capped) - expected).abs() < 1e-4);
}

/// The seed's arrive returns no steering inside the target radius; the agent keeps its residual
/// speed and drifts back out. This runs the seed's rule literally next to ours.
#[test]
fn seed_arrive_drifts_out_of_the_target_radius_but_braking_stays_inside() {
    let limits = Limits::default();
    let p = ArriveParams::default();
    for seed_rule in [true, false] {
        let mut k = at(300.0, 100.0);
        let mut entered = false;
        let mut left_after_entering = false;
        for _ in 0..(60 * 20) {
            let inside = k.position.length() < p.target_radius;
            let mut a = acceleration_of(arrive(&k, &limits, Vec3::ZERO, &p, &mut Gizmos::disabled()));
            if seed_rule && inside {
                a = Vec3::ZERO;
            }
            k.velocity = (k.velocity + a.clamp_length_max(limits.max_acceleration) / 60.0)
                .clamp_length_max(limits.max_speed);
            k.position += k.velocity / 60.0;
            let inside = k.position.length() < p.target_radius;
            entered |= inside;
            left_after_entering |= entered && !inside;
        }
        assert!(entered);
        assert_eq!(left_after_entering, seed_rule, "seed rule {seed_rule}");
        if !seed_rule {
            assert!(k.velocity.length() < 1e-2);
        }
    }
}

#[test]
fn arrive_gizmos_show_both_radii_the_target_and_the_desired_velocity() {
    let mut gizmos = Gizmos::recording();
    arrive(&at(100.0, 0.0), &Limits::default(), Vec3::ZERO, &ArriveParams::default(), &mut gizmos);
    assert_eq!(
        roles(&gizmos),
        vec![GizmoRole::TargetRadius, GizmoRole::SlowRadius, GizmoRole::Target, GizmoRole::DesiredVelocity]
    );
    assert_eq!(gizmos.items()[1].shape, GizmoShape::Circle { center: Vec3::ZERO, radius: 80.0 });
}

// Curves.

fn circle(radius: f32) -> Curve {
    Curve::new(CurveKind::Circle { center: Vec3::ZERO, radius }).unwrap()
}

fn expr(x: &str, y: &str, z: &str, t_max: f32) -> Result<Curve, CurveError> {
    Curve::new(CurveKind::Expr { x: x.into(), y: y.into(), z: z.into(), t_min: 0.0, t_max })
}

fn spline_points() -> Vec<Vec3> {
    vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(100.0, 50.0, 0.0),
        Vec3::new(200.0, 0.0, 10.0),
        Vec3::new(150.0, -80.0, 0.0),
        Vec3::new(150.0, -80.0, 0.0),
        Vec3::new(40.0, -60.0, 0.0),
    ]
}

/// One curve of every kind (two splines, two expressions), with a name.
fn every_kind() -> Vec<(&'static str, Curve)> {
    let c = Vec3::new(10.0, -5.0, 2.0);
    vec![
        ("circle", Curve::new(CurveKind::Circle { center: c, radius: 100.0 }).unwrap()),
        ("ellipse", Curve::new(CurveKind::Ellipse { center: c, radius_x: 200.0, radius_y: 100.0 }).unwrap()),
        ("lemniscate", Curve::new(CurveKind::Lemniscate { center: c, size: 200.0 }).unwrap()),
        (
            "lissajous",
            Curve::new(CurveKind::Lissajous {
                center: c,
                amplitude: Vec3::new(150.0, 100.0, 0.0),
                freq_x: 3.0,
                freq_y: 2.0,
                phase: 0.5,
            })
            .unwrap(),
        ),
        (
            "helix",
            Curve::new(CurveKind::Helix { center: c, radius: 100.0, pitch: 50.0, turns: 3.0 }).unwrap(),
        ),
        ("open spline", Curve::new(CurveKind::Spline { points: spline_points(), closed: false }).unwrap()),
        ("closed spline", Curve::new(CurveKind::Spline { points: spline_points(), closed: true }).unwrap()),
        ("expr", expr("200*cos(t)", "100*sin(2*t)", "5*t", TAU).unwrap()),
        ("expr with abs", expr("100*abs(sin(t))", "t^2", "", TAU).unwrap()),
    ]
}

#[test]
fn circle_points_and_derivatives_by_hand() {
    let curve = Curve::new(CurveKind::Circle { center: Vec3::new(1.0, 2.0, 3.0), radius: 10.0 }).unwrap();
    assert_eq!(curve.point(0.0), Vec3::new(11.0, 2.0, 3.0));
    assert_close(curve.point(FRAC_PI_2), Vec3::new(1.0, 12.0, 3.0), 1e-5);
    assert_close(curve.derivative(0.0), Vec3::new(0.0, 10.0, 0.0), 1e-6);
    assert_eq!(curve.t_range(), (0.0, TAU));
    assert!(curve.is_closed());
}

#[test]
fn lemniscate_crosses_its_centre_at_quarter_turns() {
    let curve = Curve::new(CurveKind::Lemniscate { center: Vec3::ZERO, size: 200.0 }).unwrap();
    assert_eq!(curve.point(0.0), Vec3::new(200.0, 0.0, 0.0));
    assert_close(curve.point(FRAC_PI_2), Vec3::ZERO, 1e-4);
    assert_close(curve.point(PI), Vec3::new(-200.0, 0.0, 0.0), 1e-4);
    // At the crossing the tangent is (-size/2, -size/2)·(3 - 1, 1 - 3)/4 → size·(-1/2, -1/2).
    assert_close(curve.derivative(FRAC_PI_2), Vec3::new(-100.0, -100.0, 0.0), 1e-3);
}

#[test]
fn helix_rises_one_pitch_per_turn_and_is_open() {
    let curve =
        Curve::new(CurveKind::Helix { center: Vec3::ZERO, radius: 50.0, pitch: 30.0, turns: 2.0 }).unwrap();
    assert_close(curve.point(TAU) - curve.point(0.0), Vec3::new(0.0, 0.0, 30.0), 1e-4);
    assert_close(curve.derivative(0.0), Vec3::new(0.0, 50.0, 30.0 / TAU), 1e-5);
    assert_eq!(curve.t_range(), (0.0, 2.0 * TAU));
    assert!(!curve.is_closed());
}

#[test]
fn lissajous_is_closed_only_for_integer_frequencies() {
    let lissajous = |freq_x| {
        Curve::new(CurveKind::Lissajous {
            center: Vec3::ZERO,
            amplitude: Vec3::new(1.0, 1.0, 0.0),
            freq_x,
            freq_y: 2.0,
            phase: 0.0,
        })
        .unwrap()
    };
    assert!(lissajous(3.0).is_closed());
    assert!(!lissajous(2.5).is_closed());
}

#[test]
fn splines_pass_through_their_points_at_integer_t() {
    let points = spline_points();
    for closed in [false, true] {
        let curve = Curve::new(CurveKind::Spline { points: points.clone(), closed }).unwrap();
        for (i, p) in points.iter().enumerate() {
            assert_close(curve.point(i as f32), *p, 1e-3);
        }
        assert_eq!(curve.is_closed(), closed);
    }
    let open = Curve::new(CurveKind::Spline { points: points.clone(), closed: false }).unwrap();
    assert_eq!(open.t_range(), (0.0, 5.0));
    assert_close(open.point(7.0), points[5], 1e-3);
    let closed = Curve::new(CurveKind::Spline { points: points.clone(), closed: true }).unwrap();
    assert_eq!(closed.t_range(), (0.0, 6.0));
    assert_close(closed.point(6.0), points[0], 1e-3);
    assert_close(closed.point(-0.5), closed.point(5.5), 1e-3);
}

#[test]
fn spline_with_one_point_is_refused() {
    let result = Curve::new(CurveKind::Spline { points: vec![Vec3::ONE], closed: false });
    assert_eq!(result.err(), Some(CurveError::TooFewPoints(1)));
}

#[test]
fn two_point_spline_is_the_straight_segment() {
    let curve =
        Curve::new(CurveKind::Spline { points: vec![Vec3::ZERO, Vec3::new(100.0, 0.0, 0.0)], closed: false })
            .unwrap();
    assert_close(curve.point(0.25), Vec3::new(25.0, 0.0, 0.0), 1e-3);
    assert_close(curve.derivative(0.5), Vec3::new(100.0, 0.0, 0.0), 1e-2);
}

#[test]
fn expr_circle_matches_the_builtin_circle_and_loops() {
    let typed = expr("100*cos(t)", "100*sin(t)", "", 6.2831855).unwrap();
    let builtin = circle(100.0);
    for i in 0..50 {
        let t = i as f32 * 0.13;
        assert_close(typed.point(t), builtin.point(t), 1e-3);
        assert_close(typed.derivative(t), builtin.derivative(t), 1e-3);
    }
    assert!(typed.is_closed());
    assert!(!expr("t", "0", "", 1.0).unwrap().is_closed());
}

#[test]
fn expr_allows_constants_and_an_empty_z() {
    let curve = expr("PI*t", "2", "  ", 1.0).unwrap();
    assert_close(curve.point(1.0), Vec3::new(PI, 2.0, 0.0), 1e-5);
    assert_close(curve.derivative(0.5), Vec3::new(PI, 0.0, 0.0), 1e-5);
}

#[test]
fn expr_that_evaluates_to_nan_or_infinity_outside_its_range_falls_back_to_zero() {
    // Finite over [1, 2], so accepted; T = 0 and T = -1 lie outside the checked range.
    let curve = Curve::new(CurveKind::Expr {
        x: "ln(t)".into(),
        y: "1/t".into(),
        z: "t".into(),
        t_min: 1.0,
        t_max: 2.0,
    })
    .unwrap();
    let p = curve.point(0.0);
    assert_eq!(p, Vec3::new(0.0, 0.0, 0.0));
    assert_eq!(curve.point(-1.0), Vec3::new(0.0, -1.0, -1.0));
    assert!(curve.derivative(0.0).is_finite());
}

#[test]
fn bad_expression_error_names_the_component_the_text_and_the_reason() {
    let error = expr("200*cos(t)", "100*sin(", "", 1.0).unwrap_err();
    let CurveError::BadExpression { component, expression, reason } = &error else {
        panic!("expected a bad expression, got {error:?}");
    };
    assert_eq!(*component, "y");
    assert_eq!(expression, "100*sin(");
    assert!(!reason.is_empty());
    assert!(error.to_string().starts_with("bad expression for y: `100*sin(`: "), "{error}");

    let error = expr("2*u", "0", "", 1.0).unwrap_err();
    assert_eq!(error.to_string(), "bad expression for x: `2*u`: unknown variable `u` (only `t` is allowed)");
    let error = expr("t", "", "", 1.0).unwrap_err();
    assert_eq!(error.to_string(), "bad expression for y: ``: the expression is empty");
}

#[test]
fn derivative_matches_a_central_difference_for_every_kind() {
    let h = 1e-2f32;
    for (name, curve) in every_kind() {
        let (t_min, t_max) = curve.t_range();
        for i in 0..40 {
            // Away from spline knots (integer T), where |F'| may jump between segments.
            let t = t_min + (t_max - t_min) * (i as f32 + 0.37) / 40.0;
            if (t - t.round()).abs() < 2.0 * h && name.contains("spline") {
                continue;
            }
            let exact = curve.derivative(t);
            let numeric = (curve.point(t + h) - curve.point(t - h)) / (2.0 * h);
            let scale = exact.length().max(1.0);
            assert!(
                (exact - numeric).length() <= 2e-3 * scale,
                "{name} at T = {t}: exact {exact}, numeric {numeric}"
            );
        }
    }
}

// Parametric following (seed 000).

fn step(curve: &Curve, state: &mut ParametricState, p: &ParametricParams, dt: f32) -> Vec3 {
    position_of(parametric(curve, state, p, dt, &mut Gizmos::disabled()))
}

#[test]
fn one_secant_step_on_the_unit_circle_by_hand() {
    let curve = circle(1.0);
    let p = ParametricParams { speed: 1.0, delta_t: 0.01, t0: 0.0, method: ParametricMethod::Secant };
    let mut state = ParametricState::start(&p);
    let p2 = step(&curve, &mut state, &p, 0.1);
    // |F'| ≈ |F(0.01) - F(0)| / 0.01 = 2 sin(0.005) / 0.01; T_inc = 0.1 / |F'|.
    let secant_speed = 2.0 * 0.005f64.sin() / 0.01;
    let t_increment = 0.1 / secant_speed;
    assert!((t_increment - 0.100_000_416_7).abs() < 1e-9);
    assert!((f64::from(state.t) - t_increment).abs() < 1e-6, "T = {}", state.t);
    let expected = Vec3::new(t_increment.cos() as f32, t_increment.sin() as f32, 0.0);
    assert_close(p2, expected, 1e-6);
    assert!(!state.finished);
}

#[test]
fn one_arc_length_step_on_the_unit_circle_covers_the_exact_chord() {
    let curve = circle(1.0);
    let p = ParametricParams { speed: 1.0, delta_t: 0.01, t0: 0.0, method: ParametricMethod::ArcLength };
    let mut state = ParametricState::start(&p);
    let p2 = step(&curve, &mut state, &p, 0.1);
    // The chord of length 0.1 subtends 2·asin(0.05).
    let expected_t = 2.0 * 0.05f64.asin();
    assert!((f64::from(state.t) - expected_t).abs() < 1e-6, "T = {}", state.t);
    assert!(((p2 - Vec3::X).length() - 0.1).abs() < 1e-6);
}

#[test]
fn closed_curve_keeps_t_wrapped_into_its_range() {
    let curve = circle(10.0);
    let p = ParametricParams { speed: 300.0, t0: 6.0, ..Default::default() };
    let mut state = ParametricState::start(&p);
    for _ in 0..1000 {
        step(&curve, &mut state, &p, 1.0 / 60.0);
        assert!((0.0..TAU).contains(&state.t), "T = {}", state.t);
    }
    assert!(!state.finished);
}

#[test]
fn open_curve_finishes_at_its_end_and_stays_there() {
    let curve =
        Curve::new(CurveKind::Helix { center: Vec3::ZERO, radius: 10.0, pitch: 5.0, turns: 1.0 }).unwrap();
    for method in [ParametricMethod::Secant, ParametricMethod::ArcLength] {
        let p = ParametricParams { speed: 100.0, method, ..Default::default() };
        let mut state = ParametricState::start(&p);
        let mut last = Vec3::ZERO;
        for _ in 0..200 {
            last = step(&curve, &mut state, &p, 1.0 / 60.0);
        }
        assert!(state.finished);
        assert_eq!(state.t, TAU);
        assert_eq!(last, curve.point(TAU));
        assert_eq!(step(&curve, &mut state, &p, 1.0 / 60.0), last);
    }
}

#[test]
fn negative_speed_runs_an_open_curve_backwards_to_its_start() {
    let curve = expr("t", "0", "", 10.0).unwrap();
    let p =
        ParametricParams { speed: -60.0, t0: 5.0, method: ParametricMethod::ArcLength, ..Default::default() };
    let mut state = ParametricState::start(&p);
    let p2 = step(&curve, &mut state, &p, 1.0 / 60.0);
    assert_close(p2, Vec3::new(4.0, 0.0, 0.0), 1e-5);
    for _ in 0..10 {
        step(&curve, &mut state, &p, 1.0 / 60.0);
    }
    assert!(state.finished);
    assert_eq!(state.t, 0.0);
}

#[test]
fn degenerate_curve_advances_t_by_delta_t_without_nan() {
    let curve = circle(0.0);
    for method in [ParametricMethod::Secant, ParametricMethod::ArcLength] {
        let p = ParametricParams { speed: 100.0, delta_t: 0.05, t0: 1.0, method };
        let mut state = ParametricState::start(&p);
        let p2 = step(&curve, &mut state, &p, 1.0 / 60.0);
        assert_eq!(p2, Vec3::ZERO);
        assert!((state.t - 1.05).abs() < 1e-6, "{method:?}: T = {}", state.t);
    }
}

#[test]
fn cusp_with_zero_derivative_is_crossed_without_nan() {
    // x = t³, y = t² has F'(0) = 0.
    let curve = Curve::new(CurveKind::Expr {
        x: "t^3".into(),
        y: "t^2".into(),
        z: String::new(),
        t_min: -2.0,
        t_max: 2.0,
    })
    .unwrap();
    for method in [ParametricMethod::Secant, ParametricMethod::ArcLength] {
        let p = ParametricParams { speed: 1.0, t0: 0.0, method, ..Default::default() };
        let mut state = ParametricState::start(&p);
        for _ in 0..100 {
            let p2 = step(&curve, &mut state, &p, 1.0 / 60.0);
            assert!(p2.is_finite() && state.t.is_finite());
        }
        assert!(state.t > 0.0);
    }
}

/// The arc of `curve` from `t0` to `t1`, summed over many short chords: an oracle for how much
/// curve a step passed over, independent of the method's own arithmetic.
fn arc_between(curve: &Curve, t0: f32, t1: f32) -> f32 {
    let pieces = 512;
    (0..pieces)
        .map(|i| {
            let a = t0 + (t1 - t0) * i as f32 / pieces as f32;
            let b = t0 + (t1 - t0) * (i + 1) as f32 / pieces as f32;
            (curve.point(b) - curve.point(a)).length()
        })
        .sum()
}

fn expr_curve(x: &str, y: &str, t_max: f32) -> Curve {
    Curve::new(CurveKind::Expr { x: x.into(), y: y.into(), z: String::new(), t_min: 0.0, t_max })
        .expect("a valid curve")
}

/// Where the curve turns back on itself inside a step (the astroid's four cusps, where the
/// tangent reverses; an out-and-back line), arc length moves the agent along the curve at the
/// set speed: every step passes over no more curve than the distance to travel, so it never
/// jumps across the turn. Found by an audit: the chord alone reached `distance` across the
/// turn, 80–200 units a step (11,928 u/s at a set speed of 100). The seed's secant still jumps
/// there (kept as the seed wrote it, README "Parametric following"): this test records that.
#[test]
fn arc_length_follows_the_curve_through_cusps_and_turns_back_where_the_secant_jumps() {
    let astroid = expr_curve("100*cos(t)^3", "100*sin(t)^3", TAU);
    let out_and_back = expr_curve("0*t", "100*sin(t)", 7.0);
    for (name, curve, seconds) in [("astroid", &astroid, 10.0f32), ("out and back", &out_and_back, 3.9)] {
        let distance = 100.0 * DT;
        let p = ParametricParams { speed: 100.0, method: ParametricMethod::ArcLength, ..Default::default() };
        let mut state = ParametricState::start(&p);
        let mut travelled = 0.0;
        for step_index in 0..(seconds / DT) as usize {
            let t = state.t;
            step(curve, &mut state, &p, DT);
            // The closed astroid wraps T: measure over the unwrapped step.
            let t_new = if state.t < t { state.t + TAU } else { state.t };
            let arc = arc_between(curve, t, t_new);
            assert!(
                arc <= distance * 1.01 && !state.finished,
                "{name}, step {step_index} at T {t}: {arc} units of curve passed, {distance} to travel"
            );
            travelled += arc;
        }
        let expected = 100.0 * seconds;
        assert!(
            (travelled - expected).abs() < 0.01 * expected,
            "{name}: {travelled} units of curve in {seconds} s at 100 u/s"
        );
    }
    let secant = ParametricParams { speed: 100.0, method: ParametricMethod::Secant, ..Default::default() };
    let mut state = ParametricState::start(&secant);
    let longest = (0..600)
        .map(|_| {
            let t = state.t;
            step(&astroid, &mut state, &secant, DT);
            let t_new = if state.t < t { state.t + TAU } else { state.t };
            arc_between(&astroid, t, t_new)
        })
        .fold(0.0f32, f32::max);
    assert!(longest > 10.0 * 100.0 * DT, "the seed's secant jumps at the cusps: longest step {longest}");
}

#[test]
fn non_positive_delta_t_falls_back_to_the_default() {
    let curve =
        Curve::new(CurveKind::Ellipse { center: Vec3::ZERO, radius_x: 200.0, radius_y: 100.0 }).unwrap();
    let reference = ParametricParams { delta_t: DEFAULT_DELTA_T, t0: 0.3, ..Default::default() };
    let mut expected_state = ParametricState::start(&reference);
    let expected = step(&curve, &mut expected_state, &reference, 1.0 / 60.0);
    for delta_t in [0.0, -1.0, f32::NAN] {
        let p = ParametricParams { delta_t, ..reference };
        let mut state = ParametricState::start(&p);
        assert_eq!(step(&curve, &mut state, &p, 1.0 / 60.0), expected);
    }
}

#[test]
fn parametric_gizmos_show_the_tangent_t_and_the_next_point() {
    let curve = circle(100.0);
    let p = ParametricParams::default();
    let mut state = ParametricState::start(&p);
    let mut gizmos = Gizmos::recording();
    let p2 = position_of(parametric(&curve, &mut state, &p, 1.0 / 60.0, &mut gizmos));
    assert_eq!(roles(&gizmos), vec![GizmoRole::Tangent, GizmoRole::ParameterValue, GizmoRole::Target]);
    assert_eq!(gizmos.items()[1].shape, GizmoShape::Value { at: Vec3::new(100.0, 0.0, 0.0), value: 0.0 });
    assert_eq!(gizmos.items()[2].shape, GizmoShape::Point(p2));
}

/// Largest relative speed error |P2 − P0|/dt against the set speed over `steps` steps (or
/// until an open curve is finished).
fn max_speed_error(curve: &Curve, p: &ParametricParams, steps: usize) -> f32 {
    let dt = 1.0 / 60.0;
    let mut state = ParametricState::start(p);
    let mut previous = curve.point(state.t);
    let mut worst = 0.0f32;
    for _ in 0..steps {
        let next = step(curve, &mut state, p, dt);
        if state.finished {
            break;
        }
        worst = worst.max(((next - previous).length() / dt - p.speed).abs() / p.speed);
        previous = next;
    }
    worst
}

/// The curves of the secant error table on `ParametricMethod::Secant`, with the quoted bound
/// on the largest relative speed error at speed 100, dt 1/60, ΔT 0.01 over 50 s.
fn secant_table() -> Vec<(&'static str, Curve, f32)> {
    let c = Vec3::ZERO;
    let lissajous = |phase| {
        Curve::new(CurveKind::Lissajous {
            center: c,
            amplitude: Vec3::new(150.0, 150.0, 0.0),
            freq_x: 3.0,
            freq_y: 2.0,
            phase,
        })
        .unwrap()
    };
    let spline_points = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(100.0, 50.0, 0.0),
        Vec3::new(200.0, 0.0, 0.0),
        Vec3::new(150.0, -80.0, 0.0),
    ];
    vec![
        ("circle r 100", circle(100.0), 5e-5),
        (
            "ellipse 200×100",
            Curve::new(CurveKind::Ellipse { center: c, radius_x: 200.0, radius_y: 100.0 }).unwrap(),
            2e-3,
        ),
        ("lemniscate 200", Curve::new(CurveKind::Lemniscate { center: c, size: 200.0 }).unwrap(), 3e-4),
        ("lissajous 150·(sin 3t, sin 2t)", lissajous(0.0), 1e-2),
        ("lissajous 150·(sin(3t + 0.5), sin 2t)", lissajous(0.5), 0.15),
        (
            "helix r 100 pitch 50",
            Curve::new(CurveKind::Helix { center: c, radius: 100.0, pitch: 50.0, turns: 10.0 }).unwrap(),
            3e-4,
        ),
        ("expr (200 cos t, 100 sin 2t)", expr("200*cos(t)", "100*sin(2*t)", "", TAU).unwrap(), 2e-3),
        (
            "closed spline of 4 points",
            Curve::new(CurveKind::Spline { points: spline_points, closed: true }).unwrap(),
            0.2,
        ),
    ]
}

/// The measured secant errors quoted on `ParametricMethod::Secant`; each assertion is the
/// quoted bound. The arc-length method on the same curves stays within 5e-4 (the f32
/// resolution of T times |F'|, over the step length).
#[test]
fn secant_speed_error_stays_within_the_documented_numbers() {
    let secant = ParametricParams::default();
    let arc_length = ParametricParams { method: ParametricMethod::ArcLength, ..secant };
    for (name, curve, bound) in secant_table() {
        let error = max_speed_error(&curve, &secant, 3000);
        let corrected = max_speed_error(&curve, &arc_length, 3000);
        println!("{name}: secant {error:.2e}, arc length {corrected:.2e}");
        assert!(error <= bound, "{name}: {error} > {bound}");
        assert!(corrected <= 5e-4, "{name}: arc length {corrected}");
    }
}

/// The first-order term of the secant error, (m'/(2m))·(T_inc − ΔT), on an ellipse where
/// m = |F'| = √(a² sin² T + b² cos² T) and m' = (a² − b²) sin T cos T / m.
#[test]
fn secant_error_on_an_ellipse_follows_the_first_order_prediction() {
    let (a, b) = (200.0f32, 100.0f32);
    let curve = Curve::new(CurveKind::Ellipse { center: Vec3::ZERO, radius_x: a, radius_y: b }).unwrap();
    let dt = 1.0 / 60.0;
    for delta_t in [0.01f32, 0.05] {
        for i in 0..24 {
            let t = i as f32 * TAU / 24.0 + 0.1;
            let p = ParametricParams { speed: 100.0, delta_t, t0: t, method: ParametricMethod::Secant };
            let mut state = ParametricState::start(&p);
            let p0 = curve.point(t);
            let p2 = step(&curve, &mut state, &p, dt);
            let measured = ((p2 - p0).length() / dt - p.speed) / p.speed;
            let (s, c) = t.sin_cos();
            let m = (a * a * s * s + b * b * c * c).sqrt();
            let dm = (a * a - b * b) * s * c / m;
            let t_increment = state.t - t;
            let predicted = dm / (2.0 * m) * (t_increment - delta_t);
            // The remainder is second order: (ΔT + T_inc)² times m''/m and (m'/m)² terms.
            let remainder = 2.0 * (delta_t + t_increment).powi(2);
            assert!(
                (measured - predicted).abs() <= remainder + 2e-5,
                "ΔT {delta_t}, T {t}: measured {measured}, predicted {predicted}"
            );
        }
    }
}

// Obstacle avoidance.

fn moving(velocity: Vec3) -> Kinematics {
    Kinematics { position: Vec3::ZERO, velocity, orientation: 0.0 }
}

#[test]
fn avoidance_is_silent_when_the_probe_is_clear() {
    let obstacles = [Sphere { center: Vec3::new(0.0, 60.0, 0.0), radius: 10.0 }];
    let k = moving(Vec3::new(100.0, 0.0, 0.0));
    let mut gizmos = Gizmos::recording();
    assert_eq!(
        avoid_obstacles(&k, &Limits::default(), &obstacles, DT, &AvoidParams::default(), &mut gizmos),
        None
    );
    assert_eq!(gizmos.items()[0].shape, GizmoShape::Line(Vec3::ZERO, Vec3::new(100.0, 0.0, 0.0)));
}

#[test]
fn obstacle_dead_ahead_turns_left_with_urgency() {
    // Probe radius 8 + 6 = 14 against radius 10: contact at x = 60 − 24 = 36, toi 0.36.
    let obstacles = [Sphere { center: Vec3::new(60.0, 0.0, 0.0), radius: 10.0 }];
    let k = moving(Vec3::new(100.0, 0.0, 0.0));
    let mut gizmos = Gizmos::recording();
    let a = avoid_obstacles(&k, &Limits::default(), &obstacles, DT, &AvoidParams::default(), &mut gizmos)
        .unwrap();
    assert_close(a, Vec3::new(0.0, 400.0 * 0.64, 0.0), 1e-3);
    assert_eq!(roles(&gizmos), vec![GizmoRole::Probe, GizmoRole::CastHit, GizmoRole::AvoidanceVector]);
    let GizmoShape::Point(hit) = gizmos.items()[1].shape else { panic!() };
    assert_close(hit, Vec3::new(36.0, 0.0, 0.0), 1e-4);
}

#[test]
fn obstacle_off_centre_pushes_away_from_its_centre() {
    let obstacles = [Sphere { center: Vec3::new(60.0, 5.0, 0.0), radius: 10.0 }];
    let a = avoid_obstacles(
        &moving(Vec3::new(100.0, 0.0, 0.0)),
        &Limits::default(),
        &obstacles,
        DT,
        &AvoidParams::default(),
        &mut Gizmos::disabled(),
    )
    .unwrap();
    assert!(a.x.abs() < 1e-3 && a.y < -100.0, "{a}");
}

#[test]
fn nearest_of_two_obstacles_wins() {
    let obstacles = [
        Sphere { center: Vec3::new(80.0, -5.0, 0.0), radius: 10.0 },
        Sphere { center: Vec3::new(40.0, 5.0, 0.0), radius: 10.0 },
    ];
    let a = avoid_obstacles(
        &moving(Vec3::new(100.0, 0.0, 0.0)),
        &Limits::default(),
        &obstacles,
        DT,
        &AvoidParams::default(),
        &mut Gizmos::disabled(),
    )
    .unwrap();
    assert!(a.y < 0.0, "{a}");
}

#[test]
fn overlapping_an_obstacle_pushes_straight_out_at_max_acceleration() {
    let obstacles = [Sphere { center: Vec3::new(3.0, 4.0, 0.0), radius: 10.0 }];
    let a = avoid_obstacles(
        &moving(Vec3::new(100.0, 0.0, 0.0)),
        &Limits::default(),
        &obstacles,
        DT,
        &AvoidParams::default(),
        &mut Gizmos::disabled(),
    )
    .unwrap();
    assert_close(a, Vec3::new(-0.6, -0.8, 0.0) * 400.0, 1e-3);
}

#[test]
fn agent_at_rest_or_moving_away_inside_the_margin_is_left_alone() {
    let limits = Limits::default();
    let p = AvoidParams::default();
    // 20 from the centre: outside 8 + 10, inside the 6 margin.
    let obstacles = [Sphere { center: Vec3::new(20.0, 0.0, 0.0), radius: 10.0 }];
    assert_eq!(
        avoid_obstacles(&moving(Vec3::ZERO), &limits, &obstacles, DT, &p, &mut Gizmos::disabled()),
        None
    );
    let away = moving(Vec3::new(-50.0, 0.0, 0.0));
    assert_eq!(avoid_obstacles(&away, &limits, &obstacles, DT, &p, &mut Gizmos::disabled()), None);
    // Head-on, 2 units from contact at 50 units/s: too close to steer round (stopping takes
    // 50²/800 + 50/30 ≈ 4.8 units), so it brakes straight away from the obstacle.
    let toward = moving(Vec3::new(50.0, 0.0, 0.0));
    let a = avoid_obstacles(&toward, &limits, &obstacles, DT, &p, &mut Gizmos::disabled()).unwrap();
    assert_close(a, Vec3::new(-400.0, 0.0, 0.0), 1e-3);
    // Slowly (10 units/s), there is room to steer round: the lateral push.
    let slow = moving(Vec3::new(10.0, 0.0, 0.0));
    let a = avoid_obstacles(&slow, &limits, &obstacles, DT, &p, &mut Gizmos::disabled()).unwrap();
    assert!(a.x.abs() < 1e-3 && a.y > 0.0, "{a}");
}

#[test]
fn avoidance_in_3d_steers_perpendicular_to_a_climbing_velocity() {
    let obstacles = [Sphere { center: Vec3::new(5.0, 0.0, 50.0), radius: 10.0 }];
    let a = avoid_obstacles(
        &moving(Vec3::new(0.0, 0.0, 100.0)),
        &Limits::default(),
        &obstacles,
        DT,
        &AvoidParams::default(),
        &mut Gizmos::disabled(),
    )
    .unwrap();
    assert!(a.z.abs() < 1e-3 && a.y.abs() < 1e-3 && a.x < 0.0, "{a}");
}

#[test]
fn gliding_along_an_obstacle_within_one_steps_pull_is_pushed_out_before_the_pull_lands() {
    // The failing case proptest found: an agent sliding along a surface with no approach speed
    // at all, 0.2 units clear, with 1,369 u/s² of acceleration. One step of another behaviour
    // pulling inward at full acceleration moves it 1369/60² ≈ 0.38 units: into the obstacle.
    // Avoidance must see that coming and push outward now.
    let limits = Limits { radius: 5.0, max_speed: 92.0, max_acceleration: 1369.0 };
    let obstacles = [Sphere { center: Vec3::new(0.0, 25.2, 0.0), radius: 20.0 }];
    let gliding = moving(Vec3::new(90.0, 0.0, 0.0));
    let a =
        avoid_obstacles(&gliding, &limits, &obstacles, DT, &AvoidParams::default(), &mut Gizmos::disabled())
            .unwrap();
    assert_close(a, Vec3::new(0.0, -1369.0, 0.0), 1e-2);
    // Far enough that one step's pull cannot close the gap (and nothing is ahead): left alone.
    let obstacles = [Sphere { center: Vec3::new(0.0, 45.0, 0.0), radius: 20.0 }];
    assert_eq!(
        avoid_obstacles(&gliding, &limits, &obstacles, DT, &AvoidParams::default(), &mut Gizmos::disabled()),
        None
    );
}

#[test]
fn the_pull_one_step_can_cause_is_reckoned_with_the_scenes_own_step() {
    // 2 units clear. The worst one step can do is pull inward at full acceleration, giving an
    // approach speed of a·dt that then needs (a·dt)²/2a of braking plus two steps of reaction:
    // 0.95 units at 60 Hz (room to spare) but 3.8 units at 30 Hz (too close: push out now).
    let limits = Limits { radius: 5.0, max_speed: 92.0, max_acceleration: 1369.0 };
    let obstacles = [Sphere { center: Vec3::new(0.0, 27.0, 0.0), radius: 20.0 }];
    let gliding = moving(Vec3::new(90.0, 0.0, 0.0));
    let p = AvoidParams { margin: 0.0, ..AvoidParams::default() };
    let avoid = |dt: f32| avoid_obstacles(&gliding, &limits, &obstacles, dt, &p, &mut Gizmos::disabled());
    assert_eq!(avoid(1.0 / 60.0), None, "at 60 Hz the gap holds for a step");
    assert_close(avoid(1.0 / 30.0).unwrap(), Vec3::new(0.0, -1369.0, 0.0), 1e-2);
    // Absurd steps neither panic nor give NaN.
    for dt in [0.0, -1.0, 1e-40, f32::NAN, f32::INFINITY, 1e30] {
        assert!(avoid(dt).is_none_or(|a| a.is_finite()), "dt = {dt}");
    }
}
