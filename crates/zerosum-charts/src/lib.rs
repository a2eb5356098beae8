//! SVG charts, written as text with no dependency and no knowledge of games: line charts on
//! linear or log scales ([`LineChart`]), estimates with error bars ([`IntervalChart`]) and
//! shaded tables ([`GridChart`]); [`Figure`] stacks charts into one document.
//!
//! Every chart has a title, labelled axes with round ticks and a legend, and one neutral
//! style that follows the viewer's light or dark preference (`prefers-color-scheme`); values
//! carry tooltips (`<title>`). [`check_svg`] checks that a document is well formed.
//!
//! ```
//! use zerosum_charts::{Chart, LineChart, Series};
//! let series = Series { name: "nodes".into(), points: vec![(1.0, 10.0), (2.0, 90.0)], ..Series::default() };
//! let svg = LineChart::new("Nodes per depth", "depth", "nodes", vec![series]).to_svg();
//! zerosum_charts::check_svg(&svg).unwrap();
//! ```
//!
//! Modules: `svg` (escaping, the document and its style), `scale` (values to pixels, ticks),
//! `frame` (what charts share: title, axes, legend, colours, [`Figure`]), `line`, `interval`
//! and `grid` (the charts), `check` (well-formedness).

mod check;
mod frame;
mod grid;
mod interval;
mod line;
mod scale;
mod svg;

pub use check::check_svg;
pub use frame::{Chart, Figure};
pub use grid::{GridCell, GridChart};
pub use interval::{IntervalChart, IntervalRow};
pub use line::{LineChart, Series};
pub use scale::{format_value, ScaleKind};
