//! Monte Carlo tree search (`Algorithm::Mcts`) against truth: it plays and proves forced wins
//! in one and in two on every family, its proven values agree with the exact solver on small
//! boards, a playout limit makes it deterministic, it keeps to the clock and the stop flag,
//! keeps its tree from move to move, and never plays an illegal move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, MoveVerdict, Outcome, Score, Status};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{Algorithm, AlphaBetaSolver, SearchLimits, Searcher, Threads};

use crate::common::{legal, line, middle_game, random_move};

/// Far more than a search told to stop may take to return, even on a loaded machine.
const WATCHDOG: Duration = Duration::from_secs(5);

fn mcts<G: EvaluatedGame>(game: &G, table_mb: usize) -> Searcher<G, G::Evaluator> {
    Searcher::new(game.evaluator(), Algorithm::Mcts, table_mb)
}

fn on<V: GameVisitor>(spec: &str, visitor: V) -> V::Output {
    let spec: GameSpec = spec.parse().unwrap();
    visit_game(&spec, visitor).unwrap()
}

/// A random position of `start`'s board: a random game played to its end, taken back to a
/// random ply (perhaps the start), at least `min_plies` from the start if the game was longer.
fn random_position<G: Game>(start: &G, min_plies: usize, rng: &mut SplitMix) -> G {
    let mut game = start.clone();
    while !game.status().is_over() {
        let mv = random_move(&game, rng);
        game.play(mv);
    }
    let plies = game.ply() - start.ply();
    let keep = if plies > min_plies {
        min_plies + rng.below(plies - min_plies)
    } else {
        rng.below(plies)
    };
    while game.ply() > start.ply() + keep {
        game.undo();
    }
    game
}

/// Whether `mv` wins by force for the side to move of `game` within `plies` plies (odd),
/// whatever the opponent replies: every legal move tried, no evaluator.
fn move_wins_within<G: Game>(game: &mut G, mv: G::Move, plies: usize) -> bool {
    let mover = game.to_move();
    game.play(mv);
    let wins = match game.status() {
        Status::Over(outcome) => outcome == Outcome::Win(mover),
        Status::Ongoing => {
            plies >= 3
                && legal(game).into_iter().all(|reply| {
                    game.play(reply);
                    let wins = match game.status() {
                        Status::Over(outcome) => outcome == Outcome::Win(mover),
                        Status::Ongoing => {
                            game.to_move() == mover
                                && legal(game)
                                    .into_iter()
                                    .any(|next| move_wins_within(game, next, plies - 2))
                        }
                    };
                    game.undo();
                    wins
                })
        }
    };
    game.undo();
    wins
}

/// The fewest plies (1 or 3) in which the side to move of `game` forces a win, if it can.
fn forced_win<G: Game>(game: &mut G) -> Option<usize> {
    [1, 3].into_iter().find(|&plies| {
        legal(game)
            .into_iter()
            .any(|mv| move_wins_within(game, mv, plies))
    })
}

/// Random positions of the board, up to `wanted` with a forced win in one and as many with a
/// fastest forced win in two (three plies); asserts that MCTS plays a winning move in each
/// and proves it.
struct ForcedWins {
    wanted: usize,
    seed: u64,
}

impl GameVisitor for ForcedWins {
    /// Positions checked with a win in one, and with a win in two.
    type Output = [usize; 2];

