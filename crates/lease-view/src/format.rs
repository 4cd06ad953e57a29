//! Instants as people read them on the timeline and in the hover card
//! (a length of time reads as `lease_format::display::duration` writes it).

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
}
