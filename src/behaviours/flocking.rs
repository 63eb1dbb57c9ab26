//! Flocking in one pass: separation, alignment and cohesion over the same neighbours, computed
//! together — the kernel crowds of thousands run every step.
//!
//! # Motivation
//! Reynolds' boids are the weighted sum of the three rules; each rule alone walks the neighbour
//! list, tests radius and view cone and takes a square root per neighbour. A flock of 10,000 does
//! that 30,000 times a step. Walking the list once, with one distance per neighbour, does the
//! same work a third as often (OpenSteer's boids demo and Yuka combine the rules the same way).
//!
//! # Implementation
//! The same formulas as `separation`, `alignment` and `cohesion`, accumulated in one loop: each
//! neighbour's offset and distance are computed once and tested against each rule's radius and
//! view cone (one cone test when the rules share a view angle). The result is the weighted sum
//! `w_s · separation + w_a · alignment + w_c · cohesion` of the three accelerations, each clamped
//! to `max_acceleration` as the separate functions clamp it — equal to calling them one by one
//! (a property test checks it against them as the oracle). The caller clamps the total (the
//! simulation does). [`flocking_over_runs`] is the same arithmetic over a flock kept in arrays
//! in a grid's cell order, read straight from runs of slots with each agent's unit heading
//! computed once per step (the simulation without gizmos and the flocking benchmark use it;
//! tested bit for bit against the neighbour-source version).
//!
//! # Parameters
//! The three rules' parameter structs and a weight each ([`FlockingWeights`]).

use super::alignment::AlignmentParams;
use super::cohesion::CohesionParams;
use super::neighbourhood::{cos_half_angle, forward, Neighbour, NeighbourSource, SlotRuns, View};
use super::param::{Param, ParamKind};
use super::separation::SeparationParams;
use super::vector::SteerVector;

pub mod lanes;
use super::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// The weights of the three flocking rules.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlockingWeights {
    /// Weight of separation (typically 1–3).
    pub separation: f32,
    /// Weight of alignment (typically 0.5–2).
    pub alignment: f32,
    /// Weight of cohesion (typically 0.5–2).
    pub cohesion: f32,
}

const fn weight(key: &'static str, label: &'static str, default: f32, help: &'static str) -> Param {
    Param { key, label, unit: "", min: 0.0, max: 10.0, default, help, kind: ParamKind::Float }
}

/// Weight of separation.
pub const SEPARATION_WEIGHT: Param =
    weight("separation", "separation weight", 2.0, "How strongly boids keep apart.");
/// Weight of alignment.
pub const ALIGNMENT_WEIGHT: Param =
    weight("alignment", "alignment weight", 1.0, "How strongly boids match their neighbours' velocity.");
/// Weight of cohesion.
pub const COHESION_WEIGHT: Param =
    weight("cohesion", "cohesion weight", 1.0, "How strongly boids move toward their neighbours' centre.");

impl FlockingWeights {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[SEPARATION_WEIGHT, ALIGNMENT_WEIGHT, COHESION_WEIGHT];
}

impl Default for FlockingWeights {
    fn default() -> Self {
        FlockingWeights {
            separation: SEPARATION_WEIGHT.default,
            alignment: ALIGNMENT_WEIGHT.default,
            cohesion: COHESION_WEIGHT.default,
        }
    }
}

/// The `flocking` entry of an agent's list: the three rules' weights and one neighbourhood
/// shared by alignment and cohesion (separation has its own, shorter, radius), seen through one
/// view cone. One entry rather than three so the simulation walks the neighbours once.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FlockingParams {
    /// Weight of separation (typically 1–3).
    pub separation: f32,
    /// Weight of alignment (typically 0.5–2).
    pub alignment: f32,
    /// Weight of cohesion (typically 0.5–2).
    pub cohesion: f32,
    /// Neighbours closer than this push the agent away (world units, typically 10–50).
    pub separation_radius: f32,
    /// Neighbours within this distance are matched and drawn toward (world units, 20–100).
    pub radius: f32,
    /// Full angle of the view cone (radians; 2π sees all around).
    pub view_angle: f32,
}

