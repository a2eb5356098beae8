//! Inferior cells of Hex (Hayward's group's inferior-cell analysis, its simplest local part):
//! the empty cells that search need not try.
//!
//! An empty cell is **dead** when its colour can never change who wins: whatever stone is
//! put there joins nothing that is not joined already. Checked locally: every neighbour is a
//! stone or an edge (an edge counts as a stone of the colour that must reach it), and the
//! neighbours of each colour form one unbroken arc around the cell, so they already touch one
//! another. The six neighbours in order around the cell:
//!
//! ```text
//!        up  up-right
//!    left  (c)  right
//!   down-left  down
//! ```
//!
//! A dead cell is never the only good move: playing it is a pass, and in Hex a stone of one's
//! own never hurts, so any other empty cell is at least as good (the first player's strategy
//! stealing argument). Removing dead cells from the moves searched keeps search exact.
//! The corner cells' neighbour beyond both edges (the acute corners' outer cell) belongs to no
//! colour: a cell next to it is never called dead.
//!
//! On bit sets ([`super::cells`]), for the proof-number solver, a stronger dead-cell test and
//! three rules built on it, each keeping the value of the position:
//!
//! - **dead** ([`is_dead_in`], [`dead_cells`]): the cell is simplicial for one colour (Henderson
//!   and Hayward): in the graph of empty cells and that colour's groups (each edge a group
//!   with the stones joined to it, the opponent's stones left out), its neighbours touch one
//!   another. Then every stone of that colour next to it already belongs to one group, so
//!   a stone there joins nothing new and an opponent's stone there cuts nothing the colour
//!   needs, in every position that follows (deadness survives any later stone). A group
//!   whose only liberty is the cell leads nowhere and is left out; one with a single other
//!   liberty stands for that liberty (Benzene's refinements). The arcs of [`is_dead`] are
//!   the case without empty neighbours;
//! - **captured** pairs ([`captured_pairs`]): two adjacent empty cells, each dead once a
//!   colour has the other: that colour answers an intrusion into one on the other, so both
//!   can be filled with its stones;
//! - **fill-in** ([`fill_in`]): dead cells and captured pairs filled, again until none is
//!   left; the solver's [`fill_in_with_regions`] also fills the regions of up to four cells a
//!   colour captures ([`super::regions`]);
//! - **dominated** moves ([`dominated_moves`]): a cell that the mover's stone on a neighbour
//!   would kill is worth less than that neighbour (a vulnerable cell), and so is one that the
//!   mover's stone nearby would make half of a pair the mover captures (capture-dominated);
//!   for the solver ([`dominated_moves_with_reason`] with `regions`) also one that the
//!   mover's stone on a neighbour would make part of a region the mover captures.
//!
//! [`support`] names the empty cells these tests read, for the solver's proofs.

use super::cells::{other, CellSet, Geometry, Position};
use super::regions::{captured_region_in, captured_regions, Links};
use super::Hex;
use crate::connection::Stone;

/// Offsets `(column, row)` of the six neighbours in order around a cell (each is a
/// neighbour of the next).
const AROUND: [(isize, isize); 6] = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)];

/// What touches a cell on one side: a stone or an edge of a colour, an empty cell, or the
/// outer corner (no colour).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Colour(Stone),
    Empty,
    Corner,
}

/// What lies at `(column, row)` of a `width x height` board, which may be off the board (an
/// edge or the outer corner); `stone_at` gives the stone on a cell.
fn content(
    (width, height): (isize, isize),
    column: isize,
    row: isize,
    stone_at: &impl Fn(usize) -> Stone,
) -> Side {
    let off_columns = column < 0 || column >= width;
    let off_rows = row < 0 || row >= height;
    match (off_columns, off_rows) {
        (false, false) => match stone_at((row * width + column) as usize) {
            Stone::Empty => Side::Empty,
            stone => Side::Colour(stone),
        },
        // Left and right edges are White's, top and bottom Black's.
        (true, false) => Side::Colour(Stone::White),
        (false, true) => Side::Colour(Stone::Black),
        (true, true) => Side::Corner,
    }
}

