//! A spatial hash for neighbour queries among agents: rebuilt every step from a slice of
//! positions, so the cost of finding an agent's neighbours stays flat as the crowd grows.
//!
//! Motivation: flocking, separation and agent–agent collision avoidance ask "who is within `r`
//! of me?" for every agent every step. A brute-force scan costs N per agent (N² per step); a grid
//! of cells as wide as the query radius costs the handful of agents in the nine cells around the
//! agent, whatever N is. Yuka's `CellSpacePartitioning` and OpenSteer's `LQ` database do the same;
//! this one hashes unbounded integer cells into a table sized to the crowd, so it needs no world
//! bounds and an agent far away costs nothing extra.
//!
//! Implementation: [`NeighbourGrid::rebuild`] takes positions as a slice (structure-of-arrays:
//! the caller keeps velocities and the rest in parallel slices) and gives each agent's cell
//! `(⌊x/cell⌋, ⌊y/cell⌋)` a bucket: when the crowd's bounding box holds at most four cells per
//! agent (a crowd of roughly even density) the bucket is the cell's row-major index in that box,
//! so the cells of one row of a query are one contiguous range (three ranges per query instead of
//! nine); otherwise (a sparse crowd, a far outlier) the cell is hashed into one of a power-of-two
//! number of buckets, at least twice the agent count. Then it counting-sorts the agents by bucket
//! (on one thread, for a big crowd, block by block of buckets so that its writes stream:
//! `NeighbourGrid::place_in_blocks`): `order` lists agent indices bucket by bucket,
//! stable, so the same positions always give the same order (deterministic), and
//! `sorted_positions` holds their positions in that order, so a query reads contiguous memory.
//! A hashed query visits the buckets of the cells its circle's bounding box overlaps (each bucket once,
//! even when two cells hash to the same bucket) and filters candidates by exact distance, so
//! hash collisions cost time, never correctness. Cells are 2D (x and y; scenes with agents live on
//! z = 0); the distance test is 3D. Non-finite positions land in a cell of their own (the
//! saturating float-to-int conversion) and are never within any finite distance.
//! Callers that want their own arrays in cell order (the flocking benchmark) permute them by
//! [`NeighbourGrid::order`], so neighbours are also neighbours in memory; such callers (and the
//! simulation's flocking and crowd metrics, over slot-ordered headings and radii) read the
//! [`NeighbourGrid::for_each_run`] of a query — its rows of cells as runs of slots — straight,
//! with no closure per candidate.
//!
//! Parameters: the cell size, normally the largest query radius (then a query visits at most
//! 3 × 3 cells; larger radii visit more cells and stay correct), and [`MAX_CELL_SLOTS`], the most
//! agents a query reads from one cell (a crowd stacked on one point costs that, not N², a step).

use glam::Vec3;

/// Agents bucketed by cell, rebuilt from a slice of positions.
#[derive(Clone, Debug, Default)]
pub struct NeighbourGrid {
    cell_size: f32,
    inv_cell: f32,
    /// `log2` of the bucket count (hashed mode).
    bits: u32,
    /// Dense mode: the grid's lowest cell and its width and height in cells; `None` = hashed.
    dense: Option<DenseGrid>,
    /// `starts[b]..starts[b + 1]` is bucket `b`'s range in `order` (length buckets + 1).
    starts: Vec<u32>,
    /// Agent indices, bucket by bucket, ascending within a bucket.
    order: Vec<u32>,
    /// Positions in `order`'s order.
    sorted_positions: Vec<Vec3>,
    /// Each agent's bucket, scratch for the sort.
    agent_bucket: Vec<u32>,
    /// Each bucket's next free slot, scratch for the sort.
    cursor: Vec<u32>,
    /// Each agent's cell, scratch for the rebuild.
    cells: Vec<AgentCell>,
    /// The agents spread over blocks of buckets, scratch for [`Self::place_in_blocks`].
    spread: Vec<Spread>,
}

/// An agent on its way through [`NeighbourGrid::place_in_blocks`]: its index, bucket and
/// position.
#[derive(Clone, Copy, Debug, Default)]
struct Spread {
    agent: u32,
    bucket: u32,
    position: Vec3,
}

/// Buckets in one block of [`NeighbourGrid::place_in_blocks`] (their cursors: 16 KiB).
const BLOCK_BUCKETS: usize = 4096;
/// From this many buckets on, [`NeighbourGrid::rebuild`] on one thread sorts block by block
/// ([`NeighbourGrid::place_in_blocks`]): the bucket counts alone are then a core's L2 cache
/// (1 MiB). Measured gain: the rebuild alone over the flock's layout, moving (one thread,
/// 1,000,000 agents, 2026-11-26): 25.7-27.8 -> 19.2-19.7 ns an agent; at 100,000 (below this)
/// the blocks were 12.1 against 11.8-12.0 in one pass, at 400,000 within the noise.
const BLOCK_SORT_MIN_BUCKETS: usize = 1 << 18;
/// The sort by blocks is taken (past [`BLOCK_SORT_MIN_BUCKETS`]) only when more than one agent
/// in this many lies more than [`BLOCK_BUCKETS`] buckets from the agent before it (scattered
/// over the grid: a crowd in the order it was made). A crowd
/// stored in the grid's order (`sim::SPACE_ORDER_MIN_AGENTS`) has almost none even 64 steps
/// after its storing (under 0.01% in the flock of a million), and the one-pass sort then writes
/// close to where it wrote last. Measured (one thread, 1,000,000 agents, the Intel Xeon,
/// 2026-11-29, `grid_rebuild_speed --grid-order`): the rebuild 26.2-27.9 ns an agent by blocks,
/// 15.9-16.5 in one pass (a crowd in the order it was made: 32.5-38.8 by blocks, unchanged).
/// The flock's whole step, 128 steps of one crowd after 70, old and new builds alternately:
/// 349-361 -> 342-350; `step_cpu`'s copies read the same within the noise.
const SCATTERED_ONE_IN: usize = 8;

/// An agent's cell (the saturating conversion of its scaled x and y) and whether its position
/// is finite (a non-finite one is in the box of none and, when dense, in a bucket of its own).
#[derive(Clone, Copy, Debug, Default)]
struct AgentCell {
    cx: i32,
    cy: i32,
    finite: bool,
}

/// The box of the cells of the finite positions seen so far.
#[derive(Clone, Copy, Debug)]
struct CellBounds {
    min_x: i32,
    min_y: i32,
    max_x: i32,
    max_y: i32,
}

impl CellBounds {
    /// No cell yet (minima above maxima).
    const EMPTY: CellBounds =
        CellBounds { min_x: i32::MAX, min_y: i32::MAX, max_x: i32::MIN, max_y: i32::MIN };

    #[inline(always)]
    fn add(&mut self, cx: i32, cy: i32) {
        self.min_x = self.min_x.min(cx);
        self.min_y = self.min_y.min(cy);
        self.max_x = self.max_x.max(cx);
        self.max_y = self.max_y.max(cy);
    }

    fn join(a: CellBounds, b: CellBounds) -> CellBounds {
        CellBounds {
            min_x: a.min_x.min(b.min_x),
            min_y: a.min_y.min(b.min_y),
            max_x: a.max_x.max(b.max_x),
            max_y: a.max_y.max(b.max_y),
        }
    }

