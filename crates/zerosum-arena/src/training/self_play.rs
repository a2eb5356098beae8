//! The trainer's data: games of the pattern engine against itself from random openings, and
//! the quiet positions of each game labelled with its result.
//!
//! Game `i` of a run is a function of the seed and `i` alone (its own ChaCha8 stream, searchers
//! cleared before it, one search thread under a node limit), so the data do not depend on how
//! many threads play the games: each thread takes the next game not yet taken, and the games
//! are put back in order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zerosum_core::{Evaluator, Game, Outcome, Status};
use zerosum_games::mnk::{static_terms, Mnk, MnkEvaluator, PatternWeights, STATIC_LIMIT};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use crate::openings::generate::Plies;

/// The boards the trainer plays: up to 256 cells (15x15 gomoku and renju, up to 16x16).
pub type TrainBoard = Mnk<4>;

/// Table of each self-play searcher, in MB.
const SELF_PLAY_TABLE_MB: usize = 4;

/// How the self-play games are played.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayOptions {
    /// Games to play.
    pub games: usize,
    pub seed: u64,
    /// Each side's node budget a move is drawn once a game from `nodes..4 * nodes`.
    pub nodes: u64,
    /// Stones of the random opening, placed on random empty cells of the central square.
    pub plies: Plies,
    /// The side of the central square of the openings, in cells.
    pub square: usize,
    /// Threads playing games (the data are the same for any number).
    pub threads: usize,
}

/// One position's terms ([`static_terms`]) and its label, the result of its game for the side
/// to move: 0 a loss, 1 a draw, 2 a win (half-points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Where the position's terms start in [`Samples::terms`].
    pub first: u32,
    /// How many terms it has.
    pub len: u16,
    pub half_points: u8,
}

/// The positions of a set of games: each sample's terms side by side in one vector.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    pub samples: Vec<Sample>,
    /// `(parameter, coefficient)`: the static value is the sum of coefficient times parameter,
    /// over 16.
    pub terms: Vec<(u16, i16)>,
}

impl Samples {
    /// The terms of `sample`.
    pub fn terms_of(&self, sample: &Sample) -> &[(u16, i16)] {
        &self.terms[sample.first as usize..sample.first as usize + sample.len as usize]
    }

    /// Bytes the samples take in memory.
    pub fn bytes(&self) -> usize {
        self.samples.len() * std::mem::size_of::<Sample>()
            + self.terms.len() * std::mem::size_of::<(u16, i16)>()
    }

    fn push_game(&mut self, game: &GameData) {
        for (terms, mover_won) in &game.positions {
            self.samples.push(Sample {
                first: self.terms.len() as u32,
                len: terms.len() as u16,
                half_points: match game.winner {
                    None => 1,
                    Some(winner) if winner == *mover_won => 2,
                    Some(_) => 0,
                },
            });
            self.terms.extend_from_slice(terms);
        }
    }
}

/// The data of the self-play games: the training and the validation samples (every tenth
/// game), and how the games ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayData {
    pub training: Samples,
    pub validation: Samples,
    /// Games won by the first player, by the second, drawn.
    pub first_wins: usize,
    pub second_wins: usize,
    pub draws: usize,
    /// Moves played after the openings, all games.
    pub moves: usize,
}

/// One game's positions (terms, side to move as 0 or 1) and its winner (0, 1 or none).
struct GameData {
    positions: Vec<(Vec<(u16, i16)>, usize)>,
    winner: Option<usize>,
    moves: usize,
}

/// Plays the games of `options` with the pattern engine weighted by `weights` on `start` (an
/// empty K = 5 board), calling `progress` with the number of games finished (from one thread
/// at a time).
pub fn play_games(
    start: &TrainBoard,
    weights: &PatternWeights,
    options: &SelfPlayOptions,
    progress: impl FnMut(usize) + Send,
) -> SelfPlayData {
    let evaluator = MnkEvaluator::new().with_patterns(Some(weights.clone()));
    let searcher = || Searcher::new(evaluator.clone(), Algorithm::default(), SELF_PLAY_TABLE_MB);
    let games = play_indexed(
        options.games,
        options.threads,
        || [searcher(), searcher()],
        |players, index| play_game(start, &evaluator, players, options, index),
        progress,
    );
    let mut data = SelfPlayData::default();
    for (index, game) in games.into_iter().enumerate() {
        match game.winner {
            Some(0) => data.first_wins += 1,
            Some(_) => data.second_wins += 1,
            None => data.draws += 1,
        }
        data.moves += game.moves;
        if index % 10 == 9 {
            data.validation.push_game(&game);
        } else {
            data.training.push_game(&game);
        }
    }
    data
}

