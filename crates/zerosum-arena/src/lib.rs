//! The arena of zerosum: players behind one `Player` trait, a referee that keeps the clocks
//! and forfeits late, illegal, crashed or silent players, matches and round-robin tournaments,
//! scoring schemes, Elo and SPRT, JSON-lines game records and resuming a killed tournament.
//!
//! The arena sees players, not algorithms: the built-in engine player is one `Player` among
//! others, and games are driven through their object-safe face ([`zerosum_core::DynGame`]).

pub mod elo;
pub mod record;
pub mod scoring;
pub mod sprt;
pub mod standings;

pub use elo::{EloEstimate, Pentanomial, SampleUnit, ScoreSample, Wdl};
pub use record::{GameRecord, Termination};
pub use scoring::{Scoring, UnknownScoring};
pub use sprt::{SprtDecision, SprtError, SprtParams, SprtStatus};
pub use standings::{
    CrossCell, Crosstable, ForfeitCounts, MatchSummary, PlayerStanding, Standings, StandingsError,
};
