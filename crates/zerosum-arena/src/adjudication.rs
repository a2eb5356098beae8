//! Ending a game early once its result is proven: after each move the referee asks an exact
//! solver, with a small node budget, whether the position is won, drawn or lost under perfect
//! play; a proof ends the game with that result.

use zerosum_core::{GameSpec, Outcome, Side};
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{SearchLimits, Solver};

/// Transposition table of an adjudicating solver, in MB.
const TABLE_MB: usize = 8;

/// Proves results of one game as it goes.
pub(crate) struct Adjudicator {
    prover: Box<dyn Prove>,
}

trait Prove: Send {
    fn prove(&mut self, moves: &[String]) -> Option<Outcome>;
}

struct TypedProver<G: EvaluatedGame> {
    game: G,
    solver: Solver<G, G::Evaluator>,
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
        let limits = SearchLimits {
            nodes: Some(self.nodes),
            ..SearchLimits::default()
        };
        let solution = self.solver.solve(&self.game, true, &limits).ok()?;
        let mover: Side = self.game.to_move();
        Some(match solution.score.0.signum() {
            1 => Outcome::Win(mover),
            -1 => Outcome::Win(!mover),
            _ => Outcome::Draw,
        })
    }
}

struct Builder {
    nodes: u64,
}

impl GameVisitor for Builder {
    type Output = Option<Box<dyn Prove>>;

    fn visit<G: EvaluatedGame>(self, game: G) -> Self::Output {
        let solver = Solver::try_new(game.evaluator(), TABLE_MB).ok()?;
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
        let prover = visit_game(spec, Builder { nodes }).ok()??;
        Some(Adjudicator { prover })
    }

    /// The proven result of the position after `moves`, if the solver proves one in budget.
    pub(crate) fn prove(&mut self, moves: &[String]) -> Option<Outcome> {
        self.prover.prove(moves)
    }
}
