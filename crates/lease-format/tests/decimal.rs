//! `decimal` against core's float formatting, the oracle: the page writes
//! floats with `decimal` and must show exactly what `format!` would.

use lease_format::decimal::{clamp, fixed, shortest};
use proptest::prelude::*;

fn agrees(x: f64) -> Result<(), TestCaseError> {
    prop_assert_eq!(shortest(x), format!("{x}"), "bits {:#x}", x.to_bits());
    for p in 0..=12 {
        prop_assert_eq!(
            fixed(x, p),
            format!("{x:.p$}"),
            "{} places, bits {:#x}",
            p,
            x.to_bits()
        );
    }
    Ok(())
}

/// Values a page computes: small integers over powers of ten, eighths,
/// thousandths, and their negatives.
fn nice() -> impl Strategy<Value = f64> {
    (
        -1_000_000_000i64..1_000_000_000,
        0i32..12,
        prop_oneof![Just(1.0), Just(8.0), Just(1000.0)],
    )
        .prop_map(|(k, p, d)| k as f64 / 10f64.powi(p) / d)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn any_double_is_written_as_core_writes_it(bits in any::<u64>()) {
        agrees(f64::from_bits(bits))?;
    }

    #[test]
    fn nice_values_are_written_as_core_writes_them(x in nice()) {
        agrees(x)?;
    }

    /// Halves at every place (k + 0.5) / 10^p: the double is above, below or
    /// on the tie, and the neighbours one ulp away straddle it.
    #[test]
    fn values_at_and_next_to_ties_round_as_core_rounds_them(
        k in -100_000_000i64..100_000_000,
        p in 0i32..10,
        step in -2i64..=2,
    ) {
        let tie = (k as f64 + 0.5) / 10f64.powi(p);
        let x = f64::from_bits((tie.to_bits() as i64 + step) as u64);
        agrees(x)?;
    }

    #[test]
    fn doubles_of_every_magnitude_are_written_as_core_writes_them(
        m in 1u64..1 << 53,
        e in -1074i32..=971,
    ) {
        agrees(m as f64 * 2f64.powi(e))?;
    }
}

#[test]
fn special_values_are_written_as_core_writes_them() {
    for x in [
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.0,
        -0.0,
    ] {
        assert_eq!(shortest(x), format!("{x}"));
        for p in 0..=3 {
            assert_eq!(fixed(x, p), format!("{x:.p$}"));
        }
    }
    assert_eq!(shortest(f64::NAN), "NaN");
    assert_eq!(shortest(f64::NEG_INFINITY), "-inf");
    assert_eq!(shortest(-0.0), "-0");
    assert_eq!(fixed(-0.0, 1), "-0.0");
}

#[test]
fn shortest_writes_large_and_tiny_values_without_an_exponent() {
    assert_eq!(shortest(1e16), "10000000000000000");
    assert_eq!(shortest(1e-7), "0.0000001");
    assert_eq!(shortest(1.5), "1.5");
    assert_eq!(shortest(1.0), "1");
    for x in [
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        0.1 + 0.2,
        123456.0,
        2.5e-5,
    ] {
        assert_eq!(shortest(x), format!("{x}"));
    }
}

/// zmij takes the even of two shortest candidates equally near; core, and
/// so `shortest`, the larger. Both doubles here are exact sums.
#[test]
fn shortest_takes_the_larger_of_two_candidates_equally_near() {
    // ...794.5625: between ...794.562 and ...794.563.
    assert_eq!(
        shortest(32648702793794.0 + 9.0 / 16.0),
        "32648702793794.563"
    );
    // ...581.25: between ...581.2 and ...581.3.
    assert_eq!(shortest(-(836665439835581.0 + 0.25)), "-836665439835581.3");
}

#[test]
fn fixed_rounds_the_exact_double_half_to_even() {
    assert_eq!(fixed(0.125, 2), "0.12");
    assert_eq!(fixed(0.375, 2), "0.38");
    assert_eq!(fixed(1.015, 2), "1.01");
    assert_eq!(fixed(0.15, 1), "0.1");
    assert_eq!(fixed(2.5, 0), "2");
    assert_eq!(fixed(3.5, 0), "4");
    assert_eq!(fixed(0.5, 0), "0");
    assert_eq!(fixed(9.995, 2), format!("{:.2}", 9.995));
    assert_eq!(fixed(9.9999, 2), "10.00");
    assert_eq!(fixed(999.96, 1), "1000.0");
}

#[test]
fn fixed_keeps_the_sign_of_a_negative_value_that_rounds_to_zero() {
    assert_eq!(fixed(-0.01, 1), format!("{:.1}", -0.01));
    assert_eq!(fixed(-0.01, 1), "-0.0");
    assert_eq!(fixed(-0.5, 0), "-0");
    assert_eq!(fixed(5e-324, 3), "0.000");
}

#[test]
fn fixed_writes_every_digit_of_a_large_double() {
    assert_eq!(fixed(1e23, 0), "99999999999999991611392");
    assert_eq!(fixed(1e23, 1), "99999999999999991611392.0");
    assert_eq!(fixed(f64::MAX, 2), format!("{:.2}", f64::MAX));
}

#[test]
fn fixed_writes_many_places_exactly() {
    assert_eq!(fixed(0.1, 20), "0.10000000000000000555");
    assert_eq!(fixed(5e-324, 1074), format!("{:.1074}", 5e-324));
    assert_eq!(fixed(1.0 / 3.0, 40), format!("{:.40}", 1.0 / 3.0));
}

#[test]
fn clamp_keeps_a_value_within_its_bounds_and_takes_nan_to_the_low_one() {
    assert_eq!(clamp(5.0, 1.0, 4.0), 4.0);
    assert_eq!(clamp(-1.0, 1.0, 4.0), 1.0);
    assert_eq!(clamp(2.5, 1.0, 4.0), 2.5);
    assert_eq!(clamp(f64::NAN, 1.0, 4.0), 1.0);
}

#[test]
fn a_label_says_a_duration_exactly_with_a_space_before_its_unit() {
    use lease_format::units::label_ms;
    assert_eq!(label_ms(135_000), "135 s");
    assert_eq!(label_ms(150_000), "2.5 min");
    assert_eq!(label_ms(250), "250 ms");
    assert_eq!(label_ms(900_000), "15 min");
    assert_eq!(label_ms(1_500), "1.5 s");
}
