//! What an engine says about its move, read from the comment it gives with it and told in
//! words: one reading and one wording for every place that shows it (the terminal of
//! `zerosum play`, the web page), so that they agree.
//!
//! An engine's comment is one of three lines, scores written by [`Score::compact`]:
//!
//! - a search line: `depth 9 score +34 nodes 1200 nps 40000 time 0.030 pv b2 a1`, maybe with
//!   `visits V winrate W` (Monte Carlo) and a note in parentheses at the end
//!   (`(draw; e5 sets traps in 40% of the replies)`: the search proved a draw);
//! - the solver's proof: `exact 4 win-in-37 proved 7/7 time 0.012`;
//! - a proof kept from an earlier move: `proven win-in-5 pv f2 (kept from an earlier search)`.
//!
//! The score is the mover's, in the position before its move (the move itself is its first
//! ply).

use crate::Score;

/// The words of a search line that name a value.
const KEYS: [&str; 8] = [
    "depth", "score", "nodes", "nps", "time", "visits", "winrate", "pv",
];

/// An engine's comment on its move, read.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineLine {
    /// The mover's score before its move.
    pub score: Score,
    /// Whether the score is the game's value, proved (`exact`, `proven`, or a search that
    /// proved a draw), rather than an estimate.
    pub solved: bool,
    /// The search's depth, nodes, speed (nodes a second) and time, when it gave them.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub seconds: Option<f64>,
    /// The principal variation, starting with the move played.
    pub pv: Vec<String>,
    /// What the engine added in parentheses, if anything.
    pub note: Option<String>,
}

impl EngineLine {
    /// Reads an engine's comment; `None` when it carries no score.
    pub fn parse(comment: &str) -> Option<EngineLine> {
        let (line, note) = match comment.split_once('(') {
            Some((line, note)) => (line, Some(note.trim_end_matches(')').trim().to_string())),
            None => (comment, None),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let value_of = |key: &str| -> Option<&[&str]> {
            let start = words.iter().position(|word| *word == key)? + 1;
            let end = words[start..]
                .iter()
                .position(|word| KEYS.contains(word))
                .map_or(words.len(), |offset| start + offset);
            Some(&words[start..end])
        };
        let first = |key: &str| value_of(key).and_then(|value| value.first().copied());
        let (score, proved) = match *words.first()? {
            "exact" => (*words.get(2)?, true),
            "proven" => (*words.get(1)?, true),
            _ => (first("score")?, false),
        };
        let score = parse_score(score)?;
        let draw_found = note.as_deref().is_some_and(|note| note.starts_with("draw"));
        Some(EngineLine {
            score,
            solved: proved || (draw_found && score == Score::DRAW),
            depth: first("depth").and_then(|depth| depth.parse().ok()),
            nodes: first("nodes").and_then(|nodes| nodes.parse().ok()),
            nps: first("nps").and_then(|nps| nps.parse().ok()),
            seconds: first("time").and_then(|time| time.trim_end_matches('s').parse().ok()),
            pv: value_of("pv")
                .unwrap_or_default()
                .iter()
                .map(|mv| mv.to_string())
                .collect(),
            note,
        })
    }

    /// What the mover thinks of the position, said of it as `it`, the other side being
    /// called `other` (`you`, `the engine`, `Black`): `it wins with this move`, `it wins with
    /// its next move`, `it wins in 7 moves`, `you win with your next move`, `Black wins in 3
    /// moves`, `it is ahead (+0.34)`, `it is behind (-0.05)`, `it is a draw` (proved), `it
    /// is even` (an estimate). Moves are each side's own: a win in 7 moves is 13 plies away.
    pub fn opinion(&self, other: &str) -> String {
        let score = self.score;
        match score.distance() {
            // Counted from the position before the move: the mover's own move is the first ply.
            Some(plies) if score.0 > 0 => match (plies.saturating_sub(1)) / 2 {
                0 => "it wins with this move".to_string(),
                1 => "it wins with its next move".to_string(),
                moves => format!("it wins in {moves} moves"),
            },
            Some(plies) => {
                let (win, their) = if other == "you" {
                    ("win", "your")
                } else {
                    ("wins", "its")
                };
                match plies / 2 {
                    0 | 1 => format!("{other} {win} with {their} next move"),
                    moves => format!("{other} {win} in {moves} moves"),
                }
            }
            None if score.0 > 0 => format!("it is ahead ({:+.2})", f64::from(score.0) / 100.0),
            None if score.0 < 0 => format!("it is behind ({:+.2})", f64::from(score.0) / 100.0),
            None if self.solved => "it is a draw".to_string(),
            None => "it is even".to_string(),
        }
    }

    /// The search's measures, those it gave: `depth 9, 1,200 nodes, 40 k nodes/s, 0.03 s`.
    pub fn measures(&self) -> String {
        let mut parts = Vec::new();
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("{} nodes", thousands(nodes)));
        }
        if let Some(nps) = self.nps.filter(|&nps| nps > 0) {
            parts.push(format!("{} nodes/s", speed(nps)));
        }
        if let Some(seconds) = self.seconds {
            parts.push(format!("{seconds:.2} s"));
        }
        parts.join(", ")
    }
}

