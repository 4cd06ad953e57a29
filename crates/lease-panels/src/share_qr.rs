//! The share link as a QR code, for a room of phones: a lecturer shows it on
//! the projector and each student opens the same run. Drawn as an SVG path
//! of the dark modules, with the four-module quiet zone the standard asks
//! for around the symbol.

use qrcodegen::{QrCode, QrCodeEcc};

/// The quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4).
pub const QUIET_ZONE: i32 = 4;

/// A QR code drawn as one SVG path: `side` modules a side with its quiet
/// zone, `path` a unit square for each dark module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrPicture {
    pub side: i32,
    pub path: String,
    pub dark: usize,
}

/// The QR code of `text` at error-correction level M (a phone reads it off
/// a projector's screen with some glare), or why not: a link longer than the
/// largest symbol holds.
pub fn qr_picture(text: &str) -> Result<QrPicture, String> {
    let code = QrCode::encode_text(text, QrCodeEcc::Medium).map_err(|_| {
        format!(
            "A link of {} characters is longer than a QR code holds; copy the link instead.",
            text.chars().count()
        )
    })?;
    let size = code.size();
    let mut path = String::new();
    let mut dark = 0;
    for y in 0..size {
        for x in 0..size {
            if code.get_module(x, y) {
                dark += 1;
                path += &format!("M{},{}h1v1h-1z", x + QUIET_ZONE, y + QUIET_ZONE);
            }
        }
    }
    Ok(QrPicture {
        side: size + 2 * QUIET_ZONE,
        path,
        dark,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_link_of_230_characters_fits_one_qr_code_with_its_quiet_zone() {
        let link = format!("https://example.org/lease/?{}", "x".repeat(230 - 27));
        assert_eq!(link.chars().count(), 230);
        let pic = qr_picture(&link).expect("a 230-character link fits");
        let code = QrCode::encode_text(&link, QrCodeEcc::Medium).unwrap();
        assert_eq!(pic.side, code.size() + 8);
        let dark = (0..code.size())
            .flat_map(|y| (0..code.size()).map(move |x| (x, y)))
            .filter(|&(x, y)| code.get_module(x, y))
            .count();
        assert_eq!(pic.dark, dark);
        assert_eq!(pic.path.matches('M').count(), dark);
        // The finder pattern's top-left module sits just inside the quiet zone.
        assert!(pic.path.starts_with("M4,4h1v1h-1z"), "{}", &pic.path[..20]);
    }

    #[test]
    fn a_link_longer_than_a_qr_code_holds_is_refused_with_its_length() {
        let link = "x".repeat(5000);
        let why = qr_picture(&link).unwrap_err();
        assert!(why.contains("5000 characters"), "{why}");
    }
}