    /// `(min_x, min_y, max_x, max_y)`, or None when no finite position was seen.
    fn cells(self) -> Option<(i32, i32, i32, i32)> {
        (self.min_x <= self.max_x).then_some((self.min_x, self.min_y, self.max_x, self.max_y))
    }
}

/// A dense row-major grid over the crowd's bounding box, used when it is small enough: then the
/// cells of one row of a query are one contiguous range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DenseGrid {
    min_x: i32,
    min_y: i32,
    width: i32,
    height: i32,
}

/// From this many positions on, [`NeighbourGrid::rebuild`] finds the box and the buckets on
/// every thread of the current rayon pool.
const PARALLEL_MIN_POSITIONS: usize = 4_096;

/// The largest number of cells a query visits through the hash; beyond it (a radius many cells
/// wide) the query scans every agent, which is still correct.
const MAX_QUERY_CELLS: usize = 25;

/// The most agents a query reads from one cell (one bucket when hashed): the cell's first ones
/// in slot order, that is by agent index. Why: a query costs the agents in the cells it
/// visits, and a crowd stacked in one cell made everyone everyone's neighbour, N² a step: 20,000
/// boids on one point took 1.37 s a step, 20,000 collision avoiders about 10 s, 100,000 boids
/// about a minute, the window frozen that long. With the cap: 32 ms, 87 ms and 178 ms (`run
/// --threads 1`, load subtracted, 2026-11-27). The flock's and collision avoidance's
/// `examples/step_cpu` at 1,000 and 10,000 agents read the same within the noise (±2%).
///
/// Where it changes nothing: a cell is as wide as the largest radius asked, so a cell holds
/// more than this only when more than this many agents crowd into the area of one neighbour
/// radius squared; agents that keep apart by their body radius fit about 0.29 (radius asked /
/// body radius)² there, 33 in `flock.json`, so this only cuts crowds that overlap heavily. RVO2's
/// `maxNeighbors` bounds a neighbourhood the same way; this bound is on the agents read, so it
/// also bounds the cost. A query many cells wide (a radius several cells wide, the one case
/// that scans every slot) is not cut.
pub const MAX_CELL_SLOTS: usize = 256;

impl NeighbourGrid {
    /// An empty grid.
    pub fn new() -> Self {
        NeighbourGrid::default()
    }

    /// Rebuilds the grid over `positions` with cells `cell_size` wide (clamped to a small
    /// positive minimum; a non-finite size becomes 1).
    pub fn rebuild(&mut self, positions: &[Vec3], cell_size: f32) {
        let cell_size = if cell_size.is_finite() { cell_size.max(1e-3) } else { 1.0 };
        self.cell_size = cell_size;
        self.inv_cell = 1.0 / cell_size;
        let n = positions.len();
        // Dense when the bounding box of the finite positions has at most 4 cells per agent.
        // The box and every agent's bucket are worked out on all of the current rayon pool's
        // threads for a big crowd (integer minima and maxima, and one bucket per agent: the same
        // on any thread count), and so is the counting sort ([`Self::place_in_parallel`]: each
        // thread places the agents of its own range of buckets, in agent order).
        let parallel = n >= PARALLEL_MIN_POSITIONS && rayon::current_num_threads() > 1;
        let inv_cell = self.inv_cell;
        // Each agent's cell, worked out once (the box and the buckets both read it), with the
        // box of the finite ones: one pass, in chunks over the pool for a big crowd (integer
        // minima and maxima: the same on any split).
        // Every place of `cells`, `order` and `sorted_positions` is written below (each agent
        // has one cell and one slot), so the last rebuild's are not cleared first.
        let mut cells = std::mem::take(&mut self.cells);
        cells.resize(n, AgentCell::default());
        let cells_of = |cells: &mut [AgentCell], positions: &[Vec3]| {
            let mut bounds = CellBounds::EMPTY;
            for (cell, p) in cells.iter_mut().zip(positions) {
                let (cx, cy) = (cell_coord(p.x * inv_cell), cell_coord(p.y * inv_cell));
                let finite = p.is_finite();
                *cell = AgentCell { cx, cy, finite };
                if finite {
                    bounds.add(cx, cy);
                }
            }
            bounds
        };
        let bounds = if parallel {
            use rayon::prelude::*;
            let chunk = n.div_ceil(rayon::current_num_threads() * 4).max(1024);
            cells
                .par_chunks_mut(chunk)
                .zip(positions.par_chunks(chunk))
                .map(|(cells, positions)| cells_of(cells, positions))
                .reduce(|| CellBounds::EMPTY, CellBounds::join)
        } else {
            cells_of(&mut cells, positions)
        };
        self.dense = bounds.cells().and_then(|(x0, y0, x1, y1)| {
            let width = x1 as i64 - x0 as i64 + 1;
            let height = y1 as i64 - y0 as i64 + 1;
            (width * height <= (4 * n as i64).max(64)).then_some(DenseGrid {
                min_x: x0,
                min_y: y0,
                width: width as i32,
                height: height as i32,
            })
        });
        // One extra bucket in dense mode holds the non-finite positions, never queried.
        let buckets = match self.dense {
            Some(g) => (g.width * g.height) as usize + 1,
            None => (2 * n).max(16).next_power_of_two(),
        };
        self.bits = buckets.trailing_zeros();
        self.cells = cells;
        if parallel {
            self.place_in_parallel(positions, buckets);
        } else {
            self.starts.clear();
            self.starts.resize(buckets + 1, 0);
            let mut agent_bucket = std::mem::take(&mut self.agent_bucket);
            let grid = &*self;
            agent_bucket.clear();
            // How many agents sit far (more than a block of buckets) from the agent before
            // them: nearly all in a crowd in the order it was made, nearly none in one stored
            // in the grid's order (`sim::Agents`), whose one-pass sort then writes close to
            // where it wrote last.
            let (mut far, mut last) = (0usize, 0u32);
            agent_bucket.extend(grid.cells.iter().map(|cell| {
                let bucket = grid.bucket_of_agent_cell(*cell);
                far += usize::from(bucket.abs_diff(last) as usize > BLOCK_BUCKETS);
                last = bucket;
                bucket
            }));
            self.agent_bucket = agent_bucket;
            self.order.resize(n, 0);
            self.sorted_positions.resize(n, Vec3::ZERO);
            if buckets > BLOCK_SORT_MIN_BUCKETS && far > n / SCATTERED_ONE_IN {
                self.place_in_blocks(positions);
            } else {
                self.place(positions);
            }
        }
    }