/// Whether the cell at `(column, row)` of a `width x height` board whose stones `stone_at`
/// gives has a stone or an edge on every side, each colour in one arc (the dead-cell test of
/// the module documentation; the cell's own content is not looked at).
fn surrounded_in_arcs(
    size: (usize, usize),
    (column, row): (usize, usize),
    stone_at: impl Fn(usize) -> Stone,
) -> bool {
    let size = (size.0 as isize, size.1 as isize);
    let (column, row) = (column as isize, row as isize);
    let mut around = [Side::Empty; 6];
    for (slot, &(dc, dr)) in around.iter_mut().zip(&AROUND) {
        *slot = content(size, column + dc, row + dr, &stone_at);
        if !matches!(slot, Side::Colour(_)) {
            return false;
        }
    }
    // Each colour in one arc: the colour changes at most twice going once around.
    let changes = (0..6).filter(|&i| around[i] != around[(i + 1) % 6]).count();
    changes <= 2
}

/// Whether the empty `cell` of `game` is dead (see the module documentation). False for an
/// occupied cell.
pub fn is_dead(game: &Hex, cell: usize) -> bool {
    game.stone(cell) == Stone::Empty
        && surrounded_in_arcs(
            (game.width(), game.height()),
            game.coordinates(cell),
            |next| game.stone(next),
        )
}

/// Removes the dead cells' moves from `moves` (placements on `game`), unless that would leave
/// none.
pub fn drop_dead_cells(game: &Hex, moves: &mut Vec<super::HexMove>) {
    use crate::connection::StoneMove;
    let live = |mv: &StoneMove| match *mv {
        StoneMove::Place(cell) => !is_dead(game, cell as usize),
        StoneMove::Swap => true,
    };
    if moves.iter().any(live) {
        moves.retain(live);
    }
}

/// One colour's groups of stones on a position, its two edges as groups of their own (with
/// the stones joined to them): what the dead-cell test on sets reads.
struct Groups<const W: usize> {
    /// Per group: its liberties (the empty cells next to it, and for an edge group the
    /// empty cells along the edge) and whether it is an edge. Groups 0 and 1 are the edges.
    groups: Vec<(CellSet<W>, bool)>,
    /// Per cell: the group of the colour's stone on it.
    group_of: Vec<u16>,
    /// The cells along the colour's two edges.
    edges: [CellSet<W>; 2],
}

impl<const W: usize> Groups<W> {
    fn of(geometry: &Geometry<W>, position: &Position<W>, colour: Stone) -> Self {
        let stones = position.stones(colour);
        let empty = position.empty(geometry);
        let mut group_of = vec![u16::MAX; geometry.cells()];
        let mut groups = Vec::new();
        let mut left = stones;
        for edge in geometry.edges(colour) {
            let group = geometry.flood(edge, &stones);
            left = left.minus(&group);
            for cell in group.iter() {
                group_of[cell] = groups.len() as u16;
            }
            let liberties = geometry.around(&group).union(edge).intersection(&empty);
            groups.push((liberties, true));
        }
        while let Some(cell) = left.first() {
            let group = geometry.flood(&CellSet::single(cell), &stones);
            left = left.minus(&group);
            for cell in group.iter() {
                group_of[cell] = groups.len() as u16;
            }
            groups.push((geometry.around(&group).intersection(&empty), false));
        }
        Groups {
            groups,
            group_of,
            edges: *geometry.edges(colour),
        }
    }

