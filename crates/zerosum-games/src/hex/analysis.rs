//! The analysis of a Hex position for Monte Carlo search ([`Evaluator::analyse`] of
//! [`super::HexEvaluator`]), as MoHex's knowledge at the nodes it visits often: what virtual
//! connections and inferior cells say of each move.
//!
//! On the position after its fill-in ([`fill_in`]: dead and captured cells filled, the same
//! value for either side to move, and after any move on a cell left empty):
//!
//! 1. a colour whose stones join its edges has won: every move wins (the mover) or loses;
//! 2. the opponent's full connection between its edges (H-search, [`super::vc`]): every move
//!    loses;
//! 3. the mover's full connection: every move wins (a stone of one's own never hurts in Hex);
//!    its semi connection: a move inside the smallest one's carrier (its key) wins, so the
//!    moves outside are inferior;
//! 4. else the opponent's semi connections make the mustplay: a move outside it loses (to
//!    that semi's key); inside it, the moves [`dominated_moves`] finds are inferior;
//! 5. a move on a filled cell is inferior (a dead cell is no move at all; a captured cell's
//!    stone is answered by its partner, which leaves the value as it was).
//!
//! When no move is left open, the position is lost and every move loses. The swap is never
//! analysed (the position before it has one stone, no connection to read).
//!
//! Each thread keeps its analyser for the last board size it analysed (the H-search's lists
//! grow once, then are reused).

use std::cell::RefCell;

use zerosum_core::{Game, MoveVerdict};

use super::cells::{other, words_for, CellSet, Geometry, Position};
use super::inferior::{dominated_moves, fill_in};
use super::vc::{EdgeLink, VcBuilder, VcLimits};
use super::{Hex, HexMove};
use crate::connection::StoneMove;

/// The limits of H-search at a node: about a third of the solver's (which builds at every
/// node of small boards), for speed. On 11x11, analysing the nodes of 64 playouts took 27% of
/// the processor time of 20,000 playouts from an opening position, those of 256 playouts 9%.
pub const ANALYSIS_LIMITS: VcLimits = VcLimits {
    fulls: 15,
    fulls_combined: 8,
    semis: 25,
};

/// The analyser for one board size and the words its cells need.
struct Analyser<const W: usize> {
    geometry: Geometry<W>,
    /// H-search of the side to move's colour, then of its opponent's.
    builders: [VcBuilder<W>; 2],
}

/// An analyser of whichever word count the board needs.
enum Sized {
    One(Box<Analyser<1>>),
    Two(Box<Analyser<2>>),
    Four(Box<Analyser<4>>),
    Six(Box<Analyser<6>>),
}

impl Sized {
    /// The analyser of `width x height` boards; `None` for boards beyond the bit sets.
    fn new(width: usize, height: usize) -> Option<Sized> {
        Some(match words_for(width * height)? {
            1 => Sized::One(Box::new(Analyser::new(width, height))),
            2 => Sized::Two(Box::new(Analyser::new(width, height))),
            4 => Sized::Four(Box::new(Analyser::new(width, height))),
            _ => Sized::Six(Box::new(Analyser::new(width, height))),
        })
    }

    fn size(&self) -> (usize, usize) {
        match self {
            Sized::One(a) => a.size(),
            Sized::Two(a) => a.size(),
            Sized::Four(a) => a.size(),
            Sized::Six(a) => a.size(),
        }
    }

    fn analyse(&mut self, game: &Hex, moves: &[HexMove], verdicts: &mut [MoveVerdict]) {
        match self {
            Sized::One(a) => a.analyse(game, moves, verdicts),
            Sized::Two(a) => a.analyse(game, moves, verdicts),
            Sized::Four(a) => a.analyse(game, moves, verdicts),
            Sized::Six(a) => a.analyse(game, moves, verdicts),
        }
    }
}

thread_local! {
    static ANALYSER: RefCell<Option<Sized>> = const { RefCell::new(None) };
}

/// Writes to `verdicts` the verdict of each move of `moves` (legal moves of `game`, ongoing)
/// for the side to move (see the module documentation): every move
/// [`MoveVerdict::Open`] when a move is the swap or the board is beyond the bit sets.
pub fn analyse(game: &Hex, moves: &[HexMove], verdicts: &mut Vec<MoveVerdict>) {
    verdicts.clear();
    verdicts.resize(moves.len(), MoveVerdict::Open);
    if moves.contains(&StoneMove::Swap) || game.status().is_over() {
        return;
    }
    let size = (game.width(), game.height());
    ANALYSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|a| a.size() != size) {
            *slot = Sized::new(size.0, size.1);
        }
        if let Some(analyser) = slot.as_mut() {
            analyser.analyse(game, moves, verdicts);
        }
    });
}

impl<const W: usize> Analyser<W> {
    fn new(width: usize, height: usize) -> Self {
        let geometry = Geometry::new(width, height);
        let builders = [
            VcBuilder::new(&geometry, ANALYSIS_LIMITS),
            VcBuilder::new(&geometry, ANALYSIS_LIMITS),
        ];
        Analyser { geometry, builders }
    }

    fn size(&self) -> (usize, usize) {
        (self.geometry.width(), self.geometry.height())
    }

    /// See [`analyse`]; `verdicts` holds one `Open` per move.
    fn analyse(&mut self, game: &Hex, moves: &[HexMove], verdicts: &mut [MoveVerdict]) {
        let mover = game.colour_of(game.to_move());
        let opponent = other(mover);
        let mut filled = Position::<W>::of(game);
        fill_in(&self.geometry, &mut filled);
        let all = |verdicts: &mut [MoveVerdict], verdict| verdicts.fill(verdict);
        if filled.has_won(&self.geometry, opponent) {
            return all(verdicts, MoveVerdict::Loses);
        }
        if filled.has_won(&self.geometry, mover) {
            return all(verdicts, MoveVerdict::Wins);
        }
        let [own, theirs] = &mut self.builders;
        theirs.build(&self.geometry, &filled, opponent, EdgeLink::Full);
        if matches!(theirs.edge_link(), EdgeLink::Full | EdgeLink::Joined) {
            return all(verdicts, MoveVerdict::Loses);
        }
        own.build(&self.geometry, &filled, mover, EdgeLink::Semi);
        // The cells a move may go to with a chance: everything empty after the fill-in.
        let empty = filled.empty(&self.geometry);
        let (open, losing) = match own.edge_link() {
            EdgeLink::Full | EdgeLink::Joined => return all(verdicts, MoveVerdict::Wins),
            EdgeLink::Semi => {
                let key_inside = own.edge_semis().first().copied().unwrap_or(empty);
                (key_inside.intersection(&empty), CellSet::EMPTY)
            }
            EdgeLink::None => {
                let mustplay = theirs.mustplay().unwrap_or(empty).intersection(&empty);
                let dominated = dominated_moves(&self.geometry, &filled, mover, &mustplay);
                (mustplay.minus(&dominated), empty.minus(&mustplay))
            }
        };
        let lost = open.is_empty();
        for (verdict, &mv) in verdicts.iter_mut().zip(moves) {
            let StoneMove::Place(cell) = mv else { continue };
            let cell = usize::from(cell);
            *verdict = if lost || losing.contains(cell) {
                MoveVerdict::Loses
            } else if open.contains(cell) {
                MoveVerdict::Open
            } else {
                // Filled, dominated, or outside the winning semi's carrier.
                MoveVerdict::Inferior
            };
        }
    }
}
