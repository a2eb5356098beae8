//! The Connect-X evaluator in play: wins in one and forced blocks are never missed, moves under
//! an opponent's threat are avoided, the engine beats a random player and a "win, else block,
//! else random" player in every game, and the evaluation agrees across board representations
//! and mirror images.
//!
//! Measurements (ignored by default; run with `--ignored --nocapture`): strength against the
//! windows-only evaluation at equal nodes, and evaluation speed.

use std::time::Instant;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, Outcome, Score, Side, Status};
use zerosum_games::connect::{
    ConnectBoard, ConnectEvaluator, ConnectWeights, ConnectX, ConnectX128, ConnectX64, ConnectXWide,
};
use zerosum_games::EvaluatedGame;
use zerosum_search::{Algorithm, SearchLimits, Searcher};

use crate::common::random_positions;

// ---------------------------------------------------------------------------------------------
// Naive rules, written independently of the evaluator: a disc of `side` on the landing cell of
// `col` (or `lift` cells above it) completes a run, by walking the grid through `owner`.

fn completes_at<B: ConnectBoard>(game: &ConnectX<B>, side: Side, col: usize, lift: usize) -> bool {
    let (rows, cols, k) = (game.rows() as isize, game.cols() as isize, game.k());
    let height = (game.height(col) + lift) as isize;
    if height >= rows {
        return false;
    }
    let own = |c: isize, h: isize| {
        c >= 0 && c < cols && h >= 0 && h < rows && {
            game.owner((rows - 1 - h) as usize, c as usize) == Some(side)
        }
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)]
        .into_iter()
        .any(|(dc, dh)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut c, mut h) = (col as isize + sign * dc, height + sign * dh);
                while own(c, h) {
                    run += 1;
                    c += sign * dc;
                    h += sign * dh;
                }
            }
            run >= k
        })
}

/// Columns where the side to move wins at once.
fn winning_columns<B: ConnectBoard>(game: &ConnectX<B>) -> Vec<u8> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.retain(|&c| completes_at(game, game.to_move(), c as usize, 0));
    moves
}

/// Columns where the opponent would win at once.
fn blocking_columns<B: ConnectBoard>(game: &ConnectX<B>) -> Vec<u8> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.retain(|&c| completes_at(game, game.to_move().opponent(), c as usize, 0));
    moves
}

/// Columns whose cell above the landing cell would complete a run for the opponent.
fn poisoned_columns<B: ConnectBoard>(game: &ConnectX<B>) -> Vec<u8> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.retain(|&c| completes_at(game, game.to_move().opponent(), c as usize, 1));
    moves
}

// ---------------------------------------------------------------------------------------------
// Players.

fn random_move<G: Game>(game: &G, rng: &mut SplitMix) -> G::Move {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves[rng.below(moves.len())]
}

/// Win in one, else block in one, else random.
fn win_block_move<B: ConnectBoard>(game: &ConnectX<B>, rng: &mut SplitMix) -> u8 {
    let wins = winning_columns(game);
    if let Some(&col) = wins.first() {
        return col;
    }
    let blocks = blocking_columns(game);
    if !blocks.is_empty() {
        return blocks[rng.below(blocks.len())];
    }
    random_move(game, rng)
}

/// The engine's move at fixed limits, from a fresh searcher (deterministic).
fn engine_move<G: EvaluatedGame>(
    game: &G,
    evaluator: G::Evaluator,
    limits: &SearchLimits,
) -> G::Move {
    let mut searcher = Searcher::new(evaluator, Algorithm::Pvs, 1);
    searcher
        .search(game, limits, |_| {})
        .best_move
        .expect("the game goes on")
}

