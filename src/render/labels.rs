//! Text labels in screen space that do not overlap: each label tries a few spots around its
//! anchor (right-above, right-below, left-above, left-below, centred above and below) and takes
//! the first whose box is free. A label that finds no free spot is dropped when it is optional
//! ([`Labels::add_if_room`]: the names of a crowd, where a label pushed away from its anchor would
//! name the wrong thing), or else drawn at its first spot over the others ([`Labels::add`]:
//! the selected agent, waypoint numbers, the step-through's letters). Boxes of things that must
//! stay readable (agents' bodies) can be reserved first; what is added first gets room first.
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
pub struct Labels {
    placed: Vec<(Vec2, Vec2)>,
    pending: Vec<Pending>,
    /// Text sizes and gaps are multiplied by this (`Camera::pixel_scale`).
    scale: f32,
}

impl Labels {
    /// No labels yet; their sizes and gaps `scale` times those asked for (the camera's
    /// [`pixel_scale`](crate::app::Camera::pixel_scale)).
    pub fn new(scale: f32) -> Labels {
        Labels { placed: Vec::new(), pending: Vec::new(), scale }
    }

    /// Keeps labels out of the box `min`–`max` (screen pixels).
    pub fn reserve(&mut self, min: Vec2, max: Vec2) {
        self.placed.push((min, max));
    }

    fn free(&self, min: Vec2, max: Vec2) -> bool {
        !self.placed.iter().any(|(a, b)| min.x < b.x && max.x > a.x && min.y < b.y && max.y > a.y)
    }

    /// Places `text` next to `anchor` (screen pixels), `gap` pixels away from it; when every spot
    /// around it is taken, over the others at the first spot (it is never dropped).
    pub fn add(&mut self, text: &str, anchor: Vec2, gap: f32, size: u16, color: Color) {
        self.place(text, anchor, gap, size, color, true);
    }

    /// Places `text` like [`Labels::add`] when a spot next to `anchor` is free; otherwise leaves
    /// it out. True when it was placed.
    pub fn add_if_room(&mut self, text: &str, anchor: Vec2, gap: f32, size: u16, color: Color) -> bool {
        self.place(text, anchor, gap, size, color, false)
    }

    fn place(&mut self, text: &str, anchor: Vec2, gap: f32, size: u16, color: Color, always: bool) -> bool {
        if text.is_empty() || !anchor.is_finite() {
            return false;
        }
        let (size, gap) = ((f32::from(size) * self.scale).round() as u16, gap * self.scale);
        let dims = measure_text(text, None, size, 1.0);
        let (w, h) = (dims.width + 4.0, dims.height + 3.0);
        let spots = candidates(anchor, gap, w, h);
        let free = spots.iter().copied().find(|&min| self.free(min, min + Vec2::new(w, h)));
        let Some(min) = free.or(always.then_some(spots[0])) else { return false };
        let max = min + Vec2::new(w, h);
        self.placed.push((min, max));
        self.pending.push(Pending {
            text: text.to_string(),
            baseline: Vec2::new(min.x + 2.0, min.y + 1.0 + dims.offset_y),
            size,
            color,
            backing: (min, max),
        });
        true
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

/// Top-left corners of the boxes (`w` × `h`) a label next to `anchor` may take, best first.
fn candidates(anchor: Vec2, gap: f32, w: f32, h: f32) -> [Vec2; 6] {
    [
        Vec2::new(anchor.x + gap, anchor.y - gap - h),
        Vec2::new(anchor.x + gap, anchor.y + gap),
        Vec2::new(anchor.x - gap - w, anchor.y - gap - h),
        Vec2::new(anchor.x - gap - w, anchor.y + gap),
        Vec2::new(anchor.x - 0.5 * w, anchor.y - gap - h),
        Vec2::new(anchor.x - 0.5 * w, anchor.y + gap),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_boxes_sit_next_to_the_anchor_without_covering_it() {
        let anchor = Vec2::new(100.0, 100.0);
        let (gap, w, h) = (5.0, 40.0, 12.0);
        for min in candidates(anchor, gap, w, h) {
            let max = min + Vec2::new(w, h);
            let inside = anchor.x > min.x && anchor.x < max.x && anchor.y > min.y && anchor.y < max.y;
            assert!(!inside, "{min:?} covers the anchor");
            // Within one box of the anchor: a label never drifts away from what it names.
            assert!((min.x - anchor.x).abs() <= w + gap && (min.y - anchor.y).abs() <= h + gap);
        }
    }
}
