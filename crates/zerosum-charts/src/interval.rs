//! Interval charts: one row per item, a dot at its value and a bar over its interval (an
//! estimate with its error bar), on a shared horizontal scale.

use crate::frame::{self, colour, text_width, Chart};
use crate::scale::{Scale, ScaleKind};
use crate::svg::{escape, num, Svg};

/// One row: an estimate and its interval. Infinite values and ends are drawn at the edge of
/// the plot with an arrow.
#[derive(Clone, Debug, PartialEq)]
pub struct IntervalRow {
    /// The name at the left.
    pub label: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// The text at the right (the value in words, say).
    pub note: String,
    /// The row's tooltip.
    pub tooltip: String,
}

/// Rows of estimates with error bars.
#[derive(Clone, Debug, PartialEq)]
pub struct IntervalChart {
    pub title: String,
    pub x_label: String,
    pub rows: Vec<IntervalRow>,
    /// A dashed vertical line at this value (0 Elo, say).
    pub reference: Option<f64>,
    pub width: f64,
}

const ROW: f64 = 30.0;
const TOP: f64 = 48.0;
const BOTTOM: f64 = 60.0;

impl IntervalChart {
    /// A chart `title` of `rows`, 760 pixels wide.
    pub fn new(title: &str, x_label: &str, rows: Vec<IntervalRow>) -> IntervalChart {
        IntervalChart {
            title: title.into(),
            x_label: x_label.into(),
            rows,
            reference: None,
            width: 760.0,
        }
    }

    fn scales(&self) -> (Scale, Scale) {
        let label_width = self
            .rows
            .iter()
            .map(|r| text_width(&r.label, 12.0))
            .fold(0.0, f64::max);
        let note_width = self
            .rows
            .iter()
            .map(|r| text_width(&r.note, 12.0))
            .fold(0.0, f64::max);
        let values = self
            .rows
            .iter()
            .flat_map(|r| [r.value, r.low, r.high])
            .chain(self.reference);
        let x = Scale::fit(
            ScaleKind::Linear,
            values,
            label_width + 24.0,
            self.width - note_width - 24.0,
        );
        let bottom = TOP + ROW * self.rows.len().max(1) as f64;
        // Rows are placed by index: the y scale only draws the frame.
        let y = Scale::fit(ScaleKind::Linear, [0.0, 1.0], bottom, TOP);
        (x, y)
    }
}

/// An arrow head at the edge `x` pointing left (`direction` -1) or right (+1).
fn arrow(svg: &mut Svg, x: f64, y: f64, direction: f64, colour: &str) {
    let back = x - direction * 8.0;
    svg.raw(&format!(
        r#"<path d="M{} {}L{} {}L{} {}Z" fill="{colour}"/>"#,
        num(x),
        num(y),
        num(back),
        num(y - 5.0),
        num(back),
        num(y + 5.0)
    ));
}

impl Chart for IntervalChart {
    fn size(&self) -> (f64, f64) {
        (
            self.width,
            TOP + ROW * self.rows.len().max(1) as f64 + BOTTOM,
        )
    }

    fn title(&self) -> &str {
        &self.title
    }

    fn draw(&self, svg: &mut Svg) {
        let (x, y) = self.scales();
        frame::title(svg, self.width, &self.title);
        frame::x_axis(svg, &x, &y, &self.x_label);
        if let Some(reference) = self.reference {
            let px = x.pixel(reference);
            svg.line("zc-zero", px, y.to, px, y.from);
        }
        if self.rows.is_empty() {
            frame::empty_note(svg, &x, &y, "no rows");
        }
        for (index, row) in self.rows.iter().enumerate() {
            let colour = colour(index);
            let cy = TOP + ROW * (index as f64 + 0.5);
            svg.raw(&format!("<g><title>{}</title>", escape(&row.tooltip)));
            svg.text("zc-text", x.from - 12.0, cy + 4.0, "end", "", &row.label);
            let (low, high) = (x.pixel(row.low), x.pixel(row.high));
            svg.raw(&format!(
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="3" stroke-linecap="round"/>"#,
                num(low),
                num(cy),
                num(high),
                num(cy)
            ));
            for (end, pixel) in [(row.low, low), (row.high, high)] {
                if end.is_finite() {
                    svg.raw(&format!(
                        r#"<line x1="{p}" y1="{}" x2="{p}" y2="{}" stroke="{colour}" stroke-width="2"/>"#,
                        num(cy - 6.0),
                        num(cy + 6.0),
                        p = num(pixel)
                    ));
                } else {
                    arrow(svg, pixel, cy, end.signum(), colour);
                }
            }
            if row.value.is_finite() {
                svg.raw(&format!(
                    r#"<circle cx="{}" cy="{}" r="5" fill="{colour}" data-value="{}"/>"#,
                    num(x.pixel(row.value)),
                    num(cy),
                    row.value
                ));
            } else {
                arrow(svg, x.pixel(row.value), cy, row.value.signum(), colour);
            }
            svg.text("zc-text", x.to + 12.0, cy + 4.0, "start", "", &row.note);
            svg.raw("</g>");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_svg;

    fn row(label: &str, value: f64, low: f64, high: f64) -> IntervalRow {
        IntervalRow {
            label: label.into(),
            value,
            low,
            high,
            note: format!("{value}"),
            tooltip: label.into(),
        }
    }

    #[test]
    fn infinite_estimates_are_drawn_at_the_edge() {
        let mut chart = IntervalChart::new(
            "Standings",
            "Elo",
            vec![
                row("a", f64::INFINITY, 100.0, f64::INFINITY),
                row("b", 20.0, -30.0, 70.0),
                row("c", f64::NEG_INFINITY, f64::NEG_INFINITY, -200.0),
            ],
        );
        chart.reference = Some(0.0);
        let svg = chart.to_svg();
        check_svg(&svg).unwrap();
        assert_eq!(svg.matches("data-value=").count(), 1);
        assert_eq!(
            svg.matches("<path").count(),
            4,
            "two arrows per infinite row"
        );
        let (x, _) = chart.scales();
        assert!(x.low <= -200.0 && x.high >= 100.0);
    }
}
