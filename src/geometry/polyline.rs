//! Polyline paths (open or closed) with cumulative arc length, global projection and coherent
//! projection through a [`PathCursor`].
//!
//! Segment `i` runs from point `i` to point `i + 1`; a closed path adds the segment from the last
//! point back to the first. Arc lengths are measured from point 0; on closed paths every arc
//! length this module returns lies in `[0, length)` and every arc length it accepts wraps.
//!
//! Coherent projection ([`Polyline::project_point_local`]) is what path followers and the path
//! metrics use each step: starting from the cursor's segment it only moves to an adjacent segment
//! that is strictly nearer, within an arc-length budget, so its cost is one or two segment
//! projections whatever the path's length, and an agent stays on its own leg of a hairpin or of a
//! figure-eight crossing even where the other leg is closer. It falls back to the global search
//! only to re-acquire a path the agent has clearly left.
//!
//! Degenerate input (no points, one point, coincident points, zero-length segments) never
//! produces NaN or panics: a path without segments projects everything onto its first point (or
//! the origin when it has none), and zero-length segments project onto their start.

use glam::Vec3;

use super::lanes::{
    bits, f32x4, mask_from_bits, max_num, min_num, select, PathCursorX4, PathProjectionX4, Vec3x4, LANES,
};

/// A re-acquiring global projection must be closer than this fraction of the local distance.
const REACQUIRE_FACTOR: f32 = 0.5;
/// Extra arc length (world units) a local projection may move beyond twice the query's distance
/// from the cursor's old point.
const LOCAL_MARGIN: f32 = 2.0;
/// Margin on the corner bound d·tan(φ/2) within which the local projection looks at a
/// neighbouring segment (rounding in d, the foot and the tangent is far smaller).
const REACH_SAFETY: f32 = 1.01;
/// Absolute margin (world units) on the same bound.
const REACH_MARGIN: f32 = 1e-3;
/// Cap of tan(φ/2) for the sharpest turn of a path (a turn of about 151°; reversals count as
/// this much).
const MAX_CORNER_TANGENT: f32 = 4.0;

/// A path through points; `closed` adds the segment from the last point back to the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    points: Vec<Vec3>,
    /// `cumulative[i]` is the arc length from point 0 to point i; one extra entry (the total
    /// length) when closed.
    cumulative: Vec<f32>,
    /// Per segment: start, unit direction and length, so projections need no division.
    segments: Vec<SegmentGeometry>,
    /// tan(φ/2) of the sharpest turn φ between consecutive segments with length, capped at
    /// [`MAX_CORNER_TANGENT`] (0 for a straight or degenerate path).
    corner_tangent: f32,
    /// Total arc length (the last cumulative length; zero without points).
    length: f32,
    /// `(REACH_SAFETY · corner_tangent)²`: the local projection compares squared distances
    /// with it (see [`Polyline::project_point_local`]).
    reach_factor_sq: f32,
    /// Per segment: the next segment with a length after it (wrapping when closed; `NONE`
    /// when there is none, or only itself), so a run of zero-length segments (coincident
    /// points) costs one step, not one per point. Point and segment indices stay as given.
    next_with_length: Vec<u32>,
    /// Per segment: the previous segment with a length before it, as `next_with_length`.
    previous_with_length: Vec<u32>,
    closed: bool,
}

/// "No such segment" in the skip tables.
const NONE: u32 = u32::MAX;

#[cfg(test)]
thread_local! {
    /// Segments whose geometry a projection or lookup read on this thread (tests count it to
    /// check that degenerate paths cost in proportion to their segments with length).
    static VISITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts one segment read (tests only).
#[inline(always)]
fn visit() {
    #[cfg(test)]
    VISITS.with(|visits| visits.set(visits.get() + 1));
}

/// What a projection needs of one segment: 32 bytes, two to a cache line, so the local
/// projection reads one line in the common case.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
struct SegmentGeometry {
    /// The segment's first point.
    start: Vec3,
    /// Unit direction from start to end (zero for a zero-length segment).
    direction: Vec3,
    /// Length (the difference of the cumulative lengths at its ends).
    length: f32,
    /// Arc length at the segment's first point (the cumulative length there).
    start_distance: f32,
}

impl SegmentGeometry {
    /// The closest point of this segment to `point`: its distance from the start, the point,
    /// and the squared distance to it. `max` then `min` rather than `clamp`: a NaN dot product
    /// (overflowing coordinates) becomes 0 instead of propagating.
    #[inline(always)]
    fn foot(&self, point: Vec3) -> (f32, Vec3, f32) {
        visit();
        let along = (point - self.start).dot(self.direction).max(0.0).min(self.length);
        let closest = self.start + self.direction * along;
        (along, closest, closest.distance_squared(point))
    }

    /// The point at arc length `distance` on this segment (clamped to it): where a cursor at
    /// that arc length was.
    #[inline(always)]
    fn point_at(&self, distance: f32) -> Vec3 {
        self.start + self.direction * (distance - self.start_distance).max(0.0).min(self.length)
    }
}

/// The closest point of a path to a query point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathProjection {
    /// Index of the segment (segment i runs from point i to point i+1, wrapping when closed).
    pub segment_idx: usize,
    /// Distance from the segment's first point to the closest point, in world units (the seed's l).
    pub along_segment: f32,
    /// Arc length from the path's start to the closest point.
    pub distance_along: f32,
    /// The closest point on the path.
    pub point: Vec3,
    /// Distance from the query point to `point`.
    pub distance: f32,
}

/// Where an agent was on a path last step, so the next projection searches near it first
/// (hairpins and figure-eight crossings never make it jump to the other leg).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathCursor {
    /// Segment of the last projection.
    pub segment_idx: usize,
    /// Arc length of the last projection.
    pub distance_along: f32,
    /// False until the first projection (which is global).
    pub initialised: bool,
}

impl PathCursor {
    /// Moves the cursor onto a projection.
    fn set(&mut self, projection: &PathProjection) {
        self.segment_idx = projection.segment_idx;
        self.distance_along = projection.distance_along;
        self.initialised = true;
    }
}

