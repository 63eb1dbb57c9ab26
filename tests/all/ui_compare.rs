//! Compare (`M`) on the group behaviours, headless: the clone is made with the behaviour the
//! README names, and after a run on the shipped scene the compared metric differs the way the
//! comparison is meant to show (a hider against plain flight, a formation slot held with and
//! without velocity matching, a boid with each flocking rule off, a leader follower that never
//! clears the leader's path).

use steerlab::app::{App, Command, Selection};
use steerlab::behaviours::PursuitParams;
use steerlab::sim::{Behaviour, MetricsSummary};

fn shipped(scene: &str) -> App {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(scene);
    App::new(steerlab::scene::load_scene(&path).unwrap(), None)
}

/// Selects the agent named `name` and presses Compare; returns its index and the clones' indices.
fn compare(app: &mut App, name: &str) -> (usize, Vec<usize>) {
    let original = app.world.agents.iter().position(|a| a.about.name == name).unwrap();
    let before = app.world.agents.len();
    app.apply(Command::Select(Some(Selection::Agent(original))));
    app.apply(Command::Compare { agent: original });
    (original, (before..app.world.agents.len()).collect())
}

fn run(app: &mut App, seconds: f32) -> Vec<MetricsSummary> {
    let steps = (seconds / app.world.dt).round() as u64;
    app.world.run_steps(steps);
    app.world.metrics()
}

#[test]
fn compare_races_a_hider_against_plain_flight_from_the_same_hunter() {
    let mut app = shipped("hiding.json");
    let hunter = app.world.agents.iter().position(|a| a.about.name == "hunter").unwrap();
    let (mouse, clones) = compare(&mut app, "mouse");
    assert_eq!(clones.len(), 1);
    let clone = &app.world.agents[clones[0]];
    assert_eq!(clone.about.name, "mouse flee");
    assert_eq!(
        clone.behaviour,
        Behaviour::Evade { agent: hunter, params: PursuitParams { max_prediction: 0.0 } }
    );
    assert_eq!(clone.mix, app.world.agents[mouse].mix, "the rest of the list (avoidance) comes along");
    assert_eq!(clone.about.start, app.world.agents[mouse].about.start);
    let metrics = run(&mut app, 60.0);
    let (hider, flee) =
        (metrics[mouse].hide.unwrap(), metrics[clones[0]].hide.expect("the clone's seen column"));
    assert!(
        flee.time_seen > 10.0 * hider.time_seen.max(0.5),
        "fleeing is seen {} s of a minute, hiding {} s",
        flee.time_seen,
        hider.time_seen
    );
}

#[test]
fn compare_holds_a_formation_slot_without_velocity_matching_beside_the_wing() {
    let mut app = shipped("formation.json");
    let (wing, clones) = compare(&mut app, "wing 5");
    assert_eq!(clones.len(), 1);
    let clone = &app.world.agents[clones[0]];
    assert_eq!(clone.about.name, "wing 5 no velocity matching");
    let (Behaviour::OffsetPursuit { agent, params }, Behaviour::OffsetPursuit { agent: leader, params: own }) =
        (&clone.behaviour, &app.world.agents[wing].behaviour)
    else {
        panic!("{:?}", clone.behaviour)
    };
    assert_eq!(agent, leader, "the same leader");
    assert!(own.match_velocity && !params.match_velocity);
    assert_eq!(
        (params.offset_x, params.offset_y, params.approach_time),
        (own.offset_x, own.offset_y, own.approach_time)
    );
    let metrics = run(&mut app, 30.0);
    let (held, plain) =
        (metrics[wing].formation.unwrap(), metrics[clones[0]].formation.expect("the clone's slot columns"));
    // Without the slot's velocity a follower lags by about the leader's speed (50 u/s) times
    // the approach time (0.5 s).
    assert!(
        plain.mean_slot_error > 15.0 && plain.mean_slot_error > 3.0 * held.mean_slot_error,
        "slot error without velocity matching {} against {}",
        plain.mean_slot_error,
        held.mean_slot_error
    );
}

