//! Page-wide keyboard shortcuts, by physical key (`KeyboardEvent.code`), as
//! one table that the `?` overlay lists and the handler reads.

use crate::command::Command;
use crate::panel::Panel;

pub struct Shortcut {
    pub keys: &'static str,
    pub scope: &'static str,
    pub what: &'static str,
}

pub const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        keys: "?",
        scope: "page",
        what: "Show or hide this list",
    },
    Shortcut {
        keys: "Space or K",
        scope: "page",
        what: "Play or pause the recorded run",
    },
    Shortcut {
        keys: ", and .",
        scope: "page",
        what: "Step to the previous or next event",
    },
    Shortcut {
        keys: "Home / End",
        scope: "page",
        what: "Playhead to the start or the end",
    },
    Shortcut {
        keys: "E",
        scope: "page",
        what: "Open Share and export",
    },
    Shortcut {
        keys: "M",
        scope: "page",
        what: "Open Embed",
    },
    Shortcut {
        keys: "Escape",
        scope: "page",
        what: "Close the open panel or this list",
    },
    Shortcut {
        keys: "W A S D or arrows",
        scope: "timeline",
        what: "Pan in time, scroll the lanes",
    },
    Shortcut {
        keys: "+ and −",
        scope: "timeline",
        what: "Zoom in and out",
    },
    Shortcut {
        keys: "F",
        scope: "timeline",
        what: "Fit the whole run",
    },
    Shortcut {
        keys: "Escape",
        scope: "timeline",
        what: "Close a message's details",
    },
    Shortcut {
        keys: "Tab",
        scope: "anywhere",
        what: "Move through every control; each shows a focus ring",
    },
];

/// The command for a key pressed outside text fields, sliders and the
/// timeline. `code` is the physical key; `key` resolves "?" on any layout.
pub fn page_command(code: &str, key: &str, shift: bool, open: Option<Panel>) -> Option<Command> {
    Some(match (code, key) {
        (_, "?") | ("Slash", _) if shift || key == "?" => {
            Command::Panel(if open == Some(Panel::Help) {
                None
            } else {
                Some(Panel::Help)
            })
        }
        ("Space" | "KeyK", _) => Command::TogglePlay,
        ("Comma", _) => Command::Step(false),
        ("Period", _) => Command::Step(true),
        ("Home", _) => Command::Seek(0),
        ("End", _) => Command::Seek(u64::MAX),
        ("KeyE", _) => Command::Panel(Some(Panel::Export)),
        ("KeyM", _) => Command::Panel(Some(Panel::Embed)),
        ("Escape", _) if open.is_some() => Command::Panel(None),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_panel(c: Option<Command>, want: Option<Panel>) -> bool {
        matches!(c, Some(Command::Panel(p)) if p == want)
    }

    #[test]
    fn question_mark_toggles_the_list_on_any_layout() {
        assert!(is_panel(
            page_command("Slash", "?", true, None),
            Some(Panel::Help)
        ));
        // AZERTY: "?" is on another key, found by its meaning.
        assert!(is_panel(
            page_command("KeyM", "?", true, None),
            Some(Panel::Help)
        ));
        assert!(is_panel(
            page_command("Slash", "?", true, Some(Panel::Help)),
            None
        ));
        // "/" alone is not "?".
        assert!(page_command("Slash", "/", false, None).is_none());
    }

    #[test]
    fn play_and_step_keys() {
        assert!(matches!(
            page_command("Space", " ", false, None),
            Some(Command::TogglePlay)
        ));
        assert!(matches!(
            page_command("Period", ".", false, None),
            Some(Command::Step(true))
        ));
        assert!(matches!(
            page_command("Comma", ",", false, None),
            Some(Command::Step(false))
        ));
    }

    #[test]
    fn escape_closes_only_what_is_open() {
        assert!(page_command("Escape", "Escape", false, None).is_none());
        assert!(is_panel(
            page_command("Escape", "Escape", false, Some(Panel::Export)),
            None
        ));
    }
}
