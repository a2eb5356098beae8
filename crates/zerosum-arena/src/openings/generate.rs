//! Making opening suites: random move lists from the start, distinct, reproducible from a seed,
//! and with `balanced` only those a judge finds close to even.
//!
//! **The walk.** Each opening plays `plies` moves from the start (with a range `A-B` of plies,
//! a number drawn uniformly from it for each walk), each drawn uniformly (ChaCha8 from the
//! seed) from the moves the game's evaluator offers the search (its candidate moves: on large
//! m,n,k boards the cells near the stones, the centre first; elsewhere every legal move), or
//! with `square` from the empty cells of the central square of that many cells a side (boards
//! whose cells are named by column letters and row, such as m,n,k and Hex). A walk whose game
//! ends, or after which the side to move wins at once, is dropped.
//!
//! **Distinct.** Positions are told apart by their hash key; on Connect-X a position and its
//! mirror image (columns reversed) count as one. Each position is judged once.
//!
//! **The judge** (`balanced`), see [`Judge`]:
//!
//! - Connect-X boards the exact solver fits (`cols * (rows + 1) <= 128`): the exact value
//!   (book, else solver), as Pons' score (0 a draw, else `(cells + 2 - m) / 2` for a win
//!   completed by move number `m`, negative for a loss): kept when `|score| <= threshold`,
//!   default 2: a draw, or a win only in the last moves of the board (on 7x6 no earlier than
//!   move 39 of 42);
//! - every other game: the engine's fixed-depth search (`depth`, single thread, so
//!   reproducible): kept when its score from the side to move is an evaluation (no proven
//!   result) within `-threshold..=threshold` evaluation units; defaults per family in
//!   [`Judge::default_for`];
//! - or, on any game, the game's default engine ([`Judge::Engine`]: Monte Carlo tree search
//!   on Hex and Atoll) searching a node budget, kept when its score is an evaluation within
//!   the threshold: on Hex a win rate near one half after thousands of playouts, a far better
//!   judge of a position than a two-ply search's evaluation, at a fraction of self-play's
//!   cost;
//! - or, on any game, self-play ([`Judge::SelfPlay`]): the game's default engine plays the
//!   position out against itself a few times at a small node budget, and the opening is kept
//!   when the side to move scored close to half the points. An evaluation says little of
//!   the tempo, which decides games such as gomoku and Hex between engines: on suites judged
//!   by a search's evaluation the side to move won most games from either colour (see
//!   `openings/README.md`).
//! - or self-play of any player ([`Judge::Players`]): the same, between two instances of a
//!   player the arena can run (an engine with settings, an external program such as a
//!   champion engine), each move within a time: a judge stronger than our own engine at a
//!   small budget, for suites on which strong players decide the games.
//!
//! With `threads` above one, the walks are judged in batches by that many threads, each with a
//! judge of its own (a verdict depends on the walk alone); the walks and the order in which
//! verdicts are taken are the same, so a suite does not depend on the threads.
//! On Connect-X the solver's value is costly (seconds a position at 6 plies on 7x6): a suite
//! of a few hundred takes many minutes.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zerosum_core::{notation, Evaluator, Game, Outcome, Status};
use zerosum_games::connect::{Bits, Book, ConnectSolver, ConnectSpec, ConnectX, Packed};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor, Layout, OpeningSearch};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use super::HEADER;
use crate::clock::TimeControl;
use crate::players::{default_algorithm, PlayerKind, PlayerSpec};
use crate::referee::{play_game_from, RefereeOptions};
use crate::Termination;

/// Table size of the judge's search or solver, in MB.
const JUDGE_TABLE_MB: usize = 16;

/// Walks tried per opening asked for before giving up.
const TRIES_PER_OPENING: usize = 200;

/// Walks judged together, for each judge: the threads stay busy while a slow verdict
/// finishes, and at most this many verdicts a judge are had beyond the suite's last opening.
const WALKS_PER_JUDGE: usize = 8;

/// A self-play game longer than this many moves after the opening counts as a draw (no game
/// of the families comes near it but Unstable, whose games can cycle).
const SELF_PLAY_MAX_MOVES: usize = 1000;

/// How close to even a balanced opening must be.
#[derive(Clone, Debug, PartialEq)]
pub enum Judge {
    /// The exact value (Connect-X boards the solver fits): `|Pons score| <= max_score`.
    Solver { max_score: i32 },
    /// A `depth`-ply search: an evaluation within `-window..=window`.
    Search { depth: usize, window: i32 },
    /// The game's default engine (its default algorithm: Monte Carlo tree search on Hex and
    /// Atoll, alpha-beta elsewhere) searching `nodes` nodes (playouts for Monte Carlo), one
    /// thread: an evaluation within `-window..=window` (no proven result). Monte Carlo's score
    /// is the logit of its win rate in evaluation units (400 per unit of log-odds: a window of
    /// 80 keeps win rates from 0.45 to 0.55).
    Engine { nodes: u64, window: i32 },
    /// Openings the game's default judge ([`Judge::default_for`]) keeps, then `games` games
    /// of the game's default engine against itself from the opening, both
    /// sides searching the same number of nodes a move, from `nodes` in the first game to
    /// `2 * nodes` in the last (so the games differ): kept when the side to move scored within
    /// `window` half-points of half the points (a win 2 half-points, a draw 1).
    SelfPlay {
        games: usize,
        nodes: u64,
        window: i32,
    },
    /// Openings the game's default judge keeps, then `games` games between two instances of
    /// `player` from the opening, each move within a time drawn for each game (from the
    /// position, as [`Judge::SelfPlay`] draws its budgets) from `move_ms` milliseconds to
    /// twice that: kept as [`Judge::SelfPlay`] keeps them. A player that forfeits a game
    /// (late, illegal, crashed) ends the suite with an error: its verdict would be the
    /// forfeit's. Time-limited players make the suite differ from run to run.
    Players {
        player: PlayerSpec,
        games: usize,
        move_ms: u64,
        window: i32,
    },
}

