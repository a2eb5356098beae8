//! The GTP state machine: a game, the engine, the clocks, and one reply per command.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::{DynGame, GameSpec, MoveError, Outcome, SpecError, Status};
use zerosum_games::new_game;

use super::clock::GtpClock;
use super::colour::Colour;
use super::command::{format_reply, parse_command, Command};
use crate::{EngineError, EngineRequest, MoveEngine, ENGINE_NAME, ENGINE_VERSION};

/// Every command the server knows, as `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "all_legal_moves",
    "final_score",
    "zerosum-game",
    "gogui-interrupt",
];

/// Longest time `time_settings` and `time_left` accept, in seconds (a year).
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A GTP session: the game being played, the engine, the clocks. Commands go in as lines,
/// replies come out as text; nothing here reads or writes a stream (see [`super::serve`]).
pub struct GtpSession<E> {
    engine: E,
    game: Box<dyn DynGame>,
    /// The engine has not been told about this game yet.
    engine_behind: bool,
    clock: GtpClock,
    quit: bool,
    last_info: Option<String>,
}

impl<E: MoveEngine> GtpSession<E> {
    /// A session of `spec`, in its start position, the engine prepared for it.
    pub fn new(engine: E, spec: &GameSpec) -> Result<Self, SpecError> {
        let mut session = GtpSession {
            engine,
            game: new_game(spec)?,
            engine_behind: true,
            clock: GtpClock::default(),
            quit: false,
            last_info: None,
        };
        session.prepare_engine();
        Ok(session)
    }