    /// [`Self::place`] in two passes that stream, with the same result: the agents are first
    /// spread, in agent order, over blocks of [`BLOCK_BUCKETS`] consecutive buckets (one
    /// write stream a block), then each block, small enough for the cache, is counted and
    /// placed on its own (its slots are contiguous and its agents come in agent order:
    /// stable). Why: a big crowd's buckets, counts and slots are tens of megabytes, and the
    /// one-pass sort wrote each agent at a random place of them.
    fn place_in_blocks(&mut self, positions: &[Vec3]) {
        let buckets = self.starts.len().saturating_sub(1);
        let blocks = buckets.div_ceil(BLOCK_BUCKETS);
        let mut block_starts = vec![0u32; blocks + 1];
        for &bucket in &self.agent_bucket {
            if let Some(count) = block_starts.get_mut(bucket as usize / BLOCK_BUCKETS + 1) {
                *count += 1;
            }
        }
        running_sum(&mut block_starts);
        let mut spread = std::mem::take(&mut self.spread);
        spread.clear();
        spread.resize(self.agent_bucket.len(), Spread::default());
        let mut next = block_starts.clone();
        for (agent_idx, (&bucket, &position)) in self.agent_bucket.iter().zip(positions).enumerate() {
            if let Some(slot) = next.get_mut(bucket as usize / BLOCK_BUCKETS) {
                if let Some(entry) = spread.get_mut(*slot as usize) {
                    *entry = Spread { agent: agent_idx as u32, bucket, position };
                }
                *slot += 1;
            }
        }
        // Each block's buckets: counted, their first slots written to `starts`, then used as
        // the block's cursors.
        let mut cursor = [0u32; BLOCK_BUCKETS];
        for block in 0..blocks {
            let lo = block * BLOCK_BUCKETS;
            let first = block_starts.get(block).copied().unwrap_or(0);
            let end = block_starts.get(block + 1).copied().unwrap_or(first);
            let entries = spread.get(first as usize..end as usize).unwrap_or_default();
            cursor.fill(0);
            for entry in entries {
                if let Some(count) = cursor.get_mut((entry.bucket as usize).wrapping_sub(lo)) {
                    *count += 1;
                }
            }
            let mut sum = first;
            let width = BLOCK_BUCKETS.min(buckets - lo);
            for (b, count) in cursor.iter_mut().enumerate().take(width) {
                if let Some(start) = self.starts.get_mut(lo + b) {
                    *start = sum;
                }
                let c = *count;
                *count = sum;
                sum += c;
            }
            for entry in entries {
                if let Some(slot) = cursor.get_mut((entry.bucket as usize).wrapping_sub(lo)) {
                    let s = *slot as usize;
                    *slot += 1;
                    if let (Some(o), Some(sp)) = (self.order.get_mut(s), self.sorted_positions.get_mut(s)) {
                        *o = entry.agent;
                        *sp = entry.position;
                    }
                }
            }
        }
        if let Some(last) = self.starts.last_mut() {
            *last = block_starts.last().copied().unwrap_or(0);
        }
        self.spread = spread;
    }

