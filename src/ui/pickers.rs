//! The pickers of what a behaviour refers to: one combo box per reference — seek's, flee's and
//! arrive's target, a path follower's path, a parametric follower's curve, containment's region,
//! a flow field's path, painted field or noise, and the other agent of pursuit, evade, offset pursuit, leader
//! following, hide and face, and interpose's two agents. The inspector draws them for an agent's
//! main behaviour and the list editor for every further entry, so each reference of every entry
//! can be changed after it was added.
//!
//! An agent picker never offers the agent itself (the scene validator and `App::apply` refuse a
//! self-reference too), and interpose's two pickers never offer the agent the other one holds.
//! The pickers return the edited behaviour; the caller wraps it in one command (`SetBehaviour`
//! for the main behaviour, `SetMix` for an entry), so each pick is one undo step. Each combo's
//! rectangle is recorded as `pick:SALT:KEY` and, while it is open, each choice's as
//! `pick:SALT:KEY:NAME` (KEY: `target`, `curve`, `path`, `region`, `field`, `agent`, `second`),
//! so tests find them by name.

use std::collections::BTreeMap;

use crate::app::App;
use crate::sim::Behaviour;

use super::params::{with_reference, with_second_reference};

/// The choice in a field picker that means "no path: a noise field".
pub const NOISE_CHOICE: &str = "noise (no path)";

/// What a picker's choice points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pick {
    /// Nothing: a noise field.
    Noise,
    /// The thing of the row's kind with this index (target, path, curve, agent).
    Item(usize),
    /// The painted field with this index (`World::fields`).
    Painted(usize),
}

/// One reference row: what the combo shows and offers.
struct Reference<'a> {
    /// Stable name in the recorded rectangles.
    key: &'static str,
    /// The row's label.
    label: &'static str,
    /// The row's tooltip.
    help: &'static str,
    /// What is chosen now.
    current: Pick,
    /// The choices and the names shown.
    choices: Vec<(Pick, &'a str)>,
}

/// The label and tooltip of the first agent reference of `behaviour`.
fn agent_label(behaviour: &Behaviour) -> (&'static str, &'static str) {
    match behaviour {
        Behaviour::Pursuit { .. } => ("quarry", "The agent this agent pursues"),
        Behaviour::Evade { .. } => ("hunter", "The agent this agent evades"),
        Behaviour::Hide { .. } => ("hunter", "The agent this agent hides from"),
        Behaviour::OffsetPursuit { .. } => ("leader", "The agent in whose frame the slot is held"),
        Behaviour::LeaderFollowing { .. } => ("leader", "The agent this agent follows"),
        Behaviour::Interpose { .. } => ("between", "The first of the two agents this agent gets between"),
        Behaviour::Face { .. } => ("faces", "The agent this agent turns to face"),
        _ => ("agent", "The other agent this behaviour reacts to"),
    }
}

