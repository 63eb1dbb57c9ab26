//! Reads macroquad's mouse and keyboard into a plain [`InputFrame`] for the editor's tools.
//!
//! The shell tells it whether egui wants the pointer this frame (read inside the egui closure)
//! and who has the keyboard, so a click on a panel never reaches the world and hotkeys never fire
//! while a text field has focus or a dialog is open (macroquad reports key presses regardless).

use macroquad::input::{
    get_dropped_files, is_key_down, is_key_pressed, is_key_released, is_mouse_button_down,
    is_mouse_button_pressed, is_mouse_button_released, mouse_position, mouse_wheel, KeyCode,
    MouseButton as MqButton,
};
use macroquad::math::Vec2;
use macroquad::window::{screen_height, screen_width};

use macroquad::input::utils::{register_input_subscriber, repeat_all_miniquad_input};
use macroquad::miniquad::{self, KeyMods};

use crate::app::{Focus, InputFrame, Key, MouseButton};
use crate::ui::TypedChar;

const BUTTONS: [(MqButton, MouseButton); 3] = [
    (MqButton::Left, MouseButton::Left),
    (MqButton::Right, MouseButton::Right),
    (MqButton::Middle, MouseButton::Middle),
];

const KEYS: [(KeyCode, Key); 18] = [
    (KeyCode::Space, Key::Space),
    (KeyCode::Right, Key::Right),
    (KeyCode::Period, Key::Period),
    (KeyCode::Left, Key::Left),
    (KeyCode::Comma, Key::Comma),
    (KeyCode::Home, Key::Home),
    (KeyCode::End, Key::End),
    (KeyCode::Delete, Key::Delete),
    (KeyCode::Backspace, Key::Backspace),
    (KeyCode::Escape, Key::Escape),
    (KeyCode::Enter, Key::Enter),
    (KeyCode::KpEnter, Key::Enter),
    (KeyCode::Tab, Key::Tab),
    (KeyCode::F1, Key::F1),
    (KeyCode::Slash, Key::Slash),
    (KeyCode::LeftBracket, Key::LeftBracket),
    (KeyCode::RightBracket, Key::RightBracket),
    (KeyCode::F, Key::Letter('F')),
];

const LETTERS: [(KeyCode, char); 25] = [
    (KeyCode::A, 'A'),
    (KeyCode::B, 'B'),
    (KeyCode::C, 'C'),
    (KeyCode::D, 'D'),
    (KeyCode::E, 'E'),
    (KeyCode::G, 'G'),
    (KeyCode::H, 'H'),
    (KeyCode::I, 'I'),
    (KeyCode::J, 'J'),
    (KeyCode::K, 'K'),
    (KeyCode::L, 'L'),
    (KeyCode::M, 'M'),
    (KeyCode::N, 'N'),
    (KeyCode::O, 'O'),
    (KeyCode::P, 'P'),
    (KeyCode::Q, 'Q'),
    (KeyCode::R, 'R'),
    (KeyCode::S, 'S'),
    (KeyCode::T, 'T'),
    (KeyCode::U, 'U'),
    (KeyCode::V, 'V'),
    (KeyCode::W, 'W'),
    (KeyCode::X, 'X'),
    (KeyCode::Y, 'Y'),
    (KeyCode::Z, 'Z'),
];

const DIGITS: [(KeyCode, u8); 9] = [
    (KeyCode::Key1, 1),
    (KeyCode::Key2, 2),
    (KeyCode::Key3, 3),
    (KeyCode::Key4, 4),
    (KeyCode::Key5, 5),
    (KeyCode::Key6, 6),
    (KeyCode::Key7, 7),
    (KeyCode::Key8, 8),
    (KeyCode::Key9, 9),
];

