//! Captured regions of Hex found by local exhaustive play: small sets of empty cells that
//! one colour can fill without changing the value of the position, each proved on the spot by
//! playing out every intrusion into the region and every answer inside it.
//!
//! # The claim and its proof
//!
//! A region `R` of empty cells is **captured** by a colour `C` when `C`, answering every
//! stone the opponent `O` puts into `R` with a stone of its own inside `R`, ends with `R`
//! full and `O`'s stones there joining nothing outside `R` that is not joined already.
//! Filling `R` with `C` then keeps the value of the position, whoever moves, in every
//! position reached (Henderson and Hayward's captured sets): `C` plays its strategy for the
//! filled position and answers each intrusion inside `R`; once the board is full, `O`'s
//! connections are those of the filled position, and on a full board exactly one colour
//! joins its edges.
//!
//! "Joins nothing new" is read locally. The **contacts** of a group `K` of `O`'s stones in
//! `R` are what touches it outside `R`: empty cells, `O`'s groups (each edge with the stones
//! joined to it is one group) and `O`'s edges. Two contacts are **linked** when `O` holding
//! both makes them one group whatever else happens: two cells next to each other, a cell
//! next to a group, two cells next to one group, or the same group. When every two contacts
//! of every such `K` are linked, a chain of `O`'s through `K` has a way round it (Benzene's
//! "clique through groups"). Links only grow as stones are added outside `R` (a stone of
//! `O`'s merges groups, one of `C`'s removes a contact), so the capture holds in every
//! position that keeps `R` empty and adds stones elsewhere: the region and the cells next
//! to it are all the proof of the claim reads.
//!
//! A region of one cell is a **dead** cell (its claim holds for either colour): this test
//! finds more of them than [`super::inferior::dead_cells`] (links through groups), and the
//! regions of two to four cells hold captured pairs, triples and quadruples near edges and
//! stones. Four cells rather than three: 6% fewer positions on the 44 puzzles of 7x7, the same
//! processor time.
//!
//! # Where the regions come from
//!
//! Trying every small region would cost too much at every node of a search. A region is
//! grown from a cell by what its test needs: an `O` stone alone on a cell `c` of `R` (the
//! others `C`'s) must already join nothing new, so for each two unlinked contacts of `c` one
//! of the two (an empty cell) must belong to `R`. The regions tried are the ones these
//! choices build, up to [`MAX_REGION`] cells.

use super::cells::{other, CellSet, Geometry, PointSet, Position};
use crate::connection::Stone;

/// The most cells a region tried holds.
pub const MAX_REGION: usize = 4;

/// One colour's view of a position for the region tests: what a stone of the colour on each
/// empty cell touches, and which of those things are linked.
///
/// Points are cells (empty cells stand for themselves, a stone for its group, numbered by
/// its lowest cell) and the colour's two edges (points `cells` and `cells + 1`, each with the
/// stones joined to it).
#[derive(Default)]
pub struct Links<const W: usize> {
    /// Per empty cell: its empty neighbours, the points of the colour's groups next to it and
    /// the edges it lies on.
    contacts: Vec<PointSet<W>>,
    /// Per point: the points linked to it (itself included).
    linked: Vec<PointSet<W>>,
    /// The board's cells.
    cells: usize,
}

