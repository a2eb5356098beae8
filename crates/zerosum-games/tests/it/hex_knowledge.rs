//! Hex knowledge: virtual connections by H-search checked against a brute force inside their
//! carriers, the mustplay, the inferior-cell rules (captured, dominated, fill-in) against
//! exhaustive values, and the proof-number solver against a plain minimax.

use std::collections::HashMap;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Outcome, Status};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::hex::cells::{other, CellSet, Geometry, Position};
use zerosum_games::hex::dfpn::{DfpnError, DfpnLimits, DfpnOptions, HexSolver};
use zerosum_games::hex::inferior::{captured_pairs, dominated_moves, fill_in};
use zerosum_games::hex::vc::{EdgeLink, VcBuilder, VcLimits};
use zerosum_games::hex::{Hex, SwapRule};

type Set = CellSet<1>;

fn position(size: usize, moves: &str) -> Hex {
    let mut game = Hex::new(size, size, None);
    game.play_list(moves).unwrap();
    game
}

fn cell(game: &Hex, name: &str) -> usize {
    match game.parse_move(name).unwrap() {
        StoneMove::Place(cell) => cell as usize,
        StoneMove::Swap => panic!("not a cell"),
    }
}

fn cells(game: &Hex, names: &str) -> Set {
    let mut set = Set::EMPTY;
    for name in names.split_whitespace() {
        set.insert(cell(game, name));
    }
    set
}

/// A point of a brute-force check: an empty cell or a stone (its group), or an edge.
#[derive(Clone, Copy, Debug)]
enum End {
    Cell(usize),
    Edge(usize),
}

/// Whether `colour` joins `a` and `b` on `position` (an empty end cell counts as its stone).
fn joined(geometry: &Geometry<1>, position: &Position<1>, colour: Stone, a: End, b: End) -> bool {
    let mut stones = position.stones(colour);
    for end in [a, b] {
        if let End::Cell(cell) = end {
            if position.stone(cell) == Stone::Empty {
                stones.insert(cell);
            }
        }
    }
    let start = match a {
        End::Cell(cell) => Set::single(cell),
        End::Edge(edge) => geometry.edges(colour)[edge],
    };
    let reached = geometry.flood(&start, &stones);
    match b {
        End::Cell(cell) => reached.contains(cell),
        End::Edge(edge) => reached.meets(&geometry.edges(colour)[edge]),
    }
}

/// Whether `colour` joins `a` and `b` with play restricted to `carrier`, `colour` moving first
/// when `first`: exhaustive, memoised.
fn holds(
    geometry: &Geometry<1>,
    position: Position<1>,
    colour: Stone,
    (a, b): (End, End),
    carrier: Set,
    first: bool,
    memo: &mut HashMap<(Position<1>, bool), bool>,
) -> bool {
    if joined(geometry, &position, colour, a, b) {
        return true;
    }
    let free = carrier.intersection(&position.empty(geometry));
    if free.is_empty() {
        return false;
    }
    if let Some(&known) = memo.get(&(position, first)) {
        return known;
    }
    let mover = if first { colour } else { other(colour) };
    let mut outcomes = free.iter().map(|cell| {
        let mut next = position;
        next.add(mover, cell);
        holds(geometry, next, colour, (a, b), carrier, !first, memo)
    });
    let result = if first {
        outcomes.any(|joins| joins)
    } else {
        outcomes.all(|joins| joins)
    };
    memo.insert((position, first), result);
    result
}

/// The brute-force end of a builder point.
fn end_of(builder: &VcBuilder<1>, point: usize) -> End {
    let [first, second] = builder.edge_points();
    if point == first {
        End::Edge(0)
    } else if point == second {
        End::Edge(1)
    } else {
        End::Cell(point)
    }
}

/// A random position of `stones` stones (alternating colours) on a `size` board, not won.
fn random_position(rng: &mut SplitMix, size: usize, stones: usize) -> Option<Hex> {
    let mut game = Hex::new(size, size, None);
    while game.ply() < stones {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.play(moves[rng.below(moves.len())]);
        if game.status().is_over() {
            return None;
        }
    }
    Some(game)
}

