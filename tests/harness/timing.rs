//! What the benchmarks share, the one timing helper of the project's benches (each includes this
//! file by its path): medians of timed runs, run by run or interleaved (this machine's speed
//! drifts from one minute to the next, so two things compared are timed in turn).

#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

/// A duration in milliseconds, two decimals: how the benches print their figures.
pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

pub fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

pub fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                black_box(f());
                t.elapsed()
            })
            .collect(),
    )
}

/// The medians of `reps` runs of `a` and of `b`, taken in turn.
pub fn interleaved<A, B>(
    reps: usize,
    mut a: impl FnMut() -> A,
    mut b: impl FnMut() -> B,
) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let t = Instant::now();
        black_box(a());
        ta.push(t.elapsed());
        let t = Instant::now();
        black_box(b());
        tb.push(t.elapsed());
    }
    (median(ta), median(tb))
}

/// The median of `reps` batches of `n` calls, per call.
pub fn per_call<T>(reps: usize, n: u32, mut f: impl FnMut() -> T) -> Duration {
    time(reps, || {
        for _ in 0..n {
            black_box(f());
        }
    }) / n
}
