//! A small, real OpenAI-compatible HTTP server for tests (docs/agents.md, "Tested"): it listens on
//! 127.0.0.1, answers `POST …/chat/completions` with the scripted answers it is given, in order,
//! `GET …/models` with a model list, and records every request it receives (path, headers,
//! body), so a test can read the system prompt, the tools and the tool messages the agent sent.
//! Std only: the api crate's tests include this file too (`#[path]`).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

/// What the server answers one completion request with.
#[derive(Debug, Clone)]
pub enum Scripted {
    /// A Chat Completions answer (the body as given).
    Body(Value),
    /// An HTTP error with this body.
    Status(u16, String),
    /// 200 with a body that is not a Chat Completions answer.
    Raw(String),
    /// No answer for this long, then the connection closes.
    Hang(Duration),
}

/// A completion with `text` and no calls.
pub fn text(text: &str) -> Scripted {
    Scripted::Body(json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }))
}

/// A completion that calls `calls` (function name, arguments as JSON), with `text` (may be
/// empty: then the agent asks a second time).
pub fn calls(text: &str, calls: &[(&str, Value)]) -> Scripted {
    let list: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, args))| {
            json!({"id": format!("call_{i}"), "type": "function",
                   "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    let content = if text.is_empty() {
        Value::Null
    } else {
        json!(text)
    };
    Scripted::Body(json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "tool_calls": list}, "finish_reason": "tool_calls"}],
    }))
}

/// The server as a simulated caller that says every fact of its persona as `key: value` lines
/// (which the simulator records), and a judge that always says yes (simulate.md).
pub fn stating_caller(server: &ModelServer) {
    server.respond_with(|body| {
        if body.get("response_format").is_some() {
            return text(r#"{"verdict": "yes", "reason": "it did"}"#);
        }
        let prompt = body["messages"][0]["content"].as_str().unwrap_or_default();
        let facts: Vec<&str> = prompt
            .lines()
            .filter_map(|l| l.strip_prefix("- "))
            .filter(|l| l.split_once(": ").is_some_and(|(k, _)| !k.contains(' ')))
            .collect();
        text(&facts.join("\n"))
    });
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Received {
    /// The request's method.
    pub method: String,
    /// The request's path.
    pub path: String,
    /// Header lines as sent (`authorization: Bearer …` included: tests check where keys go).
    pub headers: Vec<(String, String)>,
    /// The request's JSON body.
    pub body: Value,
}

impl Received {
    /// The value of header `name`, if it was sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The system message's text.
    pub fn system(&self) -> String {
        self.body["messages"][0]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The names of the functions offered.
    pub fn functions(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter_map(|f| f["function"]["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The parameters' schema of function `name`.
    pub fn parameters(&self, name: &str) -> Option<Value> {
        self.body["tools"].as_array()?.iter().find_map(|f| {
            (f["function"]["name"] == name).then(|| f["function"]["parameters"].clone())
        })
    }
}

/// How the server answers a completion request it has no scripted answer for.
type Responder = Box<dyn Fn(&Value) -> Scripted + Send>;

#[derive(Default)]
struct Shared {
    answers: VecDeque<Scripted>,
    received: Vec<Received>,
    models: Vec<String>,
    responder: Option<Responder>,
}

/// The running server; it stops with the test process.
#[derive(Clone)]
pub struct ModelServer {
    /// The server's base URL (`http://127.0.0.1:PORT/v1`).
    pub base_url: String,
    shared: Arc<Mutex<Shared>>,
}

impl ModelServer {
    /// A server on a free port of 127.0.0.1, listing `test-model` at `/models`.
    pub fn start() -> ModelServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port on 127.0.0.1");
        let port = listener.local_addr().expect("its address").port();
        let shared = Arc::new(Mutex::new(Shared {
            models: vec!["test-model".into()],
            ..Shared::default()
        }));
        let for_thread = Arc::clone(&shared);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&for_thread);
                std::thread::spawn(move || serve(stream, &shared));
            }
        });
        ModelServer {
            base_url: format!("http://127.0.0.1:{port}/v1"),
            shared,
        }
    }

    /// Queues answers for the next completion requests.
    pub fn answer(&self, answers: impl IntoIterator<Item = Scripted>) {
        self.shared.lock().unwrap().answers.extend(answers);
    }

    /// Answers every completion request that finds no scripted answer waiting by `respond`
    /// (given the request's body): a server that plays a part, such as a simulated caller.
    pub fn respond_with(&self, respond: impl Fn(&Value) -> Scripted + Send + 'static) {
        self.shared.lock().unwrap().responder = Some(Box::new(respond));
    }

    /// Every request received so far, oldest first.
    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().unwrap().received.clone()
    }

    /// The completion requests received so far.
    pub fn completions(&self) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| r.path.ends_with("/chat/completions"))
            .collect()
    }

    /// How many scripted answers are still waiting.
    pub fn waiting(&self) -> usize {
        self.shared.lock().unwrap().answers.len()
    }
}

fn serve(stream: TcpStream, shared: &Mutex<Shared>) {
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_string();
        let path = parts.next().unwrap_or_default().to_string();
        let mut headers = Vec::new();
        let mut length = 0usize;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                let (k, v) = (k.trim().to_string(), v.trim().to_string());
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.parse().unwrap_or(0);
                }
                headers.push((k, v));
            }
        }
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let answer = {
            let mut s = shared.lock().unwrap();
            let by_responder = s.responder.as_ref().map(|r| r(&body));
            s.received.push(Received {
                method: method.clone(),
                path: path.clone(),
                headers,
                body,
            });
            if path.ends_with("/models") {
                let data: Vec<Value> = s
                    .models
                    .iter()
                    .map(|m| json!({"id": m, "object": "model"}))
                    .collect();
                Scripted::Body(json!({"object": "list", "data": data}))
            } else {
                s.answers.pop_front().or(by_responder).unwrap_or_else(|| {
                    Scripted::Status(
                        500,
                        "{\"error\":{\"message\":\"no scripted answer left\"}}".into(),
                    )
                })
            }
        };
        let (status, text) = match answer {
            Scripted::Body(v) => (200, v.to_string()),
            Scripted::Status(code, body) => (code, body),
            Scripted::Raw(body) => (200, body),
            Scripted::Hang(d) => {
                std::thread::sleep(d);
                return;
            }
        };
        let reply = format!(
            "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
            if status == 200 { "OK" } else { "Error" },
            text.len()
        );
        if out.write_all(reply.as_bytes()).is_err() {
            return;
        }
        let _ = out.flush();
    }
}
