//! The games of families registered at run time as one concrete type, [`ErasedGame`], so that
//! generic code (search, solver, perft, the arena's engine player) runs on them unchanged.
//!
//! Generic code is monomorphised for the games it is compiled with; a family that a program
//! registers after compilation ([`crate::register`]) cannot be one of them. Its game is wrapped
//! instead: every call of the [`Game`] and [`Evaluator`] faces goes through one virtual call
//! (and `legal_moves` fills a buffer of its own), and moves are the game's move ids. The
//! results are those of the game itself; only the speed differs.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use zerosum_core::{Evaluator, Game, MoveError, MoveVerdict, Side, Status};

use crate::{EvaluatedGame, GameSpec};

/// A move of an [`ErasedGame`]: the wrapped game's [`Game::move_id`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ErasedMove(u32);

/// A game of any family behind one type (see the module documentation).
pub struct ErasedGame {
    inner: Box<dyn Erased>,
}

impl ErasedGame {
    /// Wraps `game` (in any position) with its family's evaluator.
    pub fn new<G: EvaluatedGame>(game: G) -> ErasedGame {
        let mut all = Vec::new();
        game.all_moves(&mut all);
        let mut by_id = vec![None; game.move_id_bound()];
        for &mv in &all {
            by_id[game.move_id(mv)] = Some(mv);
        }
        let history = game.history().iter().map(|&mv| erase(&game, mv)).collect();
        ErasedGame {
            inner: Box::new(Typed {
                evaluator: game.evaluator(),
                by_id: by_id.into(),
                history,
                game,
            }),
        }
    }

    /// The wrapped game, if it is a `G`.
    pub fn downcast_ref<G: EvaluatedGame>(&self) -> Option<&G> {
        self.inner
            .as_any()
            .downcast_ref::<Typed<G>>()
            .map(|typed| &typed.game)
    }
}

fn erase<G: Game>(game: &G, mv: G::Move) -> ErasedMove {
    ErasedMove(game.move_id(mv) as u32)
}

/// The object-safe union of [`Game`] and [`Evaluator`], moves as [`ErasedMove`].
trait Erased: Send + Sync {
    fn clone_box(&self) -> Box<dyn Erased>;
    fn as_any(&self) -> &dyn Any;
    fn equals(&self, other: &dyn Erased) -> bool;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    fn spec(&self) -> GameSpec;
    fn to_move(&self) -> Side;
    fn ply(&self) -> usize;
    fn status(&self) -> Status;
    fn legal_moves(&self, moves: &mut Vec<ErasedMove>);
    fn all_moves(&self, moves: &mut Vec<ErasedMove>);
    fn illegal_reason(&self, mv: ErasedMove) -> Option<&'static str>;
    fn move_id_bound(&self) -> usize;
    fn play(&mut self, mv: ErasedMove);
    fn undo(&mut self);
    fn history(&self) -> &[ErasedMove];
    fn hash(&self) -> u64;
    fn recompute_hash(&self) -> u64;
    fn parse_move(&self, text: &str) -> Result<ErasedMove, MoveError>;
    fn format_move(&self, mv: ErasedMove) -> String;
    fn render(&self) -> String;
    fn board_json(&self) -> serde_json::Value;
    fn split_move_list<'a>(&self, text: &'a str) -> Vec<&'a str>;
    fn evaluate(&self) -> i32;
    fn candidate_moves(&self, moves: &mut Vec<ErasedMove>);
    fn move_hint(&self, mv: ErasedMove) -> i32;
    fn late_move_reduction(&self, mv: ErasedMove, depth: usize, rank: usize, count: usize)
        -> usize;
    fn late_move_pruned(&self, mv: ErasedMove, depth: usize, rank: usize, count: usize) -> bool;
    fn deepening_share(&self) -> f64;
    fn orders_by_history(&self) -> bool;
    fn playout_move(&self) -> Option<ErasedMove>;
    fn mcts_prior_width(&self) -> Option<f64>;
    fn candidate_weights(&self, moves: &[ErasedMove], weights: &mut Vec<f64>);
    fn proven_winner(&self) -> Option<Side>;
    fn analysis_visits(&self) -> Option<u32>;
    fn analyse(&self, moves: &[ErasedMove], verdicts: &mut Vec<MoveVerdict>);
    fn root_move_loses(&self, mv: ErasedMove) -> bool;
}