impl<const W: usize> Links<W> {
    /// The view of `colour` on `position`.
    pub fn of(geometry: &Geometry<W>, position: &Position<W>, colour: Stone) -> Self {
        let cells = geometry.cells();
        let stones = position.stones(colour);
        let empty = position.empty(geometry);
        let mut point_of = vec![usize::MAX; cells];
        let mut linked = vec![PointSet::EMPTY; cells + 2];
        let mut left = stones;
        for (index, edge) in geometry.edges(colour).iter().enumerate() {
            let group = geometry.flood(edge, &stones);
            left = left.minus(&group);
            let point = cells + index;
            for cell in group.iter() {
                point_of[cell] = point;
            }
            let liberties = geometry.around(&group).union(edge).intersection(&empty);
            let mut liberties = PointSet::of_cells(liberties);
            liberties.insert(point, cells);
            linked[point] = liberties;
        }
        while let Some(first) = left.first() {
            let group = geometry.flood(&CellSet::single(first), &stones);
            left = left.minus(&group);
            for cell in group.iter() {
                point_of[cell] = first;
            }
            let mut liberties = PointSet::of_cells(geometry.around(&group).intersection(&empty));
            liberties.insert(first, cells);
            linked[first] = liberties;
        }
        let mut contacts = vec![PointSet::EMPTY; cells];
        for cell in empty.iter() {
            let mut touching = PointSet::of_cells(geometry.neighbours(cell).intersection(&empty));
            for (index, edge) in geometry.edges(colour).iter().enumerate() {
                if edge.contains(cell) {
                    touching.insert(cells + index, cells);
                }
            }
            for next in geometry.neighbours(cell).intersection(&stones).iter() {
                touching.insert(point_of[next], cells);
            }
            let mut near = touching;
            near.insert(cell, cells);
            for point in touching
                .iter(cells)
                .filter(|&point| point >= cells || !empty.contains(point))
            {
                near = near.union(&linked[point]);
            }
            contacts[cell] = touching;
            linked[cell] = near;
        }
        Links {
            contacts,
            linked,
            cells,
        }
    }

    /// Makes `into` this view after a stone of the other colour on the empty `cell`: the
    /// view [`Links::of`] gives on that position (the cell leaves every set; its own sets
    /// empty), without its floods.
    pub fn after_other_stone(&self, cell: usize, into: &mut Links<W>) {
        let gone = CellSet::single(cell);
        into.contacts.clear();
        into.contacts
            .extend(self.contacts.iter().map(|set| set.minus_cells(&gone)));
        into.linked.clear();
        into.linked
            .extend(self.linked.iter().map(|set| set.minus_cells(&gone)));
        into.contacts[cell] = PointSet::EMPTY;
        into.linked[cell] = PointSet::EMPTY;
        into.cells = self.cells;
    }

    /// The contacts of the colour's stones on `stones` (cells of `region`) outside `region`.
    fn contacts_of(&self, stones: &CellSet<W>, region: &CellSet<W>) -> PointSet<W> {
        let mut out = PointSet::EMPTY;
        for cell in stones.iter() {
            out = out.union(&self.contacts[cell]);
        }
        out.minus_cells(region)
    }

    /// Whether every two points of `points` are linked.
    fn all_linked(&self, points: &PointSet<W>) -> bool {
        points
            .iter(self.cells)
            .all(|a| points.is_subset(&self.linked[a]))
    }

    /// Two points of `points` not linked, if any.
    fn unlinked_pair(&self, points: &PointSet<W>) -> Option<(usize, usize)> {
        points.iter(self.cells).find_map(|a| {
            points
                .minus(&self.linked[a])
                .first(self.cells)
                .map(|b| (a.min(b), a.max(b)))
        })
    }
}

/// Whether the opponent's stones on `theirs` (the cells of `region` that `colour` does not
/// hold, with `region` full) join nothing new: every group of them has its contacts linked.
fn harmless<const W: usize>(
    geometry: &Geometry<W>,
    theirs_view: &Links<W>,
    region: &CellSet<W>,
    theirs: &CellSet<W>,
) -> bool {
    let mut left = *theirs;
    while let Some(first) = left.first() {
        let group = geometry.flood(&CellSet::single(first), theirs);
        left = left.minus(&group);
        if !theirs_view.all_linked(&theirs_view.contacts_of(&group, region)) {
            return false;
        }
    }
    true
}