/// Every reference of `behaviour`, in row order.
fn references<'a>(app: &'a App, agent_idx: usize, behaviour: &Behaviour) -> Vec<Reference<'a>> {
    let world = &app.world;
    let indexed = |names: Vec<&'a str>| -> Vec<(Pick, &'a str)> {
        names.into_iter().enumerate().map(|(idx, name)| (Pick::Item(idx), name)).collect()
    };
    let targets = || indexed(world.targets.iter().map(|t| t.id.as_str()).collect());
    let paths = || indexed(world.paths.iter().map(|p| p.id.as_str()).collect());
    let curves = || indexed(world.curves.iter().map(|c| c.id.as_str()).collect());
    // Every agent but this one and `except`.
    let agents = |except: Option<usize>| -> Vec<(Pick, &'a str)> {
        world
            .agents
            .iter()
            .enumerate()
            .filter(|(idx, _)| *idx != agent_idx && Some(*idx) != except)
            .map(|(idx, agent)| (Pick::Item(idx), agent.about.name.as_str()))
            .collect()
    };
    let mut rows = Vec::new();
    if let Some(target) = behaviour.target() {
        rows.push(Reference {
            key: "target",
            label: "target",
            help: "The target this agent uses",
            current: Pick::Item(target),
            choices: targets(),
        });
    }
    if let Some(curve) = behaviour.curve() {
        rows.push(Reference {
            key: "curve",
            label: "curve",
            help: "The curve this agent follows",
            current: Pick::Item(curve),
            choices: curves(),
        });
    }
    match behaviour {
        Behaviour::Containment { region, .. } => rows.push(Reference {
            key: "region",
            label: "region",
            help: "The path whose outline the agent stays inside (closed or not, it is closed for this)",
            current: Pick::Item(*region),
            choices: paths(),
        }),
        Behaviour::FlowField { path, field, .. } => {
            let mut choices = vec![(Pick::Noise, NOISE_CHOICE)];
            choices.extend(paths());
            choices
                .extend(world.fields.iter().enumerate().map(|(idx, f)| (Pick::Painted(idx), f.id.as_str())));
            rows.push(Reference {
                key: "field",
                label: "field",
                help: "The path the field runs along, a painted field (Paint tool), or a noise field from the seed",
                current: match (field, path) {
                    (Some(f), _) => Pick::Painted(*f),
                    (None, Some(p)) => Pick::Item(*p),
                    (None, None) => Pick::Noise,
                },
                choices,
            });
        }
        _ => {
            if let Some(path) = behaviour.path() {
                rows.push(Reference {
                    key: "path",
                    label: "path",
                    help: "The path this agent follows",
                    current: Pick::Item(path),
                    choices: paths(),
                });
            }
        }
    }
    if let Some(other) = behaviour.other_agent() {
        let (label, help) = agent_label(behaviour);
        rows.push(Reference {
            key: "agent",
            label,
            help,
            current: Pick::Item(other),
            choices: agents(behaviour.second_agent()),
        });
    }
    if let Some(second) = behaviour.second_agent() {
        rows.push(Reference {
            key: "second",
            label: "and",
            help: "The second of the two agents this agent gets between",
            current: Pick::Item(second),
            choices: agents(behaviour.other_agent()),
        });
    }
    rows
}

/// `behaviour` with reference `key` set to `choice`.
fn with_choice(behaviour: &Behaviour, key: &str, choice: Pick) -> Behaviour {
    match (key, choice) {
        ("second", Pick::Item(idx)) => with_second_reference(behaviour, idx),
        (_, Pick::Item(idx)) => with_reference(behaviour, idx),
        (_, Pick::Noise | Pick::Painted(_)) => {
            let mut changed = behaviour.clone();
            if let Behaviour::FlowField { path, field, .. } = &mut changed {
                *path = None;
                *field = match choice {
                    Pick::Painted(idx) => Some(idx),
                    _ => None,
                };
            }
            changed
        }
    }
}

