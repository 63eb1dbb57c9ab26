//! How flat a neighbour walk can be on this machine: the flock's step cut to its bones, to
//! tell what a crowd's size costs any such step from what our layout costs. Boids in the plane
//! at `steerlab::bench`'s density, radius and cell (0.01 a square unit, 10 units), positions and
//! velocities as arrays (16 bytes an agent); each step a counting sort by cell into
//! slot-ordered copies, every walk over the 3 x 3 cells in slot order (separation, alignment,
//! cohesion; neighbours picked without a branch, as the flock's are), then every agent moved,
//! reading its walk at its slot: the shape of `World::step`'s uniform flock without its records,
//! boxes, metrics and wander. Not the flock's arithmetic: a floor to read its flatness against.
//!
//! `cargo run --release --example flock_ideal -- MODE 1000 10000 100000 1000000`, MODE:
//! - `agent`: agents stored in the order they were made (random in space), as `World` stores
//!   them;
//! - `space`: the arrays themselves kept in slot order, renumbered every step for free (each
//!   step's sort starts from the last step's order; the moves go in slot order): the best order
//!   there is;
//! - `spacefixed`: `space` with every run of a walk tested eight slots at a time, the slots past
//!   its end counting nothing, so that the run's loop ends after the same count every time;
//! - `MODE+N` (`space+256`): each agent also reads and writes N bytes of its own (a record, one
//!   word a line) in the moves, in its storage order.
//!
//! On-CPU ns per agent-step on one thread, best of five rounds, on crowds holding 16,384 agents
//! between them, each warmed up five steps, then three steps timed on a copy (as `step_cpu`).
//! Figures: README, "Every behaviour from 1,000 to 1,000,000 agents".
use steerlab::bench::{thread_cpu_ns, FLOCK_DENSITY as DENSITY, FLOCK_RADIUS as RADIUS};

const DT: f32 = 1.0 / 60.0;

#[derive(Clone)]
struct Flock {
    side: f32,
    width: usize,
    px: Vec<f32>,
    py: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    record: Vec<u64>,
    words: usize,
    space: bool,
    fixed: bool,
    // scratch
    cell_of: Vec<u32>,
    starts: Vec<u32>,
    /// Each cell's next free slot while the sort places the agents.
    next: Vec<u32>,
    /// The agent at each slot: written, never read here, as `World`'s grid writes it (its
    /// gathers read it), so that the sort costs what ours does.
    order: Vec<u32>,
    slot_of: Vec<u32>,
    spx: Vec<f32>,
    spy: Vec<f32>,
    svx: Vec<f32>,
    svy: Vec<f32>,
    walk: Vec<[f32; 2]>,
}

fn lcg(state: &mut u64) -> f32 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*state >> 40) as f32) / ((1u64 << 24) as f32)
}

impl Flock {
    fn new(n: usize, seed: u64, record_bytes: usize, space: bool, fixed: bool) -> Flock {
        let side = (n as f32 / DENSITY).sqrt();
        let width = (side / RADIUS).ceil() as usize + 1;
        let mut s = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
        let mut f = Flock {
            side,
            width,
            px: Vec::with_capacity(n),
            py: Vec::with_capacity(n),
            vx: Vec::with_capacity(n),
            vy: Vec::with_capacity(n),
            words: record_bytes / 8,
            record: vec![0; n * (record_bytes / 8)],
            space,
            fixed,
            cell_of: vec![0; n],
            starts: vec![0; width * width + 1],
            next: vec![0; width * width + 1],
            order: vec![0; n],
            slot_of: vec![0; n],
            spx: vec![0.0; n],
            spy: vec![0.0; n],
            svx: vec![0.0; n],
            svy: vec![0.0; n],
            walk: vec![[0.0; 2]; n],
        };
        for _ in 0..n {
            f.px.push(lcg(&mut s) * side);
            f.py.push(lcg(&mut s) * side);
            let a = lcg(&mut s) * std::f32::consts::TAU;
            f.vx.push(a.cos() * 5.0);
            f.vy.push(a.sin() * 5.0);
        }
        f
    }

    fn cell(&self, x: f32, y: f32) -> usize {
        let cx = ((x / RADIUS) as usize).min(self.width - 1);
        let cy = ((y / RADIUS) as usize).min(self.width - 1);
        cy * self.width + cx
    }

