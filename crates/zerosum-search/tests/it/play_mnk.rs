//! The m,n,k evaluator in play: it never misses a win in one or a forced block, never loses
//! the drawn small boards, beats a random player and a "win, else block, else random" player
//! in every game on gomoku and the course boards, keeps 70x70 searches small, and its
//! evaluation is symmetric and sane.

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Evaluator, Game, Outcome, Score, Side, Status};
use zerosum_games::mnk::{Mnk, MnkEvaluator, LOSS_NEXT, SMALL_BOARD_CELLS, VCF_WIN, WIN_NEXT};
use zerosum_games::EvaluatedGame;
use zerosum_search::{Algorithm, SearchLimits, Searcher};

// ---------------------------------------------------------------------------------------------
// Naive rules helpers, independent of the evaluator: a K-run test by walking the grid.
// ---------------------------------------------------------------------------------------------

/// Whether a stone of `side` on the empty cell `cell` makes a run of K or more, by walking
/// both ways along each line with `cell_owner`.
fn naive_completes<const W: usize>(game: &Mnk<W>, side: Side, cell: u16) -> bool {
    let (row, col) = game.row_col(cell);
    let (rows, cols) = (game.rows() as isize, game.cols() as isize);
    for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
        let mut run = 1;
        for sign in [1, -1] {
            let (mut r, mut c) = (row as isize + sign * dr, col as isize + sign * dc);
            while r >= 0
                && r < rows
                && c >= 0
                && c < cols
                && game.cell_owner(r as usize, c as usize) == Some(side)
            {
                run += 1;
                r += sign * dr;
                c += sign * dc;
            }
        }
        if run >= game.k() {
            return true;
        }
    }
    false
}

/// The empty cells where a stone of `side` wins at once, in cell order.
fn naive_wins<const W: usize>(game: &Mnk<W>, side: Side) -> Vec<u16> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.retain(|&cell| naive_completes(game, side, cell));
    moves
}

fn play_named<const W: usize>(game: &mut Mnk<W>, cells: &str) {
    for name in cells.split_whitespace() {
        let mv = game.parse_move(name).unwrap();
        assert!(game.is_legal(mv), "{name} is not legal");
        game.play(mv);
    }
}

// ---------------------------------------------------------------------------------------------
// Reference players.
// ---------------------------------------------------------------------------------------------

fn random_move<const W: usize>(game: &Mnk<W>, rng: &mut SplitMix) -> u16 {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves[rng.below(moves.len())]
}

/// Wins in one if it can, else blocks a win in one, else plays at random.
fn blocker_move<const W: usize>(game: &Mnk<W>, rng: &mut SplitMix) -> u16 {
    let me = game.to_move();
    if let Some(&win) = naive_wins(game, me).first() {
        return win;
    }
    if let Some(&block) = naive_wins(game, !me).first() {
        return block;
    }
    random_move(game, rng)
}

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Random,
    Blocker,
}

/// Plays one game, the engine on `engine_side`, and returns the outcome.
fn play_vs<const W: usize>(
    start: &Mnk<W>,
    searcher: &mut Searcher<Mnk<W>, MnkEvaluator>,
    limits: &SearchLimits,
    engine_side: Side,
    opponent: Opponent,
    rng: &mut SplitMix,
) -> Outcome {
    let mut game = start.clone();
    while let Status::Ongoing = game.status() {
        let mv = if game.to_move() == engine_side {
            searcher.clear();
            searcher
                .search(&game, limits, |_| {})
                .best_move
                .expect("a move while the game goes on")
        } else {
            match opponent {
                Opponent::Random => random_move(&game, rng),
                Opponent::Blocker => blocker_move(&game, rng),
            }
        };
        assert!(game.is_legal(mv));
        game.play(mv);
    }
    match game.status() {
        Status::Over(outcome) => outcome,
        Status::Ongoing => unreachable!(),
    }
}

/// Plays `games_per_side` games per side against each reference player; returns the
/// outcomes seen from the engine: (wins, draws, losses).
fn match_vs_references<const W: usize>(
    start: &Mnk<W>,
    limits: &SearchLimits,
    games_per_side: usize,
    seed: u64,
) -> (usize, usize, usize) {
    let mut searcher = Searcher::new(start.evaluator(), Algorithm::Pvs, 4);
    let mut rng = SplitMix::new(seed);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for opponent in [Opponent::Random, Opponent::Blocker] {
        for engine_side in Side::BOTH {
            for _ in 0..games_per_side {
                match play_vs(
                    start,
                    &mut searcher,
                    limits,
                    engine_side,
                    opponent,
                    &mut rng,
                ) {
                    Outcome::Win(side) if side == engine_side => wins += 1,
                    Outcome::Draw => draws += 1,
                    Outcome::Win(_) => {
                        losses += 1;
                        eprintln!("lost as {engine_side:?} against {opponent:?}");
                    }
                }
            }
        }
    }
    (wins, draws, losses)
}

/// Engine against itself from the empty board.
fn self_play<const W: usize>(start: &Mnk<W>, limits: &SearchLimits) -> Outcome {
    let mut searcher = Searcher::new(start.evaluator(), Algorithm::Pvs, 4);
    let mut game = start.clone();
    while let Status::Ongoing = game.status() {
        let mv = searcher.search(&game, limits, |_| {}).best_move.unwrap();
        game.play(mv);
    }
    match game.status() {
        Status::Over(outcome) => outcome,
        Status::Ongoing => unreachable!(),
    }
}

// ---------------------------------------------------------------------------------------------
// Drawn small boards: never lose.
// ---------------------------------------------------------------------------------------------

#[test]
fn tictactoe_engine_never_loses() {
    let start = Mnk::<1>::new(3, 3, 3);
    let limits = SearchLimits::depth(9);
    assert_eq!(self_play(&start, &limits), Outcome::Draw);
    let (wins, _draws, losses) = match_vs_references(&start, &limits, 10, 0x77);
    assert_eq!(losses, 0);
    assert!(
        wins > 10,
        "the random player's mistakes are punished: {wins} wins"
    );
}

#[test]
fn four_by_four_engine_never_loses() {
    let start = Mnk::<1>::new(4, 4, 4);
    let limits = SearchLimits::depth(5);
    assert_eq!(self_play(&start, &limits), Outcome::Draw);
    let (_wins, _draws, losses) = match_vs_references(&start, &limits, 10, 0x44);
    assert_eq!(losses, 0);
}

