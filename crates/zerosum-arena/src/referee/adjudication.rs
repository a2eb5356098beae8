//! Ending a game early once its result is proven: after each move the referee asks an exact
//! solver, with a small node budget, whether the position is won, drawn or lost under perfect
//! play; a proof ends the game with that result.
//!
//! The budget is spent in two parts: half on horizons of 1 to [`SHORT_HORIZON`] plies, which
//! find a short forced win whatever the move order (a search to the end of the game may spend
//! it all under its first move and never reach the winning one: a win in one on hex:11 was
//! missed that way), and the rest on a search to the end of the game (draws, long wins).
//!
//! Hex has a solver of its own: the proof-number search with virtual connections
//! ([`zerosum_games::hex::dfpn`]), given a [`DFPN_SHARE`]th of the nodes (each of its nodes
//! builds both sides' connections), its table kept from question to question.

use zerosum_core::{Game, Outcome, Side};
use zerosum_games::hex::dfpn::{DfpnLimits, DfpnOptions, HexSolver};
use zerosum_games::hex::{Hex, HexSpec};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{AlphaBetaSolver, SearchLimits, WeakValue};

/// Transposition table of an adjudicating solver, in MB.
const TABLE_MB: usize = 8;
/// The deepest horizon of the first part of the budget, in plies.
const SHORT_HORIZON: usize = 6;

/// The Hex solver's node budget is the adjudication's divided by this.
const DFPN_SHARE: u64 = 2_000;

/// Proves results of one game as it goes.
pub(crate) struct Adjudicator {
    prover: Box<dyn Prove>,
}

trait Prove: Send {
    fn prove(&mut self, moves: &[String]) -> Option<Outcome>;
}

struct TypedProver<G: EvaluatedGame> {
    game: G,
    solver: AlphaBetaSolver<G, G::Evaluator>,
    nodes: u64,
}

impl<G: EvaluatedGame> Prove for TypedProver<G> {
    fn prove(&mut self, moves: &[String]) -> Option<Outcome> {
        // The referee only ever adds moves; it has checked them.
        for text in &moves[self.game.ply().min(moves.len())..] {
            self.game.play_text(text).ok()?;
        }
        if self.game.status().is_over() {
            return None;
        }
        let mover: Side = self.game.to_move();
        let short = SearchLimits {
            nodes: Some(self.nodes / 2),
            depth: Some(SHORT_HORIZON),
            ..SearchLimits::default()
        };
        let proof = self.solver.prove(&self.game, true, &short, |_, _, _| {});
        let value = match proof.bounds.exact() {
            Some(value) => value,
            None => {
                let rest = SearchLimits {
                    nodes: Some(self.nodes.saturating_sub(proof.nodes).max(1)),
                    ..SearchLimits::default()
                };
                let solution = self.solver.solve(&self.game, true, &rest).ok()?;
                WeakValue::of(solution.score)
            }
        };
        Some(match value {
            WeakValue::Win => Outcome::Win(mover),
            WeakValue::Loss => Outcome::Win(!mover),
            WeakValue::Draw => Outcome::Draw,
        })
    }
}

/// Hex positions proved by the proof-number solver.
struct HexProver {
    game: Hex,
    solver: HexSolver,
    nodes: u64,
}

impl Prove for HexProver {
    fn prove(&mut self, moves: &[String]) -> Option<Outcome> {
        for text in &moves[self.game.ply().min(moves.len())..] {
            self.game.play_text(text).ok()?;
        }
        if self.game.status().is_over() {
            return None;
        }
        let limits = DfpnLimits {
            nodes: Some(self.nodes),
            ..DfpnLimits::default()
        };
        // Refused under a swap rule before the swap: nothing proven.
        let wins = self.solver.solve(&self.game, &limits).ok()?.wins?;
        let mover = self.game.to_move();
        Some(Outcome::Win(if wins { mover } else { !mover }))
    }
}

struct Builder {
    nodes: u64,
}

impl GameVisitor for Builder {
    type Output = Option<Box<dyn Prove>>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output {
        let solver = AlphaBetaSolver::try_new(game.evaluator(), TABLE_MB).ok()?;
        Some(Box::new(TypedProver {
            game,
            solver,
            nodes: self.nodes,
        }))
    }
}