    fn step(&mut self) {
        let n = self.px.len();
        // counting sort by cell
        for c in self.starts.iter_mut() {
            *c = 0;
        }
        for i in 0..n {
            let c = self.cell(self.px[i], self.py[i]);
            self.cell_of[i] = c as u32;
            self.starts[c + 1] += 1;
        }
        for c in 1..self.starts.len() {
            self.starts[c] += self.starts[c - 1];
        }
        self.next.copy_from_slice(&self.starts);
        for i in 0..n {
            let c = self.cell_of[i] as usize;
            let s = self.next[c] as usize;
            self.next[c] += 1;
            self.order[s] = i as u32;
            self.slot_of[i] = s as u32;
            self.spx[s] = self.px[i];
            self.spy[s] = self.py[i];
            self.svx[s] = self.vx[i];
            self.svy[s] = self.vy[i];
        }
        // Every walk in slot order: the 3 x 3 cells around the agent, a row of three cells
        // being one run of slots; neighbours picked without a branch (as the flock's are).
        let r2 = RADIUS * RADIUS;
        let w = self.width;
        let (spx, spy, svx, svy) = (&self.spx, &self.spy, &self.svx, &self.svy);
        for s in 0..n {
            let (x, y) = (spx[s], spy[s]);
            let c = self.cell(x, y);
            let (cx, cy) = (c % w, c / w);
            let mut sums = [0.0f32; 6];
            let mut count = 0u32;
            // Candidate `j` counted when `live` and within the radius (not the agent itself).
            let mut pick = |j: usize, live: bool| {
                let (dx, dy) = (x - spx[j], y - spy[j]);
                let d2 = dx * dx + dy * dy;
                let m = (d2 < r2) & (j != s) & live;
                let mf = f32::from(u8::from(m));
                let inv = mf / d2.max(1e-6);
                for (sum, add) in sums.iter_mut().zip([
                    dx * inv,
                    dy * inv,
                    svx[j] * mf,
                    svy[j] * mf,
                    spx[j] * mf,
                    spy[j] * mf,
                ]) {
                    *sum += add;
                }
                count += u32::from(m);
            };
            for ry in cy.saturating_sub(1)..(cy + 2).min(w) {
                let a = ry * w + cx.saturating_sub(1);
                let b = ry * w + (cx + 2).min(w);
                let (first, last) = (self.starts[a] as usize, self.starts[b] as usize);
                if self.fixed {
                    // Eight slots from the run's start, always (the loop's end the same every
                    // time), then the rest of a longer run.
                    for j in first..(first + 8).min(n) {
                        pick(j, j < last);
                    }
                    for j in (first + 8).min(last)..last {
                        pick(j, true);
                    }
                } else {
                    for j in first..last {
                        pick(j, true);
                    }
                }
            }
            let [sepx, sepy, alx, aly, cox, coy] = sums;
            let mut f = [sepx * 20.0, sepy * 20.0];
            if count > 0 {
                let k = count as f32;
                f[0] += (alx / k - svx[s]) + (cox / k - x) * 0.5;
                f[1] += (aly / k - svy[s]) + (coy / k - y) * 0.5;
            }
            self.walk[s] = f;
        }
        // moves
        let side = self.side;
        let words = self.words;
        let mv = |px: &mut f32, py: &mut f32, vx: &mut f32, vy: &mut f32, f: [f32; 2], rec: &mut [u64]| {
            *vx += f[0] * DT;
            *vy += f[1] * DT;
            let sp = (*vx * *vx + *vy * *vy).sqrt();
            if sp > 10.0 {
                *vx *= 10.0 / sp;
                *vy *= 10.0 / sp;
            }
            *px = (*px + *vx * DT).rem_euclid(side);
            *py = (*py + *vy * DT).rem_euclid(side);
            for line in rec.iter_mut().step_by(8) {
                *line = line.wrapping_add(1);
            }
        };
        if self.space {
            // The slot-ordered copies become the crowd, moved in slot order.
            std::mem::swap(&mut self.px, &mut self.spx);
            std::mem::swap(&mut self.py, &mut self.spy);
            std::mem::swap(&mut self.vx, &mut self.svx);
            std::mem::swap(&mut self.vy, &mut self.svy);
            for s in 0..n {
                let rec = &mut self.record[s * words..(s + 1) * words];
                let f = self.walk[s];
                mv(&mut self.px[s], &mut self.py[s], &mut self.vx[s], &mut self.vy[s], f, rec);
            }
        } else {
            for i in 0..n {
                let s = self.slot_of[i] as usize;
                let f = self.walk[s];
                let rec = &mut self.record[i * words..(i + 1) * words];
                mv(&mut self.px[i], &mut self.py[i], &mut self.vx[i], &mut self.vy[i], f, rec);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().cloned().unwrap_or_default();
    let (base, bytes) = match mode.split_once('+') {
        Some((b, n)) => (b.to_string(), n.parse().unwrap_or(0)),
        None => (mode.clone(), 0),
    };
    let (space, fixed) = match base.as_str() {
        "agent" => (false, false),
        "space" => (true, false),
        "spacefixed" => (true, true),
        _ => {
            eprintln!("usage: flock_ideal agent|space|spacefixed[+BYTES] N...");
            return;
        }
    };
    let sizes: Vec<usize> = args.iter().skip(1).filter_map(|s| s.parse().ok()).collect();
    let cpu = || thread_cpu_ns().unwrap_or(0);
    for n in sizes {
        let variants = 16_384usize.div_ceil(n);
        let warmed: Vec<Flock> = (0..variants as u64)
            .map(|v| {
                let mut f = Flock::new(n, v + 1, bytes, space, fixed);
                for _ in 0..5 {
                    f.step();
                }
                f
            })
            .collect();
        let copies = (4_000_000 / (n as u64 * 3)).clamp(1, 10_000);
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let mut elapsed = 0u64;
            for w in warmed.iter().cycle().take(copies as usize) {
                let mut copy = w.clone();
                let t = cpu();
                for _ in 0..3 {
                    copy.step();
                }
                elapsed += cpu() - t;
                std::hint::black_box(&copy.px);
            }
            best = best.min(elapsed as f64 / (n as u64 * 3 * copies) as f64);
        }
        print!("{n}: {best:.1}  ");
    }
    println!();
}
