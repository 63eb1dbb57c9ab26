//! A small file dialog drawn with egui alone (no desktop portal, works under Xvfb): a path
//! field, a parent-directory button, the directories and matching files of the current
//! directory, a file name field when saving, OK and Cancel.
//!
//! [`list_dir`] and [`is_existing_file`] are the places `ui` touches the file system: the first
//! reads a directory's entry names and kinds with `std::fs::read_dir`, only when the dialog opens
//! or changes directory; the second asks whether the file a save is about to write exists, only
//! when Save or Export is pressed (never per frame), as does the shipped-example check
//! ([`crate::scene::is_shipped_example`]). Reading and writing scenes stays in `scene`.
//!
//! Saving or exporting onto a file that exists asks first: the buttons row becomes "NAME exists.
//! Replace it?" with Replace and Keep it (`file_dialog:replace`, `file_dialog:keep`). Enter
//! answers Replace and Esc answers Keep it; editing the name or the folder drops the question.
//! Saving onto a shipped example is refused in the dialog, in red, and the dialog stays open.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{trim_line_breaks, ERROR_RED};

/// What the dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileDialogMode {
    /// Choose an existing scene (`*.json`).
    Open,
    /// Choose where to save the scene (`*.json`).
    Save,
    /// Choose where to write the metrics (`*.csv`).
    ExportCsv,
}

impl FileDialogMode {
    /// The extension of the files listed and appended to typed names.
    pub fn extension(self) -> &'static str {
        match self {
            FileDialogMode::Open | FileDialogMode::Save => "json",
            FileDialogMode::ExportCsv => "csv",
        }
    }
    /// The window title.
    pub fn title(self) -> &'static str {
        match self {
            FileDialogMode::Open => "Open scene",
            FileDialogMode::Save => "Save scene as",
            FileDialogMode::ExportCsv => "Export metrics CSV",
        }
    }
    /// Whether the user types a file name (rather than picking an existing file).
    pub fn asks_for_name(self) -> bool {
        !matches!(self, FileDialogMode::Open)
    }
}

/// One line of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    /// File or directory name.
    pub name: String,
    /// Whether it is a directory.
    pub is_dir: bool,
}

/// The dialog's state.
#[derive(Clone, Debug, PartialEq)]
pub struct FileDialog {
    /// What it is for.
    pub mode: FileDialogMode,
    /// The directory listed.
    pub dir: PathBuf,
    /// The path field's text (Enter goes there).
    pub dir_text: String,
    /// The chosen or typed file name.
    pub file_name: String,
    /// The listing of `dir`.
    pub entries: Vec<DirEntry>,
    /// Why the directory could not be listed, or why OK is refused.
    pub error: Option<String>,
    /// The file name field takes the keyboard on the next frame (set when the dialog opens, so
    /// typing goes into the name at once).
    pub focus_name: bool,
    /// A save onto this existing file waits for its answer ("Replace it?").
    pub confirm_replace: Option<PathBuf>,
    /// The shipped examples' folder: a scene is never saved onto a file directly in it.
    pub examples_dir: Option<PathBuf>,
    /// The file a save was refused for, and why (shown until the name or folder changes).
    pub refused: Option<(PathBuf, String)>,
}

/// How the dialog ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileDialogResult {
    /// The user chose this file.
    Chosen(PathBuf),
    /// The user cancelled.
    Cancelled,
}