/// Plays `games` games with the engine first and as many with the engine second, against
/// `opponent`; returns (engine wins, draws, engine losses).
fn match_against<G: EvaluatedGame>(
    start: &G,
    evaluator: &G::Evaluator,
    limits: &SearchLimits,
    games: usize,
    seed: u64,
    opponent: impl Fn(&G, &mut SplitMix) -> G::Move,
) -> (usize, usize, usize) {
    let mut rng = SplitMix::new(seed);
    let mut tally = (0, 0, 0);
    for game_index in 0..2 * games {
        let engine_side = if game_index < games {
            Side::First
        } else {
            Side::Second
        };
        let mut game = start.clone();
        let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 1);
        while !game.status().is_over() {
            let mv = if game.to_move() == engine_side {
                searcher
                    .search(&game, limits, |_| {})
                    .best_move
                    .expect("a move")
            } else {
                opponent(&game, &mut rng)
            };
            game.play(mv);
        }
        match game.status() {
            Status::Over(Outcome::Win(side)) if side == engine_side => tally.0 += 1,
            Status::Over(Outcome::Draw) => tally.1 += 1,
            _ => tally.2 += 1,
        }
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// Tactics.

fn check_wins_in_one<B: ConnectBoard>(start: &ConnectX<B>, positions: usize, seed: u64)
where
    ConnectX<B>: EvaluatedGame<Move = u8>,
{
    let mut checked = 0;
    for game in random_positions(start, positions * 20, start.rows() * start.cols(), seed) {
        let wins = winning_columns(&game);
        if wins.is_empty() {
            continue;
        }
        let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(3));
        assert!(
            wins.contains(&mv),
            "{} after {:?}: played {mv}, wins {wins:?}\n{}",
            game.spec(),
            game.history(),
            game.render()
        );
        checked += 1;
        if checked == positions {
            break;
        }
    }
    assert_eq!(checked, positions, "too few positions with a win in one");
}

fn check_forced_blocks<B: ConnectBoard>(start: &ConnectX<B>, positions: usize, seed: u64)
where
    ConnectX<B>: EvaluatedGame<Move = u8>,
{
    let mut checked = 0;
    for game in random_positions(start, positions * 40, start.rows() * start.cols(), seed) {
        let blocks = blocking_columns(&game);
        if !winning_columns(&game).is_empty() || blocks.len() != 1 {
            continue;
        }
        let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(3));
        assert_eq!(
            mv,
            blocks[0],
            "{} after {:?}\n{}",
            game.spec(),
            game.history(),
            game.render()
        );
        checked += 1;
        if checked == positions {
            break;
        }
    }
    assert_eq!(checked, positions, "too few positions with a forced block");
}

#[test]
fn engine_wins_in_one_on_a_hand_made_position() {
    // X has 1, 2, 3 on the bottom row (and O three discs above): 4 wins at once.
    let mut game = ConnectX64::new(6, 7, 4);
    game.play_list("112233").unwrap();
    let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(5));
    assert_eq!(mv, 3);
    // The same on a 25x25 board, run of 10: X has nine on the bottom row.
    let mut game = ConnectXWide::new(25, 25, 10);
    for col in 1..=9 {
        game.play(col);
        game.play(col);
    }
    let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(3));
    assert!(mv == 0 || mv == 10, "played {mv}");
}

#[test]
fn engine_blocks_on_a_hand_made_position() {
    // O threatens 4 in the first column; X (to move) must block.
    let mut game = ConnectX64::new(6, 7, 4);
    game.play_list("515161").unwrap();
    assert_eq!(game.to_move(), Side::First);
    let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(5));
    assert_eq!(mv, 0);
    let mut game = ConnectXWide::new(25, 25, 10);
    // O builds nine on the bottom row from column 3, X closes the left end and piles up on
    // the right: only column 12 blocks.
    let x_moves = [2, 22, 23, 24, 22, 23, 24, 22, 23];
    for (i, &x) in x_moves.iter().enumerate() {
        game.play(x);
        game.play(3 + i as u8);
    }
    let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(3));
    assert_eq!(mv, 12);
}

#[test]
fn engine_never_misses_a_win_in_one() {
    check_wins_in_one(&ConnectX64::new(6, 7, 4), 60, 1);
    check_wins_in_one(&ConnectX64::new(5, 4, 4), 40, 2);
    check_wins_in_one(&ConnectX128::new(10, 10, 5), 15, 3);
    check_wins_in_one(&ConnectXWide::new(12, 12, 4), 15, 4);
}

