//! Text labels in screen space that never overlap: each label tries a few spots around its anchor
//! (right-above, right-below, left-above, left-below, then further down) and takes the first whose
//! box is free. Boxes of things that must stay readable (agents' bodies) can be reserved first.
//! Labels are collected while shapes are drawn and drawn together at the end, on a faint
//! backing so they read over lines and grids.

use macroquad::prelude::{draw_rectangle, draw_text, measure_text, Color, Vec2};

/// A label waiting to be drawn.
struct Pending {
    text: String,
    baseline: Vec2,
    size: u16,
    color: Color,
    backing: (Vec2, Vec2),
}

/// Labels of one frame.
#[derive(Default)]
pub struct Labels {
    placed: Vec<(Vec2, Vec2)>,
    pending: Vec<Pending>,
}

impl Labels {
    /// No labels yet.
    pub fn new() -> Labels {
        Labels::default()
    }

    /// Keeps labels out of the box `min`–`max` (screen pixels).
    pub fn reserve(&mut self, min: Vec2, max: Vec2) {
        self.placed.push((min, max));
    }

    fn free(&self, min: Vec2, max: Vec2) -> bool {
        !self.placed.iter().any(|(a, b)| min.x < b.x && max.x > a.x && min.y < b.y && max.y > a.y)
    }

    /// Places `text` next to `anchor` (screen pixels), `gap` pixels away from it.
    pub fn add(&mut self, text: &str, anchor: Vec2, gap: f32, size: u16, color: Color) {
        if text.is_empty() || !anchor.is_finite() {
            return;
        }
        let dims = measure_text(text, None, size, 1.0);
        let (w, h) = (dims.width + 4.0, dims.height + 3.0);
        // Top-left corners of the candidate boxes.
        let candidates = [
            Vec2::new(anchor.x + gap, anchor.y - gap - h),
            Vec2::new(anchor.x + gap, anchor.y + gap),
            Vec2::new(anchor.x - gap - w, anchor.y - gap - h),
            Vec2::new(anchor.x - gap - w, anchor.y + gap),
            Vec2::new(anchor.x - 0.5 * w, anchor.y - gap - h),
            Vec2::new(anchor.x - 0.5 * w, anchor.y + gap),
        ];
        let mut chosen = None;
        for &min in &candidates {
            if self.free(min, min + Vec2::new(w, h)) {
                chosen = Some(min);
                break;
            }
        }
        let min = chosen.unwrap_or_else(|| {
            // Everything around is taken: go down in lines from the first spot until free.
            let mut min = candidates[1];
            for _ in 0..20 {
                if self.free(min, min + Vec2::new(w, h)) {
                    break;
                }
                min.y += h + 1.0;
            }
            min
        });
        let max = min + Vec2::new(w, h);
        self.placed.push((min, max));
        self.pending.push(Pending {
            text: text.to_string(),
            baseline: Vec2::new(min.x + 2.0, min.y + 1.0 + dims.offset_y),
            size,
            color,
            backing: (min, max),
        });
    }

    /// Draws every label (backings first, then the text).
    pub fn draw(self) {
        for label in &self.pending {
            let (min, max) = label.backing;
            draw_rectangle(min.x, min.y, max.x - min.x, max.y - min.y, Color::new(1.0, 1.0, 1.0, 0.72));
        }
        for label in &self.pending {
            draw_text(&label.text, label.baseline.x, label.baseline.y, label.size as f32, label.color);
        }
    }
}
