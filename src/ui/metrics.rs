//! The Metrics panel: a live table of every design.md metric for every agent, sortable by any
//! column (click a header; again to reverse), with Copy CSV and Export CSV buttons. Path,
//! parametric, planner, crowd, flock, pursuit, formation and hiding columns appear when some
//! agent has them; `steerlab run` prints the same columns (`visible_columns`, `cell_text`). [`metrics_csv`] builds the
//! CSV text (always every column, empty cells where a metric does not apply).

use crate::app::{App, Selection};
use crate::sim::MetricsSummary;

/// Rows the metrics table shows at most.
pub const MAX_TABLE_ROWS: usize = 25;

/// Up to this many agents the table is recomputed every frame; above it at most every
/// [`CROWD_REFRESH_SECONDS`]. Measured: a summary costs about 0.7 µs per agent, so 100,000
/// agents cost 74 ms a frame recomputed every frame (most of a frame), 2,000 agents 1.5 ms.
pub const LIVE_TABLE_AGENTS: usize = 2_000;

/// Wall-clock seconds between recomputations of a big crowd's table (the table says at which
/// simulated time its values were taken, so what it shows stays true), up to
/// [`CROWD_REFRESH_AGENTS`] agents; see [`crowd_refresh_seconds`].
pub const CROWD_REFRESH_SECONDS: f64 = 0.5;

/// Above this many agents the table's refresh interval grows in proportion to the crowd, so
/// recomputing it keeps costing about the same share of the window's time (a summary costs
/// about 0.7 µs per agent: 100,000 agents refreshed every half second took 15 ms of every
/// frame on average, every 2.5 s about 3 ms).
pub const CROWD_REFRESH_AGENTS: usize = 20_000;

/// Wall-clock seconds between recomputations of the table of a crowd of `agents` (above
/// [`LIVE_TABLE_AGENTS`]): [`CROWD_REFRESH_SECONDS`], scaled up beyond [`CROWD_REFRESH_AGENTS`].
pub fn crowd_refresh_seconds(agents: usize) -> f64 {
    CROWD_REFRESH_SECONDS * (agents as f64 / CROWD_REFRESH_AGENTS as f64).max(1.0)
}

use super::{color32, UiState};

/// A column of the metrics table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MetricColumn {
    /// Agent name.
    Name,
    /// Behaviour type.
    Behaviour,
    /// Where the agent is now.
    FinalPosition,
    /// Path length travelled.
    DistanceTravelled,
    /// Mean speed.
    MeanSpeed,
    /// Highest speed.
    MaxSpeed,
    /// Times it entered an obstacle.
    Collisions,
    /// Smallest gap to an obstacle.
    MinClearance,
    /// Arrival time.
    ArrivedAt,
    /// Mean distance to the path's centre line.
    MeanCrossTrack,
    /// Largest distance to the path's centre line.
    MaxCrossTrack,
    /// Seconds outside the path radius.
    TimeOutsideRadius,
    /// Arc length gained along the path.
    Progress,
    /// Steps that went back along the path.
    Backtracks,
    /// Steps that jumped forward along the path.
    Skips,
    /// Mean relative speed error.
    SpeedErrorMean,
    /// Largest relative speed error.
    SpeedErrorMax,
    /// Microseconds of the first plan.
    PlanTimeUs,
    /// Planner iterations.
    Iterations,
    /// Plans after the first.
    Replans,
    /// User waypoints reached.
    WaypointsReached,
    /// Length of the first plan.
    PlannedLength,
    /// Straight-line length through the waypoints.
    StraightLength,
    /// Contacts with other agents.
    AgentCollisions,
    /// Smallest gap to another agent.
    MinAgentGap,
    /// Mean nearest-neighbour distance.
    MeanNearestNeighbour,
    /// Mean alignment with the neighbours.
    Alignment,
    /// The whole flock's polarization |mean heading|, averaged over time.
    Polarization,
    /// When a pursuer caught its agent.
    CaptureTime,
    /// Mean distance from the formation slot.
    MeanSlotError,
    /// Largest distance from the formation slot.
    MaxSlotError,
    /// Seconds a hider was in its hunter's sight.
    TimeSeen,
    /// A hider's mean distance from its hunter.
    MeanHunterDistance,
    /// Smallest gap between a leader follower's body and its leader's.
    MinLeaderGap,
}