    fn visit<G: EvaluatedGame>(self, start: G) -> [usize; 2] {
        let mut rng = SplitMix::new(self.seed);
        let mut found = [0, 0];
        let mut searcher = mcts(&start, 16);
        for _ in 0..400 {
            if found.iter().all(|&n| n >= self.wanted) {
                break;
            }
            let mut game = random_position(&start, 0, &mut rng);
            let Some(distance) = forced_win(&mut game) else {
                continue;
            };
            let kind = distance / 2;
            if found[kind] >= self.wanted {
                continue;
            }
            found[kind] += 1;
            searcher.clear();
            let result = searcher.search(&game, &SearchLimits::nodes(200_000), |_| {});
            let mv = result.best_move.expect("the game goes on");
            let context = format!(
                "{} after {}: played {} ({} {}, {} playouts)",
                game.spec(),
                line(&game),
                game.format_move(mv),
                result.score,
                if result.solved { "proven" } else { "unproven" },
                result.nodes
            );
            assert!(move_wins_within(&mut game, mv, distance), "{context}");
            assert!(result.solved, "{context}");
            // A win proven by the game's static test (a virtual connection) is proven without
            // its distance: the score is a win no sooner than the true one.
            let mut child = game.clone();
            child.play(mv);
            let statically = start.evaluator().proven_winner(&child) == Some(game.to_move());
            if statically && distance > 1 {
                assert!(result.score.is_decisive(), "{context}");
                assert!(result.score <= Score::win_in(distance), "{context}");
            } else {
                assert_eq!(result.score, Score::win_in(distance), "{context}");
            }
            assert_eq!(result.pv.first(), Some(&mv), "{context}");
        }
        found
    }
}

#[test]
fn mcts_plays_and_proves_forced_wins_in_one_and_two_on_every_family() {
    for (spec, seed) in [
        ("tictactoe", 1),
        ("mnk:5x5x4", 2),
        ("connect4", 3),
        ("connectx:5x4x4", 4),
        ("hex:4", 5),
        ("hex:5", 6),
        ("atoll:hexhex4", 7),
        ("unstable:3x3", 8),
        ("unstable:4x4", 9),
    ] {
        let found = on(spec, ForcedWins { wanted: 3, seed });
        assert!(
            found.iter().all(|&n| n > 0),
            "{spec}: no position with a forced win found ({found:?})"
        );
    }
}

/// MCTS searches random positions (and the start, if `from_start`) until it proves their
/// value, which must have the sign of the exact solver's, and so must the position after its
/// move.
struct AgreesWithSolver {
    positions: usize,
    from_start: bool,
    min_plies: usize,
    seed: u64,
}

impl GameVisitor for AgreesWithSolver {
    type Output = ();

    fn visit<G: EvaluatedGame>(self, start: G) {
        let mut rng = SplitMix::new(self.seed);
        let mut solver = AlphaBetaSolver::new(start.evaluator(), 4);
        let mut searcher = mcts(&start, 64);
        let mut positions = Vec::new();
        if self.from_start {
            positions.push(start.clone());
        }
        while positions.len() < self.positions {
            positions.push(random_position(&start, self.min_plies, &mut rng));
        }
        for game in positions {
            solver.clear();
            let truth = solver.solve(&game, true, &SearchLimits::default()).unwrap();
            searcher.clear();
            let result = searcher.search(&game, &SearchLimits::nodes(3_000_000), |_| {});
            let context = format!("{} after {}", game.spec(), line(&game));
            assert!(
                result.solved,
                "{context}: not proven in {} playouts",
                result.nodes
            );
            assert_eq!(
                result.score.0.signum(),
                truth.score.0.signum(),
                "{context}: MCTS {}, solver {}",
                result.score,
                truth.score
            );
            let mv = result.best_move.unwrap();
            let mut after = game.clone();
            after.play(mv);
            // The move keeps the value: the solver agrees on the position after it.
            let reply = match after.status() {
                Status::Over(Outcome::Draw) => 0,
                Status::Over(Outcome::Win(side)) => {
                    if side == game.to_move() {
                        1
                    } else {
                        -1
                    }
                }
                Status::Ongoing => {
                    solver.clear();
                    let value = solver
                        .solve(&after, true, &SearchLimits::default())
                        .unwrap()
                        .score
                        .0
                        .signum();
                    if after.to_move() == game.to_move() {
                        value
                    } else {
                        -value
                    }
                }
            };
            assert_eq!(
                reply,
                truth.score.0.signum(),
                "{context}: {}",
                game.format_move(mv)
            );
        }
    }
}

