//! A two-player match judged as its games finish: the tally so far and the first decision of
//! its SPRT, shared by a run (which stops once the test decides) and by the merge of shards'
//! records (which reads the test's state).

use crate::records::record::GameRecord;
use crate::statistics::scoring::Scoring;
use crate::statistics::sprt::{SprtParams, SprtStatus};
use crate::statistics::standings::MatchTally;

/// A two-player match's results as its games finish, and its SPRT's first decision.
pub struct MatchJudge {
    /// `None` for more than two players.
    pub tally: Option<MatchTally>,
    sprt: Option<SprtParams>,
    scoring: Scoring,
    /// The test's state when it first decided, if it did.
    pub decided: Option<SprtStatus>,
}

impl MatchJudge {
    /// A judge of a tournament of `players` players, testing `sprt` if given (and two play).
    pub fn new(players: usize, sprt: Option<SprtParams>, scoring: Scoring) -> MatchJudge {
        MatchJudge {
            tally: (players == 2).then(MatchTally::default),
            sprt,
            scoring,
            decided: None,
        }
    }

    /// Counts a finished game; the test's state after it, under an SPRT.
    pub fn add(&mut self, record: &GameRecord) -> Option<SprtStatus> {
        let tally = self.tally.as_mut()?;
        tally.add(record, self.scoring);
        let status = self.sprt?.status(tally.pentanomial());
        if status.decision.is_final() && self.decided.is_none() {
            self.decided = Some(status);
        }
        Some(status)
    }

    /// The verdict to print under an SPRT: the decision when the test reached one (games
    /// counted after it are in the standings, not in the verdict); else the state now.
    pub fn verdict(&self) -> Option<SprtStatus> {
        let (sprt, tally) = (self.sprt?, self.tally.as_ref()?);
        Some(
            self.decided
                .unwrap_or_else(|| sprt.status(tally.pentanomial())),
        )
    }
}