/// A game of type `G`, its evaluator, its moves by id and its history as erased moves.
struct Typed<G: EvaluatedGame> {
    game: G,
    evaluator: G::Evaluator,
    by_id: Arc<[Option<G::Move>]>,
    history: Vec<ErasedMove>,
}

impl<G: EvaluatedGame> Clone for Typed<G> {
    fn clone(&self) -> Self {
        Typed {
            game: self.game.clone(),
            evaluator: self.evaluator.clone(),
            by_id: Arc::clone(&self.by_id),
            history: self.history.clone(),
        }
    }
}

impl<G: EvaluatedGame> Typed<G> {
    /// The move of id `mv`: `None` only for an id that no move of the board has (which no
    /// move of this game's own gives).
    fn typed(&self, mv: ErasedMove) -> Option<G::Move> {
        self.by_id.get(mv.0 as usize).copied().flatten()
    }

    fn erase_all(&self, typed: &[G::Move], moves: &mut Vec<ErasedMove>) {
        moves.clear();
        moves.extend(typed.iter().map(|&mv| erase(&self.game, mv)));
    }
}

impl<G: EvaluatedGame> Erased for Typed<G> {
    fn clone_box(&self) -> Box<dyn Erased> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn equals(&self, other: &dyn Erased) -> bool {
        other
            .as_any()
            .downcast_ref::<Typed<G>>()
            .is_some_and(|other| other.game == self.game)
    }

    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.fmt(f)
    }

    fn spec(&self) -> GameSpec {
        self.game.spec()
    }

    fn to_move(&self) -> Side {
        self.game.to_move()
    }

    fn ply(&self) -> usize {
        self.game.ply()
    }

    fn status(&self) -> Status {
        self.game.status()
    }

    fn legal_moves(&self, moves: &mut Vec<ErasedMove>) {
        let mut typed = Vec::new();
        self.game.legal_moves(&mut typed);
        self.erase_all(&typed, moves);
    }

    fn all_moves(&self, moves: &mut Vec<ErasedMove>) {
        let mut typed = Vec::new();
        self.game.all_moves(&mut typed);
        self.erase_all(&typed, moves);
    }

    fn illegal_reason(&self, mv: ErasedMove) -> Option<&'static str> {
        match self.typed(mv) {
            Some(mv) => self.game.illegal_reason(mv),
            None => Some("no such move"),
        }
    }

    fn move_id_bound(&self) -> usize {
        self.game.move_id_bound()
    }

    /// Unchecked, as [`Game::play`]: a move id no move has is not played.
    fn play(&mut self, mv: ErasedMove) {
        if let Some(typed) = self.typed(mv) {
            self.game.play(typed);
            self.history.push(mv);
        }
    }

    fn undo(&mut self) {
        self.game.undo();
        self.history.pop();
    }

    fn history(&self) -> &[ErasedMove] {
        &self.history
    }

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn recompute_hash(&self) -> u64 {
        self.game.recompute_hash()
    }

    fn parse_move(&self, text: &str) -> Result<ErasedMove, MoveError> {
        self.game.parse_move(text).map(|mv| erase(&self.game, mv))
    }

    fn format_move(&self, mv: ErasedMove) -> String {
        match self.typed(mv) {
            Some(mv) => self.game.format_move(mv),
            None => format!("#{}", mv.0),
        }
    }

    fn render(&self) -> String {
        self.game.render()
    }

    fn board_json(&self) -> serde_json::Value {
        self.game.board_json()
    }

    fn split_move_list<'a>(&self, text: &'a str) -> Vec<&'a str> {
        self.game.split_move_list(text)
    }

    fn evaluate(&self) -> i32 {
        self.evaluator.evaluate(&self.game)
    }

    fn candidate_moves(&self, moves: &mut Vec<ErasedMove>) {
        let mut typed = Vec::new();
        self.evaluator.candidate_moves(&self.game, &mut typed);
        self.erase_all(&typed, moves);
    }

    fn move_hint(&self, mv: ErasedMove) -> i32 {
        self.typed(mv)
            .map_or(0, |mv| self.evaluator.move_hint(&self.game, mv))
    }

    fn late_move_reduction(
        &self,
        mv: ErasedMove,
        depth: usize,
        rank: usize,
        count: usize,
    ) -> usize {
        self.typed(mv).map_or(0, |mv| {
            self.evaluator
                .late_move_reduction(&self.game, mv, depth, rank, count)
        })
    }

    fn late_move_pruned(&self, mv: ErasedMove, depth: usize, rank: usize, count: usize) -> bool {
        self.typed(mv).is_some_and(|mv| {
            self.evaluator
                .late_move_pruned(&self.game, mv, depth, rank, count)
        })
    }

    fn deepening_share(&self) -> f64 {
        self.evaluator.deepening_share(&self.game)
    }

    fn orders_by_history(&self) -> bool {
        self.evaluator.orders_by_history(&self.game)
    }

    fn playout_move(&self) -> Option<ErasedMove> {
        self.evaluator
            .playout_move(&self.game)
            .map(|mv| erase(&self.game, mv))
    }

    fn mcts_prior_width(&self) -> Option<f64> {
        self.evaluator.mcts_prior_width()
    }

    fn candidate_weights(&self, moves: &[ErasedMove], weights: &mut Vec<f64>) {
        let typed: Option<Vec<G::Move>> = moves.iter().map(|&mv| self.typed(mv)).collect();
        match typed {
            Some(typed) => self
                .evaluator
                .candidate_weights(&self.game, &typed, weights),
            // Not this game's moves: the priors of rank alone.
            None => weights.clear(),
        }
    }

    fn proven_winner(&self) -> Option<Side> {
        self.evaluator.proven_winner(&self.game)
    }

    fn analysis_visits(&self) -> Option<u32> {
        self.evaluator.analysis_visits()
    }

    fn analyse(&self, moves: &[ErasedMove], verdicts: &mut Vec<MoveVerdict>) {
        let typed: Option<Vec<G::Move>> = moves.iter().map(|&mv| self.typed(mv)).collect();
        match typed {
            Some(typed) => self.evaluator.analyse(&self.game, &typed, verdicts),
            // Not this game's moves: nothing known.
            None => {
                verdicts.clear();
                verdicts.resize(moves.len(), MoveVerdict::Open);
            }
        }
    }

    fn root_move_loses(&self, mv: ErasedMove) -> bool {
        self.typed(mv)
            .is_some_and(|mv| self.evaluator.root_move_loses(&self.game, mv))
    }
}

