//! Painting flow fields (the Paint tool): which painted field a stroke paints, a new field when
//! the scene has none, one segment of a stroke, and deleting a field.
//!
//! A stroke paints the field the selected agent reads (through any of its entries), else the
//! scene's first painted field; when the scene has none, the first stroke starts one covering
//! the view (cells [`CELL_SIZE`] wide, coarser when the view is so large that a side would pass
//! [`NEW_FIELD_MAX_SIDE`] cells). Only cells inside the field's grid take paint.

use std::sync::Arc;

use glam::Vec3;

use super::unique_id;
use crate::behaviours::flow_field::{FlowField, CELL_SIZE};
use crate::sim::{Behaviour, NamedField, World};

/// The most cells along a side of a field the Paint tool starts.
pub const NEW_FIELD_MAX_SIDE: usize = 256;

/// The painted field a stroke paints: the one the agent `agent` reads (main behaviour first,
/// then its entries), else the first of the scene; None when the scene has none.
pub fn paint_target(world: &World, agent: Option<usize>) -> Option<usize> {
    let reads = |b: &Behaviour| match b {
        Behaviour::FlowField { field: Some(f), .. } if *f < world.fields.len() => Some(*f),
        _ => None,
    };
    agent
        .and_then(|i| world.agents.get(i))
        .and_then(|a| {
            std::iter::once(&a.behaviour).chain(a.mix.more.iter().map(|e| &e.behaviour)).find_map(reads)
        })
        .or((!world.fields.is_empty()).then_some(0))
}

/// Adds a blank painted field covering the rectangle between `corner_a` and `corner_b` (the
/// view), its corner on a multiple of the cell size; returns its index. None for a rectangle
/// that is not finite.
pub fn add_field_covering(world: &mut World, corner_a: Vec3, corner_b: Vec3) -> Option<usize> {
    if !(corner_a.is_finite() && corner_b.is_finite()) {
        return None;
    }
    let (lo, hi) = (corner_a.min(corner_b), corner_a.max(corner_b));
    let longest = (hi.x - lo.x).max(hi.y - lo.y);
    let cell = CELL_SIZE.default.max(longest / NEW_FIELD_MAX_SIDE as f32).min(CELL_SIZE.max);
    let origin = Vec3::new((lo.x / cell).floor() * cell, (lo.y / cell).floor() * cell, 0.0);
    let side = |extent: f32| (((extent / cell).ceil() as usize) + 1).clamp(1, NEW_FIELD_MAX_SIDE);
    let field =
        FlowField::from_fn(origin, cell, side(hi.x - origin.x), side(hi.y - origin.y), |_| Vec3::ZERO)
            .ok()?;
    let id = unique_id(world.fields.iter().map(|f| f.id.as_str()), "painted");
    world.fields.push(NamedField { id, field: Arc::new(field) });
    Some(world.fields.len() - 1)
}

/// Paints the segment `from`–`to` of a stroke into field `field` with a brush of `radius`: the
/// cells within reach take the segment's direction. Returns how many cells changed.
pub fn paint(world: &mut World, field: usize, from: Vec3, to: Vec3, radius: f32) -> usize {
    match world.fields.get_mut(field) {
        Some(named) => Arc::make_mut(&mut named.field).paint_segment(from, to, radius, to - from),
        None => 0,
    }
}

/// Deletes painted field `field`: every entry that reads it reads no painted field any more (a
/// noise field, or its path's), and entries reading a later field follow it to its new index.
/// Returns what happened, for the status bar (nothing for an index out of range).
pub fn delete_field(world: &mut World, field: usize) -> String {
    if field >= world.fields.len() {
        return String::new();
    }
    let named = world.fields.remove(field);
    let mut cut = 0;
    for agent in &mut world.agents {
        let entries = std::iter::once(&mut agent.behaviour)
            .chain(agent.mix.entries_mut().iter_mut().map(|e| &mut e.behaviour));
        for behaviour in entries {
            if let Behaviour::FlowField { field: read, .. } = behaviour {
                match *read {
                    Some(f) if f == field => {
                        *read = None;
                        cut += 1;
                    }
                    Some(f) if f > field => *read = Some(f - 1),
                    _ => {}
                }
            }
        }
    }
    match cut {
        0 => format!("deleted the painted field {}", named.id),
        1 => format!(
            "deleted the painted field {}: the entry that read it reads a noise field or its path",
            named.id
        ),
        n => format!(
            "deleted the painted field {}: the {n} entries that read it read a noise field or their path",
            named.id
        ),
    }
}