/// Whether `colour`, answering each of the opponent's stones in `region` inside it, keeps
/// the opponent's stones there harmless once `region` is full. `empty`: the cells of `region`
/// still empty; `theirs`: the opponent's stones there; the opponent is to play.
fn answers<const W: usize>(
    geometry: &Geometry<W>,
    theirs_view: &Links<W>,
    region: &CellSet<W>,
    empty: CellSet<W>,
    theirs: CellSet<W>,
) -> bool {
    if empty.is_empty() {
        return harmless(geometry, theirs_view, region, &theirs);
    }
    empty.iter().all(|intrusion| {
        let mut left = empty;
        left.remove(intrusion);
        let mut taken = theirs;
        taken.insert(intrusion);
        if left.is_empty() {
            return harmless(geometry, theirs_view, region, &taken);
        }
        left.iter().any(|answer| {
            let mut rest = left;
            rest.remove(answer);
            answers(geometry, theirs_view, region, rest, taken)
        })
    })
}

/// Whether `colour` captures `region` (empty cells of the position `theirs_view` is the
/// opponent's view of): see the module documentation.
pub fn captures<const W: usize>(
    geometry: &Geometry<W>,
    theirs_view: &Links<W>,
    region: &CellSet<W>,
) -> bool {
    answers(geometry, theirs_view, region, *region, CellSet::EMPTY)
}

/// The regions grown from `region` (which holds `cell`s already checked) that pass the
/// necessary test of the module documentation, tried in turn with [`captures`]; the first
/// captured one, if any.
fn grow<const W: usize>(
    geometry: &Geometry<W>,
    theirs_view: &Links<W>,
    empty: &CellSet<W>,
    region: CellSet<W>,
) -> Option<CellSet<W>> {
    let conflict = region.iter().find_map(|cell| {
        theirs_view.unlinked_pair(&theirs_view.contacts[cell].minus_cells(&region))
    });
    match conflict {
        None => captures(geometry, theirs_view, &region).then_some(region),
        Some(_) if region.len() == MAX_REGION => None,
        Some((a, b)) => [a, b]
            .into_iter()
            .filter(|&point| point < geometry.cells() && empty.contains(point))
            .find_map(|cell| {
                let mut larger = region;
                larger.insert(cell);
                grow(geometry, theirs_view, empty, larger)
            }),
    }
}

/// A region holding `cell` (empty) that `colour` captures in `position`, if the regions
/// grown from `cell` hold one (see the module documentation).
pub fn captured_region_of<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
    cell: usize,
) -> Option<CellSet<W>> {
    let theirs_view = Links::of(geometry, position, other(colour));
    let empty = position.empty(geometry);
    captured_region_in(geometry, &theirs_view, &empty, cell)
}

/// [`captured_region_of`] from the opponent's view of the position (`theirs_view`, as
/// [`Links::of`] gives it) and its empty cells.
pub fn captured_region_in<const W: usize>(
    geometry: &Geometry<W>,
    theirs_view: &Links<W>,
    empty: &CellSet<W>,
    cell: usize,
) -> Option<CellSet<W>> {
    grow(geometry, theirs_view, empty, CellSet::single(cell))
}

/// Disjoint regions of `position` that `colour` captures, found from each empty cell in
/// turn (see the module documentation): the cells `colour` can fill. Each region found is
/// captured in `position` as it is; filling one leaves the others captured (a stone of
/// `colour` outside a region only takes a contact away).
pub fn captured_regions<const W: usize>(
    geometry: &Geometry<W>,
    position: &Position<W>,
    colour: Stone,
) -> CellSet<W> {
    let theirs_view = Links::of(geometry, position, other(colour));
    let empty = position.empty(geometry);
    let mut captured = CellSet::EMPTY;
    for cell in empty.iter() {
        if captured.contains(cell) {
            continue;
        }
        let free = empty.minus(&captured);
        if let Some(region) = grow(geometry, &theirs_view, &free, CellSet::single(cell)) {
            captured = captured.union(&region);
        }
    }
    captured
}