impl Clone for ErasedGame {
    fn clone(&self) -> Self {
        ErasedGame {
            inner: self.inner.clone_box(),
        }
    }
}

impl PartialEq for ErasedGame {
    /// Equal when the wrapped games are of one type and equal.
    fn eq(&self, other: &ErasedGame) -> bool {
        self.inner.equals(other.inner.as_ref())
    }
}

impl fmt::Debug for ErasedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.debug(f)
    }
}

impl Game for ErasedGame {
    type Move = ErasedMove;

    fn to_move(&self) -> Side {
        self.inner.to_move()
    }

    fn ply(&self) -> usize {
        self.inner.ply()
    }

    fn status(&self) -> Status {
        self.inner.status()
    }

    fn legal_moves(&self, moves: &mut Vec<ErasedMove>) {
        self.inner.legal_moves(moves);
    }

    fn all_moves(&self, moves: &mut Vec<ErasedMove>) {
        self.inner.all_moves(moves);
    }

    fn illegal_reason(&self, mv: ErasedMove) -> Option<&'static str> {
        self.inner.illegal_reason(mv)
    }

    fn move_id(&self, mv: ErasedMove) -> usize {
        mv.0 as usize
    }

    fn move_id_bound(&self) -> usize {
        self.inner.move_id_bound()
    }

    fn play(&mut self, mv: ErasedMove) {
        self.inner.play(mv);
    }

    fn undo(&mut self) {
        self.inner.undo();
    }

    fn history(&self) -> &[ErasedMove] {
        self.inner.history()
    }

    fn hash(&self) -> u64 {
        self.inner.hash()
    }

    fn recompute_hash(&self) -> u64 {
        self.inner.recompute_hash()
    }

    fn parse_move(&self, text: &str) -> Result<ErasedMove, MoveError> {
        self.inner.parse_move(text)
    }

    fn format_move(&self, mv: ErasedMove) -> String {
        self.inner.format_move(mv)
    }

    fn render(&self) -> String {
        self.inner.render()
    }

    fn board_json(&self) -> serde_json::Value {
        self.inner.board_json()
    }

    fn split_move_list<'a>(&self, text: &'a str) -> Vec<&'a str> {
        self.inner.split_move_list(text)
    }
}