/// This frame's input. `pointer_over_ui` comes from egui, `focus` from the shell (who has the
/// keyboard: the world, a text field or a modal dialog).
pub fn read_input(pointer_over_ui: bool, focus: Focus) -> InputFrame {
    let (x, y) = mouse_position();
    let mut frame = InputFrame {
        mouse: Vec2::new(x, y),
        wheel: normalise_wheel(mouse_wheel().1),
        ctrl: modifier(KeyCode::LeftControl) || modifier(KeyCode::RightControl),
        shift: modifier(KeyCode::LeftShift) || modifier(KeyCode::RightShift),
        alt: modifier(KeyCode::LeftAlt) || modifier(KeyCode::RightAlt),
        pointer_over_ui,
        focus,
        screen: Vec2::new(screen_width(), screen_height()),
        ..InputFrame::default()
    };
    for (mq, ours) in BUTTONS {
        if is_mouse_button_pressed(mq) {
            frame.pressed.push(ours);
        }
        if is_mouse_button_released(mq) {
            frame.released.push(ours);
        }
        if is_mouse_button_down(mq) {
            frame.down.push(ours);
        }
    }
    for (code, key) in KEYS {
        if is_key_pressed(code) {
            frame.keys.push(key);
        }
    }
    for (code, letter) in LETTERS {
        if is_key_pressed(code) {
            frame.keys.push(Key::Letter(letter));
        }
    }
    for (code, digit) in DIGITS {
        if is_key_pressed(code) {
            frame.keys.push(Key::Digit(digit));
        }
    }
    frame.dropped_files = get_dropped_files().into_iter().filter_map(|f| f.path).collect();
    frame
}

/// A modifier counts as held if it is down now or was released during this frame: a fast
/// Ctrl+S (or one typed by xdotool) can press and release both keys between two frames.
fn modifier(code: KeyCode) -> bool {
    is_key_down(code) || is_key_released(code)
}

/// X11 reports wheel clicks as ±1; some platforms report pixels. Normalise to clicks.
fn normalise_wheel(raw: f32) -> f32 {
    if !raw.is_finite() {
        0.0
    } else if raw.abs() > 10.0 {
        raw / 120.0
    } else {
        raw
    }
}

/// The characters the window system types, each with the modifiers held when it came, read from
/// macroquad's event queue as egui-macroquad reads it: [`TypedChars::take`] once a frame, just
/// before the egui pass, sees the same events egui is about to receive.
pub struct TypedChars {
    subscriber: usize,
    /// Whether the modifiers of the last key event held Ctrl or Cmd, as egui-miniquad last set
    /// them (it drops characters while they do).
    egui_command: bool,
}

impl TypedChars {
    /// Starts listening (call once the window is open).
    pub fn new() -> TypedChars {
        TypedChars { subscriber: register_input_subscriber(), egui_command: false }
    }

    /// The characters typed since the last call, in order.
    pub fn take(&mut self) -> Vec<TypedChar> {
        let mut recorder = Recorder { typed: Vec::new(), egui_command: self.egui_command };
        repeat_all_miniquad_input(&mut recorder, self.subscriber);
        self.egui_command = recorder.egui_command;
        recorder.typed
    }
}

impl Default for TypedChars {
    fn default() -> Self {
        TypedChars::new()
    }
}

struct Recorder {
    typed: Vec<TypedChar>,
    egui_command: bool,
}

impl Recorder {
    /// Ctrl, or Cmd on macOS, in egui-miniquad's translation of `mods`.
    fn command(mods: KeyMods) -> bool {
        mods.ctrl || (mods.logo && cfg!(target_os = "macos"))
    }
}

impl miniquad::EventHandler for Recorder {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn char_event(&mut self, character: char, mods: KeyMods, _repeat: bool) {
        self.typed.push(typed_char(character, mods, self.egui_command));
    }
    fn key_down_event(&mut self, _key: KeyCode, mods: KeyMods, _repeat: bool) {
        self.egui_command = Recorder::command(mods);
    }
    fn key_up_event(&mut self, _key: KeyCode, mods: KeyMods) {
        self.egui_command = Recorder::command(mods);
    }
}

/// What one character event means: typed with `mods` held, while egui-miniquad's own idea of
/// Ctrl/Cmd was `egui_command`.
pub fn typed_char(character: char, mods: KeyMods, egui_command: bool) -> TypedChar {
    // egui-miniquad's `is_printable_char`.
    let private_use = ('\u{e000}'..='\u{f8ff}').contains(&character)
        || ('\u{f0000}'..='\u{ffffd}').contains(&character)
        || ('\u{100000}'..='\u{10fffd}').contains(&character);
    let printable = !private_use && !character.is_ascii_control();
    TypedChar {
        character,
        // Option on macOS types letters (Option+E, é), so it is no chord there.
        chord: mods.ctrl || mods.logo || (mods.alt && !cfg!(target_os = "macos")),
        reached_egui: printable && !egui_command,
    }
}
