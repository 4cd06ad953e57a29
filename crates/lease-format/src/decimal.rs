//! The text of an `f64`, as `format!("{x}")` and `format!("{x:.N}")` write
//! it, without core's float formatting.
//!
//! Why: any `{}`, `{:.N}` or `{:?}` of a float that the page can reach links
//! core's float printing (Grisu, Dragon and their bignum): about 7 KB of the
//! page's gzipped download. `shortest` takes its digits from zmij, which
//! serde_json already brings into the page; `fixed` rounds the exact binary
//! value with integer arithmetic. Both write exactly core's text (the tests
//! use core as the oracle), so nothing shown, stored or compared changes.
//! `clamp` is here for the same reason: `f64::clamp` links it too.

/// `format!("{x}")`: the shortest digits that read back as `x`, written out
/// in full, never with an exponent ("1e21" is "1000000000000000000000").
pub fn shortest(x: f64) -> String {
    let mut out = sign_or_special(x);
    if x.is_finite() {
        let (digits, point) = shortest_digits(x.abs());
        let n = digits.len() as i32;
        if digits.is_empty() {
            out.push('0');
        } else if point <= 0 {
            out.push_str("0.");
            push_zeros(&mut out, -point);
            push_digits(&mut out, &digits);
        } else if point < n {
            let (int, frac) = digits.split_at(point as usize);
            push_digits(&mut out, int);
            out.push('.');
            push_digits(&mut out, frac);
        } else {
            push_digits(&mut out, &digits);
            push_zeros(&mut out, point - n);
        }
    }
    out
}

/// `format!("{x:.places$}")`: `x` rounded to `places` decimals, ties to
/// even, on its exact binary value (1.015 is "1.01" to 2 places, as the
/// double is just below 1.015). A negative value keeps its sign even when it
/// rounds to zero ("-0.0"), as core writes it.
pub fn fixed(x: f64, places: usize) -> String {
    let mut out = sign_or_special(x);
    if !x.is_finite() {
        return out;
    }
    let (mut digits, frac_len) = exact(x);
    if frac_len <= places {
        digits.resize(digits.len() + places - frac_len, b'0');
    } else {
        round_off(&mut digits, frac_len - places);
    }
    // At least one digit before the point.
    if digits.len() <= places {
        let pad = places + 1 - digits.len();
        pad_front(&mut digits, pad);
    }
    let (int, frac) = digits.split_at(digits.len() - places);
    push_digits(&mut out, int);
    if places > 0 {
        out.push('.');
        push_digits(&mut out, frac);
    }
    out
}

/// The sign core writes ("-" for any negative, -0 included, none for NaN),
/// or the whole text of NaN and the infinities.
fn sign_or_special(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if x.is_infinite() {
        out.push_str("inf");
    }
    out
}

/// The shortest digits that read back as `x` (finite, positive), and where
/// the point falls (0.DIGITS × 10^point), as core picks them. zmij picks the
/// same but for one case: when `x` lies exactly halfway between two shortest
/// candidates, zmij takes the even one and core the larger.
fn shortest_digits(x: f64) -> (Vec<u8>, i32) {
    let mut buffer = zmij::Buffer::new();
    let (mut digits, mut point) = parse(buffer.format_finite(x));
    // At most 17 digits: fits a u64.
    let d = digits
        .iter()
        .fold(0u64, |d, &b| d * 10 + u64::from(b - b'0'));
    if is_half_above(x, d, point - digits.len() as i32) {
        if increment(&mut digits) {
            point += 1;
        }
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
    }
    (digits, point)
}

/// Whether `x` is exactly (d + 1/2) × 10^k. With x = m × 2^e, m odd, that
/// is (2d + 1) × 5^k × 2^k = m × 2^(e + 1) with 2d + 1 odd: the powers of
/// two must match, and the odd parts, compared in u128 where they fit (if
/// one side overflows, the other, below 2^58, cannot equal it).
fn is_half_above(x: f64, d: u64, k: i32) -> bool {
    let Some((m, e)) = odd_mantissa(x) else {
        return false;
    };
    if e + 1 != k {
        return false;
    }
    let odd = u128::from(d) * 2 + 1;
    let five_k = 5u128.checked_pow(k.unsigned_abs());
    if k >= 0 {
        five_k.and_then(|p| odd.checked_mul(p)) == Some(u128::from(m))
    } else {
        five_k.and_then(|p| u128::from(m).checked_mul(p)) == Some(odd)
    }
}