    /// The counting sort of [`Self::rebuild`] on one thread: each bucket's count, their running
    /// sum (`starts`), then every agent placed in agent order at its bucket's next free slot
    /// (stable: agents of one bucket keep their order).
    fn place(&mut self, positions: &[Vec3]) {
        for &bucket in &self.agent_bucket {
            if let Some(count) = self.starts.get_mut(bucket as usize + 1) {
                *count += 1;
            }
        }
        running_sum(&mut self.starts);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts);
        for (agent_idx, (&bucket, &position)) in self.agent_bucket.iter().zip(positions).enumerate() {
            if let Some(slot) = self.cursor.get_mut(bucket as usize) {
                let s = *slot as usize;
                *slot += 1;
                if let (Some(o), Some(sp)) = (self.order.get_mut(s), self.sorted_positions.get_mut(s)) {
                    *o = agent_idx as u32;
                    *sp = position;
                }
            }
        }
    }

    /// [`Self::place`] on every thread of the current pool, with the same result: the buckets
    /// are shared out in contiguous ranges, one per task; each task works out every agent's
    /// bucket (from its cell), counts the agents of its own range and keeps the buckets of its
    /// own share of the agents; then, once every range's total is known, each task writes the
    /// agents of its range, in agent order, into its own contiguous part of `order` and
    /// `sorted_positions` (the parts follow each other as the ranges do). Two calls on the pool,
    /// no serial pass over the agents and nothing cleared that is written anyway: a serial pass
    /// here left the pool's threads asleep, and waking them cost more than the pass (`steerlab
    /// bench --flock`, 10,000 boids on 2 threads: the grid's rebuild went from 13.6 to 8.6 ns per
    /// agent-step, the flock's whole reordering from 22.5 to 12.8).
    fn place_in_parallel(&mut self, positions: &[Vec3], buckets: usize) {
        use rayon::prelude::*;
        let n = positions.len();
        self.starts.resize(buckets + 1, 0);
        if let Some(first) = self.starts.first_mut() {
            *first = 0;
        }
        self.cursor.resize(buckets, 0);
        self.agent_bucket.resize(n, 0);
        self.order.resize(n, 0);
        self.sorted_positions.resize(n, Vec3::ZERO);
        let per = buckets.div_ceil(rayon::current_num_threads().max(1)).max(1);
        let tasks = buckets.div_ceil(per).max(1);
        let mut starts = std::mem::take(&mut self.starts);
        let mut agent_bucket = std::mem::take(&mut self.agent_bucket);
        // Each task's share of the agents (whose buckets it keeps): exactly one per task, some
        // possibly empty, whatever the counts of agents and threads.
        let mut shares = Vec::with_capacity(tasks);
        let (mut rest, mut first_agent) = (&mut agent_bucket[..], 0usize);
        for task in 0..tasks {
            let end = ((task + 1) * n / tasks).clamp(first_agent, n);
            let cut = (end - first_agent).min(rest.len());
            let (own, tail) = std::mem::take(&mut rest).split_at_mut(cut);
            shares.push((first_agent, own));
            (rest, first_agent) = (tail, end);
        }
        let (grid, cells) = (&*self, &self.cells);
        // Each range's counts, summed in place into `starts[lo + 1..=hi]`: within the range,
        // `starts[b + 1]` = the agents in buckets lo..=b. Returns the range's total.
        let totals: Vec<u32> = starts
            .get_mut(1..)
            .unwrap_or_default()
            .par_chunks_mut(per)
            .zip(shares)
            .with_max_len(1)
            .enumerate()
            .map(|(task, (counts, (first_agent, own_buckets)))| {
                counts.fill(0);
                let lo = (task * per) as u32;
                let own = first_agent..first_agent + own_buckets.len();
                for (agent_idx, cell) in cells.iter().enumerate() {
                    let bucket = grid.bucket_of_agent_cell(*cell);
                    if let Some(count) = bucket.checked_sub(lo).and_then(|b| counts.get_mut(b as usize)) {
                        *count += 1;
                    }
                    if own.contains(&agent_idx) {
                        if let Some(b) = own_buckets.get_mut(agent_idx - own.start) {
                            *b = bucket;
                        }
                    }
                }
                let mut sum = 0u32;
                for count in counts.iter_mut() {
                    sum += *count;
                    *count = sum;
                }
                sum
            })
            .collect();
        self.starts = starts;
        self.agent_bucket = agent_bucket;
        // Where each range's agents begin in the sorted order.
        let mut firsts = Vec::with_capacity(totals.len());
        let mut first = 0u32;
        for total in &totals {
            firsts.push(first);
            first += total;
        }
        // Each range's part of the outputs, cut in order.
        let mut parts = Vec::with_capacity(totals.len());
        let (mut order, mut sorted) = (&mut self.order[..], &mut self.sorted_positions[..]);
        for &total in &totals {
            let cut = (total as usize).min(order.len()).min(sorted.len());
            let (o, rest_o) = std::mem::take(&mut order).split_at_mut(cut);
            let (s, rest_s) = std::mem::take(&mut sorted).split_at_mut(cut);
            parts.push((o, s));
            (order, sorted) = (rest_o, rest_s);
        }
        let agent_bucket = &self.agent_bucket;
        self.starts
            .get_mut(1..)
            .unwrap_or_default()
            .par_chunks_mut(per)
            .zip(self.cursor.par_chunks_mut(per))
            .zip(parts)
            .zip(firsts)
            .with_max_len(1)
            .enumerate()
            .for_each(|(task, (((counts, cursor), (order, sorted)), first))| {
                let lo = (task * per) as u32;
                // A bucket's first slot within the part: the range's running sum before it.
                let mut before = 0u32;
                for (count, next) in counts.iter_mut().zip(cursor.iter_mut()) {
                    *next = before;
                    before = *count;
                    *count += first;
                }
                for (agent_idx, (&bucket, &position)) in agent_bucket.iter().zip(positions).enumerate() {
                    let Some(next) = bucket.checked_sub(lo).and_then(|b| cursor.get_mut(b as usize)) else {
                        continue;
                    };
                    let s = *next as usize;
                    *next += 1;
                    if let (Some(o), Some(sp)) = (order.get_mut(s), sorted.get_mut(s)) {
                        *o = agent_idx as u32;
                        *sp = position;
                    }
                }
            });
    }

    /// Orders the agents of each bucket by `key` (of each agent index; unique keys), where a
    /// rebuild ordered them by agent index: the same slot order as a rebuild over the positions
    /// laid out in `key`'s order would give. Why: the simulation may store a crowd in another
    /// order than its agents' (`sim::Agents`), rebuilds the grid over that storage order, and
    /// orders each bucket by the agents' own indices, so that a walk meets its neighbours in
    /// the same order whatever the storage (the same sums, bit for bit). A bucket already in
    /// order costs one comparison an agent (a crowd stored in the grid's order a few steps ago
    /// has most of its buckets in order).
    pub fn order_ties_by(&mut self, key: &[u32]) {
        let key_of = |agent: u32| key.get(agent as usize).copied().unwrap_or(u32::MAX);
        let Self { starts, order, sorted_positions, .. } = self;
        let mut scratch: Vec<(u32, u32, Vec3)> = Vec::new();
        for bucket in starts.windows(2) {
            let &[start, end] = bucket else { continue };
            let range = start as usize..end as usize;
            let (Some(agents), Some(positions)) =
                (order.get_mut(range.clone()), sorted_positions.get_mut(range))
            else {
                continue;
            };
            if agents.windows(2).all(|pair| matches!(pair, [a, b] if key_of(*a) < key_of(*b))) {
                continue;
            }
            scratch.clear();
            scratch.extend(agents.iter().zip(positions.iter()).map(|(&agent, &p)| (key_of(agent), agent, p)));
            scratch.sort_unstable_by_key(|&(key, agent, _)| (key, agent));
            for ((agent, position), &(_, sorted_agent, sorted_position)) in
                agents.iter_mut().zip(positions.iter_mut()).zip(scratch.iter())
            {
                (*agent, *position) = (sorted_agent, sorted_position);
            }
        }
    }

    /// The cell size of the last rebuild.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Number of agents indexed.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no agent is indexed.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Agent indices in cell order: slot `s` holds agent `order()[s]`.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Positions in cell order (`sorted_positions()[s]` is agent `order()[s]`'s position).
    pub fn sorted_positions(&self) -> &[Vec3] {
        &self.sorted_positions
    }

    /// Calls `visit(run)` for each run of slots that may hold agents within `radius` of `point`
    /// (a row of cells each in dense mode, a bucket each when hashed, every slot for a query
    /// many cells wide; none for a non-finite point or a negative or NaN radius), in the order
    /// [`Self::for_each_within`] visits them: a caller that tests `position.is_finite()` and the
    /// distance itself over these runs visits exactly what `for_each_within` visits, in the same
    /// order. The dense grid's rows are handed over as they are worked out (no list of runs is
    /// built: the flocking loop and the crowd metrics call this once per agent per step).
    ///
    /// The runs come in ascending slot order, in every layout. So a query of a smaller radius
    /// around the same point visits exactly the agents this one visits within that radius, in
    /// the same order (its runs hold a part of these agents), and one walk at the larger radius
    /// can stand for both (collision avoidance's threat and crowd walks).
    ///
    /// A cell (a bucket when hashed) gives at most its first [`MAX_CELL_SLOTS`] slots: a dense
    /// row longer than that is handed over cell by cell, each cut there. A cell's slots are the
    /// same for every query that visits it, so the smaller query's promise holds with the cut.
    #[inline(always)]
    pub fn for_each_run(&self, point: Vec3, radius: f32, mut visit: impl FnMut(std::ops::Range<usize>)) {
        if self.order.is_empty() || radius.is_nan() || radius < 0.0 || !point.is_finite() {
            return;
        }
        let lo_x = cell_coord((point.x - radius) * self.inv_cell);
        let hi_x = cell_coord((point.x + radius) * self.inv_cell);
        let lo_y = cell_coord((point.y - radius) * self.inv_cell);
        let hi_y = cell_coord((point.y + radius) * self.inv_cell);
        let span_x = (hi_x as i64 - lo_x as i64 + 1) as u64;
        let span_y = (hi_y as i64 - lo_y as i64 + 1) as u64;
        let wide = span_x.saturating_mul(span_y) > MAX_QUERY_CELLS as u64;
        // A dense grid's rows of the query clipped to the grid (each row one contiguous range),
        // worked out one by one; otherwise the listed runs. One call of `visit`, so that the
        // caller's loop over a run is inlined here with its sums kept in registers.
        let rows = match self.dense {
            Some(g) if !wide => {
                let x0 = lo_x.max(g.min_x);
                let x1 = hi_x.min(g.min_x + g.width - 1);
                let y0 = lo_y.max(g.min_y);
                let y1 = hi_y.min(g.min_y + g.height - 1);
                if x0 > x1 || y0 > y1 {
                    return;
                }
                let width = g.width as usize;
                let first_row = (y0 - g.min_y) as usize * width;
                let (first_column, last_column) = ((x0 - g.min_x) as usize, (x1 - g.min_x) as usize);
                Some((first_row, (y1 - y0) as usize + 1, width, first_column, last_column))
            }
            _ => None,
        };
        let listed = if rows.is_none() { Some(self.spread_runs(lo_x, hi_x, lo_y, hi_y, wide)) } else { None };
        let cell_run = |bucket: usize| {
            let start = self.starts.get(bucket).copied().unwrap_or(0) as usize;
            let end = self.starts.get(bucket + 1).copied().unwrap_or(0) as usize;
            start..end.clamp(start, start + MAX_CELL_SLOTS)
        };
        let mut next = 0usize;
        // A crowded dense row is handed over cell by cell: the next of its cells to hand over
        // (usize::MAX: none), its row's first bucket and its last column.
        let (mut crowded_column, mut crowded_row, mut crowded_last) = (usize::MAX, 0, 0);
        loop {
            let run = match (rows, &listed) {
                (Some((first_row, count, width, first_column, last_column)), _) => {
                    if crowded_column <= crowded_last {
                        crowded_column += 1;
                        cell_run(crowded_row + crowded_column - 1)
                    } else {
                        if next >= count {
                            break;
                        }
                        let row = first_row + next * width;
                        next += 1;
                        let start = self.starts.get(row + first_column).copied().unwrap_or(0);
                        let end = self.starts.get(row + last_column + 1).copied().unwrap_or(0);
                        if end.saturating_sub(start) as usize > MAX_CELL_SLOTS {
                            (crowded_column, crowded_row, crowded_last) = (first_column, row, last_column);
                            continue;
                        }
                        start as usize..end.max(start) as usize
                    }
                }
                (None, Some(listed)) => match listed.ranges.get(next).filter(|_| next < listed.len) {
                    Some(&(start, end)) => {
                        next += 1;
                        let (start, end) = (start as usize, end as usize);
                        // Every slot (a query many cells wide) is not cut.
                        start..if wide { end } else { end.min(start + MAX_CELL_SLOTS) }
                    }
                    None => break,
                },
                (None, None) => break,
            };
            visit(run);
        }
    }

    /// Calls `visit(slot, position)` for every indexed agent within `radius` of `point`
    /// (distance ≤ radius, the point's own agent included if it is indexed), where `slot`
    /// indexes [`Self::order`] and [`Self::sorted_positions`]. Each agent is visited once.
    #[inline]
    pub fn for_each_within(&self, point: Vec3, radius: f32, mut visit: impl FnMut(usize, Vec3)) {
        let radius_sq = radius * radius;
        self.for_each_run(point, radius, |run| {
            let start = run.start;
            let Some(candidates) = self.sorted_positions.get(run) else { return };
            pick_within(
                candidates,
                |_, p| p.is_finite() & ((p - point).length_squared() <= radius_sq),
                |offset| {
                    if let Some(&p) = candidates.get(offset) {
                        visit(start + offset, p);
                    }
                },
            );
        });
    }

    /// The runs of a query that is not a dense grid's few rows: every slot for a query many
    /// cells wide (`wide`), otherwise a distinct bucket each for the cells `lo_x..=hi_x` ×
    /// `lo_y..=hi_y` of the hashed layout (at most [`MAX_QUERY_CELLS`] of them).
    #[inline(never)]
    fn spread_runs(&self, lo_x: i32, hi_x: i32, lo_y: i32, hi_y: i32, wide: bool) -> CandidateRuns {
        let mut runs = CandidateRuns { ranges: [(0, 0); MAX_QUERY_CELLS], len: 0 };
        if wide {
            runs.push(0, self.order.len() as u32);
            return runs;
        }
        let mut seen = [u32::MAX; MAX_QUERY_CELLS];
        let mut n_seen = 0;
        for cy in lo_y..=hi_y {
            for cx in lo_x..=hi_x {
                let bucket = self.bucket_of_cell(cx, cy);
                if seen.iter().take(n_seen).any(|&b| b == bucket) {
                    continue;
                }
                if let Some(entry) = seen.get_mut(n_seen) {
                    *entry = bucket;
                    n_seen += 1;
                }
                let start = self.starts.get(bucket as usize).copied().unwrap_or(0);
                let end = self.starts.get(bucket as usize + 1).copied().unwrap_or(0);
                runs.push(start, end);
            }
        }
        // In slot order, as a dense grid's rows are (see `for_each_run`): in the order the
        // cells were met, a smaller query could meet a bucket that two cells share at another
        // turn than this one.
        if let Some(ranges) = runs.ranges.get_mut(..runs.len) {
            ranges.sort_unstable_by_key(|&(start, _)| start);
        }
        runs
    }

    /// The agent indices within `radius` of `point`, ascending, into `out` (cleared first).
    pub fn neighbours_within(&self, point: Vec3, radius: f32, out: &mut Vec<u32>) {
        out.clear();
        self.for_each_within(point, radius, |slot, _| {
            if let Some(&agent_idx) = self.order.get(slot) {
                out.push(agent_idx);
            }
        });
        out.sort_unstable();
    }

    /// The bucket of an agent whose cell is known.
    #[inline]
    fn bucket_of_agent_cell(&self, cell: AgentCell) -> u32 {
        match self.dense {
            Some(g) if cell.finite => ((cell.cy - g.min_y) * g.width + (cell.cx - g.min_x)) as u32,
            Some(g) => (g.width * g.height) as u32,
            None => self.bucket_of_cell(cell.cx, cell.cy),
        }
    }

    /// A position's bucket from scratch (the tests' oracle of the rebuild's buckets).
    #[cfg(test)]
    fn bucket_of_point(&self, p: Vec3) -> u32 {
        let (cx, cy) = (cell_coord(p.x * self.inv_cell), cell_coord(p.y * self.inv_cell));
        match self.dense {
            Some(g) if p.is_finite() => ((cy - g.min_y) * g.width + (cx - g.min_x)) as u32,
            Some(g) => (g.width * g.height) as u32,
            None => self.bucket_of_cell(cx, cy),
        }
    }

    #[inline]
    fn bucket_of_cell(&self, cx: i32, cy: i32) -> u32 {
        let h = (cx as u32).wrapping_mul(0x9E37_79B1) ^ (cy as u32).wrapping_mul(0x85EB_CA77);
        let h = h ^ (h >> 15);
        let h = h.wrapping_mul(0x2C1B_3C6D);
        // The top bits of a multiplicative hash are the well-mixed ones.
        if self.bits == 0 {
            0
        } else {
            h >> (32 - self.bits)
        }
    }
}