impl Polyline {
    /// Builds a path; any input is accepted (validation of scenes happens in `scene`).
    /// A non-finite segment length counts as zero so the cumulative lengths stay finite.
    pub fn new(points: Vec<Vec3>, closed: bool) -> Polyline {
        let mut cumulative = Vec::with_capacity(points.len() + 1);
        if let Some(&first) = points.first() {
            let mut total = 0.0f32;
            let mut previous = first;
            cumulative.push(0.0);
            for &point in points.iter().skip(1) {
                total += finite_or_zero(previous.distance(point));
                cumulative.push(total);
                previous = point;
            }
            if closed && points.len() >= 2 {
                total += finite_or_zero(previous.distance(first));
                cumulative.push(total);
            }
        }
        let length = cumulative.last().copied().unwrap_or(0.0);
        let mut path = Polyline {
            points,
            cumulative,
            segments: Vec::new(),
            corner_tangent: 0.0,
            length,
            reach_factor_sq: 1.0,
            next_with_length: Vec::new(),
            previous_with_length: Vec::new(),
            closed,
        };
        path.segments = (0..Polyline::implied_segment_count(&path.points, closed))
            .map(|idx| {
                let (start, end) = path.segment_points(idx);
                let length = (path.cum(idx + 1) - path.cum(idx)).max(0.0);
                let direction = if length > 0.0 {
                    (end - start).try_normalize().unwrap_or(Vec3::ZERO)
                } else {
                    Vec3::ZERO
                };
                SegmentGeometry { start, direction, length, start_distance: path.cum(idx) }
            })
            .collect();
        (path.next_with_length, path.previous_with_length) = skip_tables(&path.segments, closed);
        path.corner_tangent = sharpest_corner_tangent(&path.segments, closed);
        path.reach_factor_sq = (REACH_SAFETY * path.corner_tangent).powi(2);
        path
    }
    /// The vertices.
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }
    /// Whether the last point joins the first.
    pub fn is_closed(&self) -> bool {
        self.closed
    }
    /// Total arc length.
    #[inline]
    pub fn length(&self) -> f32 {
        self.length
    }
    /// Number of segments (points - 1 when open, points when closed with ≥ 2 points).
    #[inline]
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }
    /// Number of segments implied by the points (what `segments` is built to hold).
    fn implied_segment_count(points: &[Vec3], closed: bool) -> usize {
        let n_points = points.len();
        if closed {
            if n_points >= 2 {
                n_points
            } else {
                0
            }
        } else {
            n_points.saturating_sub(1)
        }
    }
    /// End points of segment `segment_idx` (wrapping the index). A path without segments
    /// returns its first point twice (the origin when it has no points).
    pub fn segment(&self, segment_idx: usize) -> (Vec3, Vec3) {
        let count = self.segment_count();
        if count == 0 {
            let first = self.first_point();
            return (first, first);
        }
        let idx = wrap_index(segment_idx, count);
        self.segment_points(idx)
    }
    /// Length of segment `segment_idx` (wrapping the index; zero for a path without segments).
    pub fn segment_length(&self, segment_idx: usize) -> f32 {
        let count = self.segment_count();
        if count == 0 {
            return 0.0;
        }
        self.length_of(wrap_index(segment_idx, count))
    }
    /// Arc length at the start of segment `segment_idx`.
    pub fn segment_start_distance(&self, segment_idx: usize) -> f32 {
        let count = self.segment_count();
        if count == 0 {
            return 0.0;
        }
        self.cum(wrap_index(segment_idx, count))
    }
    /// Unit direction of segment `segment_idx` (wrapping the index); a zero-length segment
    /// borrows the direction of the nearest following (then preceding) segment with length.
    /// Zero when the path has no segment with length.
    #[inline]
    pub fn segment_direction(&self, segment_idx: usize) -> Vec3 {
        match self.segments.get(segment_idx) {
            Some(segment) if segment.direction != Vec3::ZERO => segment.direction,
            _ => self.borrowed_direction(segment_idx),
        }
    }
    /// [`Polyline::segment_direction`] for an index out of range or a zero-length segment.
    #[cold]
    fn borrowed_direction(&self, segment_idx: usize) -> Vec3 {
        let count = self.segment_count();
        if count == 0 {
            return Vec3::ZERO;
        }
        let start = wrap_index(segment_idx, count);
        let direction_of = |idx: usize| {
            let direction = self.geometry(idx).direction;
            (direction != Vec3::ZERO).then_some(direction)
        };
        // The segment itself, else the next with a length (wrapping when closed), else the
        // previous one: each one table lookup.
        direction_of(start)
            .or_else(|| self.neighbour_with_length(start, true).and_then(direction_of))
            .or_else(|| self.neighbour_with_length(start, false).and_then(direction_of))
            .unwrap_or(Vec3::ZERO)
    }
    /// The point at arc length `distance` (wraps on closed paths, clamps on open ones).
    pub fn point_at_distance(&self, distance: f32) -> Vec3 {
        if self.segment_count() == 0 {
            return self.first_point();
        }
        let (segment_idx, along) = self.locate(self.normalise_distance(distance));
        self.point_on_segment(segment_idx, along)
    }
    /// Unit direction of the path at arc length `distance` (zero for degenerate paths).
    pub fn direction_at_distance(&self, distance: f32) -> Vec3 {
        if self.segment_count() == 0 {
            return Vec3::ZERO;
        }
        let (segment_idx, _) = self.locate(self.normalise_distance(distance));
        self.segment_direction(segment_idx)
    }
    /// [`Polyline::point_at_distance`] and [`Polyline::direction_at_distance`] with one lookup
    /// that walks from `segment_hint` (a segment near the answer, such as a cursor's) for a few
    /// segments before falling back to a binary search; any hint gives the same answer.
    pub fn point_and_direction_at_distance(&self, distance: f32, segment_hint: usize) -> (Vec3, Vec3) {
        if self.segments.is_empty() {
            return (self.first_point(), Vec3::ZERO);
        }
        let (segment_idx, along) = self.locate_near(self.normalise_distance(distance), segment_hint);
        (self.point_on_segment(segment_idx, along), self.segment_direction(segment_idx))
    }
    /// Closest point over the whole path (ties go to the lowest segment index).
    pub fn project_point(&self, point: Vec3) -> PathProjection {
        let count = self.segment_count();
        if count == 0 {
            return self.project_onto_first_point(point);
        }
        let mut best = self.project_point_segment(point, 0);
        let mut segment_idx = self.after_run(0);
        while segment_idx < count {
            let candidate = self.project_point_segment(point, segment_idx);
            if candidate.distance < best.distance {
                best = candidate;
            }
            segment_idx = self.after_run(segment_idx);
        }
        best
    }
    /// Closest point on one segment (wrapping the index).
    pub fn project_point_segment(&self, point: Vec3, segment_idx: usize) -> PathProjection {
        let count = self.segment_count();
        if count == 0 {
            return self.project_onto_first_point(point);
        }
        let idx = wrap_index(segment_idx, count);
        let (along, closest) = self.project_on_segment_range(point, idx, 0.0, self.length_of(idx));
        PathProjection {
            segment_idx: idx,
            along_segment: along,
            distance_along: self.normalise_distance(self.cum(idx) + along),
            point: closest,
            distance: closest.distance(point),
        }
    }
    /// Coherent projection by local descent, the cheapest way to follow a point that moves a
    /// little each step: project onto the cursor's segment, and step to the neighbouring segment
    /// on the side the projection lies (skipping zero-length ones) while that one is strictly
    /// nearer and the arc length stays within twice the query's distance from the cursor's old
    /// point (plus a small margin) of where it was; at most one pass round the path. Cost is
    /// one or two segment projections in
    /// the common case, whatever the segment count. Because it only ever moves to an adjacent
    /// segment that is nearer, it cannot jump to a hairpin's other leg or across a figure-eight
    /// crossing. Falls back to [`Polyline::project_point`] when the cursor is uninitialised or
    /// not finite, and when the result is farther than `reacquire_distance` while the global one
    /// is under half as far (the point has really gone elsewhere). Updates the cursor.
    ///
    /// A neighbour is only looked at when the projection is within d·tan(φ/2) of the vertex it
    /// shares with the current segment (d the distance to the current segment, φ the path's
    /// sharpest turn): in the plane of the two segments, a point whose foot on one segment is t
    /// from the vertex is nearer the other only if t < d·tan(φ/2), and a component out of that
    /// plane adds the same to both distances. On smooth paths (a 32-gon turns by 11°) that
    /// bound is a few hundredths of d, so the common step is one segment projection.
    #[inline]
    pub fn project_point_local(
        &self,
        point: Vec3,
        cursor: &mut PathCursor,
        reacquire_distance: f32,
    ) -> PathProjection {
        self.project_point_local_reporting(point, cursor, reacquire_distance).0
    }

    /// [`Polyline::project_point_local`], also saying whether the result came from the global
    /// fallback for an initialised cursor (the point re-acquired the path somewhere that is not
    /// adjacent to where it was: metrics count such forward jumps as skips).
    #[inline(always)]
    pub fn project_point_local_reporting(
        &self,
        point: Vec3,
        cursor: &mut PathCursor,
        reacquire_distance: f32,
    ) -> (PathProjection, bool) {
        // The cursor's segment, when it holds the cursor's arc length (the common case: one
        // bounds check and two comparisons).
        let (idx, geometry) = match self.segments.get(cursor.segment_idx) {
            Some(segment)
                if cursor.initialised
                    && segment.start_distance <= cursor.distance_along
                    && cursor.distance_along <= segment.start_distance + segment.length =>
            {
                (cursor.segment_idx, *segment)
            }
            _ => return self.project_point_relocating(point, cursor, reacquire_distance),
        };
        let (along, closest, distance_sq) = geometry.foot(point);
        // A point that is not finite (the only way to a distance that is not) starts again
        // globally, as a new cursor does.
        if !distance_sq.is_finite() {
            return self.project_point_relocating(point, cursor, reacquire_distance);
        }
        // Neither neighbour can be nearer when the foot is farther than d·tan(φ/2) from both
        // vertices (compared squared: t − margin > d·tan(φ/2)·safety).
        let local = if self.stays(along, geometry.length, distance_sq) {
            PathProjection {
                segment_idx: idx,
                along_segment: along,
                distance_along: self.wrap_end(geometry.start_distance + along),
                point: closest,
                distance: distance_sq.sqrt(),
            }
        } else {
            self.descend_forward(
                point,
                cursor.distance_along,
                &geometry,
                idx,
                geometry,
                along,
                closest,
                distance_sq,
                0,
            )
        };
        if local.distance > reacquire_distance {
            return self.reacquire(point, local, cursor);
        }
        cursor.set(&local);
        (local, false)
    }

    /// The local projection from a cursor that does not hold its segment: relocated from its arc
    /// length when the path was edited under it (or it sits at the very end of a closed path);
    /// global when it is new, its arc length is not finite, or the point is not finite.
    #[cold]
    #[inline(never)]
    fn project_point_relocating(
        &self,
        point: Vec3,
        cursor: &mut PathCursor,
        reacquire_distance: f32,
    ) -> (PathProjection, bool) {
        if self.segments.is_empty()
            || !cursor.initialised
            || !cursor.distance_along.is_finite()
            || !point.is_finite()
        {
            return self.project_point_global(point, cursor);
        }
        let idx = self.locate(self.normalise_distance(cursor.distance_along)).0;
        let geometry = self.geometry(idx);
        let (along, closest, distance_sq) = geometry.foot(point);
        let local =
            self.descend(point, cursor.distance_along, &geometry, idx, geometry, along, closest, distance_sq);
        if local.distance > reacquire_distance {
            return self.reacquire(point, local, cursor);
        }
        cursor.set(&local);
        (local, false)
    }

    /// Whether the descent stops on a segment where the point's foot is `along` of `length`
    /// from its start and `distance_sq` away: neither neighbour can then be nearer.
    #[inline(always)]
    fn stays(&self, along: f32, length: f32, distance_sq: f32) -> bool {
        // `along` is never NaN (a foot clamped to its segment): the plain comparison, not
        // `f32::min`'s NaN handling (with the other `*_of_number` uses, 736 → 716
        // instructions per agent-step of the predictive kernel, callgrind).
        let to_vertex = super::min_of_number(along, length - along) - REACH_MARGIN;
        to_vertex > 0.0 && to_vertex * to_vertex > distance_sq * self.reach_factor_sq
    }

    /// Whether a move of the descent from arc length `cursor_distance` on segment `from` to arc
    /// length `distance` keeps within its budget: twice the distance from the cursor's old
    /// point to the query, plus a margin (compared squared, without a square root).
    #[inline(always)]
    fn within_budget(
        &self,
        point: Vec3,
        cursor_distance: f32,
        from: &SegmentGeometry,
        distance: f32,
    ) -> bool {
        self.within_budget_of(point, from.point_at(cursor_distance), cursor_distance, distance)
    }

    /// [`Polyline::within_budget`] with the cursor's old point already found.
    #[inline(always)]
    fn within_budget_of(&self, point: Vec3, old_point: Vec3, cursor_distance: f32, distance: f32) -> bool {
        let mut delta = distance - cursor_distance;
        if self.closed {
            let length_total = self.length;
            if delta > 0.5 * length_total {
                delta -= length_total;
            } else if delta < -0.5 * length_total {
                delta += length_total;
            }
        }
        // |delta| ≤ 2·|old_point − point| + margin; NaN never is.
        let half_excess = 0.5 * (delta.abs() - LOCAL_MARGIN);
        half_excess <= 0.0 || half_excess * half_excess <= old_point.distance_squared(point)
    }

    /// The descent of [`Polyline::project_point_local`] while it moves forward, as a point
    /// that moves on along the path does (on a finely divided path, every step): the same
    /// moves as [`Polyline::descend`], without its search for neighbours with a length, which
    /// it hands over to as soon as a step would need it (a move backward, a zero-length next
    /// segment). `budget_from` is the cursor's segment, where the move budget is measured from;
    /// `moves_made` the moves the descent has made already (the lanes of
    /// [`Polyline::project_points_local_x4`] hand over after their first).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn descend_forward(
        &self,
        point: Vec3,
        cursor_distance: f32,
        budget_from: &SegmentGeometry,
        mut idx: usize,
        mut geometry: SegmentGeometry,
        mut along: f32,
        mut closest: Vec3,
        mut distance_sq: f32,
        moves_made: usize,
    ) -> PathProjection {
        let n = self.segments.len();
        // Where the cursor was (the budget's origin), once.
        let old_point = budget_from.point_at(cursor_distance);
        // The first move, off the cursor's own segment to the next, cannot exceed the budget
        // when the point lies past that segment's end vertex V (its foot clamped to V): with
        // a = |V − old point| and u = point − V, u·direction ≥ 0 makes
        // |old point − point|² ≥ a² + |u|², so the arc length moved, at most a + |u|, is at
        // most √2·|old point − point|, inside the budget of twice that plus a margin. This is
        // every step on a path divided more finely than an agent moves in a step.
        let mut first_move = moves_made == 0;
        'descent: for _ in moves_made..n {
            if self.stays(along, geometry.length, distance_sq) {
                break;
            }
            let forward = along >= 0.5 * geometry.length;
            // The next segment, when this is a forward move onto one with a length; anything
            // else (a move backward, a zero-length neighbour) is the general descent's.
            let next = 'next: {
                let next_idx = if idx + 1 < n {
                    idx + 1
                } else if self.closed && idx != 0 {
                    0
                } else if forward {
                    // The end of an open path (or a closed path of one segment): no neighbour.
                    break 'descent;
                } else {
                    break 'next None;
                };
                self.segments
                    .get(next_idx)
                    .filter(|next| forward && next.length > 0.0)
                    .map(|next| (next_idx, next))
            };
            let Some((next_idx, next)) = next else {
                return self.descend(
                    point,
                    cursor_distance,
                    budget_from,
                    idx,
                    geometry,
                    along,
                    closest,
                    distance_sq,
                );
            };
            let (next_along, next_closest, next_distance_sq) = next.foot(point);
            // Strictly nearer only (NaN never is), so the descent cannot ping-pong.
            let nearer = next_distance_sq < distance_sq * (1.0 - 1e-6);
            let past_end = first_move && along >= geometry.length;
            if !nearer
                || !(past_end
                    || self.within_budget_of(
                        point,
                        old_point,
                        cursor_distance,
                        next.start_distance + next_along,
                    ))
            {
                break;
            }
            first_move = false;
            idx = next_idx;
            geometry = *next;
            along = next_along;
            closest = next_closest;
            distance_sq = next_distance_sq;
        }
        PathProjection {
            segment_idx: idx,
            along_segment: along,
            distance_along: self.wrap_end(geometry.start_distance + along),
            point: closest,
            distance: distance_sq.max(0.0).sqrt(),
        }
    }

    /// The descent of [`Polyline::project_point_local`] from segment `idx`, where the point's
    /// foot is `along` from the start at `closest`, `distance_sq` away; `cursor_distance` is
    /// the cursor's arc length before this projection.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn descend(
        &self,
        point: Vec3,
        cursor_distance: f32,
        budget_from: &SegmentGeometry,
        mut idx: usize,
        mut geometry: SegmentGeometry,
        mut along: f32,
        mut closest: Vec3,
        mut distance_sq: f32,
    ) -> PathProjection {
        // Moves to other segments may change the arc length by at most twice the distance from
        // the cursor's old point to the query, plus a margin: enough for the legitimate jump
        // round the inside of a bend (about 2·d·tan(φ/2)), not for a hop to a hairpin's other
        // leg through a short connecting segment.
        for _ in 0..self.segments.len() {
            // Look at the neighbour on the side of the segment the projection is on: on the
            // inside of a bend the next segment can be nearer before the projection reaches
            // this segment's end.
            if self.stays(along, geometry.length, distance_sq) {
                break;
            }
            let forward = along >= 0.5 * geometry.length;
            let Some(next) = self.neighbour_with_length(idx, forward) else { break };
            let next_geometry = self.geometry(next);
            let (next_along, next_closest, next_distance_sq) = next_geometry.foot(point);
            // Strictly nearer only (NaN never is), so the descent cannot ping-pong.
            let nearer = next_distance_sq < distance_sq * (1.0 - 1e-6);
            if !nearer
                || !self.within_budget(
                    point,
                    cursor_distance,
                    budget_from,
                    next_geometry.start_distance + next_along,
                )
            {
                break;
            }
            idx = next;
            geometry = next_geometry;
            along = next_along;
            closest = next_closest;
            distance_sq = next_distance_sq;
        }
        PathProjection {
            segment_idx: idx,
            along_segment: along,
            distance_along: self.wrap_end(geometry.start_distance + along),
            point: closest,
            distance: distance_sq.max(0.0).sqrt(),
        }
    }

    /// The global projection for a cursor that has none yet (or a point that is not finite).
    #[cold]
    fn project_point_global(&self, point: Vec3, cursor: &mut PathCursor) -> (PathProjection, bool) {
        let projection = self.project_point(point);
        cursor.set(&projection);
        (projection, false)
    }

    /// The local projection `local` is far from the point: take the global one if it is under
    /// half as far (the point has really gone elsewhere).
    #[cold]
    fn reacquire(
        &self,
        point: Vec3,
        local: PathProjection,
        cursor: &mut PathCursor,
    ) -> (PathProjection, bool) {
        let global = self.project_point(point);
        let (projection, reacquired) =
            if global.distance < REACQUIRE_FACTOR * local.distance { (global, true) } else { (local, false) };
        cursor.set(&projection);
        (projection, reacquired)
    }

    /// The next (or previous) segment with a length, wrapping on closed paths; None past the
    /// ends of an open path.
    fn neighbour_with_length(&self, idx: usize, forward: bool) -> Option<usize> {
        let table = if forward { &self.next_with_length } else { &self.previous_with_length };
        visit();
        match table.get(idx) {
            Some(&NONE) | None => None,
            Some(&next) => Some(next as usize),
        }
    }

    /// The segment after `idx` that a global projection must look at: the next one, or for a
    /// zero-length segment the next one with a length (the points between coincide with this
    /// one's start, so their projections are no nearer and lose ties to the lower index).
    #[inline]
    fn after_run(&self, idx: usize) -> usize {
        let count = self.segments.len();
        if self.segments.get(idx).is_some_and(|segment| segment.length > 0.0) {
            return idx + 1;
        }
        match self.next_with_length.get(idx) {
            Some(&next) if next != NONE && (next as usize) > idx => next as usize,
            _ => count,
        }
    }

    /// The first vertex, or the origin for an empty path.
    fn first_point(&self) -> Vec3 {
        self.points.first().copied().unwrap_or(Vec3::ZERO)
    }
    /// Vertex `idx`, or the origin when out of range.
    fn vertex(&self, idx: usize) -> Vec3 {
        self.points.get(idx).copied().unwrap_or(Vec3::ZERO)
    }
    /// Cumulative arc length at vertex `idx`, or zero when out of range.
    fn cum(&self, idx: usize) -> f32 {
        self.cumulative.get(idx).copied().unwrap_or(0.0)
    }
    /// End points of segment `idx`, which must be below the segment count.
    fn segment_points(&self, idx: usize) -> (Vec3, Vec3) {
        let next = if idx + 1 >= self.points.len() { 0 } else { idx + 1 };
        (self.vertex(idx), self.vertex(next))
    }
    /// Length of segment `idx`, which must be below the segment count.
    fn length_of(&self, idx: usize) -> f32 {
        self.geometry(idx).length
    }
    /// Cached geometry of segment `idx` (a zero-length segment at the origin when out of range).
    fn geometry(&self, idx: usize) -> SegmentGeometry {
        visit();
        self.segments.get(idx).copied().unwrap_or_default()
    }
    /// The projection of a point onto a path without segments.
    fn project_onto_first_point(&self, point: Vec3) -> PathProjection {
        let first = self.first_point();
        PathProjection { point: first, distance: first.distance(point), ..PathProjection::default() }
    }
    /// Brings an arc length into the path's range: wraps into [0, length) on closed paths,
    /// clamps into [0, length] on open ones; NaN becomes 0.
    fn normalise_distance(&self, distance: f32) -> f32 {
        let length = self.length();
        if distance.is_nan() {
            return 0.0;
        }
        if !self.closed {
            return distance.clamp(0.0, length.max(0.0));
        }
        if length <= 0.0 || !distance.is_finite() {
            return 0.0;
        }
        // Within a lap of the range (the common case) a subtraction is exact enough and cheap.
        if (0.0..length).contains(&distance) {
            return distance;
        }
        if (length..2.0 * length).contains(&distance) {
            // Exact (Sterbenz), so below `length`.
            return distance - length;
        }
        if (-length..0.0).contains(&distance) {
            let wrapped = distance + length;
            return if wrapped < length { wrapped } else { 0.0 };
        }
        let wrapped = distance.rem_euclid(length);
        // rem_euclid can round a tiny negative input up to `length` itself.
        if wrapped >= length || wrapped < 0.0 {
            0.0
        } else {
            wrapped
        }
    }
    /// An arc length in [0, length] with the end of a closed path wrapped to its start.
    #[inline]
    fn wrap_end(&self, distance: f32) -> f32 {
        if self.closed && distance >= self.length() {
            0.0
        } else {
            distance
        }
    }
    /// Segment holding an already normalised arc length and the distance along it. Among
    /// segments starting at the same arc length (zero-length ones) the last is chosen.
    fn locate(&self, distance: f32) -> (usize, f32) {
        let count = self.segment_count();
        if count == 0 {
            return (0, 0.0);
        }
        let starts = self.cumulative.get(..count).unwrap_or(&[]);
        let segment_idx = starts.partition_point(|&start| start <= distance).saturating_sub(1).min(count - 1);
        let along = (distance - self.cum(segment_idx)).max(0.0).min(self.segment_length(segment_idx));
        (segment_idx, along)
    }
    /// [`Polyline::locate`] starting from a nearby segment: at most a few steps either way, then
    /// the binary search. Same result as `locate` for any hint.
    fn locate_near(&self, distance: f32, segment_hint: usize) -> (usize, f32) {
        const MAX_STEPS: usize = 8;
        let count = self.segments.len();
        if count == 0 {
            return (0, 0.0);
        }
        let length = self.length();
        let mut segment_idx = segment_hint.min(count - 1);
        if self.closed {
            // Across the seam, start from the other end.
            let hint_start = self.cum(segment_idx);
            if hint_start - distance > 0.5 * length {
                segment_idx = 0;
            } else if distance - hint_start > 0.5 * length {
                segment_idx = count - 1;
            }
        }
        // Jump by whole mean segment lengths first: exact on an evenly divided path (a target
        // some way ahead on a finely divided one is many segments on), and the walk below
        // corrects any guess.
        let mean_length = length / count as f32;
        if mean_length > 0.0 {
            let jump = ((distance - self.cum(segment_idx)) / mean_length) as isize;
            segment_idx = segment_idx.saturating_add_signed(jump).min(count - 1);
        }
        for _ in 0..MAX_STEPS {
            if distance < self.cum(segment_idx) {
                match segment_idx.checked_sub(1) {
                    Some(previous) => segment_idx = previous,
                    None => break,
                }
            } else if segment_idx + 1 < count && distance >= self.cum(segment_idx + 1) {
                segment_idx += 1;
            } else {
                let along = (distance - self.cum(segment_idx)).max(0.0).min(self.length_of(segment_idx));
                return (segment_idx, along);
            }
        }
        self.locate(distance)
    }
    /// The point `along` world units from the start of segment `segment_idx` (clamped to it).
    fn point_on_segment(&self, segment_idx: usize, along: f32) -> Vec3 {
        let geometry = self.geometry(wrap_index(segment_idx, self.segments.len().max(1)));
        geometry.start + geometry.direction * along.max(0.0).min(geometry.length)
    }
    /// Closest point of segment `segment_idx` to `point` among those whose distance from the
    /// segment start lies in [min_along, max_along]; returns that distance and the point.
    fn project_on_segment_range(
        &self,
        point: Vec3,
        segment_idx: usize,
        min_along: f32,
        max_along: f32,
    ) -> (f32, Vec3) {
        let SegmentGeometry { start, direction, length, .. } = self.geometry(segment_idx);
        if length <= 0.0 {
            return (0.0, start);
        }
        let along = (point - start).dot(direction).max(min_along).min(max_along);
        let along = if along.is_nan() { min_along.max(0.0) } else { along };
        (along, start + direction * along)
    }
}

