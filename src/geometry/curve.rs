//! Parametric curves F(T) → point in 3D (seed 000's "path as a parametric function").
//!
//! Kinds: circle, ellipse, lemniscate (of Bernoulli), lissajous, helix (3D), spline
//! (centripetal Catmull-Rom through points, open or closed) and expr (typed x(t), y(t), z(t)
//! parsed once with exmex). Every built-in kind has a closed-form derivative; expressions are
//! differentiated by a central difference in f64, which is exact to f32 precision for smooth
//! expressions. exmex's symbolic derivative is deliberately not used: it recurses once per term
//! with large stack frames, so `t+t+…+t` of a few dozen terms overflowed a thread's stack and
//! aborted the process (a 2 MB test thread lasted 21 terms, the 8 MB main thread 79).
//! Parsing and evaluation in exmex are iterative and safe for any text within the limits.
//!
//! An expression is refused when it is longer than [`MAX_EXPRESSION_LEN`] characters, nests
//! parentheses deeper than [`MAX_EXPRESSION_DEPTH`], or is not usable over its range: at
//! [`RANGE_SAMPLES`]` + 1` evenly spaced values of t (both ends included) each component and
//! its derivative must be finite and each coordinate within ±[`MAX_CURVE_COORDINATE`]; the
//! error names the first t where that fails. Between two such samples, a sign change of the
//! derivative (a peak, or an even pole like `1/(t-1)^2`) or a move against the derivative (an
//! odd pole like `100/(t-1)`, which no sample hits) is bisected down to f32 resolution and the
//! points found are checked the same way (`check_between`): a pole is refused wherever it
//! lies, a finite step (`floor(t)`) is kept. Numbers may be written in scientific notation
//! (`1e3`, `2.5E-2`).
//!
//! Evaluation never produces NaN or infinity for a finite T: a component that evaluates to a
//! non-finite number (a pole narrower than f32's resolution, or absurd parameters) falls back to
//! 0 for that component, a visible jump to the axis that keeps followers and renderer free of NaN.

use exmex::prelude::*;
use exmex::{FloatOpsFactory, MatchLiteral};
use glam::Vec3;
use std::f32::consts::TAU;

/// Longest expression, in characters.
pub const MAX_EXPRESSION_LEN: usize = 256;
/// Deepest nesting of parentheses in an expression.
pub const MAX_EXPRESSION_DEPTH: usize = 32;
/// Largest |coordinate| an expression may reach over its range (the scene's coordinate limit).
pub const MAX_CURVE_COORDINATE: f32 = 1e6;
/// Intervals of the parameter range sampled when an expression curve is checked.
pub const RANGE_SAMPLES: usize = 1024;

/// A parsed expression: f64 values, exmex's float operators, numbers with an optional exponent.
type Expression = FlatEx<f64, FloatOpsFactory<f64>, ScientificNumber>;

/// Why a curve could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CurveError {
    /// An `expr` component did not parse, uses a variable other than `t`, is too long or too
    /// deeply nested, or is not finite (or too large) somewhere in its range.
    #[error("bad expression for {component}: `{expression}`: {reason}")]
    BadExpression {
        /// "x", "y" or "z".
        component: &'static str,
        /// The text as typed.
        expression: String,
        /// What is wrong.
        reason: String,
    },
    /// A spline needs at least two points.
    #[error("a spline needs at least 2 points, got {0}")]
    TooFewPoints(usize),
}

