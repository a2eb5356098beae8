//! The referee: plays one game between two players under a time control, checks every move,
//! and ends the game by the rules, by adjudication, or by forfeit of a player that is late,
//! illegal, failing, panicking or silent. It never waits on a player without a timeout (except a
//! human's untimed move), so no player can hang it.

mod adjudication;
mod seat;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::{Outcome, Side, Status};
use zerosum_games::{new_game, DynGame, GameSpec};

use crate::clock::TimeControl;
use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError};
use crate::records::record::Termination;
use crate::referee::adjudication::Adjudicator;
use crate::referee::seat::{Reply, Seat, Silence};

/// The rules of play besides the game's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefereeOptions {
    /// The clocks.
    pub time: TimeControl,
    /// Adjudicate a draw once this many moves (plies) have been played.
    pub max_moves: Option<usize>,
    /// End the game once an exact solver proves its result within this many nodes (tried
    /// after every move).
    pub adjudicate_nodes: Option<u64>,
}

/// What the referee reports while a game runs.
pub enum RefereeEvent<'a> {
    /// The players are ready; the game starts from `game`.
    Started { game: &'a dyn DynGame },
    /// `side` played `answer` after `elapsed`; `game` is the position after it.
    Moved {
        game: &'a dyn DynGame,
        side: Side,
        answer: &'a MoveAnswer,
        elapsed: Duration,
    },
    /// A player took back the last move of each side (`moves`, in the order played); `game` is
    /// the position after the take-back, that player to move again.
    TookBack {
        game: &'a dyn DynGame,
        moves: &'a [String],
    },
}

/// A finished game as the referee saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub moves: Vec<String>,
    /// Milliseconds each turn took: one per move, and one more for a turn that lost the game
    /// (late, illegal, failing, resigned).
    pub move_ms: Vec<u64>,
    pub outcome: Outcome,
    pub termination: Termination,
    pub reason: String,
}

/// The end of a game, before it is written up.
struct Ending {
    outcome: Outcome,
    termination: Termination,
    reason: String,
}

impl Ending {
    /// `side` loses by its own fault.
    fn forfeit(side: Side, name: &str, termination: Termination, what: String) -> Ending {
        Ending {
            outcome: Outcome::Win(!side),
            termination,
            reason: format!("{side} player ({name}) {what}"),
        }
    }
}

fn seconds(duration: Duration) -> String {
    format!("{:.2} s", duration.as_secs_f64())
}

