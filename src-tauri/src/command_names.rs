// The commands the page may call, read by the build script (which declares them to Tauri, so that
// the capability file can allow exactly these) and by a test that checks them against
// `plan_api::messages::COMMANDS`.
const COMMANDS: [&str; 20] = [
    "start",
    "list_plans",
    "load_plan",
    "save_draft",
    "new_plan",
    "duplicate_plan",
    "rename_plan",
    "delete_plan",
    "list_trash",
    "restore_plan",
    "list_samples",
    "publish_preview",
    "publish",
    "list_versions",
    "load_version",
    "set_live",
    "reopen_version",
    "compare",
    "import_file",
    "export_file",
];