#[test]
fn mcts_proven_values_agree_with_the_solver_on_small_boards() {
    // Tic-tac-toe from the start is a draw, proven over the whole tree.
    for (spec, from_start, min_plies, seed) in [
        ("tictactoe", true, 0, 11),
        ("mnk:4x4x3", true, 0, 12),
        ("connectx:4x4x3", true, 0, 13),
        ("connectx:5x4x4", false, 8, 14),
        ("hex:3", true, 0, 15),
        ("hex:4", false, 4, 16),
        ("unstable:2x3", false, 0, 17),
    ] {
        let positions = 8;
        on(
            spec,
            AgreesWithSolver {
                positions,
                from_start,
                min_plies,
                seed,
            },
        );
    }
}

/// Two fresh searches of a middle-game position with the same playout limit: the same move,
/// line, value and playouts (all of them, unless the search proved the value sooner).
struct Reproducible;

impl GameVisitor for Reproducible {
    type Output = ();

    fn visit<G: EvaluatedGame>(self, mut game: G) {
        middle_game(&mut game);
        let limits = SearchLimits::nodes(3_000);
        let first = mcts(&game, 4).search(&game, &limits, |_| {});
        let second = mcts(&game, 4).search(&game, &limits, |_| {});
        let spec = game.spec();
        assert!(
            first.best_move.is_some_and(|mv| game.is_legal(mv)),
            "{spec}"
        );
        assert_eq!(first.best_move, second.best_move, "{spec}");
        assert_eq!(first.pv, second.pv, "{spec}");
        assert_eq!(first.score, second.score, "{spec}");
        assert_eq!(first.nodes, second.nodes, "{spec}");
        assert!(first.solved || first.nodes == 3_000, "{spec}");
    }
}

#[test]
fn a_playout_limit_gives_the_same_move_twice() {
    for spec in [
        "gomoku",
        "connect4",
        "connectx:50x50x15",
        "hex:11",
        "atoll:standard",
        "unstable:10x6",
    ] {
        on(spec, Reproducible);
    }
}

/// A timed search and a search stopped by its flag return a legal move within the watchdog,
/// on large boards, with one thread and two.
struct Stops;

impl GameVisitor for Stops {
    type Output = ();

    fn visit<G: EvaluatedGame>(self, mut game: G) {
        middle_game(&mut game);
        let spec = game.spec();
        for threads in [1, 2] {
            let threads = Threads::new(threads).unwrap();
            let mut searcher = mcts(&game, 16);
            let limits = SearchLimits {
                time: Some(Duration::from_millis(50)),
                threads,
                ..SearchLimits::default()
            };
            let started = Instant::now();
            let result = searcher.search(&game, &limits, |_| {});
            assert!(
                started.elapsed() < WATCHDOG,
                "{spec}: {:?}",
                started.elapsed()
            );
            assert!(
                result.best_move.is_some_and(|mv| game.is_legal(mv)),
                "{spec}"
            );
            assert!(result.nodes >= result.main_nodes, "{spec}");

            let stop = Arc::new(AtomicBool::new(false));
            let limits = SearchLimits {
                stop: Some(stop.clone()),
                threads,
                ..SearchLimits::default()
            };
            let raiser = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            });
            let started = Instant::now();
            let result = searcher.search(&game, &limits, |_| {});
            assert!(
                started.elapsed() < WATCHDOG,
                "{spec}: {:?}",
                started.elapsed()
            );
            assert!(
                result.best_move.is_some_and(|mv| game.is_legal(mv)),
                "{spec}"
            );
            raiser.join().unwrap();
        }
    }
}

#[test]
fn mcts_keeps_to_the_clock_and_the_stop_flag() {
    for spec in [
        "mnk:70x70x10",
        "connectx:100x100x30",
        "hex:19",
        "atoll:standard",
        "unstable:30x30",
    ] {
        on(spec, Stops);
    }
}