/// A score as [`Score::compact`] writes it: `+34`, `-5`, `win-in-5`, `loss-in-4`.
fn parse_score(text: &str) -> Option<Score> {
    if let Some(plies) = text.strip_prefix("win-in-") {
        return Some(Score::win_in(plies.parse().ok()?));
    }
    if let Some(plies) = text.strip_prefix("loss-in-") {
        return Some(Score::loss_in(plies.parse().ok()?));
    }
    let value: i32 = text.parse().ok()?;
    (!Score(value).is_decisive()).then_some(Score(value))
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A speed in nodes a second: `950`, `40 k`, `1.2 M`.
fn speed(nps: u64) -> String {
    match nps {
        0..1_000 => nps.to_string(),
        1_000..1_000_000 => format!("{:.0} k", nps as f64 / 1e3),
        _ => format!("{:.1} M", nps as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_lines_are_read() {
        let search =
            EngineLine::parse("depth 9 score win-in-3 nodes 1200 nps 40000 time 0.030 pv b2 a1 c3")
                .unwrap();
        assert_eq!(search.score, Score::win_in(3));
        assert!(!search.solved);
        assert_eq!(search.depth, Some(9));
        assert_eq!(search.nodes, Some(1200));
        assert_eq!(search.pv, ["b2", "a1", "c3"]);
        assert_eq!(
            search.measures(),
            "depth 9, 1,200 nodes, 40 k nodes/s, 0.03 s"
        );
        let exact = EngineLine::parse("exact 4 loss-in-40 proved 7/7 time 0.000").unwrap();
        assert_eq!(exact.score, Score::loss_in(40));
        assert!(exact.solved);
        assert_eq!(exact.measures(), "0.00 s");
        let proven = EngineLine::parse("proven +0 pv 3 (kept from an earlier search)").unwrap();
        assert!(proven.solved);
        assert_eq!(proven.pv, ["3"]);
        assert_eq!(proven.note.as_deref(), Some("kept from an earlier search"));
        let mcts = EngineLine::parse(
            "depth 4 score -12 nodes 900 nps 1500000 time 0.6 visits 300 winrate 0.470 pv d4 e5",
        )
        .unwrap();
        assert_eq!(mcts.pv, ["d4", "e5"]);
        assert_eq!(mcts.measures(), "depth 4, 900 nodes, 1.5 M nodes/s, 0.60 s");
        assert_eq!(EngineLine::parse("book move"), None);
        assert_eq!(EngineLine::parse("depth 3 score lots nodes 5"), None);
        assert_eq!(EngineLine::parse("depth 3 score 40000 nodes 5"), None);
    }

    #[test]
    fn the_opinion_counts_each_sides_moves() {
        let opinion =
            |comment: &str, other: &str| EngineLine::parse(comment).unwrap().opinion(other);
        assert_eq!(
            opinion("proven win-in-1 pv f2", "you"),
            "it wins with this move"
        );
        assert_eq!(
            opinion("proven win-in-3 pv f2", "you"),
            "it wins with its next move"
        );
        assert_eq!(
            opinion("exact 4 win-in-15 proved 7/7 time 0.0", "you"),
            "it wins in 7 moves"
        );
        assert_eq!(
            opinion("exact 4 loss-in-2 proved 7/7 time 0.0", "you"),
            "you win with your next move"
        );
        assert_eq!(
            opinion("exact 4 loss-in-40 proved 7/7 time 0.0", "Red"),
            "Red wins in 20 moves"
        );
        assert_eq!(
            opinion("depth 7 score +34 nodes 1", "you"),
            "it is ahead (+0.34)"
        );
        assert_eq!(
            opinion("depth 7 score -5 nodes 1", "you"),
            "it is behind (-0.05)"
        );
        assert_eq!(opinion("depth 7 score +0 nodes 1", "you"), "it is even");
        assert_eq!(
            opinion("exact 4 +0 proved 7/7 time 0.0", "you"),
            "it is a draw"
        );
        assert_eq!(
            opinion(
                "depth 9 score +0 nodes 5 nps 1 time 0.010 pv e5 (draw; e5 sets traps in 40% of the replies)",
                "you"
            ),
            "it is a draw"
        );
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(speed(950), "950");
        assert_eq!(speed(40_000), "40 k");
        assert_eq!(speed(1_250_000), "1.2 M");
    }
}
