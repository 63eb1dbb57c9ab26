//! Pure geometry: polyline paths with coherent projection, parametric curves, and closed-form
//! casts against spheres. No window, no clock; everything here is deterministic `f32` math on
//! glam vectors (z up; 2D content lives on z = 0).

pub mod cast;
pub mod curve;
pub mod polyline;

pub use cast::{cast_sphere_sphere, project_point_segment, ray_toi_with_sphere, Sphere, SphereCastHit};
pub use curve::{Curve, CurveError, CurveKind};
pub use polyline::{PathCursor, PathProjection, Polyline};