#[test]
fn engine_never_misses_a_forced_block() {
    check_forced_blocks(&ConnectX64::new(6, 7, 4), 60, 5);
    check_forced_blocks(&ConnectX64::new(5, 4, 4), 40, 6);
    check_forced_blocks(&ConnectX128::new(10, 10, 5), 15, 7);
    check_forced_blocks(&ConnectXWide::new(12, 12, 4), 15, 8);
}

#[test]
fn engine_wins_and_blocks_on_25x25x10() {
    // Random positions there rarely hold a run of nine; build them with a biased player that
    // extends its own rows.
    let mut rng = SplitMix::new(9);
    let (mut wins, mut blocks) = (0, 0);
    while wins < 4 || blocks < 4 {
        let mut game = ConnectXWide::new(25, 25, 10);
        let base = rng.below(10);
        while !game.status().is_over() {
            let threats = (winning_columns(&game), blocking_columns(&game));
            if !threats.0.is_empty() {
                let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(2));
                assert!(threats.0.contains(&mv), "{:?}", game.history());
                wins += 1;
                break;
            }
            if threats.1.len() == 1 {
                let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(2));
                assert_eq!(mv, threats.1[0], "{:?}", game.history());
                blocks += 1;
                break;
            }
            // Mostly along the bottom rows, left of the middle for the first player.
            let col = base + rng.below(12) + if game.to_move() == Side::First { 0 } else { 1 };
            if game.is_legal(col as u8) {
                game.play(col as u8);
            } else {
                game.play(random_move(&game, &mut rng));
            }
        }
    }
}

#[test]
fn candidates_keep_wins_and_blocks_and_avoid_poisoned_columns() {
    fn check<B: ConnectBoard>(start: ConnectX<B>, seed: u64)
    where
        ConnectX<B>: EvaluatedGame<Move = u8, Evaluator = ConnectEvaluator>,
        ConnectEvaluator: Evaluator<ConnectX<B>>,
    {
        let evaluator = start.evaluator();
        let mut candidates = Vec::new();
        let mut legal = Vec::new();
        for game in random_positions(&start, 400, start.rows() * start.cols(), seed) {
            evaluator.candidate_moves(&game, &mut candidates);
            game.legal_moves(&mut legal);
            let (wins, blocks, poisoned) = (
                winning_columns(&game),
                blocking_columns(&game),
                poisoned_columns(&game),
            );
            let expected: Vec<u8> = if !wins.is_empty() {
                wins
            } else if !blocks.is_empty() {
                blocks
            } else if legal.iter().all(|c| poisoned.contains(c)) {
                legal.clone()
            } else {
                legal
                    .iter()
                    .copied()
                    .filter(|c| !poisoned.contains(c))
                    .collect()
            };
            assert_eq!(candidates, expected, "{:?}", game.history());
        }
    }
    check(ConnectX64::new(6, 7, 4), 10);
    check(ConnectX64::new(4, 5, 3), 11);
    check(ConnectX128::new(10, 11, 5), 12);
    check(ConnectXWide::new(6, 7, 4), 13);
    check(ConnectXWide::new(25, 25, 10), 14);
}

#[test]
fn engine_avoids_playing_under_a_threat() {
    let start = ConnectX64::new(6, 7, 4);
    let mut checked = 0;
    for game in random_positions(&start, 4000, 30, 15) {
        let poisoned = poisoned_columns(&game);
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let avoidable = legal.iter().any(|c| !poisoned.contains(c));
        if poisoned.is_empty()
            || !avoidable
            || !winning_columns(&game).is_empty()
            || !blocking_columns(&game).is_empty()
        {
            continue;
        }
        let mv = engine_move(&game, game.evaluator(), &SearchLimits::depth(4));
        assert!(!poisoned.contains(&mv), "{:?}", game.history());
        checked += 1;
        if checked == 40 {
            break;
        }
    }
    assert_eq!(checked, 40);
}

// ---------------------------------------------------------------------------------------------
// Matches.

fn beats_both_players<B: ConnectBoard>(start: ConnectX<B>, limits: SearchLimits, games: usize)
where
    ConnectX<B>: EvaluatedGame<Move = u8>,
{
    let evaluator = start.evaluator();
    let random = match_against(&start, &evaluator, &limits, games, 21, random_move);
    assert_eq!(random, (2 * games, 0, 0), "{} against random", start.spec());
    let win_block = match_against(&start, &evaluator, &limits, games, 22, win_block_move);
    assert_eq!(
        win_block,
        (2 * games, 0, 0),
        "{} against win/block",
        start.spec()
    );
}

