//! The analysis of Hex positions for Monte Carlo search (`hex::analysis`): every verdict
//! checked against exhaustive values on small boards, and the cases it is built for.

use std::collections::HashMap;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, MoveVerdict, Status};
use zerosum_games::connection::StoneMove;
use zerosum_games::hex::{Hex, HexEvaluator, SwapRule};

/// Whether the side to move wins `game` (ongoing), by exhaustive search, memoised on the
/// position's hash (the side to move follows from the stones).
fn wins(game: &mut Hex, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&known) = memo.get(&game.hash()) {
        return known;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut won = false;
    for mv in moves {
        game.play(mv);
        let wins_here = match game.status() {
            Status::Over(_) => true,
            Status::Ongoing => !wins(game, memo),
        };
        game.undo();
        if wins_here {
            won = true;
            break;
        }
    }
    memo.insert(game.hash(), won);
    won
}

/// Whether `mv` wins for the side to move of `game`.
fn move_wins(game: &mut Hex, mv: StoneMove, memo: &mut HashMap<u64, bool>) -> bool {
    game.play(mv);
    let won = match game.status() {
        Status::Over(_) => true,
        Status::Ongoing => !wins(game, memo),
    };
    game.undo();
    won
}

/// The analysis of `game`'s candidates: the candidates and their verdicts.
fn analysed(game: &Hex) -> (Vec<StoneMove>, Vec<MoveVerdict>) {
    let evaluator = HexEvaluator::new(game.width(), game.height());
    let mut moves = Vec::new();
    evaluator.candidate_moves(game, &mut moves);
    let mut verdicts = Vec::new();
    evaluator.analyse(game, &moves, &mut verdicts);
    (moves, verdicts)
}

/// On random 4x4 positions (and 5x5 ones with many stones), every verdict is true: a move
/// said to win wins, one said to lose loses, and an inferior move wins only when a move
/// neither inferior nor lost wins too.
#[test]
fn every_verdict_agrees_with_exhaustive_values() {
    let mut rng = SplitMix::new(32);
    let mut memos: HashMap<usize, HashMap<u64, bool>> = HashMap::new();
    let mut counts: HashMap<MoveVerdict, usize> = HashMap::new();
    for (size, stones, positions) in [(4, 3..10, 300), (5, 14..19, 30)] {
        let memo = memos.entry(size).or_default();
        for _ in 0..positions {
            let mut game = Hex::new(size, size, None);
            let target = stones.start + rng.below(stones.end - stones.start);
            let mut moves = Vec::new();
            while game.ply() < target && game.status() == Status::Ongoing {
                game.legal_moves(&mut moves);
                game.play(moves[rng.below(moves.len())]);
            }
            if game.status() != Status::Ongoing {
                continue;
            }
            let (moves, verdicts) = analysed(&game);
            assert_eq!(moves.len(), verdicts.len());
            let mut best_kept = false;
            let mut inferior_wins = false;
            for (&mv, &verdict) in moves.iter().zip(&verdicts) {
                *counts.entry(verdict).or_default() += 1;
                let won = move_wins(&mut game, mv, memo);
                let text = game.format_move(mv);
                match verdict {
                    MoveVerdict::Wins => assert!(won, "{text} said to win: {}", game.render()),
                    MoveVerdict::Loses => assert!(!won, "{text} said to lose: {}", game.render()),
                    MoveVerdict::Open => best_kept |= won,
                    MoveVerdict::Inferior => inferior_wins |= won,
                }
                best_kept |= verdict == MoveVerdict::Wins;
            }
            assert!(
                best_kept || !inferior_wins,
                "an inferior move wins, no kept one does: {}",
                game.render()
            );
        }
    }
    // The sample exercises every verdict.
    for verdict in [
        MoveVerdict::Open,
        MoveVerdict::Wins,
        MoveVerdict::Loses,
        MoveVerdict::Inferior,
    ] {
        assert!(
            counts.get(&verdict).copied().unwrap_or(0) > 0,
            "no {verdict:?}: {counts:?}"
        );
    }
}

/// On 3x3 after Black's central stone (bridged to both its edges: a full connection), every
/// White move loses; with the swap legal, nothing is analysed.
#[test]
fn a_lost_position_loses_every_move_and_the_swap_is_left_alone() {
    let mut game = Hex::new(3, 3, None);
    game.play_list("b2").unwrap();
    let (moves, verdicts) = analysed(&game);
    assert!(!moves.is_empty());
    assert!(
        verdicts.iter().all(|&v| v == MoveVerdict::Loses),
        "{verdicts:?}"
    );
    let mut swap = Hex::new(3, 3, Some(zerosum_games::hex::SwapRule::Pieces));
    swap.play_list("b2").unwrap();
    let (moves, verdicts) = analysed(&swap);
    assert!(moves.contains(&StoneMove::Swap));
    assert!(verdicts.iter().all(|&v| v == MoveVerdict::Open));
}

