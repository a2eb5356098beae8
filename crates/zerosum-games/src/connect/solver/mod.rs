//! An exact Connect-X solver for packed boards (`cols * (rows + 1) <= 64` or `128` bits), any
//! run length, after Pascal Pons' Connect Four solver.
//!
//! # Scores
//!
//! Values are from the side to move: 0 for a draw; a win scores, for the winner, one more than
//! half the number of cells left empty after the winning stone, rounded down (sooner wins score
//! higher), and the loser gets the opposite. This is Pons' `(W*H + 1 - moves) / 2`, `moves`
//! counting the stones before the winning one; on boards of an even number of cells it is
//! also `(W*H + 1) / 2 + 1 - n` for a win with the winner's `n`-th stone, and on the 7x6 board
//! 22 minus the winner's stones. A weak solve gives only the sign (-1, 0, 1), and is much
//! faster.
//!
//! # Method
//!
//! Negamax with alpha-beta ([`search`](self)), run as a series of null-window probes that narrow
//! the interval of possible values: first halfway to each extreme (cheap, and enough when the
//! game ends early), then the sign, then one step at a time away from 0. At each node: the
//! opponent's immediate threats force or lose the game, moves just below an opponent's threat
//! are never played, and the number of stones bounds the value. Allis' claimeven (the
//! opponent answering every stone with one on top of it, and a stone that starts a column with
//! an odd number of empty cells by starting another) caps the value at a draw or a loss when
//! the side to move cannot make a run of the cells that leaves it, at the node before the table
//! is read and, as a cutoff without a search, at each child. A transposition table
//! ([`table`](self)) keeps an upper and a lower bound and the best move of each position
//! with at least 10 empty cells (closer to the end, searching is cheaper than a probe); a
//! position and its mirror image share one entry, and a symmetric position searches only half
//! its moves. The table's best move is searched first, before the other moves are generated;
//! while the others are generated, a move after which the opponent cannot stop a win with the
//! stone after next ends the search, and without one the value is at most a win with the stone
//! after that; then, far from the end, every child is looked up (enhanced transposition
//! cutoff; the children's entries start loading as the node is entered), and the children are searched by the useful threats they create (those not right
//! above an opponent's), those a single stone from playable counting extra, centre first among
//! equals.
//!
//! Contract: [`Solver::solve`] needs a game that is not over (else [`SolveError::GameOver`]);
//! the side to move may be able to win at once.

mod order;
mod position;
mod search;
mod table;

use std::fmt;

use zerosum_core::Game;

use super::{Bits, Column, ConnectX, Packed};
use position::{Geometry, Position};
use table::Table;

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The game is over: there is nothing to solve.
    GameOver,
    /// The game's board is not the one the solver was made for.
    WrongSize {
        /// The solver's rows, columns and run length.
        solver: (usize, usize, usize),
        /// The game's.
        game: (usize, usize, usize),
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::GameOver => write!(f, "the game is over"),
            SolveError::WrongSize { solver, game } => write!(
                f,
                "the solver is for {}x{}x{} boards, the game is {}x{}x{}",
                solver.0, solver.1, solver.2, game.0, game.1, game.2
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// An exact solver for one board size, owning its transposition table.
///
/// The table keeps what it learns across calls (every bound in it is a true bound of the game,
/// whatever the root), so solving many positions of one game in a row gets faster; call
/// [`Solver::reset`] for independent measurements.
#[derive(Clone, Debug)]
pub struct Solver<B: Bits> {
    geometry: Geometry<B>,
    table: Table<B>,
    /// Nodes searched by the last call.
    nodes: u64,
}

impl<B: Bits> Solver<B> {
    /// The default size of the transposition table, in MB.
    pub const DEFAULT_TABLE_MB: usize = 64;

    /// A solver for `rows` x `cols` boards with runs of `k`, with a transposition table of
    /// about `table_mb` MB (a power of two of 64-byte buckets at most that size).
    ///
    /// # Panics
    ///
    /// If the board does not fit a packed board of `B` (`cols * (rows + 1) <= B::BITS`) or a
    /// size is 0.
    pub fn new(rows: usize, cols: usize, k: usize, table_mb: usize) -> Self {
        Solver {
            geometry: Geometry::new(rows, cols, k),
            table: Table::new(table_mb),
            nodes: 0,
        }
    }

    /// Size of the transposition table in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Number of positions searched by the last solve (for [`Solver::analyze`], by all its
    /// solves). A position counts once per visit, table hits and forced losses included.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the transposition table, in O(1) (a new generation; the memory is really wiped
    /// once every 65535 resets).
    pub fn reset(&mut self) {
        self.table.clear();
    }

    /// The solver's position of `game`, after checking it is a board of this solver's size and
    /// that the game goes on.
    fn position(&self, game: &ConnectX<Packed<B>>) -> Result<Position<B>, SolveError> {
        let g = &self.geometry;
        let solver = (g.rows as usize, g.cols as usize, g.k as usize);
        let size = (game.rows(), game.cols(), game.k());
        if size != solver {
            return Err(SolveError::WrongSize { solver, game: size });
        }
        if game.status().is_over() {
            return Err(SolveError::GameOver);
        }
        let (current, mask) = game.board().bits();
        Ok(Position::new(g, current, mask, game.ply() as u32))
    }

    /// The value of `game` for the side to move (see the module documentation), or only its
    /// sign if `weak`. The side to move may be able to win at once.
    pub fn solve(&mut self, game: &ConnectX<Packed<B>>, weak: bool) -> Result<i32, SolveError> {
        let pos = self.position(game)?;
        Ok(self.solve_position(&pos, weak))
    }

    /// The exact value, for the side to move in `game`, of each column played (only its sign
    /// if `weak`): `None` if the column is full, the immediate win's score if it wins at once,
    /// 0 if it fills the board. The largest entry is [`Solver::solve`]'s value.
    pub fn analyze(
        &mut self,
        game: &ConnectX<Packed<B>>,
        weak: bool,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        let pos = self.position(game)?;
        let g = &self.geometry;
        let winning = g.winning_cells(pos.current, pos.mask);
        let possible = pos.playable(g);
        let mut total_nodes = 0;
        let mut values = Vec::with_capacity(g.cols as usize);
        for col in 0..g.cols as usize {
            let g = &self.geometry;
            let cell = possible & g.column(col);
            let value = if cell == B::ZERO {
                None
            } else if cell & winning != B::ZERO {
                let score = g.win_score(pos.moves + 1);
                Some(if weak { score.signum() } else { score })
            } else if pos.moves + 1 == g.cells {
                Some(0)
            } else {
                let child = pos.played(g, col);
                let value = -self.solve_position(&child, weak);
                total_nodes += self.nodes;
                Some(value)
            };
            values.push(value);
        }
        self.nodes = total_nodes;
        Ok(values)
    }

    /// The columns whose value is the best of [`Solver::analyze`], in increasing order: the
    /// moves that keep the exact value, or with `weak` the win, draw or loss.
    pub fn best_moves(
        &mut self,
        game: &ConnectX<Packed<B>>,
        weak: bool,
    ) -> Result<Vec<Column>, SolveError> {
        let values = self.analyze(game, weak)?;
        let best = values.iter().flatten().max().copied();
        Ok((0..values.len())
            .filter(|&col| values[col].is_some() && values[col] == best)
            .map(|col| col as Column)
            .collect())
    }
}
