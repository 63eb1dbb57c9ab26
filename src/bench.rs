//! Benchmark kernels shared by `steerlab bench` and `cargo bench`.
