//! Virtual connections of one colour by H-search (Anshelevich, "A hierarchical approach to
//! computer Hex", 2002), with carriers as bit sets.
//!
//! # Points and connections
//!
//! The **points** of a colour are its groups of stones (connected stones, one point each), its
//! two edges (each with the stones joined to it) and every empty cell. A **full connection**
//! between two points with **carrier** `C` (a set of empty cells, never an endpoint) means the
//! colour joins the two points even when the opponent moves first, playing only inside `C`;
//! a **semi connection** means it joins them if it moves first (its **key** is in `C`). An
//! empty cell counts as joined when the colour puts a stone on it.
//!
//! # The rules
//!
//! - **Base**: two adjacent points (an empty cell next to a group, an edge or another empty
//!   cell) are fully connected with an empty carrier.
//! - **AND**: full `x–m` (carrier `A`) and full `m–y` (carrier `B`) with `A`, `B` disjoint,
//!   `x` not in `B` and `y` not in `A`: if `m` is a group, full `x–y` with carrier `A ∪ B`;
//!   if `m` is an empty cell, semi `x–y` with carrier `A ∪ B ∪ {m}` and key `m`. Never
//!   through an edge (as Benzene by default): a connection between two points other than
//!   the edges is a chain on the board.
//! - **OR**: semis `x–y` whose carriers have an empty intersection: full `x–y` with the union
//!   of their carriers (whatever the opponent plays, one semi is untouched and its key joins).
//!   Up to [`VcLimits::max_ors`] semis at a time.
//!
//! Each new full connection is combined by AND with the full connections at both of its
//! endpoints, once; each new semi by OR with the semis of its pair. A carrier that contains
//! another of its pair and kind is not kept; each pair keeps at most [`VcLimits::fulls`] fulls
//! and [`VcLimits::semis`] semis, smallest first, and only the first
//! [`VcLimits::fulls_combined`] fulls of a pair are combined further (Benzene's soft limit).
//! Every connection found is real (the rules are sound); some real ones are not found.
//!
//! Edge templates are connections between a stone and an edge the rules derive: the bridge to
//! the edge (row 2), the ziggurat (row 3) come out on small boards (see the tests).
//!
//! # The mustplay
//!
//! A semi connection between the opponent's edges wins for the opponent if it may move first.
//! The side to move must therefore play inside the carrier of each of them: inside their
//! intersection, the **mustplay** ([`VcBuilder::mustplay`]); when it is empty, every move loses.

use super::cells::{CellSet, Geometry, Position};
use crate::connection::Stone;

/// How many connections H-search keeps and combines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcLimits {
    /// Full connections kept per pair of points.
    pub fulls: usize,
    /// Of those, how many (the smallest) are combined further by the AND rule.
    pub fulls_combined: usize,
    /// Semi connections kept per pair of points.
    pub semis: usize,
    /// Most semis one OR combines.
    pub max_ors: usize,
}

impl VcLimits {
    /// The limits of the solver: 16 fulls (10 combined), 24 semis, ORs of up to 4 semis.
    pub const DEFAULT: VcLimits = VcLimits {
        fulls: 16,
        fulls_combined: 10,
        semis: 24,
        max_ors: 4,
    };
}

impl Default for VcLimits {
    fn default() -> Self {
        VcLimits::DEFAULT
    }
}

/// What a build found about the colour's two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeLink {
    /// The colour's stones already join its edges.
    Joined,
    /// A full connection joins the edges (the colour wins whoever moves).
    Full,
    /// Only semi connections join them (the colour wins if it moves).
    Semi,
    /// No connection between the edges was found.
    None,
}

/// H-search for one colour on one board; reusable (build after build, no allocation once the
/// lists have grown).
pub struct VcBuilder<const W: usize> {
    limits: VcLimits,
    /// Points: cells (empty cells and group representatives) then the two edges.
    points: usize,
    cells: usize,
    /// Per point: the cells it covers (an empty cell itself; a group or edge its stones).
    own: Vec<CellSet<W>>,
    /// Per cell: its point (a stone: its group's or edge's point; an empty cell: itself).
    point_of: Vec<u16>,
    /// The points that are empty cells.
    empty: CellSet<W>,
    fulls: Vec<Vec<CellSet<W>>>,
    semis: Vec<Vec<CellSet<W>>>,
    /// Per point: the points it has a full connection with.
    full_partners: Vec<CellSet<W>>,
    /// Pairs with connections, to clear before the next build.
    touched: Vec<u32>,
    /// Full connections not yet combined by AND.
    queue: Vec<(u16, u16, CellSet<W>)>,
    /// Scratch for the OR rule.
    or_scratch: Vec<CellSet<W>>,
    link: EdgeLink,
}

impl<const W: usize> VcBuilder<W> {
    /// A builder for the boards of `geometry`.
    pub fn new(geometry: &Geometry<W>, limits: VcLimits) -> Self {
        let cells = geometry.cells();
        let points = cells + 2;
        VcBuilder {
            limits,
            points,
            cells,
            own: vec![CellSet::EMPTY; points],
            point_of: vec![0; cells],
            empty: CellSet::EMPTY,
            fulls: vec![Vec::new(); points * points],
            semis: vec![Vec::new(); points * points],
            full_partners: vec![CellSet::EMPTY; points],
            touched: Vec::new(),
            queue: Vec::new(),
            or_scratch: Vec::new(),
            link: EdgeLink::None,
        }
    }