/// A lane without a segment (its results are made again by the scalar projection).
const NO_SEGMENT: SegmentGeometry =
    SegmentGeometry { start: Vec3::ZERO, direction: Vec3::ZERO, length: 0.0, start_distance: 0.0 };

/// Four segments' [`SegmentGeometry`], one per lane.
#[derive(Clone, Copy)]
struct SegmentGeometryX4 {
    start: Vec3x4,
    direction: Vec3x4,
    length: f32x4,
    start_distance: f32x4,
}

impl SegmentGeometryX4 {
    /// Lane `i` is `segments[i]`: each segment loaded as two rows of four numbers, and the
    /// rows transposed in registers.
    #[inline(always)]
    fn gather(segments: [&SegmentGeometry; LANES]) -> SegmentGeometryX4 {
        let first = segments.map(|s| f32x4::new([s.start.x, s.start.y, s.start.z, s.direction.x]));
        let second = segments.map(|s| f32x4::new([s.direction.y, s.direction.z, s.length, s.start_distance]));
        let [start_x, start_y, start_z, direction_x] = f32x4::transpose(first);
        let [direction_y, direction_z, length, start_distance] = f32x4::transpose(second);
        SegmentGeometryX4 {
            start: Vec3x4 { x: start_x, y: start_y, z: start_z },
            direction: Vec3x4 { x: direction_x, y: direction_y, z: direction_z },
            length,
            start_distance,
        }
    }