#[test]
fn engine_beats_random_and_win_block_players_on_connect_four() {
    beats_both_players(ConnectX64::new(6, 7, 4), SearchLimits::depth(6), 10);
}

#[test]
fn connectx_5x4x4_is_a_draw_with_best_play() {
    let game = ConnectX64::new(5, 4, 4);
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 16);
    let result = searcher.search(&game, &SearchLimits::depth(20), |_| {});
    assert!(result.solved);
    assert_eq!(result.score, Score::DRAW);
}

#[test]
fn engine_beats_random_and_win_block_players_on_5x4x4() {
    // A draw with best play (see above), and the opponents stumble into draws now and then:
    // the engine never loses, and wins at least three games in four.
    let start = ConnectX64::new(5, 4, 4);
    let evaluator = start.evaluator();
    let limits = SearchLimits::nodes(5_000);
    for (name, seed, opponent) in [
        (
            "random",
            21,
            random_move as fn(&ConnectX64, &mut SplitMix) -> u8,
        ),
        ("win/block", 22, win_block_move),
    ] {
        let (wins, draws, losses) = match_against(&start, &evaluator, &limits, 10, seed, opponent);
        assert_eq!(losses, 0, "against {name}");
        assert!(wins >= 15, "against {name}: {wins} wins, {draws} draws");
    }
}

#[test]
fn engine_beats_random_and_win_block_players_on_25x25x10() {
    beats_both_players(ConnectXWide::new(25, 25, 10), SearchLimits::depth(2), 5);
}

// ---------------------------------------------------------------------------------------------
// The evaluation itself.

/// The same moves on a packed and on a wide board.
fn replay_wide<B: ConnectBoard>(game: &ConnectX<B>) -> ConnectXWide {
    let mut wide = ConnectXWide::new(game.rows(), game.cols(), game.k());
    for &mv in game.history() {
        wide.play(mv);
    }
    wide
}

#[test]
fn packed_and_wide_boards_evaluate_alike() {
    fn check<B: ConnectBoard>(start: ConnectX<B>, seed: u64)
    where
        ConnectX<B>: EvaluatedGame<Move = u8, Evaluator = ConnectEvaluator>,
        ConnectEvaluator: Evaluator<ConnectX<B>>,
    {
        let evaluator = start.evaluator();
        let (mut packed_moves, mut wide_moves) = (Vec::new(), Vec::new());
        for game in random_positions(&start, 300, start.rows() * start.cols(), seed) {
            let wide = replay_wide(&game);
            assert_eq!(
                evaluator.evaluate(&game),
                Evaluator::<ConnectXWide>::evaluate(&evaluator, &wide),
                "{:?}",
                game.history()
            );
            evaluator.candidate_moves(&game, &mut packed_moves);
            Evaluator::<ConnectXWide>::candidate_moves(&evaluator, &wide, &mut wide_moves);
            assert_eq!(packed_moves, wide_moves);
            for &mv in &packed_moves {
                assert_eq!(
                    evaluator.move_hint(&game, mv),
                    Evaluator::<ConnectXWide>::move_hint(&evaluator, &wide, mv)
                );
            }
        }
    }
    check(ConnectX64::new(6, 7, 4), 30);
    check(ConnectX64::new(5, 4, 4), 31);
    check(ConnectX64::new(7, 7, 5), 32);
    check(ConnectX64::new(4, 6, 3), 33);
    check(ConnectX128::new(10, 10, 5), 34);
    check(ConnectX128::new(15, 7, 6), 35);
}

