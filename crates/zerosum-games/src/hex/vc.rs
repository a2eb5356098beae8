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
//!   Any number of semis at a time, as Pawlewicz, Hayward, Henderson and Arneson's OR
//!   ("Stronger virtual connections in Hex", 2015): a search that branches on which cell of
//!   each full already known a new full leaves out, so it finds only fulls that contain no
//!   other. Measured on `solve hex:7` against ORs of at most 4 semis: half
//!   the positions and half the time.
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

use super::cells::{other, CellSet, Geometry, PointSet, Position};
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
}

impl VcLimits {
    /// The limits of the solver: 40 fulls (25 combined), 80 semis. Chosen by measure on
    /// `solve hex:7` openings: smaller limits need more positions, larger ones change
    /// nothing there.
    pub const DEFAULT: VcLimits = VcLimits {
        fulls: 40,
        fulls_combined: 25,
        semis: 80,
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

/// A pair of points with connections in the parent of an incremental build
/// ([`VcBuilder::build_from`]) whose ends are both still points.
struct Moved {
    /// Its ends here.
    a: usize,
    b: usize,
    /// Whether an end changed (a cell now a stone, a group merged).
    changed: bool,
    /// The pair in the parent.
    pair: u32,
    /// Whether some of its fulls (semis) are not kept as they were: an end changed, or a
    /// carrier holds a new stone of the colour's and none of the opponent's.
    fulls_touched: bool,
    semis_touched: bool,
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
    /// Per pair of points, the carriers of its full connections, then of its semis: each
    /// list ordered by size (smallest first), none inside another of its list.
    fulls: Vec<Vec<CellSet<W>>>,
    semis: Vec<Vec<CellSet<W>>>,
    /// Per point: the points it has a full connection with.
    full_partners: Vec<PointSet<W>>,
    /// Pairs with connections, to clear before the next build.
    touched: Vec<u32>,
    /// Full connections not yet combined by AND.
    queue: Vec<(u16, u16, CellSet<W>)>,
    /// Scratch for the OR rule.
    or_scratch: Vec<CellSet<W>>,
    /// Semis an incremental build changed, to combine by OR once every list is in place.
    or_pending: Vec<(u16, u16, CellSet<W>)>,
    /// Scratch of an incremental build: the parent's pairs that keep their ends.
    moved: Vec<Moved>,
    link: EdgeLink,
    /// The colour and position of the last build, and whether it ran to its end (every
    /// connection combined): only then can it seed [`VcBuilder::build_from`].
    colour: Stone,
    position: Position<W>,
    complete: bool,
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
            full_partners: vec![PointSet::EMPTY; points],
            touched: Vec::new(),
            queue: Vec::new(),
            or_scratch: Vec::new(),
            or_pending: Vec::new(),
            moved: Vec::new(),
            link: EdgeLink::None,
            colour: Stone::Empty,
            position: Position::default(),
            complete: false,
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

    /// The mustplay with its reason: `(mustplay, reason)` where `reason` is the union of the
    /// carriers of the fewest semis (taken smallest first, each one kept only if it shrinks
    /// the intersection) whose intersection is already the mustplay. Every empty cell
    /// outside the mustplay lies outside one of those carriers, so a move there loses to
    /// that semi's key: the loss needs only the cells of `reason` empty.
    pub fn mustplay_with_reason(&self) -> Option<(CellSet<W>, CellSet<W>)> {
        let semis = self.edge_semis();
        let first = *semis.first()?;
        let (mut meet, mut reason) = (first, first);
        for carrier in &semis[1..] {
            let smaller = meet.intersection(carrier);
            if smaller != meet {
                meet = smaller;
                reason = reason.union(carrier);
            }
        }
        Some((meet, reason))
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
        let Some(groups) = self.start(geometry, position, colour) else {
            return;
        };
        let empty = self.empty;
        for &(point, group, edge_cells) in &groups {
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
        self.close(enough);
    }

    /// Whether a build of `colour` on `position` may start from this builder's last one
    /// ([`VcBuilder::build_from`]): of the same colour, run to its end, on a position that
    /// `position` extends with stones of either colour.
    pub fn seeds(&self, position: &Position<W>, colour: Stone) -> bool {
        self.complete
            && self.colour == colour
            && self.position.black.is_subset(&position.black)
            && self.position.white.is_subset(&position.white)
    }

    /// H-search for `colour` on `position` from the connections `parent` found on a position
    /// this one extends ([`VcBuilder::seeds`] must hold), as Benzene's incremental build:
    ///
    /// - a connection whose carrier or end holds a new stone of the opponent is dropped;
    /// - the colour's new stones leave the carriers (a strategy that would answer on one of
    ///   them has its stone there already), and a connection's ends become the groups they
    ///   joined (an empty cell now the colour's stone, groups merged; a connection inside
    ///   one group is dropped);
    /// - the connections so changed are combined again (AND with every full at their ends,
    ///   OR with every semi of their pair), then everything they yield, as in a build from
    ///   scratch. Two unchanged connections were combined in the parent already.
    ///
    /// A full kept beyond [`VcLimits::fulls_combined`] in the parent and now among the
    /// smallest of its pair is combined too.
    ///
    /// Every connection found is real (each step keeps a connection true). Against a build
    /// from scratch it may miss some: what the parent's limits cut. (A semi
    /// whose key the colour has played stays a semi, and its full comes again from the AND
    /// through the new group.) It may find more: a connection the parent derived through a
    /// cell now joined to an edge, which a build from scratch would derive through the edge
    /// (it never does). Without limits that bind, it finds every connection a build from
    /// scratch finds, or one with a carrier inside it (the tests check both on random
    /// positions).
    pub fn build_from(
        &mut self,
        parent: &VcBuilder<W>,
        geometry: &Geometry<W>,
        position: &Position<W>,
        colour: Stone,
        enough: EdgeLink,
    ) {
        debug_assert!(parent.seeds(position, colour));
        if self.start(geometry, position, colour).is_none() {
            return;
        }
        let added = position
            .stones(colour)
            .minus(&parent.position.stones(colour));
        let cut = position
            .stones(other(colour))
            .minus(&parent.position.stones(other(colour)));
        // A parent point's point here (`None`: now the opponent's) and whether it changed.
        let point_of = |point: usize| -> Option<(usize, bool)> {
            if point >= self.cells {
                return Some((point, false));
            }
            if cut.contains(point) {
                return None;
            }
            let now = usize::from(self.point_of[point]);
            Some((now, now != point || added.contains(point)))
        };
        let ends = |pair: u32| -> Option<(usize, usize, bool)> {
            let pair = pair as usize;
            let (a, a_changed) = point_of(pair / parent.points)?;
            let (b, b_changed) = point_of(pair % parent.points)?;
            (a != b).then_some((a, b, a_changed || b_changed))
        };
        let mut moved = std::mem::take(&mut self.moved);
        moved.clear();
        for &pair in &parent.touched {
            if let Some((a, b, changed)) = ends(pair) {
                moved.push(Moved {
                    a,
                    b,
                    changed,
                    pair,
                    fulls_touched: changed,
                    semis_touched: changed,
                });
            }
        }
        // The pairs whose ends did not change keep their lists as they were, but for the
        // carriers the new stones touch: no two pairs of the parent share them, and a list
        // kept whole stays ordered by size with no carrier inside another.
        let new_stones = cut.union(&added);
        for entry in &mut moved {
            if entry.changed {
                continue;
            }
            let (a, b) = (entry.a, entry.b);
            let (from, to) = (entry.pair as usize, self.pair(a, b));
            for (rank, carrier) in parent.fulls[from].iter().enumerate() {
                if !carrier.meets(&new_stones) {
                    // Among the smallest now, not then: never combined yet.
                    let now = self.fulls[to].len();
                    if rank >= self.limits.fulls_combined && now < self.limits.fulls_combined {
                        self.queue.push((a as u16, b as u16, *carrier));
                    }
                    self.fulls[to].push(*carrier);
                } else if !carrier.meets(&cut) {
                    entry.fulls_touched = true;
                }
            }
            for carrier in &parent.semis[from] {
                if !carrier.meets(&new_stones) {
                    self.semis[to].push(*carrier);
                } else if !carrier.meets(&cut) {
                    entry.semis_touched = true;
                }
            }
            if !self.fulls[to].is_empty() {
                self.full_partners[a].insert(b, self.cells);
                self.full_partners[b].insert(a, self.cells);
            }
            if !self.fulls[to].is_empty() || !self.semis[to].is_empty() {
                self.touched.push(to as u32);
            }
        }
        // The others: what the new stones changed, with the parent's other pairs.
        for entry in moved.iter().filter(|entry| entry.fulls_touched) {
            for &carrier in &parent.fulls[entry.pair as usize] {
                if carrier.meets(&cut) || (!entry.changed && !carrier.meets(&new_stones)) {
                    continue;
                }
                let shrunk = carrier.minus(&added);
                let combine = entry.changed || shrunk != carrier;
                self.insert_full(entry.a, entry.b, shrunk, combine);
            }
        }
        let mut pending = std::mem::take(&mut self.or_pending);
        pending.clear();
        for entry in moved.iter().filter(|entry| entry.semis_touched) {
            let (a, b) = (entry.a, entry.b);
            for &carrier in &parent.semis[entry.pair as usize] {
                if carrier.meets(&cut) || (!entry.changed && !carrier.meets(&new_stones)) {
                    continue;
                }
                let shrunk = carrier.minus(&added);
                if self.insert_semi(a, b, shrunk) && (entry.changed || shrunk != carrier) {
                    pending.push((a as u16, b as u16, shrunk));
                }
            }
        }
        self.moved = moved;
        for &(a, b, carrier) in &pending {
            let (a, b) = (usize::from(a), usize::from(b));
            if self.semis(a, b).contains(&carrier) {
                self.or_rule(a, b, carrier);
            }
        }
        self.or_pending = pending;
        self.close(enough);
    }

    /// Clears the last build and numbers the points of `colour` on `position`: its groups
    /// (each edge with the stones joined to it, then the others) as `(point, stones, edge
    /// cells)`, or `None` when its stones join its edges.
    fn start(
        &mut self,
        geometry: &Geometry<W>,
        position: &Position<W>,
        colour: Stone,
    ) -> Option<Vec<(usize, CellSet<W>, CellSet<W>)>> {
        for &pair in &self.touched {
            self.fulls[pair as usize].clear();
            self.semis[pair as usize].clear();
        }
        self.touched.clear();
        self.queue.clear();
        for partners in &mut self.full_partners {
            *partners = PointSet::EMPTY;
        }
        for own in &mut self.own {
            *own = CellSet::EMPTY;
        }
        self.colour = colour;
        self.position = *position;
        self.complete = false;
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
            return None;
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
        for &(point, group, _) in &groups {
            for cell in group.iter() {
                self.point_of[cell] = point as u16;
            }
            self.own[point] = group;
        }
        Some(groups)
    }

    /// Combines the queued fulls by AND (first in, first out: the connections of small
    /// carriers first) until none is left or the edges are joined as `enough` asks.
    fn close(&mut self, enough: EdgeLink) {
        let [edge_a, edge_b] = self.edge_points();
        let pair = self.pair(edge_a, edge_b);
        let mut head = 0;
        loop {
            if !self.fulls[pair].is_empty()
                || (enough == EdgeLink::Semi && !self.semis[pair].is_empty())
            {
                break;
            }
            let Some(&(x, y, carrier)) = self.queue.get(head) else {
                self.complete = true;
                break;
            };
            head += 1;
            self.and_rule(x as usize, y as usize, carrier);
            self.and_rule(y as usize, x as usize, carrier);
        }
        self.link = if !self.fulls[pair].is_empty() {
            EdgeLink::Full
        } else if !self.semis[pair].is_empty() {
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
        // A full `middle–z` combines when it avoids the carrier and the end.
        let avoid = carrier.union(&self.own[end]);
        for z in partners.iter(self.cells) {
            if z == end || self.own[z].meets(&carrier) {
                continue;
            }
            let pair = self.pair(middle, z);
            let count = self.fulls[pair].len().min(self.limits.fulls_combined);
            for k in 0..count {
                let Some(&other) = self.fulls[pair].get(k) else {
                    break;
                };
                if other.meets(&avoid) {
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
        self.insert_full(a, b, carrier, true)
    }

    /// [`VcBuilder::add_full`], queued for the AND rule only when `combine`.
    fn insert_full(&mut self, a: usize, b: usize, carrier: CellSet<W>, combine: bool) -> bool {
        let pair = self.pair(a, b);
        let size = carrier.len();
        let (fulls, semis) = (&mut self.fulls[pair], &mut self.semis[pair]);
        // The lists are ordered by size: a carrier inside this one comes before `rank`, one
        // that holds it (and is not the same) after.
        let rank = fulls.partition_point(|kept| kept.len() <= size);
        if fulls[..rank].iter().any(|kept| kept.is_subset(&carrier)) {
            return false;
        }
        let was_empty = fulls.is_empty() && semis.is_empty();
        drop_supersets(fulls, rank, &carrier);
        if fulls.len() >= self.limits.fulls {
            return false;
        }
        fulls.insert(rank, carrier);
        let from = semis.partition_point(|semi| semi.len() < size);
        drop_supersets(semis, from, &carrier);
        if was_empty {
            self.touched.push(pair as u32);
        }
        self.full_partners[a].insert(b, self.cells);
        self.full_partners[b].insert(a, self.cells);
        if combine && rank < self.limits.fulls_combined {
            self.queue.push((a as u16, b as u16, carrier));
        }
        true
    }

    /// Keeps a semi connection unless a full or semi of its pair has a carrier inside it,
    /// then tries the OR rule with it.
    fn add_semi(&mut self, a: usize, b: usize, carrier: CellSet<W>) {
        if self.insert_semi(a, b, carrier) {
            self.or_rule(a, b, carrier);
        }
    }

    /// Keeps a semi connection unless a full or semi of its pair has a carrier inside it;
    /// whether it was kept.
    fn insert_semi(&mut self, a: usize, b: usize, carrier: CellSet<W>) -> bool {
        let pair = self.pair(a, b);
        let size = carrier.len();
        // The lists are ordered by size (see `insert_full`).
        let (fulls, semis) = (&self.fulls[pair], &mut self.semis[pair]);
        let smaller = fulls.partition_point(|full| full.len() <= size);
        if fulls[..smaller].iter().any(|full| full.is_subset(&carrier)) {
            return false;
        }
        let rank = semis.partition_point(|kept| kept.len() <= size);
        if semis[..rank].iter().any(|kept| kept.is_subset(&carrier)) {
            return false;
        }
        let was_empty = semis.is_empty() && fulls.is_empty();
        drop_supersets(semis, rank, &carrier);
        if semis.len() >= self.limits.semis {
            return false;
        }
        semis.insert(rank, carrier);
        if was_empty {
            self.touched.push(pair as u32);
        }
        true
    }

    /// Fulls from `new` and other semis of its pair whose carriers have an empty
    /// intersection (see [`or_combine`]).
    fn or_rule(&mut self, a: usize, b: usize, new: CellSet<W>) {
        let pair = self.pair(a, b);
        // No OR unless the pair's semis (`new` among them) have an empty intersection.
        if !meet_of(&self.semis[pair]).is_empty() {
            return;
        }
        let mut mem = std::mem::take(&mut self.or_scratch);
        mem.clear();
        mem.push(new);
        mem.extend(self.semis[pair].iter().filter(|&&s| s != new));
        let semis = mem.len();
        mem.extend_from_slice(&self.fulls[pair]);
        let found = or_combine(&mut mem, 0, semis, self.fulls[pair].len(), CellSet::EMPTY);
        for &carrier in &mem[..found] {
            self.add_full(a, b, carrier);
        }
        self.or_scratch = mem;
    }
}

/// Removes from `list[from..]` every carrier that holds `carrier`, keeping the order.
#[inline]
fn drop_supersets<const W: usize>(list: &mut Vec<CellSet<W>>, from: usize, carrier: &CellSet<W>) {
    let mut kept = from;
    for index in from..list.len() {
        let other = list[index];
        if !carrier.is_subset(&other) {
            list[kept] = other;
            kept += 1;
        }
    }
    list.truncate(kept);
}

/// The cells every carrier of `carriers` holds (every cell when there is none).
#[inline]
fn meet_of<const W: usize>(carriers: &[CellSet<W>]) -> CellSet<W> {
    carriers
        .iter()
        .fold(CellSet([u64::MAX; W]), |meet, carrier| {
            meet.intersection(carrier)
        })
}

/// The OR rule over any number of semis (after Pawlewicz, Hayward, Henderson and Arneson,
/// "Stronger virtual connections in Hex", 2015): `mem[start..start + semis]` are semis of a
/// pair (the new one first, in every result), `mem[start + semis..][..fulls]` its fulls, and
/// `mem` ends there. Finds unions of semis with an empty intersection, each holding the new
/// semi and no full's carrier (nor another result's), leaves them at `mem[start..]`, cuts
/// `mem` after them and returns their number. `forbidden`: cells every result holds.
fn or_combine<const W: usize>(
    mem: &mut Vec<CellSet<W>>,
    start: usize,
    semis: usize,
    mut fulls: usize,
    mut forbidden: CellSet<W>,
) -> usize {
    let all = CellSet([u64::MAX; W]);
    if !meet_of(&mem[start..start + semis]).is_empty() {
        mem.truncate(start);
        return 0;
    }
    let fulls_at = start + semis;
    let first_found = fulls_at + fulls;
    let mut found = 0;
    if fulls == 0 {
        // Nothing to avoid: the semis in order, each kept if it shrinks the meet.
        let (mut meet, mut union) = (all, CellSet::EMPTY);
        for semi in &mem[start..fulls_at] {
            if meet.is_subset(semi) {
                continue;
            }
            meet = meet.intersection(semi);
            union = union.union(semi);
            if meet.is_empty() {
                break;
            }
        }
        mem.push(union);
        fulls += 1;
        found += 1;
    }
    forbidden = forbidden.union(&mem[start]);
    loop {
        // A result must leave out a cell of every full: branch on the cells of the full
        // with the fewest not yet forbidden.
        let mut fewest: Option<CellSet<W>> = None;
        for full in &mem[fulls_at..fulls_at + fulls] {
            let allowed = full.minus(&forbidden);
            if fewest.is_none_or(|f| allowed.len() < f.len()) {
                fewest = Some(allowed);
            }
        }
        let Some(cell) = fewest.and_then(|allowed| allowed.first()) else {
            break;
        };
        forbidden.insert(cell);
        // Results without `cell`: the semis and fulls without it (none when the semis
        // without it meet).
        let meet = mem[start..fulls_at]
            .iter()
            .filter(|semi| !semi.contains(cell))
            .fold(all, |meet, semi| meet.intersection(semi));
        if !meet.is_empty() {
            continue;
        }
        let sub = mem.len();
        let mut sub_semis = 0;
        for i in start..fulls_at {
            let semi = mem[i];
            if !semi.contains(cell) {
                mem.push(semi);
                sub_semis += 1;
            }
        }
        let mut sub_fulls = 0;
        for i in fulls_at..fulls_at + fulls {
            let full = mem[i];
            if !full.contains(cell) {
                mem.push(full);
                sub_fulls += 1;
            }
        }
        let got = or_combine(mem, sub, sub_semis, sub_fulls, forbidden);
        fulls += got;
        found += got;
    }
    for i in 0..found {
        mem[start + i] = mem[first_found + i];
    }
    mem.truncate(start + found);
    found
}
