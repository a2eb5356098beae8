//! A game family defined in this test, and nowhere in zerosum: misère m,n,k ("avoid three"),
//! where a run of K of one's own marks **loses**. Registered at run time with
//! `zerosum_games::register`, it is searched, solved, counted, refereed, served over GTP and
//! played on the page through the very paths the five built-in families take (in process:
//! the `zerosum` binary does not know it). `docs/adding-a-game.md` walks through this file.

use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zerosum_arena::{
    play_game, GameSetup, MoveRequest, Player, PlayerError, PlayerSpec, RefereeOptions, TimeControl,
};
use zerosum_core::notation::{letters, parse_letters, split_letters_number};
use zerosum_core::{
    perft, zobrist_key, Evaluator, Game, MoveError, Outcome, Score, Side, SpecError, Status,
};
use zerosum_games::{
    new_game, register, visit_game, EvaluatedGame, Family, GameSpec, GameVisitor, Layout, SpecText,
};
use zerosum_protocol::gtp::{self, GtpSession};
use zerosum_protocol::{EngineError, EngineMove, EngineRequest, MoveEngine};
use zerosum_search::{Algorithm, AlphaBetaSolver, SearchLimits, Searcher};

// ---------------------------------------------------------------------------------------------
// The family: its spec and its facts.

/// The parameters of `misere:{rows}x{cols}x{k}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct MisereSpec {
    rows: usize,
    cols: usize,
    k: usize,
}

impl std::fmt::Display for MisereSpec {
    /// The canonical spec, which parses back to the same value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "misere:{}x{}x{}", self.rows, self.cols, self.k)
    }
}

/// Largest side: the board is one `u64` of cells.
const MAX_SIDE: usize = 8;

/// `misere:{rows}x{cols}x{k}`, if a game can be built with these sizes.
fn misere_spec(rows: usize, cols: usize, k: usize) -> Result<GameSpec, SpecError> {
    let params = MisereSpec { rows, cols, k };
    let problem = zerosum_games::side_problem("rows", rows, 1)
        .or_else(|| zerosum_games::side_problem("columns", cols, 1))
        .or_else(|| (rows > MAX_SIDE).then(|| format!("at most {MAX_SIDE} rows")))
        .or_else(|| (cols > MAX_SIDE).then(|| format!("at most {MAX_SIDE} columns")))
        .or_else(|| (!(1..=rows.max(cols)).contains(&k)).then(|| "K must fit the board".into()));
    match problem {
        None => Ok(GameSpec::new(&MisereFamily, params)),
        Some(reason) => Err(zerosum_games::invalid(&params.to_string(), reason)),
    }
}

/// Misère m,n,k.
struct MisereFamily;

impl Family for MisereFamily {
    fn name(&self) -> &'static str {
        "misere"
    }

    fn title(&self) -> &'static str {
        "Misère m,n,k"
    }

    fn forms(&self) -> &'static str {
        "misere:MxNxK"
    }

    fn rules(&self) -> &'static str {
        "M rows, N columns (1..8); a run of K or more of your own marks loses"
    }

    fn notation(&self) -> &'static str {
        "cell: column letters, row from the top (a1 top-left)"
    }

    fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[("avoid-three", "misere:3x3x3")]
    }

    fn examples(&self) -> &'static [&'static str] {
        &["misere:3x3x3", "misere:4x4x3"]
    }

    fn parse(&self, text: &SpecText<'_>) -> Result<GameSpec, SpecError> {
        let form = "misere:MxNxK";
        let d = text.dimensions(text.need_args(form)?, 3, form)?;
        text.no_options("misere")?;
        misere_spec(d[0], d[1], d[2])
    }

    fn resized(&self, spec: &GameSpec, width: usize, height: usize) -> Result<GameSpec, String> {
        let k = spec.params::<MisereSpec>().map_or(3, |params| params.k);
        misere_spec(height, width, k).map_err(|error| error.to_string())
    }

    fn layout(&self) -> Layout {
        Layout::Squares
    }

    fn win_text(&self, spec: &GameSpec, loser: &str) -> String {
        let k = spec.params::<MisereSpec>().map_or(3, |params| params.k);
        format!("{loser} made {k} in a row, framed [ ] on the board")
    }
}

