//! The page's keyboard shortcuts as one table: the `?` overlay lists it
//! (`panels/help.rs`) and the page's `src/shortcuts.rs` handles the keys.

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
        keys: "R",
        scope: "page",
        what: "Open Recommend: the visibility timeout that meets your targets",
    },
    Shortcut {
        keys: "P",
        scope: "page",
        what: "Presenter mode on or off: large type, a tour's steps as slides",
    },
    Shortcut {
        keys: "PageDown / PageUp or → / ←",
        scope: "presenter mode",
        what: "Next or previous step of the tour, its demonstration applied",
    },
    Shortcut {
        keys: ". or B",
        scope: "presenter mode",
        what: "Blank the screen, or show it again",
    },
    Shortcut {
        keys: "PageDown / PageUp or → / ←",
        scope: "interviewer's mode",
        what: "The next or previous event; the bar says what it was",
    },
    Shortcut {
        keys: "R, X, A",
        scope: "interviewer's mode",
        what: "On to the next receive, expiry or ack",
    },
    Shortcut {
        keys: "V",
        scope: "interviewer's mode",
        what: "Reveal the next hidden figure: a total, then the diagnosis",
    },
    Shortcut {
        keys: "Escape",
        scope: "interviewer's mode",
        what: "Leave it: every figure and the whole run show",
    },
    Shortcut {
        keys: "Escape",
        scope: "page",
        what: "Close the open panel or this list",
    },
    Shortcut {
        keys: "Ctrl (⌘) + Z",
        scope: "page",
        what: "Undo the timeline menu's last action",
    },
    Shortcut {
        keys: "Menu key or Shift + F10",
        scope: "timeline",
        what: "Open the timeline's menu (crash, pause, hang, fail, drop an ack, slow down, fork) at the selected run under the playhead; right-click or a long press opens it under the pointer",
    },
    Shortcut {
        keys: "W A S D",
        scope: "timeline",
        what: "Pan in time, scroll the lanes",
    },
    Shortcut {
        keys: "← and →",
        scope: "timeline",
        what: "Previous or next run on the same worker's lane; its story is read out",
    },
    Shortcut {
        keys: "↑ and ↓",
        scope: "timeline",
        what: "The run nearest in time on the lane above or below",
    },
    Shortcut {
        keys: "Home / End",
        scope: "timeline",
        what: "The run's first or last run",
    },
    Shortcut {
        keys: "Enter",
        scope: "timeline",
        what: "Open the focused run's message: every delivery of it",
    },
    Shortcut {
        keys: "+ and −",
        scope: "timeline",
        what: "Zoom in and out",
    },
    Shortcut {
        keys: "Ctrl (⌘) + wheel, or pinch",
        scope: "timeline",
        what: "Zoom about the pointer; once the timeline is clicked, the wheel alone zooms until the pointer leaves it",
    },
    Shortcut {
        keys: "Shift + drag",
        scope: "timeline",
        what: "Pick a time range and write a note on it",
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
        keys: "Arrows, Page Up / Page Down, Home / End",
        scope: "slider",
        what: "One step of the value's precision (60 s to 61 s), ten steps, or either end; or type a value in the box beside it, as a share link writes it (135s, 2.5min, 5%)",
    },
    Shortcut {
        keys: "Tab",
        scope: "anywhere",
        what: "Move through every control; each shows a focus ring",
    },
];
