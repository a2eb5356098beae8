//! What every session of a server shares, set before the server runs.

use zerosum_arena::{EngineList, Threads};

use crate::tournament_feed::{FeedTable, TournamentFeed};

/// What every session of a server shares.
#[derive(Default)]
pub struct ServerSettings {
    /// The external engines the page may name as players.
    pub engines: EngineList,
    /// The tournament every tab watches until it starts one of its own.
    pub watched: Option<TournamentFeed>,
    /// Threads of the page's engine players whose spec names none.
    pub engine_threads: Option<Threads>,
    /// The tournaments the tabs watch, whose finished games the page downloads.
    pub(crate) feeds: FeedTable,
}
