//! The contrast of the canvas's meaning-bearing strokes, measured in the real app's page: every
//! arrow's line, every card's mode stripe, the start ring and a compared card's border, as the
//! page computes them (with the opacity of their ancestors), against the canvas's background.
//! WCAG 2.1's non-text contrast (1.4.11) asks 3:1; axe-core checks text only, so this does the
//! rest.

use crate::page::Outcome;
use crate::Ctx;

/// The ratio WCAG 2.1 asks of graphics that carry meaning.
pub const NON_TEXT: f64 = 3.0;

/// Every meaning-bearing stroke on the canvas with its colour, opacity and background.
const STROKES: &str = r#"
const canvas = document.querySelector('.canvas');
const bg = getComputedStyle(canvas).backgroundColor;
const opacity = el => { let o = 1; for (let e = el; e && e !== canvas; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity || '1'); return o; };
const out = [];
const add = (what, el, colour) => out.push([what, colour, opacity(el)]);
document.querySelectorAll('.transition .edge').forEach(e => {
  const t = e.closest('.transition');
  add('the arrow from ' + (t.dataset.from || '?') + (t.dataset.diff ? ' (' + t.dataset.diff + ')' : ''), e, getComputedStyle(e).stroke);
});
document.querySelectorAll('[data-testid=state]').forEach(c => {
  const stripe = c.querySelector('.card-stripe');
  if (stripe && getComputedStyle(stripe).display !== 'none') add('the mode stripe of ' + c.dataset.stateId, stripe, getComputedStyle(stripe).backgroundColor);
  if (c.dataset.diff) add('the ' + c.dataset.diff + ' border of ' + c.dataset.stateId, c, getComputedStyle(c).borderTopColor);
  if (c.classList.contains('start')) {
    const m = getComputedStyle(c).boxShadow.match(/rgba?\([^)]*\)/);
    if (m) add('the start ring of ' + c.dataset.stateId, c, m[0]);
  }
});
return {bg, strokes: out};
"#;

/// An `rgb(…)` or `rgba(…)` colour's red, green, blue (0–255) and alpha.
fn parse(colour: &str) -> Option<([f64; 3], f64)> {
    let inner = colour.split_once('(')?.1.trim_end_matches(')');
    let parts: Vec<f64> = inner
        .split([',', ' ', '/'])
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    match parts.as_slice() {
        [r, g, b] => Some(([*r, *g, *b], 1.0)),
        [r, g, b, a] => Some(([*r, *g, *b], *a)),
        _ => None,
    }
}

/// `colour` at `alpha` over `under`.
fn over(colour: [f64; 3], alpha: f64, under: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| colour[i] * alpha + under[i] * (1.0 - alpha))
}

fn luminance(c: [f64; 3]) -> f64 {
    let channel = |v: f64| {
        let v = v / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])
}

/// WCAG's contrast ratio of two opaque colours.
pub fn ratio(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Fails, listing each, when a meaning-bearing stroke on the canvas is under 3:1 against its
/// background; `what` names the screen. At least `least` strokes must have been measured (so that
/// a page that drew nothing does not pass).
pub fn check(ctx: &Ctx, what: &str, least: usize) -> Outcome {
    let found = ctx.session().execute(STROKES, serde_json::json!([]))?;
    let bg = found["bg"]
        .as_str()
        .and_then(parse)
        .map(|(c, _)| c)
        .ok_or_else(|| format!("{what}: the canvas's background {}", found["bg"]))?;
    let strokes = found["strokes"].as_array().cloned().unwrap_or_default();
    let mut faint = Vec::new();
    for s in &strokes {
        let name = s[0].as_str().unwrap_or("?");
        let Some((colour, alpha)) = s[1].as_str().and_then(parse) else {
            faint.push(format!("{name}: colour {}", s[1]));
            continue;
        };
        let shown = over(colour, alpha * s[2].as_f64().unwrap_or(1.0), bg);
        let r = ratio(shown, bg);
        if r < NON_TEXT {
            faint.push(format!("{name}: {} → {r:.2}:1", s[1]));
        }
    }
    if strokes.len() < least {
        return Err(format!(
            "{what}: only {} strokes measured, {least} expected",
            strokes.len()
        ));
    }
    if faint.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what}: strokes under {NON_TEXT}:1 against the canvas:\n  {}",
            faint.join("\n  ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_read_blended_and_compared_as_wcag_says() {
        assert_eq!(
            parse("rgb(115, 126, 146)"),
            Some(([115.0, 126.0, 146.0], 1.0))
        );
        assert_eq!(parse("rgba(0, 0, 0, 0.5)"), Some(([0.0, 0.0, 0.0], 0.5)));
        assert!((ratio([0.0; 3], [255.0; 3]) - 21.0).abs() < 0.01);
        let grey = over([0.0; 3], 0.5, [255.0; 3]);
        assert!((grey[0] - 127.5).abs() < 0.01);
        // The arrows' grey on the canvas, before and after issue 44.
        let canvas = [246.0, 247.0, 249.0];
        assert!(ratio([138.0, 148.0, 166.0], canvas) < NON_TEXT);
        assert!(ratio([115.0, 126.0, 146.0], canvas) >= NON_TEXT);
    }
}
