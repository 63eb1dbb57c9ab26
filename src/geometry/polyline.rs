//! Polyline paths (open or closed) with cumulative arc length, global projection and coherent
//! projection through a [`PathCursor`].
//!
//! CONTRACT (skeleton; the implementation fills the bodies and may add private helpers):
//! degenerate input (no points, one point, coincident points, zero-length segments) never
//! produces NaN or panics.

use glam::Vec3;

/// A path through points; `closed` adds the segment from the last point back to the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    points: Vec<Vec3>,
    /// `cumulative[i]` is the arc length from point 0 to point i; one extra entry (the total
    /// length) when closed.
    cumulative: Vec<f32>,
    closed: bool,
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

impl Polyline {
    /// Builds a path; any input is accepted (validation of scenes happens in `scene`).
    pub fn new(points: Vec<Vec3>, closed: bool) -> Polyline {
        let _ = (&points, closed);
        todo!("geometry helper")
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
    pub fn length(&self) -> f32 {
        self.cumulative.last().copied().unwrap_or(0.0)
    }
    /// Number of segments (points - 1 when open, points when closed with ≥ 2 points).
    pub fn segment_count(&self) -> usize {
        todo!("geometry helper")
    }
    /// End points of segment `segment_idx` (wrapping the index).
    pub fn segment(&self, segment_idx: usize) -> (Vec3, Vec3) {
        let _ = segment_idx;
        todo!("geometry helper")
    }
    /// Arc length at the start of segment `segment_idx`.
    pub fn segment_start_distance(&self, segment_idx: usize) -> f32 {
        let _ = segment_idx;
        todo!("geometry helper")
    }
    /// The point at arc length `distance` (wraps on closed paths, clamps on open ones).
    pub fn point_at_distance(&self, distance: f32) -> Vec3 {
        let _ = distance;
        todo!("geometry helper")
    }
    /// Unit direction of the path at arc length `distance` (zero for degenerate paths).
    pub fn direction_at_distance(&self, distance: f32) -> Vec3 {
        let _ = distance;
        todo!("geometry helper")
    }
    /// Closest point over the whole path.
    pub fn project_point(&self, point: Vec3) -> PathProjection {
        let _ = point;
        todo!("geometry helper")
    }
    /// Closest point on one segment.
    pub fn project_point_segment(&self, point: Vec3, segment_idx: usize) -> PathProjection {
        let _ = (point, segment_idx);
        todo!("geometry helper")
    }
    /// Coherent projection: the closest point whose arc length lies within `window` of the
    /// cursor's, falling back to [`Polyline::project_point`] when the cursor is uninitialised or
    /// the windowed result is farther than `reacquire_distance` while a global one is much
    /// closer. Updates the cursor. Cost grows with the number of segments the window covers, not
    /// with the path's segment count.
    pub fn project_point_coherent(
        &self,
        point: Vec3,
        cursor: &mut PathCursor,
        window: f32,
        reacquire_distance: f32,
    ) -> PathProjection {
        let _ = (point, cursor, window, reacquire_distance);
        todo!("geometry helper")
    }
}