/// The directories and files with extension `extension` in `dir`, directories first, each
/// group sorted by name (hidden entries left out). Errors are the OS's message.
pub fn list_dir(dir: &Path, extension: &str) -> Result<Vec<DirEntry>, String> {
    let reader = std::fs::read_dir(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    let mut entries: Vec<DirEntry> = reader
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with('.') {
                return None;
            }
            let is_dir = entry.path().is_dir();
            let matches = Path::new(&name).extension().is_some_and(|e| e.eq_ignore_ascii_case(extension));
            (is_dir || matches).then_some(DirEntry { name, is_dir })
        })
        .collect();
    entries.sort_by(|a, b| {
        b.is_dir.cmp(&a.is_dir).then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    Ok(entries)
}

impl FileDialog {
    /// A dialog in `dir` with `file_name` typed in (for saving).
    pub fn new(mode: FileDialogMode, dir: PathBuf, file_name: &str) -> FileDialog {
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let mut dialog = FileDialog {
            mode,
            dir_text: dir.display().to_string(),
            dir,
            file_name: file_name.to_string(),
            entries: Vec::new(),
            error: None,
            focus_name: true,
            confirm_replace: None,
            examples_dir: None,
            refused: None,
        };
        dialog.refresh();
        dialog
    }

    /// Lists the directory again.
    pub fn refresh(&mut self) {
        match list_dir(&self.dir, self.mode.extension()) {
            Ok(entries) => {
                self.entries = entries;
                self.error = None;
            }
            Err(why) => {
                self.entries.clear();
                self.error = Some(why);
            }
        }
    }

    /// Goes to `dir` (a path typed or clicked) and lists it.
    pub fn change_dir(&mut self, dir: PathBuf) {
        self.dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        self.dir_text = self.dir.display().to_string();
        self.refresh();
    }

    /// Goes to a path typed in the folder field: a folder is listed; a file's path (an
    /// existing file, or a new name in an existing folder) lists its folder with the name filled
    /// in, so that OK takes it. Returns whether a file was named. (Typing a whole file path
    /// there used to list it as a folder: "Not a directory", found by an audit.)
    pub fn go_to_typed(&mut self, typed: &str) -> bool {
        let path = PathBuf::from(typed.trim());
        let file = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) if !path.is_dir() => {
                let parent =
                    if parent.as_os_str().is_empty() { self.dir.clone() } else { self.dir.join(parent) };
                parent.is_dir().then(|| (parent, name.to_string_lossy().into_owned()))
            }
            _ => None,
        };
        match file {
            Some((parent, name)) => {
                self.change_dir(parent);
                self.file_name = name;
                true
            }
            None => {
                self.change_dir(self.dir.join(path));
                false
            }
        }
    }

    /// Goes to the parent directory.
    pub fn go_up(&mut self) {
        if let Some(parent) = self.dir.parent().map(Path::to_path_buf) {
            self.change_dir(parent);
        }
    }

    /// Whether the listing has a file of this name.
    pub fn lists_file(&self, name: &str) -> bool {
        self.entries.iter().any(|e| !e.is_dir && e.name == name)
    }

    /// The file OK would choose: the name in the directory, with the mode's extension added
    /// when saving a name without it (`metrics.json` typed into Export CSV becomes
    /// `metrics.json.csv`: a scene is never overwritten by a table, nor a table by a scene).
    /// Errors say what is missing.
    pub fn chosen_path(&self) -> Result<PathBuf, String> {
        let name = self.file_name.trim();
        if name.is_empty() {
            return Err(
                if self.mode.asks_for_name() { "type a file name" } else { "choose a file" }.to_string()
            );
        }
        let mut path = self.dir.join(name);
        let extension = self.mode.extension();
        let has_extension = path.extension().is_some_and(|e| e.eq_ignore_ascii_case(extension));
        if self.mode.asks_for_name() && !has_extension {
            let mut with_extension = path.into_os_string();
            with_extension.push(format!(".{extension}"));
            path = PathBuf::from(with_extension);
        }
        if !self.mode.asks_for_name() && !self.lists_file(name) {
            return Err(format!("{name} is not a .{} file in this folder", self.mode.extension()));
        }
        Ok(path)
    }
}

/// Whether `path` names an existing file (a save there would replace it).
pub fn is_existing_file(path: &Path) -> bool {
    path.is_file()
}

impl FileDialog {
    /// The same dialog, refusing to save a scene onto a file directly in `examples_dir`.
    pub fn protecting(mut self, examples_dir: PathBuf) -> FileDialog {
        self.examples_dir = Some(examples_dir);
        self
    }

