//! The values of a share link as people write them: `250ms`, `30s`, `1.5min`,
//! `2h`, `0.05`, `5%`, `off`. Every parser refuses rather than guesses (NaN,
//! infinities, negatives, overflow, fractions of a millisecond where the
//! scenario holds whole ones), and every formatter writes text that parses
//! back to the very same value, so a link reproduces its run exactly.

const MS_PER_S: u64 = 1_000;
const MS_PER_MIN: u64 = 60_000;
const MS_PER_H: u64 = 3_600_000;
const MS_PER_D: u64 = 86_400_000;

/// Digits beyond these cannot matter within any limit and would only cost time.
const MAX_INT_DIGITS: usize = 20;
const MAX_FRAC_DIGITS: usize = 9;

/// Splits `1.5min` into the number and the unit's length in ms; a bare number is ms.
fn split_unit(text: &str) -> Option<(&str, u64)> {
    let t = text.trim();
    let cut = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(cut);
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "ms" => 1,
        "s" | "sec" => MS_PER_S,
        "m" | "min" => MS_PER_MIN,
        "h" => MS_PER_H,
        "d" => MS_PER_D,
        _ => return None,
    };
    Some((num, factor))
}

/// `digits[.digits]` times `factor`, exactly, when that is a whole number.
/// Integer arithmetic: `0.1s` must be 100 ms, not 100.00000000000001.
fn exact_whole(num: &str, factor: u64) -> Option<u64> {
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if int.is_empty() && frac.is_empty()
        || int.len() > MAX_INT_DIGITS
        || frac.len() > MAX_FRAC_DIGITS
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // In u64, without the u128 arithmetic and parser: the fraction's part
    // is at most 10^9 times a day's milliseconds, below 2^64, and an
    // integer part or a total past u64 is refused either way.
    let int_v: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let frac_v: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    let scale = 10u64.pow(frac.len() as u32);
    let frac_ms = frac_v.checked_mul(factor)?;
    if frac_ms % scale != 0 {
        return None;
    }
    int_v.checked_mul(factor)?.checked_add(frac_ms / scale)
}

/// Why a duration was refused, with the range it must be in.
pub fn ms_allowed(lo: u64, hi: u64) -> String {
    format!(
        "must be a whole number of milliseconds from {} to {}, written like 250ms, 30s, 1.5min or 2h",
        format_ms(lo),
        format_ms(hi)
    )
}

/// A duration in whole milliseconds within `lo..=hi`.
pub fn parse_ms(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let v = split_unit(text)
        .and_then(|(num, factor)| exact_whole(num, factor))
        .ok_or_else(|| ms_allowed(lo, hi))?;
    if v < lo || v > hi {
        return Err(ms_allowed(lo, hi));
    }
    Ok(v)
}

/// A duration held as `f64` ms (the work distribution's parameters), above 0
/// and at most `hi`. Whole values take the exact path; `2885.39ms` keeps its digits.
pub fn parse_ms_f64(text: &str, hi: u64) -> Result<f64, String> {
    let allowed = || {
        format!(
            "must be a duration above 0 and at most {}, written like 250ms, 8s or 2885.39ms",
            format_ms(hi)
        )
    };
    let (num, factor) = split_unit(text).ok_or_else(allowed)?;
    let v = match exact_whole(num, factor) {
        Some(ms) => ms as f64,
        None => {
            let x = parse_plain_f64(num).ok_or_else(allowed)?;
            x * factor as f64
        }
    };
    if !(v.is_finite() && v > 0.0 && v <= hi as f64) {
        return Err(allowed());
    }
    Ok(v)
}

/// Exact text for whole milliseconds in the unit a person would use, falling
/// back to a smaller unit (finally ms) when one decimal would not be exact:
/// 90,500 -> `90.5s`, 61,234 -> `61234ms`, 5,400,000 -> `1.5h`.
pub fn format_ms(ms: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(MS_PER_S, "s"), (MS_PER_MIN, "min"), (MS_PER_H, "h")];
    let preferred = if ms < MS_PER_S {
        0
    } else if ms < 2 * MS_PER_MIN {
        1
    } else if ms < MS_PER_H {
        2
    } else {
        3
    };
    for &(factor, name) in UNITS[..preferred].iter().rev() {
        // ms × 10 is a whole number of units exactly when ms is a whole
        // number of tenths of one (every factor is a multiple of 10), with
        // no overflow.
        let tenth = factor / 10;
        if ms.is_multiple_of(tenth) {
            let t = ms / tenth;
            return if t.is_multiple_of(10) {
                format!("{}{name}", t / 10)
            } else {
                format!("{}.{}{name}", t / 10, t % 10)
            };
        }
    }
    format!("{ms}ms")
}

/// `f64` milliseconds as exact text: whole values as a duration, others in ms.
pub fn format_ms_f64(ms: f64) -> String {
    // Below 2^53 every whole f64 is an exact u64 and parses back to itself.
    if ms.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&ms) {
        format_ms(ms as u64)
    } else {
        format!("{}ms", ms)
    }
}

/// A whole number within `lo..=hi`.
pub fn parse_count(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let allowed = || {
        format!(
            "must be a whole number from {} to {}",
            crate::display::count(lo),
            crate::display::count(hi)
        )
    };
    let t = text.trim();
    if t.is_empty() || t.len() > MAX_INT_DIGITS || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(allowed());
    }
    let v: u64 = t.parse().map_err(|_| allowed())?;
    if v < lo || v > hi {
        return Err(allowed());
    }
    Ok(v)
}