    /// The two edge points of the colour built for (its first edge, its second: top and
    /// bottom for Black, left and right for White).
    pub fn edge_points(&self) -> [usize; 2] {
        [self.cells, self.cells + 1]
    }

    /// The point of a cell: its group's (or edge's) for a stone of the colour, the cell itself
    /// for an empty cell. Meaningless for the opponent's stones.
    pub fn point_of(&self, cell: usize) -> usize {
        usize::from(self.point_of[cell])
    }

    /// The full connections between two points found by the last build, smallest carrier
    /// first.
    pub fn fulls(&self, a: usize, b: usize) -> &[CellSet<W>] {
        &self.fulls[self.pair(a, b)]
    }

    /// The semi connections between two points found by the last build, smallest first.
    pub fn semis(&self, a: usize, b: usize) -> &[CellSet<W>] {
        &self.semis[self.pair(a, b)]
    }

    /// How the last build's colour stands between its edges.
    pub fn edge_link(&self) -> EdgeLink {
        self.link
    }

    /// The carriers of the semi connections between the edges, smallest first.
    pub fn edge_semis(&self) -> &[CellSet<W>] {
        let [a, b] = self.edge_points();
        self.semis(a, b)
    }

    /// The carriers of the full connections between the edges, smallest first.
    pub fn edge_fulls(&self) -> &[CellSet<W>] {
        let [a, b] = self.edge_points();
        self.fulls(a, b)
    }

    /// Where the opponent of the colour built for must play, this colour to move next: the
    /// intersection of the carriers of this colour's semi connections between its edges, or
    /// `None` when it has none (no constraint). Meaningless once the colour has a full
    /// connection or has joined its edges.
    pub fn mustplay(&self) -> Option<CellSet<W>> {
        let semis = self.edge_semis();
        let first = *semis.first()?;
        Some(
            semis
                .iter()
                .fold(first, |meet, carrier| meet.intersection(carrier)),
        )
    }

    #[inline]
    fn pair(&self, a: usize, b: usize) -> usize {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        lo * self.points + hi
    }

    /// Runs H-search for `colour` on `position`; read the results with the other methods.
    /// It ends once the edges have a full connection (and, when `enough` is
    /// [`EdgeLink::Semi`], a semi one): connections found by then are kept, others missed.
    pub fn build(
        &mut self,
        geometry: &Geometry<W>,
        position: &Position<W>,
        colour: Stone,
        enough: EdgeLink,
    ) {
        for &pair in &self.touched {
            self.fulls[pair as usize].clear();
            self.semis[pair as usize].clear();
        }
        self.touched.clear();
        self.queue.clear();
        for partners in &mut self.full_partners {
            *partners = CellSet::EMPTY;
        }
        for own in &mut self.own {
            *own = CellSet::EMPTY;
        }
        let stones = position.stones(colour);
        let empty = position.empty(geometry);
        self.empty = empty;
        let [first_edge, second_edge] = *geometry.edges(colour);
        let [edge_a, edge_b] = self.edge_points();
        // The groups: the edges' first, then the others, each named by its lowest stone.
        let joined = [
            geometry.flood(&first_edge, &stones),
            geometry.flood(&second_edge, &stones),
        ];
        if joined[0].meets(&joined[1]) {
            self.link = EdgeLink::Joined;
            return;
        }
        self.link = EdgeLink::None;
        let mut groups: Vec<(usize, CellSet<W>, CellSet<W>)> = vec![
            (edge_a, joined[0], first_edge),
            (edge_b, joined[1], second_edge),
        ];
        let mut left = stones.minus(&joined[0]).minus(&joined[1]);
        while let Some(cell) = left.first() {
            let group = geometry.flood(&CellSet::single(cell), &stones);
            left = left.minus(&group);
            groups.push((cell, group, CellSet::EMPTY));
        }
        for cell in empty.iter() {
            self.point_of[cell] = cell as u16;
            self.own[cell] = CellSet::single(cell);
        }
        for &(point, group, edge_cells) in &groups {
            for cell in group.iter() {
                self.point_of[cell] = point as u16;
            }
            self.own[point] = group;
            let liberties = geometry
                .around(&group)
                .union(&edge_cells)
                .intersection(&empty);
            for cell in liberties.iter() {
                self.add_full(point, cell, CellSet::EMPTY);
            }
        }
        for cell in empty.iter() {
            for next in geometry.neighbours(cell).intersection(&empty).iter() {
                if next > cell {
                    self.add_full(cell, next, CellSet::EMPTY);
                }
            }
        }
        // First in, first out: the connections of small carriers are combined first.
        let mut head = 0;
        while let Some(&(x, y, carrier)) = self.queue.get(head) {
            head += 1;
            self.and_rule(x as usize, y as usize, carrier);
            self.and_rule(y as usize, x as usize, carrier);
            let pair = self.pair(edge_a, edge_b);
            if !self.fulls[pair].is_empty()
                || (enough == EdgeLink::Semi && !self.semis[pair].is_empty())
            {
                break;
            }
        }
        self.link = if !self.fulls(edge_a, edge_b).is_empty() {
            EdgeLink::Full
        } else if !self.semis(edge_a, edge_b).is_empty() {
            EdgeLink::Semi
        } else {
            EdgeLink::None
        };
    }

