//! `cargo bench -p lease-sim --bench throughput`: the engine on the 100,000-
//! message benchmark scenario, reported by criterion as events per second.
//! The bench profile sets opt-level 3 (root Cargo.toml): the release
//! profile's `opt-level = "z"` is for the wasm bundle's size.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lease_sim::{bench_scenarios, simulate, Options};

fn throughput(c: &mut Criterion) {
    let s = bench_scenarios::hundred_thousand();
    let events = simulate(&s, &Options::default()).unwrap().events.len() as u64;
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(10));
    g.throughput(Throughput::Elements(events));
    g.bench_function("100k messages", |b| {
        b.iter(|| simulate(&s, &Options::default()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
