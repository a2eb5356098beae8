//! `--svg FILE` of `zerosum search` and `zerosum bench`: the nodes and the time each
//! iteration of iterative deepening reached, per depth, on log scales, one line per search.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use zerosum_charts::{Figure, LineChart, ScaleKind, Series};

/// What one iteration of a search reported.
#[derive(Clone, Copy, Debug)]
pub struct Iteration {
    pub depth: usize,
    /// Nodes searched from the start of the search to the end of this iteration.
    pub nodes: u64,
    /// Time from the start of the search to the end of this iteration.
    pub time: Duration,
}

/// A named search and its iterations.
pub type Run = (String, Vec<Iteration>);

fn chart(title: &str, y_label: &str, runs: &[Run], value: fn(&Iteration) -> f64) -> LineChart {
    let series = runs
        .iter()
        .map(|(name, iterations)| {
            let points: Vec<(f64, f64)> = iterations
                .iter()
                .map(|i| (i.depth as f64, value(i)))
                .collect();
            let marks = (0..points.len())
                .map(|index| {
                    let (depth, y) = points[index];
                    (index, format!("{name}: depth {depth}, {y_label} {y}"))
                })
                .collect();
            Series {
                name: name.clone(),
                points,
                band: Vec::new(),
                marks,
            }
        })
        .collect();
    let mut chart = LineChart::new(title, "depth (iteration)", y_label, series);
    chart.y_scale = ScaleKind::Log;
    chart.whole_x = true;
    chart.height = 360.0;
    chart.empty_note = "no iteration finished".into();
    chart
}

/// Writes the chart of `runs` to `path`: nodes per depth above, time per depth below.
pub fn write(path: &Path, title: &str, runs: &[Run]) -> Result<()> {
    let nodes = chart(
        &format!("{title}: nodes per depth (log scale)"),
        "nodes searched",
        runs,
        |i| i.nodes as f64,
    );
    let time = chart(
        &format!("{title}: time per depth (log scale)"),
        "time (ms)",
        runs,
        |i| (i.time.as_secs_f64() * 1e6).round() / 1e3,
    );
    let svg = Figure {
        charts: vec![&nodes, &time],
    }
    .to_svg();
    std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))
}
