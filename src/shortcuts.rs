//! Page-wide keyboard shortcuts, by physical key (`KeyboardEvent.code`). The
//! `?` overlay lists them from `crates/lease-panels/src/shortcut_list.rs`.

use crate::command::Command;
use crate::panel::Panel;

/// The command for a key pressed outside text fields, sliders and the
/// timeline. `code` is the physical key; `key` resolves "?" on any layout.
/// In presenter mode Escape leaves it; the presenter bar
/// (`crates/lease-panels`) has the keys that step a tour's slides.
pub fn page_command(
    code: &str,
    key: &str,
    shift: bool,
    open: Option<Panel>,
    present: bool,
) -> Option<Command> {
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
        // In presenter mode a clicker's "." blanks the screen (the
        // presenter bar's key), as it does in slide software.
        ("Period", _) if !present => Command::Step(true),
        ("Home", _) => Command::Seek(0),
        ("End", _) => Command::Seek(u64::MAX),
        ("KeyE", _) => Command::Panel(Some(Panel::Export)),
        ("KeyM", _) => Command::Panel(Some(Panel::Embed)),
        ("KeyR", _) => Command::Panel(Some(Panel::Recommend)),
        ("KeyP", _) => Command::Present(!present),
        ("Escape", _) if present => Command::Present(false),
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
            page_command("Slash", "?", true, None, false),
            Some(Panel::Help)
        ));
        // AZERTY: "?" is on another key, found by its meaning.
        assert!(is_panel(
            page_command("KeyM", "?", true, None, false),
            Some(Panel::Help)
        ));
        assert!(is_panel(
            page_command("Slash", "?", true, Some(Panel::Help), false),
            None
        ));
        // "/" alone is not "?".
        assert!(page_command("Slash", "/", false, None, false).is_none());
    }

    #[test]
    fn play_and_step_keys() {
        assert!(matches!(
            page_command("Space", " ", false, None, false),
            Some(Command::TogglePlay)
        ));
        assert!(matches!(
            page_command("Period", ".", false, None, false),
            Some(Command::Step(true))
        ));
        assert!(
            page_command("Period", ".", false, Some(Panel::Tour), true).is_none(),
            "presenter mode leaves . to the presenter bar"
        );
        assert!(matches!(
            page_command("Comma", ",", false, None, false),
            Some(Command::Step(false))
        ));
    }

    #[test]
    fn r_opens_recommend() {
        assert!(is_panel(
            page_command("KeyR", "r", false, None, false),
            Some(Panel::Recommend)
        ));
    }

    #[test]
    fn p_enters_presenter_mode_and_p_or_escape_leaves_it() {
        assert!(matches!(
            page_command("KeyP", "p", false, None, false),
            Some(Command::Present(true))
        ));
        assert!(matches!(
            page_command("KeyP", "p", false, Some(Panel::Tour), true),
            Some(Command::Present(false))
        ));
        assert!(matches!(
            page_command("Escape", "Escape", false, Some(Panel::Tour), true),
            Some(Command::Present(false))
        ));
    }

    #[test]
    fn escape_closes_only_what_is_open() {
        assert!(page_command("Escape", "Escape", false, None, false).is_none());
        assert!(is_panel(
            page_command("Escape", "Escape", false, Some(Panel::Export), false),
            None
        ));
    }
}
