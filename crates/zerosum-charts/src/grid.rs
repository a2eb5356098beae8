//! Grid charts: a table of cells, each shaded by a share in 0..=1 (red below one half, blue
//! above) and labelled with a short text: a crosstable of scores, say.

use crate::frame::{self, text_width, Chart};
use crate::svg::{escape, num, Svg};

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub struct GridCell {
    /// The share that colours the cell, in 0..=1 (one half is neutral).
    pub share: f64,
    /// The text in the cell.
    pub text: String,
    pub tooltip: String,
}

/// A table of shaded cells; rows are named at the left, columns by number at the top (column
/// `i` is row `i`'s item when the grid is square).
#[derive(Clone, Debug, PartialEq)]
pub struct GridChart {
    pub title: String,
    /// What the rows and columns are, written under the grid.
    pub caption: String,
    pub rows: Vec<String>,
    /// `cells[row][column]`; `None` for an empty cell.
    pub cells: Vec<Vec<Option<GridCell>>>,
}

const CELL_WIDTH: f64 = 64.0;
const CELL_HEIGHT: f64 = 30.0;
const TOP: f64 = 70.0;

impl GridChart {
    fn columns(&self) -> usize {
        self.cells.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The width of the names and the cells.
    fn grid_width(&self) -> f64 {
        self.label_width() + CELL_WIDTH * self.columns() as f64
    }

    fn label_width(&self) -> f64 {
        self.rows
            .iter()
            .enumerate()
            .map(|(i, name)| text_width(&format!("{}. {name}", i + 1), 12.0))
            .fold(0.0, f64::max)
            + 28.0
    }
}

/// The fill of a cell of `share`: blue above one half, red below, stronger further away.
fn fill(share: f64) -> (&'static str, f64) {
    let share = if share.is_finite() {
        share.clamp(0.0, 1.0)
    } else {
        0.5
    };
    let colour = if share >= 0.5 { "#4e79a7" } else { "#e15759" };
    (colour, 0.08 + (share - 0.5).abs() * 2.0 * 0.72)
}

impl Chart for GridChart {
    fn size(&self) -> (f64, f64) {
        let width = (self.grid_width() + 24.0)
            .max(text_width(&self.title, 15.0) + 40.0)
            .max(text_width(&self.caption, 12.0) + 40.0);
        (
            width.ceil(),
            TOP + CELL_HEIGHT * self.rows.len() as f64 + 48.0,
        )
    }

    fn title(&self) -> &str {
        &self.title
    }

    fn draw(&self, svg: &mut Svg) {
        let (width, height) = self.size();
        frame::title(svg, width, &self.title);
        // The grid is centred.
        let left = self.label_width() + (width - self.grid_width()) / 2.0;
        for column in 0..self.columns() {
            let cx = left + CELL_WIDTH * (column as f64 + 0.5);
            svg.text(
                "zc-text",
                cx,
                TOP - 10.0,
                "middle",
                "",
                &(column + 1).to_string(),
            );
        }
        for (r, name) in self.rows.iter().enumerate() {
            let top = TOP + CELL_HEIGHT * r as f64;
            svg.text(
                "zc-text",
                left - 12.0,
                top + CELL_HEIGHT / 2.0 + 4.0,
                "end",
                "",
                &format!("{}. {name}", r + 1),
            );
            for (c, cell) in self.cells[r].iter().enumerate() {
                let x = left + CELL_WIDTH * c as f64;
                let rect = format!(
                    r#"x="{}" y="{}" width="{}" height="{}""#,
                    num(x),
                    num(top),
                    num(CELL_WIDTH),
                    num(CELL_HEIGHT)
                );
                let Some(cell) = cell else {
                    svg.raw(&format!(r#"<rect class="zc-cell zc-empty" {rect}/>"#));
                    continue;
                };
                let (colour, opacity) = fill(cell.share);
                svg.raw(&format!(
                    r#"<g><title>{}</title><rect class="zc-cell" fill="{colour}" fill-opacity="{}" {rect}/>"#,
                    escape(&cell.tooltip),
                    num(opacity)
                ));
                svg.text(
                    "zc-text",
                    x + CELL_WIDTH / 2.0,
                    top + CELL_HEIGHT / 2.0 + 4.0,
                    "middle",
                    "",
                    &cell.text,
                );
                svg.raw("</g>");
            }
        }
        svg.text(
            "zc-muted",
            width / 2.0,
            height - 18.0,
            "middle",
            "",
            &self.caption,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_svg;

    #[test]
    fn cells_are_shaded_by_their_share() {
        assert_eq!(fill(0.5).0, "#4e79a7");
        assert!(fill(1.0).1 > fill(0.75).1);
        assert_eq!(fill(0.0).0, "#e15759");
        assert_eq!(fill(f64::NAN), fill(0.5));
        let cell = |share: f64| {
            Some(GridCell {
                share,
                text: format!("{share}"),
                tooltip: "a <b>".into(),
            })
        };
        let chart = GridChart {
            title: "Pairs".into(),
            caption: "rows score against columns".into(),
            rows: vec!["a".into(), "b".into()],
            cells: vec![vec![None, cell(0.75)], vec![cell(0.25), None]],
        };
        let svg = chart.to_svg();
        check_svg(&svg).unwrap();
        assert!(svg.contains("a &lt;b&gt;"));
    }
}
