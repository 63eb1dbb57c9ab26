//! One declaration per parameter: its file key, label, unit, range, default and help text.
//!
//! Motivation: a parameter such as `prediction_time` used to be spelled in many places (the
//! behaviour's struct, the scene format's default, the validator's range, the panel's slider
//! range, the README) with ranges that disagreed, so a file could hold values the panel could not
//! show and the panel silently clamped what a user typed. A [`Param`] is the one home of those
//! facts: the behaviour's params struct takes its `Default` from it, the scene validator checks
//! [`Param::check`], the panel builds its widget from `min`/`max`/`unit`/`help`, and the docs table
//! is generated from it.
//!
//! Implementation: plain `const` data, no registry or macro. Each params struct exposes its
//! declarations as `pub const PARAMS: &'static [Param]` in field order, and tests walk every
//! declaration (every value the widget allows survives save → load; every value a file may hold
//! is shown and kept by the window).

/// What kind of value a [`Param`] holds; the widget and the checks follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A number on a linear slider.
    Float,
    /// A number on a logarithmic slider (ranges spanning several orders of magnitude).
    Log,
    /// A whole number (`min`, `max` and `default` are whole; values must be too).
    Int,
    /// A switch: 0 is off, 1 is on (`min` 0, `max` 1).
    Bool,
}

/// The declaration of one parameter (a number, a count or a switch).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The key in scene files and the name in messages (`prediction_time`).
    pub key: &'static str,
    /// The label shown in the panel (`prediction time`).
    pub label: &'static str,
    /// The unit shown beside the value (`s`, `u`, `u/s`, `rad`, or "" for none).
    pub unit: &'static str,
    /// Smallest accepted value (inclusive).
    pub min: f32,
    /// Largest accepted value (inclusive).
    pub max: f32,
    /// The value used when a file or the panel gives none.
    pub default: f32,
    /// One sentence for the tooltip and the docs table.
    pub help: &'static str,
    /// Number, logarithmic number, count or switch.
    pub kind: ParamKind,
}

/// Why a value was refused by [`Param::check`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// The value is NaN or infinite.
    #[error("`{key}` must be a finite number")]
    NotFinite {
        /// The parameter's key.
        key: &'static str,
    },
    /// A count or a switch was given a fractional value.
    #[error("`{key}` must be a whole number, got {}", number_text(*.value))]
    NotWhole {
        /// The parameter's key.
        key: &'static str,
        /// The refused value.
        value: f32,
    },
    /// The value lies outside `min..=max`.
    #[error("`{key}` must be from {min} to {max}{unit_sep}{unit}, got {}", number_text(*.value))]
    OutOfRange {
        /// The parameter's key.
        key: &'static str,
        /// The refused value.
        value: f32,
        /// Smallest accepted value.
        min: f32,
        /// Largest accepted value.
        max: f32,
        /// The unit, for the message.
        unit: &'static str,
        /// " " when there is a unit, "" otherwise.
        unit_sep: &'static str,
    },
}

