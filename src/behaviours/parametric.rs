//! Constant-speed following of a parametric curve F(T) (seed 000).
//!
//! # Motivation
//! A curve given as F(T) is easy to write but T is not distance: stepping T at a constant rate
//! makes an agent rush along the flat parts of an ellipse and crawl around its ends. Seed 000
//! turns a desired speed into a T increment through the curve's derivative, so the agent moves
//! at (nearly) the set speed whatever the parametrisation.
//!
//! # Implementation
//! [`ParametricMethod::Secant`] is the seed's twelve steps exactly: distance = speed·dt;
//! P0 = F(T); P1 = F(T + ΔT); F' ≈ (P1 − P0)/ΔT; T_inc = distance/|F'|; T_new = T + T_inc;
//! P2 = F(T_new); the agent is moved onto P2 ([`Steering::Position`]).
//!
//! Its measured speed |P2 − P0|/dt is off by a first-order error (derivation on
//! [`ParametricMethod::Secant`]). [`ParametricMethod::ArcLength`] removes it: it starts from
//! the exact-derivative estimate τ = distance/|F'(T)| and refines τ by at most
//! [`ARC_LENGTH_ITERATIONS`] safeguarded Newton steps on the chord equation
//! |F(T + τ) − F(T)| = distance (derivative of the chord length:
//! (F(T+τ) − F(T))·F'(T+τ)/|F(T+τ) − F(T)|; each step is clamped to [τ/2, 2τ] and the best
//! iterate is kept), so the measured speed equals the set speed to f32 precision: about
//! ε·(|T|·|F'| + |P|)/distance, under 2e-4 for typical curves and speeds. Where the curve turns
//! back inside the step (the tangent at τ points against the tangent at T: a cusp, an
//! out-and-back), a chord of `distance` can span far more curve than that, and the agent would
//! jump across the turn; there τ is found by marching the arc as short chords instead
//! (`march_arc`). The secant keeps the seed's behaviour at such points: |F'| → 0 makes its
//! T increment huge, and it jumps (an astroid's cusps: 70× the set speed).
//!
//! Robustness, shared by both methods:
//! - ΔT ≤ 0 (or not finite) is replaced by [`DEFAULT_DELTA_T`].
//! - A derivative that is ≈ 0 (a cusp, a zero-radius circle, a constant expression: the chord
//!   over ΔT is below f32 position resolution) advances T by ΔT instead of dividing by zero.
//! - Closed curves keep T wrapped into [t_min, t_max) so it never loses precision over laps;
//!   open curves stop at t_max (`finished` = true; the agent stays on F(t_max)).
//! - A negative speed runs the curve backwards (and an open curve finishes at t_min).
//! - A non-finite T, speed or dt never reaches F: the step keeps T and returns F(T).
//!
//! # Parameters
//! `speed` (world units per second), `delta_t` (the seed's small T increment for the secant,
//! typically 0.001–0.1), `t0` (starting T) and `method` (secant or arc length).

use super::param::{Param, ParamKind};
use super::{GizmoRole, GizmoShape, Gizmos, Steering};
use crate::geometry::Curve;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// The ΔT used when the parameters give ΔT ≤ 0 or a non-finite one.
pub const DEFAULT_DELTA_T: f32 = 0.01;

/// Maximum Newton iterations of the arc-length method (it usually converges in two).
pub const ARC_LENGTH_ITERATIONS: usize = 8;