/// The separation radius of a `flocking` entry (the separation rule's declaration, renamed).
pub const SEPARATION_RADIUS: Param =
    Param { key: "separation_radius", label: "separation radius", ..super::separation::RADIUS };
/// The neighbour radius of a `flocking` entry (alignment and cohesion).
pub const NEIGHBOUR_RADIUS: Param = Param {
    help: "Neighbours within this distance are matched in velocity and pulled toward.",
    ..super::alignment::RADIUS
};

impl FlockingParams {
    /// Declaration of `separation` (a weight).
    pub const SEPARATION: Param = SEPARATION_WEIGHT;
    /// Declaration of `alignment` (a weight).
    pub const ALIGNMENT: Param = ALIGNMENT_WEIGHT;
    /// Declaration of `cohesion` (a weight).
    pub const COHESION: Param = COHESION_WEIGHT;
    /// Declaration of `separation_radius`.
    pub const SEPARATION_RADIUS: Param = SEPARATION_RADIUS;
    /// Declaration of `radius`.
    pub const RADIUS: Param = NEIGHBOUR_RADIUS;
    /// Declaration of `view_angle`.
    pub const VIEW_ANGLE: Param = super::neighbourhood::VIEW_ANGLE;
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[
        SEPARATION_WEIGHT,
        ALIGNMENT_WEIGHT,
        COHESION_WEIGHT,
        SEPARATION_RADIUS,
        NEIGHBOUR_RADIUS,
        super::neighbourhood::VIEW_ANGLE,
    ];

    /// The largest distance at which a neighbour counts (the query radius).
    pub fn query_radius(&self) -> f32 {
        let radius = self.separation_radius.max(self.radius);
        if radius.is_finite() {
            radius.max(0.0)
        } else {
            0.0
        }
    }
}

impl Default for FlockingParams {
    fn default() -> Self {
        FlockingParams {
            separation: SEPARATION_WEIGHT.default,
            alignment: ALIGNMENT_WEIGHT.default,
            cohesion: COHESION_WEIGHT.default,
            separation_radius: SEPARATION_RADIUS.default,
            radius: NEIGHBOUR_RADIUS.default,
            view_angle: super::neighbourhood::VIEW_ANGLE.default,
        }
    }
}