impl Adjudicator {
    /// An adjudicator for `spec` spending at most `nodes` nodes per position; `None` if its
    /// solver cannot be built.
    pub(crate) fn new(spec: &GameSpec, nodes: u64) -> Option<Adjudicator> {
        if let Some(&HexSpec {
            width,
            height,
            swap,
            ..
        }) = spec.params()
        {
            let options = DfpnOptions::with_table_mb(TABLE_MB);
            if let Ok(solver) = HexSolver::new(width, height, options) {
                let prover = HexProver {
                    game: Hex::new(width, height, swap),
                    solver,
                    nodes: (nodes / DFPN_SHARE).max(1),
                };
                return Some(Adjudicator {
                    prover: Box::new(prover),
                });
            }
        }
        let prover = visit_game(spec, Builder { nodes }).ok()??;
        Some(Adjudicator { prover })
    }

    /// The proven result of the position after `moves`, if the solver proves one in budget.
    pub(crate) fn prove(&mut self, moves: &[String]) -> Option<Outcome> {
        self.prover.prove(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(line: &str) -> Vec<String> {
        line.split(',').map(str::to_string).collect()
    }

    /// A game against MoHex (hex:11), asked after every move as the referee does: at its end
    /// White wins in one (b6 or b7), which the search to the end of the game alone did not
    /// find within 200,000 nodes after the game's earlier questions (MoHex then refused its
    /// own `genmove` and lost by forfeit). The short horizons prove White's win, at the
    /// latest there.
    #[test]
    fn a_win_in_one_is_proven_on_a_large_board() {
        let spec: GameSpec = "hex:11".parse().unwrap();
        let mut adjudicator = Adjudicator::new(&spec, 200_000).unwrap();
        let game = moves(
            "g9,b10,k1,c5,j4,j3,k3,k2,h4,h5,i4,i6,h6,i5,e8,f6,k5,j7,k7,k6,d7,e5,d5,d6,c7,c6,\
             g5,g6,d10,a7,f5,e6,j6,i7,b5,j9,e7,h10,d9,i10,c4",
        );
        let first_proof = (4..=game.len()).find_map(|ply| adjudicator.prove(&game[..ply]));
        assert_eq!(first_proof, Some(Outcome::Win(Side::Second)));
    }

    /// On Hex the proof-number solver proves what alpha-beta cannot: 7x7 openings (the empty
    /// board, won by the first player; d1, lost for Black: 462 of its nodes), given a budget
    /// of 4,000,000 (2,000 of its nodes); under the swap rule nothing before the swap.
    #[test]
    fn hex_openings_are_proven_by_the_proof_number_search() {
        let spec: GameSpec = "hex:7".parse().unwrap();
        let mut adjudicator = Adjudicator::new(&spec, 4_000_000).unwrap();
        assert_eq!(adjudicator.prove(&[]), Some(Outcome::Win(Side::First)));
        assert_eq!(
            adjudicator.prove(&moves("d1")),
            Some(Outcome::Win(Side::Second))
        );
        let spec: GameSpec = "hex:7:swap-sides".parse().unwrap();
        let mut adjudicator = Adjudicator::new(&spec, 4_000_000).unwrap();
        assert_eq!(adjudicator.prove(&moves("d1")), None);
    }

    /// Long results still come from the search to the end: the empty tic-tac-toe board's draw,
    /// and Connect Four positions of Pons' end-easy set (`Test_L3_R1`) drawn and won by the
    /// side to move with the last stone of the board, eight plies away.
    #[test]
    fn draws_and_long_wins_are_proven() {
        let spec: GameSpec = "mnk:3x3x3".parse().unwrap();
        let mut adjudicator = Adjudicator::new(&spec, 200_000).unwrap();
        assert_eq!(adjudicator.prove(&[]), Some(Outcome::Draw));
        let spec: GameSpec = "connect4".parse().unwrap();
        for (line, outcome) in [
            (
                "7422341735647741166133573473242566",
                Outcome::Win(Side::First),
            ),
            ("23163416124767223154467471272416755633", Outcome::Draw),
        ] {
            let mut adjudicator = Adjudicator::new(&spec, 200_000).unwrap();
            let game: Vec<String> = line.chars().map(String::from).collect();
            assert_eq!(adjudicator.prove(&game), Some(outcome), "{line}");
        }
    }
}