    /// Combines the full `end–middle` with carrier `carrier` with every full `middle–z`.
    fn and_rule(&mut self, end: usize, middle: usize, carrier: CellSet<W>) {
        if middle >= self.cells {
            // Not through an edge (Benzene's default): the pair is joined to the edge
            // already, and the connections stay paths on the board.
            return;
        }
        let middle_is_cell = self.empty.contains(middle);
        let partners = self.full_partners[middle];
        let end_own = self.own[end];
        for z in partners.iter() {
            if z == end || self.own[z].meets(&carrier) {
                continue;
            }
            let pair = self.pair(middle, z);
            let count = self.fulls[pair].len().min(self.limits.fulls_combined);
            for k in 0..count {
                let Some(&other) = self.fulls[pair].get(k) else {
                    break;
                };
                if other.meets(&carrier) || other.meets(&end_own) {
                    continue;
                }
                let union = carrier.union(&other);
                if middle_is_cell {
                    let mut semi = union;
                    semi.insert(middle);
                    self.add_semi(end, z, semi);
                } else {
                    self.add_full(end, z, union);
                }
            }
        }
    }

    /// Keeps a full connection unless one of its pair's carriers is inside it; queues it
    /// for the AND rule when it is among the pair's smallest.
    fn add_full(&mut self, a: usize, b: usize, carrier: CellSet<W>) -> bool {
        let pair = self.pair(a, b);
        let list = &mut self.fulls[pair];
        if list.iter().any(|kept| kept.is_subset(&carrier)) {
            return false;
        }
        let was_empty = list.is_empty() && self.semis[pair].is_empty();
        list.retain(|kept| !carrier.is_subset(kept));
        if list.len() >= self.limits.fulls {
            return false;
        }
        let size = carrier.len();
        let rank = list.partition_point(|kept| kept.len() <= size);
        list.insert(rank, carrier);
        self.semis[pair].retain(|semi| !carrier.is_subset(semi));
        if was_empty {
            self.touched.push(pair as u32);
        }
        self.full_partners[a].insert(b);
        self.full_partners[b].insert(a);
        if rank < self.limits.fulls_combined {
            self.queue.push((a as u16, b as u16, carrier));
        }
        true
    }

    /// Keeps a semi connection unless a full or semi of its pair has a carrier inside it,
    /// then tries the OR rule with it.
    fn add_semi(&mut self, a: usize, b: usize, carrier: CellSet<W>) {
        let pair = self.pair(a, b);
        if self.fulls[pair].iter().any(|full| full.is_subset(&carrier)) {
            return;
        }
        let list = &mut self.semis[pair];
        if list.iter().any(|kept| kept.is_subset(&carrier)) {
            return;
        }
        let was_empty = list.is_empty() && self.fulls[pair].is_empty();
        list.retain(|kept| !carrier.is_subset(kept));
        if list.len() >= self.limits.semis {
            return;
        }
        let size = carrier.len();
        let rank = list.partition_point(|kept| kept.len() <= size);
        list.insert(rank, carrier);
        if was_empty {
            self.touched.push(pair as u32);
        }
        self.or_rule(a, b, carrier);
    }

    /// Fulls from `new` and up to `max_ors - 1` other semis of its pair whose carriers have
    /// an empty intersection.
    fn or_rule(&mut self, a: usize, b: usize, new: CellSet<W>) {
        let pair = self.pair(a, b);
        let mut others = std::mem::take(&mut self.or_scratch);
        others.clear();
        others.extend(self.semis[pair].iter().filter(|&&s| s != new));
        let mut found = Vec::new();
        or_search(&others, 0, new, new, 1, self.limits.max_ors, &mut found);
        self.or_scratch = others;
        for carrier in found {
            self.add_full(a, b, carrier);
        }
    }
}

/// The unions of `union` with semis of `semis[start..]` (at most `max - depth` more) that
/// bring `meet` (the intersection so far) to empty, each strictly shrinking it.
fn or_search<const W: usize>(
    semis: &[CellSet<W>],
    start: usize,
    meet: CellSet<W>,
    union: CellSet<W>,
    depth: usize,
    max: usize,
    found: &mut Vec<CellSet<W>>,
) {
    for (k, semi) in semis.iter().enumerate().skip(start) {
        let smaller = meet.intersection(semi);
        if smaller == meet {
            continue;
        }
        let wider = union.union(semi);
        if smaller.is_empty() {
            if !found.iter().any(|f| f.is_subset(&wider)) {
                found.push(wider);
            }
        } else if depth + 1 < max {
            or_search(semis, k + 1, smaller, wider, depth + 1, max, found);
        }
    }
}
