//! The crowd layer: above [`MESH_AGENTS_MAX`] agents, the top view's agent arrows are drawn by
//! the CPU into one screen-sized RGBA image, uploaded as one texture and drawn as one quad.
//! Each band of rows is composited front to back; an arrow is stamped from a cache of
//! pre-rasterised arrows, or drawn shape by shape.
//!
//! Why: with a software OpenGL (Mesa's llvmpipe under Xvfb, the machines this runs on), every
//! triangle costs set-up time whatever its size, and an agent is ten triangles (two for the body,
//! two for each of the four outline lines). At 10,000 agents that was most of the frame. Here an
//! agent costs only the few dozen pixels it covers, and the rows of the image are shared out
//! among the cores (each band of rows draws its agents in agent order, so the picture does not
//! depend on the thread count).
//!
//! The exact picture is the mesh path's: the same arrow outline ([`super::agent_arrow`]), the same
//! colours quantised the same way, the same pixel-centre coverage rule for the body's two
//! triangles and for each outline line (a rectangle `thickness` wide, as
//! [`super::batch::Batch::line`] builds it), composited in the same order with the same "over"
//! operator the GPU's alpha blending applies (`arrow_spans`: each shape as spans of the pixel
//! centres inside it, ≈ 1.5 µs an arrow). The stamps ([`StampCache`]) make that picture once per
//! shape class (size and outline width: one per zoom), heading bucket (64–256, so that half a
//! bucket moves no point more than 0.25 px) and quarter-pixel phase, as codes per pixel (body or
//! not, how many outline lines); an arrow is then its stamp's codes in its own colours, at most
//! [`STAMP_ERROR_MAX`] (0.43 px) from its exact shapes, so only pixels that close to an edge can
//! differ. Arrows too big to stamp (over about 14 px) and classes of a few arrows (a selected
//! one) are drawn shape by shape. Unit tests hold the stamps to the exact rasteriser; a
//! real-window test compares the layer with the mesh.

use std::cell::RefCell;

use macroquad::prelude::{
    draw_texture_ex, Color, DrawTextureParams, FilterMode, Image, Rect, Texture2D, Vec2, WHITE,
};
use rayon::prelude::*;

/// Up to this many agents the arrows are drawn as a mesh (the GPU path); above it through the
/// crowd layer. `STEERLAB_CROWD_LAYER_FROM=N` moves the switch (tests compare the two paths).
pub const MESH_AGENTS_MAX: usize = 2_000;

/// Rows of the image one task draws (at most 64: a sprite's open rows in a band are a bit mask).
const BAND_ROWS: usize = 32;

/// Columns of a tile: a band keeps which tiles it drew in, and only those are converted,
/// cleared and blended onto the screen (a crowd on a track leaves much of its bounding box
/// empty).
const TILE_COLUMNS: usize = 64;

/// Whether `agents` agents are drawn through the crowd layer.
pub fn use_crowd_layer(agents: usize) -> bool {
    let from = std::env::var("STEERLAB_CROWD_LAYER_FROM")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(MESH_AGENTS_MAX + 1);
    agents >= from
}

/// One agent's arrow in screen pixels: body `[tip, left, notch, right]`, its colours (RGBA
/// bytes) and the outline's width; built by [`ArrowSprite::new`] from the pose that shapes it
/// (such a sprite may be stamped, see [`StampCache`]) or by [`ArrowSprite::from_points`] from the
/// outline alone (always drawn shape by shape).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArrowSprite {
    /// Tip, left, notch, right: `super::agent_arrow(pose)` when there is a pose.
    points: [Vec2; 4],
    pose: Option<Pose>,
    /// Body colour.
    pub fill: [u8; 4],
    /// Outline colour.
    pub edge: [u8; 4],
    /// Outline thickness, pixels.
    pub edge_width: f32,
}

/// What shapes an arrow: [`super::agent_arrow`]'s arguments.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pose {
    center: Vec2,
    heading: f32,
    size: f32,
}

impl ArrowSprite {
    /// The arrow [`super::agent_arrow`] draws at `center` (screen pixels) for `heading`
    /// (radians, world orientation) and `size` (pixels).
    pub fn new(center: Vec2, heading: f32, size: f32, fill: [u8; 4], edge: [u8; 4], edge_width: f32) -> Self {
        Self {
            points: super::agent_arrow(center, heading, size),
            pose: Some(Pose { center, heading, size }),
            fill,
            edge,
            edge_width,
        }
    }

    /// An arrow with the outline `points` (tip, left, notch, right), drawn shape by shape.
    pub fn from_points(points: [Vec2; 4], fill: [u8; 4], edge: [u8; 4], edge_width: f32) -> Self {
        Self { points, pose: None, fill, edge, edge_width }
    }

    /// Tip, left, notch, right.
    pub fn points(&self) -> [Vec2; 4] {
        self.points
    }

    /// The pixel rows it may touch (inclusive), before clipping.
    fn rows(&self) -> (f32, f32) {
        let pad = self.edge_width * 0.5 + 1.0;
        let (mut y0, mut y1) = (f32::INFINITY, f32::NEG_INFINITY);
        for p in self.points {
            y0 = y0.min(p.y);
            y1 = y1.max(p.y);
        }
        (y0 - pad, y1 + pad)
    }
}

/// A colour as the vertex bytes the mesh path gives the GPU (the same truncation).
pub fn color_bytes(color: Color) -> [u8; 4] {
    [
        (color.r.clamp(0.0, 1.0) * 255.0) as u8,
        (color.g.clamp(0.0, 1.0) * 255.0) as u8,
        (color.b.clamp(0.0, 1.0) * 255.0) as u8,
        (color.a.clamp(0.0, 1.0) * 255.0) as u8,
    ]
}

/// `source` over `dest`, both straight (not premultiplied) RGBA: what drawing `source` with
/// alpha blending does to a layer that is itself drawn with alpha blending afterwards.
pub fn blend_over(dest: [u8; 4], source: [u8; 4]) -> [u8; 4] {
    let (sa, da) = (u32::from(source[3]), u32::from(dest[3]));
    if sa == 255 || da == 0 {
        return source;
    }
    if da == 255 {
        // Over an opaque pixel (an outline over a body): a division by a constant.
        let channel = |s: u8, d: u8| ((u32::from(s) * sa + u32::from(d) * (255 - sa) + 127) / 255) as u8;
        return [channel(source[0], dest[0]), channel(source[1], dest[1]), channel(source[2], dest[2]), 255];
    }
    // Integer arithmetic (a float version with rounding cost a third of the layer's time):
    // alpha out = (sa·255 + da·(255 − sa)) / 255², colour = weighted mean of the two.
    let weight_dest = da * (255 - sa);
    let total = sa * 255 + weight_dest;
    let channel = |s: u8, d: u8| -> u8 {
        let sum = u32::from(s) * sa * 255 + u32::from(d) * weight_dest;
        ((sum + total / 2) / total.max(1)).min(255) as u8
    };
    [
        channel(source[0], dest[0]),
        channel(source[1], dest[1]),
        channel(source[2], dest[2]),
        ((total + 127) / 255).min(255) as u8,
    ]
}

/// An edge of a convex polygon prepared for scanning rows: its y range, a point and its
/// slope (x per y), so a row's crossing costs a multiply-add instead of a division. A horizontal
/// edge has slope 0 and, on its row, spans `x..=x + extra` (`extra` is 0 for the others), so
/// every edge is scanned the same way, without branches.
#[derive(Clone, Copy)]
struct Edge {
    lo: f32,
    hi: f32,
    x: f32,
    y: f32,
    slope: f32,
    extra: f32,
}

impl Edge {
    fn new(p: Vec2, q: Vec2) -> Self {
        let (lo, hi) = if p.y <= q.y { (p.y, q.y) } else { (q.y, p.y) };
        if hi - lo <= f32::EPSILON {
            let (x0, x1) = (p.x.min(q.x), p.x.max(q.x));
            return Edge { lo, hi, x: x0, y: p.y, slope: 0.0, extra: x1 - x0 };
        }
        Edge { lo, hi, x: p.x, y: p.y, slope: (q.x - p.x) / (q.y - p.y), extra: 0.0 }
    }
}

/// The edges of the convex polygon `corners` (in order, closed).
fn edges<const N: usize>(corners: [Vec2; N]) -> [Edge; N] {
    std::array::from_fn(|i| {
        let p = corners.get(i).copied().unwrap_or(Vec2::ZERO);
        let q = corners.get((i + 1) % N).copied().unwrap_or(p);
        Edge::new(p, q)
    })
}

/// Where the horizontal line `y` crosses a convex polygon: the x-range inside it, or `None`.
/// Branch-free over the edges (which edges a row crosses changes from row to row, and
/// mispredicted branches cost more than the arithmetic of the edges it does not cross).
fn row_span(edges: &[Edge], y: f32) -> Option<(f32, f32)> {
    let (mut x0, mut x1) = (f32::INFINITY, f32::NEG_INFINITY);
    for e in edges {
        let crosses = y >= e.lo && y <= e.hi;
        let left = e.x + (y - e.y) * e.slope;
        let right = left + e.extra;
        x0 = x0.min(if crosses { left } else { f32::INFINITY });
        x1 = x1.max(if crosses { right } else { f32::NEG_INFINITY });
    }
    (x0 <= x1).then_some((x0, x1))
}

/// The pixels of a row `width` wide whose centres lie in `x0..=x1`, as `from..to`.
fn pixel_range((x0, x1): (f32, f32), width: usize) -> (usize, usize) {
    // ceil and floor of non-negative numbers by truncation (`floor`/`ceil` are library calls
    // on the baseline x86-64 target).
    let lo = (x0 - 0.5).max(0.0);
    let mut from = lo as usize;
    if (from as f32) < lo {
        from += 1;
    }
    let hi = x1 - 0.5;
    let to = if hi < 0.0 { 0 } else { hi as usize + 1 };
    (from.min(width), to.min(width))
}

/// The pixels of columns `x0..x0 + width` whose centres lie in `span`, as a range of columns
/// counted from `x0`.
fn local_range(span: (f32, f32), x0: usize, width: usize) -> (usize, usize) {
    let (from, to) = pixel_range(span, x0 + width);
    (from.max(x0) - x0, to.max(x0) - x0)
}

/// Below this much remaining transparency a pixel counts as covered: whatever lies under it
/// would change its colour by less than a fifth of a colour step.
const COVERED: f32 = 1.0 / 1024.0;

/// One band of the layer while it is drawn front to back: premultiplied colour and coverage
/// per pixel (`[r, g, b]` in 0–255 units times alpha, alpha 0–1), a bit per pixel that is
/// already covered (nothing under it can show) and a bit per pixel that has been drawn in.
///
/// The covered bits of a row are `64 · words + 128` bits: a word of ones before column 0 and a
/// word of ones after the last (with the bits past `width` in the last word set too), so that
/// a 64-column window at any column from −64 to `width` reads as covered outside the band and a
/// stamp's row is clipped by the same mask that skips its hidden pixels ([`Band::stamp_under`]).
struct Band<'a> {
    pixels: &'a mut [[f32; 4]],
    covered: &'a mut [u64],
    /// A bit per pixel written (`words` words a row): only these are converted and cleared,
    /// and a [`TILE_COLUMNS`]-column tile is blended by the GPU only when some row wrote in it.
    written: &'a mut [u64],
    /// The image's first column and its width: a band row holds columns `x0..x0 + width`.
    x0: usize,
    width: usize,
    words: usize,
    first_row: usize,
    rows: usize,
}

// A tile is one word of `written` bits.
const _: () = assert!(TILE_COLUMNS == 64);

