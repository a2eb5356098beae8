//! What a search reports and returns, whichever the algorithm: [`SearchInfo`] after each
//! iteration (or each doubling of a Monte Carlo search's playouts), [`SearchResult`] at the
//! end, and [`TreeStats`], what a Monte Carlo search adds to its reports.

use std::time::Duration;

use zerosum_core::Score;

/// One iteration, as reported to the caller (and as a GTP/UCI `info` line carries): each
/// completed one, and the last one stopped part-way when a root move searched to the end came
/// out best (the search answers its move). The last report's line starts with the move the
/// search answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    pub depth: usize,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Principal variation, from the root.
    pub pv: Vec<M>,
    /// True once the value is proven (the whole tree was searched, or a forced end found).
    pub solved: bool,
    /// What a Monte Carlo search adds (`None` for the alpha-beta family).
    pub tree: Option<TreeStats>,
}

/// The best move's statistics in a Monte Carlo search's tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStats {
    /// Playouts through the best move.
    pub visits: u64,
    /// Their mean reward for the side to move, in thousandths (a win 1, a draw ½).
    pub win_rate_permille: u32,
}

impl TreeStats {
    /// The statistics of a move with `visits` playouts of total reward `reward`.
    pub fn new(visits: u64, reward: f64) -> Self {
        let rate = if visits > 0 {
            reward / visits as f64
        } else {
            0.5
        };
        TreeStats {
            visits,
            win_rate_permille: (rate.clamp(0.0, 1.0) * 1000.0).round() as u32,
        }
    }

    /// The win rate, from 0 to 1.
    pub fn win_rate(self) -> f64 {
        f64::from(self.win_rate_permille) / 1000.0
    }
}

/// A score in one word, as search lines print it: `draw` for a proven (`solved`) draw, else
/// [`Score::compact`] (`+34`, an evaluation; `win-in-5`, `loss-in-4`, proven).
pub fn score_word(score: Score, solved: bool) -> String {
    if solved && score == Score::DRAW {
        "draw".to_string()
    } else {
        score.compact()
    }
}

impl<M: Copy> SearchInfo<M> {
    /// The info line `depth D score S nodes N nps X time T pv M...`, the score in one word
    /// ([`score_word`]: `draw` once a draw is proven) and the moves written by `format`. A Monte Carlo
    /// search's line adds `visits V winrate W` (the best move's) before the line, its depth
    /// is the line's length and its nodes are playouts.
    pub fn line(&self, format: impl Fn(M) -> String) -> String {
        let pv: Vec<String> = self.pv.iter().map(|&m| format(m)).collect();
        let tree = self.tree.map_or(String::new(), |stats| {
            format!(" visits {} winrate {:.3}", stats.visits, stats.win_rate())
        });
        format!(
            "depth {} score {} nodes {} nps {} time {:.3}{tree} pv {}",
            self.depth,
            score_word(self.score, self.solved),
            self.nodes,
            self.nps(),
            self.time.as_secs_f64(),
            pv.join(" ")
        )
    }
}

impl<M> SearchInfo<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let seconds = self.time.as_secs_f64();
        if seconds > 0.0 {
            (self.nodes as f64 / seconds) as u64
        } else {
            0
        }
    }
}

/// What a search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only if the game is over.
    pub best_move: Option<M>,
    /// Value of the last completed iteration (or of the partial one, if it found a better move).
    pub score: Score,
    /// The depth of the last iteration reported (the deepest completed one, or the partial
    /// one after it whose move the search answers): the last info line's depth.
    pub depth: usize,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Nodes of the calling thread alone (all of them with one thread): with every thread on
    /// a core of its own, the time to depth goes with these.
    pub main_nodes: u64,
    pub time: Duration,
    pub pv: Vec<M>,
    pub solved: bool,
}

impl<M> SearchResult<M> {
    /// The score in one word ([`score_word`]): `draw` once a draw is proven.
    pub fn score_word(&self) -> String {
        score_word(self.score, self.solved)
    }

    /// The result before any search: no move, a draw's score, nothing counted; `solved` when
    /// the game is already over.
    pub(crate) fn before_search(over: bool) -> Self {
        SearchResult {
            best_move: None,
            score: Score::DRAW,
            depth: 0,
            nodes: 0,
            main_nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            solved: over,
        }
    }
}
