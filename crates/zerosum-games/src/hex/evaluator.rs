//! The Hex evaluator: two-distance potentials ([`crate::connection::potential`]) on the board
//! in a frame of terminal stones, with a test for edges joined by stones and bridges.
//!
//! # The frame
//!
//! The board is embedded in a `(width + 2) x (height + 2)` grid whose outer ring stands for
//! the edges: the top and bottom rows of the frame are Black stones, the left and right
//! columns White stones, the four corners walls. Black's goal is to join the top row of the
//! frame to the bottom one, White's the left column to the right one. A stone on the second
//! row is then bridged to its edge when both cells between it and the frame are empty (the
//! edge template of Hex), which the "joined" test counts.
//!
//! ```text
//!       frame  a b c
//!          #  B B B  #
//!       1   W . . .  W
//!       2    W . . .  W
//!       3     W . . .  W
//!              #  B B B  #
//! ```
//!
//! Frame index of the cell in column `c`, row `r` (0-based): `(r + 1) * (width + 2) + c + 1`.

use std::sync::Arc;

use zerosum_core::{Evaluator, Game, MoveVerdict, Outcome, Side};

use super::gammas::PatternGammas;
use super::patterns::PatternFrame;
use super::{Hex, HexMove};
use crate::connection::potential::{balance, ColourPotential, Network, PotentialParams, WALL};
use crate::connection::{owner_of, Stone, StoneMove};

/// Move hint for the cell that saves a bridge (or edge template) the opponent just intruded.
const BRIDGE_SAVE_HINT: i32 = 1_000;

/// Monte Carlo search's prior width (see [`Evaluator::mcts_prior_width`]): the candidate of
/// rank `r` weighs `exp(-r / 6)`.
const MCTS_PRIOR_WIDTH: f64 = 6.0;

/// Playouts through a Monte Carlo node before it is analysed ([`super::analysis`]), in the
/// evaluation named `analysis`.
pub const ANALYSIS_VISITS: u32 = 256;

/// RAVE's equivalence parameter in the evaluation named `rave`
/// ([`Evaluator::rave_equivalence`]).
pub const RAVE_EQUIVALENCE: f64 = 1_000.0;

/// Move hint for the other cells next to the opponent's last stone.
const NEAR_LAST_MOVE_HINT: i32 = 10;

/// The evaluator of Hex on one board size.
///
/// - [`Evaluator::evaluate`]: [`balance`] of the side to move's potential against the
///   opponent's: `POTENTIAL_UNIT` (100) per step of two-distance potential ahead, one per
///   alternative cell more, and `JOINED_BONUS` (10,000) for a colour whose edges are joined by
///   stones and bridges (a near-certain win that search has not proven yet). Antisymmetric:
///   the two colours' views of a position are exact negatives.
/// - [`Evaluator::candidate_moves`]: every legal move but the dead cells' (search stays
///   exact, see [`super::inferior`]), ordered by how
///   close each cell is to both colours' best chains, then by distance from the centre; the
///   swap first when the first stone is central (hex distance from the centre at most half
///   the shorter side), else last.
/// - [`Evaluator::move_hint`]: answering an intrusion into a bridge first, then cells next to
///   the opponent's last stone.
/// - [`Evaluator::playout_move`]: the answer to an intrusion into a bridge.
/// - [`Evaluator::mcts_prior_width`]: 6 (Monte Carlo search is PUCT with priors by rank).
/// - [`Evaluator::candidate_weights`]: with pattern gammas ([`HexEvaluator::with_gammas`],
///   the evaluation named `patterns`), each placement's gamma ([`super::gammas`]), the swap
///   1; none otherwise.
/// - [`Evaluator::proven_winner`]: the colour joined by a virtual connection
///   ([`super::connected`]).
/// - [`Evaluator::playout_to_end`]: with full playouts ([`HexEvaluator::with_full_playouts`],
///   the evaluations named `playouts` and `rave`), Hex's own ([`super::playout`]); none
///   otherwise.
/// - [`Evaluator::rave_equivalence`]: [`RAVE_EQUIVALENCE`] in the evaluation named `rave`;
///   none otherwise.
/// - [`Evaluator::analyse`]: H-search, the mustplay and inferior cells
///   ([`super::analysis`]), at nodes of [`ANALYSIS_VISITS`] playouts, when the evaluator is
///   made [`HexEvaluator::with_analysis`] (the evaluation named `analysis`); never otherwise.
///
/// A whole evaluation is four linear passes over the framed board, with scratch memory on
/// the stack (no allocation): 9 µs on 7x7, 18 µs on 11x11 and 26 µs on 13x13 in a release
/// build on the project's 2-core build machine (`measure_evaluation_speed` in the `play_hex`
/// tests).
#[derive(Clone, Debug)]
pub struct HexEvaluator {
    width: usize,
    height: usize,
    params: PotentialParams,
    network: Arc<Network>,
    /// Playouts through a Monte Carlo node before it is analysed; `None`: never.
    analysis_visits: Option<u32>,
    /// The patterns' gammas that weigh Monte Carlo priors; `None`: priors by rank alone.
    gammas: Option<Arc<PatternGammas>>,
    /// Whether Monte Carlo playouts are Hex's own, to the end of the game ([`super::playout`]).
    full_playouts: bool,
    /// RAVE's equivalence parameter ([`Evaluator::rave_equivalence`]); `None`: no RAVE.
    rave_equivalence: Option<f64>,
}

