//! The Unstable evaluator for the generic search: [`UnstableEvaluator`].

use zerosum_core::{Evaluator, Game, Side};

use super::cells::{CellSet, Grid, MAX_WORDS};
use super::{Cell, Unstable};
use crate::{EvaluatedGame, GameSpec};

/// The weights of the evaluation terms, in evaluation units (see [`UnstableEvaluator`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnstableWeights {
    /// Per atom.
    pub atom: i32,
    /// Per cell owned.
    pub cell: i32,
    /// A quiet corner cell (critical mass 2).
    pub corner: i32,
    /// A quiet edge cell (critical mass 3).
    pub edge: i32,
    /// A brink cell out of reach of enemy brink cells.
    pub brink: i32,
    /// Per pair of brink cells of one side side by side (counted from both cells).
    pub chain: i32,
    /// A brink cell of the side to move next to an enemy brink cell: it fires first.
    pub fire_first: i32,
    /// A brink cell of the opponent next to a brink cell of the side to move.
    pub vulnerable: i32,
    /// Per atom of a cell (not on the brink) next to an enemy brink cell.
    pub exposed: i32,
    /// Per enemy atom taken by the best explosion of the side to move.
    pub capture: i32,
    /// Per atom of the side to move taken by the best explosion of the opponent.
    pub threat: i32,
    /// Bonus of the side to move.
    pub tempo: i32,
    /// Value of a position where the side to move wipes the opponent out at once; 0 to count
    /// the capture like any other.
    pub decided: i32,
}

impl Default for UnstableWeights {
    /// The weights of [`UnstableEvaluator::new`].
    fn default() -> Self {
        UnstableWeights {
            atom: 4,
            cell: 6,
            corner: 6,
            edge: 3,
            brink: 4,
            chain: 2,
            fire_first: 8,
            vulnerable: 8,
            exposed: 3,
            capture: 6,
            threat: 3,
            tempo: 2,
            decided: 10_000,
        }
    }
}

impl UnstableWeights {
    /// Atoms and cells only: the baseline the full evaluation is measured against.
    pub fn material_only() -> Self {
        UnstableWeights {
            atom: 4,
            cell: 6,
            corner: 0,
            edge: 0,
            brink: 0,
            chain: 0,
            fire_first: 0,
            vulnerable: 0,
            exposed: 0,
            capture: 0,
            threat: 0,
            tempo: 0,
            decided: 0,
        }
    }
}

/// Move hint of a move that explodes a cell into enemy cells, before any other, plus a bonus
/// per enemy atom next to it.
const HINT_EXPLODE: i32 = 1 << 12;

/// The best explosion a side can set off: enemy atoms it takes, and whether it takes every
/// enemy cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Capture {
    atoms: i32,
    wipes_out: bool,
}

/// The Unstable evaluator for one board size, built once per game (cheap to clone).
///
/// A cell is *on the brink* when one more atom makes it explode (`|count| = critical - 1`).
/// Two enemy brink cells side by side are a duel: whoever adds an atom first explodes into the
/// other, which then belongs to it and explodes in turn. So the evaluation, from the side to
/// move, sums per side (the mover's terms minus the opponent's):
///
/// 1. **material**: atoms and cells;
/// 2. **per cell**: a brink cell next to an enemy brink cell fires first if it belongs to the
///    side to move (a bonus) and is lost otherwise (a penalty); a brink cell out of reach of
///    enemy brink cells is a loaded gun (a bonus); every brink cell gains a bonus per brink
///    neighbour of its side (chains); a quieter cell next to an enemy brink cell will be
///    captured (a penalty per atom, doubled for the opponent, whose enemy moves first); a quiet
///    corner or edge cell (critical mass 2 or 3) is worth a bonus;
/// 3. **captures**: adding an atom to a brink cell explodes every brink cell connected to it
///    (whatever their colour: each one is captured, then receives an atom) and captures every
///    neighbour of those. The best such capture of the side to move is a bonus per enemy atom,
///    and a win if it takes every enemy cell; the opponent's best one is a smaller penalty, as
///    the side to move may still answer it.
///
/// Cells are handled in bit sets of the board's size (one word up to 8x8) with the neighbour
/// step done by shifts; explosions are followed depth first.
///
/// Candidate moves are all legal moves; the move hint puts explosions into enemy cells first,
/// then safe reinforcements and corners, and cells an enemy brink cell can capture last.
#[derive(Clone, Debug)]
pub struct UnstableEvaluator {
    weights: UnstableWeights,
    grid: Grid,
}

