//! What the engines know of Hex beyond its rules ([`EvaluatedGame`]): its evaluator, its
//! observation planes and its exact oracle. Apart from the evaluator, which the proof-number
//! solver orders its moves with, so that the oracle built on that solver does not lead back to
//! the evaluator's module.

use zerosum_core::{Game, Side};

use super::evaluator::ANALYSIS_VISITS;
use super::{Hex, HexEvaluator};
use crate::exact::ExactOracle;
use crate::{EvaluatedGame, GameSpec};

impl EvaluatedGame for Hex {
    type Evaluator = HexEvaluator;

    fn spec(&self) -> GameSpec {
        super::spec(self.width, self.height, self.swap).expect("Hex::new checked the sizes")
    }

    fn evaluator(&self) -> HexEvaluator {
        HexEvaluator::new(self.width(), self.height())
    }

    /// `potential` (the default: two-distance potentials, no analysis) or `analysis` (the
    /// same, with Monte Carlo nodes analysed once they have [`ANALYSIS_VISITS`] playouts:
    /// virtual connections, the mustplay, inferior cells, see [`super::analysis`]).
    fn evaluator_named(&self, name: &str) -> Result<HexEvaluator, String> {
        match name {
            "potential" => Ok(self.evaluator()),
            "analysis" => Ok(self.evaluator().with_analysis(Some(ANALYSIS_VISITS))),
            _ => Err(format!(
                "unknown Hex evaluation `{name}` (expected potential or analysis)"
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