/// Which behaviours a column applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnGroup {
    /// Every agent.
    All,
    /// Path followers.
    Path,
    /// Parametric followers.
    Parametric,
    /// Planner ships.
    Planner,
    /// Agents with a flocking or collision-avoidance entry.
    Crowd,
    /// Agents with a flocking entry (the flock's polarization means nothing to a crowd of
    /// walkers that only avoid each other).
    Flock,
    /// Pursuers.
    Pursuit,
    /// Formation members (offset pursuit).
    Formation,
    /// Hiders (and evaders).
    Hide,
    /// Leader followers.
    Leader,
}

/// A cell's content.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text (sorted alphabetically).
    Text(String),
    /// A number shown with this many decimals.
    Number(f64, usize),
    /// A position.
    Position([f32; 3]),
    /// Does not apply, or not known yet.
    Missing,
}

impl MetricColumn {
    /// Every column, in table order.
    pub const ALL: [MetricColumn; 34] = [
        MetricColumn::Name,
        MetricColumn::Behaviour,
        MetricColumn::FinalPosition,
        MetricColumn::DistanceTravelled,
        MetricColumn::MeanSpeed,
        MetricColumn::MaxSpeed,
        MetricColumn::Collisions,
        MetricColumn::MinClearance,
        MetricColumn::ArrivedAt,
        MetricColumn::MeanCrossTrack,
        MetricColumn::MaxCrossTrack,
        MetricColumn::TimeOutsideRadius,
        MetricColumn::Progress,
        MetricColumn::Backtracks,
        MetricColumn::Skips,
        MetricColumn::SpeedErrorMean,
        MetricColumn::SpeedErrorMax,
        MetricColumn::PlanTimeUs,
        MetricColumn::Iterations,
        MetricColumn::Replans,
        MetricColumn::WaypointsReached,
        MetricColumn::PlannedLength,
        MetricColumn::StraightLength,
        MetricColumn::AgentCollisions,
        MetricColumn::MinAgentGap,
        MetricColumn::MeanNearestNeighbour,
        MetricColumn::Alignment,
        MetricColumn::Polarization,
        MetricColumn::CaptureTime,
        MetricColumn::MeanSlotError,
        MetricColumn::MaxSlotError,
        MetricColumn::TimeSeen,
        MetricColumn::MeanHunterDistance,
        MetricColumn::MinLeaderGap,
    ];

