//! A player on a thread of its own (a prompt thread, see [`crate::prompt`]). The referee talks
//! to it through channels and waits with a timeout, so a player that blocks, loops or panics cannot hold the referee: a panic comes
//! back as a message, a hung thread is left behind (detached) and the game goes on without it.
//! When the game is over, a seat whose player is idle waits (boundedly) for the player to be
//! dropped, so that what it holds (an engine's processes) is released before the game is
//! reported over.

use std::any::Any;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError, Remarks};
use crate::prompt::{self, Ordinary};

/// What the referee asks of a seated player.
enum Command {
    NewGame(GameSetup),
    Choose(MoveRequest),
}

/// What comes back from the player's thread.
pub(crate) enum Reply {
    Ready(Result<(), PlayerError>),
    /// The player's move, and when it came (stamped on the player's thread, so a referee
    /// that waits for a processor does not count its own delay against the player).
    Move(Result<MoveAnswer, PlayerError>, Instant),
    /// The player panicked (the message); its thread has ended.
    Panicked(String),
}

/// Why no reply came.
pub(crate) enum Silence {
    /// Nothing within the time waited.
    TimedOut,
    /// The player's thread is gone without a word.
    Gone,
}

/// A player seated on its own thread.
pub(crate) struct Seat {
    name: String,
    human: bool,
    own_time: bool,
    remarks: Option<Remarks>,
    margin: Option<Duration>,
    commands: Sender<Command>,
    replies: Receiver<Reply>,
    /// A command was sent and its reply has not come yet.
    busy: Cell<bool>,
}

/// Longest wait, at the end of a game, for an idle player to be dropped (an external engine
/// ends its processes then, within a second).
const DROP_WAIT: Duration = Duration::from_secs(5);

fn panic_message(payload: Box<dyn Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

impl Seat {
    /// Starts `player` on a new thread, or says why a thread could not be started.
    pub(crate) fn spawn(mut player: Box<dyn Player>) -> Result<Seat, String> {
        let name = player.name();
        let human = player.is_human();
        let own_time = player.keeps_own_time();
        let remarks = player.remarks();
        let margin = player.margin();
        let (commands, inbox) = channel::<Command>();
        let (outbox, replies) = channel::<Reply>();
        thread::Builder::new()
            .name(format!("player {name}"))
            .spawn(move || {
                // For a player that only waits on timed moves: prompt while it waits for the
                // referee and while a timed move is asked, so that it wakes at once to take
                // the request up and to stamp the answer (the built-in engine: to answer at
                // its hard stop); ordinary for the rest.
                let is_prompt = player.waits_when_timed() && prompt::make_prompt();
                for command in inbox {
                    let reply = catch_unwind(AssertUnwindSafe(|| match &command {
                        Command::NewGame(setup) => {
                            let _work = Ordinary::for_now(is_prompt);
                            Reply::Ready(player.new_game(setup))
                        }
                        Command::Choose(request) => {
                            let _work = request
                                .limit
                                .is_none()
                                .then(|| Ordinary::for_now(is_prompt));
                            let answer = player.choose(request);
                            Reply::Move(answer, Instant::now())
                        }
                    }));
                    // Let go of the request first: the referee extends its move list in place.
                    drop(command);
                    let (reply, panicked) = match reply {
                        Ok(reply) => (reply, false),
                        Err(payload) => (Reply::Panicked(panic_message(payload)), true),
                    };
                    if outbox.send(reply).is_err() || panicked {
                        break;
                    }
                }
                // Before the reply channel closes, which tells the seat the player is gone
                // (ordinary: an engine ends its processes and gives its table back).
                prompt::make_ordinary();
                drop(player);
            })
            .map_err(|error| format!("cannot start a thread for {name}: {error}"))?;
        Ok(Seat {
            name,
            human,
            own_time,
            remarks,
            margin,
            commands,
            replies,
            busy: Cell::new(false),
        })
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn is_human(&self) -> bool {
        self.human
    }

    /// See [`Player::keeps_own_time`].
    pub(crate) fn keeps_own_time(&self) -> bool {
        self.own_time
    }

    /// What the player said on the side lately (see [`Player::remarks`]).
    pub(crate) fn said(&self) -> Option<String> {
        self.remarks.as_ref().and_then(Remarks::said)
    }

    /// See [`Player::margin`].
    pub(crate) fn margin(&self) -> Option<Duration> {
        self.margin
    }

    /// Sends the game setup; the answer comes through [`Seat::wait`].
    pub(crate) fn new_game(&self, setup: GameSetup) -> bool {
        self.busy.set(true);
        self.commands.send(Command::NewGame(setup)).is_ok()
    }

    /// Asks for a move; the answer comes through [`Seat::wait`].
    pub(crate) fn choose(&self, request: MoveRequest) -> bool {
        self.busy.set(true);
        self.commands.send(Command::Choose(request)).is_ok()
    }

    /// The next reply, waiting at most `timeout` (forever with `None`).
    pub(crate) fn wait(&self, timeout: Option<Duration>) -> Result<Reply, Silence> {
        let reply = match timeout {
            Some(timeout) => self.replies.recv_timeout(timeout).map_err(|e| match e {
                RecvTimeoutError::Timeout => Silence::TimedOut,
                RecvTimeoutError::Disconnected => Silence::Gone,
            }),
            None => self.replies.recv().map_err(|_| Silence::Gone),
        };
        if reply.is_ok() {
            self.busy.set(false);
        }
        reply
    }
}

impl Drop for Seat {
    /// Ends the player's thread; waits for it (at most [`DROP_WAIT`]) unless the player is a
    /// person or still busy (late, hung), whose thread is left behind.
    fn drop(&mut self) {
        let (closed, _) = channel();
        drop(std::mem::replace(&mut self.commands, closed));
        if self.human || self.busy.get() {
            return;
        }
        let give_up = Instant::now() + DROP_WAIT;
        while let Some(left) = give_up.checked_duration_since(Instant::now()) {
            if let Err(RecvTimeoutError::Disconnected) = self.replies.recv_timeout(left) {
                break;
            }
        }
    }
}