impl HexEvaluator {
    /// The evaluator for `width x height` boards (columns x rows) with the default potentials.
    pub fn new(width: usize, height: usize) -> HexEvaluator {
        HexEvaluator::with_params(width, height, PotentialParams::DEFAULT)
    }

    /// The evaluator for `width x height` boards with the given potentials.
    ///
    /// Panics unless both sides are in `1..=100`.
    pub fn with_params(width: usize, height: usize, params: PotentialParams) -> HexEvaluator {
        assert!(
            (1..=super::MAX_SIDE).contains(&width) && (1..=super::MAX_SIDE).contains(&height),
            "Hex sides must be between 1 and {}, not {width}x{height}",
            super::MAX_SIDE
        );
        let framed = width + 2;
        let (w, h) = (width as isize, height as isize);
        let index = |c: isize, r: isize| ((r + 1) as usize) * framed + (c + 1) as usize;
        let network = Network::new(
            framed * (height + 2),
            |cell| ((cell % framed) as isize - 1, (cell / framed) as isize - 1),
            |c, r| ((-1..=w).contains(&c) && (-1..=h).contains(&r)).then(|| index(c, r)),
            [
                vec![(index(0, -1) as u16, index(0, h) as u16)],
                vec![(index(-1, 0) as u16, index(w, 0) as u16)],
            ],
        );
        HexEvaluator {
            width,
            height,
            params,
            network: Arc::new(network),
            analysis_visits: None,
            gammas: None,
            full_playouts: false,
            rave_equivalence: None,
        }
    }

    /// The same evaluator, with Monte Carlo nodes analysed ([`super::analysis`]) once they
    /// have `visits` playouts (`None`: never).
    pub fn with_analysis(mut self, visits: Option<u32>) -> HexEvaluator {
        self.analysis_visits = visits;
        self
    }

    /// The same evaluator, with Monte Carlo priors weighed by the gammas of the candidates'
    /// patterns ([`Evaluator::candidate_weights`]; `None`: by rank alone).
    pub fn with_gammas(mut self, gammas: Option<Arc<PatternGammas>>) -> HexEvaluator {
        self.gammas = gammas;
        self
    }

    /// The same evaluator, with Monte Carlo playouts of Hex's own to the end of the game
    /// ([`Evaluator::playout_to_end`], [`super::playout`]) on every board size, and RAVE with
    /// the equivalence parameter `rave` (`None`: no RAVE).
    pub fn with_full_playouts(mut self, rave: Option<f64>) -> HexEvaluator {
        self.full_playouts = true;
        self.rave_equivalence = rave;
        self
    }

    /// The potentials in use.
    pub fn params(&self) -> PotentialParams {
        self.params
    }

    /// The evaluation of `game` from the point of view of `colour` (Black or White), whoever
    /// is to move; [`Evaluator::evaluate`] is this for the side to move's colour.
    ///
    /// Panics if `game` is not on this evaluator's board size.
    pub fn evaluate_colour(&self, game: &Hex, colour: Stone) -> i32 {
        self.check_size(game);
        self.network.with_potentials(
            self.params,
            |stones| self.fill(game, stones),
            |potentials| {
                let other = opponent(colour);
                balance(potentials.colour(colour), potentials.colour(other))
            },
        )
    }

    /// Black's and White's potentials on `game` (see [`crate::connection::potential`]).
    ///
    /// Panics if `game` is not on this evaluator's board size.
    pub fn potentials(&self, game: &Hex) -> [ColourPotential; 2] {
        self.check_size(game);
        self.network.with_potentials(
            self.params,
            |stones| self.fill(game, stones),
            |potentials| {
                [
                    potentials.colour(Stone::Black),
                    potentials.colour(Stone::White),
                ]
            },
        )
    }