    /// The metric's design.md name (the CSV header; `final_position` is three CSV columns).
    pub fn key(self) -> &'static str {
        match self {
            MetricColumn::Name => "name",
            MetricColumn::Behaviour => "behaviour",
            MetricColumn::FinalPosition => "final_position",
            MetricColumn::DistanceTravelled => "distance_travelled",
            MetricColumn::MeanSpeed => "mean_speed",
            MetricColumn::MaxSpeed => "max_speed",
            MetricColumn::Collisions => "collisions",
            MetricColumn::MinClearance => "min_clearance",
            MetricColumn::ArrivedAt => "arrived_at",
            MetricColumn::MeanCrossTrack => "mean_cross_track",
            MetricColumn::MaxCrossTrack => "max_cross_track",
            MetricColumn::TimeOutsideRadius => "time_outside_radius",
            MetricColumn::Progress => "progress",
            MetricColumn::Backtracks => "backtracks",
            MetricColumn::Skips => "skips",
            MetricColumn::SpeedErrorMean => "speed_error_mean",
            MetricColumn::SpeedErrorMax => "speed_error_max",
            MetricColumn::PlanTimeUs => "plan_time_us",
            MetricColumn::Iterations => "iterations",
            MetricColumn::Replans => "replans",
            MetricColumn::WaypointsReached => "waypoints_reached",
            MetricColumn::PlannedLength => "planned_length",
            MetricColumn::StraightLength => "straight_length",
            MetricColumn::AgentCollisions => "agent_collisions",
            MetricColumn::MinAgentGap => "min_agent_gap",
            MetricColumn::MeanNearestNeighbour => "mean_nearest_neighbour",
            MetricColumn::Alignment => "alignment",
            MetricColumn::Polarization => "polarization",
            MetricColumn::CaptureTime => "capture_time",
            MetricColumn::MeanSlotError => "mean_slot_error",
            MetricColumn::MaxSlotError => "max_slot_error",
            MetricColumn::TimeSeen => "time_seen",
            MetricColumn::MeanHunterDistance => "mean_hunter_distance",
            MetricColumn::MinLeaderGap => "min_leader_gap",
        }
    }

    /// The table header.
    pub fn header(self) -> &'static str {
        match self {
            MetricColumn::Name => "name",
            MetricColumn::Behaviour => "behaviour",
            MetricColumn::FinalPosition => "position",
            MetricColumn::DistanceTravelled => "distance",
            MetricColumn::MeanSpeed => "mean speed",
            MetricColumn::MaxSpeed => "max speed",
            MetricColumn::Collisions => "collisions",
            MetricColumn::MinClearance => "min clearance",
            MetricColumn::ArrivedAt => "arrived (s)",
            MetricColumn::MeanCrossTrack => "mean XTE",
            MetricColumn::MaxCrossTrack => "max XTE",
            MetricColumn::TimeOutsideRadius => "outside (s)",
            MetricColumn::Progress => "progress",
            MetricColumn::Backtracks => "backtracks",
            MetricColumn::Skips => "skips",
            MetricColumn::SpeedErrorMean => "mean speed err",
            MetricColumn::SpeedErrorMax => "max speed err",
            MetricColumn::PlanTimeUs => "plan (µs)",
            MetricColumn::Iterations => "iterations",
            MetricColumn::Replans => "replans",
            MetricColumn::WaypointsReached => "reached",
            MetricColumn::PlannedLength => "planned len",
            MetricColumn::StraightLength => "straight len",
            MetricColumn::AgentCollisions => "agent hits",
            MetricColumn::MinAgentGap => "min agent gap",
            MetricColumn::MeanNearestNeighbour => "mean NN",
            MetricColumn::Alignment => "alignment",
            MetricColumn::Polarization => "flock polarization",
            MetricColumn::CaptureTime => "caught (s)",
            MetricColumn::MeanSlotError => "mean slot err",
            MetricColumn::MaxSlotError => "max slot err",
            MetricColumn::TimeSeen => "seen (s)",
            MetricColumn::MeanHunterDistance => "mean hunter dist",
            MetricColumn::MinLeaderGap => "min leader gap",
        }
    }

    /// What the column means (the header's tooltip).
    pub fn doc(self) -> &'static str {
        match self {
            MetricColumn::Name => "Agent name (click a row to select the agent)",
            MetricColumn::Behaviour => "Behaviour type",
            MetricColumn::FinalPosition => "Where the agent is now (u)",
            MetricColumn::DistanceTravelled => "Path length travelled since the start (u)",
            MetricColumn::MeanSpeed => "Mean speed (u/s)",
            MetricColumn::MaxSpeed => "Highest speed (u/s)",
            MetricColumn::Collisions => "Times the agent entered an obstacle",
            MetricColumn::MinClearance => {
                "Smallest gap between body and obstacle surfaces (u; negative: overlapping)"
            }
            MetricColumn::ArrivedAt => "Arrival time in seconds (empty if it has not arrived)",
            MetricColumn::MeanCrossTrack => {
                "Mean distance to the path's centre line (cross-track error, u)"
            }
            MetricColumn::MaxCrossTrack => "Largest distance to the path's centre line (u)",
            MetricColumn::TimeOutsideRadius => {
                "Seconds spent farther than the path radius from the centre line"
            }
            MetricColumn::Progress => "Arc length gained along the path, laps included (u)",
            MetricColumn::Backtracks => {
                "Steps where the distance along the path went back by more than a tolerance"
            }
            MetricColumn::Skips => {
                "Steps where the distance along the path jumped forward by more than the agent travelled"
            }
            MetricColumn::SpeedErrorMean => "Mean of |measured speed − set speed| / set speed",
            MetricColumn::SpeedErrorMax => "Largest relative speed error",
            MetricColumn::PlanTimeUs => "Wall-clock microseconds of the first plan (measured by the window)",
            MetricColumn::Iterations => "Planner iterations over all plans",
            MetricColumn::Replans => "Plans after the first",
            MetricColumn::WaypointsReached => "User waypoints reached",
            MetricColumn::PlannedLength => "Length of the first plan (u)",
            MetricColumn::StraightLength => "Straight-line length through the user waypoints (u)",
            MetricColumn::AgentCollisions => "Times the agent came into contact with another agent's body",
            MetricColumn::MinAgentGap => {
                "Smallest gap between its body and another agent's (u; negative: overlapping)"
            }
            MetricColumn::MeanNearestNeighbour => "Mean distance to its nearest neighbour (u)",
            MetricColumn::Alignment => {
                "Mean cosine between its heading and its neighbours' mean heading (1: flying with them)"
            }
            MetricColumn::Polarization => {
                "The whole flock's |mean heading| (1: all fly one way, 0: no common direction), averaged over time"
            }
            MetricColumn::CaptureTime => "When the pursuer first touched the agent it pursues (seconds)",
            MetricColumn::MeanSlotError => "Mean distance from its slot in the leader's frame (u)",
            MetricColumn::MaxSlotError => "Largest distance from its slot in the leader's frame (u)",
            MetricColumn::TimeSeen => {
                "Seconds the hunter could see it (no obstacle across the line between them)"
            }
            MetricColumn::MeanHunterDistance => "Mean distance from the hunter it hides from or evades (u)",
            MetricColumn::MinLeaderGap => {
                "Smallest gap between its body and its leader's (u; negative: it ran into the leader)"
            }
        }
    }

    /// Which agents the column applies to.
    pub fn group(self) -> ColumnGroup {
        match self {
            MetricColumn::Name
            | MetricColumn::Behaviour
            | MetricColumn::FinalPosition
            | MetricColumn::DistanceTravelled
            | MetricColumn::MeanSpeed
            | MetricColumn::MaxSpeed
            | MetricColumn::Collisions
            | MetricColumn::MinClearance
            | MetricColumn::ArrivedAt => ColumnGroup::All,
            MetricColumn::MeanCrossTrack
            | MetricColumn::MaxCrossTrack
            | MetricColumn::TimeOutsideRadius
            | MetricColumn::Progress
            | MetricColumn::Backtracks
            | MetricColumn::Skips => ColumnGroup::Path,
            MetricColumn::SpeedErrorMean | MetricColumn::SpeedErrorMax => ColumnGroup::Parametric,
            MetricColumn::PlanTimeUs
            | MetricColumn::Iterations
            | MetricColumn::Replans
            | MetricColumn::WaypointsReached
            | MetricColumn::PlannedLength
            | MetricColumn::StraightLength => ColumnGroup::Planner,
            MetricColumn::AgentCollisions
            | MetricColumn::MinAgentGap
            | MetricColumn::MeanNearestNeighbour
            | MetricColumn::Alignment => ColumnGroup::Crowd,
            MetricColumn::Polarization => ColumnGroup::Flock,
            MetricColumn::CaptureTime => ColumnGroup::Pursuit,
            MetricColumn::MeanSlotError | MetricColumn::MaxSlotError => ColumnGroup::Formation,
            MetricColumn::TimeSeen | MetricColumn::MeanHunterDistance => ColumnGroup::Hide,
            MetricColumn::MinLeaderGap => ColumnGroup::Leader,
        }
    }

    /// The cell of this column for one agent.
    pub fn cell(self, m: &MetricsSummary) -> Cell {
        let MetricsSummary {
            name,
            behaviour,
            final_position,
            distance_travelled,
            mean_speed,
            max_speed,
            collisions,
            min_clearance,
            arrived_at,
            path,
            parametric,
            planner,
            crowd,
            pursuit,
            formation,
            hide,
            leader,
        } = m;
        let number = |v: f32, decimals: usize| Cell::Number(v as f64, decimals);
        let count = |v: u32| Cell::Number(v as f64, 0);
        let or_missing = |v: Option<Cell>| v.unwrap_or(Cell::Missing);
        match self {
            MetricColumn::Name => Cell::Text(name.clone()),
            MetricColumn::Behaviour => Cell::Text(behaviour.clone()),
            MetricColumn::FinalPosition => Cell::Position(final_position.to_array()),
            MetricColumn::DistanceTravelled => number(*distance_travelled, 1),
            MetricColumn::MeanSpeed => number(*mean_speed, 1),
            MetricColumn::MaxSpeed => number(*max_speed, 1),
            MetricColumn::Collisions => count(*collisions),
            MetricColumn::MinClearance => or_missing(min_clearance.map(|v| number(v, 1))),
            MetricColumn::ArrivedAt => or_missing(arrived_at.map(|v| Cell::Number(v, 2))),
            MetricColumn::MeanCrossTrack => or_missing(path.map(|p| number(p.mean_cross_track, 2))),
            MetricColumn::MaxCrossTrack => or_missing(path.map(|p| number(p.max_cross_track, 2))),
            MetricColumn::TimeOutsideRadius => or_missing(path.map(|p| number(p.time_outside_radius, 2))),
            MetricColumn::Progress => or_missing(path.map(|p| number(p.progress, 1))),
            MetricColumn::Backtracks => or_missing(path.map(|p| count(p.backtracks))),
            MetricColumn::Skips => or_missing(path.map(|p| count(p.skips))),
            MetricColumn::SpeedErrorMean => or_missing(parametric.map(|p| number(p.speed_error_mean, 4))),
            MetricColumn::SpeedErrorMax => or_missing(parametric.map(|p| number(p.speed_error_max, 4))),
            MetricColumn::PlanTimeUs => {
                or_missing(planner.and_then(|p| p.plan_time_us).map(|v| Cell::Number(v, 0)))
            }
            MetricColumn::Iterations => or_missing(planner.map(|p| count(p.iterations))),
            MetricColumn::Replans => or_missing(planner.map(|p| count(p.replans))),
            MetricColumn::WaypointsReached => or_missing(planner.map(|p| count(p.waypoints_reached))),
            MetricColumn::PlannedLength => or_missing(planner.map(|p| number(p.planned_length, 1))),
            MetricColumn::StraightLength => or_missing(planner.map(|p| number(p.straight_length, 1))),
            MetricColumn::AgentCollisions => or_missing(crowd.map(|c| count(c.agent_collisions))),
            MetricColumn::MinAgentGap => {
                or_missing(crowd.and_then(|c| c.min_agent_gap).map(|v| number(v, 1)))
            }
            MetricColumn::MeanNearestNeighbour => {
                or_missing(crowd.and_then(|c| c.mean_nearest_neighbour).map(|v| number(v, 1)))
            }
            MetricColumn::Alignment => or_missing(crowd.and_then(|c| c.alignment).map(|v| number(v, 3))),
            MetricColumn::Polarization => {
                or_missing(crowd.and_then(|c| c.polarization).map(|v| number(v, 3)))
            }
            MetricColumn::MeanSlotError => or_missing(formation.map(|f| number(f.mean_slot_error, 2))),
            MetricColumn::MaxSlotError => or_missing(formation.map(|f| number(f.max_slot_error, 2))),
            MetricColumn::TimeSeen => or_missing(hide.map(|h| number(h.time_seen, 2))),
            MetricColumn::MeanHunterDistance => or_missing(hide.map(|h| number(h.mean_hunter_distance, 1))),
            MetricColumn::MinLeaderGap => {
                or_missing(leader.and_then(|l| l.min_leader_gap).map(|v| number(v, 1)))
            }
            MetricColumn::CaptureTime => {
                or_missing(pursuit.and_then(|p| p.capture_time).map(|v| Cell::Number(v, 2)))
            }
        }
    }
}