#[test]
fn the_tree_is_kept_for_the_next_move() {
    let game = zerosum_games::hex::Hex::new(7, 7, None);
    let mut searcher = mcts(&game, 16);
    let first = searcher.search(&game, &SearchLimits::nodes(20_000), |_| {});
    let mut next = game.clone();
    next.play(first.pv[0]);
    // One more playout: the best move's visits include those of the first search.
    let mut visits = 0;
    let second = searcher.search(&next, &SearchLimits::nodes(1), |info| {
        visits = info.tree.map_or(0, |t| t.visits);
    });
    assert_eq!(second.nodes, 1);
    assert!(visits > 1, "{visits}");
    // A fresh searcher, or a position that does not follow from the last root, starts afresh.
    for (searcher, position) in [(&mut mcts(&game, 16), &next), (&mut searcher, &game)] {
        let mut visits = 0;
        searcher.search(position, &SearchLimits::nodes(1), |info| {
            visits = info.tree.map_or(0, |t| t.visits);
        });
        assert_eq!(visits, 1);
    }
}

/// Whole games of MCTS (few playouts, one thread or two) against a random player: every move
/// MCTS plays is legal.
struct NeverIllegal {
    games: usize,
}

impl GameVisitor for NeverIllegal {
    type Output = ();

    fn visit<G: EvaluatedGame>(self, start: G) {
        let mut rng = SplitMix::new(7);
        let mut searcher = mcts(&start, 4);
        for game_number in 0..self.games {
            let threads = Threads::new(1 + game_number % 2).unwrap();
            let limits = SearchLimits {
                nodes: Some(200),
                threads,
                ..SearchLimits::default()
            };
            let mut game = start.clone();
            while !game.status().is_over() {
                let mv = if game.ply() % 2 == game_number % 2 {
                    let result = searcher.search(&game, &limits, |_| {});
                    let mv = result.best_move.expect("the game goes on");
                    assert!(
                        game.is_legal(mv),
                        "{} after {}: illegal {}",
                        game.spec(),
                        line(&game),
                        game.format_move(mv)
                    );
                    mv
                } else {
                    random_move(&game, &mut rng)
                };
                game.play(mv);
            }
        }
    }
}

#[test]
fn mcts_never_plays_an_illegal_move() {
    for spec in [
        "tictactoe",
        "mnk:9x9x5",
        "connect4",
        "hex:7:swap-sides",
        "hex:5:swap-pieces",
        "atoll:hexhex4:pie",
        "unstable:4x4",
    ] {
        on(spec, NeverIllegal { games: 4 });
    }
}

/// The evaluator is not needed to be right: a blind one proves tic-tac-toe a draw as well.
#[derive(Clone)]
struct Blind;

impl<G: Game> Evaluator<G> for Blind {
    fn evaluate(&self, _game: &G) -> i32 {
        0
    }
}

#[test]
fn tic_tac_toe_is_a_proven_draw_without_knowledge() {
    let game = zerosum_games::mnk::Mnk::<1>::new(3, 3, 3);
    let mut searcher = Searcher::new(Blind, Algorithm::Mcts, 64);
    let result = searcher.search(&game, &SearchLimits::default(), |_| {});
    assert!(result.solved);
    assert_eq!(result.score, Score::DRAW);
}

/// Over the positions of random games, the game's playout move (when it names one) is legal.
struct PlayoutMovesAreLegal;

impl GameVisitor for PlayoutMovesAreLegal {
    /// How many positions named a playout move.
    type Output = usize;

    fn visit<G: EvaluatedGame>(self, start: G) -> usize {
        let evaluator = start.evaluator();
        let mut rng = SplitMix::new(5);
        let mut named = 0;
        for _ in 0..20 {
            let mut game = start.clone();
            while !game.status().is_over() {
                if let Some(mv) = evaluator.playout_move(&game) {
                    named += 1;
                    assert!(
                        game.is_legal(mv),
                        "{} after {}: {}",
                        game.spec(),
                        line(&game),
                        game.format_move(mv)
                    );
                }
                let mv = random_move(&game, &mut rng);
                game.play(mv);
            }
        }
        named
    }
}

