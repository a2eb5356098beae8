//! Hex knowledge: virtual connections by H-search checked against a brute force inside their
//! carriers, the mustplay, the inferior-cell rules (captured, dominated, fill-in) against
//! exhaustive values, and the proof-number solver against a plain minimax.

use std::collections::HashMap;

use zerosum_core::conformance::SplitMix;
use zerosum_core::{Game, Outcome, Status};
use zerosum_games::connection::{Stone, StoneMove};
use zerosum_games::hex::cells::{other, CellSet, Geometry, Position};
use zerosum_games::hex::dfpn::{DfpnError, DfpnLimits, DfpnOptions, HexSolver};
use zerosum_games::hex::inferior::{
    captured_pairs, dead_cells, dominated_moves, dominated_moves_with_reason, fill_in,
    fill_in_with_regions, is_dead, is_dead_in,
};
use zerosum_games::hex::regions::{captured_region_of, captured_regions};
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

/// The points of `builder`'s last build of `colour` on `position`: its groups, empty cells and
/// edges.
fn points_of(
    builder: &VcBuilder<1>,
    geometry: &Geometry<1>,
    position: &Position<1>,
    colour: Stone,
) -> Vec<usize> {
    let mut points: Vec<usize> = position
        .empty(geometry)
        .union(&position.stones(colour))
        .iter()
        .map(|cell| builder.point_of(cell))
        .chain(builder.edge_points())
        .collect();
    points.sort_unstable();
    points.dedup();
    points
}

/// A random position of `stones` stones on a `size x size` board (as [`random_position`]) and
/// the same with one to three stones of either colour added: a parent and a child of the
/// incremental H-search.
fn extended_position(
    rng: &mut SplitMix,
    size: usize,
    stones: usize,
) -> Option<(Geometry<1>, Position<1>, Position<1>)> {
    let game = random_position(rng, size, stones)?;
    let geometry = Geometry::<1>::new(size, size);
    let before = Position::<1>::of(&game);
    let mut after = before;
    for _ in 0..1 + rng.below(3) {
        let empty: Vec<usize> = after.empty(&geometry).iter().collect();
        let colour = [Stone::Black, Stone::White][rng.below(2)];
        after.add(colour, empty[rng.below(empty.len())]);
    }
    Some((geometry, before, after))
}

#[test]
fn an_incremental_build_finds_what_a_build_from_scratch_finds_when_no_limit_binds() {
    // A build from the connections of a position that the current one extends by a few
    // stones of either colour (VcBuilder::build_from, Benzene's incremental build) finds every
    // connection a build from scratch finds (the same carrier or one inside it), with limits
    // too large to cut anything. It may find more: a connection the parent derived through a
    // cell that is now a stone joined to an edge, which a build from scratch would have to
    // derive through the edge (it never does); those hold too.
    let unlimited = VcLimits {
        fulls: 100_000,
        fulls_combined: 100_000,
        semis: 100_000,
    };
    let mut rng = SplitMix::new(41);
    let (mut compared, mut extra) = (0, 0);
    for round in 0..120 {
        let size = 4 + round % 3;
        let stones = rng.below(6);
        let Some((geometry, before, after)) = extended_position(&mut rng, size, stones) else {
            continue;
        };
        for colour in [Stone::Black, Stone::White] {
            let mut parent = VcBuilder::new(&geometry, unlimited);
            parent.build(&geometry, &before, colour, EdgeLink::Full);
            let mut scratch = VcBuilder::new(&geometry, unlimited);
            scratch.build(&geometry, &after, colour, EdgeLink::Full);
            if !parent.seeds(&after, colour) || scratch.edge_link() != EdgeLink::None {
                continue;
            }
            let mut incremental = VcBuilder::new(&geometry, unlimited);
            incremental.build_from(&parent, &geometry, &after, colour, EdgeLink::Full);
            let points = points_of(&scratch, &geometry, &after, colour);
            let within = |carrier: &Set, list: &[Set]| list.iter().any(|c| c.is_subset(carrier));
            for (i, &a) in points.iter().enumerate() {
                for &b in &points[i + 1..] {
                    let context = || {
                        format!("{colour:?} {a}-{b} on {size}x{size}: {before:?} then {after:?}")
                    };
                    let (fulls, semis) = (incremental.fulls(a, b), incremental.semis(a, b));
                    for full in scratch.fulls(a, b) {
                        assert!(within(full, fulls), "full {full:?} missed: {}", context());
                    }
                    for semi in scratch.semis(a, b) {
                        assert!(
                            within(semi, fulls) || within(semi, semis),
                            "semi {semi:?} missed: {}",
                            context()
                        );
                    }
                    let ends = (end_of(&scratch, a), end_of(&scratch, b));
                    for (kind, carriers, theirs) in [
                        (0, fulls, scratch.fulls(a, b)),
                        (1, semis, scratch.semis(a, b)),
                    ] {
                        for carrier in carriers
                            .iter()
                            .filter(|c| !theirs.contains(c) && c.len() <= 12)
                        {
                            let mut memo = HashMap::new();
                            assert!(
                                holds(
                                    &geometry,
                                    after,
                                    colour,
                                    ends,
                                    *carrier,
                                    kind == 1,
                                    &mut memo
                                ),
                                "a false extra connection {carrier:?}: {}",
                                context()
                            );
                            extra += 1;
                        }
                    }
                }
            }
            compared += 1;
        }
    }
    assert!(
        compared > 60,
        "compared {compared}, {extra} extra connections"
    );
}