/// Whether any agent has metrics of `group`.
pub fn group_present(summaries: &[MetricsSummary], group: ColumnGroup) -> bool {
    match group {
        ColumnGroup::All => true,
        ColumnGroup::Path => summaries.iter().any(|m| m.path.is_some()),
        ColumnGroup::Parametric => summaries.iter().any(|m| m.parametric.is_some()),
        ColumnGroup::Planner => summaries.iter().any(|m| m.planner.is_some()),
        ColumnGroup::Crowd => summaries.iter().any(|m| m.crowd.is_some()),
        ColumnGroup::Flock => summaries.iter().any(|m| m.crowd.is_some_and(|c| c.polarization.is_some())),
        ColumnGroup::Pursuit => summaries.iter().any(|m| m.pursuit.is_some()),
        ColumnGroup::Formation => summaries.iter().any(|m| m.formation.is_some()),
        ColumnGroup::Hide => summaries.iter().any(|m| m.hide.is_some()),
        ColumnGroup::Leader => summaries.iter().any(|m| m.leader.is_some()),
    }
}

/// The columns shown for these agents.
pub fn visible_columns(summaries: &[MetricsSummary]) -> Vec<MetricColumn> {
    MetricColumn::ALL.into_iter().filter(|c| group_present(summaries, c.group())).collect()
}