// ---------------------------------------------------------------------------------------------
// Larger boards: beat the reference players in every game.
// ---------------------------------------------------------------------------------------------

#[test]
fn gomoku_beats_random_and_blocker_every_game() {
    let start = Mnk::<4>::new(15, 15, 5);
    let (wins, draws, losses) = match_vs_references(&start, &SearchLimits::nodes(1500), 10, 0x90);
    assert_eq!((wins, draws, losses), (40, 0, 0));
}

#[test]
fn course_boards_beat_random_and_blocker_every_game() {
    let limits = SearchLimits::nodes(1500);
    let (wins, draws, losses) = match_vs_references(&Mnk::<1>::new(7, 7, 4), &limits, 10, 0x74);
    assert_eq!((wins, draws, losses), (40, 0, 0), "7x7x4");
    let (wins, draws, losses) = match_vs_references(&Mnk::<2>::new(10, 10, 5), &limits, 10, 0x105);
    assert_eq!((wins, draws, losses), (40, 0, 0), "10x10x5");
}

// ---------------------------------------------------------------------------------------------
// Wins in one and forced blocks.
// ---------------------------------------------------------------------------------------------

/// Searches `game` at a few limits and checks that every search plays one of `expected`.
fn assert_search_plays<const W: usize>(game: &Mnk<W>, expected: &[u16], what: &str) {
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 1);
    for limits in [
        SearchLimits::depth(1),
        SearchLimits::depth(3),
        SearchLimits::nodes(300),
    ] {
        searcher.clear();
        let mv = searcher.search(game, &limits, |_| {}).best_move.unwrap();
        assert!(
            expected.contains(&mv),
            "{what}: played {} at {limits:?}, expected one of {:?}\n{}",
            game.format_move(mv),
            expected
                .iter()
                .map(|&m| game.format_move(m))
                .collect::<Vec<_>>(),
            game.render()
        );
    }
}

/// The candidate moves of the evaluator, sorted.
fn candidates<const W: usize>(game: &Mnk<W>) -> Vec<u16> {
    let mut moves = Vec::new();
    game.evaluator().candidate_moves(game, &mut moves);
    moves.sort_unstable();
    moves
}

/// Plays alternately the first player's `first` and the second player's `second` cells
/// (given as (row, col)); the longer list's extra stones come last.
fn place<const W: usize>(game: &mut Mnk<W>, first: &[(usize, usize)], second: &[(usize, usize)]) {
    for i in 0..first.len().max(second.len()) {
        if let Some(&(r, c)) = first.get(i) {
            game.play(game.cell(r, c));
        }
        if let Some(&(r, c)) = second.get(i) {
            game.play(game.cell(r, c));
        }
    }
}

#[test]
fn win_in_one_is_played_on_hand_made_positions() {
    // Tic-tac-toe: X wins at c1 rather than blocking O's c2.
    let mut game = Mnk::<1>::new(3, 3, 3);
    play_named(&mut game, "a1 a2 b1 b2");
    assert_eq!(candidates(&game), naive_wins(&game, Side::First));
    assert_search_plays(&game, &naive_wins(&game, Side::First), "tic-tac-toe win");

    // Gomoku: an open four for X (h8..k8), O has three in a row elsewhere.
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, "h8 a1 i8 a2 j8 a3 k8 c5");
    let wins = naive_wins(&game, Side::First);
    assert_eq!(wins.len(), 2);
    assert_eq!(candidates(&game), wins);
    assert_search_plays(&game, &wins, "gomoku win");

    // 70x70x10: nine in a row for O (second player), with one end blocked by X.
    let mut game = Mnk::<157>::new(70, 70, 10);
    let x: Vec<_> = [
        (35, 29),
        (10, 10),
        (12, 50),
        (60, 7),
        (40, 60),
        (3, 3),
        (66, 66),
    ]
    .into_iter()
    .chain((0..3).map(|i| (50, 20 + 2 * i)))
    .collect();
    let o: Vec<_> = (30..39).map(|c| (35, c)).collect();
    place(&mut game, &x, &o);
    assert_eq!(game.to_move(), Side::Second);
    let wins = naive_wins(&game, Side::Second);
    assert_eq!(wins, vec![game.cell(35, 39)]);
    assert_eq!(candidates(&game), wins);
    assert_search_plays(&game, &wins, "70x70 win");
}

#[test]
fn forced_block_is_played_on_hand_made_positions() {
    // Tic-tac-toe: O must block a3.
    let mut game = Mnk::<1>::new(3, 3, 3);
    play_named(&mut game, "a1 b2 a2");
    let blocks = naive_wins(&game, Side::First);
    assert_eq!(blocks, vec![game.parse_move("a3").unwrap()]);
    assert_eq!(candidates(&game), blocks);
    assert_search_plays(&game, &blocks, "tic-tac-toe block");

    // Gomoku: X has a broken four h8 i8 _ k8 l8 (winning cell j8), O has an open three.
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, "h8 c3 i8 c4 k8 c5 l8");
    let blocks = naive_wins(&game, Side::First);
    assert_eq!(blocks, vec![game.parse_move("j8").unwrap()]);
    assert_eq!(candidates(&game), blocks);
    assert_search_plays(&game, &blocks, "gomoku block");

    // Gomoku: two winning cells for X: every block is a candidate (the game is lost).
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, "h8 a1 i8 a3 j8 a5 k8");
    let blocks = naive_wins(&game, Side::First);
    assert_eq!(blocks.len(), 2);
    assert_eq!(candidates(&game), blocks);

    // 70x70x10: X has nine on a diagonal, open at one end only; O to move must block it.
    let mut game = Mnk::<157>::new(70, 70, 10);
    let x: Vec<_> = (0..9).map(|i| (20 + i, 20 + i)).collect();
    let o: Vec<_> = [
        (19, 19),
        (5, 60),
        (60, 5),
        (44, 44),
        (2, 30),
        (69, 0),
        (50, 51),
        (33, 3),
    ]
    .into_iter()
    .collect();
    place(&mut game, &x, &o);
    assert_eq!(game.to_move(), Side::Second);
    let blocks = naive_wins(&game, Side::First);
    assert_eq!(blocks, vec![game.cell(29, 29)]);
    assert_eq!(candidates(&game), blocks);
    assert_search_plays(&game, &blocks, "70x70 block");
}