#[test]
fn playout_moves_are_legal() {
    for (spec, policy) in [
        ("connect4", true),
        ("connectx:30x30x8", true),
        ("hex:7", true),
        ("hex:6:swap-pieces", true),
        ("atoll:standard", true),
        ("atoll:hexhex4:pie", true),
        ("gomoku", false),
        ("unstable:5x5", false),
    ] {
        let named = on(spec, PlayoutMovesAreLegal);
        assert_eq!(named > 0, policy, "{spec}: {named} playout moves");
    }
}

/// Hex knowledge in the tree (priors, the saved bridge first, virtual connections as proofs):
/// an intrusion into a bridge of a connected chain is answered in the other carrier cell, and
/// the answer is a proven win.
#[test]
fn mcts_answers_a_bridge_intrusion_with_a_proven_win() {
    // Black: d2 (template to the top), bridge d2-c4 (carrier d3, c3), bridge c4-b6 (c5, b5),
    // b6 (template to the bottom). White intrudes d3.
    let mut game = zerosum_games::hex::Hex::new(7, 7, None);
    game.play_list("d2 a1 c4 a2 b6 d3").unwrap();
    let mut searcher = mcts(&game, 16);
    let result = searcher.search(&game, &SearchLimits::nodes(2_000), |_| {});
    assert_eq!(game.format_move(result.best_move.unwrap()), "c3");
    assert!(result.solved);
    assert!(
        result.score.is_decisive() && result.score > Score::DRAW,
        "{:?}",
        result.score
    );
}

/// The Hex evaluation `analysis`, with Monte Carlo nodes analysed.
fn hex_analysis(
    game: &zerosum_games::hex::Hex,
) -> Searcher<zerosum_games::hex::Hex, zerosum_games::hex::HexEvaluator> {
    Searcher::new(
        game.evaluator_named("analysis").unwrap(),
        Algorithm::Mcts,
        16,
    )
}

/// The analysis of the root (Hex's evaluation `analysis`: virtual connections, mustplay,
/// inferior cells) applies at once: a root its mover has virtually won is proven in one
/// playout, and on random hex:6 positions the move searched is
/// never one the analysis calls lost or inferior while another is neither.
#[test]
fn mcts_plays_no_move_the_analysis_rules_out() {
    let mut game = zerosum_games::hex::Hex::new(3, 3, None);
    game.play_list("b2 a1").unwrap();
    let result = hex_analysis(&game).search(&game, &SearchLimits::nodes(1), |_| {});
    assert!(result.solved && result.score > Score::DRAW, "{result:?}");

    let start = zerosum_games::hex::Hex::new(6, 6, None);
    let evaluator = start.evaluator();
    let mut rng = SplitMix::new(41);
    let (mut moves, mut verdicts) = (Vec::new(), Vec::new());
    let mut restricted = 0;
    for _ in 0..40 {
        let game = random_position(&start, 6, &mut rng);
        if game.status().is_over() {
            continue;
        }
        evaluator.candidate_moves(&game, &mut moves);
        evaluator.analyse(&game, &moves, &mut verdicts);
        let kept = |v: &MoveVerdict| matches!(v, MoveVerdict::Open | MoveVerdict::Wins);
        if !verdicts.iter().any(kept) || verdicts.iter().all(kept) {
            continue;
        }
        restricted += 1;
        let result = hex_analysis(&game).search(&game, &SearchLimits::nodes(200), |_| {});
        let best = result.best_move.unwrap();
        let at = moves.iter().position(|&mv| mv == best).unwrap();
        assert!(
            kept(&verdicts[at]),
            "{} is {:?}: {}",
            game.format_move(best),
            verdicts[at],
            game.render()
        );
    }
    assert!(
        restricted >= 5,
        "only {restricted} positions with moves ruled out"
    );
}