fn compare_cells(a: &Cell, b: &Cell) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Cell::Text(a), Cell::Text(b)) => a.to_lowercase().cmp(&b.to_lowercase()),
        (Cell::Number(a, _), Cell::Number(b, _)) => a.total_cmp(b),
        (Cell::Position(a), Cell::Position(b)) => a
            .iter()
            .zip(b)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal),
        (Cell::Missing, Cell::Missing) => Ordering::Equal,
        (Cell::Missing, _) => Ordering::Greater,
        (_, Cell::Missing) => Ordering::Less,
        _ => Ordering::Equal,
    }
}

/// Agent indices in table order for a sort (missing values last in both directions).
pub fn sorted_rows(summaries: &[MetricsSummary], sort: Option<(MetricColumn, bool)>) -> Vec<usize> {
    let mut rows: Vec<usize> = (0..summaries.len()).collect();
    if let Some((column, descending)) = sort {
        let cells: Vec<Cell> = summaries.iter().map(|m| column.cell(m)).collect();
        rows.sort_by(|&a, &b| {
            let (Some(ca), Some(cb)) = (cells.get(a), cells.get(b)) else { return std::cmp::Ordering::Equal };
            match (ca, cb) {
                (Cell::Missing, _) | (_, Cell::Missing) => compare_cells(ca, cb),
                _ if descending => compare_cells(cb, ca),
                _ => compare_cells(ca, cb),
            }
        });
    }
    rows
}