#[test]
fn mirrored_positions_evaluate_alike() {
    fn check<B: ConnectBoard>(start: ConnectX<B>, seed: u64)
    where
        ConnectX<B>: EvaluatedGame<Move = u8, Evaluator = ConnectEvaluator>,
        ConnectEvaluator: Evaluator<ConnectX<B>>,
    {
        let evaluator = start.evaluator();
        let last = start.cols() as u8 - 1;
        let max_plies = (start.rows() * start.cols()).min(120);
        for game in random_positions(&start, 150, max_plies, seed) {
            let mut mirror = start.clone();
            for &mv in game.history() {
                mirror.play(last - mv);
            }
            assert_eq!(
                evaluator.evaluate(&game),
                evaluator.evaluate(&mirror),
                "{:?}",
                game.history()
            );
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            for &mv in &moves {
                assert_eq!(
                    evaluator.move_hint(&game, mv),
                    evaluator.move_hint(&mirror, last - mv)
                );
            }
        }
    }
    check(ConnectX64::new(6, 7, 4), 40);
    check(ConnectX64::new(5, 6, 4), 41);
    check(ConnectXWide::new(25, 25, 10), 42);
    check(ConnectXWide::new(20, 20, 10), 43);
}

/// The position of a picture (rows from the top, `X` first player, `O` second, `.` empty),
/// reached by some legal order of moves (found by depth-first search).
fn from_picture(picture: &[&str], k: usize) -> ConnectX64 {
    let rows = picture.len();
    let cols = picture[0].len();
    // Per column, the discs from the bottom up.
    let stacks: Vec<Vec<Side>> = (0..cols)
        .map(|col| {
            (0..rows)
                .rev()
                .map(|row| picture[row].as_bytes()[col])
                .take_while(|&cell| cell != b'.')
                .map(|cell| {
                    if cell == b'X' {
                        Side::First
                    } else {
                        Side::Second
                    }
                })
                .collect()
        })
        .collect();
    fn fill(game: &mut ConnectX64, stacks: &[Vec<Side>]) -> bool {
        let done = (0..stacks.len()).all(|col| game.height(col) == stacks[col].len());
        if done {
            return true;
        }
        for col in 0..stacks.len() {
            let height = game.height(col);
            if height < stacks[col].len() && stacks[col][height] == game.to_move() {
                game.play(col as u8);
                if !game.status().is_over() && fill(game, stacks) {
                    return true;
                }
                game.undo();
            }
        }
        false
    }
    let mut game = ConnectX64::new(rows, cols, k);
    assert!(fill(&mut game, &stacks), "no legal order for {picture:?}");
    game
}

/// The evaluation of a position from the first player's side.
fn first_player_value(game: &ConnectX64) -> i32 {
    let value = game.evaluator().evaluate(game);
    match game.to_move() {
        Side::First => value,
        Side::Second => -value,
    }
}

#[test]
fn threats_on_the_right_rows_score_better() {
    // X has two threats on row 3 (odd: good for the first player) at columns 1 and 5.
    let odd = from_picture(
        &[
            ".......", //
            ".......", ".......", ".XXX...", ".XOX..O", "OOXO..O",
        ],
        4,
    );
    // The same shape one row higher, on an alternating bottom row: threats on row 4 (even).
    let even = from_picture(
        &[
            ".......", //
            ".......", ".XXX...", ".XOX..O", "OOXO..O", "XOXOXOX",
        ],
        4,
    );
    let (odd_value, even_value) = (first_player_value(&odd), first_player_value(&even));
    assert!(
        odd_value > even_value,
        "odd {odd_value}, even {even_value}\n{}\n{}",
        odd.render(),
        even.render()
    );
    // Exchanging two discs leaves X without a threat: worse for X.
    let fewer = from_picture(
        &[
            ".......", //
            ".......", ".......", ".XXO...", ".XOX..X", "OOXO..O",
        ],
        4,
    );
    assert!(first_player_value(&fewer) < odd_value);
}

#[test]
fn second_player_even_threat_scores_for_the_second_player() {
    // O has two threats on row 2 (even: good for the second player), in columns 1 and 5.
    let game = from_picture(
        &[
            ".......", //
            ".......", ".......", ".......", ".OOO..X", ".XOX..X",
        ],
        4,
    );
    assert_eq!(game.to_move(), Side::First);
    assert!(first_player_value(&game) < 0, "{}", game.render());
}

// ---------------------------------------------------------------------------------------------
// Measurements.

