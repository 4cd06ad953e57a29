//! When the app panics, the page says so instead of freezing: a message over
//! the page with the link that led there, a way back to the default
//! playground, and a reload. Handed to the browser as one piece of HTML,
//! since the Yew app is gone by then (the release build aborts on a panic).

use wasm_bindgen::prelude::*;

/// How much of the panic's text the card quotes: enough for its place and
/// message, not a wall of text over the page.
const DETAIL_CHARS: usize = 300;

pub fn install() {
    // Yew installs its own hook when it renders unless told of ours.
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

/// Lets the browser tests check the crash message by forcing a panic. Its
/// words hold markup and quotes, which the card must show as text.
#[wasm_bindgen(js_name = forcePanicForTests)]
pub fn force_panic_for_tests() {
    panic!("a <b>panic</b> forced by the browser tests, 'quoted' & \"quoted\"");
}

fn show(what: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(body) = window.document().and_then(|doc| doc.body()) else {
        return;
    };
    let location = window.location();
    let href = location.href().unwrap_or_default();
    let path = location.pathname().unwrap_or_else(|_| "./".into());
    let _ = body.insert_adjacent_html("beforeend", &card_html(what, &href, &path));
}

/// The crash card: markup of our own around the panic's text, the link and
/// its path, each escaped, since a link's query can reach a panic message
/// and the card must show it, never run it.
fn card_html(what: &str, href: &str, path: &str) -> String {
    let mut html = String::new();
    for (markup, text, most) in [
        (
            "<div id=\"crash\" role=\"alert\" class=\"crash\"><h2>The playground stopped</h2>\
             <p>Something inside the page went wrong (",
            what,
            DETAIL_CHARS,
        ),
        (
            "). Nothing was sent anywhere; the settings are in the link below.</p>\
             <p>The link that led here:</p><input readonly value=\"",
            href,
            usize::MAX,
        ),
        (
            "\" aria-label=\"The link that led here\"><p><a id=\"crash-reset\" href=\"",
            path,
            usize::MAX,
        ),
        (
            "\">Reset to the default playground</a> <a id=\"crash-reload\" href=\"",
            href,
            usize::MAX,
        ),
    ] {
        html.push_str(markup);
        push_escaped(&mut html, text, most);
    }
    html.push_str("\">Reload this link</a> </p></div>");
    html
}

/// Appends the first `most` characters of `text` as HTML text or a quoted
/// attribute value. Not `lease_view`'s `xml_escape`: the page would pay for
/// its control-character handling and a string per value, and lease-ui
/// would take on a dependency for one loop.
fn push_escaped(out: &mut String, text: &str, most: usize) {
    for c in text.chars().take(most) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HREF: &str = "https://example.org/play/?scenario=clip-surge&timeout=45s";

    fn escaped(text: &str) -> String {
        let mut out = String::new();
        push_escaped(&mut out, text, usize::MAX);
        out
    }

    #[test]
    fn markup_characters_become_entities_and_the_rest_stays() {
        assert_eq!(escaped("a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&#39;f");
        assert_eq!(escaped("durée 45 s, ünïcode ✓"), "durée 45 s, ünïcode ✓");
        assert_eq!(escaped(""), "");
    }

    #[test]
    fn the_card_carries_its_heading_link_and_ways_out() {
        let html = card_html("boom", HREF, "/play/");
        let href = "https://example.org/play/?scenario=clip-surge&amp;timeout=45s";
        assert_eq!(
            html,
            format!(
                "<div id=\"crash\" role=\"alert\" class=\"crash\"><h2>The playground stopped</h2>\
                 <p>Something inside the page went wrong (boom). Nothing was sent anywhere; \
                 the settings are in the link below.</p><p>The link that led here:</p>\
                 <input readonly value=\"{href}\" aria-label=\"The link that led here\">\
                 <p><a id=\"crash-reset\" href=\"/play/\">Reset to the default playground</a> \
                 <a id=\"crash-reload\" href=\"{href}\">Reload this link</a> </p></div>"
            )
        );
    }

    #[test]
    fn a_script_and_quotes_in_the_panic_come_out_as_text() {
        let html = card_html("<script>alert(\"x\")</script>'<b>", HREF, "/");
        assert!(html.contains("(&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&lt;b&gt;)."));
        assert!(!html.contains("<script"));
        assert!(!html.contains("<b>"));
    }

    #[test]
    fn quotes_in_the_link_and_path_cannot_end_their_attributes() {
        let html = card_html("boom", "https://x/?a=\"><script>'", "/p\"a'th<");
        assert!(html.contains("value=\"https://x/?a=&quot;&gt;&lt;script&gt;&#39;\""));
        assert!(html.contains("href=\"/p&quot;a&#39;th&lt;\""));
        assert!(!html.contains("<script"));
        // Every quote left in the card opens or closes one of its own attributes.
        let own: usize = ["id", "role", "class", "value", "aria-label", "href"]
            .iter()
            .map(|name| html.matches(&format!(" {name}=\"")).count())
            .sum();
        assert_eq!(html.matches('"').count(), own * 2);
        assert!(!html.contains('\''));
    }

    #[test]
    fn the_detail_is_cut_at_three_hundred_characters_before_escaping() {
        let what = format!("{}&tail", "é".repeat(DETAIL_CHARS - 1));
        let html = card_html(&what, HREF, "/");
        // The 300th character is the ampersand, escaped whole; what follows is gone.
        assert!(html.contains(&format!("({}&amp;).", "é".repeat(DETAIL_CHARS - 1))));
        assert!(!html.contains("tail"));
    }
}