    /// [`SegmentGeometry::foot`] lane by lane.
    #[inline(always)]
    fn foot(&self, point: Vec3x4) -> (f32x4, Vec3x4, f32x4) {
        let along = min_num(max_num((point - self.start).dot(self.direction), f32x4::ZERO), self.length);
        let closest = self.start + self.direction.scale(along);
        (along, closest, (closest - point).length_squared())
    }

    /// `if mask { a } else { b }` lane by lane.
    #[inline(always)]
    fn select(mask: f32x4, a: &SegmentGeometryX4, b: &SegmentGeometryX4) -> SegmentGeometryX4 {
        SegmentGeometryX4 {
            start: Vec3x4::select(mask, a.start, b.start),
            direction: Vec3x4::select(mask, a.direction, b.direction),
            length: select(mask, a.length, b.length),
            start_distance: select(mask, a.start_distance, b.start_distance),
        }
    }
}

impl Polyline {
    /// [`Polyline::project_point_local`] of four points at once, each with its own cursor, into
    /// `projections`, and the path's direction on each projection's segment
    /// ([`Polyline::segment_direction`]) into `directions`: the same results bit for bit as
    /// four calls
    /// (`four_lane_projections_equal_four_single_ones_bit_for_bit`). The common moves are
    /// made lane by lane — staying on the cursor's segment, and the first move past its end
    /// vertex onto the next segment with a length, after which the point stays there (on a
    /// path divided more finely than a point moves in a step, every step) — and any other
    /// lane (a new cursor, a move backward or needing the budget, a second move, re-acquiring,
    /// a point that is not finite, a segment without direction) is projected alone by
    /// [`Polyline::project_point_local`] from its cursor as it was, except that a lane which
    /// moved past the end vertex and must move on continues the scalar descent from there. The
    /// gain is measured on the kernel that uses it (`bench::predictive`'s module comment).
    pub fn project_points_local_x4(
        &self,
        points: Vec3x4,
        cursors: &mut PathCursorX4,
        reacquire_distance: f32,
        projections: &mut PathProjectionX4,
        directions: &mut Vec3x4,
    ) {
        let n = self.segments.len();
        // Lanes made here (bit i for lane i); the rest are projected alone at the end.
        let mut regular = 0u32;
        let here: [&SegmentGeometry; LANES] = std::array::from_fn(|lane| {
            let idx = cursors.segment_idx.get(lane).copied().unwrap_or(usize::MAX);
            let Some(segment) = self.segments.get(idx) else { return &NO_SEGMENT };
            let initialised = cursors.initialised.get(lane) == Some(&true);
            regular |= u32::from(initialised) << lane;
            segment
        });
        let mut geometry = SegmentGeometryX4::gather(here);
        // The cursor's segment holds the cursor's arc length (as in `project_point_local`).
        let distance = cursors.distance_along;
        regular &= bits(
            geometry.start_distance.simd_le(distance)
                & distance.simd_le(geometry.start_distance + geometry.length),
        );
        let mut segment_idx = cursors.segment_idx;
        let (mut along, mut closest, mut distance_sq) = geometry.foot(points);
        regular &= bits(distance_sq.is_finite());
        let stays = self.stays_x4(along, geometry.length, distance_sq);
        let moving = regular & !bits(stays);
        let mut continuing = 0u32;
        if moving != 0 {
            // `descend_forward`'s first move: onto the next segment, forward, with a length.
            let forward = bits(along.simd_ge(f32x4::splat(0.5) * geometry.length));
            let mut next = here;
            for (lane, next) in next.iter_mut().enumerate() {
                if moving & (1 << lane) == 0 {
                    continue;
                }
                let idx = segment_idx.get(lane).copied().unwrap_or(0);
                let next_idx = if idx + 1 < n {
                    idx + 1
                } else if self.closed && idx != 0 {
                    0
                } else {
                    regular &= !(1 << lane);
                    continue;
                };
                match self.segments.get(next_idx) {
                    Some(segment) if forward & (1 << lane) != 0 && segment.length > 0.0 => {
                        *next = segment;
                        if let Some(slot) = segment_idx.get_mut(lane) {
                            *slot = next_idx;
                        }
                    }
                    _ => regular &= !(1 << lane),
                }
            }
            let next_geometry = SegmentGeometryX4::gather(next);
            let (next_along, next_closest, next_distance_sq) = next_geometry.foot(points);
            // Strictly nearer; the first move needs no budget only when the foot is clamped to
            // the end vertex; after it the point must stay on the next segment.
            let nearer = bits(next_distance_sq.simd_lt(distance_sq * f32x4::splat(1.0 - 1e-6)));
            let past_end = bits(along.simd_ge(geometry.length));
            let next_stays = bits(self.stays_x4(next_along, next_geometry.length, next_distance_sq));
            let take = moving & nearer;
            // Lanes that moved once past the end vertex and go on: continued alone.
            continuing = take & past_end & !next_stays & regular;
            regular &= !(take & !(past_end & next_stays));
            // A lane that does not move stays where it was (its segment index too).
            for (lane, idx) in segment_idx.iter_mut().enumerate() {
                if moving & !take & (1 << lane) != 0 {
                    *idx = cursors.segment_idx.get(lane).copied().unwrap_or(0);
                }
            }
            let take_mask = mask_from_bits(take);
            geometry = SegmentGeometryX4::select(take_mask, &next_geometry, &geometry);
            along = select(take_mask, next_along, along);
            closest = Vec3x4::select(take_mask, next_closest, closest);
            distance_sq = select(take_mask, next_distance_sq, distance_sq);
        }
        let arc = geometry.start_distance + along;
        let distance_along =
            if self.closed { select(arc.simd_ge(f32x4::splat(self.length)), f32x4::ZERO, arc) } else { arc };
        let distance = distance_sq.sqrt();
        regular &= !bits(distance.simd_gt(f32x4::splat(reacquire_distance)));
        regular &= !bits(geometry.direction.is_zero());
        *projections =
            PathProjectionX4 { segment_idx, along_segment: along, distance_along, point: closest, distance };
        *directions = geometry.direction;
        // The cursors of the lanes made here move; the others stay for `project_lanes_alone`.
        let regular_mask = mask_from_bits(regular);
        cursors.distance_along = select(regular_mask, distance_along, cursors.distance_along);
        for (lane, (idx, initialised)) in
            cursors.segment_idx.iter_mut().zip(cursors.initialised.iter_mut()).enumerate()
        {
            if regular & (1 << lane) != 0 {
                *idx = segment_idx.get(lane).copied().unwrap_or(0);
                *initialised = true;
            }
        }
        if regular != (1 << LANES) - 1 {
            self.project_lanes_alone(
                points,
                cursors,
                projections,
                directions,
                regular,
                continuing,
                reacquire_distance,
            );
        }
    }

