//! Writing SVG text: elements with escaped attribute values and text, numbers with at most two
//! decimals, and the document around the charts with its light and dark style.

use std::fmt::Write;

/// Escapes `text` for an attribute value or element text.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if c.is_control() && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate as written: two decimals at most, no `-0`.
pub fn num(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        "0".to_string()
    } else {
        let text = format!("{rounded:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The style of every chart: neutral greys on white, or on near-black when the viewer prefers
/// a dark scheme. Class names start with `zc-` so that a chart set into a page does not take
/// the page's styles, nor give its own to the page.
const STYLE: &str = "\
svg.zc{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:12px}\
.zc-bg{fill:#ffffff}.zc-title{font-size:15px;font-weight:600;fill:#1f2328}\
.zc-text{fill:#424a53}.zc-muted{fill:#6e7781}\
.zc-axis{stroke:#8c959f;stroke-width:1}.zc-grid{stroke:#d8dee4;stroke-width:1}\
.zc-zero{stroke:#8c959f;stroke-width:1;stroke-dasharray:4 3}\
.zc-cell{stroke:#d8dee4}.zc-empty{fill:#f6f8fa}\
@media (prefers-color-scheme:dark){.zc-bg{fill:#161b22}.zc-title{fill:#e6edf3}\
.zc-text{fill:#c9d1d9}.zc-muted{fill:#8b949e}.zc-axis{stroke:#6e7681}\
.zc-grid{stroke:#30363d}.zc-zero{stroke:#6e7681}.zc-cell{stroke:#30363d}.zc-empty{fill:#0d1117}}";

/// SVG text under construction.
#[derive(Default)]
pub struct Svg {
    text: String,
}

impl Svg {
    /// An empty body.
    pub fn new() -> Svg {
        Svg::default()
    }

    /// Appends raw markup: the caller has escaped what needs it.
    pub fn raw(&mut self, markup: &str) {
        self.text.push_str(markup);
    }

    /// A line from `(x1, y1)` to `(x2, y2)` of class `class`.
    pub fn line(&mut self, class: &str, x1: f64, y1: f64, x2: f64, y2: f64) {
        let _ = write!(
            self.text,
            r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }

    /// Text at `(x, y)`; `anchor` is `start`, `middle` or `end`; `extra` is more attributes
    /// (already escaped).
    pub fn text(&mut self, class: &str, x: f64, y: f64, anchor: &str, extra: &str, text: &str) {
        let _ = write!(
            self.text,
            r#"<text class="{class}" x="{}" y="{}" text-anchor="{anchor}"{extra}>{}</text>"#,
            num(x),
            num(y),
            escape(text)
        );
    }

    /// A `<title>` (the tooltip of the element it is in).
    pub fn title(&mut self, text: &str) {
        let _ = write!(self.text, "<title>{}</title>", escape(text));
    }

    /// The body written so far.
    pub fn into_body(self) -> String {
        self.text
    }
}

/// A whole document of `width` x `height` pixels around `body`, with a background and the
/// style; `label` is its accessible name.
pub fn document(width: f64, height: f64, label: &str, body: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="zc" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}"><style>{STYLE}</style><rect class="zc-bg" width="{w}" height="{h}"/>{body}</svg>
"#,
        w = num(width),
        h = num(height),
        label = escape(label),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_numbers_are_written_safely() {
        assert_eq!(escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
        assert_eq!(escape("x\u{1}y"), "x y");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.0), "12");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-3.5), "-3.5");
    }
}
