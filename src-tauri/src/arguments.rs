//! The app's command line: what a desktop entry (`plan-builder %F`), a terminal or a test passes.
//!
//! `plan-builder [--workspace DIR] [FILE]`, `--version`, `--help`. A FILE is a plan to show
//! (`plan_api::drafts::open_file`). Anything else is left alone with a word on stderr: the web
//! view's driver and desktops may pass options of their own, and a window that does not open
//! over an unknown option helps nobody.

use std::path::PathBuf;

/// What the command line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Arguments {
    /// `--workspace DIR`.
    pub workspace: Option<PathBuf>,
    /// A plan file to show.
    pub file: Option<PathBuf>,
    /// `--version`: print the version and exit.
    pub version: bool,
    /// `--help`: print the usage and exit.
    pub help: bool,
    /// Options not understood, for the warning.
    pub ignored: Vec<String>,
}

/// What `--help` prints.
pub const USAGE: &str = "\
Usage: plan-builder [--workspace DIR] [FILE]

Opens Plan Builder on the workspace DIR (else $PLAN_BUILDER_WORKSPACE, else
~/.local/share/plan-builder/plans, made and given the sample plans the first time).
FILE, a plan file, is shown: a plan of the workspace opens, another file is imported
as a new plan.

  --workspace DIR   the workspace to open
  --version         print the version
  --help            print this
";

/// Reads the arguments after the program's name.
pub fn read(args: impl IntoIterator<Item = String>) -> Arguments {
    let mut read = Arguments::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--workspace" {
            read.workspace = args.next().map(PathBuf::from);
        } else if let Some(dir) = arg.strip_prefix("--workspace=") {
            read.workspace = Some(PathBuf::from(dir));
        } else if arg == "--version" || arg == "-V" {
            read.version = true;
        } else if arg == "--help" || arg == "-h" {
            read.help = true;
        } else if arg == "--" {
            read.file = args.next().map(PathBuf::from);
        } else if arg.starts_with('-') || read.file.is_some() {
            read.ignored.push(arg);
        } else {
            read.file = Some(PathBuf::from(arg));
        }
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(args: &[&str]) -> Arguments {
        read(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn a_desktop_entry_passes_a_file_and_a_terminal_a_workspace() {
        let a = read_all(&["/home/ann/pizza.plan.json"]);
        assert_eq!(a.file, Some(PathBuf::from("/home/ann/pizza.plan.json")));
        assert_eq!(a.workspace, None);
        let a = read_all(&["--workspace", "/w", "x.json"]);
        assert_eq!(a.workspace, Some(PathBuf::from("/w")));
        assert_eq!(a.file, Some(PathBuf::from("x.json")));
        assert_eq!(
            read_all(&["--workspace=/w"]).workspace,
            Some(PathBuf::from("/w"))
        );
        assert_eq!(
            read_all(&["--", "-odd.json"]).file,
            Some(PathBuf::from("-odd.json"))
        );
    }

    #[test]
    fn version_and_help_are_asked_and_unknown_options_are_set_aside() {
        assert!(read_all(&["--version"]).version);
        assert!(read_all(&["-V"]).version);
        assert!(read_all(&["--help"]).help);
        let a = read_all(&["--sync", "a.json", "b.json"]);
        assert_eq!(a.file, Some(PathBuf::from("a.json")));
        assert_eq!(a.ignored, vec!["--sync".to_string(), "b.json".to_string()]);
        assert_eq!(read_all(&[]), Arguments::default());
    }
}
