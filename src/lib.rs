//! steerlab: a sandbox for steering behaviours, path following and 3D waypoint planning.
//!
//! The library holds the pure core (geometry, behaviours, planner, simulation, scene files);
//! the binary in `main.rs` adds the command line and the window. See the README's
//! Architecture section for the codemap and the invariants the modules keep.
//!
//! No unsafe code, with one fenced exception: `behaviours::branchless` (an empty inline-assembly
//! barrier that keeps bit-mask selects branch-free, and the processor's prefetch hint that the
//! step uses to fetch the next block of agents; each kept because it measured faster, see there).

#![deny(unsafe_code)]

pub mod app;
pub mod behaviours;
pub mod bench;
pub mod fuzz;
pub mod geometry;
pub mod input;
pub mod planner;
pub mod render;
pub mod scene;
pub mod sim;
pub mod ui;