#[test]
fn every_connection_found_holds_inside_its_carrier() {
    let mut rng = SplitMix::new(32);
    let mut checked = [0usize; 2];
    for round in 0..60 {
        let size = 4 + round % 2;
        let stones = rng.below(7);
        let Some(game) = random_position(&mut rng, size, stones) else {
            continue;
        };
        let geometry = Geometry::<1>::new(size, size);
        let position = Position::<1>::of(&game);
        for colour in [Stone::Black, Stone::White] {
            let mut builder = VcBuilder::new(&geometry, VcLimits::DEFAULT);
            builder.build(&geometry, &position, colour, EdgeLink::Full);
            if builder.edge_link() == EdgeLink::Joined {
                continue;
            }
            let points: Vec<usize> = position
                .empty(&geometry)
                .union(&position.stones(colour))
                .iter()
                .map(|cell| builder.point_of(cell))
                .chain(builder.edge_points())
                .collect();
            for (i, &a) in points.iter().enumerate() {
                for &b in &points[i + 1..] {
                    if a == b {
                        continue;
                    }
                    let ends = (end_of(&builder, a), end_of(&builder, b));
                    for (kind, carriers) in [(0, builder.fulls(a, b)), (1, builder.semis(a, b))] {
                        for &carrier in carriers.iter().take(3) {
                            if carrier.len() > 10 {
                                continue;
                            }
                            let mut memo = HashMap::new();
                            let first = kind == 1;
                            assert!(
                                holds(&geometry, position, colour, ends, carrier, first, &mut memo),
                                "a false {} connection of {colour:?} {ends:?} carrier {:?} in\n{}",
                                ["full", "semi"][kind],
                                carrier.iter().collect::<Vec<_>>(),
                                game.render()
                            );
                            checked[kind] += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked[0] > 1000 && checked[1] > 1000,
        "checked {checked:?}"
    );
}

/// The full connections `builder` found between the stone on `from` and edge `edge`.
fn to_edge(builder: &VcBuilder<1>, from: usize, edge: usize) -> Vec<Set> {
    builder
        .fulls(builder.point_of(from), builder.edge_points()[edge])
        .to_vec()
}

#[test]
fn bridges_and_edge_templates_come_out_of_the_rules() {
    let geometry = Geometry::<1>::new(7, 7);
    // A bridge: b2 and c3 Black, carrier {c2, b3}.
    let game = position(7, "b2 g7 c3");
    let mut builder = VcBuilder::new(&geometry, VcLimits::DEFAULT);
    builder.build(
        &geometry,
        &Position::of(&game),
        Stone::Black,
        EdgeLink::Full,
    );
    let (b2, c3) = (cell(&game, "b2"), cell(&game, "c3"));
    let bridge = builder.fulls(builder.point_of(b2), builder.point_of(c3));
    assert_eq!(bridge.first(), Some(&cells(&game, "c2 b3")));
    // The template of row 2: b2 to the top through b1 and c1.
    assert_eq!(
        to_edge(&builder, b2, 0).first(),
        Some(&cells(&game, "b1 c1"))
    );
    // The ziggurat (template of row 3): d3 alone reaches the top edge through 8 cells.
    let game = position(7, "d3");
    let d3 = cell(&game, "d3");
    builder.build(
        &geometry,
        &Position::of(&game),
        Stone::Black,
        EdgeLink::Full,
    );
    let ziggurat = to_edge(&builder, d3, 0);
    let smallest = ziggurat.first().expect("the ziggurat");
    assert_eq!(
        smallest.len(),
        8,
        "{:?}",
        smallest.iter().collect::<Vec<_>>()
    );
    let mut memo = HashMap::new();
    let ends = (End::Cell(d3), End::Edge(0));
    assert!(holds(
        &geometry,
        Position::of(&game),
        Stone::Black,
        ends,
        *smallest,
        false,
        &mut memo
    ));
}

#[test]
fn known_non_connections_are_not_claimed() {
    let geometry = Geometry::<1>::new(5, 5);
    // c3 with White on c2 and d2 (both cells above it): no connection to the top is left
    // that the brute force would not refute, and H-search claims none.
    let game = position(5, "c3 c2 a5 d2");
    let position = Position::of(&game);
    let mut memo = HashMap::new();
    let ends = (End::Cell(cell(&game, "c3")), End::Edge(0));
    let everywhere = position.empty(&geometry);
    let real = holds(
        &geometry,
        position,
        Stone::Black,
        ends,
        everywhere,
        false,
        &mut memo,
    );
    let mut builder = VcBuilder::new(&geometry, VcLimits::DEFAULT);
    builder.build(&geometry, &position, Stone::Black, EdgeLink::Full);
    assert!(!real);
    assert!(to_edge(&builder, cell(&game, "c3"), 0).is_empty());
    // Two Black stones three rows apart with White between: not joined.
    let game = position_with(5, "a1 b2 a4 b3 a3");
    builder.build(
        &geometry,
        &Position::of(&game),
        Stone::Black,
        EdgeLink::Full,
    );
    assert!(builder
        .fulls(
            builder.point_of(cell(&game, "a1")),
            builder.point_of(cell(&game, "a4"))
        )
        .is_empty());
}

/// A position from stones alternately Black and White in the order given.
fn position_with(size: usize, moves: &str) -> Hex {
    position(size, moves)
}

// ---------------------------------------------------------------------------------------------
// Exhaustive values.

/// Whether the side to move wins `game` (memoised minimax over every move).
fn mover_wins(game: &mut Hex, memo: &mut HashMap<u64, bool>) -> bool {
    if let Status::Over(Outcome::Win(winner)) = game.status() {
        return winner == game.to_move();
    }
    if let Some(&known) = memo.get(&game.hash()) {
        return known;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let wins = moves.into_iter().any(|mv| {
        game.play(mv);
        let reply = mover_wins(game, memo);
        game.undo();
        !reply
    });
    memo.insert(game.hash(), wins);
    wins
}

/// Whether `colour`, to move on `position`, wins (memoised minimax on sets).
fn colour_wins(
    geometry: &Geometry<1>,
    position: Position<1>,
    colour: Stone,
    memo: &mut HashMap<(Position<1>, Stone), bool>,
) -> bool {
    if position.has_won(geometry, other(colour)) {
        return false;
    }
    if position.has_won(geometry, colour) {
        return true;
    }
    if let Some(&known) = memo.get(&(position, colour)) {
        return known;
    }
    let wins = position.empty(geometry).iter().any(|cell| {
        let mut next = position;
        next.add(colour, cell);
        !colour_wins(geometry, next, other(colour), memo)
    });
    memo.insert((position, colour), wins);
    wins
}

#[test]
fn the_mustplay_holds_every_move_that_does_not_lose() {
    let mut rng = SplitMix::new(7);
    let mut pruned = 0;
    for round in 0..300 {
        let size = 4;
        let Some(game) = random_position(&mut rng, size, 2 + round % 5) else {
            continue;
        };
        let geometry = Geometry::<1>::new(size, size);
        let position = Position::<1>::of(&game);
        let mover = game.colour_of(game.to_move());
        let mut builder = VcBuilder::new(&geometry, VcLimits::DEFAULT);
        builder.build(&geometry, &position, other(mover), EdgeLink::Full);
        if builder.edge_link() != EdgeLink::Semi {
            continue;
        }
        let mustplay = builder.mustplay().expect("semis");
        let mut memo = HashMap::new();
        for cell in position.empty(&geometry).minus(&mustplay).iter() {
            let mut next = position;
            next.add(mover, cell);
            assert!(
                colour_wins(&geometry, next, other(mover), &mut memo),
                "{} outside the mustplay does not lose in\n{}",
                game.format_move(StoneMove::Place(cell as u16)),
                game.render()
            );
            pruned += 1;
        }
    }
    assert!(pruned > 100, "only {pruned} moves outside mustplays");
}

#[test]
fn a_pair_walled_in_by_one_colour_is_captured() {
    // b1 and c1 on the top edge, b2 Black, a1 a2 and d1 c2 White: whichever of the pair
    // White takes, Black's stone on the other leaves it dead.
    let geometry = Geometry::<1>::new(4, 4);
    let game = position(4, "b2 a1 a4 a2 b4 d1 c4 c2");
    let position = Position::of(&game);
    let captured = captured_pairs(&geometry, &position, Stone::Black);
    assert!(cells(&game, "b1 c1").is_subset(&captured), "{captured:?}");
    assert!(!captured_pairs(&geometry, &position, Stone::White).meets(&cells(&game, "b1 c1")));
    // Filled in, Black has the pair.
    let mut filled = position;
    let fill = fill_in(&geometry, &mut filled);
    assert!(cells(&game, "b1 c1").is_subset(&filled.black), "{fill:?}");
}

#[test]
fn a_cell_that_one_stone_kills_is_dominated_by_it() {
    // a1 has one empty neighbour, b1 (a2 Black, b... ): White on b1 kills a1 for White.
    let geometry = Geometry::<1>::new(4, 4);
    let game = position(4, "a2 d4 c3 d3");
    let position = Position::of(&game);
    let empty = position.empty(&geometry);
    // a1: left edge White, top edge Black, b1 empty, a2 Black: with a Black stone on b1, a1
    // is surrounded by White (left) and one Black arc.
    let dominated = dominated_moves(&geometry, &position, Stone::Black, &empty);
    assert!(dominated.contains(cell(&game, "a1")), "{dominated:?}");
    assert!(!dominated.contains(cell(&game, "b1")));
}

#[test]
fn fill_in_and_dominated_moves_keep_the_value() {
    let mut rng = SplitMix::new(11);
    let mut filled_positions = 0;
    let mut dominated_seen = 0;
    for round in 0..400 {
        let size = 4 + round % 2;
        let stones = size * size / 2 + rng.below(size);
        let Some(game) = random_position(&mut rng, size, stones) else {
            continue;
        };
        let geometry = Geometry::<1>::new(size, size);
        let original = Position::<1>::of(&game);
        let mut filled = original;
        let fill = fill_in(&geometry, &mut filled);
        let mut memo = HashMap::new();
        for colour in [Stone::Black, Stone::White] {
            let before = colour_wins(&geometry, original, colour, &mut memo);
            assert_eq!(
                before,
                colour_wins(&geometry, filled, colour, &mut memo),
                "the fill-in {:?} changes the value for {colour:?} in\n{}",
                fill.cells().iter().collect::<Vec<_>>(),
                game.render()
            );
            if filled.has_won(&geometry, Stone::Black) || filled.has_won(&geometry, Stone::White) {
                continue;
            }
            let empty = filled.empty(&geometry);
            let dominated = dominated_moves(&geometry, &filled, colour, &empty);
            dominated_seen += dominated.len();
            let kept_win = empty.minus(&dominated).iter().any(|cell| {
                let mut next = filled;
                next.add(colour, cell);
                !colour_wins(&geometry, next, other(colour), &mut memo)
            });
            assert_eq!(
                before,
                kept_win,
                "dominated moves lose the win in\n{}",
                game.render()
            );
        }
        filled_positions += usize::from(!fill.cells().is_empty());
    }
    assert!(filled_positions > 30, "only {filled_positions} fill-ins");
    assert!(dominated_seen > 10, "only {dominated_seen} dominated moves");
}

// ---------------------------------------------------------------------------------------------
// The proof-number solver.

/// The solver's value of `game` with `options`.
fn dfpn_wins(game: &Hex, options: DfpnOptions) -> bool {
    let mut solver = HexSolver::new(game.width(), game.height(), options).unwrap();
    let result = solver.solve(game, &DfpnLimits::default()).unwrap();
    let wins = result.wins.expect("solved without limits");
    if wins {
        let mut after = game.clone();
        after.play(result.best.expect("a winning move"));
        let mut memo = HashMap::new();
        assert!(
            !mover_wins(&mut after, &mut memo),
            "a best move that does not win"
        );
    }
    wins
}

#[test]
fn dfpn_agrees_with_minimax_with_and_without_knowledge() {
    let mut rng = SplitMix::new(5);
    let bare = DfpnOptions {
        inferior: false,
        connections: false,
        ..DfpnOptions::default()
    };
    let mut solved = 0;
    for round in 0..40 {
        let size = 3 + round % 2;
        let stones = 2 + rng.below(4);
        let Some(mut game) = random_position(&mut rng, size, stones) else {
            continue;
        };
        let mut memo = HashMap::new();
        let truth = mover_wins(&mut game, &mut memo);
        assert_eq!(
            dfpn_wins(&game, DfpnOptions::default()),
            truth,
            "\n{}",
            game.render()
        );
        assert_eq!(dfpn_wins(&game, bare), truth, "bare\n{}", game.render());
        solved += 1;
    }
    assert!(solved > 25);
}

#[test]
fn dfpn_leaves_the_swap_to_the_generic_solver() {
    let mut game = Hex::new(3, 3, Some(SwapRule::Sides));
    let mut solver = HexSolver::new(3, 3, DfpnOptions::default()).unwrap();
    let limits = DfpnLimits::default();
    assert_eq!(solver.solve(&game, &limits), Err(DfpnError::Swap));
    game.play_text("a1").unwrap();
    assert_eq!(solver.solve(&game, &limits), Err(DfpnError::Swap));
    game.play_text("b2").unwrap();
    assert!(solver.solve(&game, &limits).unwrap().wins.is_some());
    // A board beyond the bit sets is refused, not solved wrongly.
    assert!(matches!(
        HexSolver::new(20, 20, DfpnOptions::default()),
        Err(DfpnError::TooBig(20, 20))
    ));
}