/// A `flocking` entry's request: [`flocking_from`] with its parameters, clamped to the agent's
/// `max_acceleration`, with gizmos (the neighbourhood circle, a link to each neighbour seen).
pub fn flocking_steering<S: NeighbourSource + ?Sized>(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &S,
    p: &FlockingParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let separation = SeparationParams { radius: p.separation_radius, view_angle: p.view_angle };
    let alignment = AlignmentParams { radius: p.radius, view_angle: p.view_angle };
    let cohesion = CohesionParams { radius: p.radius, view_angle: p.view_angle };
    let weights = FlockingWeights { separation: p.separation, alignment: p.alignment, cohesion: p.cohesion };
    let linear = flocking_from(k, limits, neighbours, &separation, &alignment, &cohesion, &weights)
        .clamp_length_max(limits.max_acceleration.max(0.0));
    if gizmos.is_enabled() {
        let radius = p.query_radius();
        gizmos.push(GizmoRole::NeighbourRadius, GizmoShape::Circle { center: k.position, radius });
        let view = View::new(k, radius, p.view_angle);
        neighbours.for_each_near(k.position, radius, |n| {
            if view.sees(n.position).is_some() {
                gizmos.push(GizmoRole::NeighbourLink, GizmoShape::Line(k.position, n.position));
            }
        });
        gizmos.push(GizmoRole::SteeringForce, GizmoShape::Arrow(k.position, k.position + linear * 0.25));
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

/// The weighted sum of separation, alignment and cohesion from one pass over `neighbours`.
#[inline]
pub fn flocking(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &[Neighbour],
    separation: &SeparationParams,
    alignment: &AlignmentParams,
    cohesion: &CohesionParams,
    weights: &FlockingWeights,
) -> Vec3 {
    flocking_from(k, limits, neighbours, separation, alignment, cohesion, weights)
}

/// [`flocking`] over any [`NeighbourSource`] (the world's spatial hash): the same arithmetic in
/// the same order as over a slice of the same neighbours in the same order.
#[inline]
pub fn flocking_from<S: NeighbourSource + ?Sized>(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &S,
    separation: &SeparationParams,
    alignment: &AlignmentParams,
    cohesion: &CohesionParams,
    weights: &FlockingWeights,
) -> Vec3 {
    let rules = FlockRules::new(separation, alignment, cohesion, weights);
    let mut sums = FlockSums::new(forward(k));
    neighbours.for_each_near_with_heading(k.position, rules.max_r2.sqrt(), |n, heading| {
        sums.add(&rules, k.position, n.position, heading);
    });
    sums.finish(&rules, k.velocity, limits)
}

/// [`flocking_from`] over a flock kept in arrays, read straight from runs of slots: `positions`
/// and `headings` (each velocity's `normalize_or_zero()`) in one order; `runs` gives the slot
/// ranges that may hold the agents within a radius of `k` (a spatial grid's cells around it,
/// such as the world's `NeighbourGrid`), asked for the radius the rules need; slot `me` is
/// skipped (an agent on its own point is never a neighbour anyway). `also(slot, position,
/// heading)` is called for every agent within the query radius other than slot `me`, before the
/// rules look at it, in slot-run order: the flocking benchmark counts neighbours with it, the
/// simulation's crowd metrics take their sample with it (no second walk when their radius is
/// the query's). Exactly the arithmetic of [`flocking_from`] over a source that passes the same
/// slots within the query radius in the same order (tested bit for bit), without a closure per
/// neighbour: the flocking benchmark's and the simulation's hot loop.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn flocking_over_runs<R: SlotRuns + ?Sized>(
    k: &Kinematics,
    limits: &Limits,
    positions: &[Vec3],
    headings: &[Vec3],
    runs: &R,
    me: usize,
    separation: &SeparationParams,
    alignment: &AlignmentParams,
    cohesion: &CohesionParams,
    weights: &FlockingWeights,
    also: impl FnMut(usize, Vec3, Vec3),
) -> Vec3 {
    let rules = FlockRules::new(separation, alignment, cohesion, weights);
    flocking_over_runs_of(
        k.position,
        k.velocity,
        forward(k),
        limits,
        positions,
        headings,
        runs,
        me,
        &rules,
        also,
    )
}

/// The three rules' parameters as the walk over the neighbours tests them: radii (negative ones
/// count as 0) and their squares, the cosines of the half view angles, and the weights. Worked
/// out once for a flock that shares them (the flocking benchmark: once a step instead of once a
/// boid), or per call.
#[derive(Clone, Copy, Debug)]
pub struct FlockRules {
    weights: FlockingWeights,
    sep_radius: f32,
    sep_cos: f32,
    ali_cos: f32,
    coh_radius: f32,
    coh_cos: f32,
    sep_r2: f32,
    ali_r2: f32,
    coh_r2: f32,
    max_r2: f32,
}

impl FlockRules {
    /// The rules of a `flocking` entry's parameters, as [`flocking_steering_over_runs`] makes
    /// them.
    #[inline(always)]
    pub fn of(p: &FlockingParams) -> FlockRules {
        let separation = SeparationParams { radius: p.separation_radius, view_angle: p.view_angle };
        let alignment = AlignmentParams { radius: p.radius, view_angle: p.view_angle };
        let cohesion = CohesionParams { radius: p.radius, view_angle: p.view_angle };
        let weights =
            FlockingWeights { separation: p.separation, alignment: p.alignment, cohesion: p.cohesion };
        FlockRules::new(&separation, &alignment, &cohesion, &weights)
    }

    /// The rules of `separation`, `alignment` and `cohesion`, weighted by `weights`.
    #[inline(always)]
    pub fn new(
        separation: &SeparationParams,
        alignment: &AlignmentParams,
        cohesion: &CohesionParams,
        weights: &FlockingWeights,
    ) -> FlockRules {
        let (sep_radius, ali_radius, coh_radius) =
            (view_radius(separation.radius), view_radius(alignment.radius), view_radius(cohesion.radius));
        let (sep_r2, ali_r2, coh_r2) = (sq(sep_radius), sq(ali_radius), sq(coh_radius));
        FlockRules {
            weights: *weights,
            sep_radius,
            sep_cos: cos_half_angle(separation.view_angle),
            ali_cos: cos_half_angle(alignment.view_angle),
            coh_radius,
            coh_cos: cos_half_angle(cohesion.view_angle),
            sep_r2,
            ali_r2,
            coh_r2,
            max_r2: sep_r2.max(ali_r2).max(coh_r2),
        }
    }
}

/// [`flocking_over_runs`] for an agent at `position` moving at `velocity` and facing `forward`
/// (its [`forward`]), in 3D or in a plane ([`SteerVector`]): a planar flock's `x` and `y` are the
/// 3D arithmetic's, bit for bit (see [`super::vector`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn flocking_over_runs_of<V: SteerVector, R: SlotRuns + ?Sized>(
    position: V,
    velocity: V,
    forward: V,
    limits: &Limits,
    positions: &[V],
    headings: &[V],
    runs: &R,
    me: usize,
    rules: &FlockRules,
    also: impl FnMut(usize, V, V),
) -> V {
    flocking_sums_over_runs_of(position, forward, positions, headings, runs, me, rules, also)
        .finish(rules, velocity, limits)
}

