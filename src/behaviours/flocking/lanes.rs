//! The end of a planar flock's step, eight boids at a time in SIMD lanes.
//!
//! # Motivation
//! Once a boid's neighbours are walked, the rest of its step — the three rules' clamped
//! accelerations, wander's aim, the dynamic step — is a fixed sequence of about fifteen square
//! roots and divisions, each waiting on the one before: one boid at a time, the processor
//! waits on that chain. The sequence is the same for every boid, so eight boids can run it
//! side by side, one lane each, in the time of one (`wide`'s `f32x8`: two SSE registers, or
//! one AVX register where the build targets it).
//!
//! # Why the bits are the scalar ones
//! Every lane does exactly the operations [`Tail::finish`] does for one boid, in the same
//! order: IEEE addition, multiplication, division and square root are correctly rounded in SIMD
//! as in scalar code, nothing is fused (no multiply-add), and a scalar branch becomes a
//! lane-wise select of two sides both worked out (the side not taken may be NaN or infinite;
//! it is thrown away, as the branch never computed it). glam's `normalize_or_zero` and
//! `clamp_length_max` are spelled out below as glam 0.27 writes them. Tested bit for bit
//! against [`Tail::finish`] on random boids, on special values (zeros of both signs,
//! infinities, NaN, huge and tiny numbers; a NaN's payload may differ, since which NaN operand
//! an operation passes on follows the operand order the compiler picks) and on whole flocks
//! (`the_planar_flock_kernel_moves_every_boid_as_the_3d_oracle_bit_for_bit` in `bench`).
//!
//! # Why not `geometry::lanes`
//! The crate's other lane vectors, `Vec3x4` in `geometry/lanes.rs` (the predictive-following
//! kernel's), are four 3D vectors; these are eight 2D ones, kept apart on purpose. A 3D type with a
//! zero `z` would carry a register of zeros through every operation and add `z·z'` after glam's 2D
//! `dot` (the same bits for a length, not always for the dot of two vectors: `-0 + 0` is `+0`); and
//! eight lanes run eight boids' chains side by side, where the path projections and cursors
//! `Vec3x4` serves are built around groups of four. What the two could share is a handful of
//! one-line lane-wise operations (`clamp_length_max` is the same formula in both), and sharing them
//! would take a trait over `wide`'s register types: more code than it saves. Both are tested bit
//! for bit against glam.

use super::{Tail, TailOut, TailShared};
use crate::behaviours::STEER_TIME;
use glam::Vec2;
use wide::f32x8;

/// Boids per group of lanes.
pub const LANES: usize = 8;

/// `outs[i] = tails[i].finish(shared)` for every `i`, the full groups of [`LANES`] boids in
/// lanes and the rest one at a time.
#[inline(always)]
pub fn finish_tails(tails: &[Tail<Vec2>], outs: &mut [TailOut<Vec2>], shared: &TailShared) {
    let n = tails.len().min(outs.len());
    let (tails, outs) = (&tails[..n], &mut outs[..n]);
    let mut groups = tails.chunks_exact(LANES);
    let mut out_groups = outs.chunks_exact_mut(LANES);
    let shared_lanes = Shared::new(shared);
    for (group, out) in (&mut groups).zip(&mut out_groups) {
        finish_eight(group, out, &shared_lanes);
    }
    for (tail, out) in groups.remainder().iter().zip(out_groups.into_remainder()) {
        *out = tail.finish(shared);
    }
}

/// Eight `Vec2`s, one per lane: their x in one `f32x8`, their y in another.
/// (Not `geometry::lanes::Vec3x4`, four 3D vectors, on purpose: see the module's documentation.)
#[derive(Clone, Copy)]
struct V2 {
    x: f32x8,
    y: f32x8,
}

const ZERO: f32x8 = f32x8::ZERO;
const ONE: f32x8 = f32x8::ONE;

impl V2 {
    const ZERO: V2 = V2 { x: ZERO, y: ZERO };

