use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The tree search driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Algorithm {
    /// Principal variation search with aspiration windows (the default).
    #[default]
    Pvs,
    /// MTD(f): a sequence of null-window alpha-beta searches converging on the value.
    Mtdf,
    /// Fail-soft alpha-beta with the table and move ordering, full windows.
    AlphaBeta,
    /// Plain minimax (negamax form) without pruning, table or ordering: the reference.
    Minimax,
}

impl Algorithm {
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Pvs,
        Algorithm::Mtdf,
        Algorithm::AlphaBeta,
        Algorithm::Minimax,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Pvs => "pvs",
            Algorithm::Mtdf => "mtdf",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Minimax => "minimax",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                format!(
                    "unknown search algorithm `{text}` (expected pvs, mtdf, alphabeta or minimax)"
                )
            })
    }
}

/// When a search must stop. With none set, it runs until the position is solved.
///
/// A search limited by depth or nodes only is deterministic: the same move and node count on
/// every run (from a fresh table).
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<usize>,
    /// Stop after about this many nodes (checked at every node).
    pub nodes: Option<u64>,
    /// Wall-clock budget for this move. The search stops a little inside it (5%, at least
    /// 2 ms, at most 20 ms, kept for unwinding, and the longest that searches of this process
    /// have lately lost the processor: [`crate::StopLatency`]), polls the clock every 32 nodes, and
    /// starts no iteration once half its time is spent, since it would not finish. However
    /// little time it has, it returns a legal move.
    pub time: Option<Duration>,
    /// Raised by another thread to stop the search at once.
    pub stop: Option<Arc<AtomicBool>>,
}

impl SearchLimits {
    pub fn depth(depth: usize) -> Self {
        SearchLimits {
            depth: Some(depth),
            ..Self::default()
        }
    }

    pub fn nodes(nodes: u64) -> Self {
        SearchLimits {
            nodes: Some(nodes),
            ..Self::default()
        }
    }

    pub fn time(time: Duration) -> Self {
        SearchLimits {
            time: Some(time),
            ..Self::default()
        }
    }
}
