//! The "Loading NAME… NN %" dialog shown while a big scene loads off the frame loop. It is
//! modal (the panels and the world take no clicks behind it, the shell gives it every key) and
//! offers Cancel; Esc cancels too. The shell owns the load (a worker thread) and decides when
//! the dialog appears; this panel only draws it and reports the Cancel.

use std::collections::BTreeMap;

/// What the dialog shows about a load in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadingView {
    /// The file's name as shown ("waypoints.json").
    pub name: String,
    /// Whole percent of the file read so far (0–100).
    pub percent: u64,
}

impl LoadingView {
    /// The dialog's line: "Loading NAME… NN %" while reading, "… building the scene" after.
    pub fn text(&self) -> String {
        if self.percent >= 100 {
            format!("Loading {}… read, building the scene", self.name)
        } else {
            format!("Loading {}… {} %", self.name, self.percent)
        }
    }
}

/// Draws the loading dialog; returns true when the user cancelled (the Cancel button or Esc).
/// Its rectangles go into `rects` as `loading` (the dialog) and `loading:cancel`.
pub fn loading_window(
    ctx: &egui::Context,
    view: &LoadingView,
    rects: &mut BTreeMap<String, egui::Rect>,
) -> bool {
    let mut cancel = false;
    let modal = egui::Modal::new(egui::Id::new("steerlab_loading")).show(ctx, |ui| {
        ui.set_min_width(320.0);
        ui.heading("Loading");
        ui.label(view.text());
        let fraction = (view.percent.min(100) as f32) / 100.0;
        ui.add(egui::ProgressBar::new(fraction).show_percentage().animate(view.percent >= 100));
        ui.label(
            egui::RichText::new("The open scene stays as it is until the new one is ready. Esc cancels.")
                .weak(),
        );
        ui.add_space(6.0);
        let button = ui.button("Cancel").on_hover_text("Stop loading and keep the open scene");
        rects.insert("loading:cancel".to_string(), button.rect);
        if button.clicked() {
            cancel = true;
        }
    });
    rects.insert("loading".to_string(), modal.response.rect);
    cancel || ctx.input(|i| i.key_pressed(egui::Key::Escape))
}