/// A number as a message shows it: as Rust prints it, except that a huge or tiny one is
/// written with an exponent (`3.4028235e38`, not thirty-nine digits that widen a panel).
pub fn number_text<T>(value: T) -> String
where
    T: Copy + Into<f64> + std::fmt::Display + std::fmt::LowerExp,
{
    let magnitude = value.into().abs();
    if magnitude.is_finite() && (magnitude >= 1e9 || (magnitude != 0.0 && magnitude < 1e-6)) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

impl Param {
    /// Accepts `value` if it is finite and within `min..=max`; never clamps.
    pub fn check(&self, value: f32) -> Result<f32, ParamError> {
        if !value.is_finite() {
            return Err(ParamError::NotFinite { key: self.key });
        }
        if value < self.min || value > self.max {
            return Err(ParamError::OutOfRange {
                key: self.key,
                value,
                min: self.min,
                max: self.max,
                unit: self.unit,
                unit_sep: if self.unit.is_empty() { "" } else { " " },
            });
        }
        if matches!(self.kind, ParamKind::Int | ParamKind::Bool) && value.fract() != 0.0 {
            return Err(ParamError::NotWhole { key: self.key, value });
        }
        Ok(value)
    }

    /// The default of a switch.
    pub const fn default_bool(&self) -> bool {
        self.default != 0.0
    }

    /// The default of a count (declared whole and non-negative).
    pub const fn default_u32(&self) -> u32 {
        self.default as u32
    }

    /// `min..=max`, for widgets.
    pub fn range(&self) -> std::ops::RangeInclusive<f32> {
        self.min..=self.max
    }
}

/// Every declared parameter, grouped by where it lives in a scene file: the agent's limits,
/// obstacle avoidance, then each behaviour type. The README's parameter table is generated
/// from this ([`markdown_table`]) and a test keeps the two equal.
pub fn all_params() -> Vec<(&'static str, &'static [Param])> {
    use super::{
        ArriveParams, AvoidParams, CollisionAvoidanceParams, FlockingParams, Limits, OffsetPursuitParams,
        ParametricParams, PredictiveParams, ProjectedParams, PursuitParams, WanderParams, WaypointsParams,
    };
    vec![
        ("agent", Limits::PARAMS),
        ("avoid_obstacles", AvoidParams::PARAMS),
        ("arrive", ArriveParams::PARAMS),
        ("parametric", ParametricParams::PARAMS),
        ("waypoints", WaypointsParams::PARAMS),
        ("projected", ProjectedParams::PARAMS),
        ("predictive", PredictiveParams::PARAMS),
        ("planner", crate::planner::PlannerParams::PARAMS),
        ("pursuit", PursuitParams::PARAMS),
        ("evade", PursuitParams::PARAMS),
        ("wander", WanderParams::PARAMS),
        ("flocking", FlockingParams::PARAMS),
        ("collision_avoidance", CollisionAvoidanceParams::PARAMS),
        ("offset_pursuit", OffsetPursuitParams::PARAMS),
        ("containment", super::ContainmentParams::PARAMS),
        ("flow_field", super::FlowFieldParams::PARAMS),
        ("leader_following", super::LeaderFollowingParams::PARAMS),
        ("interpose", super::InterposeParams::PARAMS),
        ("hide", super::HideParams::PARAMS),
        ("face", super::FaceParams::PARAMS),
        ("look_where_you_are_going", super::FaceParams::PARAMS),
    ]
}

/// The parameter table in Markdown: one row per declaration with its range, unit, default and
/// help text.
pub fn markdown_table(groups: &[(&str, &[Param])]) -> String {
    let mut out =
        String::from("| where | key | range | default | what it does |\n| --- | --- | --- | --- | --- |\n");
    for (group, params) in groups {
        for p in params.iter() {
            let unit = if p.unit.is_empty() { String::new() } else { format!(" {}", p.unit) };
            let (range, default) = match p.kind {
                ParamKind::Bool => {
                    ("off / on".to_string(), if p.default_bool() { "on" } else { "off" }.to_string())
                }
                ParamKind::Int => (format!("{}–{}", p.min, p.max), format!("{}", p.default)),
                ParamKind::Float | ParamKind::Log => {
                    (format!("{}–{}{unit}", p.min, p.max), format!("{}{unit}", p.default))
                }
            };
            out.push_str(&format!("| {group} | `{}` | {range} | {default} | {} |\n", p.key, p.help));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Param = Param {
        key: "prediction_time",
        label: "prediction time",
        unit: "s",
        min: 0.0,
        max: 10.0,
        default: 0.5,
        help: "How far ahead the agent looks along its velocity.",
        kind: ParamKind::Float,
    };

    #[test]
    fn check_accepts_both_ends_and_refuses_outside_without_clamping() {
        assert_eq!(P.check(0.0), Ok(0.0));
        assert_eq!(P.check(10.0), Ok(10.0));
        let err = P.check(99_999_999.0).unwrap_err();
        assert_eq!(err.to_string(), "`prediction_time` must be from 0 to 10 s, got 100000000");
        assert!(P.check(-0.1).is_err());
        assert_eq!(P.check(f32::NAN), Err(ParamError::NotFinite { key: "prediction_time" }));
    }

    #[test]
    fn huge_and_tiny_refused_values_are_written_with_an_exponent() {
        assert_eq!(
            P.check(f32::MAX).unwrap_err().to_string(),
            "`prediction_time` must be from 0 to 10 s, got 3.4028235e38"
        );
        assert_eq!(number_text(-1e30), "-1e30");
        assert_eq!(number_text(1e-9), "1e-9");
        assert_eq!(number_text(-0.0), "-0");
        assert_eq!(number_text(123456.5), "123456.5");
    }

    #[test]
    fn counts_refuse_fractions() {
        let count = Param { kind: ParamKind::Int, min: 1.0, max: 100.0, default: 8.0, ..P };
        assert_eq!(count.check(3.0), Ok(3.0));
        assert_eq!(
            count.check(3.5).unwrap_err().to_string(),
            "`prediction_time` must be a whole number, got 3.5"
        );
    }
}
