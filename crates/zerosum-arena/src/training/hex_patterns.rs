//! Training the gammas of Hex's radius-2 patterns ([`zerosum_games::hex::gammas`]) by our
//! own pipeline, as MoHex 2.0 trains its priors: games of our Monte Carlo engine against
//! itself from random openings (the default evaluation, a playout budget a move), and for
//! every move of those games the pattern of each legal cell, seen from the mover; then the
//! Bradley-Terry model "the cell played wins against the other legal cells, each with the
//! gamma of its pattern" fitted by minorization-maximization (Hunter 2004, Coulom 2007).
//!
//! The fit: a pattern seen on fewer than `min_count` candidate cells of the training
//! positions shares the gamma of every such pattern (`other`). Each iteration updates every
//! gamma at once, `gamma = (W + 1) / (sum over positions of C / E + 2 / (gamma + 1))`, where
//! `W` counts the moves played on the pattern, `C` the position's cells with it and `E` the
//! sum of the position's gammas; the `+ 1` and `2 / (gamma + 1)` are Coulom's prior, a virtual
//! win and loss against a pattern of gamma 1, which keeps rare patterns near 1 and fixes the
//! scale. Sums run in a fixed order: a run is reproducible from its seed, on any number of
//! threads (game `i` is a function of the seed and `i` alone).

use std::collections::HashMap;

use zerosum_core::{Game, Outcome, Status};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::hex::gammas::PatternGammas;
use zerosum_games::hex::patterns::{canonical, pattern_code};
use zerosum_games::hex::{Hex, HexEvaluator};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use super::self_play::{below, game_rng, play_indexed};
use super::TrainStage;
use crate::openings::generate::Plies;

/// Table of each self-play searcher, in MB (the Monte Carlo tree's memory).
const SELF_PLAY_TABLE_MB: usize = 16;

/// What a Hex training run does.
#[derive(Clone, Debug, PartialEq)]
pub struct HexTrainOptions {
    /// The board's side (the games are played without the swap).
    pub side: usize,
    /// Games to play (every tenth kept aside to validate the fit).
    pub games: usize,
    pub seed: u64,
    /// Each side's playouts a move, drawn once a game from `playouts..4 * playouts`.
    pub playouts: u64,
    /// Stones of the random opening, on random empty cells of the whole board.
    pub plies: Plies,
    /// Threads playing games (the gammas are the same for any number).
    pub threads: usize,
    /// Iterations of the fit.
    pub iterations: usize,
    /// Candidate cells a pattern needs in the training positions to get a gamma of its own.
    pub min_count: usize,
}

/// The moves of a set of games: for each, the canonical pattern codes of the legal cells and
/// which of them was played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moves {
    /// `(first, count, played)`: the candidates are `codes[first..first + count]`, the one
    /// played `codes[first + played]`.
    pub moves: Vec<(u32, u16, u16)>,
    pub codes: Vec<u64>,
}

impl Moves {
    fn push(&mut self, codes: &[u64], played: usize) {
        self.moves
            .push((self.codes.len() as u32, codes.len() as u16, played as u16));
        self.codes.extend_from_slice(codes);
    }

    /// The candidates' codes of each move, and the index of the one played.
    pub fn iter(&self) -> impl Iterator<Item = (&[u64], usize)> {
        self.moves.iter().map(|&(first, count, played)| {
            let first = first as usize;
            (&self.codes[first..first + count as usize], played as usize)
        })
    }

    /// Bytes the moves take in memory.
    pub fn bytes(&self) -> usize {
        self.moves.len() * std::mem::size_of::<(u32, u16, u16)>() + self.codes.len() * 8
    }
}