    /// Sorts `cells` (cell indices) as [`Evaluator::candidate_moves`] orders placements, on
    /// the board whose cells, row by row, are `board` (any stones, not only a game's): the
    /// cells closest to both colours' best chains first, ties by index.
    ///
    /// Panics unless `board` has this evaluator's `width * height` cells.
    pub fn order_cells(&self, board: &[Stone], cells: &mut [usize]) {
        assert_eq!(
            board.len(),
            self.width * self.height,
            "a board of another size"
        );
        self.network.with_potentials(
            self.params,
            |stones| self.fill_cells(board, stones),
            |potentials| {
                cells.sort_unstable_by_key(|&cell| (potentials.order_key(self.framed(cell)), cell));
            },
        );
    }

    fn check_size(&self, game: &Hex) {
        assert!(
            game.width() == self.width && game.height() == self.height,
            "a HexEvaluator for {}x{} boards cannot evaluate a {}x{} board",
            self.width,
            self.height,
            game.width(),
            game.height()
        );
    }

    /// The frame index of a board cell.
    #[inline]
    fn framed(&self, cell: usize) -> usize {
        cell + self.width + 3 + 2 * (cell / self.width)
    }

    /// The board cell of a frame index inside the board.
    #[inline]
    fn unframed(&self, framed: usize) -> usize {
        let stride = self.width + 2;
        (framed / stride - 1) * self.width + framed % stride - 1
    }

    /// The content of a frame cell: a board stone, an edge's colour, or a wall (corners).
    fn frame_content(&self, game: &Hex, framed: usize) -> u8 {
        let stride = self.width + 2;
        let (c, r) = (framed % stride, framed / stride);
        let inside_columns = (1..=self.width).contains(&c);
        let inside_rows = (1..=self.height).contains(&r);
        match (inside_columns, inside_rows) {
            (true, true) => game.stones()[(r - 1) * self.width + c - 1] as u8,
            (true, false) => Stone::Black as u8,
            (false, true) => Stone::White as u8,
            (false, false) => WALL,
        }
    }

    /// Writes the framed position of `game` (see the module documentation).
    fn fill(&self, game: &Hex, stones: &mut [u8]) {
        self.fill_cells(game.stones(), stones);
    }

    /// Writes the framed position whose cells, row by row, are `cells`.
    fn fill_cells(&self, cells: &[Stone], stones: &mut [u8]) {
        let stride = self.width + 2;
        let (top, bottom) = stones.split_at_mut(stride);
        let bottom_row = bottom.len() - stride;
        for edge in [
            &mut top[1..=self.width],
            &mut bottom[bottom_row + 1..][..self.width],
        ] {
            edge.fill(Stone::Black as u8);
        }
        for (row, cells) in cells.chunks_exact(self.width).enumerate() {
            let line = &mut stones[(row + 1) * stride..][..stride];
            line[0] = Stone::White as u8;
            line[stride - 1] = Stone::White as u8;
            for (slot, &stone) in line[1..=self.width].iter_mut().zip(cells) {
                *slot = stone as u8;
            }
        }
    }

    /// Whether the swap is worth searching first: the first stone lies within half the
    /// shorter side of the centre.
    fn swap_first(&self, game: &Hex) -> bool {
        match game.history().first() {
            Some(&StoneMove::Place(cell)) => {
                let distance = self.network.centre_distance(self.framed(cell as usize));
                usize::from(distance) <= self.width.min(self.height)
            }
            _ => false,
        }
    }
}

/// The other colour.
fn opponent(colour: Stone) -> Stone {
    match colour {
        Stone::White => Stone::Black,
        _ => Stone::White,
    }
}

impl Evaluator<Hex> for HexEvaluator {
    fn evaluate(&self, game: &Hex) -> i32 {
        self.evaluate_colour(game, game.colour_of(game.to_move()))
    }

    fn candidate_moves(&self, game: &Hex, moves: &mut Vec<HexMove>) {
        game.legal_moves(moves);
        super::inferior::drop_dead_cells(game, moves);
        if moves.len() <= 1 {
            return;
        }
        self.check_size(game);
        let swap_key = if self.swap_first(game) { 0 } else { u64::MAX };
        self.network.with_potentials(
            self.params,
            |stones| self.fill(game, stones),
            |potentials| {
                // Each move's key once (the keys are distinct: the cell breaks ties).
                let mut keyed: Vec<(u64, HexMove)> = moves
                    .iter()
                    .map(|&mv| match mv {
                        StoneMove::Place(cell) => {
                            let key = potentials.order_key(self.framed(cell as usize));
                            ((u64::from(key) << 16) | u64::from(cell), mv)
                        }
                        StoneMove::Swap => (swap_key, mv),
                    })
                    .collect();
                keyed.sort_unstable_by_key(|&(key, _)| key);
                moves.clear();
                moves.extend(keyed.iter().map(|&(_, mv)| mv));
            },
        );
    }