/// The walk of [`flocking_over_runs_of`] alone: the rules' running sums over the neighbours of
/// the agent at `position` facing `forward`, to be finished ([`FlockSums::finish`]) by the
/// caller (the flocking benchmark walks a block of boids, then finishes them together in lanes:
/// [`lanes`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn flocking_sums_over_runs_of<V: SteerVector, R: SlotRuns + ?Sized>(
    position: V,
    forward: V,
    positions: &[V],
    headings: &[V],
    runs: &R,
    me: usize,
    rules: &FlockRules,
    mut also: impl FnMut(usize, V, V),
) -> FlockSums<V> {
    let mut sums = FlockSums::new(forward);
    let query = rules.max_r2.sqrt();
    let query_r2 = query * query;
    // A non-finite point is never within a finite radius (its distance is ∞ or NaN), so only an
    // unbounded query tests finiteness, as the grid does.
    let unbounded = !query_r2.is_finite();
    runs.for_each_run(position.to_vec3(), query, |run| {
        let (Some(run_positions), Some(run_headings)) =
            (positions.get(run.clone()), headings.get(run.clone()))
        else {
            return;
        };
        // The grid's own test (distance within the query radius, finite points only) picks the
        // neighbours among the run's candidates without a branch: each candidate's offset is
        // written, and the count of picked ones moves on by the test's outcome. A branch here
        // was the step's most mispredicted one (about one candidate in three is a neighbour, in
        // no pattern: 5 of the planar flock's 9.5 mispredicted branches a boid, callgrind's
        // branch simulation). Then the picked ones, in slot order, go through the rules' tests
        // in `add`: the same sums, bit for bit, as testing and adding one by one.
        if run_positions.len() <= PICK_BATCH {
            let mut picked = [0u8; PICK_BATCH];
            let mut count = 0usize;
            for (offset, &other) in run_positions.iter().enumerate() {
                let near = (other - position).length_squared() <= query_r2;
                let take = near & (run.start + offset != me) & (!unbounded | other.is_finite());
                // `count` < PICK_BATCH here (at most one a candidate); the mask says so.
                picked[count & (PICK_BATCH - 1)] = offset as u8;
                count += usize::from(take);
            }
            for &offset in picked.get(..count).unwrap_or_default() {
                let offset = usize::from(offset);
                if let (Some(&other), Some(&heading)) = (run_positions.get(offset), run_headings.get(offset))
                {
                    also(run.start + offset, other, heading);
                    sums.add(rules, position, other, heading);
                }
            }
        } else {
            // A crowded row of cells: one candidate at a time.
            for (offset, (&other, &heading)) in run_positions.iter().zip(run_headings).enumerate() {
                let near = (other - position).length_squared() <= query_r2;
                let slot = run.start + offset;
                if near && slot != me && (!unbounded || other.is_finite()) {
                    also(slot, other, heading);
                    sums.add(rules, position, other, heading);
                }
            }
        }
    });
    sums
}

