//! The list editor of an agent's behaviours: how the list is combined (blending or priority
//! with its threshold), the main behaviour's weight and group, and every further entry with its
//! weight, group, pickers of what it refers to (`pickers.rs`: its agent, target, path, region
//! or curve, never the agent itself), parameters (the same declared rows as the main
//! behaviour's) and a remove button; a combo adds an entry of any kind (a kind that cannot be
//! made here is greyed out with the reason). Every edit returns one `SetMix` command with the
//! whole new list, so undo sees one step per edit.

use crate::app::edit::{default_behaviour, BehaviourKind};
use crate::app::{App, Command, Selection};
use crate::behaviours::param::{Param, ParamKind};
use crate::sim::{Agent, Combine, Entry, Mix, Slot};

use super::params::{behaviour_params, param_row, with_param, ParamValue};
use super::pickers::reference_rows;
use super::UiState;

/// The kinds an entry may be added as: every kind an agent may have, and obstacle and
/// agent–agent collision avoidance.
fn addable_kinds() -> Vec<BehaviourKind> {
    let mut kinds = vec![
        BehaviourKind::AvoidObstacles,
        BehaviourKind::CollisionAvoidance,
        BehaviourKind::Containment,
        BehaviourKind::Face,
        BehaviourKind::LookWhereYouAreGoing,
    ];
    kinds.extend(BehaviourKind::ALL);
    kinds
}

/// Makes group 0 free for an entry that must win: every entry moves one group later (when
/// something is in group 0) and the list is combined by priority.
fn first_in_priority(mix: &mut Mix) {
    let taken = mix.main.group == 0 || mix.more.iter().any(|e| e.slot.group == 0);
    if taken {
        mix.main.group += 1;
        for entry in &mut mix.more {
            entry.slot.group += 1;
        }
    }
    if mix.combine == Combine::Blend {
        mix.combine = Combine::Priority { threshold: Combine::DEFAULT_THRESHOLD };
    }
}

/// A number row from a declaration; the accepted new value, or None (a refusal is shown).
fn declared_number(ui: &mut egui::Ui, id: &str, declaration: &Param, value: f32) -> Option<f32> {
    let refusal_id = egui::Id::new(("mix_refused", id));
    let mut typed = value;
    let field = egui::DragValue::new(&mut typed)
        .range(f32::NEG_INFINITY..=f32::INFINITY)
        .update_while_editing(false)
        .speed(0.05);
    // A count (a group) shows and drags as a whole number, not "1.00".
    let field = match declaration.kind {
        ParamKind::Int => field.fixed_decimals(0),
        _ => field.max_decimals(3),
    };
    let response = ui.add(field).on_hover_text(declaration.help);
    let mut accepted = None;
    if response.changed() && typed != value {
        match declaration.check(typed) {
            Ok(v) => {
                ui.data_mut(|data| data.remove::<String>(refusal_id));
                accepted = Some(v);
            }
            Err(err) => ui.data_mut(|data| data.insert_temp(refusal_id, err.to_string())),
        }
    }
    if let Some(reason) = ui.data(|data| data.get_temp::<String>(refusal_id)) {
        ui.add(super::refusal_label(&reason));
    }
    accepted
}

/// Weight and group of one entry on one line; the changed slot, if any.
fn slot_row(ui: &mut egui::Ui, id: &str, slot: Slot, priority: bool) -> Option<Slot> {
    let mut changed = None;
    ui.label("weight").on_hover_text(Slot::WEIGHT.help);
    if let Some(weight) = declared_number(ui, &format!("{id}:weight"), &Slot::WEIGHT, slot.weight) {
        changed = Some(Slot { weight, ..slot });
    }
    if priority {
        ui.label("group").on_hover_text(Slot::GROUP.help);
        if let Some(group) = declared_number(ui, &format!("{id}:group"), &Slot::GROUP, slot.group as f32) {
            changed = Some(Slot { group: group as u32, ..changed.unwrap_or(slot) });
        }
    }
    changed
}