/// Runs of slots of a [`NeighbourGrid`] that may hold the neighbours of a point, when they are
/// not a dense grid's rows ([`NeighbourGrid::for_each_run`]).
#[derive(Clone, Copy, Debug)]
struct CandidateRuns {
    ranges: [(u32, u32); MAX_QUERY_CELLS],
    len: usize,
}

impl CandidateRuns {
    #[inline]
    fn push(&mut self, start: u32, end: u32) {
        if let Some(range) = self.ranges.get_mut(self.len) {
            *range = (start, end.max(start));
            self.len += 1;
        }
    }
}

impl crate::behaviours::neighbourhood::SlotRuns for NeighbourGrid {
    #[inline(always)]
    fn for_each_run(&self, point: Vec3, radius: f32, visit: impl FnMut(std::ops::Range<usize>)) {
        NeighbourGrid::for_each_run(self, point, radius, visit);
    }
}

/// Calls `visit(offset)` for every candidate of a run (in order) that `near(offset, candidate)`
/// accepts, testing them all first without a branch on the outcome (a run of up to `PICK_BATCH`
/// candidates: each one's offset is written, and the count of picked ones moves on by the test), then
/// visiting the picked ones; a longer run is tested one candidate at a time. Why: whether a
/// candidate is near is in no pattern a big crowd repeats (a small crowd's the branch
/// predictors learn from step to step), so a branch on it was mispredicted about one time in
/// three: collision avoidance's walks read several dozen candidates an agent (see
/// [`crate::behaviours::flocking`]'s pick, the same for the flock, kept as its own copy: the
/// flock calling this one measured 286 -> 299 ns per agent-step at 1,000 boids, the same
/// arithmetic in code laid out otherwise). Measured gain, with the
/// crowd metrics' walk (`crowd_sums` in the simulation) picking the same way: collision
/// avoidance's `World::step` at 1,000 / 10,000 / 100,000 / 1,000,000 agents 1,073.1 / 1,168.7
/// / 1,200.1 / 1,232.5 -> 876.5 / 953.5 / 985.5 / 1,014.1 ns per agent-step (one thread,
/// on-CPU, `examples/step_cpu collision_avoidance`, idle, 2026-11-26); callgrind's branch
/// simulation, 20,000 agents: 57 -> 29 mispredicted branches an agent-step.
#[inline(always)]
pub fn pick_within<T: Copy>(candidates: &[T], near: impl Fn(usize, T) -> bool, mut visit: impl FnMut(usize)) {
    if candidates.len() <= PICK_BATCH {
        let mut picked = [0u8; PICK_BATCH];
        let mut count = 0usize;
        for (offset, &candidate) in candidates.iter().enumerate() {
            // `count` < PICK_BATCH here (at most one a candidate); the mask says so.
            picked[count & (PICK_BATCH - 1)] = offset as u8;
            count += usize::from(near(offset, candidate));
        }
        for &offset in picked.get(..count).unwrap_or_default() {
            visit(usize::from(offset));
        }
    } else {
        for (offset, &candidate) in candidates.iter().enumerate() {
            if near(offset, candidate) {
                visit(offset);
            }
        }
    }
}