    /// The lanes of [`Polyline::project_points_local_x4`] outside `regular`, each projected
    /// alone from its cursor in `cursors` (moved on), into `projections` and `directions`.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn project_lanes_alone(
        &self,
        points: Vec3x4,
        cursors: &mut PathCursorX4,
        projections: &mut PathProjectionX4,
        directions: &mut Vec3x4,
        regular: u32,
        continuing: u32,
        reacquire_distance: f32,
    ) {
        for lane in 0..LANES {
            if regular & (1 << lane) != 0 {
                continue;
            }
            let mut cursor = cursors.lane(lane);
            let point = points.lane(lane);
            let projection = if continuing & (1 << lane) != 0 {
                self.continue_descent(point, &mut cursor, &projections.lane(lane), reacquire_distance)
            } else {
                self.project_point_local(point, &mut cursor, reacquire_distance)
            };
            cursors.set_lane(lane, cursor);
            projections.set_lane(lane, projection);
            directions.set_lane(lane, self.segment_direction(projection.segment_idx));
        }
    }

    /// [`Polyline::project_point_local`] of a point whose descent has made its first move,
    /// past the end vertex of its cursor's segment (which holds the cursor's arc length), onto
    /// the segment of `moved`, with its foot there: the rest of that descent, exactly as the
    /// one call would make it.
    #[inline(always)]
    fn continue_descent(
        &self,
        point: Vec3,
        cursor: &mut PathCursor,
        moved: &PathProjection,
        reacquire_distance: f32,
    ) -> PathProjection {
        let budget_from = self.geometry(cursor.segment_idx);
        let geometry = self.geometry(moved.segment_idx);
        // The foot's squared distance as `SegmentGeometry::foot` made it.
        let distance_sq = moved.point.distance_squared(point);
        let local = self.descend_forward(
            point,
            cursor.distance_along,
            &budget_from,
            moved.segment_idx,
            geometry,
            moved.along_segment,
            moved.point,
            distance_sq,
            1,
        );
        if local.distance > reacquire_distance {
            return self.reacquire(point, local, cursor).0;
        }
        cursor.set(&local);
        local
    }

    /// [`Polyline::stays`] lane by lane.
    #[inline(always)]
    fn stays_x4(&self, along: f32x4, length: f32x4, distance_sq: f32x4) -> f32x4 {
        let rest = length - along;
        let to_vertex = select(rest.simd_lt(along), rest, along) - f32x4::splat(REACH_MARGIN);
        to_vertex.simd_gt(f32x4::ZERO)
            & (to_vertex * to_vertex).simd_gt(distance_sq * f32x4::splat(self.reach_factor_sq))
    }
}

/// `segment_idx` wrapped into `0..count` (`count` > 0), dividing only when needed.
fn wrap_index(segment_idx: usize, count: usize) -> usize {
    if segment_idx < count {
        segment_idx
    } else {
        segment_idx % count
    }
}

/// tan(φ/2) of the sharpest turn between consecutive segments with length (wrapping when
/// closed), capped at [`MAX_CORNER_TANGENT`].
fn sharpest_corner_tangent(segments: &[SegmentGeometry], closed: bool) -> f32 {
    let mut directions = segments.iter().map(|segment| segment.direction).filter(|&d| d != Vec3::ZERO);
    let Some(first) = directions.next() else {
        return 0.0;
    };
    let mut sharpest = 0.0f32;
    let mut previous = first;
    let mut turn = |from: Vec3, to: Vec3| {
        let cos = from.dot(to).clamp(-1.0, 1.0);
        let tangent = ((1.0 - cos) / (1.0 + cos).max(1e-12)).sqrt();
        sharpest = sharpest.max(tangent.min(MAX_CORNER_TANGENT));
    };
    for direction in directions {
        turn(previous, direction);
        previous = direction;
    }
    if closed {
        turn(previous, first);
    }
    sharpest
}