/// The shape of a curve with its parameters (plain data, as in the scene file).
#[derive(Clone, Debug, PartialEq)]
pub enum CurveKind {
    /// center + radius·(cos t, sin t), t in [0, 2π).
    Circle {
        /// Centre of the circle.
        center: Vec3,
        /// Radius in world units.
        radius: f32,
    },
    /// center + (a cos t, b sin t), t in [0, 2π).
    Ellipse {
        /// Centre of the ellipse.
        center: Vec3,
        /// Semi-axis along x (a).
        radius_x: f32,
        /// Semi-axis along y (b).
        radius_y: f32,
    },
    /// Lemniscate of Bernoulli of half-width `size`: size·(cos t, sin t cos t)/(1 + sin² t),
    /// t in [0, 2π).
    Lemniscate {
        /// Centre (the crossing point).
        center: Vec3,
        /// Half-width along x in world units.
        size: f32,
    },
    /// center + (ax sin(fx t + phase), ay sin(fy t)); `amplitude.z` is unused (the figure lies
    /// in its centre's plane). Closed with t in [0, 2π) when both frequencies are integers,
    /// otherwise open on [0, 2π].
    Lissajous {
        /// Centre of the figure.
        center: Vec3,
        /// Amplitudes along x and y (z is ignored).
        amplitude: Vec3,
        /// Angular frequency of x.
        freq_x: f32,
        /// Angular frequency of y.
        freq_y: f32,
        /// Phase of x in radians.
        phase: f32,
    },
    /// center + (r cos t, r sin t, pitch·t/2π), t in [0, 2π·turns] (open).
    Helix {
        /// Centre of the bottom turn.
        center: Vec3,
        /// Radius in world units.
        radius: f32,
        /// Rise along z per turn in world units.
        pitch: f32,
        /// Number of turns (the parameter range is 2π·turns).
        turns: f32,
    },
    /// Catmull-Rom through points; t in [0, n-1] open, [0, n) closed. Centripetal (knots
    /// spaced by √distance: no cusps or self-loops within a segment), one unit of T per
    /// segment, so point i is F(i). Open ends use mirrored phantom points; open splines clamp T.
    Spline {
        /// The points the curve passes through (one per integer T).
        points: Vec<Vec3>,
        /// Whether the last point joins back to the first.
        closed: bool,
    },
    /// Typed components of t.
    Expr {
        /// x(t).
        x: String,
        /// y(t).
        y: String,
        /// z(t); an empty text means 0.
        z: String,
        /// Start of the parameter range.
        t_min: f32,
        /// End of the parameter range.
        t_max: f32,
    },
}

/// A curve ready to evaluate (expressions parsed once).
#[derive(Clone, Debug)]
pub struct Curve {
    kind: CurveKind,
    t_min: f32,
    t_max: f32,
    closed: bool,
    /// Parsed components of an `expr` curve (None for the built-in kinds).
    expr: Option<Box<[ExprComponent; 3]>>,
}

impl Curve {
    /// Builds a curve, parsing expressions; fails with a message naming the bad expression.
    ///
    /// An `expr` curve whose end point coincides with its start point (within 1e-4 of its
    /// size) is treated as closed, so a typed circle loops like the built-in one. A reversed
    /// expr range (t_max < t_min) is swapped.
    pub fn new(kind: CurveKind) -> Result<Curve, CurveError> {
        let mut curve = Curve { kind, t_min: 0.0, t_max: TAU, closed: true, expr: None };
        match &curve.kind {
            CurveKind::Circle { .. } | CurveKind::Ellipse { .. } | CurveKind::Lemniscate { .. } => {}
            CurveKind::Lissajous { freq_x, freq_y, .. } => {
                curve.closed = is_integer(*freq_x) && is_integer(*freq_y);
            }
            CurveKind::Helix { turns, .. } => {
                curve.closed = false;
                curve.t_max = TAU * turns.max(0.0);
            }
            CurveKind::Spline { points, closed } => {
                if points.len() < 2 {
                    return Err(CurveError::TooFewPoints(points.len()));
                }
                let n = points.len() as f32;
                curve.closed = *closed;
                curve.t_max = if *closed { n } else { n - 1.0 };
            }
            CurveKind::Expr { x, y, z, t_min, t_max } => {
                let components = [
                    ExprComponent::parse("x", x, false)?,
                    ExprComponent::parse("y", y, false)?,
                    ExprComponent::parse("z", z, true)?,
                ];
                curve.t_min = t_min.min(*t_max);
                curve.t_max = t_min.max(*t_max);
                curve.expr = Some(Box::new(components));
                curve.closed = false;
                curve.check_expr_range(x, y, z)?;
                curve.closed = curve.ends_meet();
            }
        }
        Ok(curve)
    }

    /// The plain data this curve was built from.
    pub fn kind(&self) -> &CurveKind {
        &self.kind
    }