impl UnstableEvaluator {
    /// The evaluator for a `rows` x `cols` board, with the default weights.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::with_weights(rows, cols, UnstableWeights::default())
    }

    /// The evaluator with chosen weights.
    pub fn with_weights(rows: usize, cols: usize, weights: UnstableWeights) -> Self {
        UnstableEvaluator {
            weights,
            grid: Grid::new(rows, cols),
        }
    }

    pub fn weights(&self) -> &UnstableWeights {
        &self.weights
    }

    /// The evaluation of `game`'s board with `mover` to play, from `mover`'s side, using
    /// cell sets of `W` words (at least as many as the board needs).
    fn value<const W: usize>(&self, game: &Unstable, mover: Side) -> i32 {
        let w = &self.weights;
        let grid = &self.grid;
        let opponent = mover.opponent();
        let counts = game.counts();
        let mover_sign: i16 = if mover == Side::First { 1 } else { -1 };
        // Index 0: the side to move, 1: the opponent.
        let mut owned = [CellSet::<W>::EMPTY; 2];
        let mut brink = [CellSet::<W>::EMPTY; 2];
        for (cell, &count) in counts.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let side = usize::from((count > 0) != (mover_sign > 0));
            owned[side].insert(cell);
            if count.abs() == game.critical_mass(cell as Cell) - 1 {
                brink[side].insert(cell);
            }
        }
        let corners = CellSet::<W>::from_words(&grid.corners);
        let edges = CellSet::<W>::from_words(&grid.edges);
        let mut value = w.atom * (game.atoms(mover) as i32 - game.atoms(opponent) as i32)
            + w.cell * (game.cells(mover) as i32 - game.cells(opponent) as i32)
            + w.tempo;
        for side in 0..2 {
            let enemy_reach = grid.neighbours(&brink[1 - side]);
            let duelling = brink[side].intersection(&enemy_reach);
            let safe_brink = brink[side].len() - duelling.len();
            let duel_value = if side == 0 {
                w.fire_first
            } else {
                -w.vulnerable
            };
            let quiet = owned[side].difference(&brink[side]);
            let exposed = quiet.intersection(&enemy_reach);
            let exposed_atoms: i32 = exposed.cells().map(|cell| counts[cell].abs() as i32).sum();
            let calm = quiet.difference(&exposed);
            let side_value = duel_value * duelling.len()
                + w.brink * safe_brink
                + w.chain * grid.links(&brink[side])
                - w.exposed * exposed_atoms * (1 + side as i32)
                + w.corner * calm.intersection(&corners).len()
                + w.edge * calm.intersection(&edges).len();
            value += if side == 0 { side_value } else { -side_value };
        }
        let all_brink = brink[0].union(&brink[1]);
        let attack = best_capture(game, &brink[0], &all_brink, &owned[1]);
        if attack.wipes_out && w.decided != 0 {
            return w.decided;
        }
        let defence = best_capture(game, &brink[1], &all_brink, &owned[0]);
        value + w.capture * attack.atoms - w.threat * defence.atoms
    }

    /// The ordering hint of a move (see [`UnstableEvaluator`]).
    fn hint(&self, game: &Unstable, mv: Cell) -> i32 {
        let w = &self.weights;
        let counts = game.counts();
        let mover_sign: i16 = if game.to_move() == Side::First { 1 } else { -1 };
        let atoms = counts[mv as usize].abs();
        let critical = game.critical_mass(mv);
        let neighbours = game.neighbours(mv);
        let enemy_atoms: i32 = neighbours
            .iter()
            .map(|&next| counts[next as usize])
            .filter(|&count| count * mover_sign < 0)
            .map(|count| count.abs() as i32)
            .sum();
        if atoms + 1 >= critical && enemy_atoms > 0 {
            return HINT_EXPLODE + 16 * enemy_atoms;
        }
        let enemy_brink_next = neighbours.iter().any(|&next| {
            let count = counts[next as usize];
            count * mover_sign < 0 && count.abs() == game.critical_mass(next) - 1
        });
        if enemy_brink_next {
            return -8 * (atoms as i32 + 1);
        }
        let loads = i32::from(atoms + 2 == critical) * w.brink;
        let place = match critical {
            2 => w.corner,
            3 => w.edge,
            _ => 0,
        };
        8 + loads + place
    }
}