/// The longest run of candidates picked without a branch (a power of two; a longer run, a
/// crowded row of cells, is walked one candidate at a time).
const PICK_BATCH: usize = 32;

/// [`flocking_steering`] without gizmos over a flock kept in arrays ([`flocking_over_runs`],
/// `also` as there): the simulation's fast path, the same request bit for bit.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn flocking_steering_over_runs<R: SlotRuns + ?Sized>(
    k: &Kinematics,
    limits: &Limits,
    positions: &[Vec3],
    headings: &[Vec3],
    runs: &R,
    me: usize,
    p: &FlockingParams,
    also: impl FnMut(usize, Vec3, Vec3),
) -> Steering {
    let separation = SeparationParams { radius: p.separation_radius, view_angle: p.view_angle };
    let alignment = AlignmentParams { radius: p.radius, view_angle: p.view_angle };
    let cohesion = CohesionParams { radius: p.radius, view_angle: p.view_angle };
    let weights = FlockingWeights { separation: p.separation, alignment: p.alignment, cohesion: p.cohesion };
    let linear = flocking_over_runs(
        k,
        limits,
        positions,
        headings,
        runs,
        me,
        &separation,
        &alignment,
        &cohesion,
        &weights,
        also,
    );
    let linear = linear.clamp_length_max(limits.max_acceleration.max(0.0));
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

/// [`flocking_steering_over_runs`] from the walk's sums, taken beforehand
/// ([`flocking_sums_over_runs_of`] with [`FlockRules::of`] the same parameters, along the
/// agent's [`forward`]; then [`FlockSums::pull`]), for an agent moving at `velocity`: the same request bit for bit (the
/// simulation walks a uniform flock in the grid's slot order before the agents' step).
#[inline(always)]
pub fn flocking_steering_from_sums(
    velocity: Vec3,
    limits: &Limits,
    pull: FlockPull<Vec3>,
    rules: &FlockRules,
) -> Steering {
    let linear = pull.finish(rules, velocity, limits).clamp_length_max(limits.max_acceleration.max(0.0));
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

/// What the end of one boid's flock step needs once its neighbours are walked: its state, the
/// facing direction the walk looked along, its wander target (the circle's, in the local frame)
/// with the generator's draw for this step, and the rules' sums ([`flocking_sums_over_runs_of`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tail<V> {
    /// Position.
    pub position: V,
    /// Velocity.
    pub velocity: V,
    /// The facing direction ([`super::vector::facing_heading`]).
    pub forward: V,
    /// The wander target on the circle (x forward, y left).
    pub target: V,
    /// The wander generator's draw for this step (`next_signed_pair`).
    pub draw: (f32, f32),
    /// The rules' sums over the neighbours.
    pub sums: FlockSums<V>,
}

/// What the end of a boid's flock step gives: where it moved (before any wrap), its velocity,
/// and its wander target to keep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TailOut<V> {
    /// The new position.
    pub position: V,
    /// The new velocity.
    pub velocity: V,
    /// The new wander target.
    pub target: V,
}

/// What every boid's tail of a flock shares: the rules, the limits, wander's parameters and
/// weight, and the step.
#[derive(Clone, Copy, Debug)]
pub struct TailShared {
    /// The three rules and their weights.
    pub rules: FlockRules,
    /// The boids' limits.
    pub limits: Limits,
    /// Wander's parameters.
    pub wander: super::wander::WanderParams,
    /// Wander's weight, added to the rules' sum.
    pub wander_weight: f32,
    /// The step in seconds.
    pub dt: f32,
}