/// How T is advanced each step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParametricMethod {
    /// The seed's twelve steps: secant over delta T as F'(T), T increment = distance / |F'|.
    ///
    /// Error. Write m = |F'(T)| for the parametric speed, m' = dm/dT, s = speed·dt for the
    /// distance to travel, κ for the curvature and ΔT for `delta_t`. The secant chord gives
    /// m̂ = |F(T+ΔT) − F(T)|/ΔT = (m + m'ΔT/2)·(1 − κ²m²ΔT²/24) + …, so T_inc = s/m̂, and the
    /// chord actually travelled is |F(T+T_inc) − F(T)| = (m·T_inc + m'T_inc²/2)·(1 − κ²s²/24) + ….
    /// The relative speed error of a step is therefore
    ///
    /// (|P2 − P0|/dt − speed)/speed ≈ (m'/(2m))·(T_inc − ΔT) + κ²·(m²ΔT² − s²)/24,
    ///
    /// first order in ΔT and in the T step s/m, weighted by how fast the parametrisation's speed
    /// changes (m'/m); curvature enters only at second order (chords are shorter than arcs). On
    /// a circle or helix (m' = 0) only the second-order terms remain, and the error vanishes to
    /// first order when ΔT happens to equal T_inc. A bound that holds without the expansion
    /// (checked by `tests/behav_props.rs`): |error| ≤ max m/min m − 1 over
    /// [T, T + max(ΔT, T_inc)] + κ²·max(s, mΔT)²/24 + f32 rounding (8ε|P|/(mΔT) for the secant
    /// chord, 4ε(|T|m + |P|)/s for the step). Where |F'| is small compared with its rate of
    /// change, or jumps (a spline's knots when neighbouring segments differ in length), the
    /// error is of the order of that jump.
    ///
    /// Measured largest errors at speed 100, dt 1/60, ΔT 0.01 over 50 s
    /// (`secant_speed_error_stays_within_the_documented_numbers` in `tests/behav_units.rs`;
    /// arc length on the same curves in brackets): circle r 100: 3.8e-5 (1.9e-5); ellipse
    /// 200×100: 1.7e-3 (5.0e-5); lemniscate 200: 2.2e-4 (7.0e-5); lissajous 150·(sin 3t,
    /// sin 2t): 8.3e-3 (1.8e-4); lissajous with phase 0.5: 0.125 (1.8e-4); helix r 100 pitch
    /// 50: 1.6e-4 (8.8e-5); expr (200 cos t, 100 sin 2t): 1.5e-3 (5.2e-5); closed spline of
    /// 4 points: 0.17 at a knot (6.3e-5). With ΔT 0.1 the ellipse reaches 3.3% and the first
    /// lissajous 25%; with ΔT 0.001 the ellipse reaches 0.5% (|T_inc − ΔT| is larger).
    #[default]
    Secant,
    /// A corrected method whose measured speed equals the set speed: Newton iterations on the
    /// chord length |F(T + τ) − F(T)| = distance (see the module notes).
    ArcLength,
}

/// Parameters of parametric curve following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ParametricParams {
    /// Desired speed along the curve (world units per second, typically 20–300).
    pub speed: f32,
    /// The seed's small parameter increment for the secant (T units, typically 0.001–0.1).
    pub delta_t: f32,
    /// Starting parameter T0.
    pub t0: f32,
    /// Secant (the seed) or arc length (corrected).
    pub method: ParametricMethod,
}

impl ParametricParams {
    /// Declaration of `speed`.
    pub const SPEED: Param = Param {
        key: "speed",
        label: "speed",
        unit: "u/s",
        min: 0.0,
        max: 1000.0,
        default: 100.0,
        help: "Desired speed along the curve.",
        kind: ParamKind::Float,
    };
    /// Declaration of `delta_t`.
    pub const DELTA_T: Param = Param {
        key: "delta_t",
        label: "delta T",
        unit: "T",
        min: 0.0001,
        max: 1.0,
        default: 0.01,
        help: "The seed small parameter increment for the secant.",
        kind: ParamKind::Log,
    };
    /// Declaration of `t0`.
    pub const T0: Param = Param {
        key: "t0",
        label: "T0",
        unit: "T",
        min: -1000.0,
        max: 1000.0,
        default: 0.0,
        help: "Starting parameter T0 (where Reset puts the agent).",
        kind: ParamKind::Float,
    };
    /// Every parameter, in field order (the panel, the validator and the docs read this).
    pub const PARAMS: &'static [Param] = &[Self::SPEED, Self::DELTA_T, Self::T0];
}

impl Default for ParametricParams {
    fn default() -> Self {
        ParametricParams {
            speed: Self::SPEED.default,
            delta_t: Self::DELTA_T.default,
            t0: Self::T0.default,
            method: ParametricMethod::Secant,
        }
    }
}

/// The follower's parameter T.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParametricState {
    /// Current parameter value.
    pub t: f32,
    /// True once T has reached the end of an open curve.
    pub finished: bool,
}

impl ParametricState {
    /// State at T0 (seed step 2: the agent is placed at F(T0)).
    pub fn start(p: &ParametricParams) -> Self {
        ParametricState { t: p.t0, finished: false }
    }
}