/// Plays `games` games with each colour between two evaluators at equal node budgets, after an
/// opening of `opening` random plies (the same for both colour assignments); returns (wins,
/// draws, losses) of the first evaluator.
fn duel<B: ConnectBoard>(
    start: &ConnectX<B>,
    ours: &ConnectEvaluator,
    theirs: &ConnectEvaluator,
    nodes: u64,
    games: usize,
    opening: usize,
) -> (usize, usize, usize)
where
    ConnectEvaluator: Evaluator<ConnectX<B>>,
{
    let mut rng = SplitMix::new(77);
    let mut tally = (0, 0, 0);
    for _ in 0..games {
        let mut opened = start.clone();
        for _ in 0..opening {
            let mv = random_move(&opened, &mut rng);
            opened.play(mv);
            if opened.status().is_over() {
                break;
            }
        }
        for our_side in Side::BOTH {
            let mut game = opened.clone();
            let mut us = Searcher::new(ours.clone(), Algorithm::Pvs, 16);
            let mut them = Searcher::new(theirs.clone(), Algorithm::Pvs, 16);
            while !game.status().is_over() {
                let limits = SearchLimits::nodes(nodes);
                let mv = if game.to_move() == our_side {
                    us.search(&game, &limits, |_| {}).best_move
                } else {
                    them.search(&game, &limits, |_| {}).best_move
                };
                game.play(mv.expect("a move"));
            }
            match game.status() {
                Status::Over(Outcome::Win(side)) if side == our_side => tally.0 += 1,
                Status::Over(Outcome::Draw) => tally.1 += 1,
                _ => tally.2 += 1,
            }
        }
    }
    tally
}

#[test]
#[ignore = "measurement: run with --ignored --nocapture"]
fn measure_strength_against_windows_only() {
    let start = ConnectX64::new(6, 7, 4);
    let full = ConnectEvaluator::new(6, 7, 4);
    let windows = ConnectEvaluator::with_weights(6, 7, 4, ConnectWeights::windows_only());
    for nodes in [2_000, 20_000] {
        let (w, d, l) = duel(&start, &full, &windows, nodes, 10, 2);
        println!("connect4, {nodes} nodes/move, 20 games: full eval {w} wins, {d} draws, {l} losses against windows only");
    }
    let start = ConnectXWide::new(25, 25, 10);
    let full = ConnectEvaluator::new(25, 25, 10);
    let windows = ConnectEvaluator::with_weights(25, 25, 10, ConnectWeights::windows_only());
    let (w, d, l) = duel(&start, &full, &windows, 3_000, 5, 2);
    println!("25x25x10, 3000 nodes/move, 10 games: full eval {w} wins, {d} draws, {l} losses against windows only");
}

fn time_evaluations<G: Game>(start: &G, evaluator: &impl Evaluator<G>, plies: usize) -> f64 {
    let positions = random_positions(start, 200, plies, 99);
    // The best of five timings: the machine is shared.
    (0..5)
        .map(|_| {
            let rounds = 40;
            let began = Instant::now();
            let mut sum = 0i64;
            for _ in 0..rounds {
                for game in &positions {
                    sum += evaluator.evaluate(game) as i64;
                }
            }
            assert_ne!(sum, i64::MIN);
            began.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore = "measurement: run with --ignored --nocapture"]
fn measure_evaluation_speed() {
    let game = ConnectX64::new(6, 7, 4);
    let ns = time_evaluations(&game, &game.evaluator(), 30);
    println!("6x7x4 packed: {ns:.0} ns per evaluation (0..30 random plies)");
    let game = ConnectXWide::new(6, 7, 4);
    let ns = time_evaluations(&game, &game.evaluator(), 30);
    println!("6x7x4 wide: {ns:.0} ns per evaluation (0..30 random plies)");
    for (rows, cols, k, plies) in [(25, 25, 10, 60), (100, 100, 30, 60), (100, 100, 30, 400)] {
        let game = ConnectXWide::new(rows, cols, k);
        let ns = time_evaluations(&game, &game.evaluator(), plies);
        println!("{rows}x{cols}x{k}: {ns:.0} ns per evaluation (0..{plies} random plies)");
    }
}
