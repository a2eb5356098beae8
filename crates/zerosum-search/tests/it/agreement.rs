//! Every alpha-beta variant returns the value of plain minimax at fixed depth, on random
//! positions of every game family; depth- and node-limited searches are deterministic.

use zerosum_core::conformance::SplitMix;
use zerosum_core::{zobrist_key, Evaluator, Game, Outcome, Score, Status};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

/// Leaf values drawn from the position's hash: a hard, irregular tree for alpha-beta, and
/// the same value for the same position however it is reached.
#[derive(Clone)]
struct NoisyEvaluator;

impl<G: Game> Evaluator<G> for NoisyEvaluator {
    fn evaluate(&self, game: &G) -> i32 {
        (game.hash() % 401) as i32 - 200
    }

    fn move_hint(&self, game: &G, mv: G::Move) -> i32 {
        (zobrist_key(game.move_id(mv) as u64) % 16) as i32
    }
}

/// Plain recursive negamax, written here independently of the searcher.
fn reference_minimax<G: Game>(game: &mut G, depth: usize, ply: usize) -> Score {
    match game.status() {
        Status::Over(Outcome::Draw) => return Score::DRAW,
        Status::Over(Outcome::Win(side)) if side == game.to_move() => return Score::win_in(ply),
        Status::Over(Outcome::Win(_)) => return Score::loss_in(ply),
        Status::Ongoing => {}
    }
    if depth == 0 {
        return Score::eval(NoisyEvaluator.evaluate(game));
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best = -Score::INFINITE;
    for mv in moves {
        game.play(mv);
        best = best.max(-reference_minimax(game, depth - 1, ply + 1));
        game.undo();
    }
    best
}

struct Agreement {
    positions: usize,
    max_depth: usize,
    seed: u64,
}

impl GameVisitor for Agreement {
    type Output = usize;

    /// Returns the number of (position, depth) pairs checked.
    fn visit<G: EvaluatedGame>(self, start: G) -> usize {
        let mut rng = SplitMix::new(self.seed);
        let mut moves = Vec::new();
        let mut checked = 0;
        // Every algorithm that searches to a fixed depth (MCTS has no depth).
        let mut searchers: Vec<Searcher<G, NoisyEvaluator>> = Algorithm::ALL
            .into_iter()
            .filter(|&algorithm| algorithm != Algorithm::Mcts)
            .map(|algorithm| Searcher::new(NoisyEvaluator, algorithm, 1))
            .collect();
        while checked < self.positions * self.max_depth {
            let mut game = start.clone();
            let plies = rng.below(game.move_id_bound().min(40));
            for _ in 0..plies {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]);
            }
            if game.status().is_over() {
                continue;
            }
            let spec = game.spec();
            let line: Vec<String> = game
                .history()
                .iter()
                .map(|&m| game.format_move(m))
                .collect();
            for depth in 1..=self.max_depth {
                let expected = reference_minimax(&mut game.clone(), depth, 0);
                for searcher in &mut searchers {
                    searcher.clear();
                    let result = searcher.search(&game, &SearchLimits::depth(depth), |_| {});
                    assert_eq!(
                        result.score,
                        expected,
                        "{spec} after {} at depth {depth}: {} says {}, minimax {}",
                        line.join(","),
                        searcher.algorithm(),
                        result.score,
                        expected
                    );
                    let best = result.best_move.expect("a move");
                    assert!(
                        game.is_legal(best),
                        "{} returned an illegal move",
                        searcher.algorithm()
                    );
                    // The principal variation is a legal line starting with the best move.
                    assert_eq!(result.pv.first(), Some(&best), "{}", searcher.algorithm());
                    let mut replay = game.clone();
                    for &mv in &result.pv {
                        assert!(
                            replay.is_legal(mv),
                            "{} PV is not legal",
                            searcher.algorithm()
                        );
                        replay.play(mv);
                    }
                }
                checked += 1;
            }
        }
        checked
    }
}

fn agree(spec: &str, positions: usize, max_depth: usize) {
    let spec: GameSpec = spec.parse().unwrap();
    let checked = visit_game(
        &spec,
        Agreement {
            positions,
            max_depth,
            seed: 0xA6EE,
        },
    )
    .unwrap();
    assert_eq!(checked, positions * max_depth);
}

#[test]
fn all_algorithms_agree_with_minimax_on_mnk() {
    agree("tictactoe", 200, 5);
    agree("mnk:4x4x3", 150, 4);
    agree("mnk:5x5x4", 100, 3);
    agree("gomoku", 50, 2);
}

#[test]
fn all_algorithms_agree_with_minimax_on_connectx() {
    agree("connect4", 200, 5);
    agree("connectx:4x5x3", 150, 5);
    agree("connectx:20x20x6", 50, 3);
}

#[test]
fn all_algorithms_agree_with_minimax_on_hex() {
    agree("hex:3", 150, 5);
    agree("hex:4:swap-sides", 150, 3);
    agree("hex:4:swap-pieces", 100, 3);
    agree("hex:7", 50, 2);
}

#[test]
fn all_algorithms_agree_with_minimax_on_atoll() {
    agree("atoll:hexhex2", 200, 5);
    agree("atoll:rhombus3:pie", 150, 4);
    agree("atoll:standard", 30, 2);
}

#[test]
fn all_algorithms_agree_with_minimax_on_unstable() {
    agree("unstable:3x3", 200, 4);
    agree("unstable:10x6", 100, 3);
}

struct Determinism;

impl GameVisitor for Determinism {
    type Output = ();

    fn visit<G: Game>(self, start: G) {
        for limits in [SearchLimits::depth(4), SearchLimits::nodes(20_000)] {
            let runs: Vec<_> = (0..3)
                .map(|_| {
                    let mut searcher = Searcher::new(NoisyEvaluator, Algorithm::Pvs, 4);
                    let result = searcher.search(&start, &limits, |_| {});
                    (result.best_move, result.nodes, result.score)
                })
                .collect();
            assert!(runs.windows(2).all(|w| w[0] == w[1]), "{runs:?}");
        }
    }
}

#[test]
fn depth_and_node_limited_searches_are_deterministic() {
    for spec in ["connect4", "gomoku", "hex:7", "atoll:standard", "unstable"] {
        visit_game(&spec.parse().unwrap(), Determinism).unwrap();
    }
}

#[test]
fn searches_prefer_the_fastest_win() {
    // X to move on tic-tac-toe can win at once (c1) or later; the score is a win in 1.
    let spec: GameSpec = "tictactoe".parse().unwrap();
    struct FastestWin;
    impl GameVisitor for FastestWin {
        type Output = ();
        fn visit<G: Game>(self, mut game: G) {
            game.play_list("a1,a2,b1,b2").unwrap();
            for algorithm in Algorithm::ALL {
                let mut searcher = Searcher::new(NoisyEvaluator, algorithm, 1);
                let result = searcher.search(&game, &SearchLimits::depth(6), |_| {});
                assert_eq!(result.score, Score::win_in(1), "{algorithm}");
                assert_eq!(
                    game.format_move(result.best_move.unwrap()),
                    "c1",
                    "{algorithm}"
                );
                assert!(result.solved);
            }
        }
    }
    visit_game(&spec, FastestWin).unwrap();
}
