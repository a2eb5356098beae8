//! The Hex proof-number solver (`zerosum_games::hex::dfpn`) against the generic alpha-beta
//! solver: every 4x4 position of up to two stones and many of three, sampled 5x5 positions, with all its
//! knowledge and (on the fuller boards, where it is quick enough) with none, so the fill-in,
//! the connections, the mustplay and the dominated moves never change a value.

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Score};
use zerosum_games::hex::dfpn::{DfpnLimits, DfpnOptions, HexSolver};
use zerosum_games::hex::Hex;
use zerosum_games::EvaluatedGame;
use zerosum_search::{AlphaBetaSolver, SearchLimits};

/// The alpha-beta solver's value: whether the side to move wins.
fn alpha_beta_wins(game: &Hex) -> bool {
    let mut solver = AlphaBetaSolver::new(game.evaluator(), 4);
    let solution = solver.solve(game, true, &SearchLimits::default()).unwrap();
    solution.score > Score::DRAW
}

/// Checks the solvers' values on `game` (the bare one only from `bare_from` stones on: it is
/// slow on emptier boards), and that the proof-number solver's best move of a win wins.
fn check(game: &Hex, solvers: &mut [HexSolver; 2], bare_from: usize) {
    let truth = alpha_beta_wins(game);
    let used = if game.ply() >= bare_from { 2 } else { 1 };
    for solver in solvers.iter_mut().take(used) {
        let result = solver.solve(game, &DfpnLimits::default()).unwrap();
        assert_eq!(result.wins, Some(truth), "\n{}", game.render());
        if truth {
            let mut after = game.clone();
            after.play(result.best.expect("a winning move"));
            assert!(
                after.status().is_over() || !alpha_beta_wins(&after),
                "a best move that does not win in\n{}",
                game.render()
            );
        }
    }
}

fn solvers(size: usize) -> [HexSolver; 2] {
    let bare = DfpnOptions {
        inferior: false,
        connections: false,
        ..DfpnOptions::with_table_mb(16)
    };
    [
        HexSolver::new(size, size, DfpnOptions::with_table_mb(16)).unwrap(),
        HexSolver::new(size, size, bare).unwrap(),
    ]
}

#[test]
fn dfpn_equals_alpha_beta_on_every_small_4x4_position() {
    let mut solvers = solvers(4);
    let mut game = Hex::new(4, 4, None);
    let mut checked = 0;
    let mut visit = |game: &mut Hex, checked: &mut usize| {
        if !game.status().is_over() {
            check(game, &mut solvers, 3);
            *checked += 1;
        }
    };
    visit(&mut game, &mut checked);
    for a in 0..16u16 {
        game.play(zerosum_games::connection::StoneMove::Place(a));
        visit(&mut game, &mut checked);
        for b in 0..16u16 {
            if b == a {
                continue;
            }
            game.play(zerosum_games::connection::StoneMove::Place(b));
            visit(&mut game, &mut checked);
            // The third stone: one of each class of positions (Black's two stones in
            // increasing order) with Black's first stone in the upper half, to keep the
            // count down.
            let thirds = if a < 8 { (a + 1)..16 } else { 0..0 };
            for c in thirds {
                if c == b {
                    continue;
                }
                game.play(zerosum_games::connection::StoneMove::Place(c));
                visit(&mut game, &mut checked);
                game.undo();
            }
            game.undo();
        }
        game.undo();
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn dfpn_equals_alpha_beta_on_sampled_5x5_positions() {
    let mut rng = SplitMix::new(55);
    let mut solvers = solvers(5);
    let mut checked = 0;
    while checked < 20 {
        let mut game = Hex::new(5, 5, None);
        let stones = 7 + rng.below(6);
        while game.ply() < stones && !game.status().is_over() {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            game.play(moves[rng.below(moves.len())]);
        }
        if !game.status().is_over() {
            check(&game, &mut solvers, 8);
            checked += 1;
        }
    }
}