    /// Tells the engine about the game now, so that it sets up (allocates its table) before
    /// any clock runs, not inside the first `genmove`. An engine that cannot play the game
    /// stays behind, and the first `genmove` reports why.
    fn prepare_engine(&mut self) {
        self.engine_behind = self.engine.new_game(&self.game.spec()).is_err();
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The game being played.
    pub fn game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    /// True once `quit` was answered.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// The search line of the last `genmove`, taken once.
    pub fn take_info(&mut self) -> Option<String> {
        self.last_info.take()
    }

    /// The full reply (ending in an empty line) to one input line, or `None` when the line is
    /// empty once cleaned. `stop` is raised to make a running `genmove` answer at once.
    pub fn respond(&mut self, line: &str, stop: &Arc<AtomicBool>) -> Option<String> {
        let command = parse_command(line)?;
        let result = self.execute(&command, stop);
        Some(format_reply(command.id.as_deref(), &result))
    }

    /// Runs one command: its result text, or the error message.
    pub fn execute(&mut self, command: &Command, stop: &Arc<AtomicBool>) -> Result<String, String> {
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        match (command.name.as_str(), args.as_slice()) {
            ("", _) => Err("syntax error: no command after the id".into()),
            ("protocol_version", []) => Ok("2".into()),
            ("name", []) => Ok(ENGINE_NAME.into()),
            ("version", []) => Ok(ENGINE_VERSION.into()),
            ("known_command", [name]) => Ok(COMMANDS.contains(name).to_string()),
            ("list_commands", []) => Ok(COMMANDS.join("\n")),
            ("quit", []) => {
                self.quit = true;
                Ok(String::new())
            }
            ("boardsize", sizes) => self.boardsize(sizes),
            ("clear_board", []) => {
                let spec = self.game.spec();
                self.start(&spec)
            }
            ("komi", [value]) => match value.parse::<f64>() {
                Ok(_) => Ok(String::new()),
                Err(_) => Err(format!("syntax error: komi `{value}` is not a number")),
            },
            ("play", [colour, mv]) => self.play(parse_colour(colour)?, mv),
            ("genmove", [colour]) => self.genmove(parse_colour(colour)?, stop),
            ("undo", []) => match self.game.undo() {
                true => Ok(String::new()),
                false => Err("cannot undo: no move was played".into()),
            },
            ("showboard", []) => Ok(format!("\n{}", self.game.render())),
            ("time_settings", [main, byo_time, byo_stones]) => {
                let main = parse_seconds(main)?;
                let byo_time = parse_seconds(byo_time)?;
                let byo_stones = parse_stones(byo_stones)?;
                self.clock.set(main, byo_time, byo_stones);
                Ok(String::new())
            }
            ("time_left", [colour, seconds, stones]) => {
                let colour = parse_colour(colour)?;
                self.clock
                    .set_left(colour, parse_seconds(seconds)?, parse_stones(stones)?);
                Ok(String::new())
            }
            ("all_legal_moves", []) => Ok(self.legal_moves()),
            ("all_legal_moves", [colour]) => {
                let colour = parse_colour(colour)?;
                match colour == Colour::to_move(self.game.as_ref()) {
                    true => Ok(self.legal_moves()),
                    false => Ok(String::new()),
                }
            }
            ("final_score", []) => match self.game.status() {
                Status::Ongoing => Err("cannot score: the game is not over".into()),
                Status::Over(Outcome::Draw) => Ok("0".into()),
                Status::Over(Outcome::Win(side)) => Ok(format!(
                    "{}+",
                    Colour::of(self.game.as_ref(), side).letter()
                )),
            },
            ("zerosum-game", []) => Ok(self.game.spec().to_string()),
            ("zerosum-game", [spec]) => {
                let spec = spec
                    .parse::<GameSpec>()
                    .map_err(|error| error.to_string())?;
                self.start(&spec)
            }
            ("gogui-interrupt", []) => Ok(String::new()),
            (name, _) if COMMANDS.contains(&name) => Err(format!(
                "syntax error: wrong number of arguments to {name} ({})",
                usage(name)
            )),
            (name, _) => Err(format!("unknown command: {name}")),
        }
    }

    /// A new game of `spec`; the clocks start again.
    fn start(&mut self, spec: &GameSpec) -> Result<String, String> {
        self.game = new_game(spec).map_err(|error| error.to_string())?;
        self.prepare_engine();
        self.clock.restart();
        Ok(String::new())
    }

    /// `boardsize N` or `boardsize WIDTH HEIGHT`: the same game on another board, cleared.
    fn boardsize(&mut self, sizes: &[&str]) -> Result<String, String> {
        let (width, height) = match sizes {
            [size] => (parse_size(size)?, parse_size(size)?),
            [width, height] => (parse_size(width)?, parse_size(height)?),
            _ => return Err(format!("syntax error: {}", usage("boardsize"))),
        };
        let resized = match self.game.spec() {
            GameSpec::Mnk { k, .. } => GameSpec::mnk(height, width, k),
            GameSpec::ConnectX { k, .. } => GameSpec::connectx(height, width, k),
            GameSpec::Unstable { .. } => GameSpec::unstable(height, width),
            GameSpec::Hex { swap, .. } => GameSpec::hex(width, height, swap),
            GameSpec::Atoll { .. } => {
                return Err(
                    "unacceptable size: Atoll boards are named (zerosum-game atoll:BOARD)".into(),
                )
            }
        };
        let spec = resized.map_err(|error| format!("unacceptable size: {error}"))?;
        self.start(&spec)
    }

    /// `play COLOUR MOVE`: the move of the colour to move, checked.
    fn play(&mut self, colour: Colour, mv: &str) -> Result<String, String> {
        let illegal = |reason: String| format!("illegal move: {colour} {mv} ({reason})");
        if self.game.status().is_over() {
            return Err(illegal("the game is over".into()));
        }
        let to_move = Colour::to_move(self.game.as_ref());
        if colour != to_move {
            return Err(illegal(format!("{to_move} is to move")));
        }
        self.game
            .play(mv)
            .map_err(|error| illegal(move_error_reason(&error)))?;
        Ok(String::new())
    }

    /// `genmove COLOUR`: the engine's move for the colour to move, played; `resign` when the
    /// engine resigns (the game is left as it was).
    fn genmove(&mut self, colour: Colour, stop: &Arc<AtomicBool>) -> Result<String, String> {
        if let Status::Over(_) = self.game.status() {
            return Err(format!(
                "cannot move: the game is over ({})",
                self.outcome()
            ));
        }
        let to_move = Colour::to_move(self.game.as_ref());
        if colour != to_move {
            return Err(format!("cannot move {colour}: {to_move} is to move"));
        }
        let spec = self.game.spec();
        if self.engine_behind {
            self.engine
                .new_game(&spec)
                .map_err(|error| format!("the engine cannot play {spec}: {error}"))?;
            self.engine_behind = false;
        }
        let started = Instant::now();
        let moves = self.game.history();
        let answer = self.engine.choose(&EngineRequest {
            moves: &moves,
            budget: self.clock.budget(colour),
            stop,
        });
        self.clock.spend(colour, started.elapsed());
        match answer {
            Ok(answer) => {
                let played = self
                    .game
                    .play(&answer.text)
                    .map_err(|error| format!("the engine answered an illegal move: {error}"))?;
                self.last_info = answer.info;
                Ok(played)
            }
            Err(EngineError::Resigned) => Ok("resign".into()),
            Err(EngineError::Failed(reason)) => Err(format!("the engine failed: {reason}")),
        }
    }

    fn legal_moves(&self) -> String {
        match self.game.status() {
            Status::Ongoing => self.game.legal_moves().join(" "),
            Status::Over(_) => String::new(),
        }
    }

    /// `black won`, `white won` or `draw`.
    fn outcome(&self) -> String {
        match self.game.status().winner() {
            Some(side) => format!("{} won", Colour::of(self.game.as_ref(), side)),
            None => "draw".into(),
        }
    }
}

/// The arguments a command takes, for error messages.
fn usage(name: &str) -> &'static str {
    match name {
        "known_command" => "known_command NAME",
        "boardsize" => "boardsize SIZE or boardsize WIDTH HEIGHT",
        "komi" => "komi NUMBER",
        "play" => "play COLOUR MOVE",
        "genmove" => "genmove COLOUR",
        "time_settings" => "time_settings MAIN_SECONDS BYO_YOMI_SECONDS BYO_YOMI_STONES",
        "time_left" => "time_left COLOUR SECONDS STONES",
        "all_legal_moves" => "all_legal_moves [COLOUR]",
        "zerosum-game" => "zerosum-game [SPEC]",
        _ => "no arguments",
    }
}

