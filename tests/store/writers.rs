//! Writers: a second writer told the plan is in use, writers killed at random moments, what they left cleaned up, a full disk.

use super::*;

#[test]
fn what_a_killed_writer_left_is_cleaned_up_by_the_next_command_of_any_kind() {
    let ws = scratch("leftovers").join("ws");
    ok(&plan(&ws, &["list"]));
    // A writer that has ended (killed mid-write) is known by its process id in the file's name.
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let dir = ws.join("customer-support");
    let places = ["", "versions", "history", "tests", "sessions"];
    let leftover = |place: &str| dir.join(place).join(format!(".tmp-{dead}-0-x.json"));
    for place in places {
        fs::write(leftover(place), "torn").unwrap();
    }
    // A writer still running (this test's process) keeps its file.
    let live = dir.join(format!(".tmp-{}-0-draft.json", std::process::id()));
    fs::write(&live, "being written").unwrap();
    // A read, not a write of the same kind.
    ok(&plan(&ws, &["export", "customer-support"]));
    for place in places {
        assert!(!leftover(place).exists(), "left in {place}/");
    }
    assert!(live.exists(), "a running writer's file was taken away");
}

#[test]
fn a_second_writer_is_told_the_plan_is_in_use() {
    let ws = scratch("lock").join("ws");
    ok(&plan(&ws, &["list"]));
    // Another process holds the plan's lock (util-linux flock takes the same flock(2) lock). A
    // process of its own, because a lock held in this test process would leak, for an instant,
    // into every child that other tests spawn meanwhile.
    // -o: the lock stays with flock itself, not with its sleeping child, so killing flock frees it.
    let mut holder = Command::new("flock")
        .arg("-o")
        .arg(ws.join("medical-intake/.lock"))
        .args(["sleep", "30"])
        .spawn()
        .expect("flock (util-linux) runs");
    // Wait until the holder has it: a non-blocking flock of our own then fails.
    let lock_file = ws.join("medical-intake/.lock");
    let held = (0..250).any(|_| {
        let free = Command::new("flock")
            .args(["-n", "-o"])
            .arg(&lock_file)
            .arg("true")
            .status()
            .is_ok_and(|s| s.success());
        if free {
            std::thread::sleep(Duration::from_millis(20));
        }
        !free
    });
    assert!(held, "flock never took the lock");
    let o = plan(&ws, &["publish", "medical-intake"]);
    let message = err(&o, 2);
    let exported = plan(&ws, &["export", "medical-intake"]);
    let _ = holder.kill();
    let _ = holder.wait();
    assert!(message.contains("is in use by another writer"), "{message}");
    assert!(!ws.join("medical-intake/versions/1.json").exists());
    // Readers are never blocked.
    ok(&exported);
    assert_eq!(ok(&plan(&ws, &["publish", "medical-intake"])), "1\n");
}

