//! `plan`: Plan Builder's command line, over the same core as the desktop app.
//!
//! Only `plan --version` and `plan --help` exist so far; the commands of `spec/cli.md` arrive with
//! the validator, the store and the runtime.

use clap::Parser;

/// Design, check, publish and test conversation plans for AI agents.
#[derive(Parser)]
#[command(name = "plan", version, about)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
}