/// zmij's text ("1.5", "1.0", "0.00025", "1e+16", "1.2e-7") as significant
/// digits without leading or trailing zeros, and where the decimal point
/// falls: the value is 0.DIGITS × 10^point. No digits means zero.
fn parse(text: &str) -> (Vec<u8>, i32) {
    let mut digits = Vec::with_capacity(17);
    let (mut point, mut exp) = (0, 0);
    let (mut after_point, mut in_exp, mut exp_negative) = (false, false, false);
    for b in text.bytes() {
        match b {
            b'.' => after_point = true,
            b'e' => in_exp = true,
            b'-' => exp_negative = true,
            b'+' => {}
            _ if in_exp => exp = exp * 10 + i32::from(b - b'0'),
            // A leading zero only moves the point.
            b'0' if digits.is_empty() => point -= i32::from(after_point),
            _ => {
                digits.push(b);
                point += i32::from(!after_point);
            }
        }
    }
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, point + if exp_negative { -exp } else { exp })
}

/// The exact decimal expansion of |x| as ASCII digits, and how many of them
/// are decimals. Every double is m × 2^e with an integer m < 2^53, so it is
/// an integer (e >= 0) or m × 5^-e / 10^-e: finitely many digits, at most
/// 767 of them for the smallest subnormal.
fn exact(x: f64) -> (Vec<u8>, usize) {
    let Some((m, e)) = odd_mantissa(x) else {
        return (vec![b'0'], 0);
    };
    if e >= 0 {
        (digits_of(m, 2, e.unsigned_abs()), 0)
    } else {
        (digits_of(m, 5, e.unsigned_abs()), e.unsigned_abs() as usize)
    }
}

/// |x| (finite) as m × 2^e with m odd, or None for zero. An odd m keeps
/// the digits of `exact` few and makes the tie test of `is_half_above` one
/// comparison.
fn odd_mantissa(x: f64) -> Option<(u64, i32)> {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    if m == 0 {
        return None;
    }
    let twos = m.trailing_zeros();
    Some((m >> twos, e + twos as i32))
}

/// The decimal digits of m × base^exp, most significant first, computed in
/// limbs of nine decimal digits.
fn digits_of(m: u64, base: u64, mut exp: u32) -> Vec<u8> {
    const LIMB: u64 = 1_000_000_000;
    let mut limbs = vec![
        (m % LIMB) as u32,
        (m / LIMB % LIMB) as u32,
        (m / LIMB / LIMB) as u32,
    ];
    while exp > 0 {
        // As large a power of `base` as keeps limb × factor + carry in a u64.
        let mut factor = 1;
        while exp > 0 && factor * base <= 1 << 32 {
            factor *= base;
            exp -= 1;
        }
        let mut carry = 0;
        for limb in &mut limbs {
            let v = u64::from(*limb) * factor + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            limbs.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }
    let mut out = Vec::with_capacity(limbs.len() * 9);
    for &limb in limbs.iter().rev() {
        let mut place = LIMB / 10;
        while place > 0 {
            out.push(b'0' + (u64::from(limb) / place % 10) as u8);
            place /= 10;
        }
    }
    let zeros = out.iter().take_while(|&&d| d == b'0').count();
    out.drain(..zeros.min(out.len() - 1));
    out
}

/// `n` zeros before the digits. A new vector rather than `splice`, whose
/// drop (which moves the tail) is a function of its own in the page.
fn pad_front(digits: &mut Vec<u8>, n: usize) {
    let mut padded = vec![b'0'; n];
    padded.extend_from_slice(digits);
    *digits = padded;
}

/// Drops the last `n` digits, rounding what is left half to even: the
/// dropped digits are the exact remainder, so a tie is a 5 followed by
/// zeros only. Leaves at least one digit.
fn round_off(digits: &mut Vec<u8>, n: usize) {
    if digits.len() <= n {
        let pad = n + 1 - digits.len();
        pad_front(digits, pad);
    }
    let keep = digits.len() - n;
    let first = digits[keep];
    let rest_zero = digits[keep + 1..].iter().all(|&d| d == b'0');
    let odd = digits[keep - 1] % 2 == 1;
    let up = first > b'5' || (first == b'5' && (!rest_zero || odd));
    digits.truncate(keep);
    if up {
        increment(digits);
    }
}

/// Adds one in the last place; true when that carries into a new leading
/// digit (999 -> 1000).
fn increment(digits: &mut Vec<u8>) -> bool {
    let nines = digits.iter().rev().take_while(|&&d| d == b'9').count();
    let len = digits.len();
    digits[len - nines..].fill(b'0');
    if nines == len {
        digits.insert(0, b'1');
        return true;
    }
    digits[len - nines - 1] += 1;
    false
}

fn push_digits(out: &mut String, digits: &[u8]) {
    out.extend(digits.iter().map(|&d| char::from(d)));
}

fn push_zeros(out: &mut String, n: i32) {
    out.extend(std::iter::repeat_n('0', n.max(0) as usize));
}

/// `x` within `lo..=hi`, as `f64::clamp` but without its assert, whose
/// message prints the bounds with `{:?}` and so links core's float
/// formatting into the page. NaN gives `lo`; `lo > hi` gives `hi`.
#[allow(clippy::manual_clamp)]
pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}
