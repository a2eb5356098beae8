//! The GTP state machine: a game, the engine, the clocks, and one reply per command.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::capped_read;
use zerosum_core::{MoveError, Outcome, SpecError, Status};
use zerosum_formats::sgf;
use zerosum_games::hex::HexSpec;
use zerosum_games::{new_game, DynGame, GameSpec};

use super::analyze::{self, ANALYZE_COMMANDS};
use super::clock::GtpClock;
use super::colour::Colour;
use super::command::{format_reply, parse_command, Command};
use super::grid::Grid;
use super::rules;
use super::vertex::Vertices;
use crate::{
    EngineAnalysis, EngineError, EngineRequest, EngineSolution, MoveEngine, ENGINE_NAME,
    ENGINE_VERSION,
};

/// Reads the processor time this process has used, for `cputime`.
pub type CpuClock = fn() -> Option<Duration>;

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
    "gogui-analyze_commands",
    "hexgui-analyze_commands",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_board_gfx",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "kgs-time_settings",
    "cputime",
    "loadsgf",
    "zerosum-evaluate",
    "zerosum-pv",
    "zerosum-solve",
    "zerosum-solve-moves",
];

/// Largest file `loadsgf` reads, in bytes.
const MAX_SGF_BYTES: u64 = 16 << 20;

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
    /// The notation of moves between the session and its controller.
    vertices: Vertices,
    /// The process's processor time, where the platform tells it.
    cpu_clock: Option<CpuClock>,
    /// Time the engine spent on this session's commands (`cputime` without a processor clock).
    thinking: Duration,
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
            vertices: Vertices::Native,
            cpu_clock: None,
            thinking: Duration::ZERO,
        };
        session.prepare_engine();
        Ok(session)
    }

    /// The same session speaking `vertices` to its controller (GoGui's vertices for GoGui).
    pub fn with_vertices(mut self, vertices: Vertices) -> Self {
        self.vertices = vertices;
        self
    }

    /// The same session answering `cputime` from `clock` (the process's processor time)
    /// rather than from the time its engine spent thinking.
    pub fn with_cpu_clock(mut self, clock: CpuClock) -> Self {
        self.cpu_clock = Some(clock);
        self
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
            ("gogui-analyze_commands" | "hexgui-analyze_commands", []) => {
                Ok(ANALYZE_COMMANDS.join("\n"))
            }
            ("gogui-rules_game_id", []) => Ok(rules::game_id(self.game.as_ref())),
            ("gogui-rules_board_size", []) => Ok(rules::board_size(self.game.as_ref())),
            ("gogui-rules_board", []) => Ok(rules::board(self.game.as_ref())),
            ("gogui-rules_board_gfx", []) => {
                Ok(rules::board_gfx(self.game.as_ref(), self.vertices))
            }
            ("gogui-rules_legal_moves", []) => {
                Ok(rules::legal_moves(self.game.as_ref(), self.vertices))
            }
            ("gogui-rules_side_to_move", []) => Ok(rules::side_to_move(self.game.as_ref())),
            ("gogui-rules_final_result", []) => rules::final_result(self.game.as_ref()),
            ("kgs-time_settings", args) => self.kgs_time_settings(args),
            ("loadsgf", [path]) => self.load_sgf(path, None),
            ("loadsgf", [path, number]) => self.load_sgf(path, Some(number)),
            ("cputime", []) => {
                let used = self.cpu_clock.and_then(|clock| clock());
                Ok(format!(
                    "{:.3}",
                    used.unwrap_or(self.thinking).as_secs_f64()
                ))
            }
            ("zerosum-evaluate", []) => {
                let analysis = self.analyse(stop)?;
                Ok(analyze::evaluation(
                    self.game.as_ref(),
                    self.vertices,
                    &analysis,
                ))
            }
            ("zerosum-pv", []) => {
                let analysis = self.analyse(stop)?;
                Ok(analyze::variation(
                    self.game.as_ref(),
                    self.vertices,
                    &analysis,
                ))
            }
            ("zerosum-solve", []) => {
                let solution = self.solve(stop)?;
                Ok(analyze::solution(
                    self.game.as_ref(),
                    self.vertices,
                    &solution,
                ))
            }
            ("zerosum-solve-moves", []) => {
                let solution = self.solve(stop)?;
                Ok(analyze::solution_pairs(
                    self.game.as_ref(),
                    self.vertices,
                    &solution,
                ))
            }
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

    /// `boardsize N` or `boardsize WIDTH HEIGHT`: the same game on another board, cleared. In
    /// GoGui's vertices, `boardsize` of the board's width keeps the board (GoGui names boards
    /// by their width).
    fn boardsize(&mut self, sizes: &[&str]) -> Result<String, String> {
        let (width, height) = match sizes {
            // GoGui sends the width alone, whatever the board's height (and for Atoll too):
            // the board it already has is kept.
            [size]
                if self.vertices == Vertices::GoGui
                    && parse_size(size)? == Grid::of(self.game.as_ref()).width =>
            {
                let spec = self.game.spec();
                return self.start(&spec);
            }
            [size] => (parse_size(size)?, parse_size(size)?),
            [width, height] => (parse_size(width)?, parse_size(height)?),
            _ => return Err(format!("syntax error: {}", usage("boardsize"))),
        };
        let spec = self.game.spec();
        let spec = spec
            .family()
            .resized(&spec, width, height)
            .map_err(|reason| format!("unacceptable size: {reason}"))?;
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
        let native = self
            .vertices
            .read(self.game.as_ref(), mv)
            .map_err(illegal)?;
        self.game
            .play(&native)
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
        let started = Instant::now();
        self.ready_engine()?;
        let moves = self.game.history();
        let answer = self.engine.choose(&EngineRequest {
            moves: &moves,
            budget: self.clock.budget(colour),
            issued: started,
            stop,
        });
        self.clock.spend(colour, started.elapsed());
        self.thinking += started.elapsed();
        match answer {
            Ok(answer) => {
                let written = self
                    .vertices
                    .write(&Grid::of(self.game.as_ref()), &answer.text);
                let played = self
                    .game
                    .play(&answer.text)
                    .map_err(|error| format!("the engine answered an illegal move: {error}"))?;
                self.last_info = answer.info;
                Ok(match self.vertices {
                    Vertices::Native => played,
                    Vertices::GoGui => written,
                })
            }
            Err(EngineError::Resigned) => Ok("resign".into()),
            Err(EngineError::Failed(reason)) => Err(format!("the engine failed: {reason}")),
        }
    }

    fn legal_moves(&self) -> String {
        self.vertices.legal_moves(self.game.as_ref()).join(" ")
    }

    /// Tells the engine about the game if it has not heard of it yet.
    fn ready_engine(&mut self) -> Result<(), String> {
        if self.engine_behind {
            let spec = self.game.spec();
            self.engine
                .new_game(&spec)
                .map_err(|error| format!("the engine cannot play {spec}: {error}"))?;
            self.engine_behind = false;
        }
        Ok(())
    }

    /// The request for the position now, with the budget of the side to move.
    fn run_engine<T>(
        &mut self,
        what: &str,
        stop: &Arc<AtomicBool>,
        call: impl FnOnce(&mut E, &EngineRequest) -> Result<T, String>,
    ) -> Result<T, String> {
        if self.game.status().is_over() {
            return Err(format!(
                "cannot {what}: the game is over ({})",
                self.outcome()
            ));
        }
        let started = Instant::now();
        self.ready_engine()?;
        let moves = self.game.history();
        let request = EngineRequest {
            moves: &moves,
            budget: self.clock.budget(Colour::to_move(self.game.as_ref())),
            issued: started,
            stop,
        };
        let result = call(&mut self.engine, &request);
        self.thinking += started.elapsed();
        result.map_err(|error| format!("cannot {what}: {error}"))
    }

    /// The engine's analysis of the position (its clock is not charged).
    fn analyse(&mut self, stop: &Arc<AtomicBool>) -> Result<EngineAnalysis, String> {
        self.run_engine("analyse", stop, |engine, request| engine.analyse(request))
    }

    /// The engine's exact solution of the position (its clock is not charged).
    fn solve(&mut self, stop: &Arc<AtomicBool>) -> Result<EngineSolution, String> {
        self.run_engine("solve", stop, |engine, request| engine.solve(request))
    }

    /// `loadsgf FILE [MOVE_NUMBER]`: the game of an SGF file (Hex or Atoll, as `zerosum
    /// export` or HexGui writes it), up to the position before move `MOVE_NUMBER` (from 1;
    /// all moves without it). A Hex file that names no game keeps the session's swap rule
    /// when the board is the session's. The clocks start again.
    fn load_sgf(&mut self, path: &str, move_number: Option<&str>) -> Result<String, String> {
        let path = path.trim_matches('"');
        let keep = match move_number {
            None => usize::MAX,
            Some(text) => match text.parse::<usize>() {
                Ok(number) if number >= 1 => number - 1,
                _ => {
                    return Err(format!(
                        "syntax error: move number `{text}` is not a whole number from 1"
                    ))
                }
            },
        };
        let cannot = |error: String| format!("cannot load {path}: {error}");
        let text = read_text_file(path).map_err(cannot)?;
        let mut file = sgf::read(&text, None).map_err(|error| cannot(error.to_string()))?;
        let session_spec = self.game.spec();
        if let (
            Some(&HexSpec {
                width,
                height,
                swap: None,
                ..
            }),
            Some(&HexSpec {
                width: w,
                height: h,
                ..
            }),
        ) = (file.spec.params(), session_spec.params())
        {
            if (width, height) == (w, h) && !text.contains("ZS[") {
                file.spec = session_spec.clone();
            }
        }
        file.moves.truncate(keep);
        let game = file.position().map_err(|error| cannot(error.to_string()))?;
        self.game = game;
        self.prepare_engine();
        self.clock.restart();
        Ok(String::new())
    }

    /// `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS |
    /// canadian MAIN PERIOD STONES`. Japanese byo-yomi is kept as periods of one stone
    /// (Canadian byo-yomi of `PERIOD` for each move); the number of periods is not counted.
    fn kgs_time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let (main, byo_time, byo_stones) = match args {
            ["none"] => (Duration::ZERO, Duration::ZERO, 0),
            ["absolute", main] => (parse_seconds(main)?, Duration::ZERO, 0),
            ["byoyomi", main, period, periods] => {
                parse_stones(periods)?;
                (parse_seconds(main)?, parse_seconds(period)?, 1)
            }
            ["canadian", main, period, stones] => (
                parse_seconds(main)?,
                parse_seconds(period)?,
                parse_stones(stones)?,
            ),
            _ => return Err(format!("syntax error: {}", usage("kgs-time_settings"))),
        };
        self.clock.set(main, byo_time, byo_stones);
        Ok(String::new())
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
        "loadsgf" => "loadsgf FILE [MOVE_NUMBER]",
        "kgs-time_settings" => {
            "kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | \
             canadian MAIN PERIOD STONES"
        }
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

/// The text of a file of at most [`MAX_SGF_BYTES`] (a device such as `/dev/zero` is refused,
/// not read forever).
fn read_text_file(path: &str) -> Result<String, String> {
    capped_read::read_text_file(Path::new(path), MAX_SGF_BYTES)
        .map_err(|error| error.problem.to_string())
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