#[test]
fn every_connection_an_incremental_build_finds_holds_inside_its_carrier() {
    // With the solver's limits, a build from a parent's connections may miss some that a
    // build from scratch finds, never claims a false one.
    let mut rng = SplitMix::new(43);
    let mut checked = [0usize; 2];
    for round in 0..60 {
        let size = 4 + round % 2;
        let stones = rng.below(4);
        let Some((geometry, before, after)) = extended_position(&mut rng, size, stones) else {
            continue;
        };
        for colour in [Stone::Black, Stone::White] {
            let mut parent = VcBuilder::new(&geometry, VcLimits::DEFAULT);
            parent.build(&geometry, &before, colour, EdgeLink::Full);
            if !parent.seeds(&after, colour) {
                continue;
            }
            let mut builder = VcBuilder::new(&geometry, VcLimits::DEFAULT);
            builder.build_from(&parent, &geometry, &after, colour, EdgeLink::Full);
            if builder.edge_link() == EdgeLink::Joined {
                continue;
            }
            let points = points_of(&builder, &geometry, &after, colour);
            for (i, &a) in points.iter().enumerate() {
                for &b in &points[i + 1..] {
                    let ends = (end_of(&builder, a), end_of(&builder, b));
                    for (kind, carriers) in [(0, builder.fulls(a, b)), (1, builder.semis(a, b))] {
                        for &carrier in carriers.iter().take(3) {
                            if carrier.len() > 10 {
                                continue;
                            }
                            let mut memo = HashMap::new();
                            assert!(
                                holds(&geometry, after, colour, ends, carrier, kind == 1, &mut memo),
                                "a false {} connection of {colour:?} {ends:?} carrier {:?}: {before:?} then {after:?}",
                                ["full", "semi"][kind],
                                carrier.iter().collect::<Vec<_>>(),
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
fn the_template_of_the_fourth_row_comes_out_of_the_rules() {
    // A stone on the 4th row reaches its edge through the 19 cells of the template IV-1a
    // (rows 1 to 4, its own included): the OR of any number of semis derives it, so seeding edge
    // templates into H-search adds nothing on the boards the solver proves (measured: the
    // same positions on 7x7).
    let (size, stone) = (8, "d4");
    let geometry = Geometry::<2>::new(size, size);
    let game = position(size, stone);
    let mut builder = VcBuilder::new(&geometry, VcLimits::DEFAULT);
    builder.build(
        &geometry,
        &Position::of(&game),
        Stone::Black,
        EdgeLink::Full,
    );
    let from = builder.point_of(cell(&game, stone));
    let fulls = builder.fulls(from, builder.edge_points()[0]);
    let smallest = fulls.first().expect("a connection to the top edge");
    assert_eq!(smallest.len(), 19);
    assert!(smallest
        .iter()
        .all(|carrier| (0..4).contains(&game.coordinates(carrier).1)));
    // Towards the bottom (5 rows away) no connection is found.
    assert!(builder.fulls(from, builder.edge_points()[1]).is_empty());
}

#[test]
fn a_board_of_64_cells_gives_the_same_knowledge_in_one_word_as_in_two() {
    // 8x8 fits one word: the edges, points 64 and 65, live outside the cells' bits.
    let words = |set: CellSet<2>| -> Vec<usize> { set.iter().collect() };
    let word = |set: Set| -> Vec<usize> { set.iter().collect() };
    let (one, two) = (Geometry::<1>::new(8, 8), Geometry::<2>::new(8, 8));
    let mut rng = SplitMix::new(64);
    let mut tried = 0;
    while tried < 20 {
        let stones = 6 + rng.below(14);
        let Some(game) = random_position(&mut rng, 8, stones) else {
            continue;
        };
        tried += 1;
        for colour in [Stone::Black, Stone::White] {
            let mut a = VcBuilder::new(&one, VcLimits::DEFAULT);
            let mut b = VcBuilder::new(&two, VcLimits::DEFAULT);
            a.build(&one, &Position::of(&game), colour, EdgeLink::Full);
            b.build(&two, &Position::of(&game), colour, EdgeLink::Full);
            assert_eq!(a.edge_link(), b.edge_link());
            let fulls_a: Vec<_> = a.edge_fulls().iter().map(|&c| word(c)).collect();
            let fulls_b: Vec<_> = b.edge_fulls().iter().map(|&c| words(c)).collect();
            assert_eq!(fulls_a, fulls_b);
            let semis_a: Vec<_> = a.edge_semis().iter().map(|&c| word(c)).collect();
            let semis_b: Vec<_> = b.edge_semis().iter().map(|&c| words(c)).collect();
            assert_eq!(semis_a, semis_b);
            assert_eq!(
                word(captured_regions(&one, &Position::of(&game), colour)),
                words(captured_regions(&two, &Position::of(&game), colour))
            );
        }
    }
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
}

#[test]
fn an_edge_cell_that_a_stone_above_it_captures_is_dominated_by_it() {
    // On the empty board, Black's b2 makes b1 and c1 a pair Black captures on its own edge
    // (White's stone on either, Black's on the other, and White's is dead): b1 is worth
    // less to Black than b2.
    let geometry = Geometry::<1>::new(5, 5);
    let game = position(5, "");
    let position = Position::of(&game);
    let candidates = cells(&game, "b1 b2 c3");
    let dominated = dominated_moves(&geometry, &position, Stone::Black, &candidates);
    assert_eq!(dominated, cells(&game, "b1"), "{dominated:?}");
}

#[test]
fn a_cell_that_a_stone_next_to_it_makes_part_of_a_captured_region_is_dominated_by_it() {
    // On the empty 5x5 board White's b2 makes b1, a2 and a3 a region White captures (Black's
    // stones there reach the top edge and the cells b2 leaves them, joined already): b1 is
    // worth less to White than b2, though no pair of cells is captured.
    let geometry = Geometry::<1>::new(5, 5);
    let game = position(5, "");
    let position = Position::of(&game);
    let mut after = position;
    after.add(Stone::White, cell(&game, "b2"));
    let region = captured_region_of(&geometry, &after, Stone::White, cell(&game, "b1"));
    assert_eq!(region, Some(cells(&game, "b1 a2 a3")));
    assert!(!captured_pairs(&geometry, &after, Stone::White).contains(cell(&game, "b1")));
    let empty = position.empty(&geometry);
    let (dominated, _) =
        dominated_moves_with_reason(&geometry, &position, Stone::White, &empty, true);
    assert!(dominated.contains(cell(&game, "b1")), "{dominated:?}");
    // The engine's rule (without regions) keeps it.
    assert!(
        !dominated_moves(&geometry, &position, Stone::White, &empty).contains(cell(&game, "b1"))
    );
}

#[test]
fn dead_cells_on_sets_never_change_the_value() {
    // The simplicial test on sets finds more than the arcs of stones of `is_dead`, and each
    // cell it finds leaves the value alone whichever colour takes it, whoever moves.
    let mut rng = SplitMix::new(17);
    let (mut dead_seen, mut beyond_arcs) = (0, 0);
    for round in 0..300 {
        let size = 4 + round % 2;
        let stones = size * size / 2 - 2 + rng.below(size);
        let Some(game) = random_position(&mut rng, size, stones) else {
            continue;
        };
        let geometry = Geometry::<1>::new(size, size);
        let position = Position::<1>::of(&game);
        let mut memo = HashMap::new();
        for dead in dead_cells(&geometry, &position).iter() {
            dead_seen += 1;
            beyond_arcs += usize::from(!is_dead(&game, dead));
            for mover in [Stone::Black, Stone::White] {
                let value = colour_wins(&geometry, position, mover, &mut memo);
                for colour in [Stone::Black, Stone::White] {
                    let mut taken = position;
                    taken.add(colour, dead);
                    assert_eq!(
                        colour_wins(&geometry, taken, mover, &mut memo),
                        value,
                        "{} is not dead in\n{}",
                        game.format_move(StoneMove::Place(dead as u16)),
                        game.render()
                    );
                }
            }
        }
    }
    assert!(dead_seen > 100, "only {dead_seen} dead cells");
    assert!(
        beyond_arcs > 20,
        "only {beyond_arcs} dead cells beyond arcs"
    );
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
        let fill = fill_in_with_regions(&geometry, &mut filled);
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
            let dominated = dominated_moves_with_reason(&geometry, &filled, colour, &empty, true).0;
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

#[test]
fn capture_dominated_moves_keep_the_value() {
    // A cell the mover's stone on a neighbour turns into half of a pair the mover captures
    // is dominated by that neighbour, as a cell the neighbour kills is: pruning both keeps
    // a winning move wherever there is one.
    let mut rng = SplitMix::new(23);
    let mut by_capture = 0;
    for round in 0..400 {
        let size = 4 + round % 2;
        let stones = size * size / 2 - 2 + rng.below(size);
        let Some(game) = random_position(&mut rng, size, stones) else {
            continue;
        };
        let geometry = Geometry::<1>::new(size, size);
        let mut filled = Position::<1>::of(&game);
        fill_in_with_regions(&geometry, &mut filled);
        if filled.has_won(&geometry, Stone::Black) || filled.has_won(&geometry, Stone::White) {
            continue;
        }
        let empty = filled.empty(&geometry);
        let mut memo = HashMap::new();
        for colour in [Stone::Black, Stone::White] {
            let dominated = dominated_moves_with_reason(&geometry, &filled, colour, &empty, true).0;
            by_capture += dominated
                .iter()
                .filter(|&x| {
                    !geometry.neighbours(x).intersection(&empty).iter().any(|y| {
                        let mut after = filled;
                        after.add(colour, y);
                        is_dead_in(&geometry, &after, x)
                    })
                })
                .count();
            let kept_win = empty.minus(&dominated).iter().any(|cell| {
                let mut next = filled;
                next.add(colour, cell);
                !colour_wins(&geometry, next, other(colour), &mut memo)
            });
            assert_eq!(
                colour_wins(&geometry, filled, colour, &mut memo),
                kept_win,
                "dominated moves {:?} lose the win of {colour:?} in\n{}",
                dominated.iter().collect::<Vec<_>>(),
                game.render()
            );
        }
    }
    assert!(
        by_capture > 10,
        "only {by_capture} moves dominated by capture"
    );
}

#[test]
fn captured_regions_keep_the_value_whoever_moves_and_whatever_follows() {
    // Each region a colour captures, filled with that colour, leaves the value for either
    // side to move, and so does the position after any move outside it (the capture holds
    // in every position reached).
    let mut rng = SplitMix::new(29);
    let (mut regions_seen, mut beyond_pairs) = (0, 0);
    for round in 0..160 {
        let size = 4 + round % 2;
        let stones = size * size / 2 - 2 + rng.below(size + 1);
        let Some(game) = random_position(&mut rng, size, stones) else {
            continue;
        };
        let geometry = Geometry::<1>::new(size, size);
        let position = Position::<1>::of(&game);
        let mut memo = HashMap::new();
        for colour in [Stone::Black, Stone::White] {
            let captured = captured_regions(&geometry, &position, colour);
            if captured.is_empty() {
                continue;
            }
            regions_seen += 1;
            let dead = dead_cells(&geometry, &position);
            let pairs = captured_pairs(&geometry, &position, colour);
            beyond_pairs += usize::from(!captured.is_subset(&dead.union(&pairs)));
            let mut filled = position;
            filled.fill(colour, &captured);
            let empty = position.empty(&geometry).minus(&captured);
            for mover in [Stone::Black, Stone::White] {
                assert_eq!(
                    colour_wins(&geometry, position, mover, &mut memo),
                    colour_wins(&geometry, filled, mover, &mut memo),
                    "{:?} captured by {colour:?} changes the value for {mover:?} in\n{}",
                    captured.iter().collect::<Vec<_>>(),
                    game.render()
                );
                // One more stone outside the region, of either colour.
                let Some(outside) = empty.iter().nth(rng.below(empty.len().max(1))) else {
                    continue;
                };
                for stone in [Stone::Black, Stone::White] {
                    let (mut before, mut after) = (position, filled);
                    before.add(stone, outside);
                    after.add(stone, outside);
                    assert_eq!(
                        colour_wins(&geometry, before, mover, &mut memo),
                        colour_wins(&geometry, after, mover, &mut memo),
                        "{:?} captured by {colour:?} stops being so after {stone:?} on {} in\n{}",
                        captured.iter().collect::<Vec<_>>(),
                        game.format_move(StoneMove::Place(outside as u16)),
                        game.render()
                    );
                }
            }
        }
    }
    assert!(regions_seen > 50, "only {regions_seen} captured regions");
    assert!(
        beyond_pairs > 10,
        "only {beyond_pairs} fill-ins beyond dead cells and captured pairs"
    );
}

#[test]
fn a_corner_region_behind_a_stone_is_captured_as_mohex_fills_it() {
    // 7x7 after f1 e2 e4 e6 g6: MoHex's fill-in gives Black e7, f7 and g7. Whichever of the
    // three White takes, Black has an answer inside them that leaves White's stones there
    // joining nothing new (e7 touches only what e6 joins, g7 only the right edge and g6).
    let geometry = Geometry::<1>::new(7, 7);
    let game = position(7, "f1 e2 e4 e6 g6");
    let position = Position::of(&game);
    let corner = cells(&game, "e7 f7 g7");
    let pairs = captured_pairs(&geometry, &position, Stone::Black);
    assert!(!corner.is_subset(&pairs.union(&dead_cells(&geometry, &position))));
    let regions = captured_regions(&geometry, &position, Stone::Black);
    assert!(corner.is_subset(&regions), "{regions:?}");
    let mut filled = position;
    let fill = fill_in_with_regions(&geometry, &mut filled);
    assert!(corner.is_subset(&fill.cells()), "{fill:?}");
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
        let scratch = DfpnOptions {
            incremental: false,
            ..DfpnOptions::default()
        };
        assert_eq!(
            dfpn_wins(&game, scratch),
            truth,
            "scratch\n{}",
            game.render()
        );
        solved += 1;
    }
    assert!(solved > 25);
}

#[test]
fn a_proof_holds_when_the_loser_has_every_other_empty_cell() {
    // The proof of a solved position (the empty cells its winner's win depends on, which
    // prunes the siblings of a refuted move): the loser takes every empty cell outside it
    // and the winner still wins, with the same side to move. With all the knowledge and
    // with none, each solver keeping its table from position to position.
    let mut rng = SplitMix::new(23);
    let bare = DfpnOptions {
        inferior: false,
        connections: false,
        ..DfpnOptions::with_table_mb(4)
    };
    let mut solvers: Vec<[HexSolver; 2]> = [4, 5]
        .map(|size| {
            [DfpnOptions::with_table_mb(4), bare]
                .map(|options| HexSolver::new(size, size, options).unwrap())
        })
        .into();
    let (mut checked, mut outside) = (0, 0);
    for round in 0..160 {
        let size = 4 + round % 2;
        let stones = if size == 4 {
            2 + rng.below(6)
        } else {
            10 + rng.below(5)
        };
        let Some(game) = random_position(&mut rng, size, stones) else {
            continue;
        };
        let geometry = Geometry::<1>::new(size, size);
        let mut memo = HashMap::new();
        for solver in solvers[size - 4].iter_mut() {
            let result = solver.solve(&game, &DfpnLimits::default()).unwrap();
            let wins = result.wins.expect("solved");
            let mover = game.colour_of(game.to_move());
            let loser = if wins { other(mover) } else { mover };
            let mut restricted = Position::<1>::of(&game);
            let mut proof = Set::EMPTY;
            for cell in result.proof.expect("a proof") {
                proof.insert(cell);
            }
            let rest = restricted.empty(&geometry).minus(&proof);
            outside += rest.len();
            restricted.fill(loser, &rest);
            assert_eq!(
                colour_wins(&geometry, restricted, mover, &mut memo),
                wins,
                "the proof {:?} does not hold in\n{}",
                proof.iter().collect::<Vec<_>>(),
                game.render()
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} positions");
    assert!(outside > 100, "only {outside} cells outside proofs");
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

/// Positions with known values from Benzene's regression suite
/// (`contrib/hex/NxN-first-moves.txt`, `NxN-puzzles.txt`: `moves value`, the value for the side
/// to move).
fn known_first_moves(text: &str) -> Vec<(&str, bool)> {
    text.lines()
        .map(|line| {
            let (moves, value) = line.split_once(' ').expect("moves and value");
            (moves, value == "win")
        })
        .collect()
}

/// Solves `moves` on an empty `size` board with a fresh solver within `nodes`: its value
/// (`None` unproved) and the nodes it took.
fn solve_fresh(size: usize, moves: &str, options: DfpnOptions, nodes: u64) -> (Option<bool>, u64) {
    let game = position(size, moves);
    let mut solver = HexSolver::new(size, size, options).unwrap();
    let limits = DfpnLimits {
        nodes: Some(nodes),
        ..DfpnLimits::default()
    };
    let result = solver.solve(&game, &limits).unwrap();
    (result.wins, result.nodes)
}

#[test]
fn dfpn_proves_the_known_values_of_6x6_first_moves_and_puzzles_and_of_cheap_7x7_ones() {
    // Literature values (Benzene's regression suite; Hayward et al. solved 7x7 in 2003). All
    // 36 first moves of 6x6, one table for all; of 7x7 those proved within a few thousand
    // positions (the 49, with their times, in docs/engines.md: `solve hex:7 --stdin`).
    let six = known_first_moves(include_str!("../../../../contrib/hex/6x6-first-moves.txt"));
    assert_eq!(six.len(), 36);
    let mut solver = HexSolver::new(6, 6, DfpnOptions::with_table_mb(16)).unwrap();
    for &(moves, wins) in &six {
        let result = solver
            .solve(&position(6, moves), &DfpnLimits::default())
            .unwrap();
        assert_eq!(result.wins, Some(wins), "6x6 {moves}");
    }
    // Benzene's 6x6 puzzles (its regression/dfs-puzzle.tst), set-up stones as moves.
    let puzzles = known_first_moves(include_str!("../../../../contrib/hex/6x6-puzzles.txt"));
    assert_eq!(puzzles.len(), 15);
    for &(moves, wins) in &puzzles {
        let (value, _) = solve_fresh(6, moves, DfpnOptions::with_table_mb(16), 50_000);
        assert_eq!(value, Some(wins), "6x6 puzzle {moves}");
    }
    let seven = known_first_moves(include_str!("../../../../contrib/hex/7x7-first-moves.txt"));
    assert_eq!(seven.len(), 49);
    let cheap = ["a1", "b1", "c1", "d1", "d2", "f2", "c5", "g7"];
    for &(moves, wins) in seven.iter().filter(|(m, _)| cheap.contains(m)) {
        let (value, _) = solve_fresh(7, moves, DfpnOptions::with_table_mb(16), 5_000);
        assert_eq!(value, Some(wins), "7x7 {moves}");
    }
}

#[test]
fn widening_proves_7x7_first_moves_in_fewer_positions() {
    // Searching only into the first quarter (plus one) of a node's moves in the evaluator's
    // order (Benzene's widening) proves these in about half the positions (measured:
    // 6.3k against 14.7k).
    let narrow = DfpnOptions::with_table_mb(16);
    let wide = DfpnOptions {
        widening: None,
        ..narrow
    };
    let (mut with, mut without) = (0, 0);
    for moves in ["a1", "b1", "c1", "d2"] {
        let (value, nodes) = solve_fresh(7, moves, narrow, 20_000);
        assert_eq!(value, Some(true), "{moves}");
        with += nodes;
        let (value, nodes) = solve_fresh(7, moves, wide, 20_000);
        assert_eq!(value, Some(true), "{moves}");
        without += nodes;
    }
    assert!(
        with * 3 < without * 2,
        "{with} positions with widening, {without} without"
    );
}
