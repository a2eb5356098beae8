//! The score graph under the game, as lichess draws one: the evaluation each engine gave when
//! it moved, turned to the first player's side and drawn against the move number with
//! [`zerosum_charts`]. A win found is drawn at the top, a loss at the bottom, above and below
//! every evaluation.

use std::collections::BTreeMap;

use zerosum_charts::{Chart, LineChart, Series};
use zerosum_core::{EngineLine, Side};

/// An engine's score, drawn.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Points(f64),
    /// A win (+1) or a loss (-1) found, for the side that searched.
    Decisive(f64),
}

impl Value {
    /// The value of what `line` says, for the side that searched.
    fn of(line: &EngineLine) -> Value {
        match line.score.distance() {
            Some(_) => Value::Decisive(f64::from(line.score.0.signum())),
            None => Value::Points(f64::from(line.score.0)),
        }
    }

    fn turned(self) -> Value {
        match self {
            Value::Points(v) => Value::Points(-v),
            Value::Decisive(v) => Value::Decisive(-v),
        }
    }
}

/// The evaluations of the game under way, by the number of moves played when they were given
/// (the engine's move included).
#[derive(Default)]
pub struct ScoreGraph {
    /// ply -> (the value for the first player, what the engine said, who said it).
    scores: BTreeMap<usize, (Value, EngineLine, Side)>,
}

impl ScoreGraph {
    /// Notes the score in `comment`, the comment the engine playing `side` gave for its
    /// move, the game's `ply`-th (see [`EngineLine`]). Comments without a score are left out.
    pub fn record(&mut self, ply: usize, side: Side, comment: &str) {
        let Some(line) = EngineLine::parse(comment) else {
            return;
        };
        let value = Value::of(&line);
        let for_first = match side {
            Side::First => value,
            Side::Second => value.turned(),
        };
        self.scores.insert(ply, (for_first, line, side));
    }

    /// Forgets the evaluations of moves after the `ply`-th (taken back).
    pub fn truncate(&mut self, ply: usize) {
        self.scores.retain(|&at, _| at <= ply);
    }

    /// The graph for a game whose first player is `first` and second `second`; `None` while
    /// no engine has evaluated a move.
    pub fn svg(&self, first: &str, second: &str) -> Option<String> {
        if self.scores.is_empty() {
            return None;
        }
        let largest = self
            .scores
            .values()
            .filter_map(|(value, ..)| match value {
                Value::Points(v) => Some(v.abs()),
                Value::Decisive(_) => None,
            })
            .fold(0.0, f64::max);
        // Wins and losses lie a little beyond every evaluation.
        let edge = (largest * 1.25).max(100.0);
        let mut points = Vec::new();
        let mut marks = Vec::new();
        for (&ply, (value, line, side)) in &self.scores {
            let y = match value {
                Value::Points(v) => *v,
                Value::Decisive(sign) => sign * edge,
            };
            let (mover, other) = match side {
                Side::First => (first, second),
                Side::Second => (second, first),
            };
            marks.push((
                points.len(),
                format!(
                    "move {ply}, {mover} ({side} player) thinks {}",
                    line.opinion(other)
                ),
            ));
            points.push((ply as f64, y));
        }
        let series = Series {
            name: format!("for {first}"),
            points,
            band: Vec::new(),
            marks,
        };
        let mut chart = LineChart::new(
            &format!("Engine evaluation for the first player, {first}"),
            "move",
            "evaluation (up: first player better)",
            vec![series],
        );
        chart.reference_y = Some(0.0);
        chart.whole_x = true;
        chart.guides = vec![
            (edge, "first player wins".into()),
            (-edge, "second player wins".into()),
        ];
        chart.width = 560.0;
        chart.height = 260.0;
        Some(chart.to_svg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_charts::check_svg;

    #[test]
    fn scores_are_turned_to_the_first_player_and_taken_back() {
        let mut graph = ScoreGraph::default();
        assert_eq!(graph.svg("human", "engine"), None);
        graph.record(2, Side::Second, "depth 5 score +40 nodes 100 pv a1");
        graph.record(4, Side::Second, "depth 9 score win-in-3 nodes 5");
        graph.record(5, Side::First, "nonsense");
        graph.record(6, Side::First, "exact 5 loss-in-32 proved 6/6 time 0.336");
        graph.record(
            7,
            Side::Second,
            "proven win-in-1 pv f2 (kept from an earlier search)",
        );
        assert_eq!(graph.scores[&2].0, Value::Points(-40.0));
        assert_eq!(graph.scores[&4].0, Value::Decisive(-1.0));
        assert_eq!(graph.scores[&6].0, Value::Decisive(-1.0));
        assert_eq!(graph.scores[&7].0, Value::Decisive(-1.0));
        assert_eq!(graph.scores.len(), 4);
        let svg = graph.svg("human", "engine").unwrap();
        check_svg(&svg).unwrap();
        assert!(svg.contains("Engine evaluation for the first player, human"));
        assert!(
            svg.contains("move 4, engine (second player) thinks it wins with its next move"),
            "{svg}"
        );
        graph.truncate(3);
        assert_eq!(graph.scores.len(), 1);
    }

    #[test]
    fn moves_are_counted_in_whole_numbers() {
        let mut graph = ScoreGraph::default();
        graph.record(2, Side::Second, "depth 5 score +40 nodes 100 pv a1");
        graph.record(3, Side::First, "depth 5 score -10 nodes 100 pv b1");
        let svg = graph.svg("human", "engine").unwrap();
        check_svg(&svg).unwrap();
        for fraction in [">2.5<", ">2.2<", ">2.25<", ">2.8<"] {
            assert!(!svg.contains(fraction), "a tick at {fraction}: {svg}");
        }
        assert!(svg.contains(">2<") && svg.contains(">3<"), "{svg}");
    }
}
