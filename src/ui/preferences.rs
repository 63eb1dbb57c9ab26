//! What the window remembers across a relaunch: the UI scale and which panels are open.
//!
//! Plain data, read from and written to the panels' [`UiState`]; the shell keeps it in
//! `preferences.json` in the config folder, read at an interactive start and written (atomically)
//! when it changes. Screenshots (`steerlab shot`) and `steerlab frames` never read it, so their
//! pictures and figures do not depend on the user's choices.
//!
//! Reading is lenient: a field that is missing, of the wrong type or out of range keeps its
//! default, and text that is not JSON gives the defaults. A stale or hand-edited file never
//! stops the window from opening.

use serde::{Deserialize, Serialize};

use super::{Panels, UiState};

/// The UI scale's range (the View menu's slider; anything else read is brought into it).
pub const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.5..=3.0;

/// The choices kept across a relaunch.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preferences {
    /// View ▸ UI scale.
    pub ui_scale: f32,
    /// View ▸ which panels are shown.
    pub panels: Panels,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences { ui_scale: 1.0, panels: Panels::default() }
    }
}

/// A UI scale brought into [`UI_SCALE_RANGE`] (1 when it is not a number).
pub fn clamp_ui_scale(scale: f32) -> f32 {
    if scale.is_finite() {
        scale.clamp(*UI_SCALE_RANGE.start(), *UI_SCALE_RANGE.end())
    } else {
        1.0
    }
}

impl Preferences {
    /// The choices the panels hold now.
    pub fn of(state: &UiState) -> Preferences {
        Preferences { ui_scale: state.ui_scale, panels: state.panels }
    }

    /// Puts the choices into the panels' state.
    pub fn apply(&self, state: &mut UiState) {
        state.ui_scale = clamp_ui_scale(self.ui_scale);
        state.panels = self.panels;
    }

    /// The file's text (pretty JSON, one field a line).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Reads the file's text, field by field (see the module documentation).
    pub fn from_json(text: &str) -> Preferences {
        let mut prefs = Preferences::default();
        let Ok(serde_json::Value::Object(root)) = serde_json::from_str::<serde_json::Value>(text) else {
            return prefs;
        };
        if let Some(scale) = root.get("ui_scale").and_then(serde_json::Value::as_f64) {
            // Clamped in f64 first: 1e300 is "too large", not infinity.
            prefs.ui_scale = clamp_ui_scale(scale.clamp(-1e3, 1e3) as f32);
        }
        if let Some(serde_json::Value::Object(panels)) = root.get("panels") {
            let flag = |name: &str, default: bool| {
                panels.get(name).and_then(serde_json::Value::as_bool).unwrap_or(default)
            };
            let defaults = Panels::default();
            prefs.panels = Panels {
                scene: flag("scene", defaults.scene),
                display: flag("display", defaults.display),
                metrics: flag("metrics", defaults.metrics),
                plots: flag("plots", defaults.plots),
            };
        }
        prefs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choices_survive_a_round_trip_through_the_file() {
        let prefs = Preferences {
            ui_scale: 1.75,
            panels: Panels { scene: false, display: true, metrics: false, plots: true },
        };
        assert_eq!(Preferences::from_json(&prefs.to_json()), prefs);
        let mut state = UiState::default();
        prefs.apply(&mut state);
        assert_eq!(Preferences::of(&state), prefs);
    }

    #[test]
    fn what_cannot_be_read_keeps_its_default_and_the_rest_is_kept() {
        let defaults = Preferences::default();
        for text in ["", "not json", "[]", "null", "{\"ui_scale\": \"big\"}", "{\"panels\": 3}"] {
            assert_eq!(Preferences::from_json(text), defaults, "{text:?}");
        }
        let partly = Preferences::from_json(r#"{"ui_scale": 2, "panels": {"plots": true, "scene": "no"}}"#);
        assert_eq!(partly.ui_scale, 2.0);
        assert!(partly.panels.plots);
        assert_eq!(partly.panels.scene, Panels::default().scene);
        assert_eq!(Preferences::from_json(r#"{"ui_scale": 1e300}"#).ui_scale, 3.0);
        assert_eq!(Preferences::from_json(r#"{"ui_scale": -4}"#).ui_scale, 0.5);
        assert_eq!(clamp_ui_scale(f32::NAN), 1.0);
    }
}
