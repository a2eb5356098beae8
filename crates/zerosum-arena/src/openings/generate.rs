//! Making opening suites: random move lists from the start, distinct, reproducible from a seed,
//! and with `balanced` only those a judge finds close to even.
//!
//! **The walk.** Each opening plays `plies` moves from the start, each drawn uniformly
//! (ChaCha8 from the seed) from the moves the game's evaluator offers the search (its candidate
//! moves: on large m,n,k boards the cells near the stones, the centre first; elsewhere every
//! legal move). A walk whose game ends, or after which the side to move wins at once, is
//! dropped.
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
//!   [`Judge::default_for`].
//!
//! On Connect-X the solver's value is costly (seconds a position at 6 plies on 7x6): a suite
//! of a few hundred takes many minutes.

use std::collections::HashSet;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zerosum_core::{Evaluator, Game, GameSpec, Outcome, Status};
use zerosum_games::connect::{Bits, Book, ConnectX, Packed, Solver as PonsSolver};
use zerosum_games::{visit_game, EvaluatedGame, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use super::HEADER;

/// Table size of the judge's search or solver, in MB.
const JUDGE_TABLE_MB: usize = 16;

/// Walks tried per opening asked for before giving up.
const TRIES_PER_OPENING: usize = 200;

/// How close to even a balanced opening must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// The exact value (Connect-X boards the solver fits): `|Pons score| <= max_score`.
    Solver { max_score: i32 },
    /// A `depth`-ply search: an evaluation within `-window..=window`.
    Search { depth: usize, window: i32 },
}

impl Judge {
    /// The judge of `spec` by default: the solver where it fits; else an even depth (the
    /// side to move's reply is searched too) and a window in the family's evaluation units
    /// that, measured on random walks (gomoku at 6 plies, Hex, Atoll at 4, Unstable at 6),
    /// keeps roughly the middle third to half of them: m,n,k depth 4 within 50 (gomoku
    /// scores spread over about -60..+120), Hex and Atoll depth 2 within 50 (scores come in
    /// steps of about 100: this keeps the level ones), Unstable depth 2 within 5 (-14..+17),
    /// Connect-X boards too large for the solver depth 4 within 50.
    pub fn default_for(spec: &GameSpec) -> Judge {
        match spec {
            GameSpec::ConnectX { rows, cols, .. } if Packed::<u128>::fits(*rows, *cols) => {
                Judge::Solver { max_score: 2 }
            }
            GameSpec::Mnk { .. } | GameSpec::ConnectX { .. } => Judge::Search {
                depth: 4,
                window: 50,
            },
            GameSpec::Hex { .. } | GameSpec::Atoll { .. } => Judge::Search {
                depth: 2,
                window: 50,
            },
            GameSpec::Unstable { .. } => Judge::Search {
                depth: 2,
                window: 5,
            },
        }
    }

    /// The same judge with another threshold (`max_score` or `window`) and depth, where
    /// given (a solver has no depth).
    pub fn with(self, threshold: Option<i32>, depth: Option<usize>) -> Judge {
        match self {
            Judge::Solver { max_score } => Judge::Solver {
                max_score: threshold.unwrap_or(max_score),
            },
            Judge::Search { depth: d, window } => Judge::Search {
                depth: depth.unwrap_or(d),
                window: threshold.unwrap_or(window),
            },
        }
    }

    /// How the header line states the judge: `threshold=solver:|score|<=2` or
    /// `threshold=search:depth=4,|eval|<=150`.
    pub fn describe(self) -> String {
        match self {
            Judge::Solver { max_score } => format!("threshold=solver:|score|<={max_score}"),
            Judge::Search { depth, window } => {
                format!("threshold=search:depth={depth},|eval|<={window}")
            }
        }
    }
}

/// What to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteOptions {
    /// Moves in each opening (at least 1).
    pub plies: usize,
    /// Openings wanted.
    pub count: usize,
    pub seed: u64,
    /// Keep only the openings this judge finds close to even.
    pub judge: Option<Judge>,
}