/// A plain decimal (`0.5`, `.25`, `3`, `3.`); no sign, exponent, NaN or
/// infinity: what a share link and a control's text field hold.
pub fn parse_plain_f64(num: &str) -> Option<f64> {
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    let ok = !(int.is_empty() && frac.is_empty())
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit());
    if !ok {
        return None;
    }
    num.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// What an `<input type="number">` holds, which may have an exponent
/// (`1e3`) as well as the plain forms; finite and not negative, or nothing.
pub fn parse_number_input(text: &str) -> Option<f64> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// A number within `lo..=hi`; `percent` also takes `5%`.
pub fn parse_f64(text: &str, lo: f64, hi: f64, percent: bool) -> Result<f64, String> {
    let allowed = || {
        let (lo, hi) = (lo.to_string(), hi.to_string());
        if percent {
            format!("must be a number from {lo} to {hi}, like 0.05 or 5%")
        } else {
            format!("must be a number from {lo} to {hi}")
        }
    };
    let t = text.trim();
    let v = match t.strip_suffix('%') {
        Some(p) if percent => parse_plain_f64(p.trim()).map(|x| x / 100.0),
        Some(_) => None,
        None => parse_plain_f64(t),
    }
    .ok_or_else(allowed)?;
    if !(v >= lo && v <= hi) {
        return Err(allowed());
    }
    Ok(v)
}

/// Messages per second; also `30/min`, `2/s`, `100/h`.
pub fn parse_rate(text: &str, hi: f64) -> Result<f64, String> {
    let allowed = || {
        format!(
            "must be a rate from 0 to {} messages per second, like 0.5, 2/s or 30/min",
            hi
        )
    };
    let t = text.trim();
    let (num, per) = match t.split_once('/') {
        None => (t, 1.0),
        Some((n, u)) => match u.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" => (n.trim(), 1.0),
            "m" | "min" => (n.trim(), 60.0),
            "h" => (n.trim(), 3600.0),
            _ => return Err(allowed()),
        },
    };
    let v = parse_plain_f64(num).ok_or_else(allowed)? / per;
    if !(v >= 0.0 && v <= hi) {
        return Err(allowed());
    }
    Ok(v)
}

/// `f64` as the shortest text that parses back to the same bits.
pub fn format_f64(x: f64) -> String {
    x.to_string()
}

/// The text with every `-` an `_`: how a word or a name is compared,
/// ignoring which of the two was written.
pub fn underscores(text: &str) -> String {
    text.chars()
        .map(|c| if c == '-' { '_' } else { c })
        .collect()
}

/// A word from a fixed list, ignoring case and `-` versus `_`.
pub fn parse_word(text: &str, words: &[&'static str]) -> Result<&'static str, String> {
    parse_word_at(text, words).map(|i| words[i])
}

/// As `parse_word`, the word's place in `words`.
pub fn parse_word_at(text: &str, words: &[&str]) -> Result<usize, String> {
    let t = underscores(&text.trim().to_ascii_lowercase());
    words
        .iter()
        .position(|w| underscores(w) == t)
        .ok_or_else(|| format!("must be one of: {}", words.join(", ")))
}

/// A yes/no switch; an empty value (`?embed`) means yes.
pub fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err("must be 1 or 0".into()),
    }
}

/// Which keyword, if any, the text is (`off`, `none`, `default`...).
pub fn is_keyword(text: &str, words: &[&str]) -> bool {
    let t = text.trim().to_ascii_lowercase();
    words.contains(&t.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The same product in u128, wide enough for every input it is given.
    fn wide(num: &str, factor: u64) -> Option<u64> {
        let (int, frac) = num.split_once('.').unwrap_or((num, ""));
        if int.is_empty() && frac.is_empty()
            || int.len() > MAX_INT_DIGITS
            || frac.len() > MAX_FRAC_DIGITS
        {
            return None;
        }
        let int_v: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let frac_v: u128 = if frac.is_empty() {
            0
        } else {
            frac.parse().ok()?
        };
        let scale = 10u128.pow(frac.len() as u32);
        let frac_ms = frac_v * u128::from(factor);
        if !frac_ms.is_multiple_of(scale) {
            return None;
        }
        u64::try_from(int_v * u128::from(factor) + frac_ms / scale).ok()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]
        #[test]
        fn whole_milliseconds_agree_with_wide_arithmetic(
            int in "[0-9]{0,21}",
            frac in prop::option::of("[0-9]{0,10}"),
            factor in prop::sample::select(vec![1, MS_PER_S, MS_PER_MIN, MS_PER_H, MS_PER_D]),
        ) {
            let num = match &frac {
                Some(f) => format!("{int}.{f}"),
                None => int.clone(),
            };
            prop_assert_eq!(exact_whole(&num, factor), wide(&num, factor), "{}", num);
        }
    }

    #[test]
    fn underscores_replace_every_dash_and_keep_the_rest() {
        assert_eq!(underscores("max-lease_ms-"), "max_lease_ms_");
        assert_eq!(underscores("é-ü"), "é_ü");
        assert_eq!(underscores("--"), "__");
    }

    #[test]
    fn whole_milliseconds_at_the_edges_of_u64() {
        assert_eq!(exact_whole("18446744073709551615", 1), Some(u64::MAX));
        assert_eq!(exact_whole("18446744073709551616", 1), None);
        assert_eq!(exact_whole("99999999999999999999", 1), None);
        assert_eq!(
            exact_whole("213503982334.601", MS_PER_D),
            Some(18_446_744_073_709_526_400)
        );
        assert_eq!(exact_whole("213503982335", MS_PER_D), None);
        assert_eq!(exact_whole("0.999999999", MS_PER_D), None);
        assert_eq!(exact_whole("0.5", MS_PER_D), Some(43_200_000));
        assert_eq!(exact_whole(".001", MS_PER_S), Some(1));
    }
}
