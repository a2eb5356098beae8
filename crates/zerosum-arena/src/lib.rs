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
//! report        SVG charts of records             [standings, scoring, record, elo]
//! config        tournament settings               [tournament, openings, referee, players, scoring, sprt, clock, table_budget]
//! tournament    round robins and matches          [referee, players, player, record, shard]
//! net           the game server and client        [referee, record, lines, peer_text, player, clock]
//! openings      opening suites: files, generation  [games, search]
//! referee       one game: clocks and forfeits     [seat, adjudication, player, record, clock]
//! seat          a player's place in a game        [player]
//! engine_list   external engines by name          [players]
//! shutdown      stopping everything at once       [record_file, engine_groups]
//! table_budget  engines' tables of games that come and go [players]
//! players       built-in, external, Java, human   [player, lines, peer_text, engine_groups]
//! player        the Player trait                  [clock]
//! standings     points, crosstable, Elo            [scoring, record, elo]
//! sprt          sequential tests                  [elo]
//! scoring, record_file   points per result; record files [record, shard]
//! merge         records of shards, checked as one  [config, tournament, record_file]
//! export        game files (SGF, PSQ, PGN) of records [record]
//! record        a game's record, terminations
//! clock, elo, lines, peer_text, presets, adjudication, shard, engine_groups   leaves
//! ```

mod adjudication;
pub mod clock;
pub mod config;
pub mod elo;
#[cfg(unix)]
mod engine_groups;
pub mod engine_list;
pub mod export;
mod lines;
pub mod merge;
pub mod net;
pub mod openings;
pub mod peer_text;
pub mod player;
pub mod players;
pub mod presets;
pub mod prompt;
pub mod record;
pub mod record_file;
pub mod referee;
pub mod report;
pub mod scoring;
mod seat;
pub mod shard;
pub mod shutdown;
pub mod sprt;
pub mod standings;
pub mod table_budget;
pub mod tournament;

pub use clock::TimeControl;
pub use config::{Format, SettingsError, TournamentSettings};
pub use elo::{paired_elo, EloEstimate, Pentanomial, SampleUnit, ScoreSample, Wdl};
pub use engine_list::{EngineList, EngineListError};
pub use lines::{MAX_PEER_BYTES, MAX_PEER_LINES, MAX_PEER_LINE_BYTES};
pub use merge::{merge_records, MergeError, MergedRecords};
pub use openings::{OpeningOrder, OpeningSettings, Openings, OpeningsError};
pub use player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError, Progress, Remarks};
pub use players::{PlayerKind, PlayerSpec};
pub use presets::{preset, Preset, PRESETS};
pub use record::{GameRecord, Termination};
pub use record_file::{read_record, RecordContents, RecordFileError, RecordWriter};
pub use referee::{play_game, play_game_from, PlayedGame, RefereeEvent, RefereeOptions};
pub use scoring::{Scoring, UnknownScoring};
pub use shard::{Shard, ShardError};
pub use sprt::{SprtDecision, SprtError, SprtParams, SprtStatus};
pub use standings::{
    CrossCell, Crosstable, ForfeitCounts, MatchSummary, MatchTally, PlayerStanding, Standings,
    StandingsError,
};
pub use table_budget::{TableBudget, TableBudgetError, TableReservation};
pub use tournament::{
    Entrant, GameObserver, ScheduleError, ScheduledGame, Tournament, TournamentEvent,
};
pub use zerosum_search::Threads;
