//! Headless tests of the editor: tools, commands and undo on plain state.
