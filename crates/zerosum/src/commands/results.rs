//! What a tournament prints when it ends, shared by a run (`match`, `tournament`) and by
//! `merge`, so that merged shards print exactly what one run prints: the standings, the
//! crosstable or the match summary (the SPRT verdict is judged by
//! [`zerosum_arena::statistics::judge::MatchJudge`]).

use anyhow::Result;
use zerosum_arena::{GameRecord, MatchSummary, Scoring, Standings};

/// Prints the standings of `records` (sorted by schedule index) between `names`: the table,
/// then the crosstable (more than two players) or the match summary. Returns the standings.
pub fn print_standings(
    names: &[String],
    records: &[GameRecord],
    scoring: Scoring,
) -> Result<Standings> {
    let standings = Standings::compute(names, records, scoring)?;
    outln!("\n{}", standings.table());
    if names.len() > 2 {
        outln!("{}", standings.crosstable);
    } else {
        outln!("{}", MatchSummary::compute(names, records, scoring)?);
    }
    Ok(standings)
}
