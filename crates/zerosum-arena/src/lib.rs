//! The arena of zerosum: players behind one [`Player`] trait, a referee that keeps the clocks
//! and forfeits late, illegal, crashed or silent players, matches and round-robin tournaments,
//! scoring schemes, Elo and SPRT, JSON-lines game records and resuming a killed tournament.
//!
//! The arena sees players, not algorithms: the built-in engine player is one [`Player`] among
//! others, and games are driven through their object-safe face ([`zerosum_games::DynGame`]).
//!
//! Modules, each importing only modules listed below it (in brackets):
//!
//! ```text
//! answers       solve, search and analyze one position [players]
//! run           a tournament run: start, resume, shards, record, game files, reports
//!                                                 [tournament, players, records, statistics, shard]
//! tournament    round robins and matches: settings, schedule, presets, merge of shards
//!                                                 [referee, players, player, records, statistics, openings, clock, shard]
//! net           the game server and client        [referee, records, peers, player, clock]
//! training      the pattern weights of gomoku fitted to self-play [openings]
//! openings      opening suites: files, generation  [players]
//! referee       one game: clocks, seats, forfeits, adjudication [player, records, clock, prompt]
//! shutdown      stopping everything at once       [records, peers]
//! players       built-in, external, Java, human; engine lists, table budgets [player, peers, clock]
//! player        the Player trait                  [clock, peers]
//! statistics    scoring, Elo, SPRT, standings, charts [records]
//! records       a game's record, record files, game files [shard]
//! peers         lines, text and process groups of other programs
//! clock, prompt, shard   leaves
//! ```

pub mod answers;
pub mod clock;
pub mod net;
pub mod openings;
pub mod peers;
pub mod player;
pub mod players;
pub mod prompt;
pub mod records;
pub mod referee;
pub mod run;
pub mod shard;
pub mod shutdown;
pub mod statistics;
pub mod tournament;
pub mod training;

pub use clock::TimeControl;
pub use openings::{OpeningOrder, OpeningSettings, Openings, OpeningsError};
pub use peers::lines::{MAX_PEER_BYTES, MAX_PEER_LINES, MAX_PEER_LINE_BYTES};
pub use player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError, Progress, Remarks};
pub use players::engine_list::{EngineList, EngineListError};
pub use players::table_budget::{TableBudget, TableBudgetError, TableReservation};
pub use players::{PlayerKind, PlayerSpec};
pub use records::record::{GameRecord, Termination};
pub use records::record_file::{read_record, RecordContents, RecordFileError, RecordWriter};
pub use referee::{play_game, play_game_from, PlayedGame, RefereeEvent, RefereeOptions};
pub use shard::{Shard, ShardError};
pub use statistics::elo::{paired_elo, EloEstimate, Pentanomial, SampleUnit, ScoreSample, Wdl};
pub use statistics::scoring::{Scoring, UnknownScoring};
pub use statistics::sprt::{SprtDecision, SprtError, SprtParams, SprtStatus};
pub use statistics::standings::{
    CrossCell, Crosstable, ForfeitCounts, MatchSummary, MatchTally, PlayerStanding, Standings,
    StandingsError,
};
pub use tournament::merge::{merge_records, MergeError, MergedRecords};
pub use tournament::presets::{preset, Preset, PRESETS};
pub use tournament::settings::{Format, SettingsError, TournamentSettings};
pub use tournament::{
    Entrant, GameObserver, ScheduleError, ScheduledGame, Tournament, TournamentEvent,
};
pub use zerosum_search::Threads;
