//! Any well-formed percentile text, in any of the forms dashboards write,
//! reads back the numbers it was made from.

use lease_latency::percentiles::read;
use lease_latency::Unit;
use proptest::prelude::*;

/// Distinct percentiles (tenths, 0.1 to 99.9) and growing whole-ms durations.
fn point_sets() -> impl Strategy<Value = Vec<(u32, u64)>> {
    (2usize..=9).prop_flat_map(|n| {
        (
            proptest::collection::btree_set(1u32..1000, n),
            proptest::collection::vec(1u64..100_000, n),
        )
            .prop_map(|(ps, steps)| {
                let mut ms = 0;
                ps.into_iter()
                    .zip(steps)
                    .map(|(p, s)| {
                        ms += s;
                        (p, ms)
                    })
                    .collect()
            })
    })
}

fn percent(tenths: u32) -> String {
    if tenths.is_multiple_of(10) {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

fn in_unit(ms: u64, unit: Unit) -> String {
    match unit {
        Unit::Ms => ms.to_string(),
        // Exact decimals: three places of seconds, five of minutes.
        Unit::S => format!("{}.{:03}", ms / 1000, ms % 1000),
        Unit::Min => format!("{}.{:05}", ms / 60_000, (ms % 60_000) * 100_000 / 60_000),
    }
}

proptest! {
    #[test]
    fn well_formed_percentile_text_reads_back_its_numbers(
        set in point_sets(),
        style in 0usize..5,
        unit_i in 0usize..2,
        reversed in any::<bool>(),
    ) {
        // Minutes cannot write every ms exactly; ms and s can.
        let unit = [Unit::Ms, Unit::S][unit_i];
        let mut items = set.clone();
        if reversed {
            items.reverse();
        }
        let u = unit.name();
        let text = match style {
            0 => items.iter().map(|(p, ms)| format!("p{} {}{u}", percent(*p), in_unit(*ms, unit))).collect::<Vec<_>>().join(", "),
            1 => items.iter().map(|(p, ms)| format!("p{}={}{u}", percent(*p), in_unit(*ms, unit))).collect::<Vec<_>>().join("\n"),
            2 => items.iter().map(|(p, ms)| format!("{}%: {} {u}", percent(*p), in_unit(*ms, unit))).collect::<Vec<_>>().join("\n"),
            3 => format!(
                "{}\n{}",
                items.iter().map(|(p, _)| format!("p{}", percent(*p))).collect::<Vec<_>>().join("\t"),
                items.iter().map(|(_, ms)| in_unit(*ms, unit)).collect::<Vec<_>>().join("\t"),
            ),
            // No unit named: the chosen one applies.
            _ => items.iter().map(|(p, ms)| format!("P{} {}", percent(*p), in_unit(*ms, unit))).collect::<Vec<_>>().join("; "),
        };
        let read = read(&text, unit).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        // The table and the last style name no unit.
        prop_assert_eq!(read.unit_named, style < 3);
        prop_assert_eq!(read.points.len(), set.len());
        for ([p, ms], (tenths, want)) in read.points.iter().zip(&set) {
            prop_assert!((p * 1000.0 - f64::from(*tenths)).abs() < 1e-9, "{}: p {} for {}", text, p, tenths);
            prop_assert!((ms - *want as f64).abs() < 1e-6, "{}: {} ms for {}", text, ms, want);
        }
    }
}