    /// What choosing `path` does: opening takes it; saving takes a new file, asks "Replace it?"
    /// first for an existing one, and refuses a shipped example (None: the question or the
    /// refusal is now shown).
    fn choose(&mut self, path: PathBuf) -> Option<FileDialogResult> {
        let example = self.mode == FileDialogMode::Save
            && self.examples_dir.as_deref().is_some_and(|dir| crate::scene::is_shipped_example(&path, dir));
        if example {
            let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            let why = format!(
                "{name} is a shipped example: save your copy under another name or in another folder"
            );
            self.refused = Some((path, why));
            // Back to the name, so that another can be typed at once.
            self.focus_name = true;
            None
        } else if self.mode.asks_for_name() && is_existing_file(&path) {
            self.confirm_replace = Some(path);
            None
        } else {
            Some(FileDialogResult::Chosen(path))
        }
    }
}

/// Draws the dialog window; returns how it ended, or None while it stays open.
/// The OK and Cancel buttons' rectangles go into `rects` as `file_dialog:ok` and `file_dialog:cancel`,
/// and while it asks "Replace it?", its buttons' as `file_dialog:replace` and `file_dialog:keep`.
pub fn file_dialog_window(
    ctx: &egui::Context,
    dialog: &mut FileDialog,
    rects: &mut BTreeMap<String, egui::Rect>,
) -> Option<FileDialogResult> {
    let mut result = None;
    let mut open = true;
    egui::Window::new(dialog.mode.title())
        .open(&mut open)
        .collapsible(false)
        .default_size([480.0, 380.0])
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            result = file_dialog_contents(ui, dialog, rects);
        });
    if !open {
        result = Some(FileDialogResult::Cancelled);
    }
    result
}