/// Random playouts within a `region` x `region` square in the middle of the board; at every
/// position where the side to move can win at once, or must block a single winning cell,
/// checks the candidates and the searched move. Returns the number of positions checked.
fn check_random_tactics<const W: usize>(start: &Mnk<W>, region: usize, games: usize) -> usize {
    let mut rng = SplitMix::new(0x7AC7 + region as u64);
    let (top, left) = ((start.rows() - region) / 2, (start.cols() - region) / 2);
    let mut checked = 0;
    for _ in 0..games {
        let mut game = start.clone();
        while game.status() == Status::Ongoing && game.ply() < region * region {
            let me = game.to_move();
            let (wins, threats) = (naive_wins(&game, me), naive_wins(&game, !me));
            if !wins.is_empty() {
                assert_eq!(candidates(&game), wins, "\n{}", game.render());
                assert_search_plays(&game, &wins, "random win");
                checked += 1;
            } else if threats.len() == 1 {
                assert_eq!(candidates(&game), threats, "\n{}", game.render());
                assert_search_plays(&game, &threats, "random block");
                checked += 1;
            }
            let cell = loop {
                let cell = game.cell(top + rng.below(region), left + rng.below(region));
                if game.is_legal(cell) {
                    break cell;
                }
            };
            game.play(cell);
        }
    }
    checked
}

#[test]
fn random_positions_never_miss_a_win_or_a_block() {
    assert!(check_random_tactics(&Mnk::<1>::new(3, 3, 3), 3, 30) > 20);
    assert!(check_random_tactics(&Mnk::<1>::new(5, 5, 4), 5, 20) > 20);
    assert!(check_random_tactics(&Mnk::<4>::new(15, 15, 5), 8, 10) > 20);
    assert!(check_random_tactics(&Mnk::<157>::new(70, 70, 5), 8, 3) > 5);
}

/// The board as a grid: 1 for `side`'s stones, -1 for the other's, 0 empty.
fn grid_of<const W: usize>(game: &Mnk<W>, side: Side) -> Vec<Vec<i8>> {
    (0..game.rows())
        .map(|r| {
            (0..game.cols())
                .map(|c| match game.cell_owner(r, c) {
                    Some(owner) if owner == side => 1,
                    Some(_) => -1,
                    None => 0,
                })
                .collect()
        })
        .collect()
}

/// The empty cells of `grid` where a stone of `player` (1 or -1) makes a run of `k`.
fn grid_wins(grid: &[Vec<i8>], k: usize, player: i8) -> Vec<(usize, usize)> {
    let (rows, cols) = (grid.len() as isize, grid[0].len() as isize);
    let mut wins = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if grid[r as usize][c as usize] != 0 {
                continue;
            }
            let completes = [(0isize, 1isize), (1, 0), (1, 1), (1, -1)]
                .iter()
                .any(|&(dr, dc)| {
                    let mut run = 1;
                    for sign in [1, -1] {
                        let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                        while rr >= 0
                            && rr < rows
                            && cc >= 0
                            && cc < cols
                            && grid[rr as usize][cc as usize] == player
                        {
                            run += 1;
                            rr += sign * dr;
                            cc += sign * dc;
                        }
                    }
                    run >= k
                });
            if completes {
                wins.push((r as usize, c as usize));
            }
        }
    }
    wins
}

/// The empty cells where a stone of `player` makes two or more winning cells.
fn grid_doubles(grid: &mut [Vec<i8>], k: usize, player: i8) -> Vec<(usize, usize)> {
    let mut doubles = Vec::new();
    for r in 0..grid.len() {
        for c in 0..grid[0].len() {
            if grid[r][c] == 0 {
                grid[r][c] = player;
                if grid_wins(grid, k, player).len() >= 2 {
                    doubles.push((r, c));
                }
                grid[r][c] = 0;
            }
        }
    }
    doubles
}

/// On random positions where neither side can win at once but the opponent has a cell
/// making two winning cells (an open three), every move the evaluator leaves out loses: it
/// makes no four, and the opponent still has such a cell afterwards.
#[test]
fn answers_to_open_threes_leave_out_only_lost_moves() {
    fn check<const W: usize>(start: &Mnk<W>, region: usize, games: usize) -> usize {
        let mut rng = SplitMix::new(0x0A3 + region as u64);
        let (top, left) = ((start.rows() - region) / 2, (start.cols() - region) / 2);
        let k = start.k();
        let mut checked = 0;
        for _ in 0..games {
            let mut game = start.clone();
            while game.status() == Status::Ongoing && game.ply() < region * region {
                let mut grid = grid_of(&game, game.to_move());
                if grid_wins(&grid, k, 1).is_empty() && grid_wins(&grid, k, -1).is_empty() {
                    let threats = grid_doubles(&mut grid, k, -1);
                    if !threats.is_empty() {
                        let kept = candidates(&game);
                        let mut legal = Vec::new();
                        game.legal_moves(&mut legal);
                        for mv in legal.into_iter().filter(|mv| !kept.contains(mv)) {
                            let (r, c) = game.row_col(mv);
                            grid[r][c] = 1;
                            assert!(
                                grid_wins(&grid, k, 1).is_empty(),
                                "{} is a four",
                                game.format_move(mv)
                            );
                            let still = threats.iter().any(|&(tr, tc)| {
                                if grid[tr][tc] != 0 {
                                    return false;
                                }
                                grid[tr][tc] = -1;
                                let wins = grid_wins(&grid, k, -1).len();
                                grid[tr][tc] = 0;
                                wins >= 2
                            });
                            assert!(still, "{} answers\n{}", game.format_move(mv), game.render());
                            grid[r][c] = 0;
                        }
                        checked += 1;
                    }
                }
                let cell = game.cell(top + rng.below(region), left + rng.below(region));
                if game.is_legal(cell) {
                    game.play(cell);
                }
            }
        }
        checked
    }
    assert!(check(&Mnk::<1>::new(3, 3, 3), 3, 40) > 10);
    assert!(check(&Mnk::<1>::new(7, 7, 4), 7, 10) > 10);
    assert!(check(&Mnk::<4>::new(15, 15, 5), 7, 6) > 10);
}

// ---------------------------------------------------------------------------------------------
// Large boards stay small.
// ---------------------------------------------------------------------------------------------

