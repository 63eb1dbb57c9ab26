//! The simulation: World, agents, fixed step, events and metrics.
