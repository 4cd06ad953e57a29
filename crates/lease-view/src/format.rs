//! Times as people read them on the timeline and in the hover card.

/// An instant on the run's clock: "0:05", "1:30", "1:02:03"; milliseconds
/// only when there are some ("0:05.250"), because most events in a
/// scenario land on whole seconds and the extra digits are noise.
pub fn clock(ms: u64) -> String {
    let frac = ms % 1000;
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    let mut out = if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    };
    if frac != 0 {
        let f = format!("{frac:03}");
        out.push('.');
        out.push_str(f.trim_end_matches('0'));
    }
    out
}

/// A length of time: "250 ms", "12.5 s", "1 min 30 s", "2 h 5 min".
pub fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        let tenths = (ms + 50) / 100;
        if tenths.is_multiple_of(10) {
            format!("{} s", tenths / 10)
        } else {
            format!("{}.{} s", tenths / 10, tenths % 10)
        }
    } else if ms < 3_600_000 {
        let s = (ms + 500) / 1000;
        match (s / 60, s % 60) {
            (m, 0) => format!("{m} min"),
            (m, s) => format!("{m} min {s} s"),
        }
    } else {
        let min = (ms + 30_000) / 60_000;
        match (min / 60, min % 60) {
            (h, 0) => format!("{h} h"),
            (h, m) => format!("{h} h {m} min"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_read_as_a_clock() {
        assert_eq!(clock(0), "0:00");
        assert_eq!(clock(60_000), "1:00");
        assert_eq!(clock(90_000), "1:30");
        assert_eq!(clock(5_250), "0:05.25");
        assert_eq!(clock(3_723_000), "1:02:03");
    }

    #[test]
    fn durations_read_in_the_largest_sensible_unit() {
        assert_eq!(duration(250), "250 ms");
        assert_eq!(duration(12_500), "12.5 s");
        assert_eq!(duration(30_000), "30 s");
        assert_eq!(duration(90_000), "1 min 30 s");
        assert_eq!(duration(120_000), "2 min");
        assert_eq!(duration(7_500_000), "2 h 5 min");
    }
}