/// The skip tables of a path's segments: for each, the next and the previous segment with a
/// length (wrapping when closed, never the segment itself; [`NONE`] when there is none).
/// Linear in the segment count; paths beyond `u32::MAX` segments get no skips (every entry
/// [`NONE`], as if no neighbour had a length).
fn skip_tables(segments: &[SegmentGeometry], closed: bool) -> (Vec<u32>, Vec<u32>) {
    let n = segments.len();
    if n >= NONE as usize {
        return (vec![NONE; n], vec![NONE; n]);
    }
    let has_length = |idx: usize| segments.get(idx).is_some_and(|segment| segment.length > 0.0);
    let first_with_length = (0..n).find(|&idx| has_length(idx));
    let last_with_length = (0..n).rev().find(|&idx| has_length(idx));
    let mut next = vec![NONE; n];
    let mut upcoming = if closed { first_with_length } else { None };
    for idx in (0..n).rev() {
        if let Some(slot) = next.get_mut(idx) {
            *slot = upcoming.filter(|&other| other != idx).map_or(NONE, |other| other as u32);
        }
        if has_length(idx) {
            upcoming = Some(idx);
        }
    }
    let mut previous = vec![NONE; n];
    let mut behind = if closed { last_with_length } else { None };
    for (idx, slot) in previous.iter_mut().enumerate() {
        *slot = behind.filter(|&other| other != idx).map_or(NONE, |other| other as u32);
        if has_length(idx) {
            behind = Some(idx);
        }
    }
    (next, previous)
}