/// Whether `cell` lies within Chebyshev distance 2 of a stone.
fn near_a_stone<const W: usize>(game: &Mnk<W>, cell: u16) -> bool {
    let (row, col) = game.row_col(cell);
    game.history().iter().any(|&stone| {
        let (r, c) = game.row_col(stone);
        r.abs_diff(row) <= 2 && c.abs_diff(col) <= 2
    })
}

#[test]
fn seventy_board_node_budget_search_completes_near_the_stones() {
    let mut game = Mnk::<157>::new(70, 70, 10);
    let mut rng = SplitMix::new(70);
    while game.ply() < 40 {
        let cell = game.cell(25 + rng.below(20), 25 + rng.below(20));
        if game.is_legal(cell) {
            game.play(cell);
        }
    }
    let moves = candidates(&game);
    assert!(moves.len() < 25 * 40, "{} candidates", moves.len());
    assert!(moves.iter().all(|&cell| near_a_stone(&game, cell)));
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 4);
    let result = searcher.search(&game, &SearchLimits::nodes(20_000), |_| {});
    let best = result.best_move.unwrap();
    assert!(game.is_legal(best) && near_a_stone(&game, best));
    assert!(result.depth >= 2, "only depth {}", result.depth);
    assert!(result.nodes <= 20_000);
}

// ---------------------------------------------------------------------------------------------
// The evaluator itself.
// ---------------------------------------------------------------------------------------------

#[test]
fn small_boards_keep_every_empty_cell_and_large_ones_the_neighbourhood() {
    let mut game = Mnk::<1>::new(8, 8, 5);
    assert_eq!(game.rows() * game.cols(), SMALL_BOARD_CELLS);
    play_named(&mut game, "a1 h8");
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    assert_eq!(candidates(&game), legal);

    let uncut = MnkEvaluator::new().with_max_candidates(0);
    let all_near = |game: &Mnk<4>| {
        let mut moves = Vec::new();
        uncut.candidate_moves(game, &mut moves);
        moves.sort_unstable();
        moves
    };
    let mut game = Mnk::<4>::new(15, 15, 5);
    assert_eq!(candidates(&game), vec![game.cell(7, 7)]);
    play_named(&mut game, "h8");
    assert_eq!(all_near(&game).len(), 24);
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, "a1 o15");
    assert_eq!(all_near(&game).len(), 16);
    let mut game = Mnk::<4>::new(9, 9, 5);
    play_named(&mut game, "e5 e7 d4 c3 f6");
    let expected: Vec<u16> = (0..81)
        .filter(|&cell| game.is_legal(cell) && near_a_stone(&game, cell))
        .collect();
    assert_eq!(all_near(&game), expected);

    // The default keeps the 12 best-hinted cells and those tied with the 12th, best first.
    let evaluator = MnkEvaluator::new();
    let mut kept = Vec::new();
    evaluator.candidate_moves(&game, &mut kept);
    assert!(
        kept.len() >= 12 && kept.len() < expected.len(),
        "{}",
        kept.len()
    );
    let hints: Vec<i32> = kept
        .iter()
        .map(|&mv| evaluator.move_hint(&game, mv))
        .collect();
    assert!(hints.windows(2).all(|pair| pair[0] >= pair[1]));
    let lowest_kept = *hints.last().unwrap();
    for mv in expected.into_iter().filter(|mv| !kept.contains(mv)) {
        assert!(evaluator.move_hint(&game, mv) < lowest_kept);
    }
}

/// The position `game` mirrored by `map` (a function of (row, col)), with the same move order.
fn mirrored<const W: usize>(game: &Mnk<W>, map: impl Fn(usize, usize) -> (usize, usize)) -> Mnk<W> {
    let (r0, c0) = map(0, 0);
    let (r1, c1) = map(game.rows() - 1, game.cols() - 1);
    let mut mirror = Mnk::<W>::new(r0.max(r1) + 1, c0.max(c1) + 1, game.k());
    for &cell in game.history() {
        let (r, c) = game.row_col(cell);
        let (mr, mc) = map(r, c);
        mirror.play(mirror.cell(mr, mc));
    }
    mirror
}

/// A map of (row, col) to (row, col): a reflection or rotation of the board.
type CellMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;

#[test]
fn evaluation_is_symmetric_under_reflections() {
    let evaluator = MnkEvaluator::new();
    let mut rng = SplitMix::new(0x5111);
    let mut positions = 0;
    for (rows, cols, k) in [(15, 15, 5), (9, 7, 4), (12, 12, 6)] {
        for _ in 0..40 {
            let mut game = Mnk::<4>::new(rows, cols, k);
            let plies = rng.below(30);
            while game.ply() < plies && game.status() == Status::Ongoing {
                let cell = random_move(&game, &mut rng);
                game.play(cell);
            }
            if game.status().is_over() {
                continue;
            }
            let value = evaluator.evaluate(&game);
            let mut maps: Vec<CellMap> = vec![
                Box::new(move |r, c| (r, cols - 1 - c)),
                Box::new(move |r, c| (rows - 1 - r, c)),
                Box::new(move |r, c| (rows - 1 - r, cols - 1 - c)),
            ];
            if rows == cols {
                maps.push(Box::new(|r, c| (c, r)));
                maps.push(Box::new(move |r, c| (cols - 1 - c, r)));
            }
            for map in &maps {
                let mirror = mirrored(&game, map);
                assert_eq!(evaluator.evaluate(&mirror), value, "\n{}", game.render());
                let mut legal = Vec::new();
                game.legal_moves(&mut legal);
                for mv in legal {
                    let (r, c) = game.row_col(mv);
                    let (mr, mc) = map(r, c);
                    // The centre term rounds to the same value on mirrored cells.
                    assert_eq!(
                        evaluator.move_hint(&game, mv),
                        evaluator.move_hint(&mirror, mirror.cell(mr, mc))
                    );
                }
                let mut expected: Vec<u16> = candidates(&game)
                    .into_iter()
                    .map(|mv| {
                        let (r, c) = game.row_col(mv);
                        let (mr, mc) = map(r, c);
                        mirror.cell(mr, mc)
                    })
                    .collect();
                expected.sort_unstable();
                assert_eq!(candidates(&mirror), expected);
            }
            assert_eq!(
                evaluator.balance(&game, Side::First),
                -evaluator.balance(&game, Side::Second)
            );
            positions += 1;
        }
    }
    assert!(positions > 80);
}