#[test]
fn compare_turns_each_flocking_rule_off_in_a_clone_of_the_boid() {
    let mut app = shipped("flock.json");
    let (boid, clones) = compare(&mut app, "boid 500");
    let Behaviour::Flocking { params: own } = app.world.agents[boid].behaviour else { panic!() };
    let names: Vec<&str> = clones.iter().map(|&i| app.world.agents[i].about.name.as_str()).collect();
    assert_eq!(names, ["boid 500 no separation", "boid 500 no alignment", "boid 500 no cohesion"]);
    let weights: Vec<[f32; 3]> = clones
        .iter()
        .map(|&i| match app.world.agents[i].behaviour {
            Behaviour::Flocking { params } => {
                assert_eq!((params.radius, params.view_angle), (own.radius, own.view_angle));
                [params.separation, params.alignment, params.cohesion]
            }
            ref other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        weights,
        [
            [0.0, own.alignment, own.cohesion],
            [own.separation, 0.0, own.cohesion],
            [own.separation, own.alignment, 0.0]
        ]
    );
    let metrics = run(&mut app, 20.0);
    let crowd = |i: usize| metrics[i].crowd.expect("crowd columns");
    let (with_all, no_separation, no_alignment, no_cohesion) =
        (crowd(boid), crowd(clones[0]), crowd(clones[1]), crowd(clones[2]));
    assert!(
        no_separation.agent_collisions > with_all.agent_collisions
            && no_separation.min_agent_gap < with_all.min_agent_gap,
        "without separation: {no_separation:?}; with: {with_all:?}"
    );
    assert!(
        no_alignment.alignment.unwrap() < with_all.alignment.unwrap(),
        "without alignment: {no_alignment:?}; with: {with_all:?}"
    );
    assert!(
        no_cohesion.mean_nearest_neighbour.unwrap() > with_all.mean_nearest_neighbour.unwrap(),
        "without cohesion: {no_cohesion:?}; with: {with_all:?}"
    );
}

/// A leader that turns back each time the target it seeks bounces off the scene's bounds past
/// it: its follower, trailing behind, then stands in its path. Leader following steps out of
/// the way and goes round; the clone that only holds the follow point walks back through the
/// leader's path and into the leader's body (`min leader gap` below 0).
#[test]
fn compare_races_a_leader_follower_against_one_that_never_clears_the_path() {
    let scene = r#"{"version": 2, "name": "Follow",
        "bounds": {"min": [-300, -200], "max": [300, 200]},
        "targets": [{"id": "shuttle", "position": [100, 0], "velocity": [90, 0]}],
        "agents": [
          {"name": "leader", "position": [0, 0], "radius": 8, "max_speed": 40,
           "behaviours": [{"type": "seek", "target": "shuttle"}]},
          {"name": "follower", "position": [-50, 0], "radius": 6, "max_speed": 100, "max_acceleration": 400,
           "behaviours": [{"type": "leader_following", "agent": "leader"}]}]}"#;
    let mut app = App::new(steerlab::scene::parse_scene(scene, "follow.json").unwrap(), None);
    let (follower, clones) = compare(&mut app, "follower");
    assert_eq!(clones.len(), 1);
    let clone = &app.world.agents[clones[0]];
    assert_eq!(clone.about.name, "follower no clearing");
    let Behaviour::LeaderFollowing { agent: 0, params } = clone.behaviour else {
        panic!("{:?}", clone.behaviour)
    };
    assert!(!params.clear_path);
    let metrics = run(&mut app, 30.0);
    let (clearing, plain) = (
        metrics[follower].leader.unwrap(),
        metrics[clones[0]].leader.expect("the clone's leader gap column"),
    );
    let (clearing, plain) = (clearing.min_leader_gap.unwrap(), plain.min_leader_gap.unwrap());
    assert!(
        clearing > 5.0 && plain < 0.0,
        "closest to the leader: {plain} without clearing, {clearing} with"
    );
}