impl<V: SteerVector> Tail<V> {
    /// A boid at rest at the origin with no neighbours (filler for a block's buffer).
    pub fn idle() -> Tail<V> {
        Tail {
            position: V::ZERO,
            velocity: V::ZERO,
            forward: V::ZERO,
            target: V::ZERO,
            draw: (0.0, 0.0),
            sums: FlockSums::new(V::ZERO),
        }
    }

    /// The end of the step, one boid: wander's aim from its draw, the rules' weighted sum, wander
    /// added at its weight, then the dynamic step within the limits (`sim::accelerate`). The
    /// oracle of [`lanes`]' eight-at-a-time version, which gives the same bits.
    #[inline(always)]
    pub fn finish(&self, shared: &TailShared) -> TailOut<V> {
        let TailShared { rules, limits, wander, wander_weight, dt } = shared;
        let (aim, target) = super::wander::wander_aim_drawn(
            self.position,
            self.velocity,
            self.forward,
            limits,
            self.target,
            self.draw,
            wander,
            *dt,
        );
        let mut linear = self.sums.finish(rules, self.velocity, limits);
        linear += aim.linear * *wander_weight;
        let (position, velocity) = crate::sim::accelerate(self.position, self.velocity, linear, limits, *dt);
        TailOut { position, velocity, target }
    }
}

/// The ends of the flock steps of a block of boids: `outs[i]` is `tails[i].finish(shared)`,
/// for a 2D flock eight at a time in SIMD lanes ([`lanes`], the same bits), otherwise one at a
/// time.
#[inline(always)]
pub fn finish_tails<V: SteerVector>(tails: &[Tail<V>], outs: &mut [TailOut<V>], shared: &TailShared) {
    V::finish_flock_tails(tails, outs, shared);
}

/// The running sums of the three rules over the neighbours of one agent facing `forward`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockSums<V> {
    forward: V,
    push: V,
    velocity_sum: V,
    n_align: u32,
    offset_sum: V,
    n_cohere: u32,
}

impl<V: SteerVector> Default for FlockSums<V> {
    /// No neighbour yet, facing nowhere.
    fn default() -> Self {
        FlockSums::new(V::ZERO)
    }
}

impl<V: SteerVector> FlockSums<V> {
    #[inline(always)]
    fn new(forward: V) -> FlockSums<V> {
        FlockSums {
            forward,
            push: V::ZERO,
            velocity_sum: V::ZERO,
            n_align: 0,
            offset_sum: V::ZERO,
            n_cohere: 0,
        }
    }

    /// One neighbour at `position` with unit heading `heading`, seen from `me`.
    #[inline(always)]
    fn add(&mut self, rules: &FlockRules, me: V, position: V, heading: V) {
        let offset = position - me;
        let d2 = offset.length_squared();
        if !(d2 > 0.0 && d2 <= rules.max_r2) {
            return;
        }
        let d = d2.sqrt();
        let along = offset.dot(self.forward);
        let seen = |cos_half_angle: f32, r2: f32| {
            d2 <= r2 && (cos_half_angle <= -1.0 || along >= cos_half_angle * d)
        };
        if seen(rules.sep_cos, rules.sep_r2) {
            self.push -= offset * ((1.0 - d / rules.sep_radius) / d);
        }
        if seen(rules.ali_cos, rules.ali_r2) {
            self.velocity_sum += heading;
            self.n_align += 1;
        }
        if seen(rules.coh_cos, rules.coh_r2) {
            self.offset_sum += offset;
            self.n_cohere += 1;
        }
    }

    /// The weighted sum of the three rules' accelerations for an agent moving at `velocity`
    /// ([`FlockPull::finish`] of [`Self::pull`]).
    #[inline(always)]
    pub fn finish(self, rules: &FlockRules, velocity: V, limits: &Limits) -> V {
        self.pull().finish(rules, velocity, limits)
    }

