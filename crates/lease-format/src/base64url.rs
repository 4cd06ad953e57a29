//! The share link's `data=`: bytes as base64url text (`A-Z a-z 0-9 - _`),
//! written without padding and read with or without it, as the `base64`
//! crate's URL-safe engine with `DecodePaddingMode::Indifferent` does, and
//! refusing what it refuses (a stray character, padding before the last
//! quad's third place, one symbol alone at the end, set bits past the last
//! byte).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url without padding.
pub fn encode(bytes: impl AsRef<[u8]>) -> String {
    let bytes = bytes.as_ref();
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        // Two symbols for one byte, three for two, four for three.
        for k in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * k)) as usize & 63]));
        }
    }
    out
}

fn symbol(b: u8) -> Option<u32> {
    ALPHABET.iter().position(|&a| a == b).map(|i| i as u32)
}

/// The bytes of base64url text, padded or not; `None` where the `base64`
/// crate gives an error.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    let body = b.len() - b.iter().rev().take_while(|&&c| c == b'=').count();
    // The last quad (1 to 4 characters, counted with its padding) must
    // hold at least two symbols: padding only in its third and fourth places.
    let last = match b.len() % 4 {
        0 => 4,
        r => r,
    };
    if !b.is_empty() && body < (b.len() - last) + 2 {
        return None;
    }
    let mut out = Vec::with_capacity(body / 4 * 3 + 2);
    for quad in b[..body].chunks(4) {
        let mut n = 0u32;
        for (i, &c) in quad.iter().enumerate() {
            n |= symbol(c)? << (18 - 6 * i);
        }
        let bytes = quad.len() * 6 / 8;
        // No set bits past the last whole byte.
        if n & (0xff_ffff >> (8 * bytes)) != 0 {
            return None;
        }
        out.extend_from_slice(&n.to_be_bytes()[1..=bytes]);
    }
    Some(out)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
    use base64::engine::DecodePaddingMode;
    use base64::Engine as _;
    use proptest::prelude::*;

    /// The `base64` crate's URL-safe engine, indifferent to padding: the oracle.
    fn engine() -> GeneralPurpose {
        GeneralPurpose::new(
            &base64::alphabet::URL_SAFE,
            GeneralPurposeConfig::new()
                .with_encode_padding(false)
                .with_decode_padding_mode(DecodePaddingMode::Indifferent),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn writes_what_the_base64_crate_writes_and_reads_it_back(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
            let text = encode(&bytes);
            prop_assert_eq!(&text, &engine().encode(&bytes));
            prop_assert_eq!(decode(&text), Some(bytes));
        }

        #[test]
        fn reads_and_refuses_what_the_base64_crate_does(text in "[A-Za-z0-9_=+/ -]{0,13}") {
            prop_assert_eq!(decode(&text), engine().decode(&text).ok(), "{:?}", text);
        }

        #[test]
        fn reads_padded_text_as_the_base64_crate_does(
            bytes in prop::collection::vec(any::<u8>(), 0..20),
            pad in 0usize..4,
            tail in "[A-Za-z=]{0,2}",
        ) {
            let text = format!("{}{}{}", encode(&bytes), "=".repeat(pad), tail);
            prop_assert_eq!(decode(&text), engine().decode(&text).ok(), "{:?}", text);
        }
    }

    #[test]
    fn refuses_a_lone_symbol_misplaced_padding_and_set_trailing_bits() {
        for bad in [
            "Q",
            "QUJDR",
            "Q===",
            "=QQ",
            "QQ=Q",
            "QR",
            "QUJ",
            "QU=J",
            "QUJD=====",
        ] {
            assert_eq!(decode(bad), None, "{bad}");
            assert!(engine().decode(bad).is_err(), "{bad}");
        }
        assert_eq!(decode(""), Some(vec![]));
        assert_eq!(decode("QQ=="), Some(b"A".to_vec()));
        assert_eq!(decode("QUI="), Some(b"AB".to_vec()));
        assert_eq!(decode("QUJD"), Some(b"ABC".to_vec()));
        assert_eq!(encode(b"\xfb\xff"), "-_8");
    }
}