/// Draws one row (label, combo) per reference of `behaviour` inside a two-column grid; the
/// behaviour with the reference the user picked, if any. `salt` keeps the combos of several
/// behaviours apart (`main`, `entry0`, …).
pub fn reference_rows(
    ui: &mut egui::Ui,
    app: &App,
    agent_idx: usize,
    behaviour: &Behaviour,
    salt: &str,
    rects: &mut BTreeMap<String, egui::Rect>,
) -> Option<Behaviour> {
    let mut edited = None;
    for reference in references(app, agent_idx, behaviour) {
        let Reference { key, label, help, current, choices } = reference;
        ui.label(label).on_hover_text(help);
        let current_text = choices
            .iter()
            .find(|(idx, _)| *idx == current)
            .map(|(_, name)| *name)
            .or_else(|| match current {
                Pick::Item(idx) => app.world.agents.get(idx).map(|a| a.about.name.as_str()),
                _ => None,
            })
            .unwrap_or("(missing)");
        let mut chosen = current;
        let combo =
            egui::ComboBox::from_id_salt(("pick", salt, key)).selected_text(current_text).show_ui(ui, |ui| {
                for (idx, name) in &choices {
                    let item = ui.selectable_value(&mut chosen, *idx, *name);
                    // Only choices on screen are recorded: a test clicks what a person could.
                    if ui.clip_rect().intersects(item.rect) {
                        rects.insert(format!("pick:{salt}:{key}:{name}"), item.rect);
                    }
                }
            });
        rects.insert(format!("pick:{salt}:{key}"), combo.response.on_hover_text(help).rect);
        ui.end_row();
        if chosen != current {
            edited = Some(with_choice(behaviour, key, chosen));
        }
    }
    edited
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::behaviours::{InterposeParams, PursuitParams};
    use crate::sim::World;

    fn app_with_agents(names: &[&str]) -> App {
        let mut world = World::default();
        for name in names {
            world.agents.push(crate::sim::Agent::new(
                (*name).to_string(),
                crate::sim::Rgb(1, 2, 3),
                Default::default(),
                Default::default(),
                Behaviour::Wander { params: Default::default() },
            ));
        }
        App::new(world, None)
    }

    #[test]
    fn an_agent_picker_offers_every_other_agent_but_never_the_agent_itself() {
        let app = app_with_agents(&["a", "b", "c"]);
        let pursuit = Behaviour::Pursuit { agent: 1, params: PursuitParams::default() };
        let rows = references(&app, 0, &pursuit);
        let names: Vec<&str> = rows.iter().flat_map(|r| r.choices.iter().map(|(_, n)| *n)).collect();
        assert_eq!(names, ["b", "c"]);
        assert_eq!(rows.first().map(|r| r.label), Some("quarry"));
    }

    #[test]
    fn interposes_two_pickers_each_leave_out_the_agent_itself_and_the_other_pick() {
        let app = app_with_agents(&["a", "b", "c", "d"]);
        let interpose = Behaviour::Interpose { agent: 1, other: 2, params: InterposeParams::default() };
        let rows = references(&app, 0, &interpose);
        fn names<'a>(r: &Reference<'a>) -> Vec<&'a str> {
            r.choices.iter().map(|(_, n)| *n).collect()
        }
        assert_eq!(rows.len(), 2);
        assert_eq!(names(&rows[0]), ["b", "d"]);
        assert_eq!(names(&rows[1]), ["c", "d"]);
        assert_eq!(
            with_choice(&interpose, "second", Pick::Item(3)),
            Behaviour::Interpose { agent: 1, other: 3, params: InterposeParams::default() }
        );
    }

    #[test]
    fn the_noise_choice_takes_a_flow_field_off_its_path() {
        let field = Behaviour::FlowField { path: Some(0), field: None, params: Default::default() };
        assert_eq!(
            with_choice(&field, "field", Pick::Noise),
            Behaviour::FlowField { path: None, field: None, params: Default::default() }
        );
        assert_eq!(
            with_choice(
                &Behaviour::FlowField { path: None, field: None, params: Default::default() },
                "field",
                Pick::Item(2)
            ),
            Behaviour::FlowField { path: Some(2), field: None, params: Default::default() }
        );
    }

    #[test]
    fn the_field_picker_offers_painted_fields_and_a_pick_switches_between_them_and_paths() {
        let mut app = app_with_agents(&["a"]);
        let field = crate::behaviours::flow_field::FlowField::from_fn(glam::Vec3::ZERO, 10.0, 2, 2, |_| {
            glam::Vec3::X
        })
        .unwrap();
        app.world
            .fields
            .push(crate::sim::NamedField { id: "swirl".into(), field: std::sync::Arc::new(field) });
        let painted = Behaviour::FlowField { path: None, field: Some(0), params: Default::default() };
        let rows = references(&app, 0, &painted);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].current, Pick::Painted(0));
        let names: Vec<&str> = rows[0].choices.iter().map(|(_, n)| *n).collect();
        assert_eq!(names, [NOISE_CHOICE, "swirl"]);
        // Picking a path takes the entry off the painted field, and back.
        let on_path = with_choice(&painted, "field", Pick::Item(1));
        assert_eq!(on_path, Behaviour::FlowField { path: Some(1), field: None, params: Default::default() });
        assert_eq!(with_choice(&on_path, "field", Pick::Painted(0)), painted);
    }
}
