//! `plan`: Plan Builder's command line, over the same core as the desktop app.
//!
//! Exit codes (spec/cli.md): 0 success; 1 the plan failed (validation errors, including a file
//! that is not JSON or not a plan); 2 usage, IO or state errors. Messages go to stderr, results to
//! stdout, and no panic or backtrace ever reaches the user.

mod check;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Design, check, publish and test conversation plans for AI agents.
#[derive(Parser)]
#[command(name = "plan", version, about)]
struct Cli {
    /// The workspace folder (else PLAN_BUILDER_WORKSPACE, else the default workspace).
    #[arg(long, global = true, value_name = "DIR")]
    workspace: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate plan files and print every problem found.
    Check {
        /// Plan files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// text for people, json for programs.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the JSON Schema of the plan format.
    Schema,
}

/// Output format.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    // A bug must still end in a message, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("plan: internal error: {info}. Please report this.");
        std::process::exit(2);
    }));
    let cli = Cli::parse();
    let _ = &cli.workspace; // read by the store commands
    let code = match cli.command {
        Command::Check { files, format } => check::run(&files, format),
        Command::Schema => {
            let schema = plan_core::json_schema();
            let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
            // A closed pipe (`plan schema | head`) is not an error worth a message.
            let _ = writeln!(std::io::stdout().lock(), "{text}");
            0
        }
    };
    ExitCode::from(code)
}