    #[inline(always)]
    fn gather(tails: &[Tail<Vec2>], f: impl Fn(&Tail<Vec2>) -> Vec2) -> V2 {
        let v: [Vec2; LANES] = std::array::from_fn(|i| tails.get(i).map(&f).unwrap_or(Vec2::ZERO));
        V2 { x: f32x8::new(v.map(|v| v.x)), y: f32x8::new(v.map(|v| v.y)) }
    }

    #[inline(always)]
    fn add(self, o: V2) -> V2 {
        V2 { x: self.x + o.x, y: self.y + o.y }
    }

    #[inline(always)]
    fn sub(self, o: V2) -> V2 {
        V2 { x: self.x - o.x, y: self.y - o.y }
    }

    /// `self * s` (glam's `Vec2 * f32`, and `f32 * Vec2`: the products are the same).
    #[inline(always)]
    fn scale(self, s: f32x8) -> V2 {
        V2 { x: self.x * s, y: self.y * s }
    }

    /// glam's `Vec2 / f32`.
    #[inline(always)]
    fn div(self, s: f32x8) -> V2 {
        V2 { x: self.x / s, y: self.y / s }
    }

    /// glam's `dot`: `(x·x') + (y·y')`.
    #[inline(always)]
    fn dot(self, o: V2) -> f32x8 {
        (self.x * o.x) + (self.y * o.y)
    }

    /// glam 0.27's `normalize_or_zero`: `rcp = 1 / sqrt(dot(self, self))`; `self · rcp` when
    /// `rcp` is finite and positive, else zero.
    #[inline(always)]
    fn normalize_or_zero(self) -> V2 {
        let rcp = ONE / self.dot(self).sqrt();
        let ok = rcp.is_finite() & rcp.simd_gt(ZERO);
        V2 { x: ok.select(self.x * rcp, ZERO), y: ok.select(self.y * rcp, ZERO) }
    }

    /// glam 0.27's `clamp_length_max`: when `|self|² > max²`, `max · (self / sqrt(|self|²))`,
    /// else `self`.
    #[inline(always)]
    fn clamp_length_max(self, max: f32x8) -> V2 {
        let length_sq = self.dot(self);
        let over = length_sq.simd_gt(max * max);
        let length = length_sq.sqrt();
        V2 {
            x: over.select(max * (self.x / length), self.x),
            y: over.select(max * (self.y / length), self.y),
        }
    }

    /// All ones in the lanes whose x and y are both finite.
    #[inline(always)]
    fn is_finite(self) -> f32x8 {
        self.x.is_finite() & self.y.is_finite()
    }

    /// All ones in the lanes equal to the zero vector (`-0` counts as `0`, as `==` does).
    #[inline(always)]
    fn is_zero(self) -> f32x8 {
        self.x.simd_eq(ZERO) & self.y.simd_eq(ZERO)
    }

    /// `mask ? self : other`, lane by lane.
    #[inline(always)]
    fn or(self, mask: f32x8, other: V2) -> V2 {
        V2 { x: mask.select(self.x, other.x), y: mask.select(self.y, other.y) }
    }
}

/// The numbers of [`TailShared`] the lanes use, each in every lane, worked out as the scalar
/// code works them out.
struct Shared {
    max_speed: f32x8,
    max_acceleration: f32x8,
    steer_time: f32x8,
    separation: f32x8,
    alignment: f32x8,
    cohesion: f32x8,
    cohesion_scale: f32x8,
    cohesion_on: bool,
    wander_step: f32x8,
    wander_radius: f32x8,
    wander_distance: f32x8,
    wander_weight: f32x8,
    dt: f32x8,
}

