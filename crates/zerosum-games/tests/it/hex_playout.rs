//! Hex's playouts to the end of the game (`hex::playout`): the outcome they read from the
//! full board is the game's own, they fill exactly the empty cells, and they save a bridge
//! the opponent's last stone intrudes.

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Outcome, Status};
use zerosum_games::connection::StoneMove;
use zerosum_games::hex::playout::play_out;
use zerosum_games::hex::{Hex, SwapRule};

/// A random position of `start`'s board, `plies` random moves in (fewer if the game ends).
fn random_position(start: &Hex, plies: usize, rng: &mut SplitMix) -> Hex {
    let mut game = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())]);
    }
    game
}

/// On random positions of several boards (rectangles, both swap rules, colours exchanged),
/// the playout's moves are the empty cells, each once, and its outcome is the one the game
/// reaches when they are played in order (the first chain to join its edges wins the full
/// board too).
#[test]
fn the_playout_winner_is_the_game_winner() {
    let mut rng = SplitMix::new(32);
    let mut played = Vec::new();
    let mut exchanged = 0;
    for (width, height, swap) in [
        (3, 3, None),
        (5, 4, None),
        (4, 6, Some(SwapRule::Sides)),
        (7, 7, Some(SwapRule::Sides)),
        (9, 9, Some(SwapRule::Pieces)),
        (11, 11, None),
    ] {
        let start = Hex::new(width, height, swap);
        for _ in 0..200 {
            let plies = rng.below(width * height / 2);
            let game = random_position(&start, plies, &mut rng);
            if game.status().is_over() {
                continue;
            }
            exchanged += usize::from(game.history().get(1) == Some(&StoneMove::Swap));
            let outcome = play_out(&game, &mut |n| rng.below(n), &mut played);
            let mut empty: Vec<usize> = (0..width * height)
                .filter(|&cell| game.stone(cell) == zerosum_games::connection::Stone::Empty)
                .collect();
            let mut filled: Vec<usize> = played
                .iter()
                .map(|&mv| match mv {
                    StoneMove::Place(cell) => usize::from(cell),
                    StoneMove::Swap => panic!("a playout swaps"),
                })
                .collect();
            filled.sort_unstable();
            empty.sort_unstable();
            assert_eq!(filled, empty, "{}", game.render());
            let mut replay = game.clone();
            for &mv in &played {
                replay.play(mv);
                if replay.status().is_over() {
                    break;
                }
            }
            assert_eq!(
                replay.status(),
                Status::Over(outcome),
                "{} then {played:?}",
                game.render()
            );
        }
    }
    assert!(exchanged > 0, "no position with the colours exchanged");
}

/// The opponent's stone between the two stones of a bridge, or between a stone on the second
/// row and its edge, is answered by the other cell of the bridge, whatever the draws; a move
/// that intrudes nothing leaves the first cell to chance.
#[test]
fn a_bridge_intrusion_is_answered_first() {
    let cell = |game: &Hex, name: &str| match game.parse_move(name).unwrap() {
        StoneMove::Place(cell) => cell,
        StoneMove::Swap => unreachable!(),
    };
    let mut played = Vec::new();
    // Black's bridge c3-d4 (carrier d3, c4), White intrudes at d3, Black to move: c4. Then
    // Black's stone b2 and the top edge (carrier b1, c1), White intrudes at c1: b1.
    for (moves, answer) in [("c3 a1 d4 d3", "c4"), ("b2 c1", "b1"), ("b2 e6", "")] {
        let mut game = Hex::new(7, 7, None);
        game.play_list(moves).unwrap();
        let mut firsts = std::collections::BTreeSet::new();
        for seed in 0..20 {
            let mut rng = SplitMix::new(seed);
            let outcome = play_out(&game, &mut |n| rng.below(n), &mut played);
            assert!(matches!(outcome, Outcome::Win(_)));
            let first = match played[0] {
                StoneMove::Place(cell) => cell,
                StoneMove::Swap => unreachable!(),
            };
            firsts.insert(first);
            if !answer.is_empty() {
                assert_eq!(first, cell(&game, answer), "{moves}: seed {seed}");
            }
        }
        assert_eq!(firsts.len() > 1, answer.is_empty(), "{moves}: {firsts:?}");
    }
}

/// Playouts per second on hex:11 from the empty board and from a middle-game position (40
/// random plies in), 100,000 each; the processor time is the run's (`/usr/bin/time` on the
/// test binary with this filter).
#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_playout_speed() {
    let start = Hex::new(11, 11, None);
    let mut rng = SplitMix::new(11);
    let middle = random_position(&start, 40, &mut rng);
    let mut played = Vec::new();
    for (name, game) in [("empty", &start), ("40 plies in", &middle)] {
        let playouts = 100_000;
        let begin = std::time::Instant::now();
        let mut first = 0;
        for _ in 0..playouts {
            let outcome = play_out(game, &mut |n| rng.below(n), &mut played);
            first += usize::from(outcome == Outcome::Win(zerosum_core::Side::First));
        }
        let seconds = begin.elapsed().as_secs_f64();
        println!(
            "hex 11x11 {name}: {playouts} playouts in {seconds:.3} s wall, {:.0} a second; first player won {first}",
            playouts as f64 / seconds
        );
    }
}
