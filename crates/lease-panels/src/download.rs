//! Saving a file from the page: a Blob behind an `<a download>` click, the
//! only way a page can hand the visitor a file without a server.

use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Offers `text` as a download named `name`. Errors come back as a sentence.
pub fn save_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&text.into());
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "the browser could not make the file".to_string())?;
    save_blob(name, &blob)
}

/// Offers `blob` (a file a worker made) as a download named `name`.
pub fn save_blob(name: &str, blob: &Blob) -> Result<(), String> {
    let url = Url::create_object_url_with_blob(blob)
        .map_err(|_| "the browser could not make a link to the file".to_string())?;
    let result = click(name, &url);
    // The click has started the download; the object URL can go.
    let _ = Url::revoke_object_url(&url);
    result
}

/// Offers a `data:` URL (a canvas's PNG) as a download named `name`.
pub fn save_data_url(name: &str, url: &str) -> Result<(), String> {
    click(name, url)
}

fn click(name: &str, href: &str) -> Result<(), String> {
    let document = gloo::utils::document();
    let a: HtmlAnchorElement = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into().ok())
        .ok_or_else(|| "the browser could not start the download".to_string())?;
    a.set_href(href);
    a.set_download(name);
    a.click();
    Ok(())
}

/// A file name from a scenario name: letters, digits and dashes only.
pub fn file_stem(name: &str, seed: u64) -> String {
    let mut stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    stem.truncate(60);
    let stem = stem.trim_matches('-');
    let stem = if stem.is_empty() { "scenario" } else { stem };
    format!("{stem}-seed{seed}")
}

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(file_stem("clip-surge", 7), "clip-surge-seed7");
        assert_eq!(file_stem("<script>/../x", 1), "script-----x-seed1");
        assert_eq!(file_stem("", 3), "scenario-seed3");
        assert_eq!(file_stem("ÉÉ", 3), "scenario-seed3");
    }
}