/// Draws the list editor of agent `agent_idx`; the edit as a command.
pub fn mix_editor(ui: &mut egui::Ui, app: &App, state: &mut UiState, agent_idx: usize) -> Option<Command> {
    let agent: &Agent = app.world.agents.get(agent_idx)?;
    let Mix { combine, main, more, detour: _ } = &*agent.mix;
    let mut new_mix: Option<Mix> = None;
    let priority = matches!(combine, Combine::Priority { .. });

    ui.horizontal(|ui| {
        ui.label("combine").on_hover_text(
            "Blend: the weighted sum of every entry. Priority: groups in ascending order; the first \
             whose force exceeds the threshold wins (gdx-ai's PrioritySteering).",
        );
        let mut choice = *combine;
        let label = |c: &Combine| if matches!(c, Combine::Blend) { "blend" } else { "priority" };
        let response =
            egui::ComboBox::from_id_salt("mix_combine").selected_text(label(&choice)).show_ui(ui, |ui| {
                ui.selectable_value(&mut choice, Combine::Blend, "blend");
                let threshold = match combine {
                    Combine::Priority { threshold } => *threshold,
                    Combine::Blend => Combine::DEFAULT_THRESHOLD,
                };
                ui.selectable_value(&mut choice, Combine::Priority { threshold }, "priority");
            });
        state.record_rect("mix:combine", response.response.rect);
        if let Combine::Priority { threshold } = combine {
            ui.label("threshold").on_hover_text(Combine::THRESHOLD.help);
            if let Some(t) = declared_number(ui, "threshold", &Combine::THRESHOLD, *threshold) {
                choice = Combine::Priority { threshold: t };
            }
        }
        if choice != *combine {
            new_mix = Some(Mix { combine: choice, ..Mix::clone(&agent.mix) });
        }
    });

    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(format!("1. {} (main)", agent.behaviour.type_name())).strong());
        if let Some(slot) = slot_row(ui, "main", *main, priority) {
            new_mix = Some(Mix { main: slot, ..Mix::clone(&agent.mix) });
        }
    });

    for (entry_idx, entry) in more.iter().enumerate() {
        let id = format!("entry{entry_idx}");
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new(format!("{}. {}", entry_idx + 2, entry.behaviour.type_name())).strong(),
            );
            if let Some(slot) = slot_row(ui, &id, entry.slot, priority) {
                let mut mix = Mix::clone(&agent.mix);
                if let Some(e) = mix.more.get_mut(entry_idx) {
                    e.slot = slot;
                }
                new_mix = Some(mix);
            }
            let remove = ui.small_button("✖").on_hover_text("Remove this entry");
            state.record_rect(format!("mix:remove:{entry_idx}"), remove.rect);
            if remove.clicked() {
                let mut mix = Mix::clone(&agent.mix);
                mix.more.remove(entry_idx);
                new_mix = Some(mix);
            }
        });
        egui::Grid::new(("mix_entry_references", entry_idx)).num_columns(2).show(ui, |ui| {
            let picked = reference_rows(ui, app, agent_idx, &entry.behaviour, &id, &mut state.widget_rects);
            if let Some(changed) = picked {
                let mut mix = Mix::clone(&agent.mix);
                if let Some(e) = mix.more.get_mut(entry_idx) {
                    e.behaviour = changed;
                }
                new_mix = Some(mix);
            }
        });
        let specs = behaviour_params(&entry.behaviour);
        if !specs.is_empty() {
            egui::Grid::new(("mix_entry_params", entry_idx)).num_columns(3).show(ui, |ui| {
                for spec in &specs {
                    let value: Option<ParamValue> = param_row(ui, spec, &mut state.widget_rects);
                    if let Some(changed) = value.and_then(|v| with_param(&entry.behaviour, spec.key, v)) {
                        let mut mix = Mix::clone(&agent.mix);
                        if let Some(e) = mix.more.get_mut(entry_idx) {
                            e.behaviour = changed;
                        }
                        new_mix = Some(mix);
                    }
                }
            });
        }
    }

    let position = agent.kinematics.position;
    let selection = Some(Selection::Agent(agent_idx));
    // Three columns and room for them all, so every kind shows without scrolling (egui opens the
    // list upward when it does not fit below).
    let combo = egui::ComboBox::from_id_salt("mix_add").selected_text("add a behaviour…").height(400.0);
    // A full list (the scene format's limit) greys the combo instead of refusing a pick: the rule
    // the edit's refusal reads, asked of the list one entry longer (the main behaviour, the more
    // entries, the one to add).
    let room =
        crate::app::edit::past_a_limit(std::iter::empty(), agent.mix.more.len().saturating_add(2)).is_none();
    let mut response = ui.add_enabled_ui(room, |ui| {
        combo.show_ui(ui, |ui| {
            egui::Grid::new("mix_add_kinds").num_columns(3).show(ui, |ui| {
                for (idx, kind) in addable_kinds().into_iter().enumerate() {
                    let made = default_behaviour(&app.world, kind, selection, Some(agent_idx), position);
                    let item = match &made {
                        Ok(_) => ui.selectable_label(false, kind.label()),
                        Err(why) => ui
                            .add_enabled(false, egui::SelectableLabel::new(false, kind.label()))
                            .on_disabled_hover_text(why.as_str()),
                    };
                    // Only choices on screen are recorded: a test clicks what a person could.
                    if ui.clip_rect().intersects(item.rect) {
                        state.record_rect(format!("mix:add:{}", kind.label()), item.rect);
                    }
                    if idx % 3 == 2 {
                        ui.end_row();
                    }
                    let (true, Ok(behaviour)) = (item.clicked(), made) else { continue };
                    let mut mix = Mix::clone(&agent.mix);
                    let avoidance = [
                        BehaviourKind::AvoidObstacles,
                        BehaviourKind::CollisionAvoidance,
                        BehaviourKind::Containment,
                    ];
                    let slot = if avoidance.contains(&kind) {
                        Slot { weight: 1.0, group: 0 }
                    } else {
                        Slot { weight: 1.0, group: main.group }
                    };
                    if kind == BehaviourKind::Containment {
                        // A region is a wall: it must win over what the agent wants, so the
                        // list is combined by priority with containment first.
                        first_in_priority(&mut mix);
                    }
                    mix.more.push(Entry::new(behaviour, slot));
                    new_mix = Some(mix);
                }
            });
        })
    });
    if !room {
        response.inner.response =
            response.inner.response.on_disabled_hover_text(crate::app::edit::too_many_behaviours_reason());
    }
    state.record_rect("mix:add", response.inner.response.rect);
    new_mix.map(|mix| Command::SetMix { agent: agent_idx, mix })
}
