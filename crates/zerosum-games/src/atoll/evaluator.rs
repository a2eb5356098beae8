//! The Atoll evaluator: two-distance potentials ([`crate::connection::potential`]) between the
//! opposite islands of each colour, with a test for islands joined by stones and bridges.
//!
//! Island stones are stones like any other, so a chain through a third island of one's colour
//! costs nothing there, and a stone next to two empty cells of an island's rim is bridged to
//! it (for the "joined" test). Each colour's potential is the least over its pairs of opposite islands; a colour that
//! can join none of them (possible on 12-island boards, where the game may be drawn) has the
//! capped potential, so two cut-off colours balance to 0.

use std::sync::Arc;

use zerosum_core::{Evaluator, Game, Side};

use super::{Atoll, AtollBoard, AtollMove};
use crate::connection::potential::{
    balance, colour_index, ColourPotential, Network, PotentialParams, Potentials,
};
use crate::connection::{Stone, StoneMove};
use crate::{EvaluatedGame, GameSpec};

/// Move hint for the cell that saves a bridge the opponent just intruded.
const BRIDGE_SAVE_HINT: i32 = 1_000;

/// Move hint for the other cells next to the opponent's last stone.
const NEAR_LAST_MOVE_HINT: i32 = 10;

/// The evaluator of Atoll on one board.
///
/// - [`Evaluator::evaluate`]: [`balance`] of the side to move's potential against the
///   opponent's (`POTENTIAL_UNIT`, 100, per step of potential ahead, one per alternative
///   cell more, `JOINED_BONUS`, 10,000, for opposite islands joined by stones and bridges).
///   Antisymmetric: the two colours' views of a position are exact negatives.
/// - [`Evaluator::candidate_moves`]: every legal move, ordered by how close each cell is to
///   both colours' best chains, then by distance from the centre; the pie move first when the
///   first stone is central, else last.
/// - [`Evaluator::move_hint`]: answering an intrusion into a bridge first, then cells next to
///   the opponent's last stone.
/// - [`Evaluator::playout_move`]: the answer to an intrusion into a bridge.
///
/// Two linear passes per pair of opposite islands and colour, no allocation: 23 µs on the
/// standard board and 14 µs on hexhex4 in a release build on the project's 2-core build
/// machine (`measure_evaluation_speed` in the `play_atoll` tests).
#[derive(Clone, Debug)]
pub struct AtollEvaluator {
    board_name: String,
    /// Twice the hex distance from the centre within which a first stone is worth taking
    /// with the pie move.
    central: u16,
    params: PotentialParams,
    network: Arc<Network>,
}

impl AtollEvaluator {
    /// The evaluator for `board` with the default potentials.
    pub fn new(board: &AtollBoard) -> AtollEvaluator {
        AtollEvaluator::with_params(board, PotentialParams::DEFAULT)
    }

    /// The evaluator for `board` with the given potentials.
    pub fn with_params(board: &AtollBoard, params: PotentialParams) -> AtollEvaluator {
        let mut goals: [Vec<(u16, u16)>; 2] = [Vec::new(), Vec::new()];
        let islands = board.islands();
        for (index, island) in islands.iter().enumerate() {
            if let Some(opposite) = island.opposite.filter(|&other| other > index) {
                goals[colour_index(island.colour)]
                    .push((island.cells[0], islands[opposite].cells[0]));
            }
        }
        let network = Network::new(
            board.cell_count(),
            |cell| {
                let (c, r) = board.coordinates(cell);
                (c as isize, r as isize)
            },
            |c, r| {
                let (c, r) = (usize::try_from(c).ok()?, usize::try_from(r).ok()?);
                board.cell_at(c, r)
            },
            goals,
        );
        AtollEvaluator {
            board_name: board.name().to_string(),
            central: board.columns().min(board.rows()).saturating_sub(2) as u16,
            params,
            network: Arc::new(network),
        }
    }

    /// The potentials in use.
    pub fn params(&self) -> PotentialParams {
        self.params
    }

    /// The evaluation of `game` from the point of view of `colour` (Black or White), whoever
    /// is to move; [`Evaluator::evaluate`] is this for the side to move's colour.
    ///
    /// Panics if `game` is not on this evaluator's board.
    pub fn evaluate_colour(&self, game: &Atoll, colour: Stone) -> i32 {
        self.with_potentials(game, |potentials| {
            let other = match colour {
                Stone::White => Stone::Black,
                _ => Stone::White,
            };
            balance(potentials.colour(colour), potentials.colour(other))
        })
    }

    /// Black's and White's potentials on `game` (see [`crate::connection::potential`]).
    ///
    /// Panics if `game` is not on this evaluator's board.
    pub fn potentials(&self, game: &Atoll) -> [ColourPotential; 2] {
        self.with_potentials(game, |potentials| {
            [
                potentials.colour(Stone::Black),
                potentials.colour(Stone::White),
            ]
        })
    }