/// The random generator of game `index` of a run seeded with `seed`: its own ChaCha8 stream.
pub fn game_rng(seed: u64, index: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    rng
}

/// A number below `n` (at least 1) drawn from `rng`.
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u64
}

/// `play(state, index)` for every `index` below `count`, on `threads` threads (at least one),
/// each with its own `state` from `new_state`: each thread takes the next index not yet taken.
/// The results come back in index order, so they do not depend on the number of threads when
/// each is a function of its index alone; `progress` hears how many are finished (from one
/// thread at a time).
pub fn play_indexed<T: Send + Sync, S>(
    count: usize,
    threads: usize,
    new_state: impl Fn() -> S + Sync,
    play: impl Fn(&mut S, usize) -> T + Sync,
    progress: impl FnMut(usize) + Send,
) -> Vec<T> {
    let results: Vec<OnceLock<T>> = (0..count).map(|_| OnceLock::new()).collect();
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let progress = Mutex::new(progress);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let (results, next, finished, progress) = (&results, &next, &finished, &progress);
            let (new_state, play) = (&new_state, &play);
            scope.spawn(move || {
                let mut state = new_state();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(slot) = results.get(index) else {
                        break;
                    };
                    let _ = slot.set(play(&mut state, index));
                    let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Ok(mut progress) = progress.lock() {
                        progress(done);
                    }
                }
            });
        }
    });
    results
        .into_iter()
        .map(|result| result.into_inner().expect("every index was played"))
        .collect()
}

/// Game `index`: a random opening, then each side searching its budget a move; the terms of
/// every position after the opening whose evaluation is a static value.
fn play_game(
    start: &TrainBoard,
    evaluator: &MnkEvaluator,
    players: &mut [Searcher<TrainBoard, MnkEvaluator>; 2],
    options: &SelfPlayOptions,
    index: usize,
) -> GameData {
    let mut rng = game_rng(options.seed, index);
    let mut below = |n: u64| below(&mut rng, n);
    let mut game = start.clone();
    let Plies { min, max } = options.plies;
    let stones = min + below((max - min + 1) as u64) as usize;
    let side = options.square.min(game.rows()).min(game.cols());
    let (top, left) = ((game.rows() - side) / 2, (game.cols() - side) / 2);
    for _ in 0..stones {
        let empty: Vec<_> = (top..top + side)
            .flat_map(|row| (left..left + side).map(move |col| (row, col)))
            .map(|(row, col)| game.cell(row, col))
            .filter(|&cell| game.is_legal(cell))
            .collect();
        if empty.is_empty() || game.status().is_over() {
            break;
        }
        game.play(empty[below(empty.len() as u64) as usize]);
    }
    let budgets = [0, 1].map(|_| options.nodes + below(3 * options.nodes));
    for player in players.iter_mut() {
        player.clear();
    }
    let mut positions = Vec::new();
    let mut moves = 0;
    let mut terms = Vec::new();
    while !game.status().is_over() {
        let mover = game.to_move().index();
        if evaluator.evaluate(&game).abs() < STATIC_LIMIT {
            let board = game.patterns().expect("a K = 5 board");
            static_terms(board, mover, &mut terms);
            positions.push((terms.clone(), mover));
        }
        let limits = SearchLimits::nodes(budgets[mover]);
        let Some(mv) = players[mover].search(&game, &limits, |_| {}).best_move else {
            break;
        };
        game.play(mv);
        moves += 1;
    }
    let winner = match game.status() {
        Status::Over(Outcome::Win(side)) => Some(side.index()),
        _ => None,
    };
    GameData {
        positions,
        winner,
        moves,
    }
}