/// `value` if finite, else zero.
fn finite_or_zero(value: f32) -> f32 {
    if value.is_finite() {
        value
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec3 {
        Vec3::new(x, y, 0.0)
    }

    fn hairpin() -> Polyline {
        Polyline::new(vec![v(0.0, 0.0), v(400.0, 0.0), v(400.0, 60.0), v(0.0, 60.0)], false)
    }

    fn square(closed: bool) -> Polyline {
        Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0), v(100.0, 100.0), v(0.0, 100.0)], closed)
    }

    #[test]
    fn open_path_has_cumulative_lengths_and_segments() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(3.0, 4.0), v(3.0, 10.0)], false);
        assert_eq!(path.cumulative, vec![0.0, 5.0, 11.0]);
        assert_eq!(path.length(), 11.0);
        assert_eq!(path.segment_count(), 2);
        assert_eq!(path.segment(1), (v(3.0, 4.0), v(3.0, 10.0)));
        assert_eq!(path.segment_start_distance(1), 5.0);
        assert_eq!(path.segment_length(0), 5.0);
    }

    #[test]
    fn closed_path_adds_the_closing_segment() {
        let path = square(true);
        assert_eq!(path.cumulative, vec![0.0, 100.0, 200.0, 300.0, 400.0]);
        assert_eq!(path.length(), 400.0);
        assert_eq!(path.segment_count(), 4);
        assert_eq!(path.segment(3), (v(0.0, 100.0), v(0.0, 0.0)));
        assert_eq!(path.segment(5), (v(100.0, 0.0), v(100.0, 100.0)));
        assert_eq!(path.segment_start_distance(3), 300.0);
    }

    #[test]
    fn degenerate_paths_have_no_segments_and_no_nan() {
        let empty = Polyline::new(vec![], true);
        assert_eq!((empty.segment_count(), empty.length()), (0, 0.0));
        assert_eq!(empty.point_at_distance(5.0), Vec3::ZERO);
        assert_eq!(empty.direction_at_distance(5.0), Vec3::ZERO);
        assert_eq!(empty.project_point(v(3.0, 4.0)).distance, 5.0);
        let single = Polyline::new(vec![v(1.0, 1.0)], true);
        assert_eq!(single.segment_count(), 0);
        assert_eq!(single.segment(7), (v(1.0, 1.0), v(1.0, 1.0)));
        assert_eq!(single.point_at_distance(-3.0), v(1.0, 1.0));
        let coincident = Polyline::new(vec![v(2.0, 2.0), v(2.0, 2.0), v(2.0, 2.0)], true);
        assert_eq!(coincident.length(), 0.0);
        assert_eq!(coincident.point_at_distance(10.0), v(2.0, 2.0));
        assert_eq!(coincident.direction_at_distance(0.0), Vec3::ZERO);
        let mut cursor = PathCursor::default();
        let projection = coincident.project_point_local(v(5.0, 6.0), &mut cursor, 1.0);
        assert_eq!((projection.point, projection.distance), (v(2.0, 2.0), 5.0));
        let projection = coincident.project_point_local(v(5.0, 6.0), &mut cursor, 1.0);
        assert_eq!(
            (projection.point, projection.distance, projection.distance_along),
            (v(2.0, 2.0), 5.0, 0.0)
        );
    }

    #[test]
    fn point_at_distance_clamps_on_open_paths() {
        let path = square(false);
        assert_eq!(path.point_at_distance(-50.0), v(0.0, 0.0));
        assert_eq!(path.point_at_distance(150.0), v(100.0, 50.0));
        assert_eq!(path.point_at_distance(300.0), v(0.0, 100.0));
        assert_eq!(path.point_at_distance(1e9), v(0.0, 100.0));
    }

    #[test]
    fn point_at_distance_wraps_on_closed_paths_including_negative() {
        let path = square(true);
        assert_eq!(path.point_at_distance(350.0), v(0.0, 50.0));
        assert_eq!(path.point_at_distance(450.0), v(50.0, 0.0));
        assert_eq!(path.point_at_distance(-50.0), v(0.0, 50.0));
        assert_eq!(path.point_at_distance(-450.0), v(0.0, 50.0));
        assert_eq!(path.point_at_distance(400.0), v(0.0, 0.0));
    }

    #[test]
    fn direction_skips_zero_length_segments() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(10.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)], false);
        assert_eq!(path.direction_at_distance(5.0), Vec3::X);
        assert_eq!(path.direction_at_distance(10.0), Vec3::Y);
        assert_eq!(path.direction_at_distance(20.0), Vec3::Y);
        assert_eq!(path.segment_direction(1), Vec3::Y);
        let trailing = Polyline::new(vec![v(0.0, 0.0), v(10.0, 0.0), v(10.0, 0.0)], false);
        assert_eq!(trailing.direction_at_distance(10.0), Vec3::X);
    }

    #[test]
    fn projection_clamps_before_first_vertex() {
        let projection = square(false).project_point(v(-30.0, -40.0));
        assert_eq!(projection.segment_idx, 0);
        assert_eq!(projection.along_segment, 0.0);
        assert_eq!(projection.distance_along, 0.0);
        assert_eq!(projection.point, v(0.0, 0.0));
        assert_eq!(projection.distance, 50.0);
    }

    #[test]
    fn projection_clamps_after_last_vertex() {
        let projection = square(false).project_point(v(-30.0, 140.0));
        assert_eq!(projection.segment_idx, 2);
        assert_eq!(projection.along_segment, 100.0);
        assert_eq!(projection.distance_along, 300.0);
        assert_eq!(projection.point, v(0.0, 100.0));
        assert_eq!(projection.distance, 50.0);
    }

    #[test]
    fn projection_onto_a_segment_gives_the_seeds_l() {
        let path = square(true);
        let projection = path.project_point_segment(v(130.0, 40.0), 1);
        assert_eq!(projection.along_segment, 40.0);
        assert_eq!(projection.distance_along, 140.0);
        assert_eq!(projection.point, v(100.0, 40.0));
        assert_eq!(projection.distance, 30.0);
        let closing = path.project_point_segment(v(-10.0, 25.0), 3);
        assert_eq!(closing.along_segment, 75.0);
        assert_eq!(closing.distance_along, 375.0);
    }

    #[test]
    fn projection_at_the_end_of_a_closed_path_wraps_to_zero() {
        let projection = square(true).project_point_segment(v(-5.0, -5.0), 3);
        assert_eq!(projection.point, v(0.0, 0.0));
        assert_eq!(projection.distance_along, 0.0);
    }

    #[test]
    fn local_projection_stays_on_the_hairpin_leg_of_the_cursor() {
        let path = hairpin();
        let mut cursor = PathCursor::default();
        let first = path.project_point_local(v(100.0, 5.0), &mut cursor, 40.0);
        assert_eq!((first.segment_idx, first.distance_along), (0, 100.0));
        // Closer to leg 2 (25 away) than to leg 0 (35 away).
        let projection = path.project_point_local(v(110.0, 35.0), &mut cursor, 40.0);
        assert_eq!(projection.segment_idx, 0);
        assert_eq!(projection.distance_along, 110.0);
        assert_eq!(projection.distance, 35.0);
        assert_eq!(cursor.distance_along, 110.0);
        // The global projection would have jumped.
        assert_eq!(path.project_point(v(110.0, 35.0)).segment_idx, 2);
    }

    #[test]
    fn local_projection_reacquires_a_path_it_has_clearly_left() {
        let path = hairpin();
        let mut cursor = PathCursor { segment_idx: 0, distance_along: 100.0, initialised: true };
        let projection = path.project_point_local(v(300.0, 58.0), &mut cursor, 40.0);
        assert_eq!(projection.segment_idx, 2);
        assert_eq!(projection.distance_along, 560.0);
        assert!((projection.distance - 2.0).abs() < 1e-4);
    }

    #[test]
    fn local_projection_crosses_the_seam_of_a_closed_path() {
        let path = square(true);
        let mut cursor = PathCursor::default();
        let mut previous = path.project_point_local(v(-2.0, 40.0), &mut cursor, 50.0).distance_along;
        assert_eq!(previous, 360.0);
        let mut unwrapped_total = 0.0;
        for step in 1..=60 {
            let y = 40.0 - step as f32 * 2.0;
            let query = if y >= 0.0 { v(-2.0, y) } else { v(-y, -2.0) };
            let projection = path.project_point_local(query, &mut cursor, 50.0);
            assert!(projection.distance_along >= 0.0 && projection.distance_along < path.length());
            let mut delta = projection.distance_along - previous;
            if delta < -200.0 {
                delta += path.length();
            }
            assert!((0.0..=4.0).contains(&delta), "step {step}: delta {delta}");
            unwrapped_total += delta;
            previous = projection.distance_along;
        }
        assert!(unwrapped_total > 70.0, "{unwrapped_total}");
        assert!(cursor.segment_idx == 0 && cursor.distance_along > 0.0 && cursor.distance_along < 100.0);
    }

    #[test]
    fn local_projection_walks_backward_over_the_seam() {
        let path = square(true);
        let mut cursor = PathCursor { segment_idx: 0, distance_along: 5.0, initialised: true };
        let projection = path.project_point_local(v(-3.0, 10.0), &mut cursor, f32::INFINITY);
        assert_eq!(projection.segment_idx, 3);
        assert_eq!(projection.distance_along, 390.0);
    }

    #[test]
    fn local_projection_with_an_inconsistent_cursor_relocates_it() {
        let path = square(false);
        let mut cursor = PathCursor { segment_idx: 7, distance_along: 150.0, initialised: true };
        let projection = path.project_point_local(v(110.0, 160.0), &mut cursor, f32::INFINITY);
        // Relocated to segment 1 (which holds arc length 150); its nearest point is the corner.
        assert_eq!(cursor.segment_idx, 1);
        assert_eq!(projection.distance_along, 200.0);
        assert_eq!(projection.point, v(100.0, 100.0));
    }

    /// A lemniscate of half-width 200 sampled at 64 points: a figure-eight crossing itself at
    /// the origin at right angles.
    fn figure_eight() -> Polyline {
        let points = (0..64)
            .map(|i| {
                let t = i as f32 / 64.0 * std::f32::consts::TAU;
                let scale = 200.0 / (1.0 + t.sin() * t.sin());
                v(scale * t.cos(), scale * t.sin() * t.cos())
            })
            .collect();
        Polyline::new(points, true)
    }

    #[test]
    fn cursor_passes_the_figure_eight_crossing_without_jumping_legs() {
        let path = figure_eight();
        let length = path.length();
        {
            let mut cursor = PathCursor::default();
            let mut previous = 0.0;
            let mut travelled = 0.0;
            let mut global_jumps = 0;
            for step in 0..=800 {
                let along = step as f32 * 2.0;
                // Three units to the left of the path, so both legs are near at the crossing.
                let (on_path, direction) = path.point_and_direction_at_distance(along, 0);
                let query = on_path + v(-direction.y, direction.x) * 3.0;
                let projection = path.project_point_local(query, &mut cursor, 40.0);
                if step > 0 {
                    let mut delta = projection.distance_along - previous;
                    if delta < -0.5 * length {
                        delta += length;
                    }
                    assert!((-0.5..=4.0).contains(&delta), "step {step}: delta {delta}");
                    travelled += delta;
                }
                previous = projection.distance_along;
                let global = path.project_point(query);
                if (global.distance_along - projection.distance_along).abs() > 100.0 {
                    global_jumps += 1;
                }
            }
            assert!((travelled - 1600.0).abs() < 5.0, "{travelled}");
            // The global projection would have jumped to the other leg near the crossing.
            assert!(global_jumps > 0);
        }
    }

    #[test]
    fn sharpest_corner_bounds_where_a_neighbour_can_be_nearer() {
        assert_eq!(hairpin().corner_tangent, 1.0);
        assert_eq!(Polyline::new(vec![v(0.0, 0.0), v(10.0, 0.0), v(20.0, 0.0)], false).corner_tangent, 0.0);
        let reversal = Polyline::new(vec![v(0.0, 0.0), v(10.0, 0.0), v(0.0, 0.0)], false);
        assert_eq!(reversal.corner_tangent, MAX_CORNER_TANGENT);
        assert_eq!(Polyline::new(vec![v(1.0, 1.0), v(1.0, 1.0)], true).corner_tangent, 0.0);
    }

    #[test]
    fn local_projection_keeps_the_hairpin_leg_and_finds_the_turn() {
        let path = hairpin();
        let mut cursor = PathCursor::default();
        path.project_point_local(v(100.0, 5.0), &mut cursor, 40.0);
        // Closer to the other leg: local descent keeps leg 0.
        let projection = path.project_point_local(v(102.0, 35.0), &mut cursor, 40.0);
        assert_eq!((projection.segment_idx, projection.distance_along), (0, 102.0));
        // Walking around the turn on the inside: the projection reaches the turn leg.
        for x in [380.0, 390.0, 395.0] {
            path.project_point_local(v(x, 10.0), &mut cursor, 40.0);
        }
        let projection = path.project_point_local(v(396.0, 30.0), &mut cursor, 40.0);
        assert_eq!(projection.segment_idx, 1);
        assert_eq!(projection.distance_along, 430.0);
    }

    #[test]
    fn point_and_direction_with_any_hint_match_the_separate_lookups() {
        let path = square(true);
        for distance in [-10.0, 0.0, 50.0, 100.0, 250.0, 399.0, 400.0, 790.0] {
            for hint in [0, 1, 2, 3, 17] {
                let (point, direction) = path.point_and_direction_at_distance(distance, hint);
                assert_eq!(point, path.point_at_distance(distance), "{distance} {hint}");
                assert_eq!(direction, path.direction_at_distance(distance), "{distance} {hint}");
            }
        }
    }

    /// The full descent from the cursor's segment, as the fast paths must reproduce it.
    /// One step of [`follow`]: projection point, arc length and distance, target point and
    /// direction.
    type FollowStep = (Vec3, f32, f32, Vec3, Vec3);

    /// Segment reads on this thread while `work` runs.
    fn visits_of<T>(work: impl FnOnce() -> T) -> (T, usize) {
        let before = VISITS.with(|visits| visits.get());
        let result = work();
        (result, VISITS.with(|visits| visits.get()) - before)
    }

    /// Follows a point moving from (-5, 1) to (25, 1) along the x axis in 0.1 steps, as an agent
    /// does each step: local projection, then the point and direction a little ahead. Returns
    /// per step the projection's point, arc length and distance, the target point, and the most
    /// segment reads any step took.
    fn follow(path: &Polyline) -> (Vec<FollowStep>, usize) {
        let mut cursor = PathCursor::default();
        let mut most = 0;
        let mut out = Vec::new();
        for step in 0..300 {
            let point = v(-5.0 + 0.1 * step as f32, 1.0);
            let ((projection, target), visits) = visits_of(|| {
                let projection = path.project_point_local(point, &mut cursor, 3.0);
                let target = path
                    .point_and_direction_at_distance(projection.distance_along + 0.5, projection.segment_idx);
                (projection, target)
            });
            if step > 0 {
                most = most.max(visits);
            }
            out.push((projection.point, projection.distance_along, projection.distance, target.0, target.1));
        }
        (out, most)
    }

    #[test]
    fn a_path_of_100000_coincident_points_costs_what_a_single_point_does() {
        for closed in [false, true] {
            let path = Polyline::new(vec![v(3.0, 4.0); 100_000], closed);
            let (_, global_visits) = visits_of(|| path.project_point(v(0.0, 0.0)));
            assert!(global_visits <= 4, "global projection read {global_visits} segments");
            let (steps, most) = follow(&path);
            assert!(most <= 16, "a step read {most} segments of a degenerate path");
            for (point, distance_along, distance, target, _) in steps {
                assert_eq!((point, distance_along, target), (v(3.0, 4.0), 0.0, v(3.0, 4.0)));
                assert!(distance.is_finite());
            }
            let (direction, visits) = visits_of(|| path.direction_at_distance(0.0));
            assert_eq!(direction, Vec3::ZERO);
            assert!(visits <= 4, "direction lookup read {visits} segments");
        }
    }

    #[test]
    fn long_runs_of_coincident_points_are_skipped_with_the_answers_of_the_plain_path() {
        let corners = [v(0.0, 0.0), v(10.0, 0.0), v(20.0, 0.0)];
        let plain = Polyline::new(corners.to_vec(), false);
        let mut points = vec![corners[0]; 50_000];
        points.extend(std::iter::repeat_n(corners[1], 50_000));
        points.extend(std::iter::repeat_n(corners[2], 50_000));
        let padded = Polyline::new(points, false);
        assert_eq!(padded.points().len(), 150_000, "point indices stay as given");
        let (plain_steps, plain_most) = follow(&plain);
        let (padded_steps, padded_most) = follow(&padded);
        assert_eq!(padded_steps, plain_steps);
        // A constant more (the hinted lookup may fall back to its binary search), not one per
        // coincident point.
        assert!(padded_most <= plain_most + 24, "padded {padded_most} vs plain {plain_most} reads");
        let query = v(12.0, -3.0);
        let (global, visits) = visits_of(|| padded.project_point(query));
        let expected = plain.project_point(query);
        assert_eq!((global.point, global.distance_along), (expected.point, expected.distance_along));
        assert!(visits <= 16, "global projection read {visits} segments");
    }

    fn reference_descent(path: &Polyline, point: Vec3, cursor: &PathCursor) -> PathProjection {
        let idx = cursor.segment_idx;
        let geometry = path.geometry(idx);
        let (along, closest, distance_sq) = geometry.foot(point);
        path.descend(point, cursor.distance_along, &geometry, idx, geometry, along, closest, distance_sq)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// The inlined stay, the forward descent and its skipped budget check all give what the
        /// general descent gives, on random paths (dense, sparse, sharp, with repeated points)
        /// and points moving a random amount from where the cursor last was.
        #[test]
        fn fast_paths_of_the_local_projection_match_the_full_descent(
            raw in proptest::collection::vec((-100.0f32..100.0, -100.0f32..100.0), 2..40),
            repeat in proptest::collection::vec(proptest::bool::weighted(0.1), 40),
            closed in proptest::bool::ANY,
            walk in proptest::collection::vec((-8.0f32..8.0, -8.0f32..8.0), 1..30),
            start in (-100.0f32..100.0, -100.0f32..100.0),
        ) {
            let mut points: Vec<Vec3> = Vec::new();
            for (idx, &(x, y)) in raw.iter().enumerate() {
                let point = match points.last() {
                    Some(&last) if repeat.get(idx).copied().unwrap_or(false) => last,
                    _ => v(x, y),
                };
                points.push(point);
            }
            let path = Polyline::new(points, closed);
            let mut cursor = PathCursor::default();
            let mut point = v(start.0, start.1);
            path.project_point_local(point, &mut cursor, f32::INFINITY);
            for (dx, dy) in walk {
                point += v(dx, dy);
                let before = cursor;
                let holds = path.segments.get(before.segment_idx).is_some_and(|segment| {
                    segment.start_distance <= before.distance_along
                        && before.distance_along <= segment.start_distance + segment.length
                });
                let fast = path.project_point_local(point, &mut cursor, f32::INFINITY);
                if holds {
                    let reference = reference_descent(&path, point, &before);
                    proptest::prop_assert_eq!(fast.segment_idx, reference.segment_idx);
                    proptest::prop_assert_eq!(fast.along_segment.to_bits(), reference.along_segment.to_bits());
                    proptest::prop_assert_eq!(fast.distance_along.to_bits(), reference.distance_along.to_bits());
                    proptest::prop_assert_eq!(fast.point, reference.point);
                    proptest::prop_assert_eq!(fast.distance.to_bits(), reference.distance.to_bits());
                }
            }
        }

        /// The hinted lookup finds what the binary search finds, whatever the hint, on evenly
        /// and unevenly divided paths with repeated points.
        #[test]
        fn hinted_lookup_matches_the_binary_search(
            lengths in proptest::collection::vec(proptest::prop_oneof![proptest::strategy::Just(0.0f32), 0.01f32..50.0], 1..60),
            closed in proptest::bool::ANY,
            distances in proptest::collection::vec(-100.0f32..2000.0, 1..20),
            hints in proptest::collection::vec(0usize..80, 1..20),
        ) {
            let mut points = vec![v(0.0, 0.0)];
            let mut x = 0.0;
            for (idx, length) in lengths.iter().enumerate() {
                x += length;
                points.push(v(x, if idx % 2 == 0 { 0.0 } else { 0.001 }));
            }
            let path = Polyline::new(points, closed);
            for (&distance, &hint) in distances.iter().zip(hints.iter().cycle()) {
                let normalised = path.normalise_distance(distance);
                proptest::prop_assert_eq!(path.locate_near(normalised, hint), path.locate(normalised));
            }
        }

        /// The budget of a first move off the cursor's segment to the next always holds when the
        /// point lies past the shared vertex, as the forward descent assumes.
        #[test]
        fn a_first_move_past_the_vertex_is_always_within_budget(
            first in (-100.0f32..100.0, -100.0f32..100.0, -100.0f32..100.0),
            vertex in (-100.0f32..100.0, -100.0f32..100.0, -100.0f32..100.0),
            last in (-100.0f32..100.0, -100.0f32..100.0, -100.0f32..100.0),
            cursor_fraction in 0.0f32..1.0,
            offset in (-200.0f32..200.0, -200.0f32..200.0, -200.0f32..200.0),
            closed in proptest::bool::ANY,
        ) {
            let path = Polyline::new(
                vec![Vec3::from(first), Vec3::from(vertex), Vec3::from(last)],
                closed,
            );
            let (from, next) = (path.geometry(0), path.geometry(1));
            proptest::prop_assume!(from.length > 1e-3 && next.length > 1e-3);
            let point = Vec3::from(vertex) + Vec3::from(offset);
            proptest::prop_assume!((point - from.start).dot(from.direction) >= from.length);
            let cursor_distance = from.start_distance + cursor_fraction * from.length;
            let next_along = next.foot(point).0;
            proptest::prop_assert!(path.within_budget(point, cursor_distance, &from, next.start_distance + next_along));
        }
    }

    /// Every lane of `project_points_local_x4` against `project_point_local` from the same
    /// cursor: projection, cursor and direction, bit for bit.
    fn check_lanes(
        path: &Polyline,
        points: [Vec3; LANES],
        cursors: &mut [PathCursor; LANES],
        reacquire: f32,
    ) {
        let mut lanes = PathCursorX4::default();
        for (lane, cursor) in cursors.iter().enumerate() {
            lanes.set_lane(lane, *cursor);
        }
        let mut projections = PathProjectionX4::default();
        let mut directions = Vec3x4::ZERO;
        path.project_points_local_x4(
            Vec3x4::from_vecs(points),
            &mut lanes,
            reacquire,
            &mut projections,
            &mut directions,
        );
        for (lane, (cursor, point)) in cursors.iter_mut().zip(points).enumerate() {
            let single = path.project_point_local(point, cursor, reacquire);
            let bits = |p: PathProjection| {
                (
                    p.segment_idx,
                    [p.along_segment, p.distance_along, p.distance, p.point.x, p.point.y, p.point.z]
                        .map(f32::to_bits),
                )
            };
            assert_eq!(bits(projections.lane(lane)), bits(single), "{point} lane {lane}");
            let cursor_bits = |c: PathCursor| (c.segment_idx, c.distance_along.to_bits(), c.initialised);
            assert_eq!(cursor_bits(lanes.lane(lane)), cursor_bits(*cursor), "{point} lane {lane}");
            let direction = path.segment_direction(single.segment_idx);
            assert_eq!(
                directions.lane(lane).to_array().map(f32::to_bits),
                direction.to_array().map(f32::to_bits)
            );
        }
    }

    #[test]
    fn four_lane_projections_equal_four_single_ones_bit_for_bit() {
        let ring = |n: usize, closed: bool| {
            let points = (0..n)
                .map(|i| {
                    let angle = i as f32 / n as f32 * std::f32::consts::TAU;
                    v(400.0 * angle.cos(), 400.0 * angle.sin())
                })
                .collect();
            Polyline::new(points, closed)
        };
        let paths = [
            ring(32, true),
            ring(1024, true),
            ring(1024, false),
            ring(5, true),
            Polyline::new(vec![v(0.0, 0.0), v(400.0, 0.0), v(400.0, 60.0), v(0.0, 60.0)], false),
            Polyline::new(vec![v(0.0, 0.0), v(10.0, 0.0), v(10.0, 0.0), v(20.0, 0.0), v(20.0, 5.0)], true),
            Polyline::new(vec![v(5.0, 5.0)], false),
        ];
        // Deterministic points round the paths, stepping on as agents do (and sometimes jumping,
        // leaving the path, or not finite).
        let mut seed = 0x1234_5678_u32;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        };
        for path in &paths {
            for reacquire in [100.0, 5.0] {
                let mut cursors = [PathCursor::default(); LANES];
                let mut angles: [f32; LANES] = std::array::from_fn(|_| random() * std::f32::consts::TAU);
                let radii: [f32; LANES] = std::array::from_fn(|_| 380.0 + 40.0 * random());
                for step in 0..300 {
                    let points: [Vec3; LANES] = std::array::from_fn(|lane| {
                        let jump = random();
                        angles[lane] += if jump < 0.02 { 2.0 } else { 0.02 * random() - 0.002 };
                        let radius = if jump > 0.99 { 2000.0 } else { radii[lane] };
                        let point = v(radius * angles[lane].cos(), radius * angles[lane].sin());
                        if step == 150 && lane == 2 {
                            Vec3::new(f32::NAN, 0.0, 0.0)
                        } else if jump > 0.98 {
                            point + Vec3::Z * 30.0
                        } else {
                            point
                        }
                    });
                    check_lanes(path, points, &mut cursors, reacquire);
                }
            }
        }
    }
}