    /// F(T). Never NaN for finite input: a component that evaluates to a non-finite number
    /// gives 0 for that component. Closed splines wrap T; open splines clamp it to their range.
    pub fn point(&self, t: f32) -> Vec3 {
        let p = match &self.kind {
            CurveKind::Circle { center, radius } => {
                let (s, c) = t.sin_cos();
                *center + *radius * Vec3::new(c, s, 0.0)
            }
            CurveKind::Ellipse { center, radius_x, radius_y } => {
                let (s, c) = t.sin_cos();
                *center + Vec3::new(radius_x * c, radius_y * s, 0.0)
            }
            CurveKind::Lemniscate { center, size } => {
                let (s, c) = t.sin_cos();
                let d = 1.0 + s * s;
                *center + *size * Vec3::new(c / d, s * c / d, 0.0)
            }
            CurveKind::Lissajous { center, amplitude, freq_x, freq_y, phase } => {
                *center
                    + Vec3::new(
                        amplitude.x * (freq_x * t + phase).sin(),
                        amplitude.y * (freq_y * t).sin(),
                        0.0,
                    )
            }
            CurveKind::Helix { center, radius, pitch, .. } => {
                let (s, c) = t.sin_cos();
                *center + Vec3::new(radius * c, radius * s, pitch * t / TAU)
            }
            CurveKind::Spline { points, closed } => self.spline_segment(points, *closed, t).point(),
            CurveKind::Expr { .. } => match &self.expr {
                Some(components) => {
                    let [x, y, z] = &**components;
                    let t = f64::from(t);
                    Vec3::new(x.value(t), y.value(t), z.value(t))
                }
                None => Vec3::ZERO,
            },
        };
        finite_or_zero(p)
    }

    /// Derivative F'(T): exact in closed form for the built-in kinds, a central difference in
    /// f64 for expressions. Never NaN for finite input (non-finite components give 0).
    pub fn derivative(&self, t: f32) -> Vec3 {
        let d = match &self.kind {
            CurveKind::Circle { radius, .. } => {
                let (s, c) = t.sin_cos();
                *radius * Vec3::new(-s, c, 0.0)
            }
            CurveKind::Ellipse { radius_x, radius_y, .. } => {
                let (s, c) = t.sin_cos();
                Vec3::new(-radius_x * s, radius_y * c, 0.0)
            }
            CurveKind::Lemniscate { size, .. } => {
                // d/dt [c/(1+s²)] = -s(3 - s²)/(1+s²)², d/dt [sc/(1+s²)] = (1 - 3s²)/(1+s²)².
                let s = t.sin();
                let s2 = s * s;
                let d2 = (1.0 + s2) * (1.0 + s2);
                *size * Vec3::new(-s * (3.0 - s2) / d2, (1.0 - 3.0 * s2) / d2, 0.0)
            }
            CurveKind::Lissajous { amplitude, freq_x, freq_y, phase, .. } => Vec3::new(
                amplitude.x * freq_x * (freq_x * t + phase).cos(),
                amplitude.y * freq_y * (freq_y * t).cos(),
                0.0,
            ),
            CurveKind::Helix { radius, pitch, .. } => {
                let (s, c) = t.sin_cos();
                Vec3::new(-radius * s, radius * c, pitch / TAU)
            }
            CurveKind::Spline { points, closed } => self.spline_segment(points, *closed, t).derivative(),
            CurveKind::Expr { .. } => match &self.expr {
                Some(components) => {
                    let [x, y, z] = &**components;
                    let t = f64::from(t);
                    Vec3::new(x.derivative(t), y.derivative(t), z.derivative(t))
                }
                None => Vec3::ZERO,
            },
        };
        finite_or_zero(d)
    }

    /// Parameter range [t_min, t_max].
    pub fn t_range(&self) -> (f32, f32) {
        (self.t_min, self.t_max)
    }

