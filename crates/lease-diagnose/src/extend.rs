//! Whether the worker can extend its lease at all, from the preset and the
//! client library where each is known (docs/MODEL.md "Job frameworks",
//! "Managed services", "Client libraries"). The engine lets a file try a
//! heartbeat under most presets, as a what-if; a recommendation must not
//! propose one the chosen client has no call for.

use lease_sim::resolve::{client_policy, resolve, ClientPolicy};
use lease_sim::scenario::{AckAt, ExpiryTakes, Preset, Scenario};

/// Why the scenario's worker cannot extend its lease, or `None` when it can.
pub fn cannot_extend(s: &Scenario) -> Option<&'static str> {
    if let ClientPolicy::SqsLambda { .. } = client_policy(s.workers.client.as_ref()) {
        return Some(
            "Lambda stops the handler at its function timeout, so no heartbeat keeps the work going past it",
        );
    }
    match s.broker.preset {
        // The research on RabbitMQ: no heartbeat or extension exists for
        // the consumer timeout; the only lever is a larger timeout.
        Preset::Rabbitmq42 | Preset::Rabbitmq43 => Some(
            "RabbitMQ has no call that extends a delivery's consumer timeout; the only lever is the timeout itself",
        ),
        // Celery's tasks have no call that extends the transport's
        // visibility timeout (kombu's Redis and SQS transports).
        Preset::CeleryRedis | Preset::CelerySqs => Some(
            "Celery has no call that extends a task's visibility timeout; it has to cover the longest run and the longest ETA",
        ),
        Preset::CloudTasks => {
            Some("a push target has no call that extends its dispatch deadline")
        }
        Preset::SidekiqPro => Some("super_fetch keeps no lease to extend"),
        _ => None,
    }
}

/// The timeouts the preset accepts, in ms: Cloud Tasks' dispatch deadline
/// runs from 15 s to 30 min; every other preset up to lease-sim's 12 h.
pub fn timeout_range_ms(p: Preset) -> (u64, u64) {
    use lease_sim::services::{CLOUD_TASKS_MAX_DEADLINE_MS, CLOUD_TASKS_MIN_DEADLINE_MS};
    match p {
        Preset::CloudTasks => (CLOUD_TASKS_MIN_DEADLINE_MS, CLOUD_TASKS_MAX_DEADLINE_MS),
        _ => (1, lease_sim::validate::MAX_VISIBILITY_TIMEOUT_MS),
    }
}

/// Why no timer ever takes a message back from the worker holding it, or
/// `None` when one does: Sidekiq Pro's `super_fetch` keeps no lease (a job
/// comes back only after its process dies and a later one starts), and a
/// Redis stream with no claimer leaves an entry pending for ever
/// (docs/MODEL.md "What expiry takes back").
pub fn no_timer(s: &Scenario) -> Option<&'static str> {
    match resolve(s).expiry_takes {
        ExpiryTakes::Orphans => Some(
            "super_fetch keeps no lease: a job comes back only after its process dies and a later one starts",
        ),
        ExpiryTakes::Nothing => Some(
            "with no claimer nothing takes an entry back from the consumer holding it",
        ),
        _ => None,
    }
}

/// Why a running handler never loses its message to a timer, or `None`:
/// no timer at all, or the message acked on receipt (Celery's default,
/// `acks_late=False`), before the handler starts.
pub fn running_work_never_expires(s: &Scenario) -> Option<&'static str> {
    no_timer(s).or_else(|| {
        (resolve(s).ack_at == AckAt::BeforeWork)
            .then_some("the task is acked on receipt, so a running task holds no lease to lose")
    })
}

/// Whether the preset keeps any lease a timeout could be chosen for.
pub fn has_lease(p: Preset) -> bool {
    p != Preset::SidekiqPro
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::{Client, Library};

    fn under(p: Preset) -> Scenario {
        let mut s = Scenario::default();
        s.broker.preset = p;
        s
    }

    #[test]
    fn celery_rabbitmq_cloud_tasks_sidekiq_and_lambda_cannot_extend_and_the_others_can() {
        for p in Preset::ALL {
            let no = matches!(
                p,
                Preset::Rabbitmq42
                    | Preset::Rabbitmq43
                    | Preset::CeleryRedis
                    | Preset::CelerySqs
                    | Preset::CloudTasks
                    | Preset::SidekiqPro
            );
            assert_eq!(cannot_extend(&under(p)).is_some(), no, "{p:?}");
            // Every preset the engine refuses a heartbeat under is here too.
            if !lease_sim::services::has_renewal(p) {
                assert!(cannot_extend(&under(p)).is_some(), "{p:?}");
            }
        }
        let mut s = under(Preset::SqsStandard);
        s.workers.client = Some(Client {
            library: Library::SqsLambda,
            ..Client::default()
        });
        assert!(cannot_extend(&s).unwrap().starts_with("Lambda"));
    }
}