/// One step of `dt` seconds: returns [`Steering::Position`] with P2 = F(T_new).
pub fn parametric(
    curve: &Curve,
    state: &mut ParametricState,
    p: &ParametricParams,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    let (t_min, t_max) = curve.t_range();
    let closed = curve.is_closed() && t_max > t_min;
    let delta_t = if p.delta_t > 0.0 && p.delta_t.is_finite() { p.delta_t } else { DEFAULT_DELTA_T };

    // Steps 3–5: the distance to travel this step (signed: a negative speed runs backwards).
    let distance = if dt > 0.0 { p.speed * dt } else { 0.0 };
    let distance = if distance.is_finite() { distance } else { 0.0 };
    let direction = if distance < 0.0 { -1.0 } else { 1.0 };
    let length = distance.abs();

    let t = keep_in_range(state.t, t_min, t_max, closed);
    let p0 = curve.point(t);
    let (t_increment, tangent) = match p.method {
        ParametricMethod::Secant => secant_increment(curve, t, p0, length, delta_t),
        ParametricMethod::ArcLength => arc_length_increment(curve, t, p0, length, direction, delta_t),
    };
    let mut t_new = t + direction * t_increment;
    if !t_new.is_finite() {
        t_new = t;
    }
    let mut finished = false;
    if closed {
        t_new = wrap(t_new, t_min, t_max);
    } else if t_new >= t_max {
        t_new = t_max;
        finished = direction > 0.0;
    } else if t_new <= t_min {
        t_new = t_min;
        finished = direction < 0.0 && length > 0.0;
    }
    state.t = t_new;
    state.finished = finished;
    let p2 = curve.point(t_new);

    if gizmos.is_enabled() {
        // The tangent drawn as long as half a second of travel.
        let arrow_length = if p.speed.is_finite() { p.speed.abs() * 0.5 } else { 0.0 };
        let arrow = tangent.normalize_or_zero() * arrow_length;
        gizmos.push(GizmoRole::Tangent, GizmoShape::Arrow(p0, p0 + direction * arrow));
        gizmos.push(GizmoRole::ParameterValue, GizmoShape::Value { at: p0, value: t });
        gizmos.push(GizmoRole::Target, GizmoShape::Point(p2));
    }
    Steering::Position(p2)
}

/// Seed steps 6–9: the T increment (unsigned, as the seed steps forward with +ΔT) and the
/// secant estimate of F'. A chord below f32 position resolution advances T by ΔT.
fn secant_increment(curve: &Curve, t: f32, p0: Vec3, length: f32, delta_t: f32) -> (f32, Vec3) {
    let p1 = curve.point(t + delta_t);
    let chord = p1 - p0;
    let derivative = chord / delta_t;
    if is_degenerate(chord.length(), p0) {
        return (delta_t, derivative);
    }
    let increment = length / derivative.length();
    if increment.is_finite() {
        (increment, derivative)
    } else {
        (delta_t, derivative)
    }
}

