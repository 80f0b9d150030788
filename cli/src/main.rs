//! `plan`: Plan Builder's command line, over the same core and store as the desktop app.
//!
//! Exit codes (docs/cli.md): 0 success; 1 the plan failed (validation errors, including a file
//! that is not JSON or not a plan; a refused publish); 2 usage, IO or state errors (bad
//! arguments, an unreadable file, an unknown plan or version, a corrupted version, a plan in use).
//! Messages go to stderr, results to stdout, and no panic or backtrace ever reaches the user.

/// `eprint!` that never panics: a closed stderr (`plan … 2>&1 | head -c 200`) is no reason to
/// end in a signal; the command still ends with its own exit code.
macro_rules! to_stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprintln!` that never panics (see [`to_stderr`]).
macro_rules! to_stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod agent;
mod chat;
mod check;
mod compare_runs;
mod explore;
mod lifecycle;
mod share;
mod simulate;
mod suite;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use lifecycle::{revision, Failure};
use plan_core::Revision;

/// Design, check, publish and test conversation plans for AI agents.
#[derive(Parser)]
#[command(name = "plan", version, about)]
struct Cli {
    /// The workspace folder (else PLAN_BUILDER_WORKSPACE, else the default workspace).
    #[arg(long, global = true, value_name = "DIR")]
    workspace: Option<PathBuf>,
    /// text for people, json for programs (one JSON document on stdout).
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate plan files, or a plan of the workspace, and print every problem found.
    Check {
        /// Plan files to check.
        #[arg(
            value_name = "FILE",
            required_unless_present = "plan",
            conflicts_with = "plan"
        )]
        files: Vec<PathBuf>,
        /// Check this plan of the workspace instead (its draft, unless --version is given).
        #[arg(long, value_name = "ID")]
        plan: Option<String>,
        /// The version to check: a number, draft or live.
        #[arg(long, value_name = "N", requires = "plan")]
        version: Option<String>,
    },
    /// Create a plan: a blank start state, or the plan in FILE.
    New {
        id: String,
        #[arg(long)]
        title: Option<String>,
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
    },
    /// The plans of the workspace, with draft status, newest and live version.
    List,
    /// Replace the draft of ID (created if new) from FILE: a plan, or a flow export.
    Import { id: String, file: PathBuf },
    /// Write a plan document: the draft, a version or the live version.
    Export {
        id: String,
        #[arg(long, value_name = "N", conflicts_with = "live")]
        version: Option<u32>,
        #[arg(long)]
        live: bool,
        /// Write to FILE instead of standard output.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Publish the draft as the next version; prints its number.
    Publish {
        id: String,
        /// A note saying what changed.
        #[arg(short = 'm', long = "message", value_name = "NOTE", default_value = "")]
        note: String,
    },
    /// The versions of a plan: number, date, hash, live marker, note.
    Versions { id: String },
    /// Show the live version, or set it to N.
    Live { id: String, version: Option<u32> },
    /// Make version N the draft (the replaced draft is kept in history/).
    Reopen { id: String, version: u32 },
    /// What changed between two versions (or draft, or live).
    Diff { id: String, a: String, b: String },
    /// A test conversation with the simulator (or a language model: --agent llm): interactive,
    /// or scripted with --script..
    Chat {
        #[command(flatten)]
        target: Target,
        /// Run the turns of a script (JSON) instead of reading the terminal.
        #[arg(long, value_name = "FILE")]
        script: Option<PathBuf>,
        /// Continue a saved session of --plan.
        #[arg(long, value_name = "SESSION", requires = "plan", conflicts_with_all = ["version", "live", "draft"])]
        resume: Option<String>,
        /// Begin in this state instead of the start state (wins over a script's start.state).
        #[arg(long, value_name = "STATE", conflicts_with = "resume")]
        from: Option<String>,
        #[command(flatten)]
        agent: agent::Flags,
    },
    /// Every conversation a plan allows, up to bounds: what only shows when it runs (a dead end, a
    /// state or transition never reached, a broken rule), each with its shortest conversation.
    Explore {
        #[command(flatten)]
        target: Target,
        /// The most user turns in one conversation.
        #[arg(long, value_name = "N", default_value_t = plan_core::explore::DEFAULT_MAX_TURNS)]
        max_turns: u32,
        /// The most configurations in all.
        #[arg(long, value_name = "N", default_value_t = plan_core::explore::DEFAULT_MAX_CONFIGURATIONS)]
        max_configurations: usize,
        /// The memory ceiling in MB: the search stops (incomplete) before what it holds passes it.
        #[arg(long, value_name = "MB", default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        max_memory: u64,
        /// The work ceiling: the most moves (turns tried) in all.
        #[arg(long, value_name = "N", default_value_t = 50_000_000)]
        max_moves: usize,
        /// What changes for callers against this older plan file.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["compare_version", "compare_live"])]
        compare: Option<PathBuf>,
        /// What changes for callers against version N of --plan.
        #[arg(
            long,
            value_name = "N",
            requires = "plan",
            conflicts_with = "compare_live"
        )]
        compare_version: Option<u32>,
        /// What changes for callers against the live version of --plan.
        #[arg(long, requires = "plan")]
        compare_live: bool,
    },
    /// Run saved test cases: a plan's tests/ folder, a folder, or files.
    Test {
        /// Plan ids, folders or test files.
        #[arg(value_name = "ID|DIR|FILE", required = true)]
        targets: Vec<String>,
        /// Test this version of a plan of the workspace instead of its draft.
        #[arg(long, value_name = "N", conflicts_with = "live")]
        version: Option<u32>,
        /// Test the live version of a plan of the workspace instead of its draft.
        #[arg(long)]
        live: bool,
        /// Then say which transitions the cases took and which they never took.
        #[arg(long)]
        coverage: bool,
        #[command(flatten)]
        agent: agent::Flags,
    },
    /// Simulated callers: personas played by a model talk to the plan, each conversation
    /// checked and judged, every model answer recorded so that the run replays (--replay RUN).
    Simulate(simulate::Flags),
    /// Merge a plan's draft (or live marker) by its meaning: git's merge driver, set up by
    /// `plan share init`. The result goes into OURS; the conflicts beside the draft, in
    /// draft.conflicts.json. Exit 0 when clean, 1 with conflicts.
    Merge {
        /// The common ancestor (git's %O).
        base: PathBuf,
        /// Ours (%A): the result is written here.
        ours: PathBuf,
        /// Theirs (%B).
        theirs: PathBuf,
        /// The file's path in the repository (%P): the conflicts go beside it.
        #[arg(long, value_name = "PATH")]
        path: Option<PathBuf>,
    },
    /// Share the workspace through git: init, status, checkpoint, get, send.
    #[command(subcommand)]
    Share(share::Share),
    /// Print the JSON Schema of the plan format (or of a persona file: --persona).
    Schema {
        /// The schema of a persona file (personas/NAME.json) instead.
        #[arg(long)]
        persona: bool,
    },
}

/// Which plan a command runs: a file as it is, or a plan of the workspace (its live version,
/// else its draft, unless one is named).
#[derive(Args)]
struct Target {
    /// A plan file, run as is (nothing is saved).
    #[arg(
        value_name = "FILE",
        required_unless_present = "plan",
        conflicts_with = "plan"
    )]
    file: Option<PathBuf>,
    /// A plan of the workspace: its live version, else its draft.
    #[arg(long, value_name = "ID")]
    plan: Option<String>,
    /// This version of --plan.
    #[arg(long, value_name = "N", requires = "plan", conflicts_with_all = ["live", "draft"])]
    version: Option<u32>,
    /// The live version of --plan.
    #[arg(long, requires = "plan", conflicts_with = "draft")]
    live: bool,
    /// The draft of --plan.
    #[arg(long, requires = "plan")]
    draft: bool,
}

impl Target {
    /// The revision named by --version, --live or --draft; none: live, else draft.
    fn revision(&self) -> Option<Revision> {
        match (self.version, self.live, self.draft) {
            (Some(n), _, _) => Some(Revision::Version(n)),
            (None, true, _) => Some(Revision::Live),
            (None, false, true) => Some(Revision::Draft),
            _ => None,
        }
    }
}

/// Output format.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs: one JSON document.
    Json,
}

fn main() -> ExitCode {
    // A bug must still end in a message, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        to_stderr_line!("plan: internal error: {info}. Please report this.");
        std::process::exit(2);
    }));
    let cli = Cli::parse();
    let format = cli.format;
    let made = lifecycle::folder_to_make(cli.workspace.as_deref());
    let result = run(cli);
    if result.is_err() && !lifecycle::has_saved_work() {
        // A refused command leaves no workspace behind: the one it made (seeded with the
        // samples before it was refused) goes again. Only folders that were not there before.
        // A command that saved work (a chat's session, named in what it printed) keeps it,
        // whether it then reports a finding (exit 1) or fails part way (a full disk).
        if let Some(dir) = made {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            failure.report(format);
            ExitCode::from(failure.code)
        }
    }
}

fn run(cli: Cli) -> Result<u8, Failure> {
    let format = cli.format;
    let ws = || lifecycle::workspace(cli.workspace.as_deref());
    match &cli.command {
        Command::Check {
            files, plan: None, ..
        } => return Ok(check::run(files, format)),
        Command::Merge {
            base,
            ours,
            theirs,
            path,
        } => {
            return share::merge(
                base.clone(),
                ours.clone(),
                theirs.clone(),
                path.clone(),
                format,
            )
        }
        Command::Check {
            plan: Some(id),
            version,
            ..
        } => {
            let w = version
                .as_deref()
                .map(revision)
                .transpose()?
                .unwrap_or(Revision::Draft);
            return lifecycle::check_plan(&ws()?, id, w, format);
        }
        Command::Chat {
            target,
            script,
            resume,
            from,
            agent,
        } => {
            let agent = agent::choose(agent)?;
            let options = chat::Options {
                file: target.file.clone(),
                plan: target.plan.clone(),
                revision: target.revision(),
                script: script.clone(),
                resume: resume.clone(),
                from: from.clone(),
                agent,
            };
            return chat::run(ws, options, format);
        }
        Command::Explore {
            target,
            max_turns,
            max_configurations,
            max_memory,
            max_moves,
            compare,
            compare_version,
            compare_live,
        } => {
            let options = explore::Options {
                file: target.file.clone(),
                plan: target.plan.clone(),
                revision: target.revision(),
                workspace: cli.workspace.clone(),
                bounds: plan_core::explore::Bounds {
                    max_turns: *max_turns,
                    max_configurations: *max_configurations,
                    max_memory: usize::try_from(*max_memory)
                        .unwrap_or(usize::MAX)
                        .saturating_mul(1_000_000),
                    max_moves: *max_moves,
                },
                compare_file: compare.clone(),
                compare_version: *compare_version,
                compare_live: *compare_live,
            };
            return explore::run(options, format);
        }
        Command::Test {
            targets,
            version,
            live,
            coverage,
            agent,
        } => {
            let agent = agent::choose(agent)?;
            let revision = match (version, live) {
                (Some(n), _) => Some(Revision::Version(*n)),
                (None, true) => Some(Revision::Live),
                _ => None,
            };
            return suite::run(ws, targets, revision, *coverage, &agent, format);
        }
        Command::Schema { persona } => {
            let schema = if *persona {
                plan_core::persona_schema()
            } else {
                plan_core::json_schema()
            };
            let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
            // A closed pipe (`plan schema | head`) is not an error worth a message.
            let _ = writeln!(std::io::stdout().lock(), "{text}");
            return Ok(0);
        }
        _ => {}
    }
    let ws = ws()?;
    match cli.command {
        Command::New { id, title, from } => {
            lifecycle::new(&ws, &id, title.as_deref(), from.as_deref(), format)
        }
        Command::List => lifecycle::list(&ws, format),
        Command::Import { id, file } => lifecycle::import(&ws, &id, &file, format),
        Command::Export {
            id,
            version,
            live,
            output,
        } => {
            let w = match (version, live) {
                (Some(n), _) => Revision::Version(n),
                (None, true) => Revision::Live,
                (None, false) => Revision::Draft,
            };
            lifecycle::export(&ws, &id, w, output.as_deref())
        }
        Command::Publish { id, note } => lifecycle::publish(&ws, &id, &note, format),
        Command::Versions { id } => lifecycle::versions(&ws, &id, format),
        Command::Live { id, version } => lifecycle::live(&ws, &id, version, format),
        Command::Reopen { id, version } => lifecycle::reopen(&ws, &id, version, format),
        Command::Diff { id, a, b } => {
            lifecycle::diff(&ws, &id, revision(&a)?, revision(&b)?, format)
        }
        Command::Simulate(flags) => return simulate::run_command(&ws, &flags, format),
        Command::Share(share_command) => return share::run(&ws, &share_command, format),
        Command::Check { .. }
        | Command::Merge { .. }
        | Command::Schema { .. }
        | Command::Chat { .. }
        | Command::Explore { .. }
        | Command::Test { .. } => Ok(()),
    }
    .map(|()| 0)
}
