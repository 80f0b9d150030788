//! Any sequence of store operations keeps the store's promises: versions never change once
//! written, live points at an existing intact version, history only grows, numbers are 1..N.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use plan_core::store::Workspace;
use plan_core::synthetic;
use plan_core::Revision;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Edit(usize),
    Import(usize),
    Publish,
    SetLive(u32),
    Reopen(u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..4).prop_map(Op::Edit),
        (0usize..4).prop_map(Op::Import),
        Just(Op::Publish),
        (1u32..6).prop_map(Op::SetLive),
        (1u32..6).prop_map(Op::Reopen),
    ]
}

fn scratch(case: u64) -> PathBuf {
    let dir = plan_tests::target_dir()
        .join("store-properties")
        .join(format!("{}-{case}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_sequence_of_operations_keeps_the_invariants(ops in prop::collection::vec(op(), 1..12), case in any::<u64>()) {
        let dir = scratch(case);
        let ws = Workspace::open(&dir.join("ws"), "2026-01-01T00:00:00Z").unwrap();
        let variants: Vec<_> = (0..4)
            .map(|i| {
                let mut p = synthetic::plan(3 + i);
                p.title = format!("variant {i}");
                p
            })
            .collect();
        let files: Vec<PathBuf> = variants
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let f = dir.join(format!("import-{i}.json"));
                fs::write(&f, serde_json::to_string(p).unwrap()).unwrap();
                f
            })
            .collect();
        let id = "collections";
        let mut frozen: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
        let mut history_len = 0;
        for (step, op) in ops.iter().enumerate() {
            let now = format!("2026-01-01T00:00:{step:02}Z");
            let _ = match op {
                Op::Edit(i) => ws.save_draft(id, &variants[*i]).map(|_| ()),
                Op::Import(i) => ws.import(id, &files[*i], &now).map(drop),
                Op::Publish => ws.publish(id, "", &now).map(|_| ()),
                Op::SetLive(n) => ws.set_live(id, *n, &now),
                Op::Reopen(n) => ws.reopen(id, *n, &now).map(drop),
            };
            let versions = ws.versions(id).unwrap();
            for (i, v) in versions.iter().enumerate() {
                prop_assert_eq!(v.version, i as u32 + 1);
                prop_assert!(v.corrupted.is_none());
                let bytes = fs::read(ws.root().join(format!("{id}/versions/{}.json", v.version))).unwrap();
                let before = frozen.entry(v.version).or_insert_with(|| bytes.clone());
                prop_assert_eq!(&*before, &bytes, "version {} changed", v.version);
            }
            prop_assert_eq!(versions.len(), frozen.len(), "a version vanished");
            if let Some(live) = ws.live(id).unwrap() {
                prop_assert!(ws.read_version(id, live.version).is_ok());
                prop_assert!(ws.export(id, Revision::Live).is_ok());
            }
            let history = fs::read_dir(ws.root().join(format!("{id}/history"))).unwrap().count();
            prop_assert!(history >= history_len, "history shrank");
            history_len = history;
            prop_assert!(ws.read_draft(id).is_ok());
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
