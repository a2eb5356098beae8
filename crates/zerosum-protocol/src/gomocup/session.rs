//! The Gomocup state machine: the board, the engine, the time limits, and the replies to each
//! line.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::notation::{letters, parse_column_row};
use zerosum_core::{MoveError, MAX_SIDE};
use zerosum_games::mnk::{self, Rule, MAX_RUN as MAX_MNK_RUN};
use zerosum_games::{new_game, DynGame, GameSpec};

use super::timing::GomocupTiming;
use crate::{EngineError, EngineRequest, MoveEngine, ENGINE_NAME, ENGINE_VERSION, MAX_LINE_BYTES};

/// The run length when the manager does not say (gomoku).
const DEFAULT_K: usize = 5;

/// A board being played.
struct Board {
    width: usize,
    height: usize,
    game: Box<dyn DynGame>,
}

/// The stones of a `BOARD` command, read until `DONE`: at most one per cell of the board, so
/// that a block that never ends holds no more than a board's worth.
#[derive(Default)]
struct BoardEntry {
    own: Vec<String>,
    theirs: Vec<String>,
    /// The cells of the board: the most stones kept.
    cells: usize,
    /// The first bad line, reported at `DONE`; once there is one, no stone is kept.
    problem: Option<String>,
}

/// A Gomocup session. Lines go in, reply lines (without line ends) come out; nothing here
/// reads or writes a stream (see [`super::serve`]).
pub struct GomocupSession<E> {
    engine: E,
    /// The run length of the next game.
    k: usize,
    /// The rule of the next game (`INFO rule`).
    rule: Rule,
    board: Option<Board>,
    /// `Some` between `BOARD` and `DONE`.
    entry: Option<BoardEntry>,
    timing: GomocupTiming,
    /// The engine has not been told about this game yet.
    engine_behind: bool,
    ended: bool,
}

