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

/// Boxes taken (screen pixels), and from [`Taken::BINNED_FROM`] boxes on, which of them touch
/// each square bin of [`Taken::BIN`] pixels, so that asking whether a box is free reads the few
/// boxes near it instead of all of them. Why: every agent's body is reserved, and at 100,000
/// agents each optional label tried its spots against every body, a hundred thousand
/// comparisons a spot. Measured (a throwaway test, 100,000 agent-sized boxes over 1,000 × 450
/// pixels, 600 spots of a 50 × 17 label, 2026-12-08): 17.5 ms scanning, 0.24 ms binned.
#[derive(Default)]
struct Taken {
    boxes: Vec<(Vec2, Vec2)>,
    /// Per bin (`row * BINS + column`), the boxes that touch it; empty until binned.
    bins: Vec<Vec<u32>>,
}

impl Taken {
    /// Boxes kept in a list alone up to this many.
    const BINNED_FROM: usize = 256;
    /// A bin's side, pixels.
    const BIN: f32 = 64.0;
    /// Bins a side, from [`Taken::ORIGIN`] on; a box beyond them counts as in the edge's bins
    /// (clamped alike, so two boxes that overlap always share a bin).
    const BINS: usize = 160;
    const ORIGIN: f32 = -1024.0;

    fn bin_range(v0: f32, v1: f32) -> (usize, usize) {
        let at =
            |v: f32| ((v - Self::ORIGIN) / Self::BIN).floor().clamp(0.0, (Self::BINS - 1) as f32) as usize;
        (at(v0), at(v1))
    }

    /// The bins `min`–`max` touches: (column range, row range).
    fn bins_of(min: Vec2, max: Vec2) -> ((usize, usize), (usize, usize)) {
        (Self::bin_range(min.x, max.x), Self::bin_range(min.y, max.y))
    }

    fn push(&mut self, min: Vec2, max: Vec2) {
        let idx = self.boxes.len() as u32;
        self.boxes.push((min, max));
        if !self.bins.is_empty() {
            self.bin(idx, min, max);
        } else if self.boxes.len() >= Self::BINNED_FROM {
            self.bins = vec![Vec::new(); Self::BINS * Self::BINS];
            let boxes = std::mem::take(&mut self.boxes);
            for (i, &(a, b)) in boxes.iter().enumerate() {
                self.bin(i as u32, a, b);
            }
            self.boxes = boxes;
        }
    }

    fn bin(&mut self, idx: u32, min: Vec2, max: Vec2) {
        // A box with a NaN corner overlaps nothing (every comparison with it is false); an
        // infinite one is clamped into the edge's bins like any other.
        if min.is_nan() || max.is_nan() {
            return;
        }
        let ((x0, x1), (y0, y1)) = Self::bins_of(min, max);
        for y in y0..=y1 {
            for x in x0..=x1 {
                if let Some(bin) = self.bins.get_mut(y * Self::BINS + x) {
                    bin.push(idx);
                }
            }
        }
    }

    /// Whether no box taken overlaps `min`–`max`.
    fn free(&self, min: Vec2, max: Vec2) -> bool {
        let overlaps = |(a, b): &(Vec2, Vec2)| min.x < b.x && max.x > a.x && min.y < b.y && max.y > a.y;
        if self.bins.is_empty() || min.is_nan() || max.is_nan() {
            return !self.boxes.iter().any(overlaps);
        }
        let ((x0, x1), (y0, y1)) = Self::bins_of(min, max);
        !(y0..=y1).any(|y| {
            (x0..=x1).any(|x| {
                self.bins
                    .get(y * Self::BINS + x)
                    .is_some_and(|bin| bin.iter().any(|&i| self.boxes.get(i as usize).is_some_and(overlaps)))
            })
        })
    }
}

/// Labels of one frame.
pub struct Labels {
    placed: Taken,
    pending: Vec<Pending>,
    /// Text sizes and gaps are multiplied by this (`Camera::pixel_scale`).
    scale: f32,
}

impl Labels {
    /// No labels yet; their sizes and gaps `scale` times those asked for (the camera's
    /// [`pixel_scale`](crate::app::Camera::pixel_scale)).
    pub fn new(scale: f32) -> Labels {
        Labels { placed: Taken::default(), pending: Vec::new(), scale }
    }

    /// Keeps labels out of the box `min`–`max` (screen pixels).
    pub fn reserve(&mut self, min: Vec2, max: Vec2) {
        self.placed.push(min, max);
    }

    fn free(&self, min: Vec2, max: Vec2) -> bool {
        self.placed.free(min, max)
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
        self.placed.push(min, max);
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
    use proptest::prelude::*;

    fn coordinate() -> impl Strategy<Value = f32> {
        prop_oneof![
            8 => -200.0f32..2500.0,
            1 => -1e7f32..1e7,
            1 => prop::sample::select(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1024.0, 9216.0, 0.0]),
        ]
    }

    fn a_box() -> impl Strategy<Value = (Vec2, Vec2)> {
        (coordinate(), coordinate(), 0.0f32..80.0, 0.0f32..40.0)
            .prop_map(|(x, y, w, h)| (Vec2::new(x, y), Vec2::new(x + w, y + h)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The bins answer as a scan over every box taken does, before and after they are made.
        #[test]
        fn the_binned_boxes_answer_as_a_scan_of_all(
            boxes in prop::collection::vec(a_box(), 0..700),
            queries in prop::collection::vec(a_box(), 1..60),
        ) {
            let mut taken = Taken::default();
            for (i, &(min, max)) in boxes.iter().enumerate() {
                taken.push(min, max);
                if i % 97 == 0 || i + 1 == boxes.len() {
                    for &(a, b) in &queries {
                        let scan = !boxes[..=i].iter().any(|(c, d)| a.x < d.x && b.x > c.x && a.y < d.y && b.y > c.y);
                        prop_assert_eq!(taken.free(a, b), scan, "query {:?}-{:?} after {} boxes", a, b, i + 1);
                    }
                }
            }
            prop_assert_eq!(taken.bins.is_empty(), boxes.len() < Taken::BINNED_FROM);
        }
    }

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