/// The longest run [`pick_within`] tests without a branch (a power of two, at most 256):
/// collision avoidance's rows of cells hold a few dozen agents (1,000,000 agents: 32 -> 64,
/// 816.2 -> 798.7 ns per agent-step; 128: 800.7).
const PICK_BATCH: usize = 64;

/// Counts turned into starts in place: each value becomes the sum of itself and every value
/// before it (the counting sorts' counts are at `[b + 1]`, so `[b]` becomes bucket `b`'s first
/// slot).
fn running_sum(values: &mut [u32]) {
    let mut sum = 0u32;
    for value in values {
        sum += *value;
        *value = sum;
    }
}

/// The integer cell of a scaled coordinate (saturating: NaN → 0, ±∞ → the extreme cells).
#[inline]
fn cell_coord(scaled: f32) -> i32 {
    // `floor` without the libm call: truncate, then step down for negative non-integers, by
    // the comparison's outcome rather than a branch. A branch here is taken for about every
    // other agent in no pattern a big crowd repeats (the sign of its coordinates), while a
    // small crowd's are learned by the branch predictors from step to step: the grid's pass
    // working out every agent's cell took 3.8 ns an agent at 10,000 agents, 18.8 at 100,000
    // and 19.8 at 1,000,000 with the branch, 3.8-4.0 at all three without (one thread, on-CPU,
    // the rebuild alone over a moving crowd; `World::step` of the flock at 1,000 / 10,000 /
    // 100,000 / 1,000,000 boids 289.9 / 316.6 / 341.3 / 344.4 -> 284.5 / 301.5 / 321.4 /
    // 328.9 ns, `examples/step_cpu flocking`). Tested against `f32::floor`.
    let truncated = scaled as i32;
    truncated.saturating_sub(i32::from((truncated as f32) > scaled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_force(positions: &[Vec3], point: Vec3, radius: f32) -> Vec<u32> {
        positions
            .iter()
            .enumerate()
            .filter(|(_, p)| (**p - point).length_squared() <= radius * radius)
            .map(|(i, _)| i as u32)
            .collect()
    }

    #[test]
    fn query_finds_agents_across_cell_borders_and_negative_cells() {
        let positions = vec![
            Vec3::new(-0.5, -0.5, 0.0),
            Vec3::new(0.5, 0.5, 0.0),
            Vec3::new(9.9, 0.0, 0.0),
            Vec3::new(10.1, 0.0, 0.0),
            Vec3::new(-30.0, 4.0, 0.0),
        ];
        let mut grid = NeighbourGrid::new();
        grid.rebuild(&positions, 10.0);
        let mut out = Vec::new();
        grid.neighbours_within(Vec3::ZERO, 10.0, &mut out);
        assert_eq!(out, vec![0, 1, 2]);
        grid.neighbours_within(Vec3::new(10.0, 0.0, 0.0), 0.2, &mut out);
        assert_eq!(out, vec![2, 3]);
        grid.neighbours_within(Vec3::new(-30.0, 0.0, 0.0), 4.0, &mut out);
        assert_eq!(out, vec![4]);
    }

    #[test]
    fn cells_are_the_floor_saturating_at_the_extremes() {
        // The oracle: `floor`, then Rust's saturating conversion (NaN to 0).
        let floor = |x: f32| x.floor() as i32;
        let mut specials = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            2.999_999_8,
            -2.999_999_8,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-40,
            -1e-40,
            2_147_483_520.0,
            -2_147_483_648.0,
            -2_147_483_904.0,
            3e9,
            -3e9,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut state = 99u32;
        for _ in 0..10_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            specials.push(f32::from_bits(state));
        }
        for x in specials {
            assert_eq!(cell_coord(x), floor(x), "{x:e}");
        }
    }

    #[test]
    fn non_finite_positions_are_indexed_but_never_found() {
        let positions = vec![Vec3::new(f32::NAN, 0.0, 0.0), Vec3::splat(f32::INFINITY), Vec3::ZERO];
        let mut grid = NeighbourGrid::new();
        grid.rebuild(&positions, 5.0);
        let mut out = Vec::new();
        grid.neighbours_within(Vec3::ZERO, 1e30, &mut out);
        assert_eq!(out, vec![2]);
        grid.neighbours_within(Vec3::new(f32::NAN, 0.0, 0.0), 1.0, &mut out);
        assert!(out.is_empty());
    }

    /// Uniform numbers in [0, 1) from `seed` (a linear congruential generator).
    fn uniform_from(seed: u64) -> impl FnMut() -> f32 {
        let mut state = seed;
        move || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((state >> 40) as f32) / (1u64 << 24) as f32
        }
    }

    /// The same buckets, and the same agents and positions (bit for bit) slot by slot.
    fn assert_same_slots(a: &NeighbourGrid, b: &NeighbourGrid) {
        assert_eq!(a.starts, b.starts);
        assert_eq!(a.order, b.order);
        let bits = |v: &[Vec3]| v.iter().map(|p| p.to_array().map(f32::to_bits)).collect::<Vec<_>>();
        assert_eq!(bits(&a.sorted_positions), bits(&b.sorted_positions));
    }

    /// The block-by-block sort gives the one-pass sort's grid, slot for slot, in both layouts
    /// (a crowd of even density: dense; a crowd with far outliers: hashed), with non-finite
    /// positions among them.
    #[test]
    fn the_sort_by_blocks_is_the_sort_in_one_pass() {
        let mut next = uniform_from(12345);
        for (n, outliers) in [(300_000usize, false), (140_000, true)] {
            let side = (n as f32 / 0.01).sqrt();
            let mut positions: Vec<Vec3> =
                (0..n).map(|_| Vec3::new((next() - 0.5) * side, (next() - 0.5) * side, 0.0)).collect();
            positions[17] = Vec3::new(f32::NAN, 0.0, 0.0);
            positions[n / 2] = Vec3::new(f32::INFINITY, 3.0, 0.0);
            if outliers {
                positions[5] = Vec3::new(1e7, -1e7, 0.0);
            }
            // On one thread: the pool's threads sort in their own way (`place_in_parallel`).
            let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            let mut blocks = NeighbourGrid::new();
            one_thread.install(|| blocks.rebuild(&positions, 10.0));
            let buckets = blocks.starts.len() - 1;
            assert!(buckets > BLOCK_SORT_MIN_BUCKETS, "{n} agents: {buckets} buckets");
            assert_eq!(blocks.spread.len(), n, "the blocks were taken");
            assert_eq!(blocks.dense.is_none(), outliers);
            // The one-pass sort over the same buckets.
            let mut one_pass = blocks.clone();
            one_pass.starts.iter_mut().for_each(|s| *s = 0);
            one_pass.order.iter_mut().for_each(|o| *o = u32::MAX);
            one_pass.place(&positions);
            assert_same_slots(&blocks, &one_pass);
            // And every agent is in its own bucket's range.
            for (b, w) in blocks.starts.windows(2).enumerate() {
                for &agent in &blocks.order[w[0] as usize..w[1] as usize] {
                    assert_eq!(blocks.bucket_of_point(positions[agent as usize]), b as u32);
                }
            }
        }
    }

    /// A big crowd laid out in the grid's order, a little jostled, is sorted in one pass (its
    /// agents lie close to the agent before them), and that gives the grid the sort by blocks
    /// gives, slot for slot.
    #[test]
    fn a_big_crowd_in_the_grids_order_is_sorted_in_one_pass_as_by_blocks() {
        let mut next = uniform_from(777);
        let n = 300_000usize;
        let side = (n as f32 / 0.01).sqrt();
        let mut positions: Vec<Vec3> =
            (0..n).map(|_| Vec3::new((next() - 0.5) * side, (next() - 0.5) * side, 0.0)).collect();
        let cell = |v: f32| (v / 10.0).floor() as i64;
        positions.sort_by_key(|p| (cell(p.y), cell(p.x)));
        // Jostled: every agent moved up to a cell, as between two storings.
        for p in &mut positions {
            *p += Vec3::new((next() - 0.5) * 20.0, (next() - 0.5) * 20.0, 0.0);
        }
        positions[n / 3] = Vec3::new(f32::NAN, 0.0, 0.0);
        let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let mut one_pass = NeighbourGrid::new();
        one_thread.install(|| one_pass.rebuild(&positions, 10.0));
        assert!(one_pass.starts.len() - 1 > BLOCK_SORT_MIN_BUCKETS);
        let far =
            one_pass.agent_bucket.windows(2).filter(|w| w[0].abs_diff(w[1]) as usize > BLOCK_BUCKETS).count();
        assert!(far <= n / SCATTERED_ONE_IN, "{far} far agents");
        assert!(one_pass.spread.is_empty(), "the one-pass sort was taken");
        let mut blocks = one_pass.clone();
        blocks.order.iter_mut().for_each(|o| *o = u32::MAX);
        blocks.place_in_blocks(&positions);
        assert_same_slots(&blocks, &one_pass);
    }

    #[test]
    fn rebuild_is_deterministic_and_stable_within_a_bucket() {
        let positions: Vec<Vec3> = (0..50).map(|i| Vec3::new((i % 7) as f32, (i % 3) as f32, 0.0)).collect();
        let mut a = NeighbourGrid::new();
        let mut b = NeighbourGrid::new();
        a.rebuild(&positions, 2.0);
        b.rebuild(&positions, 2.0);
        assert_eq!(a.order(), b.order());
        // Within one bucket, agents keep their index order.
        for w in a.order().windows(2) {
            let (i, j) = (w[0] as usize, w[1] as usize);
            if a.bucket_of_point(positions[i]) == a.bucket_of_point(positions[j]) {
                assert!(i < j);
            }
        }
    }

    /// A grid rebuilt over `positions` (cells 10 wide) inside a pool of `threads` threads.
    fn built_on(positions: &[Vec3], threads: usize) -> NeighbourGrid {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        pool.install(|| {
            let mut grid = NeighbourGrid::new();
            grid.rebuild(positions, 10.0);
            grid
        })
    }

    #[test]
    fn a_big_crowd_is_indexed_the_same_on_one_thread_and_on_many() {
        // From PARALLEL_MIN_POSITIONS on, the box and the buckets are worked out on every
        // thread: dense (an even crowd) and hashed (with a far outlier) alike.
        let mut state = 12345u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state as f32 / u32::MAX as f32 - 0.5) * 1000.0
        };
        let mut positions: Vec<Vec3> =
            (0..3 * PARALLEL_MIN_POSITIONS).map(|_| Vec3::new(next(), next(), 0.0)).collect();
        for outlier in [false, true] {
            if outlier {
                positions.push(Vec3::new(1e7, -1e7, 0.0));
                positions.push(Vec3::new(f32::NAN, 0.0, 0.0));
            }
            let build = |threads: usize| built_on(&positions, threads);
            let one = build(1);
            assert_eq!(one.dense.is_some(), !outlier);
            // Three threads share the buckets out unevenly, four evenly; 128 make more tasks
            // than equal shares of these agents would (each task still gets exactly one share).
            for many in [build(3), build(4), build(128)] {
                assert_eq!(one.dense, many.dense);
                assert_eq!(one.starts, many.starts);
                assert_eq!(one.order, many.order);
                assert_eq!(one.agent_bucket, many.agent_bucket);
                let bits = |grid: &NeighbourGrid| -> Vec<[u32; 3]> {
                    grid.sorted_positions.iter().map(|p| p.to_array().map(f32::to_bits)).collect()
                };
                assert_eq!(bits(&one), bits(&many));
            }
        }
    }

    #[test]
    fn a_big_crowd_in_fewer_buckets_than_threads_is_indexed_as_on_one_thread() {
        // Every agent in one cell (two buckets: the cell and the non-finite one), and every
        // agent non-finite (hashed): fewer bucket ranges than threads, or ranges left empty.
        let n = 2 * PARALLEL_MIN_POSITIONS + 3;
        let crowds = [
            vec![Vec3::new(1.5, -2.5, 0.0); n],
            (0..n).map(|i| if i % 3 == 0 { Vec3::new(f32::NAN, 0.0, 0.0) } else { Vec3::ONE }).collect(),
            vec![Vec3::new(f32::INFINITY, 0.0, 0.0); n],
        ];
        for positions in &crowds {
            let build = |threads: usize| built_on(positions, threads);
            let one = build(1);
            for many in [build(2), build(3), build(8)] {
                assert_eq!(one.dense, many.dense);
                assert_eq!(one.starts, many.starts);
                assert_eq!(one.order, many.order);
                assert_eq!(one.agent_bucket, many.agent_bucket);
            }
            let mut found = Vec::new();
            one.neighbours_within(Vec3::new(1.5, -2.5, 0.0), 1.0, &mut found);
            // A stack reads its cell's first MAX_CELL_SLOTS agents.
            let expected: Vec<u32> = (0..n as u32)
                .filter(|&i| positions[i as usize] == Vec3::new(1.5, -2.5, 0.0))
                .take(MAX_CELL_SLOTS)
                .collect();
            assert_eq!(found, expected);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        /// A grid rebuilt over positions laid out in any order, its buckets then ordered by each
        /// one's original index (`order_ties_by`), holds the same agents in the same slots, at
        /// the same positions, as a grid rebuilt over the positions in their original order:
        /// dense and hashed (a far outlier), stacked, on one thread and split over three (from
        /// 4,096 positions the rebuild places in parallel).
        #[test]
        fn buckets_ordered_by_a_key_are_the_grid_of_the_positions_in_that_order(
            points in proptest::collection::vec((-100.0f32..100.0, -100.0f32..100.0), 1..300),
            copies in 1usize..20,
            cell in 1.0f32..40.0,
            outlier in proptest::bool::ANY,
            stacked in proptest::bool::ANY,
            seed in any::<u64>(),
        ) {
            // Up to 6,000 positions: the points repeated (each copy nudged, or stacked on it).
            let mut original: Vec<Vec3> = (0..copies)
                .flat_map(|k| points.iter().map(move |&(x, y)| {
                    let nudge = if stacked { 0.0 } else { k as f32 * 0.37 };
                    Vec3::new(x + nudge, y - nudge, 0.0)
                }))
                .collect();
            if outlier {
                original.push(Vec3::new(1e7, -1e7, 0.0));
            }
            let n = original.len();
            // A shuffle by the seed: stored place s holds original agent `index[s]`.
            let mut index: Vec<u32> = (0..n as u32).collect();
            let mut state = seed | 1;
            for i in (1..n).rev() {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                index.swap(i, (state >> 33) as usize % (i + 1));
            }
            let stored: Vec<Vec3> = index.iter().map(|&i| original[i as usize]).collect();
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let (plain, ordered) = pool.install(|| {
                    let mut plain = NeighbourGrid::new();
                    plain.rebuild(&original, cell);
                    let mut ordered = NeighbourGrid::new();
                    ordered.rebuild(&stored, cell);
                    ordered.order_ties_by(&index);
                    (plain, ordered)
                });
                let agents: Vec<u32> = ordered.order().iter().map(|&place| index[place as usize]).collect();
                prop_assert_eq!(&agents[..], plain.order());
                prop_assert_eq!(ordered.sorted_positions(), plain.sorted_positions());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]
        /// The cut of a crowded cell ([`MAX_CELL_SLOTS`]) against an oracle that knows only the
        /// rule: every agent in a bucket past that bucket's first MAX_CELL_SLOTS (by index) is
        /// unseen, every other within the radius is seen, in either layout. Crowds of a few
        /// stacks (up to three times the cut each, on a point or within a unit) among scattered
        /// agents, and a far outlier half the time (hashed). Queries up to two cells wide, so
        /// never one that scans every slot.
        #[test]
        fn a_crowded_cell_gives_its_first_agents_and_every_other_cell_all_of_its(
            stacks in proptest::collection::vec(
                ((-60.0f32..60.0, -60.0f32..60.0), 0usize..3 * MAX_CELL_SLOTS, 0.0f32..1.0),
                1..4,
            ),
            scattered in proptest::collection::vec((-80.0f32..80.0, -80.0f32..80.0), 0..200),
            cell in 1.0f32..30.0,
            radius_part in 0.0f32..2.0,
            outlier in proptest::bool::ANY,
            seed in 0u32..1000,
        ) {
            let mut state = seed.wrapping_mul(2_654_435_761).max(1);
            let mut jitter = move |spread: f32| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state as f32 / u32::MAX as f32 - 0.5) * spread
            };
            let mut positions: Vec<Vec3> = scattered.iter().map(|&(x, y)| Vec3::new(x, y, 0.0)).collect();
            for &((x, y), count, spread) in &stacks {
                for _ in 0..count {
                    positions.push(Vec3::new(x + jitter(spread), y + jitter(spread), 0.0));
                }
            }
            if outlier {
                positions.push(Vec3::new(1e6, -1e6, 0.0));
            }
            let mut grid = NeighbourGrid::new();
            grid.rebuild(&positions, cell);
            let mut in_bucket = std::collections::HashMap::<u32, usize>::new();
            let kept: Vec<bool> = positions
                .iter()
                .map(|&p| {
                    let seen = in_bucket.entry(grid.bucket_of_point(p)).or_insert(0);
                    *seen += 1;
                    *seen <= MAX_CELL_SLOTS
                })
                .collect();
            let radius = cell * radius_part;
            let queries = stacks.iter().map(|&((x, y), _, _)| Vec3::new(x, y, 0.0)).chain(positions.iter().copied().step_by(97));
            for point in queries {
                let mut found = Vec::new();
                grid.neighbours_within(point, radius, &mut found);
                let expected: Vec<u32> = brute_force(&positions, point, radius)
                    .into_iter()
                    .filter(|&i| kept[i as usize])
                    .collect();
                prop_assert_eq!(found, expected);
            }
        }
    }

    proptest! {
        #[test]
        fn picking_within_a_run_visits_what_a_filter_keeps_in_order(
            values in proptest::collection::vec(-10i32..10, 0..3 * PICK_BATCH),
            cut in -10i32..10,
            skip in 0usize..3 * PICK_BATCH,
        ) {
            let near = |offset: usize, value: i32| (value <= cut) & (offset != skip);
            let mut visited = Vec::new();
            pick_within(&values, near, |offset| visited.push(offset));
            let kept: Vec<usize> = (0..values.len()).filter(|&i| near(i, values[i])).collect();
            prop_assert_eq!(visited, kept);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// `for_each_run`'s promise: a smaller query around the same point visits what a larger
        /// one visits within the smaller radius, in the same order, in every layout. A few
        /// agents (a hashed grid of few buckets, where cells share them) packed around the
        /// point, and a far outlier half the time (the grid hashed); the larger query now and
        /// then many cells wide (every slot).
        #[test]
        fn a_smaller_query_visits_the_larger_ones_agents_within_it_in_order(
            raw in proptest::collection::vec((-40.0f32..40.0, -40.0f32..40.0), 1..24),
            cell in 2.0f32..20.0,
            part in 0.0f32..=1.0,
            outlier in proptest::bool::ANY,
            wide in proptest::bool::ANY,
        ) {
            let mut positions: Vec<Vec3> = raw.iter().map(|&(x, y)| Vec3::new(x, y, 0.0)).collect();
            if outlier {
                positions.push(Vec3::new(1e6, -1e6, 0.0));
            }
            let mut grid = NeighbourGrid::new();
            grid.rebuild(&positions, cell);
            let large = if wide { 10.0 * cell } else { 2.0 * cell };
            let small = large * part;
            for &point in positions.iter().take(8) {
                let visited = |radius: f32| {
                    let mut slots = Vec::new();
                    grid.for_each_within(point, radius, |slot, _| slots.push(slot));
                    slots
                };
                let within_small: Vec<usize> = visited(large)
                    .into_iter()
                    .filter(|&slot| (grid.sorted_positions()[slot] - point).length_squared() <= small * small)
                    .collect();
                prop_assert_eq!(visited(small), within_small);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn queries_match_brute_force(
            raw in proptest::collection::vec((-200.0f32..200.0, -200.0f32..200.0, -5.0f32..5.0), 0..300),
            cell in 0.5f32..60.0,
            radius in 0.0f32..120.0,
            qx in -220.0f32..220.0,
            qy in -220.0f32..220.0,
            outlier in proptest::bool::ANY,
        ) {
            // A far outlier makes the bounding box sparse, so both the dense and the hashed
            // layouts are exercised.
            let mut positions: Vec<Vec3> = raw.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect();
            if outlier {
                positions.push(Vec3::new(1e6, -1e6, 0.0));
            }
            let mut grid = NeighbourGrid::new();
            grid.rebuild(&positions, cell);
            let point = Vec3::new(qx, qy, 0.0);
            let mut out = Vec::new();
            grid.neighbours_within(point, radius, &mut out);
            prop_assert_eq!(out, brute_force(&positions, point, radius));
            // Every agent of the crowd finds itself and exactly its brute-force neighbours.
            for (i, &p) in positions.iter().enumerate().take(20) {
                let mut found = Vec::new();
                grid.neighbours_within(p, cell.min(radius), &mut found);
                prop_assert!(found.contains(&(i as u32)));
                prop_assert_eq!(found, brute_force(&positions, p, cell.min(radius)));
            }
        }
    }
}