/// Plays `spec` from its start between `players` (first, second) and reports the moves to
/// `observer`. Each player gets `seed` mixed with its side.
pub fn play_game(
    spec: &GameSpec,
    players: [Box<dyn Player>; 2],
    options: &RefereeOptions,
    seed: u64,
    observer: &mut dyn FnMut(RefereeEvent<'_>),
) -> PlayedGame {
    play_game_from(spec, &[], players, options, seed, observer)
}

/// Plays `spec` after the moves `opening` (an opening of a suite, in the game's notation) as
/// [`play_game`] does from the start: the players find the opening's moves at the head of the
/// game's moves, which begin with them (0 ms each in `move_ms`), and the first-move grace goes
/// to each player's first own move.
pub fn play_game_from(
    spec: &GameSpec,
    opening: &[String],
    players: [Box<dyn Player>; 2],
    options: &RefereeOptions,
    seed: u64,
    observer: &mut dyn FnMut(RefereeEvent<'_>),
) -> PlayedGame {
    let unplayable = |reason: String| PlayedGame {
        moves: Vec::new(),
        move_ms: Vec::new(),
        outcome: Outcome::Draw,
        termination: Termination::Adjudication,
        reason,
    };
    // Specs and openings are checked before a tournament starts; these are a last line of
    // defence.
    let mut game = match new_game(spec) {
        Ok(game) => game,
        Err(error) => return unplayable(format!("the game cannot be played: {error}")),
    };
    let mut played = Vec::with_capacity(opening.len());
    for text in opening {
        match game.play(text) {
            Ok(canonical) => played.push(canonical),
            Err(error) => return unplayable(format!("the opening cannot be played: {error}")),
        }
    }
    if game.status().is_over() {
        return unplayable(format!("the opening ends the game ({})", game.status()));
    }
    let mut move_ms = vec![0; played.len()];
    let mut moves = Arc::new(played);
    let ending = referee(
        &mut *game,
        players,
        options,
        seed,
        &mut moves,
        &mut move_ms,
        observer,
    );
    PlayedGame {
        moves: Arc::unwrap_or_clone(moves),
        move_ms,
        outcome: ending.outcome,
        termination: ending.termination,
        reason: ending.reason,
    }
}

fn referee(
    game: &mut dyn DynGame,
    players: [Box<dyn Player>; 2],
    options: &RefereeOptions,
    seed: u64,
    moves: &mut Arc<Vec<String>>,
    move_ms: &mut Vec<u64>,
    observer: &mut dyn FnMut(RefereeEvent<'_>),
) -> Ending {
    let time = options.time;
    let sides = [Side::First, Side::Second];
    let [first, second] = players;
    let mut seats = Vec::with_capacity(2);
    for (side, player) in sides.into_iter().zip([first, second]) {
        let name = player.name();
        match Seat::spawn(player) {
            Ok(seat) => seats.push(seat),
            Err(error) => return Ending::forfeit(side, &name, Termination::Crash, error),
        }
    }
    // Both players set up at once (an engine may take time to allocate or load).
    for (side, seat) in sides.into_iter().zip(&seats) {
        let setup = GameSetup {
            spec: game.spec(),
            side,
            time,
            seed: seed ^ (side.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        };
        if !seat.new_game(setup) {
            return Ending::forfeit(side, seat.name(), Termination::Crash, "is gone".into());
        }
    }
    for (side, seat) in sides.into_iter().zip(&seats) {
        let timeout = (!seat.is_human()).then_some(time.watchdog + time.first_move_grace);
        let failure = match seat.wait(timeout) {
            Ok(Reply::Ready(Ok(()))) => continue,
            Ok(Reply::Ready(Err(error))) => (Termination::Crash, format!("failed: {error}")),
            Ok(Reply::Panicked(message)) => (Termination::Crash, format!("panicked: {message}")),
            Ok(Reply::Move(..)) => (Termination::Crash, "answered out of turn".into()),
            Err(Silence::TimedOut) => (
                Termination::Stalled,
                format!(
                    "did not get ready within {}{}",
                    seconds(timeout.unwrap_or_default()),
                    seat.said()
                        .map(|said| format!(" (it said: {said})"))
                        .unwrap_or_default()
                ),
            ),
            Err(Silence::Gone) => (Termination::Crash, "is gone".into()),
        };
        return Ending::forfeit(side, seat.name(), failure.0, failure.1);
    }
    observer(RefereeEvent::Started { game: &*game });

    let mut clocks = [time.base; 2];
    // The clocks before each move, to set them back when a take-back undoes it.
    let mut clocks_before = Vec::new();
    // Each player's own moves so far, for clocks whose time comes back every period of moves.
    let mut own_moves = [0usize; 2];
    // Each player's first own move comes in the two plies after the opening.
    let first_own_ply = game.ply();
    let mut adjudicator = options
        .adjudicate_nodes
        .and_then(|nodes| Adjudicator::new(&game.spec(), nodes));
    loop {
        if let Status::Over(outcome) = game.status() {
            let reason = game.status().to_string();
            return Ending {
                outcome,
                termination: Termination::Normal,
                reason,
            };
        }
        if let Some(outcome) = adjudicator.as_mut().and_then(|a| a.prove(moves)) {
            let reason = match outcome {
                Outcome::Win(side) => format!("{side} player wins by adjudication: a proven win"),
                Outcome::Draw => "draw by adjudication: a proven draw".to_string(),
            };
            return Ending {
                outcome,
                termination: Termination::Adjudication,
                reason,
            };
        }
        if let Some(max) = options.max_moves {
            if game.ply() >= max {
                return Ending {
                    outcome: Outcome::Draw,
                    termination: Termination::Adjudication,
                    reason: format!("draw by the move limit ({max} moves)"),
                };
            }
        }
        let side = game.to_move();
        let seat = &seats[side.index()];
        let first_move = game.ply() < first_own_ply + 2;
        let limit = if seat.is_human() {
            None
        } else {
            time.move_limit(clocks[side.index()], first_move)
        };
        let stop = Arc::new(AtomicBool::new(false));
        let started = Instant::now();
        let request = MoveRequest {
            moves: moves.clone(),
            limit,
            clock: clocks[side.index()],
            increment: time.increment,
            issued: started,
            stop: stop.clone(),
            progress: None,
        };
        if !seat.choose(request) {
            return Ending::forfeit(side, seat.name(), Termination::Crash, "is gone".into());
        }
        let own_time = seat.keeps_own_time();
        let allowed = limit.map(|limit| limit + seat.margin().unwrap_or(time.margin));
        let wait = match allowed {
            // A player on its own clock: the referee's is only a watchdog.
            Some(allowed) if own_time => Some(allowed + time.watchdog),
            Some(allowed) => Some(allowed),
            None if seat.is_human() => None,
            None => Some(time.watchdog),
        };
        let mut reply = seat.wait(wait);
        if matches!(reply, Ok(Reply::Move(Err(PlayerError::TakeBack), _))) {
            // Both moves were played in this game: take them back and ask again; else
            // just ask again.
            if game.ply() >= first_own_ply + 2 {
                let undone = Arc::make_mut(moves).split_off(game.ply() - 2);
                for _ in &undone {
                    game.undo();
                }
                move_ms.truncate(move_ms.len() - 2);
                clocks = clocks_before[clocks_before.len() - 2];
                clocks_before.truncate(clocks_before.len() - 2);
                own_moves = own_moves.map(|n| n.saturating_sub(1));
                observer(RefereeEvent::TookBack {
                    game: &*game,
                    moves: &undone,
                });
            }
            continue;
        }
        if matches!(reply, Err(Silence::TimedOut)) && allowed.is_some() && !own_time {
            // Late. Ask for an answer at once and see whether one comes at all.
            stop.store(true, Ordering::Relaxed);
            let grace = limit.unwrap_or_default().max(Duration::from_secs(1));
            reply = seat.wait(Some(grace.min(time.watchdog)));
        }
        if matches!(reply, Ok(Reply::Move(Err(PlayerError::Vacated), _)))
            && own_moves[side.index()] == 0
        {
            // The seat changed hands before its first move: ask its new holder, on a fresh
            // clock.
            continue;
        }
        let elapsed = match &reply {
            Ok(Reply::Move(
                Ok(MoveAnswer {
                    elapsed: Some(own), ..
                }),
                _,
            )) if own_time => *own,
            Ok(Reply::Move(_, answered)) => answered.saturating_duration_since(started),
            _ => started.elapsed(),
        };
        // Every turn's time goes into the record, a forfeited one included.
        move_ms.push(elapsed.as_millis() as u64);
        let said = seat.said();
        let answer = match judge(reply, elapsed, limit, allowed.filter(|_| !own_time), said) {
            Ok(answer) => answer,
            Err((termination, what)) => {
                return match termination {
                    Termination::Resignation => Ending {
                        outcome: Outcome::Win(!side),
                        termination,
                        reason: format!("{side} player ({}) resigns", seat.name()),
                    },
                    _ => Ending::forfeit(side, seat.name(), termination, what),
                }
            }
        };
        let canonical = match game.play(&answer.text) {
            Ok(canonical) => canonical,
            Err(error) => {
                return Ending::forfeit(
                    side,
                    seat.name(),
                    Termination::IllegalMove,
                    format!("played an illegal move: {error}"),
                )
            }
        };
        own_moves[side.index()] += 1;
        clocks_before.push(clocks);
        if let Some(clock) = &mut clocks[side.index()] {
            *clock = time.after_move(*clock, elapsed, own_moves[side.index()]);
        }
        Arc::make_mut(moves).push(canonical);
        observer(RefereeEvent::Moved {
            game: &*game,
            side,
            answer: &answer,
            elapsed,
        });
    }
}

/// The answer of one turn, or how it loses (the termination and what the player did; a
/// resignation is not a fault). `allowed` is the limit with the margin, `None` when the
/// referee does not judge the time (untimed, or a player on its own clock); `said` is what
/// the player said on the side, quoted when it is silent.
fn judge(
    reply: Result<Reply, Silence>,
    elapsed: Duration,
    limit: Option<Duration>,
    allowed: Option<Duration>,
    said: Option<String>,
) -> Result<MoveAnswer, (Termination, String)> {
    let answer = match reply {
        Ok(Reply::Move(Ok(answer), _)) => answer,
        Ok(Reply::Move(Err(PlayerError::Resigned), _)) => {
            return Err((Termination::Resignation, String::new()))
        }
        Ok(Reply::Move(Err(PlayerError::Garbage(what)), _)) => {
            return Err((
                Termination::IllegalMove,
                format!("answered garbage: {what}"),
            ))
        }
        Ok(Reply::Move(Err(PlayerError::OutOfTime(what)), _)) => {
            return Err((Termination::Timeout, format!("timed out: {what}")))
        }
        Ok(Reply::Move(Err(error), _)) => {
            return Err((Termination::Crash, format!("failed: {error}")))
        }
        Ok(Reply::Panicked(message)) => {
            return Err((Termination::Crash, format!("panicked: {message}")))
        }
        Ok(Reply::Ready(_)) | Err(Silence::Gone) => {
            return Err((Termination::Crash, "is gone".into()))
        }
        Err(Silence::TimedOut) => {
            return Err((
                Termination::Stalled,
                match said {
                    Some(said) => format!(
                        "did not answer ({} without a word; it said: {said})",
                        seconds(elapsed)
                    ),
                    None => format!("did not answer ({} without a word)", seconds(elapsed)),
                },
            ))
        }
    };
    if let (Some(limit), Some(allowed)) = (limit, allowed) {
        if elapsed > allowed {
            return Err((
                Termination::Timeout,
                format!(
                    "timed out: answered after {}, limit {}",
                    seconds(elapsed),
                    seconds(limit)
                ),
            ));
        }
    }
    Ok(answer)
}