/// Priors weighed by the evaluator's candidate weights (`Evaluator::candidate_weights`, Hex's
/// pattern gammas): a pattern of overwhelming gamma draws the playouts of the root to its
/// cells, which the priors of rank alone leave nearly untried; weights of 1 everywhere search
/// exactly as no weights (the bench's signature does not move).
#[test]
fn candidate_weights_steer_the_priors() {
    use zerosum_games::connection::{Stone, StoneMove};
    use zerosum_games::hex::gammas::PatternGammas;
    use zerosum_games::hex::patterns::pattern_code;
    use zerosum_games::hex::{Hex, HexEvaluator};

    let mut game = Hex::new(9, 9, None);
    game.play_list("e5").unwrap();
    // White's pattern of the obtuse corner i1 (and, turned, a9).
    let corner = game.cell(8, 0);
    let code = pattern_code(&game, corner, Stone::White);
    let steered = Arc::new(PatternGammas::new([(code, 1.0e6)], 1.0));
    let neutral = Arc::new(PatternGammas::new([], 1.0));
    let limits = SearchLimits::nodes(300);
    let search = |gammas: Option<Arc<PatternGammas>>| {
        let evaluator = HexEvaluator::new(9, 9).with_gammas(gammas);
        let mut searcher = Searcher::new(evaluator, Algorithm::Mcts, 16);
        searcher.search(&game, &limits, |_| {})
    };
    let corners = [
        StoneMove::Place(corner as u16),
        StoneMove::Place(game.cell(0, 8) as u16),
    ];
    let plain = search(None);
    assert!(!corners.contains(&plain.best_move.unwrap()));
    let steered = search(Some(steered));
    assert!(
        corners.contains(&steered.best_move.unwrap()),
        "{:?}",
        steered.best_move
    );
    let neutral = search(Some(neutral));
    assert_eq!(
        (neutral.best_move, neutral.nodes),
        (plain.best_move, plain.nodes)
    );
    assert_eq!(neutral.pv, plain.pv);
}

/// Hex's evaluation `rave` (playouts to the end of the game, RAVE in the tree) agrees with
/// the proof-number solver after every first move of the 4x4 board: it proves the value and
/// plays a move that keeps it. (On 5x5, 100,000 playouts are not enough to favour the right
/// side after every first move: a4 and b2 mislead it.)
#[test]
fn rave_proves_the_value_after_every_first_move_of_hex_4() {
    use zerosum_games::hex::dfpn::{DfpnLimits, DfpnOptions, HexSolver};
    use zerosum_games::hex::Hex;
    let size = 4;
    let start = Hex::new(size, size, None);
    let mut solver = HexSolver::new(size, size, DfpnOptions::with_table_mb(16)).unwrap();
    let mut wins = |game: &Hex| solver.solve(game, &DfpnLimits::default()).unwrap().wins;
    let evaluator = start.evaluator_named("rave").unwrap();
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    for &first in &moves {
        let mut game = start.clone();
        game.play(first);
        let truth = wins(&game).expect("solved without limits");
        let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Mcts, 64);
        let result = searcher.search(&game, &SearchLimits::nodes(1_000_000), |_| {});
        let context = format!("hex:{size} after {}", line(&game));
        assert_eq!(
            result.score > Score::DRAW,
            truth,
            "{context}: MCTS {}",
            result.score
        );
        assert!(
            result.solved,
            "{context}: not proven in {} playouts",
            result.nodes
        );
        let mut after = game.clone();
        let best = result.best_move.unwrap();
        after.play(best);
        // A winning move leaves the opponent lost; in a lost position any move is.
        let kept = after.status().is_over() || wins(&after) == Some(!truth);
        assert!(
            kept,
            "{context}: {} throws the win away",
            game.format_move(best)
        );
    }
}