/// The evaluator of an [`ErasedGame`]: the wrapped game's own, which the game carries.
#[derive(Clone, Copy, Debug, Default)]
pub struct ErasedEvaluator {
    prior_width: Option<f64>,
    analysis_visits: Option<u32>,
}

impl Evaluator<ErasedGame> for ErasedEvaluator {
    fn evaluate(&self, game: &ErasedGame) -> i32 {
        game.inner.evaluate()
    }

    fn candidate_moves(&self, game: &ErasedGame, moves: &mut Vec<ErasedMove>) {
        game.inner.candidate_moves(moves);
    }

    fn move_hint(&self, game: &ErasedGame, mv: ErasedMove) -> i32 {
        game.inner.move_hint(mv)
    }

    fn late_move_reduction(
        &self,
        game: &ErasedGame,
        mv: ErasedMove,
        depth: usize,
        rank: usize,
        count: usize,
    ) -> usize {
        game.inner.late_move_reduction(mv, depth, rank, count)
    }

    fn late_move_pruned(
        &self,
        game: &ErasedGame,
        mv: ErasedMove,
        depth: usize,
        rank: usize,
        count: usize,
    ) -> bool {
        game.inner.late_move_pruned(mv, depth, rank, count)
    }

    fn deepening_share(&self, game: &ErasedGame) -> f64 {
        game.inner.deepening_share()
    }

    fn orders_by_history(&self, game: &ErasedGame) -> bool {
        game.inner.orders_by_history()
    }

    fn playout_move(&self, game: &ErasedGame) -> Option<ErasedMove> {
        game.inner.playout_move()
    }

    fn mcts_prior_width(&self) -> Option<f64> {
        self.prior_width
    }

    fn candidate_weights(&self, game: &ErasedGame, moves: &[ErasedMove], weights: &mut Vec<f64>) {
        game.inner.candidate_weights(moves, weights);
    }

    fn proven_winner(&self, game: &ErasedGame) -> Option<Side> {
        game.inner.proven_winner()
    }

    fn analysis_visits(&self) -> Option<u32> {
        self.analysis_visits
    }

    fn analyse(&self, game: &ErasedGame, moves: &[ErasedMove], verdicts: &mut Vec<MoveVerdict>) {
        game.inner.analyse(moves, verdicts);
    }

    fn root_move_loses(&self, game: &ErasedGame, mv: ErasedMove) -> bool {
        game.inner.root_move_loses(mv)
    }
}

impl EvaluatedGame for ErasedGame {
    type Evaluator = ErasedEvaluator;

    fn spec(&self) -> GameSpec {
        self.inner.spec()
    }

    fn evaluator(&self) -> ErasedEvaluator {
        ErasedEvaluator {
            prior_width: self.inner.mcts_prior_width(),
            analysis_visits: self.inner.analysis_visits(),
        }
    }
}
