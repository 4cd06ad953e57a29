//! Where a tour's step points: the element the page marks, and the words
//! the tours panel (`panels/tour.rs`) uses for it.

/// The element a step points at, by the tour's `look_at` word.
pub fn target_selector(look_at: &str) -> String {
    match look_at {
        "timeline" => "#timeline".into(),
        "totals" => "#totals".into(),
        "charts" => "#charts".into(),
        "diagnosis" => "#diagnosis".into(),
        "sweep" => "#open-sweep".into(),
        "max_extensions" => "#ctl-cap".into(),
        other => format!("#ctl-{other}"),
    }
}

/// "the Visibility timeout slider" for `timeout`.
pub fn look_words(look_at: &str) -> String {
    match look_at {
        "timeline" => "the timeline".into(),
        "totals" => "the totals".into(),
        "charts" => "the charts".into(),
        "diagnosis" => "the Diagnosis".into(),
        "sweep" => "the Sweep panel".into(),
        "max_extensions" => "the Extension cap slider".into(),
        "timeout" => "the Visibility timeout slider".into(),
        "heartbeat" => "the Heartbeat controls".into(),
        "fence" => "the Store fence select".into(),
        "workers" => "the Workers slider".into(),
        "max-receive" => "the Max receive count slider".into(),
        other => other.replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_points_at_something_the_page_has() {
        let known = [
            "#timeline",
            "#totals",
            "#charts",
            "#diagnosis",
            "#open-sweep",
            "#ctl-cap",
            "#ctl-timeout",
            "#ctl-heartbeat",
            "#ctl-fence",
            "#ctl-workers",
            "#ctl-max-receive",
        ];
        for t in lease_diagnose::tour_texts() {
            for s in t.steps {
                let sel = target_selector(s.look_at);
                assert!(
                    known.contains(&sel.as_str()),
                    "{}: {} -> {sel}",
                    t.id,
                    s.look_at
                );
            }
        }
    }
}