    /// Whether the curve is periodic (T wraps from t_max to t_min).
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Checks every expression component over the range (see the module documentation).
    fn check_expr_range(&self, x: &str, y: &str, z: &str) -> Result<(), CurveError> {
        let Some(components) = &self.expr else { return Ok(()) };
        let texts = [("x", x), ("y", y), ("z", z)];
        let samples: Vec<f32> = (0..=RANGE_SAMPLES)
            .map(|i| {
                let fraction = i as f32 / RANGE_SAMPLES as f32;
                if i == RANGE_SAMPLES {
                    self.t_max
                } else {
                    self.t_min + (self.t_max - self.t_min) * fraction
                }
            })
            .collect();
        for (component, (name, text)) in components.iter().zip(texts) {
            let bad = |reason: String| CurveError::BadExpression {
                component: name,
                expression: text.to_string(),
                reason,
            };
            let mut probes = Vec::with_capacity(samples.len());
            for &t in &samples {
                let probe = component.probe(f64::from(t));
                probe.check().map_err(|problem| bad(format!("{name}(t) {problem} at t = {t}")))?;
                probes.push(probe);
            }
            if component.constant {
                continue;
            }
            for pair in probes.windows(2) {
                component.check_between(&pair[0], &pair[1]).map_err(|(t, problem)| {
                    bad(format!(
                        "{name}(t) {problem} at t = {t}, between evenly spaced checks (a pole or a peak)"
                    ))
                })?;
            }
        }
        Ok(())
    }

    /// Whether an expr curve's ends coincide (decides `closed` for expressions).
    fn ends_meet(&self) -> bool {
        if self.t_max <= self.t_min {
            return false;
        }
        let start = self.point(self.t_min);
        let end = self.point(self.t_max);
        // The size of the curve from a few samples: enough to set a relative tolerance.
        let mut size = 1.0f32;
        for i in 1..16 {
            let t = self.t_min + (self.t_max - self.t_min) * i as f32 / 16.0;
            size = size.max(self.point(t).distance(start));
        }
        start.distance(end) <= 1e-4 * size
    }

    /// The Catmull-Rom segment containing `t` and the local parameter within it.
    fn spline_segment(&self, points: &[Vec3], closed: bool, t: f32) -> SplineSegment {
        let n = points.len();
        let last = n.saturating_sub(1);
        let (segment_idx, u) = if closed {
            let period = n as f32;
            let wrapped = if t.is_finite() { t.rem_euclid(period) } else { 0.0 };
            let idx = (wrapped.floor() as usize).min(last);
            (idx, (wrapped - idx as f32).clamp(0.0, 1.0))
        } else {
            let max_t = last as f32;
            let clamped = if t.is_finite() { t.clamp(0.0, max_t) } else { 0.0 };
            let idx = (clamped.floor() as usize).min(last.saturating_sub(1));
            (idx, (clamped - idx as f32).clamp(0.0, 1.0))
        };
        let get = |i: usize| points.get(i).copied().unwrap_or(Vec3::ZERO);
        let p1 = get(segment_idx);
        let (p0, p2, p3) = if closed {
            (get((segment_idx + n - 1) % n), get((segment_idx + 1) % n), get((segment_idx + 2) % n))
        } else {
            let p2 = get(segment_idx + 1);
            // Open ends use mirrored phantom points so the end tangents follow the end segments.
            let p0 = if segment_idx == 0 { 2.0 * p1 - p2 } else { get(segment_idx - 1) };
            let p3 = if segment_idx + 2 >= n { 2.0 * p2 - p1 } else { get(segment_idx + 2) };
            (p0, p2, p3)
        };
        SplineSegment { p: [p0, p1, p2, p3], u }
    }
}

/// One centripetal Catmull-Rom segment from `p[1]` to `p[2]` at local parameter `u` in [0, 1].
///
/// Centripetal (knot spacing √distance) rather than uniform: it never forms cusps or loops
/// inside a segment, so |F'| stays away from zero between distinct points. Each segment
/// spans one unit of T, so the curve passes through point i at T = i; the direction of F' is
/// continuous there but its length jumps when neighbouring segments differ in length.
struct SplineSegment {
    p: [Vec3; 4],
    u: f32,
}

