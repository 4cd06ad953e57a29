//! The page's model sits below its views: the state and its reducer
//! (`src/state/`) draw nothing, and only `main.rs` reaches up into the
//! page's view (`src/app.rs`), which wires everything else. These tests
//! read the `crate::` paths of every file in `src/` and fail when an import
//! runs back up.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A file of the page's source, by its module at the top of the crate
/// (`src/timeline/draw.rs` is in `timeline`).
struct Source {
    path: PathBuf,
    top: String,
    text: String,
}

fn sources(dir: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(dir).expect("under src");
                let first = rel
                    .components()
                    .next()
                    .expect("a file name")
                    .as_os_str()
                    .to_string_lossy();
                let top = first.strip_suffix(".rs").unwrap_or(&first).to_string();
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let path = Path::new("src").join(rel);
                out.push(Source { path, top, text });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The text without its `//` comments (a `//` inside a string stays).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| {
            let mut quotes = 0;
            let bytes = line.as_bytes();
            for i in 0..bytes.len() {
                match bytes[i] {
                    b'"' if i == 0 || bytes[i - 1] != b'\\' => quotes += 1,
                    b'/' if quotes % 2 == 0 && bytes.get(i + 1) == Some(&b'/') => {
                        return &line[..i];
                    }
                    _ => {}
                }
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top modules a file names through `crate::`: `crate::link::link_of`,
/// `use crate::command::Command;`, `use crate::{catalog, url::Link};`.
fn imports(text: &str) -> BTreeSet<String> {
    let code = code(text);
    let mut out = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + "crate::".len()..];
        // `lease_crate::x` is another path.
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_ascii_alphanumeric() || c == '_') => {
                        out.insert(ident_at(&group[j..]).to_string());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident_at(rest).to_string());
        }
    }
    out
}

/// A view draws: its module writes markup with `html!`.
fn views(all: &[Source]) -> BTreeSet<String> {
    all.iter()
        .filter(|s| code(&s.text).contains("html!"))
        .map(|s| s.top.clone())
        .collect()
}

/// What breaks the layers: a file below the page's view that imports it,
/// and a file of the state module that imports a view.
fn crossings(all: &[Source], state: &str) -> Vec<String> {
    let views = views(all);
    let mut out = Vec::new();
    for s in all {
        let names = imports(&s.text);
        if s.top != "main" && s.top != "app" && names.contains("app") {
            out.push(format!(
                "{} imports crate::app: only main.rs may",
                s.path.display()
            ));
        }
        if s.top == state {
            for v in names.iter().filter(|n| views.contains(*n)) {
                out.push(format!(
                    "{} imports crate::{v}, a view: the state draws nothing",
                    s.path.display()
                ));
            }
        }
    }
    out
}

fn page_sources() -> Vec<Source> {
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn only_main_imports_the_page_view_and_the_state_imports_no_view() {
    let all = page_sources();
    assert!(
        all.iter().any(|s| s.top == "state"),
        "the state module is src/state.rs or src/state/"
    );
    let found = crossings(&all, "state");
    assert!(
        found.is_empty(),
        "imports that run back up:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_views_are_the_modules_that_draw() {
    let all = page_sources();
    let views = views(&all);
    for v in ["app", "timeline", "charts", "controls"] {
        assert!(views.contains(v), "{v} draws: {views:?}");
    }
    for model in ["state", "command", "catalog", "link", "url"] {
        assert!(!views.contains(model), "{model} draws nothing: {views:?}");
    }
}

#[test]
fn an_import_back_up_is_found() {
    let file = |path: &str, text: &str| Source {
        path: PathBuf::from(path),
        top: path
            .trim_start_matches("src/")
            .split(['/', '.'])
            .next()
            .unwrap_or_default()
            .to_string(),
        text: text.to_string(),
    };
    let all = vec![
        file(
            "src/app.rs",
            "use crate::state::State;\nfn v() { html! {} }",
        ),
        file("src/timeline/mod.rs", "fn t() { html! {} }"),
        file(
            "src/link.rs",
            "// crate::app in a comment is no import\nuse crate::{command, app::State};",
        ),
        file("src/state/reduce.rs", "fn f() { crate::timeline::draw(); }"),
        file("src/main.rs", "use crate::app::App;"),
        file("src/catalog.rs", "use lease_crate::app::X;"),
    ];
    assert_eq!(
        crossings(&all, "state"),
        [
            "src/link.rs imports crate::app: only main.rs may",
            "src/state/reduce.rs imports crate::timeline, a view: the state draws nothing",
        ]
    );
}