/// One CSV field as RFC 4180 writes it: in double quotes (a quote inside doubled) when it holds
/// a comma, a double quote, a carriage return or a line feed; as it is otherwise. The metrics CSV
/// and `steerlab run --trace` both write names through it.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The metrics as CSV: a header of the design.md names (`final_position` split into
/// `final_x,final_y,final_z`) and one row per agent; empty cells where a metric does not apply.
pub fn metrics_csv(summaries: &[MetricsSummary]) -> String {
    let mut header = Vec::new();
    for column in MetricColumn::ALL {
        if column == MetricColumn::FinalPosition {
            header.extend(["final_x", "final_y", "final_z"]);
        } else {
            header.push(column.key());
        }
    }
    let mut csv = header.join(",");
    csv.push('\n');
    for m in summaries {
        let mut fields = Vec::with_capacity(header.len());
        for column in MetricColumn::ALL {
            match column.cell(m) {
                Cell::Text(text) => fields.push(csv_field(&text)),
                Cell::Number(v, _) => fields.push(format!("{v}")),
                Cell::Position(p) => fields.extend(p.iter().map(|v| format!("{v}"))),
                Cell::Missing => fields.push(String::new()),
            }
        }
        csv.push_str(&fields.join(","));
        csv.push('\n');
    }
    csv
}

/// A cell as the table shows it (the window's table and `steerlab run`'s).
pub fn cell_text(cell: &Cell) -> String {
    match cell {
        Cell::Text(text) => text.clone(),
        Cell::Number(v, decimals) => format!("{v:.decimals$}"),
        Cell::Position(p) => format!("({:.0}, {:.0}, {:.0})", p[0], p[1], p[2]),
        Cell::Missing => "—".to_string(),
    }
}

/// What the metrics panel's buttons asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MetricsPanelOutput {
    /// Copy the CSV to the clipboard.
    pub copy_csv: bool,
    /// Ask for a file and write the CSV.
    pub export_csv: bool,
    /// Select this agent (a row was clicked).
    pub select: Option<Selection>,
    /// Points the panel had beyond what its content took (negative: the rows scroll).
    pub spare: f32,
}

/// The Metrics panel's height for `agents` rows: what its content took in the last frame
/// shown with as many agents ([`MetricsCache::fit`]), else an estimate (its title, the header and
/// every row, room for a horizontal scroll bar, never less than two rows); at most a third of
/// the window (then the rows scroll). Measured rather than estimated because the estimate left
/// an empty band under a short table (one agent: two rows and a scroll bar's room too many).
pub fn panel_height(ctx: &egui::Context, agents: usize, fit: Option<PanelFit>) -> f32 {
    let style = ctx.style();
    let row = style.spacing.interact_size.y + style.spacing.item_spacing.y;
    let limit = (ctx.screen_rect().height() / 3.0).max(row * 4.0);
    if let Some(fit) = fit.filter(|fit| fit.agents == agents && fit.height.is_finite() && fit.height > 0.0) {
        return fit.height.min(limit);
    }
    let rows = agents.clamp(2, MAX_TABLE_ROWS + 1) as f32;
    // Title row, header row, the rows, a possible horizontal scroll bar and the panel margins.
    let content = row * (rows + 2.0) + 16.0 + 2.0 * style.spacing.window_margin.topf();
    content.min(limit)
}