#[test]
fn more_threats_score_better() {
    let evaluator = MnkEvaluator::new();
    // Same stones but one: X's third stone extends h8 i8 to an open three, or stands alone.
    let mut open_three = Mnk::<4>::new(15, 15, 5);
    play_named(&mut open_three, "h8 a1 i8 a15 j8");
    let mut scattered = Mnk::<4>::new(15, 15, 5);
    play_named(&mut scattered, "h8 a1 i8 a15 c13");
    assert!(
        evaluator.balance(&open_three, Side::First) > evaluator.balance(&scattered, Side::First)
    );
    // With O to move the open three must be met; with X to move it is a win by an open four.
    let value = evaluator.evaluate(&open_three);
    assert!((-1000..=-200).contains(&value), "{value}");
    assert!(evaluator.evaluate(&scattered) > value);
    let mut x_to_move = open_three.clone();
    play_named(&mut x_to_move, "o15");
    assert_eq!(evaluator.evaluate(&x_to_move), VCF_WIN - 30);
    // A win on the next move, two opponent winning cells.
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, "h8 a1 i8 a2 j8 a3 k8");
    assert_eq!(evaluator.evaluate(&game), -LOSS_NEXT);
    play_named(&mut game, "a4");
    assert_eq!(evaluator.evaluate(&game), WIN_NEXT);
    // Centre cells are hinted before edge cells on an empty board.
    let empty = Mnk::<4>::new(15, 15, 5);
    assert!(
        evaluator.move_hint(&empty, empty.cell(7, 7))
            > evaluator.move_hint(&empty, empty.cell(0, 3))
    );
}

/// Whether `attacker` (to move) wins by fours within `plies` plies, by brute force over
/// every cell with the naive rules: each attacking move must leave a winning cell, the
/// defender blocks (it loses at once if it cannot).
fn naive_vcf<const W: usize>(game: &mut Mnk<W>, plies: usize) -> bool {
    let me = game.to_move();
    if !naive_wins(game, me).is_empty() {
        return true;
    }
    if plies < 3 {
        return false;
    }
    let threats = naive_wins(game, !me);
    if threats.len() > 1 {
        return false;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    for mv in moves {
        if threats.first().is_some_and(|&t| t != mv) {
            continue;
        }
        game.play(mv);
        let made = naive_wins(game, me);
        let wins = match made.len() {
            0 => false,
            1 => {
                game.play(made[0]);
                let won = game.status() == Status::Ongoing && naive_vcf(game, plies - 2);
                game.undo();
                won
            }
            _ => true,
        };
        game.undo();
        if wins {
            return true;
        }
    }
    false
}

#[test]
fn reported_vcf_wins_are_real() {
    let evaluator = MnkEvaluator::new();
    let mut rng = SplitMix::new(0xFC);
    let mut confirmed = 0;
    for (rows, k, region) in [(15, 5, 7), (12, 4, 6), (20, 6, 8)] {
        for _ in 0..60 {
            let mut game = Mnk::<16>::new(rows, rows, k);
            let offset = (rows - region) / 2;
            let plies = 6 + rng.below(region * 2);
            while game.ply() < plies && game.status() == Status::Ongoing {
                let cell = game.cell(offset + rng.below(region), offset + rng.below(region));
                if game.is_legal(cell) {
                    game.play(cell);
                }
            }
            if game.status().is_over() {
                continue;
            }
            let value = evaluator.evaluate(&game);
            if value > VCF_WIN - 10 * 7 && value <= VCF_WIN {
                let plies = ((VCF_WIN - value) / 10) as usize;
                assert!(
                    naive_vcf(&mut game.clone(), plies),
                    "claimed a VCF in {plies}\n{}",
                    game.render()
                );
                confirmed += 1;
            }
        }
    }
    assert!(confirmed > 10, "only {confirmed} VCF positions");
}

#[test]
fn a_known_vcf_is_found_and_proven_by_search() {
    // X: fours at j10 (with g7 h8 i9) then a double on the h column / row 10.
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, "g7 a1 h8 a3 i9 a5 h10 a7 h11 a9 g10 o1 f10 o3");
    assert_eq!(game.to_move(), Side::First);
    let value = MnkEvaluator::new().evaluate(&game);
    assert!(value > VCF_WIN - 100 && value <= VCF_WIN, "{value}");
    let plies = ((VCF_WIN - value) / 10) as usize;
    assert!(naive_vcf(&mut game.clone(), plies));
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 4);
    let result = searcher.search(&game, &SearchLimits::depth(plies), |_| {});
    assert!(result.score >= Score::win_in(plies), "{}", result.score);
}

