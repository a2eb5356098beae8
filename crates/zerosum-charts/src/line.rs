//! Line charts: series of `(x, y)` points on linear or log scales, each optionally with a
//! shaded band (an interval around every point) and marked points with tooltips.

use crate::frame::{self, colour, dash, legend_width, text_width, Chart};
use crate::scale::{Scale, ScaleKind};
use crate::svg::{num, Svg};

/// One line of a chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// The name in the legend.
    pub name: String,
    /// The points, in drawing order. A point the scales cannot show (infinite, or not positive
    /// on a log scale) breaks the line.
    pub points: Vec<(f64, f64)>,
    /// `(x, low, high)`: a band shaded around the line; empty for none. Infinite ends break it.
    pub band: Vec<(f64, f64, f64)>,
    /// Points drawn as dots: an index into `points` and the dot's tooltip.
    pub marks: Vec<(usize, String)>,
}

/// A line chart.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_scale: ScaleKind,
    pub y_scale: ScaleKind,
    pub series: Vec<Series>,
    /// A dashed horizontal line at this value (0 Elo, say).
    pub reference_y: Option<f64>,
    /// Labelled dashed horizontal lines, `(value, label)` (where a win is drawn, say); the
    /// scale always shows them.
    pub guides: Vec<(f64, String)>,
    /// Whether x counts whole things (moves, games): ticks at whole numbers only.
    pub whole_x: bool,
    /// What the plot says when no point can be drawn.
    pub empty_note: String,
    pub width: f64,
    pub height: f64,
}

impl LineChart {
    /// A chart `title` of `series`, 760 x 400 pixels, both scales linear, no reference line.
    pub fn new(title: &str, x_label: &str, y_label: &str, series: Vec<Series>) -> LineChart {
        LineChart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            x_scale: ScaleKind::Linear,
            y_scale: ScaleKind::Linear,
            series,
            reference_y: None,
            guides: Vec::new(),
            whole_x: false,
            empty_note: "nothing to draw".into(),
            width: 760.0,
            height: 400.0,
        }
    }

    fn names(&self) -> Vec<String> {
        self.series.iter().map(|s| s.name.clone()).collect()
    }

    /// The scales of the plot area.
    fn scales(&self) -> (Scale, Scale) {
        let top = 44.0;
        let bottom = self.height - 58.0;
        let right = self.width - legend_width(&self.names()) - 12.0;
        let points = || self.series.iter().flat_map(|s| s.points.iter());
        let bands = || self.series.iter().flat_map(|s| s.band.iter());
        let line_y: Vec<f64> = points()
            .map(|p| p.1)
            .chain(self.reference_y)
            .chain(self.guides.iter().map(|g| g.0))
            .collect();
        let band_y = bands().flat_map(|&(_, low, high)| [low, high]);
        let y = Scale::fit(
            self.y_scale,
            line_y.iter().copied().chain(band_y),
            bottom,
            top,
        );
        // Bands much wider than the lines (the error bars of the first games) would squash
        // the lines: the scale shows a quarter of the lines' span beyond them, and the bands
        // are cut at its edges.
        let lines = Scale::fit(self.y_scale, line_y.iter().copied(), bottom, top);
        let span = lines.high - lines.low;
        let y = y.clamp_domain(lines.low - 0.25 * span, lines.high + 0.25 * span);
        let widest = y
            .ticks
            .iter()
            .map(|&t| text_width(&y.label(t), 12.0))
            .fold(0.0, f64::max);
        let left = widest + 44.0;
        let xs = points()
            .map(|p| p.0)
            .chain(bands().map(|b| b.0))
            .collect::<Vec<f64>>();
        let x = Scale::fit_tight(self.x_scale, xs, left, right);
        let x = if self.whole_x { x.whole() } else { x };
        (x, y)
    }
}

/// The runs of consecutive items for which `keep` holds.
fn runs<T: Copy>(items: &[T], keep: impl Fn(&T) -> bool) -> Vec<Vec<T>> {
    let mut runs = vec![Vec::new()];
    for item in items {
        if keep(item) {
            runs.last_mut().expect("one run at least").push(*item);
        } else if !runs.last().expect("one run at least").is_empty() {
            runs.push(Vec::new());
        }
    }
    runs.retain(|run| !run.is_empty());
    runs
}

