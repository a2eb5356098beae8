//! What the charts share: the [`Chart`] trait, the series colours, the title, the axes with
//! their ticks and labels, the legend, and [`Figure`], charts stacked into one document.

use crate::scale::Scale;
use crate::svg::{document, escape, num, Svg};

/// Series colours (Tableau 10): distinct on a light and on a dark background.
pub const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// The colour of series `index`.
pub fn colour(index: usize) -> &'static str {
    PALETTE[index % PALETTE.len()]
}

/// The stroke pattern of series `index`: solid for the first ten, then dashed, then dotted,
/// so that series sharing a colour differ (as an attribute, empty for solid).
pub fn dash(index: usize) -> &'static str {
    match (index / PALETTE.len()) % 3 {
        0 => "",
        1 => r#" stroke-dasharray="7 4""#,
        _ => r#" stroke-dasharray="2 3""#,
    }
}

/// Width in pixels of `text` at `size` px, roughly (a proportional sans-serif font).
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.58
}

/// Something drawn in a rectangle of its own size.
pub trait Chart {
    /// Width and height in pixels.
    fn size(&self) -> (f64, f64);
    /// The chart's title (also the document's accessible name).
    fn title(&self) -> &str;
    /// Draws the chart with its top left corner at the origin.
    fn draw(&self, svg: &mut Svg);

    /// The chart alone as an SVG document.
    fn to_svg(&self) -> String {
        let (width, height) = self.size();
        let mut svg = Svg::new();
        self.draw(&mut svg);
        document(width, height, self.title(), &svg.into_body())
    }
}

/// Charts stacked top to bottom in one document.
pub struct Figure<'a> {
    pub charts: Vec<&'a dyn Chart>,
}

impl Figure<'_> {
    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let width = self
            .charts
            .iter()
            .map(|chart| chart.size().0)
            .fold(0.0, f64::max);
        let mut svg = Svg::new();
        let mut top = 0.0;
        for chart in &self.charts {
            svg.raw(&format!(r#"<g transform="translate(0,{})">"#, num(top)));
            chart.draw(&mut svg);
            svg.raw("</g>");
            top += chart.size().1;
        }
        let label: Vec<&str> = self.charts.iter().map(|chart| chart.title()).collect();
        document(width, top, &label.join("; "), &svg.into_body())
    }
}

/// The title, centred above a chart `width` wide.
pub fn title(svg: &mut Svg, width: f64, text: &str) {
    svg.text("zc-title", width / 2.0, 24.0, "middle", "", text);
}

/// A message in an empty plot (no value to draw), a third of the way down (clear of a
/// reference line in the middle).
pub fn empty_note(svg: &mut Svg, x: &Scale, y: &Scale, text: &str) {
    svg.text(
        "zc-muted",
        (x.from + x.to) / 2.0,
        y.to + (y.from - y.to) / 3.0,
        "middle",
        "",
        text,
    );
}

/// The horizontal axis at the bottom of the plot (y scale's `from`), with grid lines, tick
/// labels and `label` centred below.
pub fn x_axis(svg: &mut Svg, x: &Scale, y: &Scale, label: &str) {
    let bottom = y.from;
    for &tick in &x.ticks {
        let px = x.pixel(tick);
        svg.line("zc-grid", px, y.to, px, bottom);
        svg.line("zc-axis", px, bottom, px, bottom + 5.0);
        svg.text("zc-text", px, bottom + 18.0, "middle", "", &x.label(tick));
    }
    svg.line("zc-axis", x.from, bottom, x.to, bottom);
    svg.text(
        "zc-text",
        (x.from + x.to) / 2.0,
        bottom + 40.0,
        "middle",
        "",
        label,
    );
}

/// The vertical axis at the left of the plot (x scale's `from`), with grid lines, tick labels
/// and `label` written upwards.
pub fn y_axis(svg: &mut Svg, x: &Scale, y: &Scale, label: &str) {
    let left = x.from;
    let mut widest: f64 = 0.0;
    for &tick in &y.ticks {
        let py = y.pixel(tick);
        let text = y.label(tick);
        widest = widest.max(text_width(&text, 12.0));
        svg.line("zc-grid", left, py, x.to, py);
        svg.line("zc-axis", left - 5.0, py, left, py);
        svg.text("zc-text", left - 8.0, py + 4.0, "end", "", &text);
    }
    svg.line("zc-axis", left, y.from, left, y.to);
    let lx = left - widest - 18.0;
    let ly = (y.from + y.to) / 2.0;
    svg.text(
        "zc-text",
        lx,
        ly,
        "middle",
        &format!(r#" transform="rotate(-90 {} {})""#, num(lx), num(ly)),
        label,
    );
}

/// The legend: a coloured mark and the name of each series, one a line, from `(x, y)`.
pub fn legend(svg: &mut Svg, x: f64, y: f64, names: &[String]) {
    for (index, name) in names.iter().enumerate() {
        let top = y + index as f64 * 20.0;
        svg.raw(&format!(
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{}" stroke-width="3"{}/>"#,
            num(x),
            num(x + 16.0),
            colour(index),
            dash(index),
            y = num(top + 7.0),
        ));
        svg.text("zc-text", x + 20.0, top + 11.0, "start", "", name);
    }
}

/// The width the legend of `names` takes.
pub fn legend_width(names: &[String]) -> f64 {
    names
        .iter()
        .map(|name| text_width(name, 12.0))
        .fold(0.0, f64::max)
        + 36.0
}

/// A polyline through `points` (already pixels) in `colour`; `dash` as [`dash`] gives it.
pub fn polyline(svg: &mut Svg, points: &[(f64, f64)], colour: &str, dash: &str, width: f64) {
    let list: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect();
    svg.raw(&format!(
        r#"<polyline fill="none" stroke="{colour}" stroke-width="{}"{dash} stroke-linejoin="round" points="{}"/>"#,
        num(width),
        list.join(" ")
    ));
}

/// A small filled circle at pixel `(x, y)` with a tooltip.
pub fn dot(svg: &mut Svg, x: f64, y: f64, colour: &str, tooltip: &str) {
    svg.raw(&format!(
        r#"<circle cx="{}" cy="{}" r="3.5" fill="{colour}"><title>{}</title></circle>"#,
        num(x),
        num(y),
        escape(tooltip)
    ));
}
