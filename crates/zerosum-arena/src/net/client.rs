//! The client side: connects to a game server and plays one game with any player (the engine
//! by default), thinking after `YOUR_TURN` within the server's time.

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

use super::ServerMessage;
use crate::peers::lines::{Lines, NoLine};
use crate::peers::text::escape;
use crate::player::{GameSetup, MoveRequest, Player, PlayerError};
use crate::TimeControl;

/// What the client assumes when the server does not say.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// The game, for servers that send no `GAME` line (the original Unstable server).
    pub spec: GameSpec,
    /// Seconds per move, for servers that send no `TIME` line.
    pub seconds_per_move: f64,
    pub seed: u64,
    /// How long the server may say nothing before the client gives up; at least four times
    /// the time per move is waited (an opponent may think that long before the server speaks).
    pub patience: Duration,
}

impl ClientOptions {
    /// What the client waits for the server's next line with `seconds` per move.
    fn silence(&self, seconds: f64) -> Duration {
        self.patience.max(Duration::from_secs_f64(4.0 * seconds))
    }
}

/// A duration in whole seconds when it is whole (`60 s`), else with a decimal (`2.5 s`).
fn seconds_text(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}

/// Why a client game did not finish. Each message holds the whole story (no error is given
/// as the source of another, which would print it twice in a chain).
#[derive(Debug, Error)]
pub enum ClientError {
    #[error("network error: {0}")]
    Io(std::io::Error),
    #[error("the server closed the connection before the end of the game")]
    Closed,
    /// The server said nothing for this long (see [`ClientOptions::patience`]).
    #[error("the server said nothing for {}: giving up", seconds_text(*.0))]
    Silent(Duration),
    /// The server went over a peer's budget (see [`crate::MAX_PEER_BYTES`]).
    #[error("the server {0}")]
    Flood(String),
    #[error("bad game from the server: {0}")]
    BadGame(String),
    #[error("the player failed: {0}")]
    Player(PlayerError),
}

impl From<std::io::Error> for ClientError {
    fn from(error: std::io::Error) -> Self {
        ClientError::Io(error)
    }
}

impl From<PlayerError> for ClientError {
    fn from(error: PlayerError) -> Self {
        ClientError::Player(error)
    }
}

/// Plays one game on `stream` with `player`; `log` gets every line from the server (control
/// characters escaped). Returns
/// the result from this client's side (`Outcome::Win(side)` where `side` is the client's own
/// when it won).
pub fn play_client(
    stream: TcpStream,
    mut player: Box<dyn Player>,
    options: &ClientOptions,
    log: &mut dyn FnMut(&str),
) -> Result<(Side, Outcome), ClientError> {
    let lines = Lines::spawn("server".into(), stream.try_clone()?)?;
    let mut writer = stream;
    let mut spec = options.spec.clone();
    let mut seconds = options.seconds_per_move;
    let mut side = None;
    let mut moves: Vec<String> = Vec::new();
    loop {
        let silence = options.silence(seconds);
        let line =
            lines
                .next(Some(Instant::now() + silence), None)
                .map_err(|error| match error {
                    NoLine::Flood(flood) => ClientError::Flood(flood.to_string()),
                    NoLine::Late => ClientError::Silent(silence),
                    NoLine::Gone => ClientError::Closed,
                })?;
        // The server's budget counts from the last line taken.
        lines.asked();
        log(&escape(&line));
        let Some(message) = ServerMessage::parse(&line) else {
            continue;
        };
        match message {
            ServerMessage::Game(text) => {
                spec = text
                    .parse()
                    .map_err(|e| ClientError::BadGame(format!("{e}")))?;
            }
            ServerMessage::Time(value) => seconds = value,
            ServerMessage::Welcome(welcome) => {
                side = Some(welcome);
                player.new_game(&GameSetup {
                    spec: spec.clone(),
                    side: welcome,
                    time: TimeControl::per_move(seconds),
                    seed: options.seed,
                })?;
            }
            ServerMessage::OpponentMove(mv) => moves.push(mv),
            ServerMessage::YourTurn => {
                let request = MoveRequest {
                    moves: Arc::new(moves.clone()),
                    limit: Some(Duration::from_secs_f64(seconds)),
                    clock: None,
                    increment: Duration::ZERO,
                    issued: Instant::now(),
                    stop: Arc::new(AtomicBool::new(false)),
                    progress: None,
                };
                let answer = player.choose(&request)?;
                writer.write_all(format!("MOVE {}\n", answer.text).as_bytes())?;
                writer.flush()?;
                moves.push(answer.text);
            }
            ServerMessage::Victory | ServerMessage::Defeat | ServerMessage::Tie => {
                let me = side.ok_or_else(|| ClientError::BadGame("no WELCOME".into()))?;
                let outcome = match message {
                    ServerMessage::Victory => Outcome::Win(me),
                    ServerMessage::Defeat => Outcome::Win(!me),
                    _ => Outcome::Draw,
                };
                return Ok((me, outcome));
            }
            ServerMessage::ValidMove | ServerMessage::IllegalMove | ServerMessage::Message(_) => {}
        }
    }
}