    /// What [`Self::finish`] reads of the sums, worked out: the separation push clamped to unit
    /// length, the neighbours' mean heading (zero when none is aligned with), their mean offset
    /// and whether any is cohered with. Smaller than the sums (the simulation keeps one per
    /// agent between the flock's walk and its step: 40 bytes against 56).
    #[inline(always)]
    pub fn pull(self) -> FlockPull<V> {
        FlockPull {
            separation: self.push.clamp_length_max(1.0),
            heading: if self.n_align > 0 { self.velocity_sum.normalize_or_zero() } else { V::ZERO },
            mean_offset: if self.n_cohere > 0 { self.offset_sum / self.n_cohere as f32 } else { V::ZERO },
            cohere: self.n_cohere > 0,
        }
    }
}

/// The three rules' pull on one agent before its own velocity and limits are known
/// ([`FlockSums::pull`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockPull<V> {
    separation: V,
    heading: V,
    mean_offset: V,
    cohere: bool,
}

impl<V: SteerVector> Default for FlockPull<V> {
    /// No neighbour.
    fn default() -> Self {
        FlockSums::default().pull()
    }
}

impl<V: SteerVector> FlockPull<V> {
    /// The weighted sum of the three rules' accelerations for an agent moving at `velocity`.
    #[inline(always)]
    pub fn finish(self, rules: &FlockRules, velocity: V, limits: &Limits) -> V {
        let weights = &rules.weights;
        let max_speed = limits.max_speed.max(0.0);
        let separation_acc = self.separation * limits.max_acceleration.max(0.0);
        let heading = self.heading;
        let alignment_acc = if heading != V::ZERO {
            accelerate_toward_velocity(velocity, heading * max_speed, STEER_TIME, limits.max_acceleration)
        } else {
            V::ZERO
        };
        let cohesion_acc = if self.cohere && rules.coh_radius > 0.0 {
            let desired = (self.mean_offset * (max_speed / rules.coh_radius)).clamp_length_max(max_speed);
            accelerate_toward_velocity(velocity, desired, STEER_TIME, limits.max_acceleration)
        } else {
            V::ZERO
        };
        let total = separation_acc * weights.separation
            + alignment_acc * weights.alignment
            + cohesion_acc * weights.cohesion;
        if total.is_finite() {
            total
        } else {
            V::ZERO
        }
    }
}

#[inline(always)]
fn sq(x: f32) -> f32 {
    x * x
}

/// A view's radius ([`View::with_forward`]'s).
#[inline(always)]
fn view_radius(radius: f32) -> f32 {
    radius.max(0.0)
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::super::{alignment, cohesion, separation};
    use super::*;
    use proptest::prelude::*;

    fn accel(s: Steering) -> Vec3 {
        match s {
            Steering::Acceleration(a) => a,
            _ => Vec3::ZERO,
        }
    }

    proptest! {
        /// The one-pass kernel equals the three behaviours called one by one (the oracle).
        #[test]
        fn one_pass_equals_the_three_rules_weighted(
            k in testing::kinematics(), limits in testing::limits(), neighbours in testing::neighbours(),
            radii in (0.0f32..600.0, 0.0f32..600.0, 0.0f32..600.0),
            angles in (0.0f32..7.0, 0.0f32..7.0, 0.0f32..7.0),
            ws in (0.0f32..10.0, 0.0f32..10.0, 0.0f32..10.0),
        ) {
            let sp = SeparationParams { radius: radii.0, view_angle: angles.0 };
            let ap = AlignmentParams { radius: radii.1, view_angle: angles.1 };
            let cp = CohesionParams { radius: radii.2, view_angle: angles.2 };
            let w = FlockingWeights { separation: ws.0, alignment: ws.1, cohesion: ws.2 };
            let g = &mut Gizmos::disabled();
            let oracle = accel(separation::separation(&k, &limits, &neighbours, &sp, g)) * w.separation
                + accel(alignment::alignment(&k, &limits, &neighbours, &ap, g)) * w.alignment
                + accel(cohesion::cohesion(&k, &limits, &neighbours, &cp, g)) * w.cohesion;
            let fused = flocking(&k, &limits, &neighbours, &sp, &ap, &cp, &w);
            let scale = 1.0 + limits.max_acceleration * (w.separation + w.alignment + w.cohesion);
            prop_assert!((fused - oracle).length() <= 1e-4 * scale, "fused {} oracle {}", fused, oracle);
        }
    }
}