impl SplineSegment {
    /// Knots t0..t3 (t1 = 0) and the global knot value s for `u`.
    fn knots(&self) -> ([f32; 4], f32) {
        let [p0, p1, p2, p3] = self.p;
        let spacing = |a: Vec3, b: Vec3| a.distance(b).sqrt().max(1e-6);
        let t0 = -spacing(p0, p1);
        let t2 = spacing(p1, p2);
        let t3 = t2 + spacing(p2, p3);
        let knots = [t0, 0.0, t2, t3];
        (knots, self.u * t2)
    }

    /// The Barry-Goldman pyramid; returns the point and its derivative with respect to `u`.
    fn evaluate(&self) -> (Vec3, Vec3) {
        let [p0, p1, p2, p3] = self.p;
        let ([t0, t1, t2, t3], s) = self.knots();
        // Interpolation written as a + (s - ta)/(tb - ta)·(b - a) so equal points stay exact.
        let lerp = |a: Vec3, b: Vec3, ta: f32, tb: f32| a + (s - ta) / (tb - ta) * (b - a);
        let slope = |a: Vec3, b: Vec3, ta: f32, tb: f32| (b - a) / (tb - ta);
        let a1 = lerp(p0, p1, t0, t1);
        let a2 = lerp(p1, p2, t1, t2);
        let a3 = lerp(p2, p3, t2, t3);
        let da1 = slope(p0, p1, t0, t1);
        let da2 = slope(p1, p2, t1, t2);
        let da3 = slope(p2, p3, t2, t3);
        let b1 = lerp(a1, a2, t0, t2);
        let b2 = lerp(a2, a3, t1, t3);
        let db1 = slope(a1, a2, t0, t2) + da1 + (s - t0) / (t2 - t0) * (da2 - da1);
        let db2 = slope(a2, a3, t1, t3) + da2 + (s - t1) / (t3 - t1) * (da3 - da2);
        let c = lerp(b1, b2, t1, t2);
        let dc = slope(b1, b2, t1, t2) + db1 + (s - t1) / (t2 - t1) * (db2 - db1);
        // ds/du = t2 - t1.
        (c, dc * (t2 - t1))
    }

    fn point(&self) -> Vec3 {
        self.evaluate().0
    }

    fn derivative(&self) -> Vec3 {
        self.evaluate().1
    }
}

/// One parsed expression component.
#[derive(Clone, Debug)]
struct ExprComponent {
    /// The expression; None means the constant 0 (an empty z).
    value: Option<Expression>,
    /// True when the expression does not use `t` (derivative 0).
    constant: bool,
}

impl ExprComponent {
    fn parse(component: &'static str, text: &str, empty_is_zero: bool) -> Result<Self, CurveError> {
        let bad =
            |reason: String| CurveError::BadExpression { component, expression: text.to_string(), reason };
        if text.trim().is_empty() {
            if empty_is_zero {
                return Ok(ExprComponent { value: None, constant: true });
            }
            return Err(bad("the expression is empty".to_string()));
        }
        let len = text.chars().count();
        if len > MAX_EXPRESSION_LEN {
            return Err(bad(format!(
                "the expression is too long ({len} characters, at most {MAX_EXPRESSION_LEN})"
            )));
        }
        let depth = nesting_depth(text);
        if depth > MAX_EXPRESSION_DEPTH {
            return Err(bad(format!(
                "parentheses are nested too deeply ({depth} levels, at most {MAX_EXPRESSION_DEPTH})"
            )));
        }
        let value = Expression::parse(text).map_err(|e| bad(parse_reason(text, &e.to_string())))?;
        if let Some(other) = value.var_names().iter().find(|name| name.as_str() != "t") {
            return Err(bad(format!("unknown variable `{other}` (only `t` is allowed)")));
        }
        let constant = value.var_names().is_empty();
        Ok(ExprComponent { value: Some(value), constant })
    }

    /// The value in f64, NaN when exmex cannot evaluate it.
    fn value_f64(&self, t: f64) -> f64 {
        match &self.value {
            Some(expr) => expr.eval_relaxed(&[t]).unwrap_or(f64::NAN),
            None => 0.0,
        }
    }

    fn value(&self, t: f64) -> f32 {
        finite_f32(self.value_f64(t))
    }