impl<E: MoveEngine> GomocupSession<E> {
    /// A session waiting for `START`.
    pub fn new(engine: E) -> Self {
        GomocupSession {
            engine,
            k: DEFAULT_K,
            rule: Rule::Freestyle,
            board: None,
            entry: None,
            timing: GomocupTiming::default(),
            engine_behind: true,
            ended: false,
        }
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The game being played, once started.
    pub fn game(&self) -> Option<&dyn DynGame> {
        self.board.as_ref().map(|board| board.game.as_ref())
    }

    /// True once `END` was read.
    pub fn has_ended(&self) -> bool {
        self.ended
    }

    /// The reply lines to one input line (none for `INFO`, `END`, empty lines and the lines
    /// inside `BOARD`).
    pub fn respond(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if let Some(entry) = &mut self.entry {
            if line.eq_ignore_ascii_case("DONE") {
                let entry = self.entry.take().unwrap_or_default();
                return self.finish_board(entry);
            }
            if !line.is_empty() && entry.problem.is_none() {
                if entry.own.len() + entry.theirs.len() == entry.cells {
                    entry.problem = Some(format!(
                        "more stones than the board has cells ({})",
                        entry.cells
                    ));
                } else if let Err(problem) = read_stone(line, entry) {
                    entry.problem = Some(problem);
                }
            }
            return Vec::new();
        }
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let result = match command.to_ascii_uppercase().as_str() {
            "" => return Vec::new(),
            "START" => self.start_square(rest),
            "RECTSTART" => self.start_rectangle(rest),
            "RESTART" => self.restart(),
            "BEGIN" if rest.is_empty() => self.begin(),
            "TURN" => self.turn(rest),
            "BOARD" if rest.is_empty() => self.open_board(),
            "TAKEBACK" => self.take_back(rest),
            "INFO" => self.info(rest),
            "ABOUT" => Ok(vec![format!(
                "name=\"{ENGINE_NAME}\", version=\"{ENGINE_VERSION}\", \
                 author=\"the zerosum developers\""
            )]),
            "END" => {
                self.ended = true;
                Ok(Vec::new())
            }
            "BEGIN" | "BOARD" => Err(format!("{command} takes no arguments")),
            _ => return vec![format!("UNKNOWN command `{}`", shorten(command))],
        };
        result.unwrap_or_else(|message| vec![format!("ERROR {message}")])
    }

    /// The reply to a line longer than [`MAX_LINE_BYTES`] (inside `BOARD`, the board is
    /// refused at `DONE`).
    pub fn refuse_long_line(&mut self) -> Vec<String> {
        let problem = format!("line too long: the limit is {MAX_LINE_BYTES} bytes");
        match &mut self.entry {
            Some(entry) => {
                entry.problem.get_or_insert(problem);
                Vec::new()
            }
            None => vec![format!("ERROR {problem}")],
        }
    }

    /// `START N`.
    fn start_square(&mut self, size: &str) -> Result<Vec<String>, String> {
        let size = parse_number(size, "START takes the board size, e.g. START 15")?;
        self.start(size, size)
    }

    /// `RECTSTART W,H`.
    fn start_rectangle(&mut self, sizes: &str) -> Result<Vec<String>, String> {
        let usage = "RECTSTART takes WIDTH,HEIGHT, e.g. RECTSTART 20,15";
        let (width, height) = sizes.split_once(',').ok_or(usage)?;
        self.start(parse_number(width, usage)?, parse_number(height, usage)?)
    }

    fn start(&mut self, width: usize, height: usize) -> Result<Vec<String>, String> {
        let spec = self.spec(width, height)?;
        self.board = Some(Board {
            width,
            height,
            game: new_game(&spec).map_err(|error| error.to_string())?,
        });
        // The engine sets up (allocates its table) now, before any clock runs; one that
        // cannot play stays behind, and its first move reports why.
        self.engine_behind = self.engine.new_game(&spec).is_err();
        self.timing.restart();
        Ok(vec!["OK".into()])
    }

    /// The m,n,k spec of a `width x height` board with the run length and rule in force.
    fn spec(&self, width: usize, height: usize) -> Result<GameSpec, String> {
        mnk::spec_with_rule(height, width, self.k, self.rule)
            .map_err(|error| format!("unsupported board {width}x{height}: {error}"))
    }

    fn restart(&mut self) -> Result<Vec<String>, String> {
        let board = self.board()?;
        let (width, height) = (board.width, board.height);
        self.start(width, height)
    }

    /// `BEGIN`: the engine moves first on the empty board.
    fn begin(&mut self) -> Result<Vec<String>, String> {
        if self.board()?.game.ply() > 0 {
            return Err("BEGIN needs an empty board (RESTART first)".into());
        }
        self.engine_move()
    }

    /// `TURN X,Y`: the opponent's move, then the engine's.
    fn turn(&mut self, cell: &str) -> Result<Vec<String>, String> {
        let board = self.board_mut()?;
        let mv = cell_move(board, cell)?;
        board
            .game
            .play(&mv)
            .map_err(|error| refusal(cell, &error))?;
        if board.game.status().is_over() {
            let status = board.game.status();
            board.game.undo();
            return Err(format!(
                "{cell} ends the game ({status}): there is no move to answer"
            ));
        }
        self.engine_move()
    }

    /// `BOARD`: stone lines follow until `DONE`.
    fn open_board(&mut self) -> Result<Vec<String>, String> {
        let board = self.board()?;
        self.entry = Some(BoardEntry {
            cells: board.width * board.height,
            ..BoardEntry::default()
        });
        Ok(Vec::new())
    }

    /// `DONE`: the position of the stones read, with the engine to move, then its move. The
    /// stones of each colour are played in the order given, alternating; whoever has more
    /// stones moved first.
    fn finish_board(&mut self, entry: BoardEntry) -> Vec<String> {
        let result = (|| {
            if let Some(problem) = entry.problem {
                return Err(problem);
            }
            let (first, second) = match entry.theirs.len().checked_sub(entry.own.len()) {
                Some(0) => (&entry.own, &entry.theirs),
                Some(1) => (&entry.theirs, &entry.own),
                _ => {
                    return Err(format!(
                        "{} own and {} opponent stones: the engine cannot be to move",
                        entry.own.len(),
                        entry.theirs.len()
                    ))
                }
            };
            let board = self.board_mut()?;
            let mut game = new_game(&board.game.spec()).map_err(|error| error.to_string())?;
            let order = (0..first.len() + second.len()).map(|ply| {
                if ply % 2 == 0 {
                    &first[ply / 2]
                } else {
                    &second[ply / 2]
                }
            });
            for mv in order {
                let cell = move_cell(mv);
                game.play(mv).map_err(|error| refusal(&cell, &error))?;
            }
            if game.status().is_over() {
                return Err(format!(
                    "the game on this board is over ({})",
                    game.status()
                ));
            }
            // The same game, at another position: the engine follows any position of its
            // game, so it is not set up again inside the move's time.
            board.game = game;
            self.engine_move()
        })();
        result.unwrap_or_else(|message| vec![format!("ERROR {message}")])
    }

    /// `TAKEBACK X,Y`: takes back the last move, which must be on `X,Y`.
    fn take_back(&mut self, cell: &str) -> Result<Vec<String>, String> {
        let board = self.board_mut()?;
        let mv = cell_move(board, cell)?;
        match board.game.history().last() {
            Some(last) if *last == mv => {
                board.game.undo();
                Ok(vec!["OK".into()])
            }
            Some(last) => Err(format!(
                "cannot take back {cell}: the last move is {}",
                move_cell(last)
            )),
            None => Err(format!("cannot take back {cell}: no move was played")),
        }
    }

    /// `INFO KEY VALUE`: no reply, unless the value is refused.
    fn info(&mut self, setting: &str) -> Result<Vec<String>, String> {
        let (key, value) = setting
            .split_once(char::is_whitespace)
            .ok_or("INFO takes a key and a value")?;
        let value = value.trim();
        let milliseconds = |value: &str| -> Result<Duration, String> {
            value
                .parse::<u64>()
                .map(Duration::from_millis)
                .map_err(|_| format!("INFO {key}: `{value}` is not a number of milliseconds"))
        };
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.timing.set_turn(milliseconds(value)?),
            "timeout_match" => self.timing.set_game(milliseconds(value)?),
            "time_left" => self.timing.set_left(milliseconds(value)?),
            "max_memory" => {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("INFO max_memory: `{value}` is not a number of bytes"))?;
            }
            "rule" => return self.set_rule(value),
            "zerosum_k" => return self.set_k(value),
            // game_type, folder, evaluate and keys of later protocol versions: nothing to do.
            _ => {}
        }
        Ok(Vec::new())
    }

    /// `INFO rule N`: Gomocup's rule bits (1 exactly five, 2 continuous game, 4 renju), at
    /// once on an empty board, else from the next game. A rule the board cannot take (K is
    /// not 5) is refused and the previous rule kept.
    fn set_rule(&mut self, value: &str) -> Result<Vec<String>, String> {
        let number = value
            .parse::<u32>()
            .map_err(|_| format!("INFO rule: `{value}` is not a rule number"))?;
        let rule = Rule::from_gomocup(number).ok_or_else(|| {
            format!(
                "INFO rule {number}: zerosum plays 0 (freestyle), 1 (exactly five), 4 (renju), \
                 and 2 or 3 (0 or 1 in a continuous game)"
            )
        })?;
        let previous = std::mem::replace(&mut self.rule, rule);
        let Some(board) = &self.board else {
            return Ok(Vec::new());
        };
        if previous == rule {
            return Ok(Vec::new());
        }
        let (width, height) = (board.width, board.height);
        if board.game.ply() == 0 {
            if let Err(error) = self.start(width, height) {
                self.rule = previous;
                return Err(format!("INFO rule {number}: {error}"));
            }
            return Ok(Vec::new());
        }
        match self.spec(width, height) {
            Ok(spec) => Ok(vec![format!(
                "MESSAGE the {rule} rule applies from the next game ({spec})"
            )]),
            Err(error) => {
                self.rule = previous;
                Err(format!("INFO rule {number}: {error}"))
            }
        }
    }

    /// `INFO zerosum_k K`: the run length, at once on an empty board, else from the next game.
    fn set_k(&mut self, value: &str) -> Result<Vec<String>, String> {
        let usage = "INFO zerosum_k takes the run length, e.g. INFO zerosum_k 4";
        let k = parse_number(value, usage)?;
        if !(1..=MAX_MNK_RUN).contains(&k) {
            return Err(format!(
                "INFO zerosum_k: the run length must be between 1 and {MAX_MNK_RUN}, not {k}"
            ));
        }
        let previous = std::mem::replace(&mut self.k, k);
        let Some(board) = &self.board else {
            return Ok(Vec::new());
        };
        let (width, height) = (board.width, board.height);
        if board.game.ply() == 0 {
            // A run the empty board cannot hold is refused and the board kept.
            if let Err(error) = self.start(width, height) {
                self.k = previous;
                return Err(error);
            }
            return Ok(Vec::new());
        }
        let next = match self.spec(width, height) {
            Ok(spec) => spec.to_string(),
            Err(_) => format!("which needs a board wider or taller than {width}x{height}"),
        };
        Ok(vec![format!(
            "MESSAGE K = {k} applies from the next game ({next})"
        )])
    }

    /// The engine's move in the current position, played: a `MESSAGE` with its search line,
    /// then `X,Y`.
    fn engine_move(&mut self) -> Result<Vec<String>, String> {
        let board = self.board.as_mut().ok_or("no game: START first")?;
        if board.game.status().is_over() {
            return Err(format!("the game is over ({})", board.game.status()));
        }
        let started = Instant::now();
        if self.engine_behind {
            let spec = board.game.spec();
            self.engine
                .new_game(&spec)
                .map_err(|error| format!("the engine cannot play {spec}: {error}"))?;
            self.engine_behind = false;
        }
        let moves = board.game.history();
        let stop = Arc::new(AtomicBool::new(false));
        let answer = self.engine.choose(&EngineRequest {
            moves: &moves,
            budget: self.timing.budget(),
            issued: started,
            stop: &stop,
        });
        self.timing.spend(started.elapsed());
        let answer = match answer {
            Ok(answer) => answer,
            Err(EngineError::Resigned) => return Err("the engine resigns".into()),
            Err(EngineError::Failed(reason)) => return Err(format!("the engine failed: {reason}")),
        };
        let played = board
            .game
            .play(&answer.text)
            .map_err(|error| format!("the engine answered an illegal move: {error}"))?;
        let mut replies: Vec<String> = answer
            .info
            .map(|info| format!("MESSAGE {}", info.replace(['\r', '\n'], " ")))
            .into_iter()
            .collect();
        replies.push(move_cell(&played));
        Ok(replies)
    }

    fn board(&self) -> Result<&Board, String> {
        self.board
            .as_ref()
            .ok_or_else(|| "no game: START first".into())
    }

    fn board_mut(&mut self) -> Result<&mut Board, String> {
        self.board
            .as_mut()
            .ok_or_else(|| "no game: START first".into())
    }
}

