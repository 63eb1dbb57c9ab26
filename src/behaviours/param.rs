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

/// The declaration of one numeric parameter.
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
}

/// Why a value was refused by [`Param::check`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// The value is NaN or infinite.
    #[error("{key} must be a finite number")]
    NotFinite {
        /// The parameter's key.
        key: &'static str,
    },
    /// The value lies outside `min..=max`.
    #[error("{key} must be between {min} and {max}{unit_sep}{unit}, not {value}")]
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
        Ok(value)
    }

    /// `min..=max`, for widgets.
    pub fn range(&self) -> std::ops::RangeInclusive<f32> {
        self.min..=self.max
    }
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
    };

    #[test]
    fn check_accepts_both_ends_and_refuses_outside_without_clamping() {
        assert_eq!(P.check(0.0), Ok(0.0));
        assert_eq!(P.check(10.0), Ok(10.0));
        let err = P.check(99_999_999.0).unwrap_err();
        assert_eq!(err.to_string(), "prediction_time must be between 0 and 10 s, not 100000000");
        assert!(P.check(-0.1).is_err());
        assert_eq!(P.check(f32::NAN), Err(ParamError::NotFinite { key: "prediction_time" }));
    }
}