impl Shared {
    fn new(shared: &TailShared) -> Shared {
        let TailShared { rules, limits, wander, wander_weight, dt } = shared;
        let max_speed = limits.max_speed.max(0.0);
        let radius = wander.radius.max(0.0);
        let step = if radius > 0.0 { (wander.jitter.max(0.0) * dt.max(0.0)) / radius } else { 0.0 };
        Shared {
            max_speed: f32x8::splat(max_speed),
            max_acceleration: f32x8::splat(limits.max_acceleration.max(0.0)),
            steer_time: f32x8::splat(STEER_TIME.max(1e-4)),
            separation: f32x8::splat(rules.weights.separation),
            alignment: f32x8::splat(rules.weights.alignment),
            cohesion: f32x8::splat(rules.weights.cohesion),
            cohesion_scale: f32x8::splat(max_speed / rules.coh_radius),
            cohesion_on: rules.coh_radius > 0.0,
            wander_step: f32x8::splat(step),
            wander_radius: f32x8::splat(radius),
            wander_distance: f32x8::splat(wander.distance.max(0.0)),
            wander_weight: f32x8::splat(*wander_weight),
            dt: f32x8::splat(*dt),
        }
    }

    /// `accelerate_toward_velocity(velocity, desired, STEER_TIME, max_acceleration)`.
    #[inline(always)]
    fn accelerate_toward(&self, velocity: V2, desired: V2) -> V2 {
        desired.sub(velocity).div(self.steer_time).clamp_length_max(self.max_acceleration)
    }
}

/// [`Tail::finish`] for eight boids, one per lane.
#[inline(always)]
fn finish_eight(tails: &[Tail<Vec2>], outs: &mut [TailOut<Vec2>], c: &Shared) {
    let position = V2::gather(tails, |t| t.position);
    let velocity = V2::gather(tails, |t| t.velocity);
    let forward = V2::gather(tails, |t| t.forward);
    let target = V2::gather(tails, |t| t.target);
    let draw = V2::gather(tails, |t| Vec2::new(t.draw.0, t.draw.1));
    let push = V2::gather(tails, |t| t.sums.push);
    let velocity_sum = V2::gather(tails, |t| t.sums.velocity_sum);
    let offset_sum = V2::gather(tails, |t| t.sums.offset_sum);
    let counts = V2::gather(tails, |t| Vec2::new(t.sums.n_align as f32, t.sums.n_cohere as f32));
    let (n_align, n_cohere) = (counts.x, counts.y);

    // Wander (`wander_aim_drawn`).
    let moved = target.add(draw.scale(c.wander_step)).normalize_or_zero();
    let stuck = moved.is_zero() | !moved.is_finite();
    let moved = V2 { x: ONE, y: ZERO }.or(stuck, moved);
    // (-y, x): the sign flipped by its bit, as `-` does.
    let left = V2 { x: forward.y ^ f32x8::splat(-0.0), y: forward.x }.normalize_or_zero();
    let centre = position.add(forward.scale(c.wander_distance));
    let aim = centre.add(forward.scale(moved.x).add(left.scale(moved.y)).scale(c.wander_radius));
    let desired = aim.sub(position).normalize_or_zero().scale(c.max_speed);
    let wander = c.accelerate_toward(velocity, desired);
    let wander = wander.or(wander.is_finite(), V2::ZERO);

    // The rules (`FlockSums::finish`).
    let separation = push.clamp_length_max(ONE).scale(c.max_acceleration);
    let heading = velocity_sum.normalize_or_zero();
    let aligning = n_align.simd_gt(ZERO) & !heading.is_zero();
    let alignment = c.accelerate_toward(velocity, heading.scale(c.max_speed)).or(aligning, V2::ZERO);
    let cohering = n_cohere.simd_gt(ZERO) & if c.cohesion_on { !ZERO } else { ZERO };
    let toward = offset_sum.div(n_cohere).scale(c.cohesion_scale).clamp_length_max(c.max_speed);
    let cohesion = c.accelerate_toward(velocity, toward).or(cohering, V2::ZERO);
    let total =
        separation.scale(c.separation).add(alignment.scale(c.alignment)).add(cohesion.scale(c.cohesion));
    let total = total.or(total.is_finite(), V2::ZERO);

    // Wander added at its weight, then the dynamic step (`sim::accelerate`).
    let linear = total.add(wander.scale(c.wander_weight));
    let linear = linear.or(linear.is_finite(), V2::ZERO).clamp_length_max(c.max_acceleration);
    let velocity = velocity.add(linear.scale(c.dt)).clamp_length_max(c.max_speed);
    let position = position.add(velocity.scale(c.dt));

    let (px, py) = (position.x.to_array(), position.y.to_array());
    let (vx, vy) = (velocity.x.to_array(), velocity.y.to_array());
    let (mx, my) = (moved.x.to_array(), moved.y.to_array());
    for (i, out) in outs.iter_mut().enumerate().take(LANES) {
        *out = TailOut {
            position: Vec2::new(px[i], py[i]),
            velocity: Vec2::new(vx[i], vy[i]),
            target: Vec2::new(mx[i], my[i]),
        };
    }
}

