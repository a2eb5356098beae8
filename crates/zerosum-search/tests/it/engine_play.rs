//! The search under a clock, on drawn boards: at 0.1 s a move it never loses, against itself
//! or the reference players. (The whole engine against the reference players on every family,
//! book and solver included, is the arena's `engine_play` test.)

use std::time::Duration;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Outcome, Side, Status};
use zerosum_games::{visit_game, EvaluatedGame, GameSpec, GameVisitor};
use zerosum_search::{Algorithm, SearchLimits, Searcher};

/// Per-move budget of these tests.
const MOVE_TIME: Duration = Duration::from_millis(100);

/// The reference opponents of the course frameworks.
#[derive(Clone, Copy, Debug)]
enum Opponent {
    /// A uniformly random legal move.
    Random,
    /// Wins in one if it can, else blocks the opponent's win in one, else random.
    WinOrBlock,
}

fn opponent_move<G: Game>(game: &G, kind: Opponent, rng: &mut SplitMix) -> G::Move {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let random = moves[rng.below(moves.len())];
    if let Opponent::Random = kind {
        return random;
    }
    let me = game.to_move();
    let mut probe = game.clone();
    for &mv in &moves {
        probe.play(mv);
        let wins = probe.status() == Status::Over(Outcome::Win(me));
        probe.undo();
        if wins {
            return mv;
        }
    }
    // Block: the first move, from a random starting point, after which the opponent has no
    // win in one (the games have no null move to ask "where would it win?" directly).
    let offset = rng.below(moves.len());
    for &mv in moves[offset..].iter().chain(&moves[..offset]) {
        probe.play(mv);
        let mut replies = Vec::new();
        probe.legal_moves(&mut replies);
        let allows_win = replies.iter().any(|&reply| {
            probe.play(reply);
            let lost = probe.status() == Status::Over(Outcome::Win(!me));
            probe.undo();
            lost
        });
        probe.undo();
        if !allows_win {
            return mv;
        }
    }
    random
}

/// Results of a match of the engine against one opponent.
#[derive(Debug, Default)]
struct Tally {
    wins: usize,
    draws: usize,
    losses: usize,
}

struct Match {
    games_per_side: usize,
    opponent: Option<Opponent>,
    seed: u64,
}

impl GameVisitor for Match {
    type Output = Tally;

    fn visit<G: EvaluatedGame>(self, start: G) -> Tally {
        let mut rng = SplitMix::new(self.seed);
        let mut tally = Tally::default();
        let mut engine = Searcher::new(start.evaluator(), Algorithm::Pvs, 16);
        let mut other = Searcher::new(start.evaluator(), Algorithm::Pvs, 16);
        for game_index in 0..2 * self.games_per_side {
            let engine_side = if game_index % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let mut game = start.clone();
            while !game.status().is_over() {
                let mv = match self.opponent {
                    Some(kind) if game.to_move() != engine_side => {
                        opponent_move(&game, kind, &mut rng)
                    }
                    _ => {
                        let searcher = if game.to_move() == engine_side {
                            &mut engine
                        } else {
                            &mut other
                        };
                        let result = searcher.search(&game, &SearchLimits::time(MOVE_TIME), |_| {});
                        result.best_move.expect("a move while the game goes on")
                    }
                };
                assert!(game.is_legal(mv));
                game.play(mv);
            }
            match game.status().winner() {
                Some(side) if side == engine_side => tally.wins += 1,
                None => tally.draws += 1,
                Some(_) => {
                    let line: Vec<String> = game
                        .history()
                        .iter()
                        .map(|&m| game.format_move(m))
                        .collect();
                    eprintln!("{} lost as {engine_side}: {}", game.spec(), line.join(","));
                    tally.losses += 1;
                }
            }
        }
        tally
    }
}

fn play(spec: &str, games_per_side: usize, opponent: Option<Opponent>) -> Tally {
    let spec: GameSpec = spec.parse().unwrap();
    visit_game(
        &spec,
        Match {
            games_per_side,
            opponent,
            seed: 0xC0FFEE,
        },
    )
    .unwrap()
}

#[test]
fn engine_never_loses_on_drawn_boards() {
    for spec in ["tictactoe", "mnk:4x4x4"] {
        let against_itself = play(spec, 3, None);
        assert_eq!(
            against_itself.wins + against_itself.losses,
            0,
            "{spec}: {against_itself:?}"
        );
        for opponent in [Opponent::Random, Opponent::WinOrBlock] {
            let tally = play(spec, 10, Some(opponent));
            assert_eq!(tally.losses, 0, "{spec} vs {opponent:?}: {tally:?}");
        }
    }
}