    fn move_hint(&self, game: &Hex, mv: HexMove) -> i32 {
        let (StoneMove::Place(cell), Some(&StoneMove::Place(last))) = (mv, game.history().last())
        else {
            return 0;
        };
        let (to, from) = (self.framed(cell as usize), self.framed(last as usize));
        if !self.network.neighbours(from).contains(&(to as u16)) {
            return 0;
        }
        let own = game.colour_of(game.to_move()) as u8;
        if self
            .network
            .saves_bridge(from, to, |framed| self.frame_content(game, framed) == own)
        {
            BRIDGE_SAVE_HINT
        } else {
            NEAR_LAST_MOVE_HINT
        }
    }

    /// The colour joined by a virtual connection ([`super::connected`]), if one is.
    fn proven_winner(&self, game: &Hex) -> Option<Side> {
        [Stone::Black, Stone::White]
            .into_iter()
            .find(|&colour| super::connected::virtually_connected(game, colour))
            .map(|colour| owner_of(colour, game.colour_of(Side::First) == Stone::White))
    }

    fn mcts_prior_width(&self) -> Option<f64> {
        Some(MCTS_PRIOR_WIDTH)
    }

    fn candidate_weights(&self, game: &Hex, moves: &[HexMove], weights: &mut Vec<f64>) {
        weights.clear();
        let Some(gammas) = &self.gammas else {
            return;
        };
        self.check_size(game);
        let colour = game.colour_of(game.to_move());
        let frame = PatternFrame::new(game);
        weights.extend(moves.iter().map(|&mv| match mv {
            StoneMove::Place(cell) => f64::from(gammas.framed_gamma(&frame, cell.into(), colour)),
            StoneMove::Swap => 1.0,
        }));
    }

    fn analysis_visits(&self) -> Option<u32> {
        self.analysis_visits
    }

    fn analyse(&self, game: &Hex, moves: &[HexMove], verdicts: &mut Vec<MoveVerdict>) {
        self.check_size(game);
        super::analysis::analyse(game, moves, verdicts);
    }

    /// With full playouts ([`HexEvaluator::with_full_playouts`]): [`super::playout::play_out`].
    fn playout_to_end(
        &self,
        game: &Hex,
        random: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<HexMove>,
    ) -> Option<Outcome> {
        self.full_playouts
            .then(|| super::playout::play_out(game, random, played))
    }

    fn rave_equivalence(&self) -> Option<f64> {
        self.rave_equivalence
    }

    /// The empty cell that saves the bridge (or edge template) the opponent's last stone
    /// intruded, if there is one.
    fn playout_move(&self, game: &Hex) -> Option<HexMove> {
        let Some(&StoneMove::Place(last)) = game.history().last() else {
            return None;
        };
        let from = self.framed(last as usize);
        let own = game.colour_of(game.to_move()) as u8;
        let is_own = |framed: usize| self.frame_content(game, framed) == own;
        self.network
            .neighbours(from)
            .iter()
            .map(|&to| to as usize)
            .find(|&to| {
                self.frame_content(game, to) == Stone::Empty as u8
                    && self.network.saves_bridge(from, to, is_own)
            })
            .map(|to| StoneMove::Place(self.unframed(to) as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_cells_hold_the_edges() {
        let mut game = Hex::new(3, 2, None);
        game.play_list("b1").unwrap();
        let evaluator = HexEvaluator::new(3, 2);
        let mut stones = vec![WALL; 5 * 4];
        evaluator.fill(&game, &mut stones);
        let expected: Vec<u8> = "#BBB# W.B.W W...W #BBB#"
            .split(' ')
            .flat_map(|row| row.bytes())
            .map(|b| match b {
                b'B' => 1,
                b'W' => 2,
                b'#' => WALL,
                _ => 0,
            })
            .collect();
        assert_eq!(stones, expected);
        for (framed, &content) in expected.iter().enumerate() {
            assert_eq!(evaluator.frame_content(&game, framed), content, "{framed}");
        }
        assert_eq!(evaluator.framed(game.cell(1, 0)), 7);
        assert_eq!(evaluator.framed(game.cell(2, 1)), 13);
    }
}
