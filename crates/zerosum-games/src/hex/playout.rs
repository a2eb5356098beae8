//! Fast playouts of Hex to the end of the game, of MoHex's kind: the empty cells are filled,
//! each side in turn, by the reply that saves a bridge (or an edge template) the opponent's
//! last stone intruded, else a uniformly random empty cell; the winner of the full board is
//! read once at the end (a full Hex board has exactly one winner, whatever the order of the
//! moves), with one search of the Black chains from the top edge.
//!
//! The playout runs on a framed copy of the board (the frame of [`super::evaluator`]: the top
//! and bottom rows Black, the left and right columns White, the corners walls), so that the
//! bridge test needs no bounds checks: an edge counts as a stone of its colour, which makes the
//! edge template II (a stone on the second row and the two cells between it and its edge) a
//! bridge like any other. The scratch memory is per thread and kept: nothing is allocated
//! once it has grown.

use std::cell::RefCell;

use zerosum_core::{Game, Outcome, Side};

use super::{Hex, HexMove};
use crate::connection::{owner_of, Stone, StoneMove};

/// The content of a corner of the frame: no colour's.
const WALL: u8 = 3;
/// The content of an empty cell.
const EMPTY: u8 = Stone::Empty as u8;

/// The scratch of one thread's playouts.
#[derive(Default)]
struct Scratch {
    /// The framed board.
    framed: Vec<u8>,
    /// The empty board cells (frame indices), in no order.
    empty: Vec<u16>,
    /// For each frame index, its place in [`Scratch::empty`] while it is empty.
    place: Vec<u16>,
    /// The flood of the winner's search: cells to visit, and the cells seen.
    stack: Vec<u16>,
    seen: Vec<bool>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The six neighbour offsets of a frame index on a frame of `stride` columns, in cyclic order
/// around the cell (east, north-east, north, west, south-west, south): the two cells next to
/// both a cell and its neighbour in direction `i` are its neighbours in directions `i - 1`
/// and `i + 1` (mod 6).
fn ring(stride: usize) -> [isize; 6] {
    let s = stride as isize;
    [1, 1 - s, -s, -1, s - 1, s]
}

/// Plays `game` (ongoing) out by chance to a full board: the moves to `played` (placements,
/// the first by the side to move), the outcome returned. `random(n)` draws uniformly in
/// `0..n`. See the module documentation for the policy.
pub fn play_out(
    game: &Hex,
    random: &mut dyn FnMut(usize) -> usize,
    played: &mut Vec<HexMove>,
) -> Outcome {
    SCRATCH.with(|scratch| play_out_with(&mut scratch.borrow_mut(), game, random, played))
}

fn play_out_with(
    scratch: &mut Scratch,
    game: &Hex,
    random: &mut dyn FnMut(usize) -> usize,
    played: &mut Vec<HexMove>,
) -> Outcome {
    let (width, height) = (game.width(), game.height());
    let stride = width + 2;
    let framed_of = |cell: usize| (cell / width + 1) * stride + cell % width + 1;
    let cell_of = |framed: usize| (framed / stride - 1) * width + framed % stride - 1;
    let ring = ring(stride);
    let Scratch {
        framed,
        empty,
        place,
        stack,
        seen,
    } = scratch;
    frame(game, framed);
    place.clear();
    place.resize(framed.len(), u16::MAX);
    empty.clear();
    for (cell, &stone) in game.stones().iter().enumerate() {
        if stone == Stone::Empty {
            let at = framed_of(cell);
            place[at] = empty.len() as u16;
            empty.push(at as u16);
        }
    }
    let mut colour = game.colour_of(game.to_move()) as u8;
    let mut last = match game.history().last() {
        Some(&StoneMove::Place(cell)) => Some(framed_of(cell.into())),
        _ => None,
    };
    played.clear();
    while !empty.is_empty() {
        let at = match last.and_then(|last| bridge_save(framed, &ring, last, colour, random)) {
            Some(at) => at,
            None => usize::from(empty[random(empty.len())]),
        };
        framed[at] = colour;
        let hole = usize::from(place[at]);
        let moved = *empty.last().expect("the cell played was empty");
        empty.swap_remove(hole);
        if usize::from(moved) != at {
            place[usize::from(moved)] = hole as u16;
        }
        played.push(StoneMove::Place(cell_of(at) as u16));
        last = Some(at);
        colour = Stone::Black as u8 + Stone::White as u8 - colour;
    }
    let black = if black_joins(framed, &ring, width, height, stack, seen) {
        Stone::Black
    } else {
        Stone::White
    };
    let exchanged = game.colour_of(Side::First) == Stone::White;
    Outcome::Win(owner_of(black, exchanged))
}

/// Writes the framed board of `game` to `framed`.
fn frame(game: &Hex, framed: &mut Vec<u8>) {
    let (width, height) = (game.width(), game.height());
    let stride = width + 2;
    framed.clear();
    framed.resize(stride * (height + 2), WALL);
    for column in 1..=width {
        framed[column] = Stone::Black as u8;
        framed[(height + 1) * stride + column] = Stone::Black as u8;
    }
    for (row, cells) in game.stones().chunks_exact(width).enumerate() {
        let line = &mut framed[(row + 1) * stride..][..stride];
        line[0] = Stone::White as u8;
        line[stride - 1] = Stone::White as u8;
        for (slot, &stone) in line[1..=width].iter_mut().zip(cells) {
            *slot = stone as u8;
        }
    }
}

/// The empty cell that saves a bridge of `colour` the opponent's stone on `last` (a board
/// cell) intrudes: a neighbour of `last` whose two common neighbours with it are both of
/// `colour` (stones or edges). One drawn at random if there are several; `None` if none.
fn bridge_save(
    framed: &[u8],
    ring: &[isize; 6],
    last: usize,
    colour: u8,
    random: &mut dyn FnMut(usize) -> usize,
) -> Option<usize> {
    let at = |i: usize| last.wrapping_add_signed(ring[i % 6]);
    let mut saves = [0usize; 6];
    let mut count = 0;
    for i in 0..6 {
        let save = at(i);
        if framed[save] == EMPTY && framed[at(i + 5)] == colour && framed[at(i + 1)] == colour {
            saves[count] = save;
            count += 1;
        }
    }
    match count {
        0 => None,
        1 => Some(saves[0]),
        _ => Some(saves[random(count)]),
    }
}

/// Whether the Black stones of the full framed board join its top row to its bottom row.
fn black_joins(
    framed: &[u8],
    ring: &[isize; 6],
    width: usize,
    height: usize,
    stack: &mut Vec<u16>,
    seen: &mut Vec<bool>,
) -> bool {
    let stride = width + 2;
    let black = Stone::Black as u8;
    seen.clear();
    seen.resize(framed.len(), false);
    stack.clear();
    for column in 1..=width {
        let cell = stride + column;
        if framed[cell] == black {
            seen[cell] = true;
            stack.push(cell as u16);
        }
    }
    let bottom_row = height * stride;
    while let Some(cell) = stack.pop() {
        let cell = usize::from(cell);
        if cell >= bottom_row {
            return true;
        }
        for &offset in ring {
            let next = cell.wrapping_add_signed(offset);
            // The frame's top row is Black too, but adds nothing: every cell below it is a
            // start already.
            if framed[next] == black && !seen[next] && next > stride {
                seen[next] = true;
                stack.push(next as u16);
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame index arithmetic and the ring agree with the board's own neighbours.
    #[test]
    fn the_ring_names_the_board_neighbours() {
        let game = Hex::new(4, 3, None);
        let stride = 6;
        let ring = ring(stride);
        for cell in 0..12 {
            let framed = (cell / 4 + 1) * stride + cell % 4 + 1;
            let mut from_ring: Vec<usize> = ring
                .iter()
                .map(|&o| framed.wrapping_add_signed(o))
                .filter(|&f| (1..=3).contains(&(f / stride)) && (1..=4).contains(&(f % stride)))
                .map(|f| (f / stride - 1) * 4 + f % stride - 1)
                .collect();
            let mut board: Vec<usize> = game.neighbours(cell).collect();
            from_ring.sort_unstable();
            board.sort_unstable();
            assert_eq!(from_ring, board, "cell {cell}");
        }
    }
}