fn parse_colour(text: &str) -> Result<Colour, String> {
    Colour::parse(text)
        .ok_or_else(|| format!("syntax error: `{text}` is not a colour (b, black, w, white)"))
}

/// A board side: an integer (any sign, any size) or a syntax error; whether the board can
/// have it is for the game spec to say.
fn parse_size(text: &str) -> Result<usize, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "syntax error: board size `{text}` is not an integer"
        ));
    }
    match text.parse::<usize>() {
        Ok(size) => Ok(size),
        Err(_) => Err(format!("unacceptable size: {text}")),
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if (0.0..=MAX_SECONDS).contains(&seconds) => {
            Ok(Duration::from_secs_f64(seconds))
        }
        _ => Err(format!(
            "syntax error: `{text}` is not a number of seconds between 0 and {MAX_SECONDS}"
        )),
    }
}

fn parse_stones(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .map_err(|_| format!("syntax error: `{text}` is not a number of stones"))
}

/// Why a move was refused, in the words of the Hex engines (`occupied`).
fn move_error_reason(error: &MoveError) -> String {
    match error {
        MoveError::Syntax { expected, .. } => format!("not a move: {expected}"),
        MoveError::OffBoard { board, .. } => format!("off the board: {board}"),
        MoveError::Illegal { reason, .. } => (*reason).to_string(),
        MoveError::GameOver { .. } => "the game is over".into(),
        MoveError::InList { error, .. } => move_error_reason(error),
    }
}