/// Makes sure a `V2` spelled-out operation agrees with glam's on one lane (used by the tests).
#[cfg(test)]
fn lane0(v: V2) -> Vec2 {
    Vec2::new(v.x.to_array()[0], v.y.to_array()[0])
}

#[cfg(test)]
mod tests {
    use super::super::{FlockRules, FlockSums, FlockingWeights};
    use super::*;
    use crate::behaviours::alignment::AlignmentParams;
    use crate::behaviours::cohesion::CohesionParams;
    use crate::behaviours::separation::SeparationParams;
    use crate::behaviours::wander::WanderParams;
    use crate::behaviours::Limits;
    use proptest::prelude::*;

    /// The bits, but any NaN as one NaN: which NaN operand an operation passes on (its payload
    /// and sign) follows the operand order the compiler picks for a commutative operation, which
    /// scalar and SIMD code need not share. Every number that is not NaN must match exactly.
    fn bits_or_nan(v: Vec2) -> (u32, u32) {
        let one = |x: f32| if x.is_nan() { f32::NAN.to_bits() } else { x.to_bits() };
        (one(v.x), one(v.y))
    }

    fn same(a: &TailOut<Vec2>, b: &TailOut<Vec2>) -> bool {
        bits_or_nan(a.position) == bits_or_nan(b.position)
            && bits_or_nan(a.velocity) == bits_or_nan(b.velocity)
            && bits_or_nan(a.target) == bits_or_nan(b.target)
    }

    fn shared(
        radius: f32,
        view_angle: f32,
        weights: (f32, f32, f32),
        limits: Limits,
        wander: WanderParams,
    ) -> TailShared {
        let rules = FlockRules::new(
            &SeparationParams { radius, view_angle },
            &AlignmentParams { radius, view_angle },
            &CohesionParams { radius, view_angle },
            &FlockingWeights { separation: weights.0, alignment: weights.1, cohesion: weights.2 },
        );
        TailShared { rules, limits, wander, wander_weight: 0.5, dt: 1.0 / 60.0 }
    }

    fn v2(a: f32, b: f32) -> Vec2 {
        Vec2::new(a, b)
    }

    /// Numbers that stress the arithmetic: zeros of both signs, infinities, NaN, tiny and huge.
    fn special() -> impl Strategy<Value = f32> {
        prop_oneof![
            4 => -50.0f32..50.0,
            1 => Just(0.0f32),
            1 => Just(-0.0f32),
            1 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
            1 => Just(f32::NAN),
            1 => Just(1e-30f32),
            1 => Just(-3e38f32),
            1 => Just(1e20f32),
        ]
    }

    /// [`special`] without `-0.0`, for the shared parameters: the scalar code clamps them with
    /// `f32::max(x, 0.0)`, whose result for `-0.0` IEEE leaves open (either zero), and the
    /// compiler may pick differently where the same expression is inlined in two places (seen:
    /// a wander jitter of `-0.0` gave a step of `+0` in one and `-0` in the other). The boids'
    /// own numbers take `-0.0` too.
    fn parameter() -> impl Strategy<Value = f32> {
        special().prop_map(|x| if x == 0.0 { 0.0 } else { x })
    }

    fn vector(values: impl Strategy<Value = f32> + Clone) -> impl Strategy<Value = Vec2> {
        (values.clone(), values).prop_map(|(x, y)| v2(x, y))
    }

