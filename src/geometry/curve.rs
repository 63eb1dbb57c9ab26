//! Parametric curves F(T) → point in 3D (seed 000's "path as a parametric function").
//!
//! Kinds: circle, ellipse, lemniscate (of Bernoulli), lissajous, helix (3D), spline
//! (Catmull-Rom through points, open or closed) and expr (typed x(t), y(t), z(t) parsed once
//! with exmex).

use glam::Vec3;

/// Why a curve could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CurveError {
    /// An `expr` component did not parse or uses a variable other than `t`.
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
    Circle { center: Vec3, radius: f32 },
    /// center + (a cos t, b sin t).
    Ellipse { center: Vec3, radius_x: f32, radius_y: f32 },
    /// Lemniscate of Bernoulli of half-width `size`: size·(cos t, sin t cos t)/(1 + sin² t).
    Lemniscate { center: Vec3, size: f32 },
    /// center + (ax sin(fx t + phase), ay sin(fy t)).
    Lissajous { center: Vec3, amplitude: Vec3, freq_x: f32, freq_y: f32, phase: f32 },
    /// center + (r cos t, r sin t, pitch·t/2π), t in [0, 2π·turns].
    Helix { center: Vec3, radius: f32, pitch: f32, turns: f32 },
    /// Catmull-Rom through points; t in [0, n-1] open, [0, n) closed.
    Spline { points: Vec<Vec3>, closed: bool },
    /// Typed components of t.
    Expr { x: String, y: String, z: String, t_min: f32, t_max: f32 },
}

/// A curve ready to evaluate (expressions parsed once).
#[derive(Clone, Debug)]
pub struct Curve {
    kind: CurveKind,
}

impl Curve {
    /// Builds a curve, parsing expressions; fails with a message naming the bad expression.
    pub fn new(kind: CurveKind) -> Result<Curve, CurveError> {
        let _ = &kind;
        todo!("geometry helper")
    }
    /// The plain data this curve was built from.
    pub fn kind(&self) -> &CurveKind {
        &self.kind
    }
    /// F(T). Never NaN for finite input (expressions that produce NaN give the last finite point or zero).
    pub fn point(&self, t: f32) -> Vec3 {
        let _ = t;
        todo!("geometry helper")
    }
    /// Exact derivative F'(T) where known in closed form (exmex partial derivatives for expr).
    pub fn derivative(&self, t: f32) -> Vec3 {
        let _ = t;
        todo!("geometry helper")
    }
    /// Parameter range [t_min, t_max].
    pub fn t_range(&self) -> (f32, f32) {
        todo!("geometry helper")
    }
    /// Whether the curve is periodic (T wraps from t_max to t_min).
    pub fn is_closed(&self) -> bool {
        todo!("geometry helper")
    }
}
