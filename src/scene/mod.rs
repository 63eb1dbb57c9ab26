//! Scene files, version 1.