    /// Whether the empty `cell` is dead for this colour's connections: its neighbours in the
    /// graph where each group (an edge with its stones included) is one vertex, the
    /// opponent's stones left out, form a clique (Henderson's simplicial cells). A group
    /// with no liberty but `cell` is left out (it leads nowhere else), a group with one
    /// other liberty stands for that liberty (Benzene's refinements). A stone of the
    /// colour there would then join only what is joined already, and one of the opponent
    /// would cut nothing the colour needs.
    fn simplicial(&self, geometry: &Geometry<W>, empty: &CellSet<W>, cell: usize) -> bool {
        let mut cells = geometry.neighbours(cell).intersection(empty);
        let mut node: Option<usize> = None;
        let mut touching = [u16::MAX; 8];
        let mut count = 0;
        for (index, edge) in self.edges.iter().enumerate() {
            if edge.contains(cell) {
                touching[count] = index as u16;
                count += 1;
            }
        }
        for next in geometry.neighbours(cell).iter() {
            let group = self.group_of[next];
            if group != u16::MAX && !touching[..count].contains(&group) {
                touching[count] = group;
                count += 1;
            }
        }
        for &group in &touching[..count] {
            let (liberties, edge) = self.groups[usize::from(group)];
            let mut others = liberties;
            others.remove(cell);
            if !edge && others.is_empty() {
                continue;
            }
            if !edge && others.len() == 1 {
                cells = cells.union(&others);
                continue;
            }
            if node.is_some() {
                return false;
            }
            node = Some(usize::from(group));
        }
        if let Some(group) = node {
            if !cells.is_subset(&self.groups[group].0) {
                return false;
            }
        }
        cells.iter().all(|a| {
            let mut rest = cells;
            rest.remove(a);
            rest.is_subset(geometry.neighbours(a))
        })
    }
}

/// Whether the empty `cell` is dead in `position`: simplicial for one colour or the other
/// (see the module documentation). More than [`is_dead`] finds.
pub fn is_dead_in<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    cell: usize,
) -> bool {
    let empty = position.empty(geometry);
    empty.contains(cell)
        && [Stone::Black, Stone::White]
            .into_iter()
            .any(|colour| Groups::of(geometry, position, colour).simplicial(geometry, &empty, cell))
}

/// The dead empty cells of `position`.
pub fn dead_cells<const W: usize>(geometry: &Geometry<W>, position: &Position<W>) -> CellSet<W> {
    let empty = position.empty(geometry);
    let views = [Stone::Black, Stone::White].map(|colour| Groups::of(geometry, position, colour));
    let mut dead = CellSet::EMPTY;
    for cell in empty.iter() {
        if views
            .iter()
            .any(|view| view.simplicial(geometry, &empty, cell))
        {
            dead.insert(cell);
        }
    }
    dead
}

/// The empty cells the inferences about `cells` read: the cells, their neighbours and the
/// liberties of the groups (not the edges') next to either. A win that holds with these
/// cells empty holds whatever the rest of the board holds: a proof includes them.
pub fn support<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    cells: &CellSet<W>,
) -> CellSet<W> {
    let empty = position.empty(geometry);
    let near = cells.union(&geometry.around(cells));
    let mut support = near;
    for colour in [Stone::Black, Stone::White] {
        let stones = position.stones(colour);
        let [first, second] = geometry.edges(colour);
        let edges = geometry
            .flood(first, &stones)
            .union(&geometry.flood(second, &stones));
        let mut left = near.intersection(&stones).minus(&edges);
        while let Some(cell) = left.first() {
            let group = geometry.flood(&CellSet::single(cell), &stones);
            left = left.minus(&group);
            support = support.union(&geometry.around(&group));
        }
    }
    support.intersection(&empty)
}

/// Whether `cell`'s empty neighbours but `except` could be the neighbours of a simplicial
/// cell: at most two, next to each other (three cells around one never all touch).
fn few_free<const W: usize>(
    geometry: &Geometry<W>,
    empty: &CellSet<W>,
    cell: usize,
    except: usize,
) -> bool {
    let mut free = geometry.neighbours(cell).intersection(empty);
    free.remove(except);
    match free.len() {
        0 | 1 => true,
        2 => {
            let first = free.first().expect("two cells");
            free.remove(first);
            free.is_subset(geometry.neighbours(first))
        }
        _ => false,
    }
}

/// Whether `victim` is dead once `colour` has a stone on `played`.
fn dies_after<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
    played: usize,
    victim: usize,
) -> bool {
    let mut after = *position;
    after.add(colour, played);
    is_dead_in(geometry, &after, victim)
}