/// Registers the family once for the whole test binary (tests run in parallel).
pub(crate) fn registered() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        register(&MisereFamily, |spec: &GameSpec| {
            let params = spec
                .params::<MisereSpec>()
                .ok_or_else(|| SpecError::UnknownGame(spec.to_string()))?;
            Ok(Misere::new(*params))
        })
        .expect("no other family is called misere");
    });
}

// ---------------------------------------------------------------------------------------------
// The game: the fast face search runs on.

/// A position of misère m,n,k: the marks, the moves played, the hash and the status.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Misere {
    spec: MisereSpec,
    /// The marks of each side, one bit a cell (`row * cols + col`).
    marks: [u64; 2],
    history: Vec<u8>,
    hash: u64,
    status: Status,
}

impl Misere {
    fn new(spec: MisereSpec) -> Misere {
        Misere {
            spec,
            marks: [0; 2],
            history: Vec::new(),
            hash: 0,
            status: Status::Ongoing,
        }
    }

    fn cells(&self) -> usize {
        self.spec.rows * self.spec.cols
    }

    fn owner(&self, cell: usize) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|side| self.marks[side.index()] >> cell & 1 == 1)
    }

    /// The cells of a run of K or more of `side`'s marks through `cell`, if there is one.
    fn run_through(&self, cell: usize, side: Side) -> Option<Vec<usize>> {
        let (rows, cols) = (self.spec.rows as isize, self.spec.cols as isize);
        let (row, col) = (
            (cell / self.spec.cols) as isize,
            (cell % self.spec.cols) as isize,
        );
        let mine = |r: isize, c: isize| {
            (0..rows).contains(&r)
                && (0..cols).contains(&c)
                && self.owner((r * cols + c) as usize) == Some(side)
        };
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            let mut run = vec![cell];
            for sign in [1, -1] {
                let (mut r, mut c) = (row + sign * dr, col + sign * dc);
                while mine(r, c) {
                    run.push((r * cols + c) as usize);
                    (r, c) = (r + sign * dr, c + sign * dc);
                }
            }
            if run.len() >= self.spec.k {
                run.sort_unstable();
                return Some(run);
            }
        }
        None
    }

    fn cell_name(&self, cell: usize) -> String {
        format!(
            "{}{}",
            letters(cell % self.spec.cols, false),
            cell / self.spec.cols + 1
        )
    }
}

impl Game for Misere {
    type Move = u8;

    fn to_move(&self) -> Side {
        Side::at_ply(self.history.len())
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn status(&self) -> Status {
        self.status
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if !self.status.is_over() {
            moves.extend((0..self.cells() as u8).filter(|&cell| self.owner(cell.into()).is_none()));
        }
    }

    fn all_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        moves.extend(0..self.cells() as u8);
    }