/// A suite: the header line and one line of moves per opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    pub header: String,
    pub lines: Vec<String>,
    /// Distinct positions judged (all distinct walks without `judge`).
    pub judged: usize,
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
/// asked for when the walks run out (`200 * count` tries); the caller says so.
pub fn generate(spec: &GameSpec, options: &SuiteOptions) -> Result<Suite, String> {
    if options.plies == 0 || options.count == 0 {
        return Err("--plies and --count must be at least 1".into());
    }
    if let Some(Judge::Search { depth: 0, .. }) = options.judge {
        return Err("--depth must be at least 1".into());
    }
    let mut header = format!("{HEADER}{spec} plies={}", options.plies);
    if let Some(judge) = options.judge {
        header.push_str(&format!(" balanced {}", judge.describe()));
    }
    header.push_str(&format!(" seed={}", options.seed));
    let (lines, judged) =
        visit_game(spec, Walker { spec, options }).map_err(|e| e.to_string())??;
    Ok(Suite {
        header,
        lines,
        judged,
    })
}

struct Walker<'a> {
    spec: &'a GameSpec,
    options: &'a SuiteOptions,
}

impl GameVisitor for Walker<'_> {
    type Output = Result<(Vec<String>, usize), String>;

    fn visit<G: EvaluatedGame>(self, start: G) -> Self::Output {
        let options = self.options;
        let evaluator = start.evaluator();
        let mut judge = match options.judge {
            None => None,
            Some(judge) => Some(Judging::new(&start, judge)?),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        let mut seen = HashSet::new();
        let mut lines = Vec::new();
        let mut moves = Vec::new();
        let tries = options.count.saturating_mul(TRIES_PER_OPENING);
        for _ in 0..tries {
            if lines.len() == options.count {
                break;
            }
            let mut game = start.clone();
            let mut over = false;
            for _ in 0..options.plies {
                evaluator.candidate_moves(&game, &mut moves);
                if moves.is_empty() {
                    game.legal_moves(&mut moves);
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
            if let Some(judge) = &mut judge {
                if !judge.close_to_even(&game) {
                    continue;
                }
            }
            let line: Vec<String> = game
                .history()
                .iter()
                .map(|&mv| game.format_move(mv))
                .collect();
            lines.push(line.join(","));
        }
        Ok((lines, seen.len()))
    }
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
    let GameSpec::ConnectX { cols, .. } = *spec else {
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
    Search {
        searcher: Box<Searcher<G, G::Evaluator>>,
        depth: usize,
        window: i32,
    },
}

/// Pons' exact score of the Connect-X position a list of moves (text) reaches; `None` when it
/// cannot be had.
type PonsScore = Box<dyn FnMut(&str) -> Option<i32>>;

impl<G: EvaluatedGame> Judging<G> {
    fn new(start: &G, judge: Judge) -> Result<Self, String> {
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
                depth,
                window,
            },
        })
    }

    /// True when `game` (ongoing, no win at once) is close enough to even.
    fn close_to_even(&mut self, game: &G) -> bool {
        match self {
            Judging::Solver { score, max_score } => {
                let moves: Vec<String> = game
                    .history()
                    .iter()
                    .map(|&mv| game.format_move(mv))
                    .collect();
                score(&moves.join(",")).is_some_and(|score| score.abs() <= *max_score)
            }
            Judging::Search {
                searcher,
                depth,
                window,
            } => {
                searcher.clear();
                let score = searcher
                    .search(game, &SearchLimits::depth(*depth), |_| {})
                    .score;
                !score.is_decisive() && score.0.abs() <= *window
            }
        }
    }
}

/// Pons' score from the opening book where it has every move's value, else from the solver,
/// on the Connect-X boards the solver fits; `None` for other games.
fn pons_scorer(spec: &GameSpec) -> Option<PonsScore> {
    let GameSpec::ConnectX { rows, cols, k, .. } = *spec else {
        return None;
    };
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
    let mut solver = PonsSolver::<B>::new(rows, cols, k, JUDGE_TABLE_MB);
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

    fn suite(spec: &str, plies: usize, count: usize, judge: Option<Judge>) -> Suite {
        let options = SuiteOptions {
            plies,
            count,
            seed: 5,
            judge,
        };
        generate(&spec.parse().unwrap(), &options).unwrap()
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
            let mut solver = zerosum_games::connect::Solver::new(4, 5, 3, 16);
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
}
