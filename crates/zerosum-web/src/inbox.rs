//! What a session's thread receives on its channel: the page's commands, engine replies and
//! progress, tournament events, and the end of its tab. The senders (the server, engine-move
//! threads, tournament feeds) and the session all import these types from here, and this module
//! imports none of them.

use std::sync::Arc;
use std::time::Duration;

use zerosum_arena::{MoveAnswer, Player};
use zerosum_core::Side;

use crate::messages::Command;

/// What wakes a session up.
pub enum Input {
    /// A command the page posted.
    Command(Command),
    /// An engine search ended.
    EngineReplied(EngineReply),
    /// The search numbered `generation` finished an iteration: its line.
    EngineProgress { generation: u64, line: String },
    /// The tab's event stream is gone.
    Closed,
    /// A `tournament` event of the feed numbered `feed`.
    Tournament { feed: u64, event: Arc<String> },
}

/// The outcome of an engine move ([`crate::engine_move::Job`]).
pub struct EngineReply {
    pub generation: u64,
    pub side: Side,
    /// The player back for its next move; `None` when it panicked.
    pub player: Option<Box<dyn Player>>,
    /// The move, or why there is none.
    pub answer: Result<MoveAnswer, String>,
    /// Time from the start of the job to the answer.
    pub elapsed: Duration,
}