/// The height (points, margins included) the Metrics panel's content took for a number of
/// agents, measured as it was shown: [`panel_height`] sizes the next frame's panel by it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelFit {
    /// The agents in the world when it was measured.
    pub agents: usize,
    /// The panel's height that holds the content with nothing to spare.
    pub height: f32,
}

/// The table as last computed: the rows shown (agent index and summary, in table order), the
/// columns, how many agents there were and the simulated time the values belong to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricsTable {
    /// Simulated seconds at which the values were taken.
    pub time: f64,
    /// Steps the world had taken then.
    pub steps: u64,
    /// Agents in the world then.
    pub agents: usize,
    /// The columns shown.
    pub columns: Vec<MetricColumn>,
    /// The rows shown (at most [`MAX_TABLE_ROWS`]): agent index and its summary.
    pub rows: Vec<(usize, MetricsSummary)>,
}

impl MetricsTable {
    /// The table of `app` now, sorted by `sort`.
    pub fn compute(app: &App, sort: Option<(MetricColumn, bool)>) -> Self {
        let summaries = app.metrics();
        let columns = visible_columns(&summaries);
        let mut order = sorted_rows(&summaries, sort);
        order.truncate(MAX_TABLE_ROWS);
        let rows = order.into_iter().filter_map(|i| summaries.get(i).map(|m| (i, m.clone()))).collect();
        MetricsTable {
            time: app.world.time(),
            steps: app.world.steps,
            agents: summaries.len(),
            columns,
            rows,
        }
    }
}

/// The metrics table kept between frames, so a big crowd does not recompute every summary
/// every frame. Small scenes (up to [`LIVE_TABLE_AGENTS`]) are recomputed every frame; a big
/// crowd's table at most every [`crowd_refresh_seconds`], and at once when the sort, the number
/// of agents or the step count going back (a reset, an undo) makes the old one wrong rather
/// than just older.
#[derive(Clone, Debug, Default)]
pub struct MetricsCache {
    table: Option<MetricsTable>,
    sort: Option<(MetricColumn, bool)>,
    plan_times: Vec<Option<f64>>,
    computed_at: f64,
    /// What the panel's content took when last shown (see [`panel_height`]).
    pub fit: Option<PanelFit>,
}

impl MetricsCache {
    /// The table to show at wall-clock time `now` (seconds), recomputed when due.
    pub fn table(&mut self, app: &App, sort: Option<(MetricColumn, bool)>, now: f64) -> &MetricsTable {
        let due = match &self.table {
            None => true,
            Some(table) => {
                app.world.agents.len() <= LIVE_TABLE_AGENTS
                    || table.agents != app.world.agents.len()
                    || self.sort != sort
                    || app.world.steps < table.steps
                    || self.plan_times != app.plan_time_us
                    || !(now - self.computed_at < crowd_refresh_seconds(app.world.agents.len())
                        && now >= self.computed_at)
            }
        };
        if due {
            self.sort = sort;
            self.plan_times.clone_from(&app.plan_time_us);
            self.computed_at = now;
            self.table = Some(MetricsTable::compute(app, sort));
        }
        self.table.get_or_insert_with(|| MetricsTable::compute(app, sort))
    }
}

