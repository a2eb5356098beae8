//! What the engines know of Hex beyond its rules ([`EvaluatedGame`]): its evaluator, its
//! observation planes and its exact oracle. Apart from the evaluator, which the proof-number
//! solver orders its moves with, so that the oracle built on that solver does not lead back to
//! the evaluator's module.

use std::sync::{Arc, OnceLock};

use zerosum_core::{Game, Side};

use super::evaluator::{ANALYSIS_VISITS, RAVE_EQUIVALENCE};
use super::gammas::PatternGammas;
use super::{Hex, HexEvaluator};
use crate::exact::ExactOracle;
use crate::{EvaluatedGame, GameSpec};

/// The gammas file of the evaluation `patterns`: `weights/hex.txt`, made by `zerosum train hex`.
pub const BUILT_IN_GAMMAS: &str = include_str!("../../../../weights/hex.txt");

/// The largest board (in cells) whose default evaluation is `patterns`: the boards whose Monte
/// Carlo playouts run to the end of the game, where the pattern priors passed their SPRT
/// (hex:9); on larger boards the default is `potential` (on hex:11 the priors did not pass).
pub const PATTERN_PRIORS_MAX_CELLS: usize = 100;

/// The gammas of [`BUILT_IN_GAMMAS`], read once.
fn built_in_gammas() -> Arc<PatternGammas> {
    static GAMMAS: OnceLock<Arc<PatternGammas>> = OnceLock::new();
    GAMMAS
        .get_or_init(|| {
            Arc::new(
                PatternGammas::parse(BUILT_IN_GAMMAS).expect("the built-in gammas file is read"),
            )
        })
        .clone()
}

impl EvaluatedGame for Hex {
    type Evaluator = HexEvaluator;

    fn spec(&self) -> GameSpec {
        super::spec(self.width, self.height, self.swap).expect("Hex::new checked the sizes")
    }

    /// `patterns` on boards of at most [`PATTERN_PRIORS_MAX_CELLS`] cells, `potential` on
    /// larger ones.
    fn evaluator(&self) -> HexEvaluator {
        let potential = HexEvaluator::new(self.width(), self.height());
        if self.width() * self.height() <= PATTERN_PRIORS_MAX_CELLS {
            potential.with_gammas(Some(built_in_gammas()))
        } else {
            potential
        }
    }

    /// `potential` (two-distance potentials, no analysis; the default on large boards),
    /// `analysis` (the
    /// same, with Monte Carlo nodes analysed once they have [`ANALYSIS_VISITS`] playouts:
    /// virtual connections, the mustplay, inferior cells, see [`super::analysis`]) or
    /// `patterns` (the potentials, with Monte Carlo priors weighed by the gammas of
    /// [`BUILT_IN_GAMMAS`], see [`super::gammas`]), `playouts` (the potentials, with Monte
    /// Carlo playouts to the end of the game on every board, see [`super::playout`]) or `rave`
    /// (the same with RAVE of equivalence [`RAVE_EQUIVALENCE`]).
    fn evaluator_named(&self, name: &str) -> Result<HexEvaluator, String> {
        let potential = HexEvaluator::new(self.width(), self.height());
        match name {
            "potential" => Ok(potential),
            "analysis" => Ok(potential.with_analysis(Some(ANALYSIS_VISITS))),
            "patterns" => Ok(potential.with_gammas(Some(built_in_gammas()))),
            "playouts" => Ok(potential.with_full_playouts(None)),
            "rave" => Ok(potential.with_full_playouts(Some(RAVE_EQUIVALENCE))),
            _ => Err(format!(
                "unknown Hex evaluation `{name}` (expected potential, analysis, patterns, playouts or rave)"
            )),
        }
    }

    /// `patterns` (the default with weights) with the gammas of the file `text`.
    fn evaluator_weighted(&self, name: Option<&str>, text: &str) -> Result<HexEvaluator, String> {
        match name {
            None | Some("patterns") => {
                let gammas = PatternGammas::parse(text).map_err(|e| e.to_string())?;
                let potential = HexEvaluator::new(self.width(), self.height());
                Ok(potential.with_gammas(Some(Arc::new(gammas))))
            }
            Some(name) => Err(format!(
                "the Hex evaluation `{name}` loads no weights (only patterns does)"
            )),
        }
    }

    fn observation_grid(&self) -> (usize, usize) {
        (self.height(), self.width())
    }

    fn max_plies(&self) -> Option<usize> {
        Some(self.width() * self.height() + usize::from(self.swap_rule().is_some()))
    }

    fn write_observation(&self, out: &mut [f32]) {
        // The cells are stored row by row, as the planes are.
        let area = self.width() * self.height();
        let [first, second] = [Side::First, Side::Second].map(|side| self.colour_of(side));
        let (stones, rest) = out.split_at_mut(2 * area);
        let (first_plane, second_plane) = stones.split_at_mut(area);
        for ((&stone, a), b) in self.stones().iter().zip(first_plane).zip(second_plane) {
            *a = f32::from(u8::from(stone == first));
            *b = f32::from(u8::from(stone == second));
        }
        crate::observation::fill_to_move(self.to_move(), area, rest);
    }

    /// The proof-number solver ([`super::oracle`]).
    fn oracle(&self, table_mb: usize) -> Option<Box<dyn ExactOracle<Self>>> {
        let oracle = super::oracle::HexOracle::new(self, table_mb)?;
        Some(Box::new(oracle))
    }

    /// Not yet: the SPRT of the engine with it against the engine without it is in
    /// docs/strength.md.
    fn oracle_by_default(&self) -> bool {
        false
    }
}