impl Judge {
    /// The judge of `spec` by default: the solver where it fits; else the family's
    /// [`zerosum_games::Family::opening_search`], an even depth (the side to move's reply is
    /// searched too) and a window in the family's evaluation units that, measured on random
    /// walks (gomoku at 6 plies, Hex, Atoll at 4, Unstable at 6),
    /// keeps roughly the middle third to half of them: m,n,k depth 4 within 50 (gomoku
    /// scores spread over about -60..+120), Hex and Atoll depth 2 within 50 (scores come in
    /// steps of about 100: this keeps the level ones), Unstable depth 2 within 5 (-14..+17),
    /// Connect-X boards too large for the solver depth 4 within 50.
    pub fn default_for(spec: &GameSpec) -> Judge {
        match spec.params::<ConnectSpec>() {
            Some(&ConnectSpec { rows, cols, .. }) if Packed::<u128>::fits(rows, cols) => {
                Judge::Solver { max_score: 2 }
            }
            _ => {
                let OpeningSearch { depth, window } = spec.family().opening_search();
                Judge::Search { depth, window }
            }
        }
    }

    /// The engine judge by default: 20,000 nodes, a window of 80 (win rates from 0.45 to
    /// 0.55 on Monte Carlo's scale).
    pub fn engine() -> Judge {
        Judge::Engine {
            nodes: 20_000,
            window: 80,
        }
    }

    /// The self-play judge by default: six games, 5,000 nodes a move in the first (playouts
    /// on Hex and Atoll, where the default engine is MCTS), kept when the side to move scored
    /// 2 to 4 of the 6 points (a window of 2 half-points). An opening the side to move wins
    /// nine times in ten passes this test about one time in nine; an even one, four times in
    /// five. (Measured on gomoku, release: about 1.1 s a game at these budgets.)
    pub fn self_play() -> Judge {
        Judge::SelfPlay {
            games: 6,
            nodes: 5_000,
            window: 2,
        }
    }

    /// The same judge with another threshold (`max_score` or `window`), depth (search), and
    /// games and nodes (self-play), where given and where the judge has them.
    pub fn with(self, tuning: &JudgeTuning) -> Judge {
        match self {
            Judge::Solver { max_score } => Judge::Solver {
                max_score: tuning.threshold.unwrap_or(max_score),
            },
            Judge::Search { depth, window } => Judge::Search {
                depth: tuning.depth.unwrap_or(depth),
                window: tuning.threshold.unwrap_or(window),
            },
            Judge::Engine { nodes, window } => Judge::Engine {
                nodes: tuning.nodes.unwrap_or(nodes),
                window: tuning.threshold.unwrap_or(window),
            },
            Judge::SelfPlay {
                games,
                nodes,
                window,
            } => Judge::SelfPlay {
                games: tuning.games.unwrap_or(games),
                nodes: tuning.nodes.unwrap_or(nodes),
                window: tuning.threshold.unwrap_or(window),
            },
            Judge::Players {
                player,
                games,
                move_ms,
                window,
            } => Judge::Players {
                player,
                games: tuning.games.unwrap_or(games),
                move_ms,
                window: tuning.threshold.unwrap_or(window),
            },
        }
    }

    /// The self-play judge of `player` at `move_ms` milliseconds a move in the first game
    /// (up to twice that), with [`Judge::self_play`]'s games and window.
    pub fn players(player: PlayerSpec, move_ms: u64) -> Judge {
        let Judge::SelfPlay { games, window, .. } = Judge::self_play() else {
            unreachable!("the self-play judge plays the engine")
        };
        Judge::Players {
            player,
            games,
            move_ms,
            window,
        }
    }

    /// How the header line states the judge: `threshold=solver:|score|<=2` or
    /// `threshold=search:depth=4,|eval|<=150`.
    pub fn describe(&self) -> String {
        match self {
            Judge::Solver { max_score } => format!("threshold=solver:|score|<={max_score}"),
            Judge::Search { depth, window } => {
                format!("threshold=search:depth={depth},|eval|<={window}")
            }
            Judge::Engine { nodes, window } => {
                format!("threshold=engine:nodes={nodes},|eval|<={window}")
            }
            Judge::SelfPlay {
                games,
                nodes,
                window,
            } => {
                format!("threshold=selfplay:games={games},nodes={nodes},|points-half|<={window}")
            }
            Judge::Players {
                player,
                games,
                move_ms,
                window,
            } => format!(
                "threshold=selfplay:player={},games={games},st={},|points-half|<={window}",
                player.display_name().replace(char::is_whitespace, "_"),
                *move_ms as f64 / 1000.0
            ),
        }
    }
}

/// Settings that replace a judge's defaults (see [`Judge::with`]); `None` keeps the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeTuning {
    /// The threshold: Pons' score (solver), evaluation units (search), half-points
    /// (self-play).
    pub threshold: Option<i32>,
    /// The search's depth.
    pub depth: Option<usize>,
    /// Self-play games.
    pub games: Option<usize>,
    /// Self-play nodes a move in the first game.
    pub nodes: Option<u64>,
}