#[test]
fn evaluations_stay_below_the_decisive_range() {
    let evaluator = MnkEvaluator::new();
    let mut rng = SplitMix::new(0xE7A1);
    for (rows, cols, k) in [(3, 3, 3), (4, 4, 4), (7, 7, 4), (15, 15, 5), (30, 30, 10)] {
        for _ in 0..30 {
            let mut game = Mnk::<16>::new(rows, cols, k);
            while game.status() == Status::Ongoing && rng.below(40) != 0 {
                let cell = random_move(&game, &mut rng);
                game.play(cell);
            }
            if game.status() == Status::Ongoing {
                let value = evaluator.evaluate(&game);
                assert!(value.abs() <= WIN_NEXT && value.abs() < Score::MAX_EVAL);
                let mut moves = Vec::new();
                evaluator.candidate_moves(&game, &mut moves);
                assert!(!moves.is_empty() && moves.iter().all(|&m| game.is_legal(m)));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Strength against a window-count-only baseline (run with --ignored; prints the figures).
// ---------------------------------------------------------------------------------------------

/// Counts open windows only: for every window of K cells holding stones of one side only,
/// the same weight by missing stones as the evaluator; no threats, no tempo, no VCF. Moves
/// and hints are the evaluator's, so that a match compares evaluations at equal nodes.
#[derive(Clone)]
struct WindowBaseline(MnkEvaluator);

impl<const W: usize> Evaluator<Mnk<W>> for WindowBaseline {
    fn evaluate(&self, game: &Mnk<W>) -> i32 {
        const WEIGHT_BY_MISSING: [i64; 8] = [0, 1280, 800, 160, 32, 12, 4, 2];
        let (rows, cols, k) = (
            game.rows() as isize,
            game.cols() as isize,
            game.k() as isize,
        );
        let me = game.to_move();
        let mut sum = 0i64;
        for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
            for r in 0..rows {
                for c in 0..cols {
                    let (end_r, end_c) = (r + dr * (k - 1), c + dc * (k - 1));
                    if end_r < 0 || end_r >= rows || end_c < 0 || end_c >= cols {
                        continue;
                    }
                    let (mut mine, mut theirs) = (0, 0);
                    for i in 0..k {
                        match game.cell_owner((r + dr * i) as usize, (c + dc * i) as usize) {
                            Some(side) if side == me => mine += 1,
                            Some(_) => theirs += 1,
                            None => {}
                        }
                    }
                    let weight = |count: isize| {
                        WEIGHT_BY_MISSING
                            .get((k - count) as usize)
                            .copied()
                            .unwrap_or(1)
                    };
                    if theirs == 0 && mine > 0 {
                        sum += weight(mine);
                    } else if mine == 0 && theirs > 0 {
                        sum -= weight(theirs);
                    }
                }
            }
        }
        (sum / 16) as i32
    }

    fn candidate_moves(&self, game: &Mnk<W>, moves: &mut Vec<u16>) {
        self.0.candidate_moves(game, moves);
    }

    fn move_hint(&self, game: &Mnk<W>, mv: u16) -> i32 {
        self.0.move_hint(game, mv)
    }
}

/// Plays `openings` random openings of `opening_stones` stones near the centre, each twice
/// with colours swapped, `a` against `b` at `limits`; returns a's (wins, draws, losses).
fn strength_match<const W: usize, A: Evaluator<Mnk<W>>, B: Evaluator<Mnk<W>>>(
    start: &Mnk<W>,
    a: A,
    b: B,
    openings: usize,
    opening_stones: usize,
    limits: &SearchLimits,
) -> (usize, usize, usize) {
    let mut rng = SplitMix::new(0x5EED);
    let mut searcher_a = Searcher::new(a, Algorithm::Pvs, 16);
    let mut searcher_b = Searcher::new(b, Algorithm::Pvs, 16);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for _ in 0..openings {
        let mut opening = start.clone();
        let (rows, cols) = (start.rows(), start.cols());
        while opening.ply() < opening_stones {
            let r = rows / 2 - 2 + rng.below(5);
            let c = cols / 2 - 2 + rng.below(5);
            let cell = opening.cell(r, c);
            if opening.is_legal(cell) {
                opening.play(cell);
            }
        }
        for a_side in Side::BOTH {
            let mut game = opening.clone();
            searcher_a.clear();
            searcher_b.clear();
            while let Status::Ongoing = game.status() {
                let mv = if game.to_move() == a_side {
                    searcher_a.search(&game, limits, |_| {}).best_move
                } else {
                    searcher_b.search(&game, limits, |_| {}).best_move
                };
                game.play(mv.unwrap());
            }
            match game.status() {
                Status::Over(Outcome::Win(side)) if side == a_side => wins += 1,
                Status::Over(Outcome::Draw) => draws += 1,
                _ => losses += 1,
            }
        }
    }
    (wins, draws, losses)
}

/// The plainest engine: [`WindowBaseline`]'s evaluation over every empty cell within
/// distance 2 of a stone, in cell order, with no threat filtering and no hints.
#[derive(Clone)]
struct PlainBaseline;

impl<const W: usize> Evaluator<Mnk<W>> for PlainBaseline {
    fn evaluate(&self, game: &Mnk<W>) -> i32 {
        WindowBaseline(MnkEvaluator::new()).evaluate(game)
    }

    fn candidate_moves(&self, game: &Mnk<W>, moves: &mut Vec<u16>) {
        game.legal_moves(moves);
        if game.ply() == 0 {
            moves.retain(|&mv| mv == game.cell(game.rows() / 2, game.cols() / 2));
        } else {
            moves.retain(|&mv| near_a_stone(game, mv));
        }
    }
}

/// Prints a match of the evaluator against `opponent` on gomoku: 20 openings of 3 random
/// stones near the centre, each played with both colours.
fn gomoku_figure<B: Evaluator<Mnk<4>>>(name: &str, opponent: B, nodes: u64) {
    let start = Mnk::<4>::new(15, 15, 5);
    let limits = SearchLimits::nodes(nodes);
    let (w, d, l) = strength_match(&start, MnkEvaluator::new(), opponent, 20, 3, &limits);
    println!("gomoku, {nodes} nodes a move, MnkEvaluator vs {name}: +{w} ={d} -{l}");
}

#[test]
#[ignore = "a strength measurement of a few minutes; prints the figures"]
fn gomoku_strength_vs_window_baseline() {
    for nodes in [2_000, 10_000] {
        gomoku_figure(
            "window baseline",
            WindowBaseline(MnkEvaluator::new()),
            nodes,
        );
    }
}

#[test]
#[ignore = "a strength measurement of a few minutes; prints the figures"]
fn gomoku_strength_vs_plain_baseline() {
    gomoku_figure("plain window engine", PlainBaseline, 5_000);
}

#[test]
#[ignore = "a strength measurement of a few minutes; prints the figures"]
fn gomoku_strength_of_the_vcf_search() {
    gomoku_figure(
        "itself without VCF",
        MnkEvaluator::new().with_vcf_budget(0),
        5_000,
    );
}

/// A position of `stones` random stones in a `region` square in the middle of the board.
fn random_middle_position<const W: usize>(
    start: &Mnk<W>,
    region: usize,
    stones: usize,
    seed: u64,
) -> Mnk<W> {
    let mut rng = SplitMix::new(seed);
    let (top, left) = ((start.rows() - region) / 2, (start.cols() - region) / 2);
    let mut game = start.clone();
    while game.ply() < stones {
        let cell = game.cell(top + rng.below(region), left + rng.below(region));
        if game.is_legal(cell) {
            game.play(cell);
            if game.status().is_over() {
                game.undo();
            }
        }
    }
    game
}

/// Time per call of `evaluate` and `candidate_moves`, and search speed, on random positions
/// of a few board sizes.
#[test]
#[ignore = "a speed measurement; prints the figures"]
fn evaluator_speed() {
    fn measure<const W: usize>(name: &str, start: &Mnk<W>, region: usize, stones: usize) {
        let evaluator = start.evaluator();
        let positions: Vec<Mnk<W>> = (0..50)
            .map(|seed| random_middle_position(start, region, stones, seed))
            .filter(|g| g.status() == Status::Ongoing)
            .collect();
        let t = std::time::Instant::now();
        for _ in 0..20 {
            for g in &positions {
                std::hint::black_box(evaluator.evaluate(g));
            }
        }
        let eval_us = t.elapsed().as_secs_f64() * 1e6 / (20 * positions.len()) as f64;
        let t = std::time::Instant::now();
        let mut moves = Vec::new();
        let mut count = 0;
        for _ in 0..20 {
            for g in &positions {
                evaluator.candidate_moves(g, &mut moves);
                count += moves.len();
            }
        }
        let cand_us = t.elapsed().as_secs_f64() * 1e6 / (20 * positions.len()) as f64;
        let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 16);
        let t = std::time::Instant::now();
        let mut nodes = 0;
        for g in positions.iter().take(5) {
            searcher.clear();
            nodes += searcher
                .search(g, &SearchLimits::nodes(20_000), |_| {})
                .nodes;
        }
        let nps = nodes as f64 / t.elapsed().as_secs_f64();
        println!(
            "{name}: evaluate {eval_us:.1} us, candidate_moves {cand_us:.1} us \
             ({} moves), search {nps:.0} nodes/s",
            count / (20 * positions.len())
        );
    }
    measure("gomoku 30 stones", &Mnk::<4>::new(15, 15, 5), 9, 30);
    measure("50x50x10 60 stones", &Mnk::<40>::new(50, 50, 10), 16, 60);
    measure("70x70x10 40 stones", &Mnk::<157>::new(70, 70, 10), 20, 40);
    measure("70x70x10 300 stones", &Mnk::<157>::new(70, 70, 10), 40, 300);
}

#[test]
fn late_move_reductions_reduce_only_late_quiet_moves_of_large_boards() {
    let plain = MnkEvaluator::new();
    let reducing = MnkEvaluator::new().with_late_move_reductions(true);
    // First to move, with an open three on row 8: g8 makes an open four, o15 is quiet.
    let mut gomoku = Mnk::<4>::new(15, 15, 5);
    play_named(&mut gomoku, "h8 a1 i8 a3 j8 a5");
    let (four, quiet) = (
        gomoku.parse_move("g8").unwrap(),
        gomoku.parse_move("o15").unwrap(),
    );
    let mut small = Mnk::<1>::new(8, 8, 5);
    play_named(&mut small, "d4 a1");
    let small_quiet = small.parse_move("h8").unwrap();
    let two_orders = gomoku.windows_evaluator();
    for depth in 0..10 {
        for rank in 0..15 {
            for mv in [four, quiet] {
                assert_eq!(plain.late_move_reduction(&gomoku, mv, depth, rank, 15), 0);
                // A node with few candidates answers a threat: nothing is reduced.
                assert_eq!(reducing.late_move_reduction(&gomoku, mv, depth, rank, 6), 0);
            }
            assert_eq!(
                reducing.late_move_reduction(&small, small_quiet, depth, rank, 15),
                0
            );
            assert_eq!(
                reducing.late_move_reduction(&gomoku, four, depth, rank, 15),
                0
            );
            assert_eq!(
                reducing.late_move_reduction(&gomoku, quiet, depth, rank, 15),
                if depth >= 4 && rank >= 3 { 2 } else { 0 },
                "depth {depth}, rank {rank}"
            );
            // The two orders' candidates (the freestyle default) keep six at full depth.
            assert_eq!(
                two_orders.late_move_reduction(&gomoku, quiet, depth, rank, 15),
                if depth >= 4 && rank >= 6 { 2 } else { 0 },
                "two orders: depth {depth}, rank {rank}"
            );
            assert_eq!(
                two_orders.late_move_reduction(&gomoku, four, depth, rank, 15),
                0
            );
            assert_eq!(
                two_orders.late_move_reduction(&gomoku, quiet, depth, rank, 6),
                0
            );
        }
    }
}

#[test]
fn late_move_reductions_search_fewer_nodes_and_keep_the_proofs() {
    let reducing = MnkEvaluator::new().with_late_move_reductions(true);
    let nodes = |evaluator: &MnkEvaluator, game: &Mnk<4>, depth: usize| {
        let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 4);
        searcher
            .search(game, &SearchLimits::depth(depth), |_| {})
            .nodes
    };
    let (mut plain_total, mut reduced_total) = (0, 0);
    for opening in ["h8 h9 i8", "k9 g8 e9 i5", "f10 f8 g5"] {
        let mut game = Mnk::<4>::new(15, 15, 5);
        play_named(&mut game, opening);
        plain_total += nodes(&MnkEvaluator::new(), &game, 7);
        reduced_total += nodes(&reducing, &game, 7);
    }
    assert!(
        reduced_total < plain_total,
        "{reduced_total} nodes reduced, {plain_total} not"
    );
    // The known VCF of `a_known_vcf_is_found_and_proven_by_search`, proven as deep.
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, "g7 a1 h8 a3 i9 a5 h10 a7 h11 a9 g10 o1 f10 o3");
    let plies = ((VCF_WIN - reducing.evaluate(&game)) / 10) as usize;
    let mut searcher = Searcher::new(reducing, Algorithm::Pvs, 4);
    let result = searcher.search(&game, &SearchLimits::depth(plies), |_| {});
    assert!(result.score >= Score::win_in(plies), "{}", result.score);
}