/// `plan import` and `plan publish` are `plan_api::drafts::import` and `versions::publish`, the
/// functions the app's shell calls (its publish goes through the same `Workspace::publish_plan`
/// that `publish` ends in): killing them mid-write covers the app's path too.
#[test]
fn writers_killed_at_random_moments_leave_old_or_new_files_never_torn_ones() {
    let dir = scratch("crash");
    let ws = dir.join("ws");
    ok(&plan(&ws, &["list"]));
    // Drafts the import will write, each different, so publishing always has something new.
    let base = fs::read_to_string(root().join("plans/medical-intake.json")).unwrap();
    let mut written = vec![fs::read_to_string(ws.join("medical-intake/draft.json")).unwrap()];
    let mut files = Vec::new();
    for i in 0..12 {
        let text = base.replace("\"Medical intake\"", &format!("\"Medical intake {i}\""));
        let path = dir.join(format!("draft-{i}.json"));
        fs::write(&path, &text).unwrap();
        files.push(path);
        written.push(text);
    }
    let written: Vec<String> = written
        .iter()
        .map(|t| content_hash(&parse_plan(t).unwrap()))
        .collect();
    // Kill at a uniformly random moment of a whole run: measure how long one takes first.
    let timed = |args: &[&str]| {
        let t = std::time::Instant::now();
        ok(&plan(&ws, args));
        t.elapsed()
    };
    let span = timed(&["import", "medical-intake", files[11].to_str().unwrap()])
        .max(timed(&["publish", "medical-intake"]));
    let span_us = (span.as_micros() as u64).max(1000) * 6 / 5;
    let mut rng = plan_tests::random::Lcg(0x5eed);
    let rounds = 300;
    for round in 0..rounds {
        let file = &files[round % files.len()];
        let args: Vec<&str> = if round % 2 == 0 {
            vec!["import", "medical-intake", file.to_str().unwrap()]
        } else {
            vec!["publish", "medical-intake", "-m", "crash test"]
        };
        let mut child = Command::new(bin())
            .arg("--workspace")
            .arg(&ws)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.next(span_us)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
    }
    // Every file parses; versions are contiguous and intact; the draft is one that was written.
    let plan_dir = ws.join("medical-intake");
    let draft = fs::read_to_string(plan_dir.join("draft.json")).unwrap();
    let draft_hash = content_hash(&parse_plan(&draft).expect("the draft is a whole plan"));
    assert!(
        written.contains(&draft_hash),
        "the draft is not one of the written drafts"
    );
    let versions = json(&ok(&plan(
        &ws,
        &["--format", "json", "versions", "medical-intake"],
    )));
    let list = versions["versions"].as_array().unwrap();
    for (i, v) in list.iter().enumerate() {
        assert_eq!(v["version"], i as u64 + 1, "version numbers have a gap");
        assert!(v["corrupted"].is_null(), "{v}");
        assert!(written.contains(&v["content_hash"].as_str().unwrap().to_string()));
    }
    for entry in fs::read_dir(plan_dir.join("history")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            parse_plan(&fs::read_to_string(entry.path()).unwrap())
                .unwrap_or_else(|e| panic!("history/{name} is torn: {e:?}"));
        }
    }
    // Leftover temporary files are cleaned by the next writer.
    ok(&plan(
        &ws,
        &["import", "medical-intake", files[0].to_str().unwrap()],
    ));
    let leftovers = fs::read_dir(&plan_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
        .count();
    assert_eq!(leftovers, 0);
    assert!(
        list.len() > 1,
        "no publish ever completed: the kills came too early to test much"
    );
    eprintln!(
        "crash test: {rounds} writers killed within {span_us} µs of starting; {} versions survived intact",
        list.len()
    );
}

#[test]
fn a_full_disk_refuses_an_import_and_a_reopen_and_leaves_the_workspace_as_it_was() {
    let dir = scratch("full-disk");
    let Some(disk) = plan_tests::small_disk::SmallDisk::mount(&dir.join("disk"), 8192) else {
        eprintln!("skipped: a tmpfs cannot be mounted here (it needs root)");
        return;
    };
    let ws = disk.path().join("ws");
    // A large plan (~10 times a sample) outside the small disk, and a version of it inside.
    let mut big = plan_core::synthetic::plan(400);
    big.id = "big".into();
    let big_file = dir.join("big.json");
    fs::write(&big_file, serde_json::to_string_pretty(&big).unwrap()).unwrap();
    ok(&plan(&ws, &["import", "big", big_file.to_str().unwrap()]));
    ok(&plan(&ws, &["publish", "big"]));
    let small_file = dir.join("small.json");
    fs::copy(ws.join("daily-routine/draft.json"), &small_file).unwrap();
    ok(&plan(&ws, &["import", "big", small_file.to_str().unwrap()]));
    let big_size = fs::metadata(&big_file).unwrap().len();
    disk.fill_leaving(big_size / 4);

    let before = snapshot(&ws);
    for args in [
        vec!["import", "big", big_file.to_str().unwrap()],
        vec!["reopen", "big", "1"],
    ] {
        let said = err(&plan(&ws, &args), 2);
        assert!(said.contains("No space left"), "{args:?}: {said}");
        assert_eq!(
            snapshot(&ws),
            before,
            "{args:?} on a full disk changed the workspace (a copy left in history/?)"
        );
    }
}