impl Band<'_> {
    /// Words of covered bits a row: the row's own and a guard word on each side.
    fn stride(&self) -> usize {
        self.words + 2
    }

    /// The covered bits of band row `row` (with the guard words), empty when there is none.
    fn covered_row(&self, row: usize) -> &[u64] {
        let stride = self.stride();
        self.covered.get(row * stride..(row + 1) * stride).unwrap_or_default()
    }

    /// Sets the guard bits (outside columns `0..width`) of every row and clears the others.
    fn reset_covered(covered: &mut Vec<u64>, rows: usize, width: usize) {
        let words = width.div_ceil(64);
        let stride = words + 2;
        covered.clear();
        covered.resize(rows * stride, 0);
        let tail = if width.is_multiple_of(64) { 0 } else { u64::MAX << (width % 64) };
        for row in covered.chunks_exact_mut(stride) {
            if let Some(first) = row.first_mut() {
                *first = u64::MAX;
            }
            if let Some(last) = row.last_mut() {
                *last = u64::MAX;
            }
            if let Some(word) = row.get_mut(words) {
                *word |= tail;
            }
        }
    }

    /// Whether every pixel `from..to` of band row `row` is covered.
    fn all_covered(&self, row: usize, (from, to): (usize, usize)) -> bool {
        let bits = self.covered_row(row);
        let mut x = from;
        while x < to {
            let (word, bit) = (x / 64 + 1, x % 64);
            let n = (to - x).min(64 - bit);
            let mask = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << bit };
            if bits.get(word).is_none_or(|w| w & mask != mask) {
                return false;
            }
            x += n;
        }
        true
    }

    /// Blends `color` (premultiplied, alpha 0–1) under band pixel `x` of row `row`, which is not
    /// covered, and notes that it is drawn in (and covered, when it is).
    fn put_under(&mut self, row: usize, x: usize, color: [f32; 4]) {
        let stride = self.stride();
        let Some(p) = self.pixels.get_mut(row * self.width + x) else { return };
        let t = 1.0 - p[3];
        p[0] += color[0] * t;
        p[1] += color[1] * t;
        p[2] += color[2] * t;
        p[3] += color[3] * t;
        let covered = 1.0 - p[3] <= COVERED;
        let bit = 1u64 << (x % 64);
        if let Some(word) = self.written.get_mut(row * self.words + x / 64) {
            *word |= bit;
        }
        if covered {
            if let Some(word) = self.covered.get_mut(row * stride + x / 64 + 1) {
                *word |= bit;
            }
        }
    }

    /// Puts `color` (straight RGBA) under what is already drawn at pixels `from..to` of band
    /// row `row`, leaving out `skip` (pixels the same shape already drew).
    fn under_span(
        &mut self,
        row: usize,
        (from, to): (usize, usize),
        color: [u8; 4],
        skip: Option<(usize, usize)>,
    ) {
        if from >= to || self.all_covered(row, (from, to)) {
            return;
        }
        let a = f32::from(color[3]) / 255.0;
        let premultiplied = [f32::from(color[0]) * a, f32::from(color[1]) * a, f32::from(color[2]) * a, a];
        // The pixels before and after `skip`.
        let (skip_from, skip_to) = skip.map_or((to, to), |(s0, s1)| (s0.clamp(from, to), s1.clamp(from, to)));
        for (start, end) in [(from, skip_from), (skip_to.max(skip_from), to)] {
            for x in start..end.min(self.width) {
                let hidden = self.covered_row(row).get(x / 64 + 1).is_none_or(|w| w & (1 << (x % 64)) != 0);
                if !hidden {
                    self.put_under(row, x, premultiplied);
                }
            }
        }
    }

    /// Draws `sprite` under what is already in the band, shape by shape (see [`arrow_spans`]):
    /// per pixel the same blends as the GPU's draw calls in the opposite order, which composite
    /// to the same colour ("over" is associative; a pixel centre exactly on an edge may fall the
    /// other way). A sprite whose every pixel is already covered costs only that check.
    fn draw_under(&mut self, sprite: &ArrowSprite) {
        if sprite.points.iter().any(|p| !p.is_finite()) || !sprite.edge_width.is_finite() || self.width == 0 {
            return;
        }
        let [tip, left, _, right] = sprite.points;
        // Everything the sprite draws lies within `reach` of the triangle tip-left-right (the
        // notch is inside it): the rows whose pixels within that are all covered are skipped,
        // and a sprite with no row left costs only this check.
        let hull = edges([tip, left, right]);
        let reach = 0.5 * sprite.edge_width + 1.0;
        let (y0, y1) = sprite.rows();
        let end = self.first_row + self.rows;
        let rows = rows_reached(&[Vec2::new(tip.x, y0), Vec2::new(tip.x, y1)], self.first_row, end);
        let mut open = 0u64;
        for y in rows {
            let yc = y as f32 + 0.5;
            let Some(extent) = hull_extent(&hull, [tip, left, right], yc - reach, yc + reach) else {
                continue;
            };
            let row = y - self.first_row;
            if !self.all_covered(row, local_range((extent.0 - reach, extent.1 + reach), self.x0, self.width))
            {
                open |= 1u64 << (row % 64);
            }
        }
        if open == 0 {
            return;
        }
        let first_row = self.first_row;
        let (x0, width) = (self.x0, self.width);
        arrow_spans(
            sprite.points,
            sprite.edge_width,
            (first_row, end),
            (x0, width),
            |y| open & (1u64 << ((y - first_row) % 64)) != 0,
            |y, range, paint, skip| {
                let color = match paint {
                    Paint::Outline => sprite.edge,
                    Paint::Body => sprite.fill,
                };
                self.under_span(y - first_row, range, color, skip);
            },
        );
    }

    /// Draws `stamp` under what is already in the band, its pixel `(0, 0)` on image pixel
    /// `(left, top)`, each of its pixels in the colour `colors` gives its code.
    ///
    /// A stamp is at most 64 pixels wide, so each of its rows is one mask of the pixels it
    /// draws; with the 64 covered bits under it (guards outside the band, see [`Band`]) that
    /// gives the pixels to blend, visited bit by bit. It replaced a loop over each row's span
    /// that tested every pixel: on the compare track at 10,000 agents (a dense crowd: 470,000
    /// pixels in the rows not wholly hidden, 133,000 of them drawn), with the written bits and
    /// the per-band colour memo, `crowd_layer_speed` measured 4.2–5.1 → 3.1–3.9 ms of CPU a
    /// frame (wall 2.5–3.0 → 1.8–2.2 ms), the same bytes.
    fn stamp_under(&mut self, stamp: &Stamp, (left, top): (i64, i64), colors: &[[f32; 4]; CODE_TABLE]) {
        let band_top = self.first_row as i64;
        // The band column of the stamp's column 0; a stamp wholly left or right of the band
        // draws nothing there.
        let column = left - self.x0 as i64;
        if column <= -64 || column >= self.width as i64 {
            return;
        }
        // Its bit in a row of covered bits (after the guard word), as a word and a shift: the
        // 64 bits from there are `(word pair as u128 >> shift)`, and a mask goes back as
        // `mask as u128 << shift` over the pair.
        let (word, shift) = (((column + 64) / 64) as usize, ((column + 64) % 64) as u32);
        let (stride, words, width) = (self.stride(), self.words, self.width);
        // Only the stamp's rows inside the band.
        let top = top + i64::from(stamp.first_row);
        let rows = usize::from(stamp.rows);
        let first = (band_top - top).clamp(0, rows as i64) as usize;
        let last = (band_top + self.rows as i64 - top).clamp(0, rows as i64) as usize;
        let Some((masks, rest)) = stamp.data.split_at_checked(rows * 8) else { return };
        let Some((code_starts, codes)) = rest.split_at_checked(rows * 2) else { return };
        for (y, stamp_row) in (top + first as i64..).zip(first..last) {
            let Some(mask) = masks.get(stamp_row * 8..stamp_row * 8 + 8).and_then(|b| b.try_into().ok())
            else {
                continue;
            };
            let row = (y - band_top) as usize;
            let at = row * stride + word;
            let (Some(&low), Some(&high)) = (self.covered.get(at), self.covered.get(at + 1)) else {
                continue;
            };
            let under = ((u128::from(high) << 64 | u128::from(low)) >> shift) as u64;
            let mut open = u64::from_le_bytes(mask) & !under;
            if open == 0 {
                continue;
            }
            let Some(start) =
                code_starts.get(stamp_row * 2..stamp_row * 2 + 2).and_then(|b| b.try_into().ok())
            else {
                continue;
            };
            let start = i64::from(i16::from_le_bytes(start));
            let base = (row * width) as i64 + column;
            let drawn = open;
            let mut now_covered = 0u64;
            while open != 0 {
                let bit = open.trailing_zeros();
                open &= open - 1;
                let code = codes.get((start + i64::from(bit)) as usize).copied().unwrap_or(0);
                let color = colors[usize::from(code) & (CODE_TABLE - 1)];
                let Some(p) = self.pixels.get_mut((base + i64::from(bit)) as usize) else { continue };
                let t = 1.0 - p[3];
                p[0] += color[0] * t;
                p[1] += color[1] * t;
                p[2] += color[2] * t;
                p[3] += color[3] * t;
                now_covered |= u64::from(1.0 - p[3] <= COVERED) << bit;
            }
            // The drawn and the now covered pixels' bits, back over the word pair.
            let (covered, drawn) = (u128::from(now_covered) << shift, u128::from(drawn) << shift);
            if let Some(pair) = self.covered.get_mut(at..at + 2) {
                for (w, bits) in pair.iter_mut().zip([covered as u64, (covered >> 64) as u64]) {
                    *w |= bits;
                }
            }
            // `written` has no guard word: the pair starts one word left of `word`.
            let at = row * words + word;
            for (i, bits) in [(at.wrapping_sub(1), drawn as u64), (at, (drawn >> 64) as u64)] {
                if bits != 0 {
                    if let Some(w) = self.written.get_mut(i) {
                        *w |= bits;
                    }
                }
            }
        }
    }
}

/// Which of an arrow's colours a shape is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Paint {
    Outline,
    Body,
}

/// The rows `first..last` of `first_row..end_row` whose pixel centres the points' y-range can
/// reach.
fn rows_reached(corners: &[Vec2], first_row: usize, end_row: usize) -> std::ops::Range<usize> {
    let (mut y0, mut y1) = (f32::INFINITY, f32::NEG_INFINITY);
    for p in corners {
        y0 = y0.min(p.y);
        y1 = y1.max(p.y);
    }
    let first = ((y0 - 0.5).max(first_row as f32) as usize).min(end_row);
    let last = ((y1 + 0.5).max(first_row as f32) as usize + 1).min(end_row);
    first..last
}

/// The exact rasteriser: the spans of pixel centres inside each of an arrow's six shapes (outline
/// `points` = tip, left, notch, right; outline `edge_width` wide), on the image rows
/// `rows.0..rows.1` for which `open` holds, within the columns `columns.0..columns.0 + columns.1`.
/// `emit(row, (from, to), paint, skip)` gets each span as columns counted from `columns.0`, the
/// top shape first (the four outline lines last to first, then the body's two triangles, the
/// second one's span with `skip` = the first one's, whose pixels it must not draw again): the
/// order in which to composite them under what is drawn, or, reversed, over it.
fn arrow_spans(
    points: [Vec2; 4],
    edge_width: f32,
    (first_row, end_row): (usize, usize),
    (x0, width): (usize, usize),
    open: impl Fn(usize) -> bool,
    mut emit: impl FnMut(usize, (usize, usize), Paint, Option<(usize, usize)>),
) {
    if points.iter().any(|p| !p.is_finite()) || !edge_width.is_finite() || width == 0 {
        return;
    }
    let [tip, left, notch, right] = points;
    // The lines, top one first, as [`super::batch::Batch::line`] draws them: the rectangle
    // `edge_width` wide over the segment (no caps); the degenerate lines it skips are skipped.
    // Shape by shape over the rows each reaches: per pixel the order is the same.
    for (a, b) in [(right, tip), (notch, right), (left, notch), (tip, left)] {
        let d = b - a;
        let length = d.length();
        if length.is_nan() || length <= 1e-3 {
            continue;
        }
        let n = Vec2::new(-d.y, d.x) * (0.5 * edge_width / length);
        let corners = [a + n, b + n, b - n, a - n];
        let rect = edges(corners);
        for y in rows_reached(&corners, first_row, end_row) {
            if !open(y) {
                continue;
            }
            if let Some(span) = row_span(&rect, y as f32 + 0.5) {
                emit(y, local_range(span, x0, width), Paint::Outline, None);
            }
        }
    }
    // The body: two triangles; a pixel in both is drawn once.
    let (first, second) = (edges([tip, left, notch]), edges([tip, notch, right]));
    for y in rows_reached(&points, first_row, end_row) {
        if !open(y) {
            continue;
        }
        let yc = y as f32 + 0.5;
        let a = row_span(&first, yc).map(|span| local_range(span, x0, width));
        if let Some(a) = a {
            emit(y, a, Paint::Body, None);
        }
        if let Some(span) = row_span(&second, yc) {
            emit(y, local_range(span, x0, width), Paint::Body, a);
        }
    }
}