/// Disjoint pairs of adjacent empty cells `colour` captures: each becomes dead once `colour`
/// has a stone on the other, so whichever of the two the opponent takes, `colour` answers on
/// the other and the opponent's stone is dead. Filling such a pair with `colour` keeps the
/// value of the position for either side to move (a second-player strategy that leaves the
/// region `colour`'s or dead: Henderson and Hayward's captured cells).
pub fn captured_pairs<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
) -> CellSet<W> {
    let empty = position.empty(geometry);
    let mut captured = CellSet::EMPTY;
    for a in empty.iter() {
        for b in geometry.neighbours(a).intersection(&empty).iter() {
            if b < a || captured.contains(a) || captured.contains(b) {
                continue;
            }
            if few_free(geometry, &empty, a, b)
                && few_free(geometry, &empty, b, a)
                && dies_after(geometry, position, colour, b, a)
                && dies_after(geometry, position, colour, a, b)
            {
                captured.insert(a);
                captured.insert(b);
            }
        }
    }
    captured
}

/// The fill-in of a position: cells whose stones can be put on the board without changing
/// its value for either side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FillIn<const W: usize> {
    /// Dead cells (filled with Black: their colour does not matter).
    pub dead: CellSet<W>,
    /// Cells captured by Black, then by White.
    pub captured: [CellSet<W>; 2],
    /// The empty cells left that the fill-in read ([`support`]): with them empty and the
    /// stones as they are, the same fill-in holds whatever the other cells hold.
    pub support: CellSet<W>,
}

impl<const W: usize> FillIn<W> {
    /// Every cell filled.
    pub fn cells(&self) -> CellSet<W> {
        self.dead.union(&self.captured[0]).union(&self.captured[1])
    }
}

/// Fills `position` with its dead cells and captured pairs, again until none is left, and
/// says which cells it filled. The filled position has the value of the original for either
/// side to move, and so has each position after a move on a cell left empty.
pub fn fill_in<const W: usize>(geometry: &Geometry<W>, position: &mut Position<W>) -> FillIn<W> {
    fill_in_with(geometry, position, false)
}

/// [`fill_in`] and the regions of up to [`super::regions::MAX_REGION`] cells a colour
/// captures ([`captured_regions`], tried when dead cells and pairs find nothing), again until
/// none is left: the solver's fill-in. The same contract as [`fill_in`]; it fills more, at a
/// higher cost.
pub fn fill_in_with_regions<const W: usize>(
    geometry: &Geometry<W>,
    position: &mut Position<W>,
) -> FillIn<W> {
    fill_in_with(geometry, position, true)
}

/// The fill-in, with captured regions when `regions`.
fn fill_in_with<const W: usize>(
    geometry: &Geometry<W>,
    position: &mut Position<W>,
    regions: bool,
) -> FillIn<W> {
    let mut filled = FillIn::default();
    loop {
        let dead = dead_cells(geometry, position);
        if !dead.is_empty() {
            filled.support = filled.support.union(&support(geometry, position, &dead));
            position.fill(Stone::Black, &dead);
            filled.dead = filled.dead.union(&dead);
            continue;
        }
        if fill_captured(geometry, position, &mut filled, captured_pairs) {
            continue;
        }
        if !(regions && fill_captured(geometry, position, &mut filled, captured_regions)) {
            filled.support = filled.support.minus(&filled.cells());
            return filled;
        }
    }
}

/// Fills, for Black then White, the cells `captured_by` finds that colour captures, adding
/// them and what they read to `filled`; whether any cell was filled.
fn fill_captured<const W: usize>(
    geometry: &Geometry<W>,
    position: &mut Position<W>,
    filled: &mut FillIn<W>,
    captured_by: fn(&Geometry<W>, &Position<W>, Stone) -> CellSet<W>,
) -> bool {
    let mut changed = false;
    for (slot, colour) in [Stone::Black, Stone::White].into_iter().enumerate() {
        let captured = captured_by(geometry, position, colour);
        if !captured.is_empty() {
            filled.support = filled
                .support
                .union(&support(geometry, position, &captured));
            position.fill(colour, &captured);
            filled.captured[slot] = filled.captured[slot].union(&captured);
            changed = true;
        }
    }
    changed
}