    fn illegal_reason(&self, mv: u8) -> Option<&'static str> {
        match usize::from(mv) < self.cells() {
            false => Some("off the board"),
            true => self.owner(mv.into()).map(|_| "occupied"),
        }
    }

    fn move_id(&self, mv: u8) -> usize {
        mv.into()
    }

    fn move_id_bound(&self) -> usize {
        self.cells()
    }

    fn play(&mut self, mv: u8) {
        let side = self.to_move();
        let cell = usize::from(mv);
        self.marks[side.index()] |= 1 << cell;
        self.hash ^= zobrist_key((cell * 2 + side.index()) as u64);
        self.history.push(mv);
        self.status = if self.run_through(cell, side).is_some() {
            Status::Over(Outcome::Win(side.opponent()))
        } else if self.history.len() == self.cells() {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        };
    }

    fn undo(&mut self) {
        let cell = usize::from(self.history.pop().expect("a move to take back"));
        let side = self.to_move();
        self.marks[side.index()] &= !(1 << cell);
        self.hash ^= zobrist_key((cell * 2 + side.index()) as u64);
        self.status = Status::Ongoing;
    }

    fn history(&self) -> &[u8] {
        &self.history
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        (0..self.cells())
            .filter_map(|cell| self.owner(cell).map(|side| (cell, side)))
            .fold(0, |hash, (cell, side)| {
                hash ^ zobrist_key((cell * 2 + side.index()) as u64)
            })
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let (alpha, number) = split_letters_number(text).ok_or_else(|| MoveError::Syntax {
            text: text.into(),
            expected: "a cell such as b2".into(),
        })?;
        let col = parse_letters(alpha).unwrap_or(usize::MAX);
        let row = number.wrapping_sub(1);
        if col >= self.spec.cols || row >= self.spec.rows {
            return Err(MoveError::OffBoard {
                text: text.into(),
                board: format!("{}x{}", self.spec.rows, self.spec.cols),
            });
        }
        Ok((row * self.spec.cols + col) as u8)
    }

    fn format_move(&self, mv: u8) -> String {
        self.cell_name(mv.into())
    }

    fn render(&self) -> String {
        let mut text = String::new();
        for row in 0..self.spec.rows {
            for col in 0..self.spec.cols {
                text.push(match self.owner(row * self.spec.cols + col) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    /// What [`Layout::Squares`] asks: `rows`, `cols`, `cells` (`X`, `O`, `.`), `last_move`
    /// and `winning_cells` (here the losing run).
    fn board_json(&self) -> Value {
        let cells: Vec<Vec<&str>> = (0..self.spec.rows)
            .map(|row| {
                (0..self.spec.cols)
                    .map(|col| match self.owner(row * self.spec.cols + col) {
                        Some(Side::First) => "X",
                        Some(Side::Second) => "O",
                        None => ".",
                    })
                    .collect()
            })
            .collect();
        let last = self.history.last().map(|&cell| usize::from(cell));
        let run = match (self.status, last) {
            (Status::Over(Outcome::Win(winner)), Some(cell)) => self
                .run_through(cell, winner.opponent())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        json!({
            "rows": self.spec.rows,
            "cols": self.spec.cols,
            "cells": cells,
            "last_move": last.map(|cell| self.cell_name(cell)),
            "winning_cells": run.iter().map(|&cell| self.cell_name(cell)).collect::<Vec<_>>(),
        })
    }
}

/// Knows nothing: every position is even (search on a small board reaches the end anyway).
#[derive(Clone, Copy, Debug)]
struct Even;

impl Evaluator<Misere> for Even {
    fn evaluate(&self, _game: &Misere) -> i32 {
        0
    }
}

impl EvaluatedGame for Misere {
    type Evaluator = Even;

    fn spec(&self) -> GameSpec {
        GameSpec::new(&MisereFamily, self.spec)
    }

    fn evaluator(&self) -> Even {
        Even
    }
}

// ---------------------------------------------------------------------------------------------
// Rules, search, solver: the generic code the command line runs (`perft`, `search`, `solve`).

/// Perft, a depth-9 search and the exact value of the starting position.
struct Truths;

impl GameVisitor for Truths {
    type Output = (Vec<u64>, Score, bool, Score);

    fn visit<G: EvaluatedGame>(self, mut game: G) -> Self::Output {
        let counts = (1..=9).map(|depth| perft(&mut game, depth)).collect();
        let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
        let searched = searcher.search(&game, &SearchLimits::depth(9), |_| {});
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let legal_move = searched.best_move.is_some_and(|mv| legal.contains(&mv));
        let mut solver = AlphaBetaSolver::try_new(game.evaluator(), 1).unwrap();
        let solution = solver
            .solve(&game, false, &SearchLimits::default())
            .unwrap();
        (counts, searched.score, legal_move, solution.score)
    }
}

#[test]
fn the_own_family_parses_counts_searches_and_solves_as_the_built_in_ones() {
    registered();
    let spec: GameSpec = "Avoid-Three".parse().unwrap();
    assert_eq!(spec.to_string(), "misere:3x3x3");
    assert_eq!(spec.family().name(), "misere");
    assert_eq!(spec, "misere:3x3x3".parse().unwrap());
    let refused = "misere:3x3x4".parse::<GameSpec>().unwrap_err().to_string();
    assert_eq!(
        refused,
        "bad game spec `misere:3x3x4`: K must fit the board"
    );
    assert!(zerosum_games::families()
        .iter()
        .any(|family| family.name() == "misere"));

    let (counts, searched, legal_move, solved) = visit_game(&spec, Truths).unwrap();
    // A game of misère tic-tac-toe ends when tic-tac-toe's would (a line, or a full board):
    // the same counts as the built-in tic-tac-toe, and the published ones.
    let (tictactoe, ..) = visit_game(&"tictactoe".parse().unwrap(), Truths).unwrap();
    let published = [9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872];
    assert_eq!(counts, published);
    assert_eq!(tictactoe, published);
    // Misère tic-tac-toe is a draw: the first player takes the centre and answers every move
    // with the opposite cell; the second player holds the draw too.
    assert_eq!(searched, Score::DRAW);
    assert!(legal_move);
    assert_eq!(solved, Score::DRAW);
}

// ---------------------------------------------------------------------------------------------
// The arena: the referee and the built-in players.

#[test]
fn the_referee_plays_the_own_family_with_the_built_in_players() {
    registered();
    let spec: GameSpec = "misere:3x3x3".parse().unwrap();
    let options = RefereeOptions {
        time: TimeControl::per_move(60.0),
        max_moves: None,
        adjudicate_nodes: None,
    };
    let engine: PlayerSpec = "engine:depth=9".parse().unwrap();
    let random: PlayerSpec = "random".parse().unwrap();
    // Perfect play on both sides: a draw.
    let both = play_game(
        &spec,
        [engine.build(), engine.build()],
        &options,
        1,
        &mut |_| {},
    );
    assert_eq!(both.outcome, Outcome::Draw, "{:?}", both.moves);
    // The engine never loses to chance, from either side; a random player that makes three
    // in a row loses, and the result says how.
    for seed in 0..4 {
        let engine_side = Side::at_ply(seed as usize);
        let players = match engine_side {
            Side::First => [engine.build(), random.build()],
            Side::Second => [random.build(), engine.build()],
        };
        let played = play_game(&spec, players, &options, seed, &mut |_| {});
        assert_ne!(
            played.outcome,
            Outcome::Win(engine_side.opponent()),
            "seed {seed}: {:?}",
            played.moves
        );
        let mut replay = new_game(&spec).unwrap();
        replay.play_list(&played.moves.join(",")).unwrap();
        assert_eq!(replay.status(), Status::Over(played.outcome));
    }
}

// ---------------------------------------------------------------------------------------------
// GTP: the session `zerosum gtp` serves, with a built-in player as its engine.

/// A built-in player as a GTP engine (what `zerosum gtp --engine` serves).
struct PlayerEngine(Box<dyn Player>);

impl MoveEngine for PlayerEngine {
    fn new_game(&mut self, spec: &GameSpec) -> Result<(), String> {
        let setup = GameSetup {
            spec: spec.clone(),
            side: Side::First,
            time: TimeControl::default(),
            seed: 0,
        };
        self.0.new_game(&setup).map_err(|error| error.to_string())
    }

    fn choose(&mut self, request: &EngineRequest) -> Result<EngineMove, EngineError> {
        let request = MoveRequest {
            moves: Arc::new(request.moves.to_vec()),
            limit: request.budget,
            clock: None,
            increment: Duration::ZERO,
            issued: request.issued,
            stop: Arc::clone(request.stop),
            progress: None,
        };
        match self.0.choose(&request) {
            Ok(answer) => Ok(EngineMove {
                text: answer.text,
                info: answer.comment,
            }),
            Err(PlayerError::Resigned) => Err(EngineError::Resigned),
            Err(error) => Err(EngineError::Failed(error.to_string())),
        }
    }
}

#[test]
fn a_gtp_session_serves_the_own_family() {
    registered();
    let engine = PlayerEngine("engine:depth=9".parse::<PlayerSpec>().unwrap().build());
    let mut session = GtpSession::new(engine, &"tictactoe".parse().unwrap()).unwrap();
    // The replies to `input`, served as `zerosum gtp` serves standard input.
    let mut transcript = |input: &str| -> Vec<String> {
        let mut output = Vec::new();
        let mut log = Vec::new();
        gtp::serve(
            &mut session,
            Cursor::new(input.to_string()),
            &mut output,
            &mut log,
        )
        .unwrap();
        let output = String::from_utf8(output).unwrap();
        output
            .split_terminator("\n\n")
            .map(str::to_string)
            .collect()
    };
    let first = transcript("zerosum-game avoid-three\nplay b b2\ngenmove w\n");
    assert_eq!(first[..2], ["=", "="], "{first:?}");
    let answer = first[2].strip_prefix("= ").expect("genmove answers a move");
    let cells = ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"];
    assert!(cells.contains(&answer), "{first:?}");
    let free = cells.iter().find(|&&cell| cell != answer).unwrap();
    let second = transcript(&format!(
        "play b {free}\ngogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_board\n\
         zerosum-game\nboardsize 4\nzerosum-game\nboardsize 9\n"
    ));
    assert_eq!(second[..3], ["=", "= Misere", "= 3 3"], "{second:?}");
    let board = &second[3];
    assert_eq!(board.matches('X').count(), 2, "{board}");
    assert_eq!(board.matches('O').count(), 1, "{board}");
    assert_eq!(second[4..7], ["= misere:3x3x3", "=", "= misere:4x4x3"]);
    assert_eq!(
        second[7],
        "? unacceptable size: bad game spec `misere:9x9x3`: at most 8 rows"
    );
}

// ---------------------------------------------------------------------------------------------
// The page: the web server's game API, driven as the page drives it (no browser).

/// Posts `command` to `session` on the page server at `address`; the HTTP status line.
fn post(address: &str, session: &str, command: &Value) -> String {
    let body = command.to_string();
    let mut stream = TcpStream::connect(address).expect("the server accepts");
    write!(
        stream,
        "POST /command?session={session} HTTP/1.1\r\nHost: {address}\r\n\
         Origin: http://{address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.lines().next().unwrap_or_default().to_string()
}

#[test]
fn the_page_plays_the_own_family() {
    registered();
    let server = zerosum_web::Server::bind("127.0.0.1:0").unwrap();
    let address = server.local_addr().unwrap().to_string();
    std::thread::spawn(move || server.run());

    let mut events = TcpStream::connect(&address).expect("the server accepts");
    events
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        events,
        "GET /events HTTP/1.1\r\nHost: {address}\r\nOrigin: http://{address}\r\n\r\n"
    )
    .unwrap();
    let mut lines = BufReader::new(events).lines();
    let started = Instant::now();
    let mut next_event = |wanted: &dyn Fn(&Value) -> bool| -> Value {
        loop {
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "no such event"
            );
            let line = lines.next().expect("the stream goes on").expect("a line");
            if let Some(data) = line.strip_prefix("data: ") {
                let event: Value = serde_json::from_str(data).expect("events are JSON");
                if wanted(&event) {
                    return event;
                }
            }
        }
    };
    let hello = next_event(&|event| event["type"] == "hello");
    let session = hello["session"].as_str().unwrap().to_string();
    let offered = &hello["catalog"]["families"];
    assert!(
        offered
            .as_array()
            .unwrap()
            .iter()
            .any(|family| family["name"] == "misere" && family["examples"][0] == "misere:3x3x3"),
        "{offered}"
    );

    let new =
        json!({"type": "new", "spec": "misere:3x3x3", "players": ["human", "engine:depth=9"]});
    assert!(post(&address, &session, &new).contains("204"));
    let state =
        next_event(&|event| event["type"] == "state" && event["game"]["spec"] == "misere:3x3x3");
    let game = &state["game"];
    // What the page draws the board from: a layout board.js knows, and the sides' names.
    assert_eq!(game["family"], "misere");
    assert_eq!(game["layout"], "squares");
    assert_eq!(game["sides"], json!({"first": "X", "second": "O"}));
    assert_eq!(game["board"]["cells"][1][1], ".");

    assert!(post(&address, &session, &json!({"type": "move", "move": "b2"})).contains("204"));
    let answered = next_event(&|event| event["type"] == "state" && event["game"]["ply"] == 2);
    let board = &answered["game"]["board"];
    assert_eq!(board["cells"][1][1], "X");
    let marks = board["cells"].to_string();
    assert_eq!(marks.matches("\"O\"").count(), 1, "{marks}");
    assert!(board["last_move"].is_string());
}
