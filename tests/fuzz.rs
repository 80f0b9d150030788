//! A fuzz target run for a bounded time (issue 31): the readers of what comes from outside (the
//! plan reader with validation, the flow-export importer, the test-case script reader) are fed
//! arbitrary bytes and every sample mutated byte by byte (flipped, cut, spliced, truncated, a
//! byte range repeated), and must answer, never panic: a plan, or findings that say where; a
//! plan they accept is explored within small ceilings, which it must never pass (and the
//! mutated samples reach each of them). The number of cases bounds the time (`PLAN_FUZZ_CASES`
//! raises it for a longer run).

use plan_core::explore::{explore, Bounds};
use plan_core::runtime::script::{self, Script};
use plan_core::runtime::Start;
use plan_core::validate::check_bytes;
use plan_core::Code;
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PLAN_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5_000)
}

/// The documents the mutations start from: every sample plan, a saved test case, a flow export.
fn seeds() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join("plans")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "json") {
            out.push(std::fs::read(entry.path()).unwrap());
        }
    }
    out.push(std::fs::read(root.join("plans/tests/customer-support/billing-refund.json")).unwrap());
    out.push(std::fs::read(root.join("core/tests/fixtures/flow-export.json")).unwrap());
    out
}

/// One change to a document, as a disk, a transfer or a careless hand makes it.
#[derive(Debug, Clone)]
enum Mutation {
    Flip { at: usize, bits: u8 },
    Cut { at: usize, len: usize },
    Splice { at: usize, bytes: Vec<u8> },
    Truncate { at: usize },
    Repeat { at: usize, len: usize, times: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, bits)| Mutation::Flip { at, bits }),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Cut { at, len }),
        (
            any::<usize>(),
            prop::collection::vec(
                prop_oneof![
                    any::<u8>(),
                    prop::sample::select(b"{}[]\":,\\0123456789.eE-+ \ntruefalsnul".to_vec())
                ],
                1..24
            )
        )
            .prop_map(|(at, bytes)| Mutation::Splice { at, bytes }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), 1usize..16, 2usize..40).prop_map(|(at, len, times)| Mutation::Repeat {
            at,
            len,
            times
        }),
    ]
}

fn apply(doc: &[u8], changes: &[Mutation]) -> Vec<u8> {
    let mut d = doc.to_vec();
    for change in changes {
        let n = d.len().max(1);
        match change {
            Mutation::Flip { at, bits } => {
                if let Some(b) = d.get_mut(at % n) {
                    *b ^= bits;
                }
            }
            Mutation::Cut { at, len } => {
                let from = (at % n).min(d.len());
                let to = (from + len).min(d.len());
                d.drain(from..to);
            }
            Mutation::Splice { at, bytes } => {
                let at = (at % n).min(d.len());
                d.splice(at..at, bytes.iter().copied());
            }
            Mutation::Truncate { at } => d.truncate(at % n),
            Mutation::Repeat { at, len, times } => {
                let from = (at % n).min(d.len());
                let to = (from + len).min(d.len());
                let piece = d[from..to].to_vec();
                for _ in 0..*times {
                    d.splice(to..to, piece.iter().copied());
                }
            }
        }
    }
    d
}

/// Small ceilings for exploring what the fuzzer makes: every one of them is met by some cases.
const BOUNDS: Bounds = Bounds {
    max_turns: 12,
    max_configurations: 5_000,
    max_memory: 2_000_000,
    max_moves: 3_000,
};

/// A plan the readers accepted, explored within [`BOUNDS`]: it answers, never passes a ceiling,
/// and says which one stopped it.
fn explore_within_bounds(plan: &plan_core::Plan) {
    let e = explore(plan, &Start::default(), BOUNDS, &|| false, &mut |_| {});
    assert!(e.cost.work <= BOUNDS.max_moves, "{:?}", e.cost);
    assert!(e.cost.held_bytes <= BOUNDS.max_memory, "{:?}", e.cost);
    assert!(e.configurations <= BOUNDS.max_configurations);
    if let Some(stopped) = e.stopped {
        assert!(!e.complete);
        let incomplete = e
            .findings
            .iter()
            .find(|f| f.code.as_str() == "explore-incomplete");
        assert!(incomplete.is_some(), "stopped ({stopped:?}) but not said");
        REACHED.lock().unwrap().insert(format!("{stopped:?}"));
    }
}

/// Which ceilings the fuzzed plans reached.
static REACHED: std::sync::Mutex<std::collections::BTreeSet<String>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Every reader on `bytes`: each must answer without panicking, and what it refuses it locates.
fn read_everything(bytes: &[u8]) {
    let (plan, report) = check_bytes(bytes);
    if let Some(plan) = plan.as_ref().filter(|_| !report.has_errors()) {
        explore_within_bounds(plan);
    }
    if plan.is_none() {
        assert!(
            report.has_errors(),
            "a document that is not a plan got no error"
        );
    }
    for d in &report.diagnostics {
        if d.code == Code::InvalidJson {
            assert!(
                d.message.to_lowercase().contains("line"),
                "invalid JSON said without its line and column: {}",
                d.message
            );
        }
    }
    if let Ok(doc) = serde_json::from_slice::<serde_json::Value>(bytes) {
        if plan_core::flow_import::is_flow_export(&doc) {
            let _ = plan_core::flow_import::convert(&doc, "imported");
        }
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _: Result<Script, _> = script::object(&mut de).and_then(|s| de.end().map(|()| s));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_are_answered_never_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        read_everything(&bytes);
    }

    #[test]
    fn every_sample_mutated_is_answered_never_a_panic(
        seed in any::<prop::sample::Index>(),
        changes in prop::collection::vec(mutation(), 1..6),
    ) {
        let seeds = seeds();
        let doc = &seeds[seed.index(seeds.len())];
        read_everything(&apply(doc, &changes));
    }
}

/// The explorer's ceilings are reached by what the fuzzer makes: the samples explored within
/// [`BOUNDS`], and plans made to explode (many tasks, a wide enum) mutated.
#[test]
fn the_explorers_ceilings_are_reached_and_never_passed() {
    for seed in seeds() {
        read_everything(&seed);
    }
    let tasks: Vec<String> = (0..300)
        .map(|i| format!(r#"{{"id":"t{i}","deliverables":[{{"key":"k{i}","type":"string"}}]}}"#))
        .collect();
    let many = format!(
        r#"{{"id":"many","title":"Many","states":[{{"id":"a","title":"A","type":"loose","tasks":[{}],"transitions":[{{"target_state_id":"b","condition_type":"all_tasks_complete"}}]}},{{"id":"b","title":"B","instructions":"Bye"}}]}}"#,
        tasks.join(",")
    );
    read_everything(many.as_bytes());
    let mut loose = BOUNDS;
    loose.max_moves = 1_000_000;
    let e = explore(
        &plan_core::parse_plan(&many).unwrap(),
        &Start::default(),
        loose,
        &|| false,
        &mut |_| {},
    );
    assert_eq!(
        e.stopped,
        Some(plan_core::explore::Stopped::MaxMemory),
        "{:?}",
        e.cost
    );
    assert!(e.cost.held_bytes <= loose.max_memory, "{:?}", e.cost);
    let reached = REACHED.lock().unwrap().clone();
    assert!(
        reached.contains("MaxMoves"),
        "no fuzzed plan reached the work ceiling: {reached:?}"
    );
}