/// A stack of cells in a fixed array of `W` rows of 64 (a cell set's capacity).
struct CellStack<const W: usize> {
    cells: [[Cell; 64]; W],
    len: usize,
}

impl<const W: usize> CellStack<W> {
    #[inline]
    fn new() -> Self {
        CellStack {
            cells: [[0; 64]; W],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, cell: usize) {
        self.cells[self.len / 64][self.len % 64] = cell as Cell;
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<usize> {
        self.len = self.len.checked_sub(1)?;
        Some(self.cells[self.len / 64][self.len % 64] as usize)
    }
}

/// The best explosion the owner of `seeds` (its brink cells) can set off against `victims`
/// (the other side's cells), given every brink cell of both sides.
fn best_capture<const W: usize>(
    game: &Unstable,
    seeds: &CellSet<W>,
    all_brink: &CellSet<W>,
    victims: &CellSet<W>,
) -> Capture {
    let counts = game.counts();
    let victim_count = victims.len();
    let mut best = Capture::default();
    // The exploding cells of every seed so far.
    let mut covered = CellSet::<W>::EMPTY;
    // Exploding cells whose neighbours are still to visit (each brink cell enters once).
    let mut pending = CellStack::<W>::new();
    // The victims taken by the current explosion, marked in `taken` and cleared afterwards.
    let mut taken = CellSet::<W>::EMPTY;
    let mut taken_list = CellStack::<W>::new();
    for seed in seeds.cells() {
        if covered.contains(seed) {
            continue;
        }
        covered.insert(seed);
        pending.push(seed);
        let mut atoms = 0;
        while let Some(cell) = pending.pop() {
            for &next in game.neighbours(cell as Cell) {
                let next = next as usize;
                if victims.contains(next) && !taken.contains(next) {
                    taken.insert(next);
                    taken_list.push(next);
                    atoms += counts[next].abs() as i32;
                }
                if all_brink.contains(next) && !covered.contains(next) {
                    covered.insert(next);
                    pending.push(next);
                }
            }
        }
        let wipes_out = victim_count > 0 && taken_list.len as i32 == victim_count;
        while let Some(cell) = taken_list.pop() {
            taken.words[cell / 64] &= !(1 << (cell % 64));
        }
        best = Capture {
            atoms: atoms.max(best.atoms),
            wipes_out: wipes_out || best.wipes_out,
        };
    }
    best
}

impl Evaluator<Unstable> for UnstableEvaluator {
    fn evaluate(&self, game: &Unstable) -> i32 {
        debug_assert_eq!(
            (game.rows(), game.cols()),
            (self.grid.rows, self.grid.cols),
            "an evaluator built for another board"
        );
        let mover = game.to_move();
        match self.grid.words {
            1 => self.value::<1>(game, mover),
            2 => self.value::<2>(game, mover),
            3..=4 => self.value::<4>(game, mover),
            5..=8 => self.value::<8>(game, mover),
            9..=16 => self.value::<16>(game, mover),
            17..=40 => self.value::<40>(game, mover),
            _ => self.value::<MAX_WORDS>(game, mover),
        }
    }

    fn move_hint(&self, game: &Unstable, mv: Cell) -> i32 {
        self.hint(game, mv)
    }
}

impl EvaluatedGame for Unstable {
    type Evaluator = UnstableEvaluator;

    fn spec(&self) -> GameSpec {
        super::spec(self.rows(), self.cols()).expect("Unstable::new checked the sizes")
    }

    fn evaluator(&self) -> UnstableEvaluator {
        UnstableEvaluator::new(self.rows(), self.cols())
    }

    fn observation_grid(&self) -> (usize, usize) {
        (self.rows(), self.cols())
    }

    fn max_plies(&self) -> Option<usize> {
        Some(Unstable::max_plies(self))
    }

    /// The stone planes hold each side's atom counts.
    fn write_observation(&self, out: &mut [f32]) {
        let area = self.num_cells();
        out[..2 * area].fill(0.0);
        for (at, &count) in self.counts().iter().enumerate() {
            match count {
                c if c > 0 => out[at] = f32::from(c),
                c if c < 0 => out[area + at] = f32::from(-c),
                _ => {}
            }
        }
        crate::observation::fill_to_move(self.to_move(), area, &mut out[2 * area..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerosum_core::conformance::SplitMix;

    /// Random ongoing positions on a board.
    fn positions(rows: usize, cols: usize, count: usize, seed: u64) -> Vec<Unstable> {
        let mut rng = SplitMix::new(seed);
        let mut moves = Vec::new();
        let mut found = Vec::new();
        while found.len() < count {
            let mut game = Unstable::new(rows, cols);
            for _ in 0..rng.below(3 * rows * cols) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]);
            }
            if !game.status().is_over() {
                found.push(game);
            }
        }
        found
    }

    #[test]
    fn exchanging_colours_and_the_side_to_move_keeps_the_value() {
        let eval = UnstableEvaluator::new(10, 6);
        for game in positions(10, 6, 300, 1) {
            let swapped = game.colours_swapped();
            let mover = game.to_move();
            assert_eq!(
                eval.value::<1>(&game, mover),
                eval.value::<1>(&swapped, mover.opponent()),
                "{}",
                game.render()
            );
        }
    }

    #[test]
    fn every_cell_set_size_gives_the_same_value() {
        let eval = UnstableEvaluator::new(5, 5);
        for game in positions(5, 5, 100, 2) {
            let mover = game.to_move();
            let one = eval.value::<1>(&game, mover);
            assert_eq!(one, eval.value::<4>(&game, mover));
            assert_eq!(one, eval.value::<16>(&game, mover));
        }
    }

    #[test]
    fn a_chain_into_every_enemy_cell_is_a_win() {
        // Black A1 (1 atom, corner: on the brink) next to White A2 (2 atoms, edge of a 3x3
        // board: on the brink); Black to move explodes A1, which takes A2, which explodes.
        let mut game = Unstable::new(3, 3);
        game.play_list("A1,A2,C3,A2").unwrap();
        assert_eq!(game.count(game.cell(0, 1)), -2);
        assert_eq!(game.to_move(), Side::First);
        assert_eq!(game.evaluator().evaluate(&game), 10_000);
        let capture = best_capture::<1>(
            &game,
            &CellSet {
                words: [1 << game.cell(0, 0)],
            },
            &CellSet {
                words: [1 << game.cell(0, 0) | 1 << game.cell(0, 1)],
            },
            &CellSet {
                words: [1 << game.cell(0, 1)],
            },
        );
        assert_eq!(
            capture,
            Capture {
                atoms: 2,
                wipes_out: true
            }
        );
    }

    #[test]
    fn explosions_into_enemy_cells_are_hinted_first() {
        let mut game = Unstable::new(3, 3);
        game.play_list("A1,A2,C3").unwrap();
        // White to move: A2 (one atom, edge) is not on the brink; Black's A1 is.
        let eval = game.evaluator();
        game.play_list("B2").unwrap();
        // Black to move: A1 explodes into White's A2.
        let a1 = game.cell(0, 0);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let best = moves.iter().max_by_key(|&&mv| eval.move_hint(&game, mv));
        assert_eq!(best, Some(&a1));
    }
}