/// Draws the table; sorting is kept in `state.metrics_sort`.
pub fn metrics_panel(ui: &mut egui::Ui, app: &App, state: &mut UiState) -> MetricsPanelOutput {
    let mut out = MetricsPanelOutput::default();
    let now = ui.ctx().input(|i| i.time);
    let table = state.metrics_cache.table(app, state.metrics_sort, now).clone();
    ui.horizontal(|ui| {
        ui.strong("Metrics");
        ui.label(egui::RichText::new(format!("at {:.2} s", table.time)).weak());
        let polarization = app.world.polarization();
        if let (Some(mean), Some(now)) = (polarization.mean(), polarization.now()) {
            ui.label(format!("flock polarization {now:.3} now, {mean:.3} mean")).on_hover_text(
                "The whole flock's |mean heading| over its moving agents: 1 when all fly one way, about 0 \
                 when there is no common direction",
            );
        }
        let copy = ui.button("Copy CSV").on_hover_text("Copy the table as CSV to the clipboard");
        state.record_rect("metrics:copy_csv", copy.rect);
        if copy.clicked() {
            out.copy_csv = true;
        }
        let export = ui.button("Export CSV…").on_hover_text("Write the table to a CSV file");
        state.record_rect("metrics:export_csv", export.rect);
        if export.clicked() {
            out.export_csv = true;
        }
        if state.metrics_sort.is_some() && ui.button("Unsort").clicked() {
            state.metrics_sort = None;
        }
    });
    if table.agents == 0 {
        let label = ui.label(egui::RichText::new("No agents.").weak());
        out.spare = ui.max_rect().max.y - label.rect.max.y;
        return out;
    }
    let columns = &table.columns;
    // A table of thousands of rows is unreadable and costs a frame to lay out: show the first
    // rows in the current sort order (sort by a column to see its extremes); CSV has them all.
    if table.agents > table.rows.len() {
        ui.label(
            egui::RichText::new(format!(
                "showing {} of {} agents in the current order; sort by a column to see its extremes, export CSV for all",
                table.rows.len(),
                table.agents
            ))
            .weak(),
        );
    }
    let selected = app.selected_agent();
    // The panel is sized to the rows (up to a limit, `panel_height`); past it the rows scroll.
    // (No least height: a one-row table would otherwise take 64 points.)
    let scroll = egui::ScrollArea::both()
        .id_salt("metrics_scroll")
        .auto_shrink([false, false])
        .min_scrolled_height(0.0)
        .show(ui, |ui| {
            egui::Grid::new("metrics_table").striped(true).num_columns(columns.len()).show(ui, |ui| {
                for &column in columns {
                    let arrow = match state.metrics_sort {
                        Some((c, false)) if c == column => " ⏶",
                        Some((c, true)) if c == column => " ⏷",
                        _ => "",
                    };
                    let header = ui.add(
                        egui::Button::new(
                            egui::RichText::new(format!("{}{arrow}", column.header())).strong(),
                        )
                        .frame(false),
                    );
                    state.record_rect(format!("metrics_header:{}", column.key()), header.rect);
                    if header.on_hover_text(column.doc()).clicked() {
                        state.metrics_sort = match state.metrics_sort {
                            Some((c, false)) if c == column => Some((column, true)),
                            Some((c, true)) if c == column => None,
                            _ => Some((column, false)),
                        };
                    }
                }
                ui.end_row();
                for (row, summary) in &table.rows {
                    let row = *row;
                    let Some(agent) = app.world.agents.get(row) else {
                        continue;
                    };
                    for &column in columns {
                        let cell = column.cell(summary);
                        if column == MetricColumn::Name {
                            ui.horizontal(|ui| {
                                let (swatch, _) =
                                    ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                                ui.painter().rect_filled(swatch, 2.0, color32(agent.about.color));
                                let name = ui.selectable_label(selected == Some(row), cell_text(&cell));
                                state.record_rect(format!("metrics_row:{row}"), name.rect);
                                if name.clicked() {
                                    out.select = Some(Selection::Agent(row));
                                }
                            });
                        } else if matches!(cell, Cell::Text(_)) {
                            ui.label(cell_text(&cell));
                        } else {
                            ui.label(egui::RichText::new(cell_text(&cell)).monospace());
                        }
                    }
                    ui.end_row();
                }
            });
        });
    // What the table took, a line's spacing under its last row, and room for the horizontal
    // scroll bar when it is wider than the panel (the bar floats over the last row otherwise).
    let scroll_bar = ui.spacing().scroll;
    let bar = if scroll.content_size.x > scroll.inner_rect.width() + 0.5 {
        scroll_bar.bar_width + scroll_bar.bar_outer_margin + scroll_bar.bar_inner_margin
    } else {
        0.0
    };
    out.spare = scroll.inner_rect.height() - scroll.content_size.y - bar - ui.spacing().item_spacing.y;
    out
}