    prop_compose! {
        fn tail(values: BoxedStrategy<f32>)(
            position in vector(values.clone()), velocity in vector(values.clone()),
            forward in vector(values.clone()), target in vector(values.clone()),
            draw in (-1.0f32..1.0, -1.0f32..1.0),
            push in vector(values.clone()), velocity_sum in vector(values.clone()),
            offset_sum in vector(values.clone()), n_align in 0u32..6, n_cohere in 0u32..6,
        ) -> Tail<Vec2> {
            let sums = FlockSums { forward, push, velocity_sum, n_align, offset_sum, n_cohere };
            Tail { position, velocity, forward, target, draw, sums }
        }
    }

    fn check(tails: &[Tail<Vec2>], shared: &TailShared) -> Result<(), TestCaseError> {
        let mut outs =
            vec![TailOut { position: Vec2::ZERO, velocity: Vec2::ZERO, target: Vec2::ZERO }; tails.len()];
        finish_tails(tails, &mut outs, shared);
        for (i, (tail, out)) in tails.iter().zip(&outs).enumerate() {
            let expected = tail.finish(shared);
            prop_assert!(same(out, &expected), "boid {i}: lanes {out:?}, one at a time {expected:?}");
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Ordinary boids: the lanes give the one-at-a-time bits.
        #[test]
        fn eight_lanes_give_the_scalar_bits(
            tails in prop::collection::vec(tail((-50.0f32..50.0).boxed()), 0..40),
            radius in 0.0f32..30.0, angle in 0.0f32..7.0,
            weights in (0.0f32..3.0, 0.0f32..3.0, 0.0f32..3.0),
            max_speed in 0.0f32..40.0, max_acceleration in 0.0f32..80.0,
            wander in (0.0f32..5.0, 0.0f32..20.0, 0.0f32..20.0),
        ) {
            let limits = Limits { radius: 1.0, max_speed, max_acceleration };
            let wander = WanderParams { radius: wander.0, distance: wander.1, jitter: wander.2, seed: 0 };
            check(&tails, &shared(radius, angle, weights, limits, wander))?;
        }

        /// Special values everywhere (and in the limits and parameters): still the same bits.
        #[test]
        fn eight_lanes_give_the_scalar_bits_on_special_values(
            tails in prop::collection::vec(tail(special().boxed()), 8..33),
            radius in parameter(), weights in (parameter(), parameter(), parameter()),
            limits in (parameter(), parameter()), wander in (parameter(), parameter(), parameter()),
        ) {
            let limits = Limits { radius: 1.0, max_speed: limits.0, max_acceleration: limits.1 };
            let wander = WanderParams { radius: wander.0, distance: wander.1, jitter: wander.2, seed: 0 };
            check(&tails, &shared(radius, std::f32::consts::TAU, weights, limits, wander))?;
        }
    }

    #[test]
    fn the_spelled_out_vector_operations_are_glams() {
        let values = [0.0, -0.0, 1.0, -2.5, 3e38, 1e-30, f32::INFINITY, f32::NAN, 7.0];
        for &x in &values {
            for &y in &values {
                let v = v2(x, y);
                let lanes = V2 { x: f32x8::splat(x), y: f32x8::splat(y) };
                let normalized = lanes.normalize_or_zero();
                assert_eq!(bits_or_nan(lane0(normalized)), bits_or_nan(v.normalize_or_zero()), "{v}");
                for max in [0.0, 1.0, 10.0, f32::INFINITY] {
                    assert_eq!(
                        bits_or_nan(lane0(lanes.clamp_length_max(f32x8::splat(max)))),
                        bits_or_nan(v.clamp_length_max(max)),
                        "{v} {max}"
                    );
                }
                let finite = lanes.is_finite().to_array()[0].to_bits() != 0;
                assert_eq!(finite, v.is_finite(), "{v}");
                let zero = lanes.is_zero().to_array()[0].to_bits() != 0;
                assert_eq!(zero, v == Vec2::ZERO, "{v}");
            }
        }
    }
}