/// What a Hex run found, besides the gammas.
#[derive(Clone, Debug, PartialEq)]
pub struct HexTrainReport {
    pub black_wins: usize,
    pub white_wins: usize,
    pub training_moves: usize,
    pub validation_moves: usize,
    /// Patterns with a gamma of their own.
    pub patterns: usize,
    /// Bytes of the moves in memory.
    pub data_bytes: usize,
    /// Mean log-loss (natural) of the move played on the validation moves: uniform over the
    /// legal cells, and with the gammas.
    pub uniform_loss: f64,
    pub trained_loss: f64,
    /// Share of the validation moves played on a cell of the highest gamma (ties shared).
    pub top_share: f64,
}

impl HexTrainReport {
    /// The report as comment lines of a gammas file (no times: the file stays reproducible).
    pub fn comments(&self) -> Vec<String> {
        vec![
            format!(
                "games: {} won by Black, {} by White; moves: {} training, {} validation \
                 (every tenth game)",
                self.black_wins, self.white_wins, self.training_moves, self.validation_moves
            ),
            format!(
                "{} patterns with a gamma of their own; validation log-loss {:.4} uniform -> \
                 {:.4} trained; move played on a cell of the highest gamma {:.1}%",
                self.patterns,
                self.uniform_loss,
                self.trained_loss,
                100.0 * self.top_share
            ),
        ]
    }
}

/// One game's moves and its winner.
struct GameMoves {
    moves: Moves,
    black_won: bool,
}

/// Runs the self-play games and the fit; the gammas and the report.
pub fn train_hex(
    options: &HexTrainOptions,
    mut progress: impl FnMut(TrainStage) + Send,
) -> (PatternGammas, HexTrainReport) {
    let evaluator = HexEvaluator::new(options.side, options.side);
    let searcher = || Searcher::new(evaluator.clone(), Algorithm::Mcts, SELF_PLAY_TABLE_MB);
    let games = play_indexed(
        options.games,
        options.threads,
        searcher,
        |player, index| play_game(player, options, index),
        |games| progress(TrainStage::Games(games)),
    );
    let (mut training, mut validation) = (Moves::default(), Moves::default());
    let mut black_wins = 0;
    for (index, game) in games.iter().enumerate() {
        black_wins += usize::from(game.black_won);
        let into = if index % 10 == 9 {
            &mut validation
        } else {
            &mut training
        };
        for (codes, played) in game.moves.iter() {
            into.push(codes, played);
        }
    }
    let gammas = fit(&training, options.min_count, options.iterations, |i| {
        progress(TrainStage::Epochs(i))
    });
    let (uniform_loss, trained_loss, top_share) = validate(&validation, &gammas);
    let report = HexTrainReport {
        black_wins,
        white_wins: games.len() - black_wins,
        training_moves: training.moves.len(),
        validation_moves: validation.moves.len(),
        patterns: gammas.len(),
        data_bytes: training.bytes() + validation.bytes(),
        uniform_loss,
        trained_loss,
        top_share,
    };
    (gammas, report)
}

/// Game `index`: a random opening, then each side searching its playouts a move (the tree
/// cleared first, one thread); the moves after the opening.
fn play_game(
    player: &mut Searcher<Hex, HexEvaluator>,
    options: &HexTrainOptions,
    index: usize,
) -> GameMoves {
    let mut rng = game_rng(options.seed, index);
    let mut game = Hex::new(options.side, options.side, None);
    let Plies { min, max } = options.plies;
    let stones = min as u64 + below(&mut rng, (max - min + 1) as u64);
    let mut legal = Vec::new();
    for _ in 0..stones {
        game.legal_moves(&mut legal);
        if legal.is_empty() || game.status().is_over() {
            break;
        }
        game.play(legal[below(&mut rng, legal.len() as u64) as usize]);
    }
    let budgets = [0, 1].map(|_| options.playouts + below(&mut rng, 3 * options.playouts));
    player.clear();
    let mut moves = Moves::default();
    let mut codes = Vec::new();
    while !game.status().is_over() {
        let mover = game.to_move();
        let limits = SearchLimits::nodes(budgets[mover.index()]);
        let Some(StoneMove::Place(chosen)) = player.search(&game, &limits, |_| {}).best_move else {
            break;
        };
        let colour = game.colour_of(mover);
        codes.clear();
        let mut played = 0;
        for cell in 0..game.stones().len() {
            if game.stone(cell) == Stone::Empty {
                if cell == usize::from(chosen) {
                    played = codes.len();
                }
                codes.push(canonical(pattern_code(&game, cell, colour)));
            }
        }
        moves.push(&codes, played);
        game.play(StoneMove::Place(chosen));
    }
    let black_won = match game.status() {
        Status::Over(Outcome::Win(side)) => game.colour_of(side) == Stone::Black,
        _ => false,
    };
    GameMoves { moves, black_won }
}