impl Chart for LineChart {
    fn size(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    fn title(&self) -> &str {
        &self.title
    }

    fn draw(&self, svg: &mut Svg) {
        let (x, y) = self.scales();
        frame::title(svg, self.width, &self.title);
        frame::y_axis(svg, &x, &y, &self.y_label);
        frame::x_axis(svg, &x, &y, &self.x_label);
        if let Some(reference) = self.reference_y.filter(|&r| y.shows(r)) {
            let py = y.pixel(reference);
            svg.line("zc-zero", x.from, py, x.to, py);
        }
        for (value, label) in self.guides.iter().filter(|g| y.shows(g.0)) {
            let py = y.pixel(*value);
            svg.line("zc-zero", x.from, py, x.to, py);
            // Inside the plot, on the side of the line away from the edge.
            let below = py - y.to < 16.0;
            let ty = if below { py + 14.0 } else { py - 5.0 };
            svg.text("zc-muted", x.from + 6.0, ty, "start", "", label);
        }
        let mut drawn = false;
        for (index, series) in self.series.iter().enumerate() {
            let colour = colour(index);
            let shown =
                |&(bx, low, high): &(f64, f64, f64)| x.shows(bx) && y.shows(low) && y.shows(high);
            // A run of one or two points would be a spike, not a band.
            for run in runs(&series.band, shown)
                .into_iter()
                .filter(|r| r.len() >= 3)
            {
                let upper = run.iter().map(|&(bx, _, high)| (bx, high));
                let lower = run.iter().rev().map(|&(bx, low, _)| (bx, low));
                let outline: Vec<String> = upper
                    .chain(lower)
                    .map(|(px, py)| format!("{},{}", num(x.pixel(px)), num(y.pixel(py))))
                    .collect();
                svg.raw(&format!(
                    r#"<polygon fill="{colour}" fill-opacity="0.13" stroke="none" points="{}"/>"#,
                    outline.join(" ")
                ));
            }
            let shown = |&(px, py): &(f64, f64)| x.shows(px) && y.shows(py);
            for run in runs(&series.points, shown) {
                let pixels: Vec<(f64, f64)> = run
                    .iter()
                    .map(|&(px, py)| (x.pixel(px), y.pixel(py)))
                    .collect();
                frame::polyline(svg, &pixels, colour, dash(index), 2.0);
                drawn = true;
            }
            for (point, tooltip) in &series.marks {
                if let Some(&(px, py)) = series.points.get(*point).filter(|p| shown(p)) {
                    frame::dot(svg, x.pixel(px), y.pixel(py), colour, tooltip);
                }
            }
        }
        if !drawn {
            frame::empty_note(svg, &x, &y, &self.empty_note);
        }
        frame::legend(svg, x.to + 16.0, y.to, &self.names());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_svg;

    #[test]
    fn lines_break_at_values_the_scale_cannot_show() {
        let points = [(1.0, 2.0), (2.0, f64::INFINITY), (3.0, 4.0), (4.0, 5.0)];
        let kept = runs(&points, |p| p.1.is_finite());
        assert_eq!(kept, vec![vec![(1.0, 2.0)], vec![(3.0, 4.0), (4.0, 5.0)]]);
    }

    #[test]
    fn a_chart_without_points_says_so() {
        let mut chart = LineChart::new("Empty", "x", "y", vec![Series::default()]);
        chart.empty_note = "no finite Elo yet".into();
        chart.y_scale = ScaleKind::Log;
        let svg = chart.to_svg();
        check_svg(&svg).unwrap();
        assert!(svg.contains("no finite Elo yet"));
    }

    #[test]
    fn counted_x_axes_tick_whole_numbers() {
        let series = Series {
            name: "for human".into(),
            points: vec![(2.0, 10.0), (4.0, -30.0)],
            ..Series::default()
        };
        let mut chart = LineChart::new("Score graph", "move", "evaluation", vec![series]);
        let (x, _) = chart.scales();
        assert!(x.ticks.iter().any(|t| t.fract() != 0.0), "{x:?}");
        chart.whole_x = true;
        let (x, _) = chart.scales();
        assert_eq!(x.ticks, vec![2.0, 3.0, 4.0]);
        let svg = chart.to_svg();
        check_svg(&svg).unwrap();
        assert!(!svg.contains(">2.5<"), "{svg}");
    }

    #[test]
    fn wide_bands_do_not_squash_the_lines() {
        let series = Series {
            name: "a".into(),
            points: vec![(1.0, 10.0), (2.0, 20.0)],
            band: vec![(1.0, -5000.0, 5000.0), (2.0, 0.0, 40.0)],
            marks: vec![(1, "a: 20".into())],
        };
        let chart = LineChart::new("Elo", "games", "Elo", vec![series]);
        let (_, y) = chart.scales();
        assert!(y.high < 100.0 && y.low > -100.0, "{y:?}");
        let svg = chart.to_svg();
        check_svg(&svg).unwrap();
        assert!(svg.contains("<title>a: 20</title>"));
    }
}
