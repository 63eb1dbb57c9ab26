//! Properties of arrive, parametric following and obstacle avoidance, checked with a tiny
//! fixed-step integrator like the simulation's: an acceleration is clamped to the maximum
//! acceleration, v += a·dt, the speed is clamped to the maximum speed, p += v·dt, dt = 1/60.

use glam::Vec3;
use proptest::prelude::*;
use std::f32::consts::TAU;
use steerlab::behaviours::arrive::arrive;
use steerlab::behaviours::avoid::avoid_obstacles;
use steerlab::behaviours::parametric::parametric;
use steerlab::behaviours::{
    seek_acceleration, ArriveParams, AvoidParams, Gizmos, Kinematics, Limits, ParametricMethod,
    ParametricParams, ParametricState, Steering,
};
use steerlab::geometry::{Curve, CurveKind, Sphere};

const DT: f32 = 1.0 / 60.0;

/// Applies an acceleration; returns the speed before the speed clamp, so tests can tell
/// whether the behaviour itself asked for more than the maximum speed.
fn integrate(k: &mut Kinematics, limits: &Limits, acceleration: Vec3) -> f32 {
    let acceleration = acceleration.clamp_length_max(limits.max_acceleration);
    k.velocity += acceleration * DT;
    let requested_speed = k.velocity.length();
    k.velocity = k.velocity.clamp_length_max(limits.max_speed);
    k.position += k.velocity * DT;
    requested_speed
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

/// Limits and arrive parameters across the documented typical ranges.
fn arrive_setup() -> impl Strategy<Value = (Limits, ArriveParams)> {
    (50.0f32..300.0, 100.0f32..1000.0, 2.0f32..20.0, 50.0f32..200.0, 0.05f32..0.2).prop_map(
        |(max_speed, max_acceleration, target_radius, slow_radius, time_to_target)| {
            (
                Limits { radius: 8.0, max_speed, max_acceleration },
                ArriveParams { target_radius, slow_radius, time_to_target, ..Default::default() },
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arrive_from_rest_settles_inside_the_target_radius_without_leaving_or_speeding(
        (limits, p) in arrive_setup(),
        angle in 0.0f32..TAU,
        extra_distance in 1.0f32..500.0,
    ) {
        let target = Vec3::new(20.0, -30.0, 0.0);
        let start = target + (p.target_radius + extra_distance) * Vec3::new(angle.cos(), angle.sin(), 0.0);
        let mut k = Kinematics { position: start, ..Default::default() };
        let mut entered_at = None;
        for step in 0..(60 * 30) {
            let a = acceleration_of(arrive(&k, &limits, target, &p, &mut Gizmos::disabled()));
            let requested_speed = integrate(&mut k, &limits, a);
            prop_assert!(requested_speed <= limits.max_speed * (1.0 + 1e-5),
                "asked for {requested_speed} > {}", limits.max_speed);
            let inside = k.position.distance(target) < p.target_radius;
            match entered_at {
                None if inside => entered_at = Some(step),
                Some(first) => prop_assert!(inside,
                    "left the target radius at step {step} after entering at {first}: {}",
                    k.position.distance(target)),
                None => {}
            }
        }
        prop_assert!(entered_at.is_some(), "never arrived: {}", k.position.distance(target));
        prop_assert!(k.velocity.length() < 1e-2, "still moving at {}", k.velocity.length());
    }

    #[test]
    fn arrive_with_any_initial_velocity_comes_to_rest_inside_the_target_radius(
        (limits, p) in arrive_setup(),
        angle in 0.0f32..TAU,
        extra_distance in 1.0f32..500.0,
        velocity_angle in 0.0f32..TAU,
        speed_fraction in 0.0f32..1.0,
    ) {
        let target = Vec3::ZERO;
        let start = (p.target_radius + extra_distance) * Vec3::new(angle.cos(), angle.sin(), 0.0);
        let velocity = speed_fraction * limits.max_speed
            * Vec3::new(velocity_angle.cos(), velocity_angle.sin(), 0.0);
        let mut k = Kinematics { position: start, velocity, orientation: 0.0 };
        for _ in 0..(60 * 40) {
            let a = acceleration_of(arrive(&k, &limits, target, &p, &mut Gizmos::disabled()));
            integrate(&mut k, &limits, a);
        }
        prop_assert!(k.position.distance(target) < p.target_radius);
        prop_assert!(k.velocity.length() < 1e-2);
    }
}

/// A curve for the speed properties, sized by `size` (world units) and shaped by `shape`.
fn speed_test_curve(kind_idx: usize, size: f32, shape: f32) -> Curve {
    let center = Vec3::new(30.0, -20.0, 0.0);
    let kind = match kind_idx {
        0 => CurveKind::Circle { center, radius: size },
        1 => CurveKind::Ellipse { center, radius_x: size, radius_y: size * shape },
        2 => CurveKind::Lemniscate { center, size },
        3 => CurveKind::Helix { center, radius: size, pitch: size * shape, turns: 2.0 },
        4 => {
            // A closed loop through points on a wobbly circle (no coincident points).
            let points = (0..6)
                .map(|i| {
                    let angle = i as f32 * TAU / 6.0;
                    let r = size * (1.0 + 0.5 * shape * (3.0 * angle).sin());
                    center + r * Vec3::new(angle.cos(), angle.sin(), 0.0)
                })
                .collect();
            CurveKind::Spline { points, closed: true }
        }
        _ => CurveKind::Expr {
            x: format!("{size}*cos(t)"),
            y: format!("{}*sin(2*t)", size * shape),
            z: format!("{}*sin(t)", 0.1 * size),
            t_min: 0.0,
            t_max: TAU,
        },
    };
    Curve::new(kind).unwrap()
}

/// Smallest and largest |F'| and largest curvature over [a, b], by sampling.
fn speed_range(curve: &Curve, a: f32, b: f32) -> (f32, f32, f32) {
    let (mut low, mut high, mut curvature) = (f32::INFINITY, 0.0f32, 0.0f32);
    let h = 1e-3;
    for i in 0..=64 {
        let t = a + (b - a) * i as f32 / 64.0;
        let d = curve.derivative(t);
        let dd = (curve.derivative(t + h) - curve.derivative(t - h)) / (2.0 * h);
        let m = d.length();
        low = low.min(m);
        high = high.max(m);
        curvature = curvature.max(d.cross(dd).length() / (m * m * m));
    }
    (low, high, curvature)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arc_length_keeps_the_measured_speed_within_a_tenth_of_a_percent(
        kind_idx in 0usize..6,
        size in 50.0f32..200.0,
        shape in 0.3f32..0.9,
        speed in 30.0f32..300.0,
        delta_t in 0.001f32..0.1,
        t0 in 0.0f32..6.0,
    ) {
        let curve = speed_test_curve(kind_idx, size, shape);
        let p = ParametricParams { speed, delta_t, t0, method: ParametricMethod::ArcLength };
        let mut state = ParametricState::start(&p);
        let mut previous = curve.point(state.t);
        for step in 0..240 {
            let next = position_of(parametric(&curve, &mut state, &p, DT, &mut Gizmos::disabled()));
            if state.finished {
                break;
            }
            let error = ((next - previous).length() / DT - speed) / speed;
            prop_assert!(error.abs() <= 1e-3, "kind {kind_idx}, step {step}, T {}: error {error}", state.t);
            previous = next;
        }
    }

    /// The bound stated on `ParametricMethod::Secant`: the relative error of one secant step is
    /// at most max|F'|/min|F'| − 1 over [T, T + max(ΔT, T_inc)], plus κ²·max(s, |F'|·ΔT)²/24
    /// (chords shorter than arcs) and f32 rounding: of the secant chord, 8ε·|P|/(min|F'|·ΔT),
    /// and of T and the positions in the step itself, 4ε·(|T|·max|F'| + |P|)/s.
    #[test]
    fn secant_error_stays_within_the_speed_variation_bound(
        kind_idx in 0usize..6,
        size in 50.0f32..200.0,
        shape in 0.3f32..0.9,
        speed in 20.0f32..300.0,
        delta_t in 0.001f32..0.1,
        t0 in 0.0f32..6.0,
    ) {
        let curve = speed_test_curve(kind_idx, size, shape);
        prop_assume!(kind_idx != 4 || (t0 - t0.round()).abs() > 0.15);
        let p = ParametricParams { speed, delta_t, t0, method: ParametricMethod::Secant };
        let mut state = ParametricState::start(&p);
        let p0 = curve.point(t0);
        let p2 = position_of(parametric(&curve, &mut state, &p, DT, &mut Gizmos::disabled()));
        let t_increment = state.t - t0;
        prop_assume!(t_increment > 0.0 && !state.finished);
        // The spline's |F'| jumps at integer T; keep the step inside one segment.
        prop_assume!(kind_idx != 4 || t0.floor() == (t0 + t_increment.max(delta_t)).floor());
        let error = ((p2 - p0).length() / DT - speed) / speed;
        let (low, high, curvature) = speed_range(&curve, t0, t0 + t_increment.max(delta_t));
        let distance = speed * DT;
        let bound = high / low - 1.0
            + curvature * curvature * distance.max(high * delta_t).powi(2) / 24.0
            + 8.0 * f32::EPSILON * p0.abs().max_element() / (low * delta_t)
            + 4.0 * f32::EPSILON * (state.t.abs().max(1.0) * high + p0.abs().max_element()) / distance;
        prop_assert!(error.abs() <= bound, "kind {kind_idx}: error {error} > bound {bound}");
    }

    #[test]
    fn parametric_never_produces_nan(
        kind_idx in 0usize..8,
        speed in prop_oneof![Just(0.0f32), Just(1e30f32), Just(-1e30f32), Just(f32::MAX), -300.0f32..300.0],
        delta_t in prop_oneof![Just(0.0f32), Just(-1.0f32), Just(1e-9f32), Just(1e6f32), 0.0001f32..1.0],
        t0 in prop_oneof![Just(0.0f32), Just(-1e6f32), Just(1e9f32), -10.0f32..10.0],
        arc_length in any::<bool>(),
    ) {
        let curve = match kind_idx {
            6 => Curve::new(CurveKind::Circle { center: Vec3::ONE, radius: 0.0 }).unwrap(),
            7 => Curve::new(CurveKind::Spline {
                points: vec![Vec3::ZERO, Vec3::ZERO, Vec3::X * 10.0, Vec3::X * 10.0],
                closed: false,
            })
            .unwrap(),
            _ => speed_test_curve(kind_idx, 100.0, 0.5),
        };
        let method = if arc_length { ParametricMethod::ArcLength } else { ParametricMethod::Secant };
        let p = ParametricParams { speed, delta_t, t0, method };
        let mut state = ParametricState::start(&p);
        let mut gizmos = Gizmos::recording();
        for _ in 0..50 {
            gizmos.clear();
            let next = position_of(parametric(&curve, &mut state, &p, DT, &mut gizmos));
            prop_assert!(next.is_finite(), "position {next}");
            prop_assert!(state.t.is_finite(), "T {}", state.t);
        }
    }

    #[test]
    fn seeking_past_an_obstacle_never_enters_it_with_avoidance_and_does_without(
        max_speed in 50.0f32..250.0,
        max_acceleration in 400.0f32..1000.0,
        agent_radius in 4.0f32..12.0,
        obstacle_radius in 10.0f32..60.0,
        offset_fraction in -0.9f32..0.9,
    ) {
        let limits = Limits { radius: agent_radius, max_speed, max_acceleration };
        let obstacle = Sphere { center: Vec3::new(0.0, 0.0, 0.0), radius: obstacle_radius };
        let reach = agent_radius + obstacle_radius;
        let lane = offset_fraction * reach;
        let target = Vec3::new(400.0, lane, 0.0);
        for avoidance in [true, false] {
            let mut k = Kinematics {
                position: Vec3::new(-400.0, lane, 0.0),
                velocity: Vec3::new(max_speed, 0.0, 0.0),
                orientation: 0.0,
            };
            let mut closest = f32::INFINITY;
            for _ in 0..(60 * 20) {
                let avoid = if avoidance {
                    avoid_obstacles(&k, &limits, &[obstacle], DT, &AvoidParams::default(), &mut Gizmos::disabled())
                } else {
                    None
                };
                // Priority: avoidance replaces the behaviour while it has something to say.
                let a = avoid.unwrap_or_else(|| seek_acceleration(&k, &limits, target));
                integrate(&mut k, &limits, a);
                closest = closest.min(k.position.distance(obstacle.center));
                if k.position.x > 300.0 {
                    break;
                }
            }
            prop_assert!(k.position.x > 300.0, "avoidance {avoidance}: stuck at {}", k.position);
            if avoidance {
                prop_assert!(closest >= reach, "entered: {closest} < {reach}");
            } else {
                prop_assert!(closest < reach, "missed without avoidance: {closest}");
            }
        }
    }
}