/// A root move after which the opponent wins by continuous threats (found by Rapfi, game 5 of
/// the issue 33 pilot, our move 18 with the second stones) is what a depth-8 search plays
/// without the root check; with it (`windows-vct`) the search plays a move the opponent has no
/// such win against.
#[test]
fn a_root_move_lost_to_threats_is_dropped_for_one_that_holds() {
    let moves = "f7 i5 j9 h6 g8 j6 h9 i10 g7 h4 k7 g6 i6 h7 h5 e4 f5 g4 f4 f6 g5 e6 d6 e5 e7 \
                 e3 e2 f3 f2 d4 d3 g2 d5 g9 h8";
    let mut game = Mnk::<4>::new(15, 15, 5);
    play_named(&mut game, moves);
    let limits = SearchLimits {
        depth: Some(8),
        ..SearchLimits::default()
    };
    let checked = MnkEvaluator::new().with_root_threats(true);
    let mut plain = Searcher::new(MnkEvaluator::new(), Algorithm::Pvs, 16);
    let lost = plain.search(&game, &limits, |_| {}).best_move.unwrap();
    assert_eq!(game.format_move(lost), "j4");
    assert!(checked.root_move_loses(&game, lost));
    let mut searcher = Searcher::new(checked.clone(), Algorithm::Pvs, 16);
    let kept = searcher.search(&game, &limits, |_| {}).best_move.unwrap();
    assert!(
        !checked.root_move_loses(&game, kept),
        "{}",
        game.format_move(kept)
    );
    // The check is the evaluator's: the plain one never finds a move lost.
    assert!(!MnkEvaluator::new().root_move_loses(&game, lost));
}