    fn with_potentials<R>(&self, game: &Atoll, then: impl FnOnce(&Potentials<'_>) -> R) -> R {
        assert!(
            game.board().name() == self.board_name,
            "an AtollEvaluator for board `{}` cannot evaluate board `{}`",
            self.board_name,
            game.board().name()
        );
        self.network.with_potentials(
            self.params,
            |stones| {
                for (slot, &stone) in stones.iter_mut().zip(game.stones()) {
                    *slot = stone as u8;
                }
            },
            then,
        )
    }

    /// Whether the pie move is worth searching first: the first stone is central.
    fn swap_first(&self, game: &Atoll) -> bool {
        match game.history().first() {
            Some(&StoneMove::Place(cell)) => {
                self.network.centre_distance(cell as usize) <= self.central
            }
            _ => false,
        }
    }
}

/// Monte Carlo search's prior width (see [`Evaluator::mcts_prior_width`]): the candidate of
/// rank `r` weighs `exp(-r / 6)`, as in Hex.
const MCTS_PRIOR_WIDTH: f64 = 6.0;

impl Evaluator<Atoll> for AtollEvaluator {
    fn evaluate(&self, game: &Atoll) -> i32 {
        self.evaluate_colour(game, game.colour_of(game.to_move()))
    }

    fn candidate_moves(&self, game: &Atoll, moves: &mut Vec<AtollMove>) {
        game.legal_moves(moves);
        if moves.len() <= 1 {
            return;
        }
        let swap_key = if self.swap_first(game) { 0 } else { u64::MAX };
        self.with_potentials(game, |potentials| {
            moves.sort_unstable_by_key(|&mv| match mv {
                StoneMove::Place(cell) => {
                    (u64::from(potentials.order_key(cell as usize)) << 16) | u64::from(cell)
                }
                StoneMove::Swap => swap_key,
            });
        });
    }

    fn mcts_prior_width(&self) -> Option<f64> {
        Some(MCTS_PRIOR_WIDTH)
    }

    fn move_hint(&self, game: &Atoll, mv: AtollMove) -> i32 {
        let (StoneMove::Place(to), Some(&StoneMove::Place(from))) = (mv, game.history().last())
        else {
            return 0;
        };
        if !self.network.neighbours(from as usize).contains(&to) {
            return 0;
        }
        let own = game.colour_of(game.to_move());
        let stones = game.stones();
        let is_own = |cell: usize| stones.get(cell) == Some(&own);
        if self
            .network
            .saves_bridge(from as usize, to as usize, is_own)
        {
            BRIDGE_SAVE_HINT
        } else {
            NEAR_LAST_MOVE_HINT
        }
    }

    /// The empty cell that saves the bridge the opponent's last stone intruded, if there is
    /// one.
    fn playout_move(&self, game: &Atoll) -> Option<AtollMove> {
        let Some(&StoneMove::Place(from)) = game.history().last() else {
            return None;
        };
        let own = game.colour_of(game.to_move());
        let stones = game.stones();
        let is_own = |cell: usize| stones.get(cell) == Some(&own);
        self.network
            .neighbours(from as usize)
            .iter()
            .find(|&&to| {
                stones.get(to as usize) == Some(&Stone::Empty)
                    && game.illegal_reason(StoneMove::Place(to)).is_none()
                    && self
                        .network
                        .saves_bridge(from as usize, to as usize, is_own)
            })
            .map(|&to| StoneMove::Place(to))
    }
}

impl EvaluatedGame for Atoll {
    type Evaluator = AtollEvaluator;

    fn spec(&self) -> GameSpec {
        super::spec(self.board.name(), self.pie).expect("a board's name is a valid spec")
    }

    fn evaluator(&self) -> AtollEvaluator {
        AtollEvaluator::new(self.board())
    }

    fn observation_grid(&self) -> (usize, usize) {
        (self.board().rows(), self.board().columns())
    }

    fn max_plies(&self) -> Option<usize> {
        Some(self.board().playable().len() + usize::from(self.pie_rule()))
    }

    /// Island stones count for the side that has their colour; water is 0.
    fn write_observation(&self, out: &mut [f32]) {
        let board = self.board();
        let colours = [Side::First, Side::Second].map(|side| self.colour_of(side));
        crate::observation::from_owners(
            (board.rows(), board.columns()),
            self.to_move(),
            |row, column| {
                let stone = self.stone(board.cell_at(column, row)?);
                let side = colours.iter().position(|&colour| colour == stone)?;
                Some(if side == 0 { Side::First } else { Side::Second })
            },
            out,
        );
    }
}