/// The gammas fitted to `moves` (see the module documentation); `on_iteration` hears each
/// iteration's number from 1.
pub fn fit(
    moves: &Moves,
    min_count: usize,
    iterations: usize,
    mut on_iteration: impl FnMut(usize),
) -> PatternGammas {
    // Feature 0 is every rare pattern; the others in order of their codes.
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for &code in &moves.codes {
        *seen.entry(code).or_default() += 1;
    }
    let mut own: Vec<u64> = seen
        .iter()
        .filter(|&(_, &count)| count >= min_count.max(1))
        .map(|(&code, _)| code)
        .collect();
    own.sort_unstable();
    let feature_of: HashMap<u64, u32> = own
        .iter()
        .enumerate()
        .map(|(i, &code)| (code, i as u32 + 1))
        .collect();
    let features: Vec<u32> = moves
        .codes
        .iter()
        .map(|code| feature_of.get(code).copied().unwrap_or(0))
        .collect();
    let mut wins = vec![0.0f64; own.len() + 1];
    for &(first, _, played) in &moves.moves {
        wins[features[first as usize + played as usize] as usize] += 1.0;
    }
    let mut gammas = vec![1.0f64; own.len() + 1];
    let mut denominators = vec![0.0f64; own.len() + 1];
    for iteration in 1..=iterations {
        denominators.iter_mut().for_each(|d| *d = 0.0);
        for &(first, count, _) in &moves.moves {
            let cells = &features[first as usize..first as usize + count as usize];
            let total: f64 = cells.iter().map(|&f| gammas[f as usize]).sum();
            for &f in cells {
                denominators[f as usize] += 1.0 / total;
            }
        }
        for ((gamma, &win), &denominator) in gammas.iter_mut().zip(&wins).zip(&denominators) {
            *gamma = (win + 1.0) / (denominator + 2.0 / (*gamma + 1.0));
        }
        on_iteration(iteration);
    }
    PatternGammas::new(
        own.iter()
            .zip(&gammas[1..])
            .map(|(&code, &gamma)| (code, gamma as f32)),
        gammas[0] as f32,
    )
}

/// On `moves`: the mean log-loss of the move played, uniform and with `gammas`, and the
/// share of moves played on a cell of the highest gamma (a tie of `n` cells counts `1 / n`).
pub fn validate(moves: &Moves, gammas: &PatternGammas) -> (f64, f64, f64) {
    if moves.moves.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let (mut uniform, mut trained, mut top) = (0.0, 0.0, 0.0);
    for (codes, played) in moves.iter() {
        let weights: Vec<f64> = codes
            .iter()
            .map(|&code| f64::from(gammas.gamma(code)))
            .collect();
        let total: f64 = weights.iter().sum();
        uniform += (codes.len() as f64).ln();
        trained -= (weights[played] / total).ln();
        let best = weights.iter().copied().fold(0.0, f64::max);
        if weights[played] == best {
            top += 1.0 / weights.iter().filter(|&&w| w == best).count() as f64;
        }
    }
    let count = moves.moves.len() as f64;
    (uniform / count, trained / count, top / count)
}

/// A set of moves from the candidates' codes and the index played of each, for tests.
pub fn moves_of(positions: &[(Vec<u64>, usize)]) -> Moves {
    let mut moves = Moves::default();
    for (codes, played) in positions {
        moves.push(codes, *played);
    }
    moves
}
