//! A share link's query as name and value pairs, read as
//! `application/x-www-form-urlencoded` is (the `form_urlencoded` crate's
//! `parse`, which the tests hold it to): pairs split at `&` (empty ones
//! skipped), the name at the first `=`, `+` a space, `%` and two hex
//! digits a byte (any other `%` kept as it is), then UTF-8 with each bad
//! sequence replaced.

use std::borrow::Cow;

/// The query's pairs in order (without a leading `?`).
pub fn parse(query: &[u8]) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    query
        .split(|&b| b == b'&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = match pair.iter().position(|&b| b == b'=') {
                Some(i) => (&pair[..i], &pair[i + 1..]),
                None => (pair, &[][..]),
            };
            (decode(name), decode(value))
        })
}

fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let hex = |i: usize| bytes.get(i).and_then(|&b| char::from(b).to_digit(16));
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b'+', ..) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pairs(q: &[u8]) -> Vec<(String, String)> {
        parse(q)
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }

    fn oracle(q: &[u8]) -> Vec<(String, String)> {
        form_urlencoded::parse(q).into_owned().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn reads_every_query_as_form_urlencoded_does(q in "[a-zA-Z0-9=&%+ .~é-]{0,24}") {
            prop_assert_eq!(pairs(q.as_bytes()), oracle(q.as_bytes()), "{:?}", q);
        }

        #[test]
        fn reads_percent_escapes_and_bad_utf8_as_form_urlencoded_does(
            parts in prop::collection::vec(prop_oneof![
                Just("%".to_string()),
                Just("=".to_string()),
                Just("&".to_string()),
                Just("+".to_string()),
                "[0-9a-fA-FgG]{1,2}",
                any::<u8>().prop_map(|b| format!("%{b:02x}")),
                any::<u8>().prop_map(|b| format!("%{b:02X}")),
            ], 0..12),
            raw in prop::collection::vec(any::<u8>(), 0..6),
        ) {
            let mut q = parts.concat().into_bytes();
            q.extend(raw);
            prop_assert_eq!(pairs(&q), oracle(&q), "{:?}", q);
        }
    }

    #[test]
    fn reads_names_values_escapes_and_empty_pairs() {
        let q = b"&a=1&&b&c=x=y&d=%41%zz%4&e=a+b%2B&f=%ff";
        assert_eq!(pairs(q), oracle(q));
        assert_eq!(
            pairs(q),
            [
                ("a", "1"),
                ("b", ""),
                ("c", "x=y"),
                ("d", "A%zz%4"),
                ("e", "a b+"),
                ("f", "\u{fffd}"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
        );
    }
}