#[test]
fn the_selective_search_prunes_and_reduces_only_late_quiet_moves_of_large_boards() {
    let plain = MnkEvaluator::new();
    let selective = MnkEvaluator::new().with_selective_search(true);
    // First to move, with an open three on row 8: g8 makes an open four, o15 is quiet.
    let mut gomoku = Mnk::<4>::new(15, 15, 5);
    play_named(&mut gomoku, "h8 a1 i8 a3 j8 a5");
    let (four, quiet) = (
        gomoku.parse_move("g8").unwrap(),
        gomoku.parse_move("o15").unwrap(),
    );
    let mut small = Mnk::<1>::new(8, 8, 5);
    play_named(&mut small, "d4 a1");
    let small_quiet = small.parse_move("h8").unwrap();
    for depth in 0..12 {
        for rank in 0..15 {
            for mv in [four, quiet] {
                assert!(!plain.late_move_pruned(&gomoku, mv, depth, rank, 15));
                // A node with few candidates answers a threat: nothing is pruned or reduced.
                assert!(!selective.late_move_pruned(&gomoku, mv, depth, rank, 6));
                assert_eq!(
                    selective.late_move_reduction(&gomoku, mv, depth, rank, 6),
                    0
                );
            }
            assert!(!selective.late_move_pruned(&small, small_quiet, depth, rank, 15));
            assert_eq!(
                selective.late_move_reduction(&small, small_quiet, depth, rank, 15),
                0
            );
            assert!(!selective.late_move_pruned(&gomoku, four, depth, rank, 15));
            assert_eq!(
                selective.late_move_reduction(&gomoku, four, depth, rank, 15),
                0
            );
            let pruned = (depth == 1 && rank >= 5) || (depth == 2 && rank >= 8);
            assert_eq!(
                selective.late_move_pruned(&gomoku, quiet, depth, rank, 15),
                pruned,
                "depth {depth}, rank {rank}"
            );
            let reduction = match (depth, rank) {
                (8.., 6..) => 4,
                (3.., 3..) => 2,
                _ => 0,
            };
            assert_eq!(
                selective.late_move_reduction(&gomoku, quiet, depth, rank, 15),
                reduction,
                "depth {depth}, rank {rank}"
            );
        }
    }
    assert_eq!(plain.deepening_share(&gomoku), 0.5);
    assert_eq!(selective.deepening_share(&small), 0.5);
    assert_eq!(selective.deepening_share(&gomoku), 0.6);
    // The two orders' candidates (the freestyle default) start iterations until the aim; the
    // same board under standard rules (candidates by hint alone) and small boards at half.
    assert_eq!(gomoku.windows_evaluator().deepening_share(&gomoku), 1.0);
    let standard = Mnk::<4>::with_rule(15, 15, 5, zerosum_games::mnk::Rule::Standard);
    assert_eq!(standard.windows_evaluator().deepening_share(&standard), 0.5);
    assert_eq!(small.windows_evaluator().deepening_share(&small), 0.5);
    // The two orders' lists are ordered by their hints alone, the others with the history.
    assert!(!gomoku.windows_evaluator().orders_by_history(&gomoku));
    assert!(standard.windows_evaluator().orders_by_history(&standard));
    assert!(small.windows_evaluator().orders_by_history(&small));
    assert!(plain.orders_by_history(&gomoku));
}

/// The selective search searches fewer nodes to the same depth, and every win or loss it
/// reports is one the full-width search to the same depth reports too (on random crowded
/// gomoku positions, where threats abound): pruned and reduced moves never make a proof.
#[test]
fn the_selective_search_searches_fewer_nodes_and_reports_only_real_proofs() {
    let selective = MnkEvaluator::new().with_selective_search(true);
    let search = |evaluator: &MnkEvaluator, game: &Mnk<4>, depth: usize| {
        let mut searcher = Searcher::new(evaluator.clone(), Algorithm::Pvs, 4);
        searcher.search(game, &SearchLimits::depth(depth), |_| {})
    };
    let (mut plain_total, mut selective_total) = (0, 0);
    for opening in ["h8 h9 i8", "k9 g8 e9 i5", "f10 f8 g5"] {
        let mut game = Mnk::<4>::new(15, 15, 5);
        play_named(&mut game, opening);
        plain_total += search(&MnkEvaluator::new(), &game, 8).nodes;
        selective_total += search(&selective, &game, 8).nodes;
    }
    assert!(
        selective_total < plain_total,
        "{selective_total} nodes selective, {plain_total} full-width"
    );
    let mut rng = SplitMix::new(0x5e1e);
    let mut decisive = 0;
    for _ in 0..40 {
        // 12 to 23 random stones in the 7x7 square around the centre.
        let mut game = Mnk::<4>::new(15, 15, 5);
        let stones = 12 + rng.below(12);
        while game.ply() < stones && game.status() == Status::Ongoing {
            let cell = game.cell(4 + rng.below(7), 4 + rng.below(7));
            if game.is_legal(cell) {
                game.play(cell);
            }
        }
        if game.status().is_over() {
            continue;
        }
        let narrow = search(&selective, &game, 6).score;
        if !narrow.is_decisive() {
            continue;
        }
        decisive += 1;
        let full = search(&MnkEvaluator::new(), &game, 6).score;
        assert!(
            full.is_decisive() && (full > Score::DRAW) == (narrow > Score::DRAW),
            "selective {narrow}, full-width {full} after {:?}",
            game.history()
        );
    }
    assert!(decisive >= 5, "only {decisive} decisive positions");
}
