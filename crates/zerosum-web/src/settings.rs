//! What every session of a server shares, set before the server runs.

use std::sync::Arc;

use zerosum_arena::{EngineList, TableBudget, Threads};

use crate::tournament_feed::{FeedTable, TournamentFeed};

/// What every session of a server shares.
pub struct ServerSettings {
    /// The external engines the page may name as players.
    pub engines: EngineList,
    /// The tournament every tab watches until it starts one of its own.
    pub watched: Option<TournamentFeed>,
    /// Threads of the page's engine players whose spec names none.
    pub engine_threads: Option<Threads>,
    /// The tournaments the tabs watch, whose finished games the page downloads.
    pub(crate) feeds: FeedTable,
    /// The memory the engines' tables of every tab's game and tournament share: half of
    /// physical memory, all together.
    pub(crate) tables: Arc<TableBudget>,
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            engines: EngineList::default(),
            watched: None,
            engine_threads: None,
            feeds: FeedTable::default(),
            tables: TableBudget::of_this_machine(),
        }
    }
}