fn file_dialog_contents(
    ui: &mut egui::Ui,
    dialog: &mut FileDialog,
    rects: &mut BTreeMap<String, egui::Rect>,
) -> Option<FileDialogResult> {
    let mut result = None;
    let mut go_to: Option<PathBuf> = None;
    let mut typed: Option<String> = None;
    // A file chosen this frame (double click, OK, Enter): saving onto an existing one asks first.
    let mut chosen_now: Option<PathBuf> = None;
    ui.horizontal(|ui| {
        if ui.button("⬆").on_hover_text("Parent directory").clicked() {
            go_to = dialog.dir.parent().map(Path::to_path_buf);
        }
        let field = ui.add(
            egui::TextEdit::singleline(&mut dialog.dir_text)
                .id_salt("file_dialog_dir")
                .desired_width(f32::INFINITY),
        );
        if field.changed() {
            trim_line_breaks(&mut dialog.dir_text);
        }
        if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            typed = Some(dialog.dir_text.clone());
        }
    });
    let extension = dialog.mode.extension();
    let list_height = (ui.available_height() - 70.0).max(120.0);
    egui::ScrollArea::vertical().max_height(list_height).auto_shrink([false, false]).show(ui, |ui| {
        if dialog.entries.is_empty() && dialog.error.is_none() {
            ui.label(egui::RichText::new(format!("no folders or .{extension} files here")).weak());
        }
        for entry in &dialog.entries {
            if entry.is_dir {
                if ui.selectable_label(false, format!("📁 {}", entry.name)).clicked() {
                    go_to = Some(dialog.dir.join(&entry.name));
                }
            } else {
                let selected = dialog.file_name == entry.name;
                let response = ui.selectable_label(selected, format!("📄 {}", entry.name));
                rects.insert(format!("file_dialog:entry:{}", entry.name), response.rect);
                if response.clicked() {
                    dialog.file_name = entry.name.clone();
                }
                if response.double_clicked() {
                    dialog.file_name = entry.name.clone();
                    chosen_now = dialog.chosen_path().ok();
                }
            }
        }
    });
    if dialog.mode.asks_for_name() {
        ui.horizontal(|ui| {
            ui.label("file name");
            let field = ui.add(
                egui::TextEdit::singleline(&mut dialog.file_name)
                    .id_salt("file_dialog_name")
                    .desired_width(260.0),
            );
            if std::mem::take(&mut dialog.focus_name) {
                field.request_focus();
            }
            if field.changed() {
                trim_line_breaks(&mut dialog.file_name);
            }
        });
    }
    // The question and the refusal stand only for their file (a name or folder edited drops them).
    let current = dialog.chosen_path().ok();
    if dialog.confirm_replace.is_some() && current != dialog.confirm_replace {
        dialog.confirm_replace = None;
    }
    if dialog.refused.as_ref().is_some_and(|(path, _)| current.as_ref() != Some(path)) {
        dialog.refused = None;
    }
    let asking = dialog.confirm_replace.is_some();
    if let Some((_, why)) = &dialog.refused {
        ui.label(egui::RichText::new(why).color(ERROR_RED));
    } else if dialog.mode.asks_for_name() && !asking {
        if let Ok(path) = dialog.chosen_path() {
            let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            if dialog.lists_file(&name) {
                ui.label(egui::RichText::new(format!("{name} exists and will be replaced")).color(ERROR_RED));
            }
        }
    }
    if let Some(error) = &dialog.error {
        ui.label(egui::RichText::new(error).color(ERROR_RED));
    }
    let mut answer: Option<bool> = None;
    if let Some(path) = dialog.confirm_replace.clone() {
        let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        ui.label(egui::RichText::new(format!("{name} exists. Replace it?")).color(ERROR_RED).strong());
        ui.horizontal(|ui| {
            let replace = ui.button("Replace").on_hover_text(path.display().to_string());
            rects.insert("file_dialog:replace".to_string(), replace.rect);
            if replace.clicked() {
                answer = Some(true);
            }
            let keep = ui.button("Keep it").on_hover_text("leave the file as it is and choose another name");
            rects.insert("file_dialog:keep".to_string(), keep.rect);
            if keep.clicked() {
                answer = Some(false);
            }
        });
    } else {
        ui.horizontal(|ui| {
            let chosen = dialog.chosen_path();
            let ok_label = match dialog.mode {
                FileDialogMode::Open => "Open",
                FileDialogMode::Save => "Save",
                FileDialogMode::ExportCsv => "Export",
            };
            let ok = ui.add_enabled(chosen.is_ok(), egui::Button::new(ok_label));
            let ok = match &chosen {
                Ok(path) => ok.on_hover_text(path.display().to_string()),
                Err(why) => ok.on_disabled_hover_text(why.as_str()),
            };
            rects.insert("file_dialog:ok".to_string(), ok.rect);
            if ok.clicked() {
                chosen_now = chosen.ok();
            }
            let cancel = ui.button("Cancel");
            rects.insert("file_dialog:cancel".to_string(), cancel.rect);
            if cancel.clicked() {
                result = Some(FileDialogResult::Cancelled);
            }
        });
    }
    // The dialog owns Enter (confirm, unless it just went to a typed folder) and Esc (cancel);
    // while it asks "Replace it?", Enter replaces and Esc keeps the file (the dialog stays).
    let (enter, escape) = ui.input(|i| (i.key_pressed(egui::Key::Enter), i.key_pressed(egui::Key::Escape)));
    if asking && answer.is_none() && typed.is_none() && go_to.is_none() {
        if escape {
            answer = Some(false);
        } else if enter {
            answer = Some(true);
        }
    }
    match answer {
        Some(true) => return dialog.confirm_replace.take().map(FileDialogResult::Chosen),
        Some(false) => {
            dialog.confirm_replace = None;
            dialog.focus_name = true;
            return None;
        }
        None if asking && typed.is_none() => {
            if let Some(dir) = go_to {
                dialog.change_dir(dir);
            }
            return None;
        }
        None => {}
    }
    if let Some(typed) = typed {
        // A file's path typed and Enter: take it at once, as Enter in the name field does.
        if dialog.go_to_typed(&typed) {
            if let Ok(path) = dialog.chosen_path() {
                return dialog.choose(path);
            }
        }
        return result;
    }
    if escape {
        return Some(FileDialogResult::Cancelled);
    }
    if chosen_now.is_none() && enter && go_to.is_none() && result.is_none() {
        chosen_now = dialog.chosen_path().ok();
    }
    if let Some(path) = chosen_now {
        if result.is_none() {
            result = dialog.choose(path);
        }
    }
    if let Some(dir) = go_to {
        dialog.change_dir(dir);
    }
    result
}