/// A whole number; anything else (a sign, a fraction, too many digits) is refused with
/// `usage`.
fn parse_number(text: &str, usage: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("`{}` is not a size: {usage}", shorten(text)))
}

/// The m,n,k move of a Gomocup cell `X,Y` on `board`, checked against its size.
fn cell_move(board: &Board, cell: &str) -> Result<String, String> {
    let usage = format!("`{}` is not a cell X,Y", shorten(cell));
    let (x, y) = cell.split_once(',').ok_or(&usage)?;
    let x: usize = x.trim().parse().map_err(|_| &usage)?;
    let y: usize = y.trim().parse().map_err(|_| &usage)?;
    if x >= board.width || y >= board.height {
        return Err(format!(
            "{x},{y} is off the {}x{} board",
            board.width, board.height
        ));
    }
    Ok(format!("{}{}", letters(x, false), y + 1))
}

/// The Gomocup cell `X,Y` of an m,n,k move.
fn move_cell(mv: &str) -> String {
    match parse_column_row(mv) {
        Some((x, y)) => format!("{x},{y}"),
        None => mv.to_string(),
    }
}

/// Reads one `X,Y,F` line of a `BOARD` command into `entry`.
fn read_stone(line: &str, entry: &mut BoardEntry) -> Result<(), String> {
    let bad = || format!("`{}` is not a stone X,Y,F", shorten(line));
    let (cell, owner) = line.rsplit_once(',').ok_or_else(bad)?;
    let (x, y) = cell.split_once(',').ok_or_else(bad)?;
    let (x, y): (usize, usize) = (
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    );
    if x >= MAX_SIDE || y >= MAX_SIDE {
        return Err(format!(
            "{x},{y} is off every board (at most {MAX_SIDE}x{MAX_SIDE})"
        ));
    }
    let mv = format!("{}{}", letters(x, false), y + 1);
    match owner.trim() {
        "1" => entry.own.push(mv),
        "2" => entry.theirs.push(mv),
        "3" => {
            return Err(format!(
                "{x},{y},3: winning-line stones of continuous games are not supported"
            ))
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// Why the move on `cell` was refused.
fn refusal(cell: &str, error: &MoveError) -> String {
    match error {
        MoveError::Illegal { reason, .. } => format!("{cell} is {reason}"),
        MoveError::GameOver { status, .. } => format!("{cell} comes after the end ({status})"),
        error => format!("{cell}: {error}"),
    }
}

/// At most 40 characters of `text`, for error messages about long input.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}
