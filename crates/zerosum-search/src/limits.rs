use std::fmt;
use std::num::NonZeroUsize;
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
    /// Monte Carlo tree search with a solver (UCT, MCTS-Solver, random playouts with the
    /// game's playout policy, or the evaluator at the leaves on boards over 100 cells). Its
    /// nodes are playouts; a depth limit alone means 1,000 playouts per unit of depth; its
    /// tree takes at most the table's memory.
    Mcts,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Pvs,
        Algorithm::Mtdf,
        Algorithm::AlphaBeta,
        Algorithm::Minimax,
        Algorithm::Mcts,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Pvs => "pvs",
            Algorithm::Mtdf => "mtdf",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Minimax => "minimax",
            Algorithm::Mcts => "mcts",
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
                    "unknown search algorithm `{text}` (expected pvs, mtdf, alphabeta, minimax or mcts)"
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
    /// have lately lost the processor: [`crate::StopLatency`]; see
    /// [`zerosum_core::TimeBudget::search_aim`]), polls the clock every 32 nodes, and starts
    /// no iteration once half its aim is spent, since it would not finish. However little
    /// time it has, it returns a legal move.
    pub time: Option<Duration>,
    /// Raised by another thread to stop the search at once.
    pub stop: Option<Arc<AtomicBool>>,
    /// Threads searching together (Lazy SMP); one, the default, is the calling thread alone.
    pub threads: Threads,
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

/// How many threads a search uses: at least one, at most [`Threads::max`] (a few per logical
/// core of this machine: more would only take turns on the same processors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Threads(NonZeroUsize);

/// Threads allowed per logical core.
const THREADS_PER_CORE: usize = 4;

impl Threads {
    /// The calling thread alone: the deterministic search.
    pub const ONE: Threads = Threads(NonZeroUsize::MIN);

    /// `count` threads, if between 1 and [`Threads::max`].
    pub fn new(count: usize) -> Result<Threads, ThreadsError> {
        let max = Self::max();
        NonZeroUsize::new(count)
            .filter(|n| n.get() <= max)
            .map(Threads)
            .ok_or(ThreadsError::OutOfRange { count, max })
    }

    /// The most threads a search may have here: four per logical core.
    pub fn max() -> usize {
        std::thread::available_parallelism().map_or(1, NonZeroUsize::get) * THREADS_PER_CORE
    }

    pub fn get(self) -> usize {
        self.0.get()
    }
}

impl Default for Threads {
    fn default() -> Self {
        Threads::ONE
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Threads {
    type Err = ThreadsError;
    fn from_str(text: &str) -> Result<Self, ThreadsError> {
        let count = text
            .trim()
            .parse()
            .map_err(|_| ThreadsError::NotANumber(text.to_string()))?;
        Threads::new(count)
    }
}

/// A thread count that is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreadsError {
    /// Not a whole number.
    NotANumber(String),
    /// Zero, or more than `max`.
    OutOfRange { count: usize, max: usize },
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThreadsError::NotANumber(text) => {
                write!(f, "threads must be a whole number, not `{text}`")
            }
            ThreadsError::OutOfRange { count, max } => write!(
                f,
                "threads must be between 1 and {max} ({THREADS_PER_CORE} per logical core of \
                 this machine), not {count}"
            ),
        }
    }
}

impl std::error::Error for ThreadsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_checked() {
        assert_eq!(Threads::default().get(), 1);
        assert_eq!("2".parse::<Threads>().map(Threads::get), Ok(2));
        let max = Threads::max();
        assert_eq!(Threads::new(max).map(Threads::get), Ok(max));
        for bad in ["0", &(max + 1).to_string(), "two", "-1", ""] {
            let error = bad.parse::<Threads>().unwrap_err().to_string();
            assert!(error.starts_with("threads must be"), "{bad}: {error}");
        }
        assert!(Threads::new(0).unwrap_err().to_string().ends_with("not 0"));
    }
}
