//! Reference players and match play shared by the play tests: a random player, a "win in
//! one, else block, else random" player, and engine-against-player matches.

#![allow(dead_code)] // each test file uses its own subset

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, Outcome, Side, Status};
use zerosum_games::EvaluatedGame;
use zerosum_search::{Algorithm, SearchLimits, Searcher};

pub fn legal<G: Game>(game: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

/// Plays a fixed line of up to 12 plies from `game` (at each ply the `(7 * ply + 3)`-th legal
/// move, cycling), taking back a last move that ends the game: a middle-game position of any
/// family that is still going on.
pub fn middle_game<G: Game>(game: &mut G) {
    for ply in 0..12 {
        let moves = legal(game);
        if game.status().is_over() || moves.is_empty() {
            break;
        }
        game.play(moves[(ply * 7 + 3) % moves.len()]);
    }
    if game.status().is_over() {
        game.undo();
    }
}

pub fn random_move<G: Game>(game: &G, rng: &mut SplitMix) -> G::Move {
    let moves = legal(game);
    moves[rng.below(moves.len())]
}

/// The moves that win at once for the side to move.
pub fn winning_moves<G: Game>(game: &G) -> Vec<G::Move> {
    let mut probe = game.clone();
    let mover = game.to_move();
    legal(game)
        .into_iter()
        .filter(|&mv| {
            probe.play(mv);
            let wins = probe.status() == Status::Over(Outcome::Win(mover));
            probe.undo();
            wins
        })
        .collect()
}

/// The moves after which the opponent has no win in one.
pub fn safe_moves<G: Game>(game: &G) -> Vec<G::Move> {
    let mut probe = game.clone();
    legal(game)
        .into_iter()
        .filter(|&mv| {
            probe.play(mv);
            let safe = probe.status().is_over() || winning_moves(&probe).is_empty();
            probe.undo();
            safe
        })
        .collect()
}

/// Random positions of an ongoing game on `start`'s board, `count` of them, after 0 to
/// `max_plies` random plies.
pub fn random_positions<G: Game>(start: &G, count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    let mut rng = SplitMix::new(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut game = start.clone();
        let plies = rng.below(max_plies + 1);
        for _ in 0..plies {
            if game.status().is_over() {
                break;
            }
            game.play(random_move(&game, &mut rng));
        }
        if !game.status().is_over() {
            positions.push(game);
        }
    }
    positions
}

/// Checks that the PVS engine searching to `limits` plays one of `good(position)` in each of
/// `positions` for which that is `Some`, until `wanted` of them are checked; returns how many
/// were. A failure names the position with `describe`.
fn check_moves<G: EvaluatedGame>(
    positions: impl IntoIterator<Item = G>,
    limits: &SearchLimits,
    wanted: usize,
    describe: impl Fn(&G) -> String,
    good: impl Fn(&G) -> Option<Vec<G::Move>>,
) -> usize {
    let mut searcher = None;
    let mut checked = 0;
    for game in positions {
        if checked == wanted {
            break;
        }
        let Some(good) = good(&game) else {
            continue;
        };
        let searcher =
            searcher.get_or_insert_with(|| Searcher::new(game.evaluator(), Algorithm::Pvs, 1));
        let mv = engine_move(searcher, &game, limits);
        assert!(
            good.contains(&mv),
            "{}: played {}, good were {:?}",
            describe(&game),
            game.format_move(mv),
            good.iter()
                .map(|&m| game.format_move(m))
                .collect::<Vec<_>>()
        );
        checked += 1;
    }
    checked
}

/// [`check_moves`] on the positions where the side to move can win at once: the engine wins.
pub fn check_wins_in_one<G: EvaluatedGame>(
    positions: impl IntoIterator<Item = G>,
    limits: &SearchLimits,
    wanted: usize,
    describe: impl Fn(&G) -> String,
) -> usize {
    check_moves(positions, limits, wanted, describe, |game| {
        Some(winning_moves(game)).filter(|wins| !wins.is_empty())
    })
}

/// [`check_moves`] on the positions without a win in one where some moves but not all leave
/// the opponent a win in one: the engine plays one of the others (a block).
pub fn check_forced_blocks<G: EvaluatedGame>(
    positions: impl IntoIterator<Item = G>,
    limits: &SearchLimits,
    wanted: usize,
    describe: impl Fn(&G) -> String,
) -> usize {
    check_moves(positions, limits, wanted, describe, |game| {
        if !winning_moves(game).is_empty() {
            return None;
        }
        let safe = safe_moves(game);
        (!safe.is_empty() && safe.len() < legal(game).len()).then_some(safe)
    })
}

/// Wins in one if it can, else blocks a win in one (plays a move after which the opponent
/// cannot win at once) if some move would allow one, else plays at random.
pub fn win_block_move<G: Game>(game: &G, rng: &mut SplitMix) -> G::Move {
    let wins = winning_moves(game);
    if !wins.is_empty() {
        return wins[rng.below(wins.len())];
    }
    let safe = safe_moves(game);
    if !safe.is_empty() && safe.len() < legal(game).len() {
        return safe[rng.below(safe.len())];
    }
    random_move(game, rng)
}

pub type Opponent<G> = fn(&G, &mut SplitMix) -> <G as Game>::Move;

pub fn engine_move<G: Game, E: Evaluator<G>>(
    searcher: &mut Searcher<G, E>,
    game: &G,
    limits: &SearchLimits,
) -> G::Move {
    searcher.clear();
    searcher
        .search(game, limits, |_| {})
        .best_move
        .expect("the game goes on")
}

pub fn line<G: Game>(game: &G) -> String {
    let moves: Vec<String> = game
        .history()
        .iter()
        .map(|&m| game.format_move(m))
        .collect();
    moves.join(" ")
}

/// Plays `games_per_side` games with the engine first and as many second against
/// `opponent`, and asserts that the engine wins every one.
pub fn engine_wins_every_game<G: EvaluatedGame>(
    start: &G,
    limits: &SearchLimits,
    opponent: Opponent<G>,
    games_per_side: usize,
    seed: u64,
) {
    let mut searcher = Searcher::new(start.evaluator(), Algorithm::Pvs, 4);
    let mut rng = SplitMix::new(seed);
    for game_number in 0..2 * games_per_side {
        let engine_side = if game_number % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut game = start.clone();
        while !game.status().is_over() {
            let mv = if game.to_move() == engine_side {
                engine_move(&mut searcher, &game, limits)
            } else {
                opponent(&game, &mut rng)
            };
            game.play(mv);
        }
        assert_eq!(
            game.status(),
            Status::Over(Outcome::Win(engine_side)),
            "{}: the engine ({engine_side} player) did not win: {}\n{}",
            game.spec(),
            line(&game),
            game.render()
        );
    }
}

/// An evaluator without knowledge: every position is even, moves in board order. The
/// baseline of `measure_strength`.
#[derive(Clone)]
pub struct NoKnowledge;

impl<G: Game> Evaluator<G> for NoKnowledge {
    fn evaluate(&self, _game: &G) -> i32 {
        0
    }
}

/// Plays an engine with evaluator `a` against one with `b` from `openings` random two-move
/// openings, each twice with the sides exchanged, at `nodes` nodes a move; returns the games
/// won by `a`, by `b`, and drawn.
pub fn duel<G: Game, A: Evaluator<G>, B: Evaluator<G>>(
    start: &G,
    a: A,
    b: B,
    nodes: u64,
    openings: usize,
) -> [usize; 3] {
    let mut a = Searcher::new(a, Algorithm::Pvs, 16);
    let mut b = Searcher::new(b, Algorithm::Pvs, 16);
    let limits = SearchLimits::nodes(nodes);
    let mut rng = SplitMix::new(2024);
    let mut results = [0; 3];
    for _ in 0..openings {
        let mut opening = start.clone();
        for _ in 0..2 {
            let mv = random_move(&opening, &mut rng);
            opening.play(mv);
        }
        for a_side in Side::BOTH {
            let mut game = opening.clone();
            while !game.status().is_over() {
                let mv = if game.to_move() == a_side {
                    engine_move(&mut a, &game, &limits)
                } else {
                    engine_move(&mut b, &game, &limits)
                };
                game.play(mv);
            }
            match game.status().winner() {
                Some(winner) if winner == a_side => results[0] += 1,
                Some(_) => results[1] += 1,
                None => results[2] += 1,
            }
        }
    }
    results
}

/// Far more than any step between two looks at the clock may take, even on a loaded machine.
pub const WATCHDOG: std::time::Duration = std::time::Duration::from_millis(500);

/// Asserts that on each of `specs`, after some opening moves, a search of 2 ms with `threads`
/// threads answers a legal move within [`WATCHDOG`].
pub fn quick_searches_answer_at_once(specs: &[&str], threads: usize) {
    for text in specs {
        let spec: zerosum_games::GameSpec = text.parse().unwrap();
        let (took, legal) = zerosum_games::visit_game(&spec, QuickSearch { threads }).unwrap();
        assert!(legal, "{text}: no legal move");
        assert!(took < WATCHDOG, "{text}: a 2 ms search took {took:?}");
    }
}

/// A 2 ms search of the visited game after some opening moves: the time it took, and whether
/// its move is legal.
struct QuickSearch {
    threads: usize,
}

impl zerosum_games::GameVisitor for QuickSearch {
    type Output = (std::time::Duration, bool);

    fn visit<G: zerosum_games::EvaluatedGame>(self, mut game: G) -> Self::Output {
        use zerosum_search::{Algorithm, SearchLimits, Searcher, Threads};
        middle_game(&mut game);
        let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
        let limits = SearchLimits {
            threads: Threads::new(self.threads).unwrap(),
            ..SearchLimits::time(std::time::Duration::from_millis(2))
        };
        let started = std::time::Instant::now();
        let result = searcher.search(&game, &limits, |_| {});
        let took = started.elapsed();
        (
            took,
            result.best_move.is_some_and(|m| legal(&game).contains(&m)),
        )
    }
}