/// The moves among `candidates` that `colour` (to move) need not try, each dominated by a
/// move it keeps or by a losing move outside `candidates` (see
/// [`dominated_moves_with_reason`]).
pub fn dominated_moves<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
    candidates: &CellSet<W>,
) -> CellSet<W> {
    dominated_moves_with_reason(geometry, position, colour, candidates, false).0
}

/// The moves among `candidates` that `colour` (to move) need not try, each dominated by a
/// move it keeps or by a losing move outside `candidates`, and the cells whose neighbourhoods
/// the tests read (the dominated cells, their dominators and capture partners: give them to
/// [`support`]).
///
/// An empty cell `x` is dominated by a neighbour `y` when `colour`'s stone on `y` makes `x`
/// dead (`x` is vulnerable to `y`), or by a neighbour or a neighbour's neighbour `y` when
/// that stone makes `x` and an empty neighbour `z` a pair `colour` captures, or by a
/// neighbour `y` when that stone makes `x` part of a region `colour` captures
/// ([`super::regions::captured_region_of`]; `x` is capture-dominated). A stone on `y` is then worth as much
/// as one on `y` and `x` (and the rest of the pair or region), at least as good as one on
/// `x` alone: a stone of one's own
/// never hurts. `y` outside the candidates loses when the candidates are the mustplay, so
/// `x` loses too. Dominance cycles keep one move of each cycle: a cell is dropped only while
/// its dominator is still kept or out of the candidates.
pub fn dominated_moves_with_reason<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
    candidates: &CellSet<W>,
    regions: bool,
) -> (CellSet<W>, CellSet<W>) {
    let empty = position.empty(geometry);
    let mut dropped = CellSet::EMPTY;
    let mut read = CellSet::EMPTY;
    // The opponent's view of `position` for the region tests (built when first needed), and
    // of the position after a dominator.
    let mut theirs_view: Option<Links<W>> = None;
    let mut view_after = Links::default();
    for x in candidates.iter() {
        let free = geometry.neighbours(x).intersection(&empty);
        if free.len() > 4 {
            continue;
        }
        // The dominators tried: the neighbours first, then the cells next to a neighbour
        // (a stone there can only make a capture partner of that neighbour).
        let mut further = geometry.around(&free).intersection(&empty).minus(&free);
        further.remove(x);
        for y in free.iter().chain(further.iter()) {
            if dropped.contains(y) {
                continue;
            }
            let mut after = *position;
            after.add(colour, y);
            let partner = if free.contains(y)
                && free.len() <= 3
                && few_free(geometry, &empty, x, y)
                && is_dead_in(geometry, &after, x)
            {
                Some(None)
            } else {
                let left = after.empty(geometry);
                let mut others = free;
                others.remove(y);
                others
                    .iter()
                    .find(|&z| {
                        few_free(geometry, &left, x, z)
                            && few_free(geometry, &left, z, x)
                            && dies_after(geometry, &after, colour, z, x)
                            && dies_after(geometry, &after, colour, x, z)
                    })
                    .map(|z| Some(CellSet::single(z)))
                    .or_else(|| {
                        (regions && free.contains(y))
                            .then(|| {
                                theirs_view
                                    .get_or_insert_with(|| {
                                        Links::of(geometry, position, other(colour))
                                    })
                                    .after_other_stone(y, &mut view_after);
                                captured_region_in(geometry, &view_after, &left, x)
                            })
                            .flatten()
                            .map(Some)
                    })
            };
            if let Some(partner) = partner {
                dropped.insert(x);
                read.insert(x);
                read.insert(y);
                if let Some(region) = partner {
                    read = read.union(&region);
                }
                break;
            }
        }
    }
    (dropped, read)
}
