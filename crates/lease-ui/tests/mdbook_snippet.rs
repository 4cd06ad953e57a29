//! The Embed panel's mdBook snippet in a chapter, rendered as mdBook renders
//! Markdown (pulldown-cmark with mdBook's options), must equal
//! `tests/e2e/fixtures/mdbook-chapter.html`, the page a browser test loads to
//! check that the figure comes to life. `UPDATE_FIXTURES=1` writes it anew.

use lease_ui::embed::{figure_height_px, figure_snippet, Figure, Part};
use pulldown_cmark::{html, Options, Parser};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/e2e/fixtures/mdbook-chapter.html"
);

/// The folder the browser test replaces with its own server's.
const PLAYGROUND: &str = "https://your.site/lease-playground/";

fn render(markdown: &str) -> String {
    // mdBook's parser options (mdbook::utils::new_cmark_parser).
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(markdown, options));
    out
}

fn chapter() -> String {
    let parts = [Part::Controls, Part::Totals, Part::Timeline];
    let snippet = figure_snippet(
        "mdbook",
        &Figure {
            page: PLAYGROUND,
            query: "scenario=ninety-second-message&timeout=45s",
            parts: &parts,
            height_px: figure_height_px(&parts, false),
        },
        "Lease Playground",
    );
    format!(
        "# Choosing a visibility timeout\n\nA message needs *90 seconds* of work; the queue hides it for 45.\n\n\
         {snippet}\nThe second worker gets the message while the first still runs it.\n"
    )
}

#[test]
fn the_mdbook_snippet_renders_as_raw_html_in_a_chapter() {
    let html = render(&chapter());
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(FIXTURE, &html).unwrap();
    }
    assert!(
        html.contains("<lease-playground scenario=\"ninety-second-message\" timeout=\"45s\""),
        "{html}"
    );
    assert!(
        html.contains(&format!(
            "<script src=\"{PLAYGROUND}embed.js\" defer></script>"
        )),
        "{html}"
    );
    // The figure's box from the first paint, before the deferred script:
    // the default parts' 574 px and the 2 px of border.
    assert!(
        html.contains("height=\"574\" style=\"display:block;height:576px\"></lease-playground>"),
        "{html}"
    );
    assert!(
        !html.contains("&lt;"),
        "the snippet was escaped as text: {html}"
    );
    assert!(
        !html.contains("<p><lease-playground"),
        "the figure sits in a paragraph: {html}"
    );
    let stored =
        std::fs::read_to_string(FIXTURE).expect("the fixture (UPDATE_FIXTURES=1 writes it)");
    assert_eq!(
        html, stored,
        "the rendered chapter differs from the fixture the browser test loads"
    );
}
