//! Prints the heading functions' speed (ns per call, best of 15 rounds over 1M random
//! directions): the branch-free `heading_atan2`, the same with plain `if`s, and libm's atan2.
fn main() {
    for (name, ns) in steerlab::bench::heading_timings(1_000_000, 15) {
        println!("{name:<30}{ns:>8.2} ns");
    }
}