/// The analysis is the evaluation named `analysis`; the default (`potential`) has none, and
/// another name is refused with the names there are.
#[test]
fn the_analysis_is_an_evaluation_by_name() {
    use zerosum_games::EvaluatedGame;
    let game = Hex::new(11, 11, None);
    assert_eq!(game.evaluator().analysis_visits(), None);
    assert_eq!(
        game.evaluator_named("potential").unwrap().analysis_visits(),
        None
    );
    assert!(game
        .evaluator_named("analysis")
        .unwrap()
        .analysis_visits()
        .is_some());
    assert!(game
        .evaluator_named("patterns")
        .unwrap()
        .analysis_visits()
        .is_none());
    let error = game.evaluator_named("gammas").unwrap_err();
    assert!(
        error.contains("potential, analysis, patterns, playouts or rave"),
        "{error}"
    );
}

/// The radius-2 pattern extractor (`hex::patterns`): the edges as stones of their colour and
/// the corners as walls; White's view of a position is Black's view of the position mirrored
/// in the long diagonal with the colours exchanged (built by the swap of pieces, which mirrors
/// the first stone into White's); a board turned by 180° gives the turned pattern, hence the
/// same canonical code.
#[test]
fn radius_two_patterns_see_edges_colours_and_the_turned_board() {
    use zerosum_games::connection::Stone;
    use zerosum_games::hex::patterns::{
        canonical, pattern_code, turned, EMPTY, OWN, RADIUS_2, THEIRS, WALL,
    };
    let state = |code: u64, offset: (isize, isize)| {
        let i = RADIUS_2.iter().position(|&o| o == offset).unwrap();
        (code >> (2 * i)) & 3
    };
    // The acute corner a1 of an empty 5x5 board, from Black's view.
    let empty = Hex::new(5, 5, None);
    let corner = pattern_code(&empty, 0, Stone::Black);
    assert_eq!(state(corner, (0, -1)), OWN, "the top edge is Black's");
    assert_eq!(state(corner, (-1, 0)), THEIRS, "the left edge is White's");
    assert_eq!(state(corner, (-1, -1)), WALL);
    assert_eq!(state(corner, (1, 0)), EMPTY);
    assert_eq!(
        pattern_code(&empty, 12, Stone::Black),
        0,
        "the centre sees no edge"
    );

    // White sees the top-left corner with its own edge where Black sees its own.
    assert_eq!(pattern_code(&empty, 0, Stone::White), corner);

    let mut rng = SplitMix::new(7);
    for _ in 0..50 {
        let (width, height) = (3 + rng.below(6), 3 + rng.below(6));
        let side = width;
        let mut game = Hex::new(width, height, None);
        let mut turned_game = Hex::new(width, height, None);
        // On a square board: the same position mirrored, colours exchanged.
        let mut square = Hex::new(side, side, None);
        let mut mirrored = Hex::new(side, side, Some(SwapRule::Pieces));
        let mirror = |cell: usize| (cell % side) * side + cell / side;
        let mut moves = Vec::new();
        for ply in 0..rng.below(width * height) {
            game.legal_moves(&mut moves);
            let StoneMove::Place(cell) = moves[rng.below(moves.len())] else {
                unreachable!("no swap rule")
            };
            game.play(StoneMove::Place(cell));
            let turned_cell = (width * height - 1 - usize::from(cell)) as u16;
            turned_game.play(StoneMove::Place(turned_cell));
            if ply < side * side && !square.status().is_over() {
                square.legal_moves(&mut moves);
                let StoneMove::Place(cell) = moves[rng.below(moves.len())] else {
                    unreachable!("no swap rule")
                };
                square.play(StoneMove::Place(cell));
                if ply == 0 {
                    // Black's stone on the mirrored cell, swapped into White's on this one.
                    mirrored.play(StoneMove::Place(cell));
                    mirrored.play(StoneMove::Swap);
                } else {
                    mirrored.play(StoneMove::Place(mirror(cell.into()) as u16));
                }
            }
            if game.status().is_over() {
                break;
            }
        }
        for cell in 0..width * height {
            let code = pattern_code(&game, cell, Stone::Black);
            let other = pattern_code(&turned_game, width * height - 1 - cell, Stone::Black);
            assert_eq!(other, turned(code));
            assert_eq!(canonical(other), canonical(code));
        }
        for cell in 0..side * side {
            assert_eq!(
                mirrored.stone(mirror(cell)) == Stone::Empty,
                square.stone(cell) == Stone::Empty
            );
            assert_eq!(
                pattern_code(&square, cell, Stone::White),
                pattern_code(&mirrored, mirror(cell), Stone::Black)
            );
            assert_eq!(
                pattern_code(&square, cell, Stone::Black),
                pattern_code(&mirrored, mirror(cell), Stone::White)
            );
        }
    }
}