/// How many moves an opening has: from `min` to `max` (at least 1), written `N` or `A-B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plies {
    pub min: usize,
    pub max: usize,
}

impl Plies {
    /// Exactly `plies` moves.
    pub fn exactly(plies: usize) -> Plies {
        Plies {
            min: plies,
            max: plies,
        }
    }
}

impl std::fmt::Display for Plies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

impl std::str::FromStr for Plies {
    type Err = String;

    /// `N` or `A-B` with `1 <= A <= B`.
    fn from_str(text: &str) -> Result<Plies, String> {
        let number = |part: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{text}` is not a number of plies or a range A-B"))
        };
        let plies = match text.split_once('-') {
            Some((min, max)) => Plies {
                min: number(min)?,
                max: number(max)?,
            },
            None => Plies::exactly(number(text)?),
        };
        if plies.min == 0 || plies.min > plies.max {
            return Err(format!(
                "plies `{text}`: at least 1, and a range A-B needs A <= B"
            ));
        }
        Ok(plies)
    }
}

/// What to make.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteOptions {
    /// Moves in each opening (at least 1).
    pub plies: Plies,
    /// Draw the moves from the empty cells of the central square of this many cells a side
    /// instead of the evaluator's candidates (boards of named cells only).
    pub square: Option<usize>,
    /// Openings wanted.
    pub count: usize,
    pub seed: u64,
    /// Keep only the openings this judge finds close to even.
    pub judge: Option<Judge>,
    /// Threads judging the walks (at least 1; the suite is the same for any number).
    pub threads: usize,
}

/// A suite: the header line and one line of moves per opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    pub header: String,
    pub lines: Vec<String>,
    /// Distinct positions judged (all distinct walks without `judge`).
    pub judged: usize,
    /// How many distinct positions the walks can reach at all, when they were counted (after
    /// [`MISSES_BEFORE_COUNTING`] walks in a row made none that was new) and are few enough to
    /// count ([`COUNTED_NODES`]): the suite stopped there if it holds fewer openings.
    pub available: Option<usize>,
}

impl Suite {
    /// The file: the header, then the lines, each ending in a newline.
    pub fn text(&self) -> String {
        let mut text = format!("{}\n", self.header);
        for line in &self.lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}

/// Makes a suite for `spec` (see the module documentation). It may hold fewer openings than
/// asked for when the distinct positions run out ([`Suite::available`]) or the walks do
/// (`200 * count` tries); the caller says so.
pub fn generate(spec: &GameSpec, options: &SuiteOptions) -> Result<Suite, String> {
    if options.plies.min == 0 || options.plies.min > options.plies.max || options.count == 0 {
        return Err("--plies and --count must be at least 1".into());
    }
    if options.square == Some(0) {
        return Err("--square must be at least 1".into());
    }
    match &options.judge {
        Some(Judge::Search { depth: 0, .. }) => return Err("--depth must be at least 1".into()),
        Some(Judge::SelfPlay { games: 0, .. } | Judge::Players { games: 0, .. }) => {
            return Err("--games must be at least 1".into())
        }
        Some(Judge::SelfPlay { nodes: 0, .. } | Judge::Engine { nodes: 0, .. }) => {
            return Err("--nodes must be at least 1".into())
        }
        Some(Judge::Players { move_ms: 0, .. }) => {
            return Err("the judge's time a move must be at least 1 ms".into())
        }
        Some(Judge::Players { player, .. })
            if matches!(player.kind, PlayerKind::Human | PlayerKind::Guest) =>
        {
            return Err(format!(
                "the judge must play by itself, not `{}`",
                player.display_name()
            ))
        }
        _ => {}
    }
    let mut header = format!("{HEADER}{spec} plies={}", options.plies);
    if let Some(square) = options.square {
        header.push_str(&format!(" square={square}"));
    }
    if let Some(judge) = &options.judge {
        header.push_str(&format!(" balanced {}", judge.describe()));
    }
    header.push_str(&format!(" seed={}", options.seed));
    let (lines, judged, available) =
        visit_game(spec, Walker { spec, options }).map_err(|e| e.to_string())??;
    Ok(Suite {
        header,
        lines,
        judged,
        available,
    })
}

struct Walker<'a> {
    spec: &'a GameSpec,
    options: &'a SuiteOptions,
}

impl GameVisitor for Walker<'_> {
    type Output = Result<(Vec<String>, usize, Option<usize>), String>;

    fn visit<G: EvaluatedGame>(self, start: G) -> Self::Output {
        let options = self.options;
        let walk_moves = WalkMoves::new(self.spec, &start, options.square)?;
        let judges = match &options.judge {
            None => Vec::new(),
            Some(judge) => (0..options.threads.max(1))
                .map(|_| Judging::new(&start, self.spec, judge.clone()))
                .collect::<Result<Vec<_>, _>>()?,
        };
        let mut pending = Pending {
            judges,
            waiting: Vec::new(),
            judged: 0,
        };
        // When the walks keep making positions already made, the positions there are are
        // counted (if they are few enough): the walks stop once they have made them all.
        let mut available: Option<Option<usize>> = None;
        let mut misses = 0usize;
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        let mut seen = HashSet::new();
        let mut lines = Vec::new();
        let mut moves = Vec::new();
        let tries = options.count.saturating_mul(TRIES_PER_OPENING);
        for _ in 0..tries {
            // Waiting walks are judged together, the verdicts taken in order until the
            // suite is full.
            if pending.full() {
                pending.take_verdicts(&mut lines, options.count)?;
            }
            if misses == MISSES_BEFORE_COUNTING && available.is_none() {
                available = Some(
                    (options.plies.min..=options.plies.max)
                        .map(|plies| count_positions(self.spec, &start, &walk_moves, plies))
                        .sum::<Option<usize>>(),
                );
            }
            if lines.len() == options.count || available == Some(Some(seen.len())) {
                break;
            }
            misses += 1;
            let mut game = start.clone();
            let mut over = false;
            let Plies { min, max } = options.plies;
            // One number more from the generator only for a range, so that suites of a fixed
            // number of plies stay as they were.
            let plies = if max > min {
                min + ((u128::from(rng.next_u64()) * (max - min + 1) as u128) >> 64) as usize
            } else {
                min
            };
            for _ in 0..plies {
                walk_moves.moves(&game, &mut moves);
                if moves.is_empty() {
                    over = true;
                    break;
                }
                let pick = ((u128::from(rng.next_u64()) * moves.len() as u128) >> 64) as usize;
                game.play(moves[pick]);
                if game.status().is_over() {
                    over = true;
                    break;
                }
            }
            if over || wins_at_once(&mut game) {
                continue;
            }
            if !seen.insert(position_key(self.spec, &start, &game)) {
                continue;
            }
            misses = 0;
            if pending.judges.is_empty() {
                lines.push(move_line(&game));
            } else {
                pending.waiting.push(game);
            }
        }
        // Walks left waiting when the tries ran out.
        if lines.len() < options.count {
            pending.take_verdicts(&mut lines, options.count)?;
        }
        let judged = if pending.judges.is_empty() {
            seen.len()
        } else {
            pending.judged
        };
        Ok((lines, judged, available.flatten()))
    }
}

/// Where the walks draw their moves from.
enum WalkMoves<G: EvaluatedGame> {
    /// The evaluator's candidate moves, or every legal move when it offers none.
    Candidates(G::Evaluator),
    /// The legal moves named by a cell of the central square (by name).
    Square(HashSet<String>),
}

impl<G: EvaluatedGame> WalkMoves<G> {
    /// The candidates, or with `square` the cells of the central square of `square` cells a
    /// side of `start`'s board; an error if the board is smaller or its cells are not named by
    /// column letters and row.
    fn new(spec: &GameSpec, start: &G, square: Option<usize>) -> Result<Self, String> {
        let Some(side) = square else {
            return Ok(WalkMoves::Candidates(start.evaluator()));
        };
        let layout = spec.family().layout();
        if !matches!(layout, Layout::Squares | Layout::Hexes | Layout::Islands) {
            return Err(format!(
                "--square needs a board of cells named by column letters and row (m,n,k, Hex, \
                 Atoll), not {spec}"
            ));
        }
        let board = start.board_json();
        let size = |key: &str| board[key].as_u64().map(|n| n as usize);
        let (Some(rows), Some(cols)) = (size("rows"), size("cols")) else {
            return Err(format!("{spec} has no board size for --square"));
        };
        if side > rows || side > cols {
            return Err(format!(
                "--square {side} is larger than the board of {spec} ({rows} x {cols})"
            ));
        }
        let (top, left) = ((rows - side) / 2, (cols - side) / 2);
        let names = (top..top + side)
            .flat_map(|row| {
                (left..left + side)
                    .map(move |col| format!("{}{}", notation::letters(col, false), row + 1))
            })
            .collect();
        Ok(WalkMoves::Square(names))
    }

    /// The moves a walk draws from in `game`, into `moves`.
    fn moves(&self, game: &G, moves: &mut Vec<G::Move>) {
        match self {
            WalkMoves::Candidates(evaluator) => {
                evaluator.candidate_moves(game, moves);
                if moves.is_empty() {
                    game.legal_moves(moves);
                }
            }
            WalkMoves::Square(names) => {
                game.legal_moves(moves);
                moves.retain(|&mv| names.contains(&game.format_move(mv)));
            }
        }
    }
}

/// Walks in a row that make no new position before the positions there are are counted.
const MISSES_BEFORE_COUNTING: usize = 1000;

/// Most positions [`count_positions`] visits before it gives up: a game with more has more
/// openings than any suite needs.
const COUNTED_NODES: usize = 1 << 20;

/// The distinct positions (as [`position_key`] tells them apart) that walks of `plies` moves
/// from `start` reach and keep (not over, no win at once for the side to move), moving as the
/// walks do; `None` when that takes more than [`COUNTED_NODES`] positions to find out.
fn count_positions<G: EvaluatedGame>(
    spec: &GameSpec,
    start: &G,
    walk_moves: &WalkMoves<G>,
    plies: usize,
) -> Option<usize> {
    struct Count<'a, G: EvaluatedGame> {
        spec: &'a GameSpec,
        start: &'a G,
        walk_moves: &'a WalkMoves<G>,
        keys: HashSet<u64>,
        nodes: usize,
    }
    fn walk<G: EvaluatedGame>(count: &mut Count<'_, G>, game: &mut G, left: usize) -> bool {
        count.nodes += 1;
        if count.nodes > COUNTED_NODES {
            return false;
        }
        if left == 0 {
            if !wins_at_once(game) {
                let key = position_key(count.spec, count.start, game);
                count.keys.insert(key);
            }
            return true;
        }
        let mut moves = Vec::new();
        count.walk_moves.moves(game, &mut moves);
        for mv in moves {
            game.play(mv);
            let within = game.status().is_over() || walk(count, game, left - 1);
            game.undo();
            if !within {
                return false;
            }
        }
        true
    }
    let mut count = Count {
        spec,
        start,
        walk_moves,
        keys: HashSet::new(),
        nodes: 0,
    };
    walk(&mut count, &mut start.clone(), plies).then_some(count.keys.len())
}

/// The judges, and the walks waiting for their verdicts.
struct Pending<G: EvaluatedGame> {
    /// One a thread; none when the suite is not judged.
    judges: Vec<Judging<G>>,
    /// Walks waiting for a verdict, in the order they were made.
    waiting: Vec<G>,
    /// Verdicts taken.
    judged: usize,
}

impl<G: EvaluatedGame> Pending<G> {
    /// True when the judges have [`WALKS_PER_JUDGE`] walks each waiting.
    fn full(&self) -> bool {
        !self.judges.is_empty() && self.waiting.len() == WALKS_PER_JUDGE * self.judges.len()
    }

    /// Judges the waiting walks, then adds the kept ones to `lines` in order until it holds
    /// `count`; the first judge's error in that order, if any.
    fn take_verdicts(&mut self, lines: &mut Vec<String>, count: usize) -> Result<(), String> {
        if self.waiting.is_empty() {
            return Ok(());
        }
        let verdicts = judge_all(&mut self.judges, &self.waiting);
        for (game, keep) in self.waiting.drain(..).zip(verdicts) {
            if lines.len() == count {
                break;
            }
            self.judged += 1;
            if keep? {
                lines.push(move_line(&game));
            }
        }
        Ok(())
    }
}

/// The moves of `game` from the start, as a suite's line.
fn move_line<G: Game>(game: &G) -> String {
    let line: Vec<String> = game
        .history()
        .iter()
        .map(|&mv| game.format_move(mv))
        .collect();
    line.join(",")
}

/// The verdicts on `games`, in their order. With several judges, each on a thread of its own
/// takes the next game not yet taken, so a slow verdict holds up no other thread.
fn judge_all<G: EvaluatedGame>(
    judges: &mut [Judging<G>],
    games: &[G],
) -> Vec<Result<bool, String>> {
    if judges.len() == 1 {
        return games
            .iter()
            .map(|game| judges[0].close_to_even(game))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let verdicts: Vec<OnceLock<Result<bool, String>>> =
        games.iter().map(|_| OnceLock::new()).collect();
    std::thread::scope(|scope| {
        for judge in judges.iter_mut() {
            let (next, verdicts) = (&next, &verdicts);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(game) = games.get(index) else {
                    break;
                };
                let _ = verdicts[index].set(judge.close_to_even(game));
            });
        }
    });
    // A game whose judge panicked has no verdict and is not kept (it never happens: searches
    // of ongoing positions return a move).
    verdicts
        .into_iter()
        .map(|verdict| verdict.into_inner().unwrap_or(Ok(false)))
        .collect()
}

/// True when the side to move in `game` (ongoing) has a move that wins at once.
fn wins_at_once<G: Game>(game: &mut G) -> bool {
    let mover = game.to_move();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        game.play(mv);
        let wins = game.status() == Status::Over(Outcome::Win(mover));
        game.undo();
        wins
    })
}

/// The key that tells positions apart: the hash, or on Connect-X the smaller of the hashes of
/// the position and of its mirror image (the same moves in reversed columns).
fn position_key<G: Game>(spec: &GameSpec, start: &G, game: &G) -> u64 {
    let Some(&ConnectSpec { cols, .. }) = spec.params() else {
        return game.hash();
    };
    let mut mirror = start.clone();
    for &mv in game.history() {
        let column: usize = game.format_move(mv).parse().unwrap_or(0);
        let reflected = (cols + 1).saturating_sub(column).to_string();
        match mirror.parse_move(&reflected) {
            Ok(mv) => mirror.play(mv),
            Err(_) => return game.hash(),
        }
    }
    game.hash().min(mirror.hash())
}

/// A judge at work on one game type.
enum Judging<G: EvaluatedGame> {
    /// Pons' score of the position a move list reaches.
    Solver { score: PonsScore, max_score: i32 },
    /// A search (fixed-depth alpha-beta, or the default engine's by nodes) whose score must
    /// be an evaluation within `-window..=window`.
    Search {
        searcher: Box<Searcher<G, G::Evaluator>>,
        limits: SearchLimits,
        window: i32,
    },
    SelfPlay {
        /// The game's default judge, asked first: self-play is costly, and most walks the
        /// evaluation finds lopsided are.
        first: Box<Judging<G>>,
        /// The engine of the side to move in the opening, and of the other side.
        players: Box<[Searcher<G, G::Evaluator>; 2]>,
        games: usize,
        nodes: u64,
        window: i32,
    },
    Players {
        /// The game's default judge, asked first.
        first: Box<Judging<G>>,
        spec: GameSpec,
        player: PlayerSpec,
        games: usize,
        move_ms: u64,
        window: i32,
    },
}

/// Pons' exact score of the Connect-X position a list of moves (text) reaches; `None` when it
/// cannot be had.
type PonsScore = Box<dyn FnMut(&str) -> Option<i32> + Send>;

impl<G: EvaluatedGame> Judging<G> {
    fn new(start: &G, spec: &GameSpec, judge: Judge) -> Result<Self, String> {
        let engine = || {
            Searcher::try_new(start.evaluator(), default_algorithm(spec), JUDGE_TABLE_MB)
                .map_err(|e| e.to_string())
        };
        Ok(match judge {
            Judge::Solver { max_score } => Judging::Solver {
                score: pons_scorer(&start.spec())
                    .ok_or_else(|| format!("{} has no exact solver", start.spec()))?,
                max_score,
            },
            Judge::Search { depth, window } => Judging::Search {
                searcher: Box::new(
                    Searcher::try_new(start.evaluator(), Algorithm::default(), JUDGE_TABLE_MB)
                        .map_err(|e| e.to_string())?,
                ),
                limits: SearchLimits::depth(depth),
                window,
            },
            Judge::Engine { nodes, window } => Judging::Search {
                searcher: Box::new(engine()?),
                limits: SearchLimits::nodes(nodes),
                window,
            },
            Judge::SelfPlay {
                games,
                nodes,
                window,
            } => Judging::SelfPlay {
                first: Box::new(Judging::new(start, spec, Judge::default_for(spec))?),
                players: Box::new([engine()?, engine()?]),
                games,
                nodes,
                window,
            },
            Judge::Players {
                player,
                games,
                move_ms,
                window,
            } => Judging::Players {
                first: Box::new(Judging::new(start, spec, Judge::default_for(spec))?),
                spec: spec.clone(),
                player,
                games,
                move_ms,
                window,
            },
        })
    }

    /// True when `game` (ongoing, no win at once) is close enough to even; an error when a
    /// judge's game did not end on the board.
    fn close_to_even(&mut self, game: &G) -> Result<bool, String> {
        match self {
            Judging::Solver { score, max_score } => {
                Ok(score(&move_line(game)).is_some_and(|score| score.abs() <= *max_score))
            }
            Judging::Search {
                searcher,
                limits,
                window,
            } => {
                searcher.clear();
                let score = searcher.search(game, limits, |_| {}).score;
                Ok(!score.is_decisive() && score.0.abs() <= *window)
            }
            Judging::SelfPlay {
                first,
                players,
                games,
                nodes,
                window,
            } => {
                if !first.close_to_even(game)? {
                    return Ok(false);
                }
                let nodes = *nodes;
                scores_about_half(game, *games, *window, |rng| {
                    let mut budget =
                        || nodes.saturating_add(rng.next_u64() % nodes.saturating_mul(3));
                    let budgets = [budget(), budget()];
                    Ok(self_play_half_points(players, game, budgets))
                })
            }
            Judging::Players {
                first,
                spec,
                player,
                games,
                move_ms,
                window,
            } => {
                if !first.close_to_even(game)? {
                    return Ok(false);
                }
                let move_ms = *move_ms;
                scores_about_half(game, *games, *window, |rng| {
                    let ms = move_ms.saturating_add(rng.next_u64() % move_ms.saturating_add(1));
                    players_half_points(spec, player, game, ms, rng.next_u64())
                })
            }
        }
    }
}

/// Whether the side to move in `opening` scores within `window` half-points of half the
/// points in `games` games, each played by `play` (given a generator seeded from the
/// position and the game's number, for its budgets) and scored in the side to move's
/// half-points; the games stop once the rest cannot change the verdict.
fn scores_about_half<G: Game>(
    opening: &G,
    games: usize,
    window: i32,
    mut play: impl FnMut(&mut ChaCha8Rng) -> Result<u8, String>,
) -> Result<bool, String> {
    let (games, window) = (games as i64, i64::from(window));
    let (low, high) = (games - window, games + window);
    let mut half_points = 0;
    for played in 0..games {
        let left = 2 * (games - played);
        if half_points > high || half_points + left < low {
            return Ok(false);
        }
        if half_points >= low && half_points + left <= high {
            return Ok(true);
        }
        // Each game's budgets drawn anew (from the position, so reproducible): the games of
        // one engine at one budget would all be one.
        let mut rng = ChaCha8Rng::seed_from_u64(opening.hash() ^ played as u64);
        half_points += i64::from(play(&mut rng)?);
    }
    Ok((low..=high).contains(&half_points))
}

/// Plays `opening` (ongoing) out between two fresh instances of `player` (`spec`'s game), each
/// move within `move_ms` milliseconds (late answers forgiven up to a second and four times
/// that), with `seed` for the players; the side to move's
/// half-points (as [`self_play_half_points`]), or an error naming the opening when the game
/// did not end on the board (a forfeit).
fn players_half_points<G: Game>(
    spec: &GameSpec,
    player: &PlayerSpec,
    opening: &G,
    move_ms: u64,
    seed: u64,
) -> Result<u8, String> {
    let line = move_line(opening);
    let moves: Vec<String> = line.split(',').map(String::from).collect();
    // The players are told the time; the referee forgives lateness up to a second and four
    // times the time more, so that a judge on a loaded machine forfeits nothing.
    let time = TimeControl {
        margin: Duration::from_millis(move_ms.saturating_mul(4).saturating_add(1000)),
        ..TimeControl::per_move(move_ms as f64 / 1000.0)
    };
    let options = RefereeOptions {
        time,
        max_moves: Some(opening.ply() + SELF_PLAY_MAX_MOVES),
        adjudicate_nodes: None,
    };
    let played = play_game_from(
        spec,
        &moves,
        [player.build(), player.build()],
        &options,
        seed,
        &mut |_| {},
    );
    if !matches!(
        played.termination,
        Termination::Normal | Termination::Adjudication
    ) {
        return Err(format!(
            "a judge's game after {line} did not end on the board: {}",
            played.reason
        ));
    }
    let mover = opening.to_move();
    Ok(match played.outcome {
        Outcome::Win(winner) if winner == mover => 2,
        Outcome::Win(_) => 0,
        Outcome::Draw => 1,
    })
}

/// Plays `opening` (ongoing) out between `players[0]`, for the side to move, and `players[1]`,
/// both cleared first, each searching its `nodes` a move; the side to move's half-points: 2
/// for a win, 1 for a draw (or a game still going after [`SELF_PLAY_MAX_MOVES`] moves), 0 for
/// a loss.
fn self_play_half_points<G: EvaluatedGame>(
    players: &mut [Searcher<G, G::Evaluator>; 2],
    opening: &G,
    nodes: [u64; 2],
) -> u8 {
    for player in players.iter_mut() {
        player.clear();
    }
    let mover = opening.to_move();
    let mut game = opening.clone();
    let limits = nodes.map(SearchLimits::nodes);
    for turn in 0..SELF_PLAY_MAX_MOVES {
        if let Status::Over(outcome) = game.status() {
            return match outcome {
                Outcome::Win(winner) if winner == mover => 2,
                Outcome::Win(_) => 0,
                Outcome::Draw => 1,
            };
        }
        let Some(mv) = players[turn % 2]
            .search(&game, &limits[turn % 2], |_| {})
            .best_move
        else {
            break;
        };
        game.play(mv);
    }
    1
}

/// Pons' score from the opening book where it has every move's value, else from the solver,
/// on the Connect-X boards the solver fits; `None` for other games.
fn pons_scorer(spec: &GameSpec) -> Option<PonsScore> {
    let &ConnectSpec { rows, cols, k, .. } = spec.params()?;
    if Packed::<u64>::fits(rows, cols) {
        Some(pons_scorer_for::<u64>(rows, cols, k))
    } else if Packed::<u128>::fits(rows, cols) {
        Some(pons_scorer_for::<u128>(rows, cols, k))
    } else {
        None
    }
}

fn pons_scorer_for<B: Bits>(rows: usize, cols: usize, k: usize) -> PonsScore {
    let start = ConnectX::<Packed<B>>::new(rows, cols, k);
    let mut solver = ConnectSolver::<B>::new(rows, cols, k, JUDGE_TABLE_MB);
    let book = Book::for_board(rows, cols, k);
    Box::new(move |moves| {
        let mut game = start.clone();
        game.play_list(moves).ok()?;
        let from_book = book
            .and_then(|book| book.analyze(&game))
            .and_then(|values| values.into_iter().collect::<Option<Vec<i32>>>())
            .and_then(|values| values.into_iter().max());
        from_book.or_else(|| solver.solve(&game, false).ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::Openings;
    use zerosum_core::Score;

    fn suite(spec: &str, plies: usize, count: usize, judge: Option<Judge>) -> Suite {
        let options = SuiteOptions {
            plies: Plies::exactly(plies),
            square: None,
            count,
            seed: 5,
            judge,
            threads: 1,
        };
        generate(&spec.parse().unwrap(), &options).unwrap()
    }

    #[test]
    fn a_suite_stops_at_the_positions_there_are() {
        // Connect Four after one move: 7 columns, mirror images alike, so 4 positions.
        let made = suite("connect4", 1, 1_000_000, None);
        assert_eq!((made.lines.len(), made.available), (4, Some(4)));
        // Tic-tac-toe after 3 moves: 9 * 8 * 7 walks, 252 distinct positions.
        let made = suite("tictactoe", 3, usize::MAX, None);
        assert_eq!((made.lines.len(), made.available), (252, Some(252)));
        // Plenty of positions: none counted.
        assert_eq!(suite("gomoku", 6, 3, None).available, None);
    }

    #[test]
    fn suites_are_distinct_reproducible_and_read_back() {
        let spec: GameSpec = "connect4".parse().unwrap();
        let made = suite("connect4", 4, 40, None);
        assert_eq!(made, suite("connect4", 4, 40, None));
        assert_eq!(made.lines.len(), 40);
        assert_eq!(
            made.header,
            "# zerosum openings connectx:6x7x4 plies=4 seed=5"
        );
        let read = Openings::parse(&made.text(), "suite", &spec, None).unwrap();
        assert_eq!(read.len(), 40);
        // No two openings are the same position or mirror images of each other.
        let mirrored = |line: &Vec<String>| -> Vec<String> {
            line.iter()
                .map(|c| (8 - c.parse::<usize>().unwrap()).to_string())
                .collect()
        };
        let hash = |line: &Vec<String>| {
            let mut game = zerosum_games::new_game(&spec).unwrap();
            game.play_list(&line.join(",")).unwrap();
            game.hash()
        };
        let mut positions = HashSet::new();
        for line in &read.lines {
            let key = hash(line).min(hash(&mirrored(line)));
            assert!(positions.insert(key), "{line:?} twice");
        }
    }

    #[test]
    fn the_solver_keeps_draws_and_late_wins_only() {
        let made = suite(
            "connectx:4x5x3",
            3,
            10,
            Some(Judge::Solver { max_score: 2 }),
        );
        assert!(made
            .header
            .ends_with("balanced threshold=solver:|score|<=2 seed=5"));
        let spec: GameSpec = "connectx:4x5x3".parse().unwrap();
        for line in &made.lines {
            let mut game = zerosum_games::connect::ConnectX64::new(4, 5, 3);
            game.play_list(line).unwrap();
            let mut solver = ConnectSolver::new(4, 5, 3, 16);
            let score = solver.solve(&game, false).unwrap();
            assert!(score.abs() <= 2, "{line}: {score}");
        }
        assert_eq!(
            Openings::parse(&made.text(), "suite", &spec, None)
                .unwrap()
                .len(),
            made.lines.len()
        );
    }

    #[test]
    fn the_search_judge_keeps_evaluations_within_the_window() {
        let made = suite(
            "tictactoe",
            2,
            5,
            Some(Judge::Search {
                depth: 9,
                window: 0,
            }),
        );
        // Tic-tac-toe searched to the end: every kept opening is a proven draw (score 0).
        assert!(!made.lines.is_empty());
        for line in &made.lines {
            let mut game = zerosum_games::new_game(&"tictactoe".parse().unwrap()).unwrap();
            game.play_list(line).unwrap();
            assert!(!game.status().is_over());
        }
    }

    #[test]
    fn self_play_keeps_the_openings_perfect_players_draw() {
        // Tic-tac-toe after three moves: the side to move (O) has lost some positions and holds
        // the draw in the others; the engine at these budgets plays both perfectly, so with a
        // window of 0 (a draw, or a win each) exactly the drawn ones are kept.
        let judge = Judge::SelfPlay {
            games: 2,
            nodes: 4000,
            window: 0,
        };
        let made = suite("tictactoe", 3, 200, Some(judge));
        assert!(made
            .header
            .ends_with("balanced threshold=selfplay:games=2,nodes=4000,|points-half|<=0 seed=5"));
        assert!(!made.lines.is_empty());
        assert!(made.lines.len() < made.judged, "nothing was turned down");
        let spec = "tictactoe".parse().unwrap();
        for line in &made.lines {
            let value = zerosum_games::visit_game(&spec, ValueOf(line.clone())).unwrap();
            assert_eq!(value, Score::DRAW, "{line} is not a draw");
        }
    }

    #[test]
    fn a_player_judge_keeps_the_openings_it_draws_and_stops_at_a_forfeit() {
        // As above, with two instances of a player of the arena (the engine searching to the
        // end, so perfect) instead of the default engine at a budget.
        let engine: PlayerSpec = "engine:depth=9".parse().unwrap();
        let judge = Judge::Players {
            player: engine,
            games: 2,
            move_ms: 1000,
            window: 0,
        };
        let made = suite("tictactoe", 3, 200, Some(judge));
        assert!(made.header.ends_with(
            "balanced threshold=selfplay:player=engine:depth=9,games=2,st=1,|points-half|<=0 \
             seed=5"
        ));
        assert!(!made.lines.is_empty());
        assert!(made.lines.len() < made.judged, "nothing was turned down");
        let spec: GameSpec = "tictactoe".parse().unwrap();
        for line in &made.lines {
            let value = zerosum_games::visit_game(&spec, ValueOf(line.clone())).unwrap();
            assert_eq!(value, Score::DRAW, "{line} is not a draw");
        }
        assert_eq!(
            Openings::parse(&made.text(), "suite", &spec, None)
                .unwrap()
                .len(),
            made.lines.len()
        );
        // A player that cannot start forfeits its first game: the suite ends with the reason.
        let missing = Judge::Players {
            player: "cmd=/nonexistent/judge,proto=gtp".parse().unwrap(),
            games: 2,
            move_ms: 100,
            window: 0,
        };
        let options = SuiteOptions {
            plies: Plies::exactly(3),
            square: None,
            count: 3,
            seed: 5,
            judge: Some(missing),
            threads: 2,
        };
        let error = generate(&spec, &options).unwrap_err();
        assert!(
            error.starts_with("a judge's game after ") && error.contains("/nonexistent/judge"),
            "{error}"
        );
        assert!(!error.contains('\n'), "{error}");
        // A judge that cannot play by itself is refused before any walk.
        let human = SuiteOptions {
            judge: Some(Judge::players("human".parse().unwrap(), 100)),
            ..options
        };
        assert_eq!(
            generate(&spec, &human).unwrap_err(),
            "the judge must play by itself, not `human`"
        );
    }

    /// The exact value of the tic-tac-toe position after a move list, by a full-depth search.
    struct ValueOf(String);

    impl GameVisitor for ValueOf {
        type Output = Score;
        fn visit<G: EvaluatedGame>(self, mut game: G) -> Score {
            game.play_list(&self.0).unwrap();
            let mut searcher = Searcher::new(game.evaluator(), Algorithm::default(), 1);
            searcher
                .search(&game, &SearchLimits::depth(9), |_| {})
                .score
        }
    }

    #[test]
    fn threads_judge_the_same_suite() {
        let judge = Judge::SelfPlay {
            games: 2,
            nodes: 300,
            window: 1,
        };
        let spec: GameSpec = "mnk:5x5x4".parse().unwrap();
        let made = |threads| {
            let options = SuiteOptions {
                plies: Plies::exactly(3),
                square: None,
                count: 6,
                seed: 9,
                judge: Some(judge.clone()),
                threads,
            };
            generate(&spec, &options).unwrap()
        };
        let one = made(1);
        assert_eq!(one.lines.len(), 6);
        assert_eq!(one, made(2));
        assert_eq!(one, made(3));
    }
}