/// The x-range a convex polygon (`edges` of `corners`) covers between rows `y0` and `y1`:
/// its spans at both ends and the corners in between.
fn hull_extent<const N: usize>(
    edges: &[Edge; N],
    corners: [Vec2; N],
    y0: f32,
    y1: f32,
) -> Option<(f32, f32)> {
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for (x0, x1) in [row_span(edges, y0), row_span(edges, y1)].into_iter().flatten() {
        lo = lo.min(x0);
        hi = hi.max(x1);
    }
    for p in corners {
        if p.y >= y0 && p.y <= y1 {
            lo = lo.min(p.x);
            hi = hi.max(p.x);
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// Sub-pixel positions a stamp is drawn for, per axis: an arrow is stamped from the one whose
/// centre is at the middle of its quarter of a pixel, so at most 1/8 px off on each axis.
const PHASES: usize = 4;

/// The largest distance, in pixels, by which a stamp's heading may move a point of its arrow:
/// the number of headings (a power of two, [`HEADINGS_MIN`]–[`HEADINGS_MAX`]) is chosen per size
/// so that half a bucket turns the farthest point of the arrow by at most this much.
const HEADING_ERROR_MAX: f32 = 0.25;

/// Fewest stamped headings.
const HEADINGS_MIN: usize = 64;

/// Most stamped headings: arrows that would need more (over about 14 px) are drawn shape by
/// shape (so few fit on the screen that their rows are mostly hidden anyway).
const HEADINGS_MAX: usize = 256;

/// The farthest any point of a stamped arrow's shapes lies from where the exact rasteriser puts
/// it: half a heading bucket (`HEADING_ERROR_MAX`) plus half a phase on both axes (√2 / 8).
pub const STAMP_ERROR_MAX: f32 = HEADING_ERROR_MAX + std::f32::consts::SQRT_2 / (2.0 * PHASES as f32);

/// A shape class (size and outline width) is stamped only when at least this many sprites of a
/// frame have it (a selected or hovered agent's wider outline is drawn shape by shape).
const STAMP_MIN_SPRITES: usize = 64;

/// Most shape classes the cache keeps, and most bytes of stamps: past either it keeps only the
/// classes of the frame being drawn.
const CLASSES_MAX: usize = 8;
const STAMP_BYTES_MAX: usize = 64 << 20;

/// A stamp pixel's code: bit 0 the body, bits 1.. how many outline lines cover it (0–4), so
/// codes 0–9; 0 is an empty pixel.
const CODES: usize = 10;

/// A table of colours by code, a power of two long so that a code masked to it needs no bounds
/// check.
const CODE_TABLE: usize = 16;

/// The farthest point of an arrow of `size` (pixels) with an outline `edge_width` wide from its
/// centre: the left and right corners are √2 · size away, the outline's half width beyond.
fn arrow_reach(size: f32, edge_width: f32) -> f32 {
    size * std::f32::consts::SQRT_2 + 0.5 * edge_width
}

/// How many headings arrows of `size` and `edge_width` are stamped for, or `None` when they are
/// too big (more than [`HEADINGS_MAX`] would be needed) or not finite.
fn stamp_headings(size: f32, edge_width: f32) -> Option<usize> {
    let reach = arrow_reach(size, edge_width);
    if !(reach.is_finite() && size > 0.0 && edge_width >= 0.0) {
        return None;
    }
    // A stamp's row is one 64-bit mask ([`StampRow`]): its side, 2 · half + 2 with half =
    // ⌈reach⌉ + 1, is at most 64 (at most 46 within the headings allowed below).
    if 2 * (reach.ceil() as usize + 1) + 2 > 64 {
        return None;
    }
    // Half a bucket (π / n) turns the farthest point by reach · π / n ≤ HEADING_ERROR_MAX.
    let needed = (std::f32::consts::PI * reach / HEADING_ERROR_MAX).ceil();
    if needed > HEADINGS_MAX as f32 {
        return None;
    }
    Some((needed as usize).next_power_of_two().max(HEADINGS_MIN))
}

/// The coverage of one representative arrow: per pixel a code (see [`CODES`]), for the rows
/// from `first_row` on that hold anything (the grid's rows above and below are empty).
///
/// One allocation per stamp, `data`: per row the mask of its columns whose code is not 0 (bit
/// `x` for column `x`: a stamp is at most 64 pixels wide; 8 bytes, little-endian), then per
/// row where its column 0's code would be in the codes (an `i16`: the row's codes run from its
/// first column to its last that hold anything), then the codes. The band loop fetches a
/// stamp per arrow, in no order, from a cache of 400–600 KB: in one block instead of three
/// (a struct, its rows of 16 bytes and its codes), `crowd_layer_speed` at 10,000 agents under
/// callgrind (11 frames, a 1 MB last-level cache) missed the first-level cache 1.51 → 1.34
/// million times and the last level 462,000 → 372,000 (instructions −2%); on-CPU time moved
/// within the noise of the shared machine.
struct Stamp {
    data: Box<[u8]>,
    rows: u8,
    first_row: u8,
}

/// What [`Stamp::build`] finds of a row before packing it.
struct StampRow {
    from: usize,
    offset: usize,
    mask: u64,
}

impl Stamp {
    /// The exact rasteriser's picture ([`arrow_spans`]) of the arrow of `size` and `edge_width`
    /// turned to `heading`, its centre at `(half, half) + phase` in a grid of `2 · half + 2`
    /// pixels a side.
    fn build(size: f32, edge_width: f32, heading: f32, phase: Vec2, half: usize) -> Self {
        let side = 2 * half + 2;
        let center = Vec2::splat(half as f32) + phase;
        let mut grid = vec![0u8; side * side];
        arrow_spans(
            super::agent_arrow(center, heading, size),
            edge_width,
            (0, side),
            (0, side),
            |_| true,
            |y, (from, to), paint, skip| {
                let Some(row) = grid.get_mut(y * side..(y + 1) * side) else { return };
                let (skip_from, skip_to) = skip.unwrap_or((0, 0));
                for (x, code) in row.iter_mut().enumerate().take(to).skip(from) {
                    if (skip_from..skip_to).contains(&x) {
                        continue;
                    }
                    *code = match paint {
                        Paint::Body => *code | 1,
                        Paint::Outline => (*code + 2).min(CODES as u8 - 1),
                    };
                }
            },
        );
        let mut rows = Vec::with_capacity(side);
        let mut codes = Vec::new();
        for row in grid.chunks_exact(side) {
            let from = row.iter().position(|&c| c != 0).unwrap_or(0);
            let to = row.iter().rposition(|&c| c != 0).map_or(0, |x| x + 1);
            let mask =
                row.iter().enumerate().filter(|(_, &c)| c != 0).fold(0u64, |m, (x, _)| m | 1 << (x % 64));
            rows.push(StampRow { from, offset: codes.len(), mask });
            codes.extend_from_slice(row.get(from..to.max(from)).unwrap_or_default());
        }
        // Only the rows from the first to the last that hold anything.
        let first_row = rows.iter().position(|r| r.mask != 0).unwrap_or(0);
        let end_row = rows.iter().rposition(|r| r.mask != 0).map_or(0, |y| y + 1);
        rows.truncate(end_row);
        rows.drain(..first_row.min(rows.len()));
        // A side of at most 64 (see `stamp_headings`) keeps these in range: at most 64 rows
        // and 4,096 codes.
        let mut data = Vec::with_capacity(rows.len() * 10 + codes.len());
        for row in &rows {
            data.extend_from_slice(&row.mask.to_le_bytes());
        }
        for row in &rows {
            data.extend_from_slice(&((row.offset as i64 - row.from as i64) as i16).to_le_bytes());
        }
        data.extend_from_slice(&codes);
        Stamp { data: data.into_boxed_slice(), rows: rows.len() as u8, first_row: first_row as u8 }
    }

    fn bytes(&self) -> usize {
        self.data.len() + std::mem::size_of::<Self>()
    }
}

/// The stamps of one shape class, built when first needed: slot `(heading · PHASES + phase_y) ·
/// PHASES + phase_x`.
struct StampClass {
    size: f32,
    edge_width: f32,
    headings: usize,
    half: usize,
    stamps: Vec<Option<Stamp>>,
}

/// Where a sprite is stamped: its class, slot and the image pixel of the stamp's pixel `(0, 0)`;
/// `class` [`Placement::EXACT`] for a sprite drawn shape by shape.
#[derive(Clone, Copy)]
struct Placement {
    class: u16,
    slot: u32,
    left: i64,
    top: i64,
}

impl Placement {
    const EXACT: u16 = u16::MAX;
    const NONE: Placement = Placement { class: Self::EXACT, slot: 0, left: 0, top: 0 };
}

/// The crowd layer's stamps, kept from frame to frame: per shape class (an arrow's size and
/// outline width, the same for all agents at one zoom), the exact picture of the arrow for each
/// of `stamp_headings` headings and `PHASES`² sub-pixel positions, built by the exact
/// rasteriser the first time a sprite needs it. A sprite is then drawn by copying its stamp's
/// coverage in its own colours: at most [`STAMP_ERROR_MAX`] px from its exact shapes.
#[derive(Default)]
pub struct StampCache {
    classes: Vec<StampClass>,
    bytes: usize,
}

impl StampCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stamps held (for tests and measurements).
    pub fn stamps(&self) -> usize {
        self.classes.iter().map(|c| c.stamps.iter().flatten().count()).sum()
    }

    /// Where each of `sprites` is stamped (or that it is not), after building the stamps they
    /// need and do not have.
    fn prepare(&mut self, sprites: &[ArrowSprite], region: Region) -> Vec<Placement> {
        // The frame's shape classes and how many sprites have each (the first few classes).
        let mut counts: Vec<((u32, u32), usize)> = Vec::new();
        let mut last = usize::MAX;
        for sprite in sprites {
            let Some(pose) = sprite.pose else { continue };
            let key = (pose.size.to_bits(), sprite.edge_width.to_bits());
            if let Some(entry) = counts.get_mut(last).filter(|(k, _)| *k == key) {
                entry.1 += 1;
            } else if let Some(i) = counts.iter().position(|(k, _)| *k == key) {
                last = i;
                if let Some(entry) = counts.get_mut(i) {
                    entry.1 += 1;
                }
            } else if counts.len() < CLASSES_MAX {
                last = counts.len();
                counts.push((key, 1));
            }
        }
        let wanted: Vec<(f32, f32, usize)> = counts
            .iter()
            .filter(|(_, n)| *n >= STAMP_MIN_SPRITES)
            .filter_map(|&((size, width), _)| {
                let (size, width) = (f32::from_bits(size), f32::from_bits(width));
                stamp_headings(size, width).map(|headings| (size, width, headings))
            })
            .collect();
        let is_wanted = |class: &StampClass| {
            wanted.iter().any(|&(s, w, _)| {
                s.to_bits() == class.size.to_bits() && w.to_bits() == class.edge_width.to_bits()
            })
        };
        let new = wanted
            .iter()
            .filter(|&&(s, w, _)| {
                !self
                    .classes
                    .iter()
                    .any(|c| c.size.to_bits() == s.to_bits() && c.edge_width.to_bits() == w.to_bits())
            })
            .count();
        if self.bytes > STAMP_BYTES_MAX || self.classes.len() + new > CLASSES_MAX {
            self.classes.retain(is_wanted);
            self.bytes = self.classes.iter().flat_map(|c| c.stamps.iter().flatten()).map(Stamp::bytes).sum();
        }
        // Each wanted class's index in the cache.
        let mut lookup: Vec<((u32, u32), u16)> = Vec::with_capacity(wanted.len());
        for &(size, edge_width, headings) in &wanted {
            let found = self.classes.iter().position(|c| {
                c.size.to_bits() == size.to_bits() && c.edge_width.to_bits() == edge_width.to_bits()
            });
            let idx = found.unwrap_or_else(|| {
                let half = arrow_reach(size, edge_width).ceil() as usize + 1;
                let stamps = std::iter::repeat_with(|| None).take(headings * PHASES * PHASES).collect();
                self.classes.push(StampClass { size, edge_width, headings, half, stamps });
                self.classes.len() - 1
            });
            lookup.push(((size.to_bits(), edge_width.to_bits()), idx as u16));
        }
        let classes = &self.classes;
        let (left, top) = (region.x0 as f32, region.y0 as f32);
        let (right, bottom) = (left + region.width as f32, top + region.height as f32);
        let placements: Vec<Placement> = sprites
            .par_iter()
            .with_min_len(4096)
            .map(|sprite| {
                let Some(pose) = sprite.pose else { return Placement::NONE };
                // Only the sprites that reach the region need a stamp.
                let reach = arrow_reach(pose.size, sprite.edge_width) + 1.0;
                let c = pose.center;
                if !(c.x + reach >= left && c.x - reach < right && c.y + reach >= top && c.y - reach < bottom)
                {
                    return Placement::NONE;
                }
                let key = (pose.size.to_bits(), sprite.edge_width.to_bits());
                let Some(&(_, class_idx)) = lookup.iter().find(|(k, _)| *k == key) else {
                    return Placement::NONE;
                };
                let Some(class) = classes.get(usize::from(class_idx)) else { return Placement::NONE };
                place(pose, class).map_or(Placement::NONE, |(slot, left, top)| Placement {
                    class: class_idx,
                    slot,
                    left,
                    top,
                })
            })
            .collect();
        // The stamps needed and not built yet, built on all cores.
        let mut missing: Vec<(u16, u32)> = placements
            .par_iter()
            .with_min_len(4096)
            .filter(|p| {
                p.class != Placement::EXACT
                    && classes
                        .get(usize::from(p.class))
                        .and_then(|c| c.stamps.get(p.slot as usize))
                        .is_some_and(Option::is_none)
            })
            .map(|p| (p.class, p.slot))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        let built: Vec<Option<Stamp>> = missing
            .par_iter()
            .map(|&(class_idx, slot)| {
                let class = classes.get(usize::from(class_idx))?;
                let (heading, phase) = slot_pose(class, slot);
                Some(Stamp::build(class.size, class.edge_width, heading, phase, class.half))
            })
            .collect();
        for (&(class_idx, slot), stamp) in missing.iter().zip(built) {
            let Some(entry) =
                self.classes.get_mut(usize::from(class_idx)).and_then(|c| c.stamps.get_mut(slot as usize))
            else {
                continue;
            };
            self.bytes += stamp.as_ref().map_or(0, Stamp::bytes);
            *entry = stamp;
        }
        placements
    }

    /// The stamp a placement names.
    fn stamp(&self, placement: &Placement) -> Option<&Stamp> {
        self.classes.get(usize::from(placement.class))?.stamps.get(placement.slot as usize)?.as_ref()
    }
}

/// The slot of `class` an arrow with `pose` is stamped from and the image pixel its stamp's
/// pixel `(0, 0)` goes on; `None` when it is drawn shape by shape (not finite, or so far off the
/// screen or turned so many times that the quantisation would lose precision).
fn place(pose: Pose, class: &StampClass) -> Option<(u32, i64, i64)> {
    let Pose { center, heading, .. } = pose;
    if !(center.x.abs() < 1e6 && center.y.abs() < 1e6 && heading.abs() < 1e3) {
        return None;
    }
    let floor = center.floor();
    let frac = center - floor;
    let phase_x = ((frac.x * PHASES as f32) as usize).min(PHASES - 1);
    let phase_y = ((frac.y * PHASES as f32) as usize).min(PHASES - 1);
    let bucket = (heading * (class.headings as f32 / std::f32::consts::TAU)).round() as i64;
    let bucket = bucket.rem_euclid(class.headings as i64) as usize;
    let slot = (bucket * PHASES + phase_y) * PHASES + phase_x;
    let half = class.half as i64;
    Some((slot as u32, floor.x as i64 - half, floor.y as i64 - half))
}

/// The heading and the sub-pixel position (of the centre within its pixel) of the arrow a slot
/// of `class` is the picture of: the middle of its heading bucket and of its phase.
fn slot_pose(class: &StampClass, slot: u32) -> (f32, Vec2) {
    let slot = slot as usize;
    let (phase, heading) = (slot % (PHASES * PHASES), slot / (PHASES * PHASES));
    let phase = Vec2::new(
        ((phase % PHASES) as f32 + 0.5) / PHASES as f32,
        ((phase / PHASES) as f32 + 0.5) / PHASES as f32,
    );
    (heading as f32 * (std::f32::consts::TAU / class.headings as f32), phase)
}

/// The premultiplied colour (0–255 channels times alpha, alpha 0–1) of each stamp code for an
/// arrow of `fill` and `edge`: its outline lines over each other, over the body, as
/// [`arrow_spans`]' shapes composite.
fn code_colors(fill: [u8; 4], edge: [u8; 4]) -> [[f32; 4]; CODE_TABLE] {
    let premultiplied = |c: [u8; 4]| {
        let a = f32::from(c[3]) / 255.0;
        [f32::from(c[0]) * a, f32::from(c[1]) * a, f32::from(c[2]) * a, a]
    };
    let (fill, edge) = (premultiplied(fill), premultiplied(edge));
    let under = |acc: &mut [f32; 4], c: [f32; 4]| {
        let t = 1.0 - acc[3];
        for (a, c) in acc.iter_mut().zip(c) {
            *a += c * t;
        }
    };
    std::array::from_fn(|code| {
        let mut acc = [0.0; 4];
        if code >= CODES {
            return acc;
        }
        for _ in 0..code >> 1 {
            under(&mut acc, edge);
        }
        if code & 1 == 1 {
            under(&mut acc, fill);
        }
        acc
    })
}

/// A rayon worker's band buffers, reused frame to frame: premultiplied pixels (all zero between
/// bands), covered bits and written bits (all zero between bands); see [`Band`].
#[derive(Default)]
struct BandScratch {
    pixels: Vec<[f32; 4]>,
    covered: Vec<u64>,
    written: Vec<u64>,
}

thread_local! {
    static BAND_SCRATCH: RefCell<BandScratch> = RefCell::new(BandScratch::default());
}

/// The code colours ([`code_colors`]) of the last [`ColorMemo::SLOTS`] colour pairs asked for.
#[derive(Default)]
struct ColorMemo {
    keys: [u64; Self::SLOTS],
    tables: [[[f32; 4]; CODE_TABLE]; Self::SLOTS],
    filled: usize,
    next: usize,
}

impl ColorMemo {
    const SLOTS: usize = 8;

    /// The code colours of `fill` and `edge`.
    fn get(&mut self, fill: [u8; 4], edge: [u8; 4]) -> &[[f32; 4]; CODE_TABLE] {
        let key = u64::from(u32::from_le_bytes(fill)) | u64::from(u32::from_le_bytes(edge)) << 32;
        let found = self.keys.iter().take(self.filled).position(|&k| k == key);
        let slot = found.unwrap_or_else(|| {
            let slot = self.next;
            self.next = (self.next + 1) % Self::SLOTS;
            self.filled = (self.filled + 1).min(Self::SLOTS);
            if let (Some(k), Some(table)) = (self.keys.get_mut(slot), self.tables.get_mut(slot)) {
                *k = key;
                *table = code_colors(fill, edge);
            }
            slot
        });
        self.tables.get(slot).unwrap_or(&EMPTY_CODE_COLORS)
    }
}

/// No colour for any code.
const EMPTY_CODE_COLORS: [[f32; 4]; CODE_TABLE] = [[0.0; 4]; CODE_TABLE];

/// The parts of a layer's region that hold anything: `(x, y, width, height)` in screen pixels,
/// whole tiles of a band (runs of `TILE_COLUMNS` columns by `BAND_ROWS` rows, clipped to the
/// region); every pixel outside them is empty.
pub type Tiles = Vec<(u32, u32, u32, u32)>;

/// The tiles of band `band_idx` of `region` whose bits are set in `touched`, runs of
/// neighbouring tiles as one.
fn band_tiles(region: Region, band_idx: usize, touched: &[u64], tiles: &mut Tiles) {
    let y = region.y0 + band_idx * BAND_ROWS;
    let rows = BAND_ROWS.min((region.y0 + region.height).saturating_sub(y));
    let count = region.width.div_ceil(TILE_COLUMNS);
    let is_set = |tile: usize| touched.get(tile / 64).is_some_and(|w| w & (1 << (tile % 64)) != 0);
    let mut tile = 0;
    while tile < count {
        if !is_set(tile) {
            tile += 1;
            continue;
        }
        let first = tile;
        while tile < count && is_set(tile) {
            tile += 1;
        }
        let from = first * TILE_COLUMNS;
        let to = (tile * TILE_COLUMNS).min(region.width);
        tiles.push(((region.x0 + from) as u32, y as u32, (to - from) as u32, rows as u32));
    }
}

/// A rectangle of the screen in whole pixels: columns `x0..x0 + width`, rows `y0..y0 + height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// First column.
    pub x0: usize,
    /// First row.
    pub y0: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// The pixels the layer needs: every pixel `sprites` can touch, within `clip` (the part of the
/// screen the world is seen in, in pixels) and the screen (`screen` pixels); `None` when that is
/// nothing. The layer is cleared, drawn, uploaded and blended only there.
pub fn layer_region(sprites: &[ArrowSprite], clip: (Vec2, Vec2), screen: Vec2) -> Option<Region> {
    let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for sprite in sprites {
        let pad = sprite.edge_width * 0.5 + 1.0;
        if !pad.is_finite() {
            continue;
        }
        for p in sprite.points.into_iter().filter(|p| p.is_finite()) {
            lo = lo.min(p - pad);
            hi = hi.max(p + pad);
        }
    }
    let lo = lo.max(clip.0).max(Vec2::ZERO);
    let hi = hi.min(clip.1).min(screen);
    if !(lo.x < hi.x && lo.y < hi.y) {
        return None;
    }
    // Whole pixels that contain any of it (non-negative, so truncation is floor).
    let (x0, y0) = (lo.x as usize, lo.y as usize);
    let (x1, y1) = ((hi.x.ceil() as usize).max(x0 + 1), (hi.y.ceil() as usize).max(y0 + 1));
    Some(Region { x0, y0, width: x1 - x0, height: y1 - y0 })
}

/// Draws `sprites` (in order, later ones on top) into a cleared RGBA image of `width` ×
/// `height`, on all cores, stamping what `stamps` can stamp; the result does not depend on how
/// many cores there are (see [`rasterise_region`]).
pub fn rasterise(
    image: &mut Vec<u8>,
    width: usize,
    height: usize,
    sprites: &[ArrowSprite],
    stamps: &mut StampCache,
) {
    rasterise_region(image, Region { x0: 0, y0: 0, width, height }, sprites, stamps);
}

/// [`rasterise`] with every sprite drawn shape by shape: the exact picture (the reference the
/// stamps are built with and checked against).
pub fn rasterise_exact(image: &mut Vec<u8>, width: usize, height: usize, sprites: &[ArrowSprite]) {
    rasterise_with(image, Region { x0: 0, y0: 0, width, height }, sprites, None);
}

/// Draws the part of `sprites` inside `region` of the screen into a cleared RGBA image of the
/// region's size (row by row from its top left pixel), on all cores; the result does not depend
/// on how many there are. Each band of rows is drawn front to back (the last sprite first), so
/// in a dense crowd the arrows hidden under others cost only the check that they are hidden.
/// A sprite of a shape class `stamps` holds is drawn by copying its stamp (see [`StampCache`]);
/// the others shape by shape (`arrow_spans`).
pub fn rasterise_region(
    image: &mut Vec<u8>,
    region: Region,
    sprites: &[ArrowSprite],
    stamps: &mut StampCache,
) {
    rasterise_with(image, region, sprites, Some(stamps));
}

/// [`rasterise_region`] with every sprite drawn shape by shape.
pub fn rasterise_region_exact(image: &mut Vec<u8>, region: Region, sprites: &[ArrowSprite]) {
    rasterise_with(image, region, sprites, None);
}

/// The bands `first..end` of a region a sprite touches (none: `first == end`).
#[derive(Clone, Copy)]
struct BandSpan {
    first: u16,
    end: u16,
}

impl BandSpan {
    /// The bands of `region` (of [`BAND_ROWS`] rows from its top) `sprite` may touch.
    fn of(sprite: &ArrowSprite, region: Region) -> Self {
        const NONE: BandSpan = BandSpan { first: 0, end: 0 };
        let bands = region.height.div_ceil(BAND_ROWS);
        if bands == 0 || bands > usize::from(u16::MAX) {
            return NONE;
        }
        let (top, bottom) = (region.y0 as f32, (region.y0 + region.height) as f32);
        let (left, right) = (region.x0 as f32, (region.x0 + region.width) as f32);
        let (y0, y1) = sprite.rows();
        if !(y0.is_finite() && y1.is_finite()) || y1 < top || y0 >= bottom {
            return NONE;
        }
        let pad = sprite.edge_width * 0.5 + 1.0;
        let (mut sx0, mut sx1) = (f32::INFINITY, f32::NEG_INFINITY);
        for p in sprite.points {
            sx0 = sx0.min(p.x);
            sx1 = sx1.max(p.x);
        }
        if sx1 + pad < left || sx0 - pad >= right {
            return NONE;
        }
        let first = ((y0 - top).max(0.0) as usize / BAND_ROWS).min(bands - 1);
        let last = (((y1 - top).max(0.0) as usize + 1) / BAND_ROWS).min(bands - 1);
        BandSpan { first: first as u16, end: last as u16 + 1 }
    }
}

/// Rasterises as [`rasterise_region`] says and returns the tiles that hold anything.
fn rasterise_with(
    image: &mut Vec<u8>,
    region: Region,
    sprites: &[ArrowSprite],
    stamps: Option<&mut StampCache>,
) -> Tiles {
    let Region { x0, y0: first_row, width, height } = region;
    // Not cleared: the bands write every byte.
    image.resize(width * height * 4, 0);
    if width == 0 || height == 0 {
        return Tiles::new();
    }
    // Which bands each sprite touches, on all cores (a band then walks them all, the last
    // first, and draws the ones that touch it: no list per band is built on one core).
    let spans: Vec<BandSpan> =
        sprites.par_iter().with_min_len(4096).map(|sprite| BandSpan::of(sprite, region)).collect();
    let words = width.div_ceil(64);
    // Where each sprite is stamped, after building the stamps they need (none: all exact).
    let (placements, stamps): (Vec<Placement>, Option<&StampCache>) = match stamps {
        Some(cache) => (cache.prepare(sprites, region), Some(&*cache)),
        None => (Vec::new(), None),
    };
    let tile_words = width.div_ceil(TILE_COLUMNS).div_ceil(64);
    let touched: Vec<Vec<u64>> = image
        .par_chunks_mut(width * 4 * BAND_ROWS)
        .enumerate()
        .map(|(band_idx, out)| {
            let rows = out.len() / (4 * width);
            let mut touched = vec![0u64; tile_words];
            // Every byte of the band is written here: the drawn pixels below, the others 0.
            out.fill(0);
            BAND_SCRATCH.with(|scratch| {
                let Ok(mut scratch) = scratch.try_borrow_mut() else {
                    // Not reachable (a band does not run inside another); draw nothing rather
                    // than from a buffer in use.
                    return;
                };
                let BandScratch { pixels, covered, written } = &mut *scratch;
                if pixels.len() < rows * width {
                    pixels.resize(rows * width, [0.0; 4]);
                }
                let Some(pixels) = pixels.get_mut(..rows * width) else { return };
                Band::reset_covered(covered, rows, width);
                written.clear();
                written.resize(rows * words, 0);
                let mut band = Band {
                    pixels,
                    covered,
                    written,
                    x0,
                    width,
                    words,
                    first_row: first_row + band_idx * BAND_ROWS,
                    rows,
                };
                // The code colours of the last few colour pairs (a crowd has a handful): the
                // table costs more to build than most arrows cost to stamp. Under callgrind at
                // 10,000 agents, 252 → 235 million instructions over 11 frames (−7%) against
                // building it for every arrow.
                let mut colors = ColorMemo::default();
                let band_number = band_idx as u16;
                for (idx, span) in spans.iter().enumerate().rev() {
                    if !(span.first <= band_number && band_number < span.end) {
                        continue;
                    }
                    let Some(sprite) = sprites.get(idx) else { continue };
                    let placement = placements.get(idx);
                    match stamps.zip(placement).and_then(|(cache, p)| Some((cache.stamp(p)?, p))) {
                        Some((stamp, p)) => {
                            band.stamp_under(stamp, (p.left, p.top), colors.get(sprite.fill, sprite.edge));
                        }
                        None => band.draw_under(sprite),
                    }
                }
                // Back to straight RGBA bytes, in the pixels drawn in only, which are cleared on
                // the way, so the buffer is all zero for the next band; a tile is blended when
                // some row drew in it.
                for (row, bits) in band.written.chunks_exact_mut(words.max(1)).enumerate() {
                    for (word_idx, word) in bits.iter_mut().enumerate() {
                        let mut open = std::mem::take(word);
                        if open == 0 {
                            continue;
                        }
                        if let Some(tile) = touched.get_mut(word_idx / 64) {
                            *tile |= 1 << (word_idx % 64);
                        }
                        while open != 0 {
                            let x = word_idx * 64 + open.trailing_zeros() as usize;
                            open &= open - 1;
                            let i = row * width + x;
                            let (Some(p), Some(o)) = (band.pixels.get_mut(i), out.get_mut(i * 4..i * 4 + 4))
                            else {
                                continue;
                            };
                            let p = std::mem::replace(p, [0.0; 4]);
                            let alpha = p[3];
                            if alpha <= 0.0 {
                                continue;
                            }
                            // One division a pixel instead of three.
                            let inverse = 1.0 / alpha;
                            let straight = |c: f32| (c * inverse + 0.5).clamp(0.0, 255.0) as u8;
                            o.copy_from_slice(&[
                                straight(p[0]),
                                straight(p[1]),
                                straight(p[2]),
                                (alpha * 255.0 + 0.5).clamp(0.0, 255.0) as u8,
                            ]);
                        }
                    }
                }
            });
            touched
        })
        .collect();
    let mut tiles = Tiles::new();
    for (band_idx, touched) in touched.iter().enumerate() {
        band_tiles(region, band_idx, touched, &mut tiles);
    }
    tiles
}

/// What the layer keeps between frames: the picture ([`Picture`]) and a screen-sized texture
/// (reallocated only when the window's size changes) of which each frame uploads only the
/// picture's region and draws only its tiles.
struct Layer {
    picture: Picture,
    texture: Option<(Texture2D, usize, usize)>,
}

/// The layer's picture, apart from the texture (so that tests can drive it without a window):
/// the image of the last region drawn and the tiles of it that hold anything, the stamps, and
/// what the image shows.
#[derive(Default)]
struct Picture {
    image: Vec<u8>,
    tiles: Tiles,
    stamps: StampCache,
    shown: Option<Shown>,
}

/// The sprites and region a layer's texture holds.
#[derive(PartialEq)]
struct Shown {
    region: Region,
    sprites: Vec<ArrowSprite>,
}

impl Picture {
    /// Brings the image to `shown`, rasterising it. Returns whether the image changed (and must
    /// be uploaded); an unchanged `shown` (a paused crowd, or a frame in which a big crowd's dear
    /// step did not run) leaves it as it is.
    fn bring_to(&mut self, shown: Shown) -> bool {
        if self.shown.as_ref() == Some(&shown) {
            // The texture and the tiles still hold it.
            return false;
        }
        self.tiles = rasterise_with(&mut self.image, shown.region, &shown.sprites, Some(&mut self.stamps));
        self.shown = Some(shown);
        true
    }
}

/// The layer's buffers (image, stamps, what they show) taken off the drawing thread, so that
/// the layer can be brought up to date on rayon's threads, ahead of its drawing, while the
/// frame's thread does other work: [`Ahead::take_for`], then [`Ahead::prepare`] on rayon's
/// threads (this frame's sprites worked out, the picture brought to them) while the frame's
/// thread draws what lies under the crowd (grid, paths, obstacles, trails), then
/// [`draw_prepared`] uploads and draws it and gives the buffers back. Measured 2026-11-26 01:25
/// UTC (10,000 agents, `steerlab frames` under `chrt -f 1` at load average 5.1–5.6, six
/// alternating rounds, the machine in its slow state): mean frame 16.30–16.67 ms against
/// 16.42–17.32 before, lower in every round (−0.34 ms on average); world drawing 2.44–2.54
/// against 2.76–2.84 ms. (Rasterising the layer earlier still, while the panels are laid out,
/// was tried and not kept: +0.75 ms a frame on this project's 2-core machine; see
/// `docs/performance-history.md`.)
pub struct Ahead {
    picture: Picture,
    /// Set by [`Ahead::prepare`]: whether the picture changed (and must be uploaded), or `None`
    /// when there was nothing to draw.
    prepared: Option<bool>,
}

impl Ahead {
    /// Takes the layer's buffers off the drawing thread for this frame's [`Ahead::prepare`] on a
    /// screen of `screen` pixels (`None` while they are in use): when the texture is not of that
    /// size (it is reallocated), the picture it showed is forgotten.
    pub fn take_for(screen: Vec2) -> Option<Ahead> {
        let size = screen_pixels(screen);
        LAYER.with(|layer| {
            let mut layer = layer.try_borrow_mut().ok()?;
            let fits = matches!((&layer.texture, size), (Some((_, w, h)), Some(s)) if (*w, *h) == s);
            let mut picture = std::mem::take(&mut layer.picture);
            if !fits {
                picture.shown = None;
            }
            Some(Ahead { picture, prepared: None })
        })
    }

    /// Brings the picture to this frame's `sprites` on a screen of `screen` pixels clipped to
    /// `clip` (see `Picture::bring_to`), on any thread; [`draw_prepared`] then uploads and
    /// draws it. The frame's world drawing runs this on rayon's threads while it draws what lies
    /// under the crowd (grid, paths, obstacles).
    pub fn prepare(&mut self, sprites: Vec<ArrowSprite>, screen: Vec2, clip: (Vec2, Vec2)) {
        self.prepared = frame_region(&sprites, screen, clip)
            .map(|region| self.picture.bring_to(Shown { region, sprites }));
    }

    /// Gives the buffers and the picture back to the drawing thread's layer.
    fn give_back(self) {
        LAYER.with(|layer| {
            if let Ok(mut layer) = layer.try_borrow_mut() {
                layer.picture = self.picture;
            }
        });
    }
}

thread_local! {
    // The drawing thread's layer (macroquad draws from one thread; render functions are free
    // functions of the App, so the reusable buffers live here rather than in the App).
    static LAYER: RefCell<Layer> = const {
        RefCell::new(Layer {
            picture: Picture {
                image: Vec::new(),
                tiles: Vec::new(),
                stamps: StampCache { classes: Vec::new(), bytes: 0 },
                shown: None,
            },
            texture: None,
        })
    };
}

/// The region [`draw`] draws `sprites` in on a screen of `screen` pixels clipped to `clip`
/// (`None`: nothing to draw, or a screen too big for a texture).
fn frame_region(sprites: &[ArrowSprite], screen: Vec2, clip: (Vec2, Vec2)) -> Option<Region> {
    let (width, height) = screen_pixels(screen)?;
    layer_region(sprites, clip, Vec2::new(width as f32, height as f32))
}

fn screen_pixels(screen: Vec2) -> Option<(usize, usize)> {
    let (width, height) = (screen.x.max(0.0).round() as usize, screen.y.max(0.0).round() as usize);
    if width == 0 || height == 0 || width > u16::MAX as usize || height > u16::MAX as usize {
        return None;
    }
    Some((width, height))
}

/// Draws `sprites` on the screen (`screen` pixels), clipped to `clip` (the part of the screen
/// the world shows in; opaque panels cover the rest), as one textured quad over the pixels they
/// can touch. Only that region is cleared, drawn and uploaded (at 10,000 agents on the compare
/// track a third of the screen, where the whole screen was before), and only its tiles that hold
/// anything are blended ([`Tiles`]). When the sprites and the region are those of the last frame
/// (a paused crowd, or a frame in which a big crowd's dear step did not run, see `shell.rs`'s
/// `StepBudget`), the texture is drawn as it is.
pub fn draw(sprites: Vec<ArrowSprite>, screen: Vec2, clip: (Vec2, Vec2)) {
    let Some(mut ahead) = Ahead::take_for(screen) else { return };
    ahead.prepare(sprites, screen, clip);
    draw_prepared(ahead, screen);
}

/// Uploads the picture [`Ahead::prepare`] brought up to date (when it changed) and draws its
/// tiles on the screen (`screen` pixels, the size it was prepared for), giving the layer's
/// buffers back.
pub fn draw_prepared(ahead: Ahead, screen: Vec2) {
    let prepared = ahead.prepared;
    ahead.give_back();
    let (Some(changed), Some((width, height))) = (prepared, screen_pixels(screen)) else { return };
    LAYER.with(|layer| {
        let Ok(mut layer) = layer.try_borrow_mut() else { return };
        let layer = &mut *layer;
        let texture = match &layer.texture {
            Some((texture, w, h)) if *w == width && *h == height => texture.clone(),
            _ => {
                // (The picture was forgotten when its buffers were taken: `Ahead::take_for`.)
                let texture =
                    Texture2D::from_rgba8(width as u16, height as u16, &vec![0; width * height * 4]);
                texture.set_filter(FilterMode::Nearest);
                layer.texture = Some((texture.clone(), width, height));
                texture
            }
        };
        let picture = &mut layer.picture;
        if let (true, Some(region)) = (changed, picture.shown.as_ref().map(|s| s.region)) {
            let image = Image {
                bytes: std::mem::take(&mut picture.image),
                width: region.width as u16,
                height: region.height as u16,
            };
            texture.update_part(
                &image,
                region.x0 as i32,
                region.y0 as i32,
                region.width as i32,
                region.height as i32,
            );
            picture.image = image.bytes;
        }
        // Only the tiles that hold anything: the rest of the region is empty, and blending it
        // costs the software rasteriser as much as blending arrows.
        for &(x, y, w, h) in &picture.tiles {
            let (x, y, w, h) = (x as f32, y as f32, w as f32, h as f32);
            draw_texture_ex(
                &texture,
                x,
                y,
                WHITE,
                DrawTextureParams {
                    dest_size: Some(Vec2::new(w, h)),
                    source: Some(Rect::new(x, y, w, h)),
                    ..Default::default()
                },
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    // The plain rasteriser the span version replaced (every pixel of a shape's row bound tested
    // for coverage): the reference the fast one is checked against.
    fn cross(a: Vec2, b: Vec2) -> f32 {
        a.x * b.y - a.y * b.x
    }

    /// Whether the pixel centre `p` is inside triangle `a b c` (either winding, edges included).
    fn in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
        let e0 = cross(b - a, p - a);
        let e1 = cross(c - b, p - b);
        let e2 = cross(a - c, p - c);
        (e0 >= 0.0 && e1 >= 0.0 && e2 >= 0.0) || (e0 <= 0.0 && e1 <= 0.0 && e2 <= 0.0)
    }

    /// A line as [`super::batch::Batch::line`] draws it: the rectangle `thickness` wide over the
    /// segment (no caps). `None` for the degenerate lines the mesh path skips.
    #[derive(Clone, Copy)]
    struct LineRect {
        a: Vec2,
        unit: Vec2,
        length: f32,
        half_width: f32,
    }

    impl LineRect {
        fn new(a: Vec2, b: Vec2, thickness: f32) -> Option<Self> {
            let d = b - a;
            let length = d.length();
            if length.is_nan() || length <= 1e-3 {
                return None;
            }
            Some(Self { a, unit: d / length, length, half_width: 0.5 * thickness })
        }

        fn contains(&self, p: Vec2) -> bool {
            let r = p - self.a;
            let along = r.dot(self.unit);
            along >= 0.0 && along <= self.length && cross(self.unit, r).abs() <= self.half_width
        }
    }

    /// The x-range (of pixel centres, widened by a pixel each side) where the horizontal line
    /// `y` crosses the convex polygon `corners`; `None` when it misses it. Only a bound: the exact
    /// test runs on every pixel in it.
    fn reference_row_span(corners: &[Vec2], y: f32) -> Option<(f32, f32)> {
        let (mut x0, mut x1) = (f32::INFINITY, f32::NEG_INFINITY);
        for (i, &p) in corners.iter().enumerate() {
            let q = corners.get(i + 1).or(corners.first()).copied().unwrap_or(p);
            let (lo, hi) = if p.y <= q.y { (p.y, q.y) } else { (q.y, p.y) };
            if y < lo || y > hi {
                continue;
            }
            if hi - lo <= f32::EPSILON {
                x0 = x0.min(p.x.min(q.x));
                x1 = x1.max(p.x.max(q.x));
            } else {
                let x = p.x + (y - p.y) * (q.x - p.x) / (q.y - p.y);
                x0 = x0.min(x);
                x1 = x1.max(x);
            }
        }
        (x0 <= x1).then_some((x0 - 1.0, x1 + 1.0))
    }

    /// One row of an RGBA band: blends `color` over every pixel whose centre in `x_range` passes
    /// `inside`.
    fn blend_row(row: &mut [u8], y: f32, x_range: (f32, f32), color: [u8; 4], inside: impl Fn(Vec2) -> bool) {
        let width = row.len() / 4;
        // Truncation of non-negative numbers is their floor (`floor`/`ceil` are library calls on
        // the baseline x86-64 target); the range is a bound, so one more pixel is harmless.
        let from = ((x_range.0 - 0.5).max(0.0) as usize).min(width);
        let to = ((x_range.1 + 0.5).max(0.0) as usize + 1).min(width);
        for x in from..to {
            if !inside(Vec2::new(x as f32 + 0.5, y)) {
                continue;
            }
            if let Some(pixel) = row.get_mut(x * 4..x * 4 + 4) {
                let value = blend_over([pixel[0], pixel[1], pixel[2], pixel[3]], color);
                pixel.copy_from_slice(&value);
            }
        }
    }

    /// Draws `sprite` into the rows `first_row..first_row + rows` of an RGBA image `width` pixels
    /// wide (`band` holds exactly those rows). Shape by shape (body, then the four outline lines),
    /// each over only the pixels its rows can reach: per pixel the same blends in the same order
    /// as the GPU's draw calls.
    fn reference_sprite(band: &mut [u8], width: usize, first_row: usize, sprite: &ArrowSprite) {
        if sprite.points.iter().any(|p| !p.is_finite()) || !sprite.edge_width.is_finite() || width == 0 {
            return;
        }
        let rows = band.len() / (4 * width);
        let [tip, left, notch, right] = sprite.points;
        let row_range = |corners: &[Vec2]| {
            let (mut y0, mut y1) = (f32::INFINITY, f32::NEG_INFINITY);
            for p in corners {
                y0 = y0.min(p.y);
                y1 = y1.max(p.y);
            }
            let first = ((y0 - 0.5).max(first_row as f32) as usize).min(first_row + rows);
            let last = ((y1 + 0.5).max(first_row as f32) as usize + 1).min(first_row + rows);
            first..last
        };
        // The body: two triangles; a pixel on their shared edge is filled once.
        let (first, second) = ([tip, left, notch], [tip, notch, right]);
        for y in row_range(&sprite.points) {
            let yc = y as f32 + 0.5;
            let Some(row) = band.get_mut((y - first_row) * width * 4..(y - first_row + 1) * width * 4) else {
                continue;
            };
            if let Some(span) = reference_row_span(&first, yc) {
                blend_row(row, yc, span, sprite.fill, |p| in_triangle(p, tip, left, notch));
            }
            if let Some(span) = reference_row_span(&second, yc) {
                blend_row(row, yc, span, sprite.fill, |p| {
                    in_triangle(p, tip, notch, right) && !in_triangle(p, tip, left, notch)
                });
            }
        }
        for (a, b) in [(tip, left), (left, notch), (notch, right), (right, tip)] {
            let Some(line) = LineRect::new(a, b, sprite.edge_width) else { continue };
            let n = Vec2::new(-line.unit.y, line.unit.x) * line.half_width;
            let corners = [a + n, b + n, b - n, a - n];
            for y in row_range(&corners) {
                let yc = y as f32 + 0.5;
                let Some(row) = band.get_mut((y - first_row) * width * 4..(y - first_row + 1) * width * 4)
                else {
                    continue;
                };
                if let Some(span) = reference_row_span(&corners, yc) {
                    blend_row(row, yc, span, sprite.edge, |p| line.contains(p));
                }
            }
        }
    }

    /// The plain rasteriser over the whole image, one sprite after another.
    fn reference_image(width: usize, height: usize, sprites: &[ArrowSprite]) -> Vec<u8> {
        let mut image = vec![0u8; width * height * 4];
        for sprite in sprites {
            reference_sprite(&mut image, width, 0, sprite);
        }
        image
    }

    #[test]
    fn the_span_rasteriser_draws_what_the_per_pixel_one_draws() {
        // Arrows of many sizes, headings, sub-pixel positions, colours (opaque and not) and
        // outline widths, overlapping, some half off the image.
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let sprites: Vec<ArrowSprite> = (0..600)
            .map(|_| {
                let centre = Vec2::new(next() * 220.0 - 10.0, next() * 170.0 - 10.0);
                let size = 4.0 + next() * 20.0;
                let fill_alpha = if next() < 0.3 { 120 } else { 255 };
                ArrowSprite::new(
                    centre,
                    next() * 7.0,
                    size,
                    [(next() * 255.0) as u8, (next() * 255.0) as u8, 90, fill_alpha],
                    [25, 25, 25, 229],
                    [1.0, 2.0, 2.5][(next() * 2.99) as usize],
                )
            })
            .collect();
        let (width, height) = (200, 150);
        let mut fast = Vec::new();
        rasterise_exact(&mut fast, width, height, &sprites);
        let plain = reference_image(width, height, &sprites);
        let differing = fast
            .chunks_exact(4)
            .zip(plain.chunks_exact(4))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 2))
            .count();
        let covered = plain.chunks_exact(4).filter(|p| p[3] > 0).count();
        assert!(covered > width * height / 2, "the sprites cover the image ({covered} pixels)");
        // Only pixel centres on a shape's exact edge may differ.
        assert!(differing * 1000 <= width * height, "{differing} of {} pixels differ", width * height);
    }

    fn sprite_at(x: f32, y: f32) -> ArrowSprite {
        ArrowSprite::new(Vec2::new(x, y), 0.3, 6.0, [200, 30, 40, 255], [25, 25, 25, 229], 1.0)
    }

    /// The layer as a plain compositor would draw it: every pixel of every arrow, the last
    /// arrow first, each under what is there until the pixel is covered (the stamped ones from
    /// the stamps `rasterise_with` uses, the others shape by shape), converted at the end; no
    /// bands, masks, covered or written bits.
    fn composite_in_turn(
        region: Region,
        sprites: &[ArrowSprite],
        stamps: Option<&mut StampCache>,
    ) -> Vec<u8> {
        let none = StampCache::new();
        let (placements, stamps) = match stamps {
            Some(stamps) => (stamps.prepare(sprites, region), &*stamps),
            None => (vec![Placement::NONE; sprites.len()], &none),
        };
        let Region { x0, y0, width, height } = region;
        let mut pixels = vec![[0.0f32; 4]; width * height];
        let mut under = |x: i64, y: i64, color: [f32; 4]| {
            let (x, y) = (x - x0 as i64, y - y0 as i64);
            if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
                return;
            }
            let p = &mut pixels[y as usize * width + x as usize];
            let t = 1.0 - p[3];
            if t <= COVERED {
                return;
            }
            for (p, c) in p.iter_mut().zip(color) {
                *p += c * t;
            }
        };
        for (sprite, placement) in sprites.iter().zip(&placements).rev() {
            match stamps.stamp(placement) {
                Some(stamp) => {
                    let colors = code_colors(sprite.fill, sprite.edge);
                    let rows = usize::from(stamp.rows);
                    let (masks, rest) = stamp.data.split_at(rows * 8);
                    let (starts, codes) = rest.split_at(rows * 2);
                    for row in 0..rows {
                        let mask = u64::from_le_bytes(masks[row * 8..row * 8 + 8].try_into().unwrap());
                        let start =
                            i64::from(i16::from_le_bytes(starts[row * 2..row * 2 + 2].try_into().unwrap()));
                        let y = placement.top + i64::from(stamp.first_row) + row as i64;
                        for bit in (0..64).filter(|bit| mask >> bit & 1 == 1) {
                            let code = usize::from(codes[(start + bit) as usize]);
                            under(placement.left + bit, y, colors[code]);
                        }
                    }
                }
                None => arrow_spans(
                    sprite.points,
                    sprite.edge_width,
                    (y0, y0 + height),
                    (x0, width),
                    |_| true,
                    |y, (from, to), paint, skip| {
                        let c = if paint == Paint::Body { sprite.fill } else { sprite.edge };
                        let a = f32::from(c[3]) / 255.0;
                        let color = [f32::from(c[0]) * a, f32::from(c[1]) * a, f32::from(c[2]) * a, a];
                        let (skip_from, skip_to) = skip.unwrap_or((0, 0));
                        for x in (from..to).filter(|x| !(skip_from..skip_to).contains(x)) {
                            under((x0 + x) as i64, y as i64, color);
                        }
                    },
                ),
            }
        }
        pixels
            .iter()
            .flat_map(|p| {
                let alpha = p[3];
                if alpha <= 0.0 {
                    return [0; 4];
                }
                let inverse = 1.0 / alpha;
                let straight = |c: f32| (c * inverse + 0.5).clamp(0.0, 255.0) as u8;
                [
                    straight(p[0]),
                    straight(p[1]),
                    straight(p[2]),
                    (alpha * 255.0 + 0.5).clamp(0.0, 255.0) as u8,
                ]
            })
            .collect()
    }

    #[test]
    fn the_bands_draw_what_compositing_each_arrow_in_turn_draws_bit_for_bit() {
        // Regions whose width is and is not a whole number of 64-column words, crowds that
        // reach over every edge of the region, dense ones (most rows hidden), a few arrows with
        // a selected agent's wider outline and a few given by their outline only (both drawn
        // shape by shape), on one to three threads.
        let regions = [
            Region { x0: 13, y0: 7, width: 300, height: 190 },
            Region { x0: 64, y0: 0, width: 256, height: 97 },
            Region { x0: 0, y0: 30, width: 1, height: 40 },
        ];
        for (seed, n, size) in [(1, 400, 6.0), (2, 4000, 4.0), (3, 60, 13.0), (4, 2500, 5.5)] {
            let mut crowd = random_crowd(seed, n, size, 1.0, (340.0, 210.0));
            for (i, sprite) in crowd.iter_mut().enumerate().filter(|(i, _)| i % 97 == 5) {
                *sprite = if i % 2 == 0 {
                    let pose = sprite.pose.expect("posed");
                    ArrowSprite::new(
                        pose.center,
                        pose.heading,
                        pose.size,
                        sprite.fill,
                        [250, 200, 0, 255],
                        2.5,
                    )
                } else {
                    ArrowSprite::from_points(sprite.points, sprite.fill, sprite.edge, 1.0)
                };
            }
            for region in regions {
                for threads in [1, 2, 3] {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
                    let mut stamps = StampCache::new();
                    let mut image = vec![7; 5];
                    pool.install(|| {
                        rasterise_with(&mut image, region, &crowd, Some(&mut stamps));
                    });
                    assert!(n < 400 || stamps.stamps() > 0, "seed {seed}: stamped");
                    let expected = composite_in_turn(region, &crowd, Some(&mut stamps));
                    assert!(
                        image == expected,
                        "seed {seed}, {region:?}, {threads} threads: the pictures differ"
                    );
                    let mut exact = Vec::new();
                    pool.install(|| {
                        rasterise_with(&mut exact, region, &crowd, None);
                    });
                    let expected = composite_in_turn(region, &crowd, None);
                    assert!(
                        exact == expected,
                        "seed {seed}, {region:?}, {threads} threads: exact pictures differ"
                    );
                }
            }
        }
    }

    #[test]
    fn the_tiles_hold_every_pixel_drawn_and_the_buffers_are_left_empty() {
        let region = Region { x0: 13, y0: 7, width: 300, height: 190 };
        for (seed, n, size) in [(1, 400, 6.0), (2, 3000, 4.0), (3, 30, 20.0), (4, 0, 6.0)] {
            let crowd = random_crowd(seed, n, size, 1.0, (330.0, 200.0));
            let mut stamps = StampCache::new();
            for round in 0..2 {
                let mut image = Vec::new();
                let tiles = rasterise_with(&mut image, region, &crowd, Some(&mut stamps));
                // The same picture as drawing the whole region (the scratch buffers were left
                // empty by the last call, or this would differ the second time).
                let mut whole = Vec::new();
                rasterise_region_exact(&mut whole, region, &crowd);
                let mut exact = Vec::new();
                let exact_tiles = rasterise_with(&mut exact, region, &crowd, None);
                assert_eq!(exact, whole, "seed {seed}, round {round}");
                for (idx, pixel) in image.chunks_exact(4).enumerate() {
                    let (x, y) = (region.x0 + idx % region.width, region.y0 + idx / region.width);
                    let inside = |tiles: &Tiles| {
                        tiles.iter().any(|&(tx, ty, tw, th)| {
                            (tx as usize..(tx + tw) as usize).contains(&x)
                                && (ty as usize..(ty + th) as usize).contains(&y)
                        })
                    };
                    if pixel != [0, 0, 0, 0] {
                        assert!(inside(&tiles), "seed {seed}: pixel ({x}, {y}) drawn outside the tiles");
                    }
                    if exact.get(idx * 4..idx * 4 + 4).is_some_and(|p| p != [0, 0, 0, 0]) {
                        assert!(inside(&exact_tiles), "seed {seed}: exact pixel ({x}, {y}) outside");
                    }
                }
                for &(tx, ty, tw, th) in &tiles {
                    assert!(tx as usize >= region.x0 && (tx + tw) as usize <= region.x0 + region.width);
                    assert!(ty as usize >= region.y0 && (ty + th) as usize <= region.y0 + region.height);
                }
            }
            assert_eq!(n == 0, rasterise_with(&mut Vec::new(), region, &crowd, None).is_empty());
        }
        // After a dense crowd, a lone arrow in a region of another width: whatever the bands'
        // buffers held would show in its tiles, far from the arrow.
        for threads in [1, 2, 3] {
            let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() else { continue };
            pool.install(|| {
                let dense = random_crowd(9, 5000, 5.0, 1.0, (330.0, 200.0));
                rasterise_with(&mut Vec::new(), region, &dense, Some(&mut StampCache::new()));
                let lone = [sprite_at(150.0, 100.0)];
                let other = Region { x0: 20, y0: 10, width: 251, height: 170 };
                let mut image = Vec::new();
                let tiles = rasterise_with(&mut image, other, &lone, None);
                assert!(!tiles.is_empty());
                for (idx, pixel) in image.chunks_exact(4).enumerate() {
                    let (x, y) =
                        ((other.x0 + idx % other.width) as f32, (other.y0 + idx / other.width) as f32);
                    if pixel != [0, 0, 0, 0] {
                        assert!(
                            Vec2::new(x, y).distance(Vec2::new(150.0, 100.0)) < 12.0,
                            "({x}, {y}): {pixel:?}"
                        );
                    }
                }
            });
        }
    }

    #[test]
    fn over_an_empty_pixel_the_source_is_kept_as_it_is() {
        assert_eq!(blend_over([0, 0, 0, 0], [10, 20, 30, 229]), [10, 20, 30, 229]);
        assert_eq!(blend_over([1, 2, 3, 255], [10, 20, 30, 255]), [10, 20, 30, 255]);
    }

    #[test]
    fn the_layer_over_a_background_equals_blending_each_shape_onto_it() {
        // GPU-style blending straight onto an opaque background, shape by shape, against the
        // layer composited first and blended once.
        let background = [240.0f32, 240.0, 235.0];
        let shapes = [[200u8, 30, 40, 255], [25, 25, 25, 229], [25, 25, 25, 229], [0, 90, 200, 128]];
        let mut direct = background;
        let mut layer = [0u8; 4];
        for s in shapes {
            let a = f32::from(s[3]) / 255.0;
            for c in 0..3 {
                direct[c] = f32::from(s[c]) * a + direct[c] * (1.0 - a);
            }
            layer = blend_over(layer, s);
        }
        let a = f32::from(layer[3]) / 255.0;
        for c in 0..3 {
            let via_layer = f32::from(layer[c]) * a + background[c] * (1.0 - a);
            assert!((via_layer - direct[c]).abs() <= 1.5, "channel {c}: {via_layer} vs {}", direct[c]);
        }
    }

    #[test]
    fn the_picture_does_not_depend_on_the_thread_count() {
        let sprites: Vec<ArrowSprite> =
            (0..3_000).map(|i| sprite_at((i * 37 % 400) as f32 + 0.3, (i * 53 % 300) as f32 + 0.7)).collect();
        // Headings all round, so many stamps are built (on all threads) while drawing.
        let sprites: Vec<ArrowSprite> = sprites
            .iter()
            .enumerate()
            .map(|(i, s)| {
                ArrowSprite::new(s.points[2] + Vec2::new(0.1, 0.2), i as f32 * 0.01, 6.0, s.fill, s.edge, 1.0)
            })
            .collect();
        let draw_with = |threads: usize, stamped: bool| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
            let mut image = Vec::new();
            let mut stamps = StampCache::new();
            pool.install(|| {
                if stamped {
                    rasterise(&mut image, 400, 300, &sprites, &mut stamps);
                } else {
                    rasterise_exact(&mut image, 400, 300, &sprites);
                }
            });
            assert_eq!(stamps.stamps() > 0, stamped);
            image
        };
        assert_eq!(draw_with(1, true), draw_with(4, true));
        assert_eq!(draw_with(1, false), draw_with(4, false));
    }

    #[test]
    fn an_arrow_covers_its_centre_and_nothing_far_from_it() {
        let mut image = Vec::new();
        rasterise(&mut image, 64, 64, &[sprite_at(32.0, 32.0)], &mut StampCache::new());
        let alpha = |x: usize, y: usize| image[(y * 64 + x) * 4 + 3];
        assert_eq!(alpha(32, 32), 255, "the body is opaque at the centre");
        let far = (0..64).flat_map(|y| (0..64).map(move |x| (x, y))).filter(|&(x, y)| {
            let (dx, dy) = (x as f32 + 0.5 - 32.0, y as f32 + 0.5 - 32.0);
            dx * dx + dy * dy > 12.0 * 12.0
        });
        assert!(far.into_iter().all(|(x, y)| alpha(x, y) == 0));
    }

    #[test]
    fn the_layers_region_holds_every_pixel_the_whole_screen_would_draw_there() {
        // Arrows in a patch of a 300 × 200 screen, some crossing the clip rectangle's edges.
        let sprites: Vec<ArrowSprite> = (0..400)
            .map(|i| sprite_at(60.0 + (i * 37 % 170) as f32 + 0.3, 40.0 + (i * 53 % 110) as f32 + 0.7))
            .collect();
        let (width, height) = (300, 200);
        let mut whole = Vec::new();
        let mut stamps = StampCache::new();
        rasterise(&mut whole, width, height, &sprites, &mut stamps);
        assert!(stamps.stamps() > 0, "the sprites are stamped");
        let clip = (Vec2::new(80.5, 30.0), Vec2::new(290.0, 140.25));
        let region = layer_region(&sprites, clip, Vec2::new(width as f32, height as f32)).expect("a region");
        assert!(region.x0 >= 80 && region.y0 >= 30, "{region:?}");
        assert!(region.x0 + region.width <= 290 && region.y0 + region.height <= 141, "{region:?}");
        let mut part = Vec::new();
        rasterise_region(&mut part, region, &sprites, &mut StampCache::new());
        assert_eq!(part.len(), region.width * region.height * 4);
        let pixel =
            |image: &[u8], w: usize, x: usize, y: usize| image[(y * w + x) * 4..(y * w + x) * 4 + 4].to_vec();
        for y in 0..height {
            for x in 0..width {
                let inside_clip = (81..290).contains(&x) && (30..140).contains(&y);
                let in_region = (region.x0..region.x0 + region.width).contains(&x)
                    && (region.y0..region.y0 + region.height).contains(&y);
                if in_region {
                    let local = pixel(&part, region.width, x - region.x0, y - region.y0);
                    assert_eq!(local, pixel(&whole, width, x, y), "pixel ({x}, {y})");
                } else if inside_clip {
                    assert_eq!(pixel(&whole, width, x, y)[3], 0, "pixel ({x}, {y}) drawn outside the region");
                }
            }
        }
        // Nothing to draw in the clip rectangle: no region.
        assert_eq!(
            layer_region(&sprites, (Vec2::new(250.0, 0.0), Vec2::new(300.0, 20.0)), Vec2::new(300.0, 200.0)),
            None
        );
    }

    #[test]
    fn sprites_off_screen_or_not_finite_draw_nothing() {
        let mut image = Vec::new();
        let mut points = sprite_at(10.0, 10.0).points;
        points[0] = Vec2::new(f32::NAN, 3.0);
        let odd = ArrowSprite::from_points(points, [200, 30, 40, 255], [25, 25, 25, 229], 1.0);
        let not_finite =
            ArrowSprite::new(Vec2::new(f32::NAN, 3.0), 0.0, 6.0, [200, 30, 40, 255], [25, 25, 25, 229], 1.0);
        let mut sprites = vec![sprite_at(-100.0, 10.0), sprite_at(10.0, 5_000.0), odd];
        // Enough of one class to be stamped.
        sprites.extend(std::iter::repeat_n(not_finite, 100));
        sprites.extend((0..100).map(|i| sprite_at(-50.0 - i as f32, 10.0)));
        rasterise(&mut image, 32, 32, &sprites, &mut StampCache::new());
        assert!(image.iter().all(|&b| b == 0));
    }

    /// The distance from `p` to the segment `a b`.
    fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
        let d = b - a;
        let t = if d.length_squared() > 0.0 {
            ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        p.distance(a + d * t)
    }

    /// The edges of every shape an arrow is drawn with: the body's outline (tip, left, notch,
    /// right) and the four outline lines' rectangles.
    fn shape_edges(sprite: &ArrowSprite) -> Vec<(Vec2, Vec2)> {
        let [tip, left, notch, right] = sprite.points;
        let mut out = vec![(tip, left), (left, notch), (notch, right), (right, tip)];
        for (a, b) in [(tip, left), (left, notch), (notch, right), (right, tip)] {
            let Some(line) = LineRect::new(a, b, sprite.edge_width) else { continue };
            let n = Vec2::new(-line.unit.y, line.unit.x) * line.half_width;
            let c = [a + n, b + n, b - n, a - n];
            out.extend([(c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0])]);
        }
        out
    }

    /// A random crowd of `n` arrows of one `size` and outline `edge_width` (so one stamped class)
    /// over a `width` × `height` image, some half off it, some with see-through bodies.
    fn random_crowd(
        seed: u32,
        n: usize,
        size: f32,
        edge_width: f32,
        (width, height): (f32, f32),
    ) -> Vec<ArrowSprite> {
        let mut seed = seed;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        (0..n)
            .map(|_| {
                let centre = Vec2::new(next() * (width + 20.0) - 10.0, next() * (height + 20.0) - 10.0);
                let fill_alpha = if next() < 0.3 { 120 } else { 255 };
                ArrowSprite::new(
                    centre,
                    (next() - 0.5) * 14.0,
                    size,
                    [(next() * 255.0) as u8, (next() * 255.0) as u8, 90, fill_alpha],
                    [25, 25, 25, 229],
                    edge_width,
                )
            })
            .collect()
    }

    #[test]
    fn stamped_arrows_differ_from_the_exact_picture_only_within_the_stamp_error_of_an_edge() {
        let (width, height) = (160usize, 120usize);
        for (seed, size, edge_width) in [(1, 4.0, 1.0), (2, 6.0, 1.0), (3, 9.5, 2.0), (4, 14.0, 1.0)] {
            let sprites = random_crowd(seed, 300, size, edge_width, (width as f32, height as f32));
            let mut stamps = StampCache::new();
            let mut stamped = Vec::new();
            rasterise(&mut stamped, width, height, &sprites, &mut stamps);
            assert!(stamps.stamps() > 0, "size {size}: stamped");
            let mut exact = Vec::new();
            rasterise_exact(&mut exact, width, height, &sprites);
            let edges: Vec<(Vec2, Vec2)> = sprites.iter().flat_map(shape_edges).collect();
            let mut differing = 0;
            for (i, (a, b)) in stamped.chunks_exact(4).zip(exact.chunks_exact(4)).enumerate() {
                // Away from edges only the compositing's rounding differs.
                if a.iter().zip(b).all(|(x, y)| x.abs_diff(*y) <= 2) {
                    continue;
                }
                differing += 1;
                let p = Vec2::new((i % width) as f32 + 0.5, (i / width) as f32 + 0.5);
                let nearest =
                    edges.iter().map(|&(a, b)| distance_to_segment(p, a, b)).fold(f32::INFINITY, f32::min);
                assert!(
                    nearest <= STAMP_ERROR_MAX + 1e-3,
                    "size {size}: pixel {p} differs ({a:?} against {b:?}) {nearest} px from any edge"
                );
            }
            // Every arrow's centre pixel is drawn.
            for sprite in &sprites {
                let Some(pose) = sprite.pose else { continue };
                let (x, y) = (pose.center.x.floor(), pose.center.y.floor());
                if x < 0.0 || y < 0.0 || x >= width as f32 || y >= height as f32 {
                    continue;
                }
                let i = (y as usize * width + x as usize) * 4 + 3;
                assert!(stamped[i] > 0, "size {size}: the arrow at {} is missing", pose.center);
            }
            let covered = exact.chunks_exact(4).filter(|p| p[3] > 0).count();
            assert!(
                covered > width * height / 3,
                "size {size}: the arrows cover the image ({covered} pixels)"
            );
            eprintln!("size {size}: {differing} of {covered} covered pixels differ");
        }
    }

    #[test]
    fn a_stamp_draws_its_own_arrow_as_the_exact_rasteriser_does() {
        // Arrows exactly at a stamp's heading and sub-pixel position: nothing to quantise.
        let (size, edge_width) = (6.0, 1.0);
        let headings = stamp_headings(size, edge_width).expect("stamped");
        let sprites: Vec<ArrowSprite> = (0..120)
            .map(|i| {
                let phase = Vec2::new(((i % 4) as f32 + 0.5) / 4.0, (((i / 4) % 4) as f32 + 0.5) / 4.0);
                let centre = Vec2::new((i % 12) as f32 * 20.0 + 10.0, (i / 12) as f32 * 20.0 + 10.0) + phase;
                let heading = (i * 37 % headings) as f32 * (std::f32::consts::TAU / headings as f32);
                ArrowSprite::new(centre, heading, size, [200, 30, 40, 255], [25, 25, 25, 229], edge_width)
            })
            .collect();
        let (width, height) = (240, 200);
        let mut stamps = StampCache::new();
        let (mut stamped, mut exact) = (Vec::new(), Vec::new());
        rasterise(&mut stamped, width, height, &sprites, &mut stamps);
        rasterise_exact(&mut exact, width, height, &sprites);
        assert_eq!(stamps.stamps(), 120, "one stamp per arrow");
        let worst = stamped.iter().zip(&exact).map(|(a, b)| a.abs_diff(*b)).max();
        assert!(worst <= Some(1), "worst channel difference {worst:?}");
    }

    #[test]
    fn a_class_of_few_arrows_or_of_big_ones_is_drawn_shape_by_shape() {
        // 100 ordinary arrows and one selected (a wider outline): only the 100 are stamped.
        let mut sprites = random_crowd(7, 100, 6.0, 1.0, (120.0, 90.0));
        let selected =
            ArrowSprite::new(Vec2::new(60.3, 40.6), 0.77, 6.0, [0, 90, 200, 255], [255, 200, 0, 255], 2.5);
        sprites.push(selected);
        let mut stamps = StampCache::new();
        let mut image = Vec::new();
        rasterise(&mut image, 120, 90, &sprites, &mut stamps);
        assert!(stamps.stamps() > 0);
        assert_eq!(stamps.classes.len(), 1, "the selected arrow's class is not stamped");
        // On top, so its pixels are the exact picture's.
        let mut exact = Vec::new();
        rasterise_exact(&mut exact, 120, 90, &[selected]);
        for (a, b) in image.chunks_exact(4).zip(exact.chunks_exact(4)).filter(|(_, b)| b[3] == 255) {
            assert_eq!(a, b);
        }
        // Arrows too big for the heading budget are not stamped.
        assert_eq!(stamp_headings(20.0, 1.0), None);
        let big = random_crowd(8, 100, 20.0, 1.0, (120.0, 90.0));
        let mut stamps = StampCache::new();
        rasterise(&mut image, 120, 90, &big, &mut stamps);
        assert_eq!(stamps.stamps(), 0);
    }

    #[test]
    fn the_heading_buckets_keep_every_stamped_arrow_within_the_error_budget() {
        for tenth in 1..400 {
            let size = tenth as f32 * 0.1;
            for edge_width in [1.0, 2.0, 2.5] {
                let Some(headings) = stamp_headings(size, edge_width) else {
                    assert!(size > 13.0, "size {size} is stamped");
                    continue;
                };
                assert!(headings.is_power_of_two() && (HEADINGS_MIN..=HEADINGS_MAX).contains(&headings));
                let turn = arrow_reach(size, edge_width) * std::f32::consts::PI / headings as f32;
                assert!(turn <= HEADING_ERROR_MAX, "size {size}: half a bucket moves a point {turn} px");
            }
        }
    }

    /// What a picture's upload leaves in a screen-sized texture (`screen_width` pixels a row):
    /// its image copied over its region.
    fn upload(texture: &mut [u8], screen_width: usize, picture: &Picture) {
        let Some(shown) = &picture.shown else { return };
        let region = shown.region;
        for row in 0..region.height {
            let from = &picture.image[row * region.width * 4..(row + 1) * region.width * 4];
            let start = ((region.y0 + row) * screen_width + region.x0) * 4;
            texture[start..start + region.width * 4].copy_from_slice(from);
        }
    }

    #[test]
    fn a_layer_prepared_on_another_thread_is_each_frame_rasterised_afresh_bit_for_bit() {
        // Frames of a moving crowd (stamped arrows and one big one drawn shape by shape), some
        // repeating the last frame's sprites, the view clipped differently every other pair of
        // frames, each prepared on another thread as the world drawing prepares it
        // ([`Ahead::prepare`]) with the buffers the last frame left. The picture must change
        // exactly when the sprites or the region do, and every frame the texture's region and
        // tiles must be those of a fresh rasterisation of the frame.
        let (width, height) = (200usize, 150usize);
        let screen = Vec2::new(width as f32, height as f32);
        let mut picture = Picture::default();
        let mut texture = vec![0u8; width * height * 4];
        let mut sprites = Vec::new();
        let mut last: Option<(Region, Vec<ArrowSprite>)> = None;
        let mut unchanged = 0;
        for frame in 0..15u32 {
            if frame % 5 != 4 {
                sprites = random_crowd(100 + frame, 700, 5.0, 1.0, (width as f32, height as f32));
                sprites.push(ArrowSprite::new(
                    Vec2::new(60.0 + frame as f32, 70.0),
                    0.3,
                    22.0,
                    [200, 40, 40, 255],
                    [25, 25, 25, 229],
                    2.5,
                ));
            }
            let clip = if (frame / 2) % 2 == 0 {
                (Vec2::ZERO, screen)
            } else {
                (Vec2::new(23.0, 11.0), Vec2::new(181.0, 150.0))
            };
            let mut ahead = Ahead { picture: std::mem::take(&mut picture), prepared: None };
            std::thread::scope(|scope| {
                scope.spawn(|| ahead.prepare(sprites.clone(), screen, clip));
            });
            picture = ahead.picture;
            let changed = ahead.prepared.expect("something to draw");
            let region = frame_region(&sprites, screen, clip).expect("a region");
            let same_as_last = last.as_ref().is_some_and(|(r, s)| *r == region && *s == sprites);
            assert_eq!(changed, !same_as_last, "frame {frame}");
            unchanged += usize::from(!changed);
            last = Some((region, sprites.clone()));
            if changed {
                upload(&mut texture, width, &picture);
            }
            let mut fresh = Vec::new();
            let fresh_tiles = rasterise_with(&mut fresh, region, &sprites, Some(&mut StampCache::new()));
            assert_eq!(picture.tiles, fresh_tiles, "frame {frame}");
            for row in 0..region.height {
                let start = ((region.y0 + row) * width + region.x0) * 4;
                assert!(
                    texture[start..start + region.width * 4]
                        == fresh[row * region.width * 4..(row + 1) * region.width * 4],
                    "frame {frame}, row {row}"
                );
            }
        }
        // Frame 9 repeats frame 8's sprites in the same clip; 4 and 14 repeat theirs in another.
        assert_eq!(unchanged, 1);
    }

    #[test]
    fn the_cache_keeps_its_stamps_from_frame_to_frame_and_rebuilds_when_the_zoom_changes() {
        let sprites = random_crowd(9, 500, 5.0, 1.0, (200.0, 150.0));
        let mut stamps = StampCache::new();
        let mut first = Vec::new();
        rasterise(&mut first, 200, 150, &sprites, &mut stamps);
        let built = stamps.stamps();
        let mut second = Vec::new();
        rasterise(&mut second, 200, 150, &sprites, &mut stamps);
        assert_eq!(stamps.stamps(), built, "nothing new to build");
        assert_eq!(first, second);
        // Nine zoom levels: the cache keeps at most CLASSES_MAX classes.
        for k in 0..9 {
            let zoomed = random_crowd(9, 500, 5.0 + k as f32 * 0.5, 1.0, (200.0, 150.0));
            rasterise(&mut second, 200, 150, &zoomed, &mut stamps);
            assert!(stamps.classes.len() <= CLASSES_MAX);
        }
        assert!(stamps.classes.iter().all(|c| c.size != 5.0), "the oldest class is dropped");
    }

    #[test]
    fn an_arrow_is_stamped_from_within_half_a_bucket_and_half_a_phase_of_its_pose() {
        let (size, edge_width) = (6.0, 1.0);
        let headings = stamp_headings(size, edge_width).expect("stamped");
        let half = arrow_reach(size, edge_width).ceil() as usize + 1;
        let class = StampClass { size, edge_width, headings, half, stamps: Vec::new() };
        let mut seed = 77u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for _ in 0..20_000 {
            let center = Vec2::new(next() * 2_000.0 - 500.0, next() * 2_000.0 - 500.0);
            let heading = (next() - 0.5) * 40.0;
            let (slot, left, top) = place(Pose { center, heading, size }, &class).expect("placed");
            assert!((slot as usize) < headings * PHASES * PHASES);
            let (stamp_heading, phase) = slot_pose(&class, slot);
            // The stamp's centre on the image, and how far it turns from the arrow's heading.
            let stamp_center = Vec2::new((left + half as i64) as f32, (top + half as i64) as f32) + phase;
            let offset = (stamp_center - center).abs();
            let half_phase = 0.5 / PHASES as f32 + 1e-3;
            assert!(offset.x <= half_phase && offset.y <= half_phase, "{center} stamped at {stamp_center}");
            let turn = (stamp_heading - heading).rem_euclid(std::f32::consts::TAU);
            let turn = turn.min(std::f32::consts::TAU - turn);
            assert!(
                turn <= std::f32::consts::PI / headings as f32 + 1e-3,
                "heading {heading}: {stamp_heading}"
            );
        }
    }
}