    /// The central difference in f64 (0 for a constant); one-sided where the function is not
    /// finite on one side (`sqrt(t)*t` at 0).
    fn derivative_f64(&self, t: f64) -> f64 {
        if self.constant {
            return 0.0;
        }
        let h = 1e-5 * t.abs().max(1.0);
        let (ahead, here, behind) = (self.value_f64(t + h), self.value_f64(t), self.value_f64(t - h));
        let central = (ahead - behind) / (2.0 * h);
        if central.is_finite() {
            return central;
        }
        let forward = (ahead - here) / h;
        if forward.is_finite() {
            return forward;
        }
        (here - behind) / h
    }

    fn derivative(&self, t: f64) -> f32 {
        finite_f32(self.derivative_f64(t))
    }

    /// Why the component is unusable at `t` ("is not finite (NaN)", …), if it is.
    fn check_at(&self, t: f64) -> Result<(), String> {
        self.probe(t).check()
    }

    /// The value and slope at `t` (four evaluations).
    fn probe(&self, t: f64) -> Probe {
        Probe { t, value: self.value_f64(t), slope: self.derivative_f64(t) }
    }

    /// Looks between two checked samples `a.t` < `b.t` for what the samples miss: a pole (the
    /// value leaves every bound between them) or a peak beyond the coordinate limit.
    ///
    /// Two signs of something hidden, for a function smooth at the samples' spacing:
    /// - the slope changes sign: an extremum lies between (or an even pole, `1/(t-1)^2`).
    ///   Bisection on the slope's sign closes in on it, and the points it ends on are checked
    ///   like samples. It stops early once the slope is monotonic across the bracket and the
    ///   value cannot reach the limit within it at the steeper end's slope: a smooth peak is
    ///   settled in a step or two, while at a pole the slope grows toward the middle (never
    ///   monotonic), so bisection goes on to the pole;
    /// - the slope has one sign at both ends and the values moved the other way: the function
    ///   jumped (an odd pole, `1/(t-1)`, or a step). Bisection keeps the half that still moves
    ///   against the slope, checking each midpoint's value. A finite step (`floor(t)`) passes.
    ///
    /// Bisection stops at f32 resolution: the simulation evaluates curves at f32 parameters,
    /// so a pole narrower than that is never met (and the points around it are checked). The
    /// error is the first failing point, rounded to f32.
    fn check_between(&self, a: &Probe, b: &Probe) -> Result<(), (f32, String)> {
        let sign = |x: f64| {
            if x > 0.0 {
                1
            } else if x < 0.0 {
                -1
            } else {
                0
            }
        };
        let limit = f64::from(MAX_CURVE_COORDINATE);
        // The spacing of f32 parameters at the bracket (below 1 as well: the simulation meets
        // t = 0.0099999998 beside a pole at 0.01, where a floor at 1 stopped 1.2e-7 short).
        let resolution =
            (f64::from(f32::EPSILON) * a.t.abs().max(b.t.abs())).max(f64::from(f32::MIN_POSITIVE));
        let check = |t: f64| -> Result<(), (f32, String)> {
            let single = t as f32;
            self.check_at(f64::from(single)).map_err(|problem| (single, problem))
        };
        let (da, db) = (sign(a.slope), sign(b.slope));
        if da != 0 && db == -da {
            // An extremum between: keep the half where the slope changes sign.
            let (mut lo, mut hi) = (*a, *b);
            while hi.t - lo.t > resolution {
                let mid = self.probe(0.5 * (lo.t + hi.t));
                let monotonic = (lo.slope - mid.slope) * (mid.slope - hi.slope) >= 0.0;
                let steepest = lo.slope.abs().max(hi.slope.abs());
                let reach = lo.value.abs().max(hi.value.abs()) + steepest * (hi.t - lo.t);
                if monotonic && reach <= limit && mid.check().is_ok() {
                    return Ok(());
                }
                if sign(mid.slope) == da {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            check(lo.t)?;
            return check(hi.t);
        }
        if da != 0 && db == da && sign(b.value - a.value) == -da {
            // A jump against the slope: keep the half that still jumps.
            let (mut lo, mut hi) = ((a.t, a.value), (b.t, b.value));
            while hi.0 - lo.0 > resolution {
                let t = 0.5 * (lo.0 + hi.0);
                let value = self.value_f64(t);
                if !value.is_finite() || value.abs() > limit {
                    return check(t);
                }
                if sign(value - lo.1) == -da {
                    hi = (t, value);
                } else {
                    lo = (t, value);
                }
            }
            check(lo.0)?;
            return check(hi.0);
        }
        Ok(())
    }
}

/// A component's value and slope at one t.
#[derive(Clone, Copy, Debug)]
struct Probe {
    t: f64,
    value: f64,
    slope: f64,
}

impl Probe {
    /// Why the component is unusable here ("is not finite (NaN)", …), if it is.
    fn check(&self) -> Result<(), String> {
        let Probe { value, slope, .. } = *self;
        if !value.is_finite() {
            return Err(format!("is not finite ({})", describe_non_finite(value)));
        }
        if value.abs() > f64::from(MAX_CURVE_COORDINATE) {
            return Err(format!("is {value:.3e}, beyond the coordinate limit of ±{MAX_CURVE_COORDINATE:e}"));
        }
        if !(slope as f32).is_finite() {
            return Err(format!("has no finite derivative ({})", describe_non_finite(slope)));
        }
        Ok(())
    }
}

/// Numeric literals: exmex's (`12`, `1.5`, `4.`, `.5`) with an optional exponent (`1e30`,
/// `2.5E-3`); the exponent is taken only when digits follow it.
#[derive(Clone, Debug)]
struct ScientificNumber;

impl MatchLiteral for ScientificNumber {
    fn is_literal(text: &str) -> Option<&str> {
        let bytes = text.as_bytes();
        let mantissa = bytes.iter().take_while(|b| b.is_ascii_digit() || **b == b'.').count();
        let dots = bytes.iter().take(mantissa).filter(|b| **b == b'.').count();
        if !((mantissa > 1 && dots < 2) || (mantissa == 1 && dots == 0)) {
            return None;
        }
        let mut end = mantissa;
        if matches!(bytes.get(end), Some(b'e' | b'E')) {
            let mut digits_at = end + 1;
            if matches!(bytes.get(digits_at), Some(b'+' | b'-')) {
                digits_at += 1;
            }
            let digits = bytes.iter().skip(digits_at).take_while(|b| b.is_ascii_digit()).count();
            if digits > 0 {
                end = digits_at + digits;
            }
        }
        text.get(..end)
    }
}

/// Deepest nesting of parentheses (unbalanced text is left to the parser to report).
fn nesting_depth(text: &str) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// A parse error in the user's terms: exmex's own wording where it is readable, a plain
/// sentence where it describes the parser's internals.
fn parse_reason(text: &str, exmex_message: &str) -> String {
    let opens = text.chars().filter(|c| *c == '(').count();
    let closes = text.chars().filter(|c| *c == ')').count();
    if opens != closes {
        return format!("unbalanced parentheses ({opens} `(` and {closes} `)`)");
    }
    let internal = ["ops and", "node", "index", "flat", "stack", "len"];
    if internal.iter().any(|word| exmex_message.contains(word)) {
        return "not a valid formula (check for a missing operator, operand or argument, e.g. `2*t`, not `2t`)"
            .to_string();
    }
    exmex_message.to_string()
}

/// "NaN", "infinity" or "-infinity".
fn describe_non_finite(value: f64) -> &'static str {
    if value.is_nan() {
        "NaN"
    } else if value > 0.0 {
        "infinity"
    } else {
        "-infinity"
    }
}

/// A double as f32, or 0 when it is not finite (or overflows f32).
fn finite_f32(value: f64) -> f32 {
    let single = value as f32;
    if single.is_finite() {
        single
    } else {
        0.0
    }
}

/// Replaces non-finite components by 0.
fn finite_or_zero(v: Vec3) -> Vec3 {
    let fix = |x: f32| if x.is_finite() { x } else { 0.0 };
    Vec3::new(fix(v.x), fix(v.y), fix(v.z))
}

fn is_integer(x: f32) -> bool {
    x.is_finite() && (x - x.round()).abs() <= 1e-6 * x.abs().max(1.0)
}
