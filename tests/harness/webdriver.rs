//! A small W3C WebDriver client over plain HTTP: just what the end-to-end tests use.

use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

/// The W3C key under which an element reference travels.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// An error from the driver or the transport, as text for the test output.
pub type Result<T> = std::result::Result<T, String>;

/// One WebDriver session: one running instance of the app.
pub struct Session {
    base: String,
    id: String,
    agent: ureq::Agent,
}

/// A reference to an element of the page.
#[derive(Debug, Clone)]
pub struct Element(String);

impl Session {
    /// Starts the app through the driver at `driver_url` with `capabilities`.
    pub fn start(driver_url: &str, capabilities: Value) -> Result<Session> {
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(60))
            .build();
        let answer = send(
            &agent,
            "POST",
            &format!("{driver_url}/session"),
            Some(json!({"capabilities": {"alwaysMatch": capabilities}})),
        )?;
        let id = answer["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session id in {answer}"))?
            .to_string();
        Ok(Session {
            base: format!("{driver_url}/session/{id}"),
            id,
            agent,
        })
    }

    /// The session's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Ends the session, which closes the app.
    pub fn end(&self) -> Result<()> {
        send(&self.agent, "DELETE", &self.base, None).map(|_| ())
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value> {
        send(&self.agent, method, &format!("{}{path}", self.base), body)
    }

    /// Every element matching the CSS selector, in document order.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element>> {
        let v = self.call(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        )?;
        Ok(v.as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|e| e[ELEMENT_KEY].as_str().map(|s| Element(s.to_string())))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// The one element matching `css`, waiting up to `timeout` for it to appear.
    pub fn wait_for(&self, css: &str, timeout: Duration) -> Result<Element> {
        let mut found = None;
        self.wait_until(&format!("an element matching {css}"), timeout, || {
            found = self.find_all(css)?.into_iter().next();
            Ok(found.is_some())
        })?;
        found.ok_or_else(|| format!("{css} vanished"))
    }

    /// Polls `check` every 50 ms until it holds or `timeout` passes.
    pub fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        let deadline = Instant::now() + timeout;
        let mut last_error = String::new();
        loop {
            match check() {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(e) => last_error = e,
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "waited {timeout:?} for {what}; it never came {last_error}"
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The element's visible text.
    pub fn text(&self, el: &Element) -> Result<String> {
        let v = self.call("GET", &format!("/element/{}/text", el.0), None)?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    /// The element's attribute `name`, if it has one.
    pub fn attribute(&self, el: &Element, name: &str) -> Result<Option<String>> {
        let v = self.call("GET", &format!("/element/{}/attribute/{name}", el.0), None)?;
        Ok(v.as_str().map(str::to_string))
    }

    /// Clicks the element.
    pub fn click(&self, el: &Element) -> Result<()> {
        self.call("POST", &format!("/element/{}/click", el.0), Some(json!({})))
            .map(|_| ())
    }

    /// Runs `script` asynchronously: it ends by calling its last argument with the result.
    pub fn execute_async(&self, script: &str, args: Value) -> Result<Value> {
        self.call(
            "POST",
            "/execute/async",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Sets how long scripts may run (milliseconds).
    pub fn script_timeout(&self, ms: u64) -> Result<()> {
        self.call("POST", "/timeouts", Some(json!({"script": ms})))
            .map(|_| ())
    }

    /// Types `text` into a field (after what it holds).
    pub fn send_keys(&self, el: &Element, text: &str) -> Result<()> {
        self.call(
            "POST",
            &format!("/element/{}/value", el.0),
            Some(json!({"text": text})),
        )
        .map(|_| ())
    }

    /// Empties a text field.
    pub fn clear(&self, el: &Element) -> Result<()> {
        self.call("POST", &format!("/element/{}/clear", el.0), Some(json!({})))
            .map(|_| ())
    }

    /// Presses keys together and lets them go (a chord: `["\u{E009}", "z"]` is Ctrl+Z).
    pub fn chord(&self, keys: &[&str]) -> Result<()> {
        let mut seq: Vec<Value> = keys
            .iter()
            .map(|k| json!({"type": "keyDown", "value": k}))
            .collect();
        seq.extend(
            keys.iter()
                .rev()
                .map(|k| json!({"type": "keyUp", "value": k})),
        );
        self.actions(json!([{"type": "key", "id": "keyboard", "actions": seq}]))
    }

    /// Runs `script` in the page (`arguments` are `args`) and returns its value.
    pub fn execute(&self, script: &str, args: Value) -> Result<Value> {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Performs W3C input actions (pointer drags, key presses).
    pub fn actions(&self, actions: Value) -> Result<()> {
        self.call("POST", "/actions", Some(json!({"actions": actions})))?;
        self.call("DELETE", "/actions", None).map(|_| ())
    }

    /// Presses the mouse at (x1, y1) of the viewport, moves in `steps` to (x2, y2) and releases.
    pub fn drag(&self, from: (i64, i64), to: (i64, i64), steps: i64) -> Result<()> {
        let mut seq = vec![
            json!({"type": "pointerMove", "duration": 0, "x": from.0, "y": from.1, "origin": "viewport"}),
            json!({"type": "pointerDown", "button": 0}),
        ];
        for i in 1..=steps {
            let x = from.0 + (to.0 - from.0) * i / steps;
            let y = from.1 + (to.1 - from.1) * i / steps;
            seq.push(json!({"type": "pointerMove", "duration": 16, "x": x, "y": y, "origin": "viewport"}));
        }
        seq.push(json!({"type": "pointerUp", "button": 0}));
        self.actions(json!([{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": seq
        }]))
    }

    /// Resizes the app's window to `width` × `height` pixels.
    pub fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        )
        .map(|_| ())
    }

    /// Loads the page again, as a reload of the browser would.
    pub fn refresh(&self) -> Result<()> {
        self.call("POST", "/refresh", Some(json!({}))).map(|_| ())
    }

    /// A PNG of the page as the user sees it.
    pub fn screenshot(&self) -> Result<Vec<u8>> {
        let v = self.call("GET", "/screenshot", None)?;
        let data = v.as_str().ok_or("no screenshot data")?;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| format!("screenshot is not base64: {e}"))
    }
}

fn send(agent: &ureq::Agent, method: &str, url: &str, body: Option<Value>) -> Result<Value> {
    let request = agent.request(method, url);
    let response = match body {
        Some(b) => request.send_json(b),
        None => request.call(),
    };
    let text = match response {
        Ok(r) => r
            .into_string()
            .map_err(|e| format!("{method} {url}: {e}"))?,
        Err(ureq::Error::Status(code, r)) => {
            let body = r.into_string().unwrap_or_default();
            return Err(format!("{method} {url}: HTTP {code}: {body}"));
        }
        Err(e) => return Err(format!("{method} {url}: {e}")),
    };
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{method} {url}: not JSON ({e}): {text}"))?;
    Ok(v["value"].clone())
}