/// The arc-length method: τ with |F(T ± τ) − F(T)| = length, from the exact-derivative
/// estimate refined by safeguarded Newton steps (a bisection step wherever Newton's would leave
/// the bracket of τs known too short and too long), then checked for a turn back inside the
/// step ([`march_arc`]). Returns τ (unsigned) and F'(T).
fn arc_length_increment(
    curve: &Curve,
    t: f32,
    p0: Vec3,
    length: f32,
    direction: f32,
    delta_t: f32,
) -> (f32, Vec3) {
    let derivative = curve.derivative(t);
    if length <= 0.0 {
        return (0.0, derivative);
    }
    let speed = derivative.length();
    let mut tau = if is_degenerate(speed * delta_t, p0) { delta_t } else { length / speed };
    if !tau.is_finite() || tau <= 0.0 {
        tau = delta_t;
    }
    // Chord lengths cannot be resolved better than the f32 spacing of the positions.
    let tolerance = 1e-5 * length + 4.0 * f32::EPSILON * p0.abs().max_element();
    let mut best = (f32::INFINITY, tau);
    // τs known to give a chord too short (`short`) and too long (`long`).
    let (mut short, mut long) = (0.0f32, f32::INFINITY);
    for _ in 0..ARC_LENGTH_ITERATIONS {
        let t_new = t + direction * tau;
        let chord = curve.point(t_new) - p0;
        let chord_length = chord.length();
        let error = chord_length - length;
        if !error.is_finite() {
            break;
        }
        if error.abs() < best.0 {
            best = (error.abs(), tau);
        }
        if error.abs() <= tolerance {
            break;
        }
        if error > 0.0 {
            long = long.min(tau);
        } else {
            short = short.max(tau);
        }
        // d|chord|/dτ = direction · chord·F'(T ± τ) / |chord|.
        let slope = if chord_length > 0.0 {
            direction * chord.dot(curve.derivative(t_new)) / chord_length
        } else {
            curve.derivative(t_new).length()
        };
        let newton = (tau - error / slope).clamp(0.5 * tau, 2.0 * tau);
        tau = if slope > 0.0 && newton > short && newton < long {
            newton
        } else if long.is_finite() {
            // The chord does not grow with τ here (the curve turned back), or Newton's step
            // left the bracket: halve it.
            0.5 * (short + long)
        } else {
            2.0 * tau
        };
        if !(tau.is_finite() && tau > 0.0) {
            break;
        }
    }
    let tau = best.1;
    // Where the curve turns back inside the step (a cusp, an out-and-back; the tangent at its
    // end points against the one at its start), a chord of `length` spans more curve than that,
    // and the agent would jump across the turn: measure the arc instead.
    let end_tangent = curve.derivative(t + direction * tau);
    if derivative.dot(end_tangent) < 0.0 || !end_tangent.is_finite() {
        return (march_arc(curve, t, p0, length, direction, tau), derivative);
    }
    (tau, derivative)
}

/// Sub-chords for each pass of [`march_arc`] (two passes: over the step, then over the
/// sub-step where the arc reaches `length`).
const MARCH_CHORDS: usize = 32;

/// The τ ≤ `tau` at which the arc of the curve from T, summed as chords, reaches `length`:
/// marched over `tau` in [`MARCH_CHORDS`] sub-steps, then over the sub-step where the sum
/// passes `length` in as many again, interpolated within the last. A curve that does not
/// reach `length` within `tau` (it cannot, `tau`'s chord being at least about `length`, but
/// rounding) gives `tau`.
fn march_arc(curve: &Curve, t: f32, p0: Vec3, length: f32, direction: f32, tau: f32) -> f32 {
    let (mut from, mut span, mut start, mut walked) = (0.0f32, tau, p0, 0.0f32);
    for _ in 0..2 {
        let step = span / MARCH_CHORDS as f32;
        let mut found = None;
        let mut previous = start;
        for i in 1..=MARCH_CHORDS {
            let at = from + step * i as f32;
            let point = curve.point(t + direction * at);
            let piece = (point - previous).length();
            if !piece.is_finite() {
                return tau;
            }
            if walked + piece >= length {
                found = Some((at - step, previous));
                break;
            }
            walked += piece;
            previous = point;
        }
        let Some((at, point)) = found else { return tau };
        (from, span, start) = (at, step, point);
    }
    // Within the last sub-step the curve is as good as straight: interpolate.
    let last = curve.point(t + direction * (from + span));
    let piece = (last - start).length();
    let fraction = if piece > 0.0 { ((length - walked) / piece).clamp(0.0, 1.0) } else { 1.0 };
    from + span * fraction
}

/// True when a chord of `chord_length` near `position` is below f32 position resolution.
fn is_degenerate(chord_length: f32, position: Vec3) -> bool {
    // Written so that a NaN chord also counts as degenerate.
    chord_length.is_nan() || chord_length <= 1e-6 * position.abs().max_element().max(1.0)
}

/// T made finite and, for closed curves, wrapped into [t_min, t_max); open curves clamp.
fn keep_in_range(t: f32, t_min: f32, t_max: f32, closed: bool) -> f32 {
    if !t.is_finite() {
        return t_min;
    }
    if closed {
        wrap(t, t_min, t_max)
    } else {
        t.clamp(t_min, t_max.max(t_min))
    }
}

/// Wraps T into [t_min, t_max) (period t_max − t_min > 0).
fn wrap(t: f32, t_min: f32, t_max: f32) -> f32 {
    let period = t_max - t_min;
    let wrapped = t_min + (t - t_min).rem_euclid(period);
    // rem_euclid can round up to the period itself.
    if wrapped >= t_max || !wrapped.is_finite() {
        t_min
    } else {
        wrapped
    }
}
