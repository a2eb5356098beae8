//! Connection potentials: how far each colour is from joining its goals, the evaluation of Hex
//! and Atoll (Queenbee's two-distance, van Rijswijck 2000, with a bridge-aware "joined" test).
//!
//! # The network
//!
//! A [`Network`] is a board seen as a graph of cells on the hexagonal grid of
//! [`crate::connection`], with the goals of each colour given as pairs of *terminal* cells:
//! stones of that colour that never leave the board. Hex frames its board with a ring of
//! such stones (the top and bottom rows of the frame are Black, the left and right columns
//! White, the four corners walls), so that "join the top and the bottom" becomes "join two
//! groups of stones", exactly as Atoll's "join two opposite islands".
//!
//! # Groups, bridges and the two-distance
//!
//! Stones of one colour form *groups*, connected through neighbours. A *bridge* is two stones
//! of one colour that share two empty common neighbours, its carrier: an intrusion into one
//! carrier cell is answered in the other, so the pair is as good as connected. Groups joined
//! through bridges form *chains*; with [`PotentialParams::bridges`] the distances use chains
//! instead of groups (measured weaker: the two-distance already rewards the two ways of a
//! bridge, so chains count them twice).
//!
//! The distance of an empty cell from a group counts the empty cells a chain through it still
//! needs, the cell itself included; groups of the colour cost nothing and walls (the other
//! colour, water) block. Cells next to the group are at distance 1. A further cell `y` is
//!
//! ```text
//!   d(y) = min( second smallest d over the neighbours of y + 1,
//!               smallest d over the neighbours of y + 1 + single_route_penalty )
//! ```
//!
//! where the neighbours of `y` are its empty neighbours and the empty neighbours of the groups
//! it touches (groups are contracted). With a penalty of 0 this is the plain shortest path;
//! with a large one it is Queenbee's two-distance, which only trusts a cell the opponent cannot
//! cut from the group with one stone. In between, a cell reached one way only is not
//! unreachable, just worse.
//!
//! The *potential* of an empty cell for a pair of terminals is the sum of its distances from
//! both; a colour's potential is the least over its empty cells and pairs, and its
//! *alternatives* the number of cells that reach it. A potential of 0 means the terminals
//! already share a chain: the colour is joined by stones and bridges, a virtual connection
//! (near-certainly won; bridges whose carriers overlap can still be broken), checked whatever
//! the parameters. [`balance`] turns both colours' figures into an evaluation.
//!
//! # Cost
//!
//! Two passes per terminal pair and colour, each linear in the cells (every group is expanded
//! at most twice per pass). Scratch memory lives on the stack, in arrays sized by the smallest
//! of a few capacities that fits the network (up to [`MAX_CELLS`]), so nothing is allocated.

use crate::connection::Stone;

/// The six directions around a cell as `(column, row)` offsets, in the order of
/// [`Network`] neighbour lists: right, up-right, up-left, left, down-left, down-right on the
/// drawing. Each direction is next to the one before and after it (cyclically), so the cells
/// in directions `i` and `i + 1` are the carrier of the bridge in direction `i`.
pub const RING: [(isize, isize); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Cell content that blocks both colours (water, the corners of Hex's frame, the sentinel).
/// The other contents are `Stone as u8`: 0 empty, 1 Black, 2 White.
pub const WALL: u8 = 3;

const EMPTY: u8 = Stone::Empty as u8;
const BLACK: u8 = Stone::Black as u8;
const WHITE: u8 = Stone::White as u8;

/// The most cells a network may have, its sentinel included: Hex's largest board, 100 x 100,
/// in its frame.
pub const MAX_CELLS: usize = 102 * 102 + 1;

/// The potential of a colour that cannot reach its goals (and the potential of a cell that is
/// on no chain).
pub const UNREACHABLE: u16 = u16::MAX;

/// Evaluation units per step of potential.
pub const POTENTIAL_UNIT: i32 = 100;

/// Potentials above this count as this, so that evaluations stay in range.
pub const POTENTIAL_CAP: u16 = 90;

/// What being joined by stones and bridges is worth, on top of the opponent's potential.
pub const JOINED_BONUS: i32 = 10_000;

/// Largest distance a pass records; farther cells are unreachable.
const MAX_DISTANCE: u32 = u16::MAX as u32 - 1;

/// "None" in group labels, member lists and stamps.
const NONE: u16 = u16::MAX;

/// How potentials are computed (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PotentialParams {
    /// Extra distance of a cell reached one way only: 0 gives the plain shortest path,
    /// `u16::MAX` pure two-distance.
    pub single_route_penalty: u16,
    /// Whether the distances contract chains (stones joined by bridges) rather than groups.
    /// The "joined" test uses chains either way.
    pub bridges: bool,
}

impl PotentialParams {
    /// Two-distance over groups, single routes 6 steps worse. On Hex 9x9 at 3,000 nodes a move
    /// (60 games) it scored 30-30 against pure two-distance, 36-24 against two-distance over
    /// chains, 35-25 against a penalty of 2 and 55-5 against the shortest path (see
    /// `measure_strength` in the `play_hex` tests); unlike pure two-distance, it never calls a
    /// colour cut off while some chain is still possible.
    pub const DEFAULT: PotentialParams = PotentialParams {
        single_route_penalty: 6,
        bridges: false,
    };

    /// The plain shortest path over chains: own stones and bridges free, empty cells 1.
    pub const SHORTEST_PATH: PotentialParams = PotentialParams {
        single_route_penalty: 0,
        bridges: true,
    };

    /// Queenbee's two-distance: a cell reached one way only is unreachable.
    pub const TWO_DISTANCE: PotentialParams = PotentialParams {
        single_route_penalty: u16::MAX,
        bridges: false,
    };
}

impl Default for PotentialParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// One colour's distance from its goals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColourPotential {
    /// The least potential over the empty cells and terminal pairs: 0 when a pair is joined by
    /// stones and bridges, [`UNREACHABLE`] when no chain can join any pair.
    pub potential: u16,
    /// How many empty cells have that potential (0 when joined or unreachable).
    pub alternatives: u16,
}

impl ColourPotential {
    /// True when a terminal pair is joined by stones and bridges.
    pub fn joined(self) -> bool {
        self.potential == 0
    }

    /// How bad the colour stands, in evaluation units: the capped potential, less a little for
    /// each alternative, or a large negative value when joined.
    fn badness(self) -> i32 {
        if self.joined() {
            -JOINED_BONUS
        } else {
            POTENTIAL_UNIT * i32::from(self.potential.min(POTENTIAL_CAP))
                - i32::from(self.alternatives).min(POTENTIAL_UNIT - 1)
        }
    }
}

/// The evaluation for a colour with potential `own` against one with `other`:
/// `POTENTIAL_UNIT` per step of potential ahead (capped at [`POTENTIAL_CAP`]), plus one per
/// alternative more (capped below one step), plus [`JOINED_BONUS`] for being joined.
/// Antisymmetric: `balance(a, b) == -balance(b, a)`; within `±19,100`.
pub fn balance(own: ColourPotential, other: ColourPotential) -> i32 {
    other.badness() - own.badness()
}

/// The index of a colour in per-colour arrays: 0 for Black, 1 for White.
#[inline]
pub fn colour_index(colour: Stone) -> usize {
    colour_index_of(colour as u8)
}

/// [`colour_index`] of a content byte (`Stone as u8`).
#[inline]
fn colour_index_of(colour: u8) -> usize {
    usize::from(colour == WHITE)
}

/// A board as a graph for potentials: neighbours in [`RING`] order, each colour's terminal
/// pairs, and each cell's distance from the centre for move ordering. See the module
/// documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Cell -> its neighbours in [`RING`] order, the sentinel (the last index) where the grid
    /// has no cell. The sentinel's own neighbours are all the sentinel.
    neighbours: Vec<[u16; 6]>,
    /// Cell -> twice its hex distance from the centre of the grid's bounding box.
    centre_distance: Vec<u16>,
    /// Per colour (see [`colour_index`]): pairs of terminal cells, one cell of each group to
    /// join.
    goals: [Vec<(u16, u16)>; 2],
}

impl Network {
    /// A network of `cells` cells at grid positions `position(cell)`, where `cell_at` finds
    /// the cell at a position (or `None`), with terminal pairs `goals` per colour.
    ///
    /// Panics if there are more than `MAX_CELLS - 1` cells.
    pub fn new(
        cells: usize,
        position: impl Fn(usize) -> (isize, isize),
        cell_at: impl Fn(isize, isize) -> Option<usize>,
        goals: [Vec<(u16, u16)>; 2],
    ) -> Network {
        assert!(
            cells < MAX_CELLS,
            "a network holds at most {} cells, not {cells}",
            MAX_CELLS - 1
        );
        let sentinel = cells as u16;
        let mut neighbours: Vec<[u16; 6]> = (0..cells)
            .map(|cell| {
                let (c, r) = position(cell);
                RING.map(|(dc, dr)| cell_at(c + dc, r + dr).map_or(sentinel, |n| n as u16))
            })
            .collect();
        neighbours.push([sentinel; 6]);
        let positions: Vec<(isize, isize)> = (0..cells).map(&position).collect();
        let low = positions
            .iter()
            .fold((isize::MAX, isize::MAX), |(c, r), p| {
                (c.min(p.0), r.min(p.1))
            });
        let high = positions
            .iter()
            .fold((isize::MIN, isize::MIN), |(c, r), p| {
                (c.max(p.0), r.max(p.1))
            });
        let mut centre_distance: Vec<u16> = positions
            .iter()
            .map(|&(c, r)| {
                let (dc, dr) = (2 * c - low.0 - high.0, 2 * r - low.1 - high.1);
                ((dc.abs() + dr.abs() + (dc + dr).abs()) / 2) as u16
            })
            .collect();
        centre_distance.push(u16::MAX);
        Network {
            neighbours,
            centre_distance,
            goals,
        }
    }

    /// Number of cells, the sentinel included.
    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    /// True for a network without cells (only the sentinel).
    pub fn is_empty(&self) -> bool {
        self.neighbours.len() == 1
    }

    /// The neighbours of `cell` in [`RING`] order (the sentinel, `len() - 1`, where none).
    #[inline]
    pub fn neighbours(&self, cell: usize) -> &[u16; 6] {
        &self.neighbours[cell]
    }

    /// Twice the hex distance of `cell` from the centre of the grid.
    #[inline]
    pub fn centre_distance(&self, cell: usize) -> u16 {
        self.centre_distance[cell]
    }

    /// If `to` is a neighbour of `from`: whether the two cells on either side of that step
    /// (the common neighbours of `from` and `to`) both satisfy `is_own`. When the opponent has
    /// just played `from`, this says that `to` saves a bridge between those two cells.
    pub fn saves_bridge(&self, from: usize, to: usize, is_own: impl Fn(usize) -> bool) -> bool {
        let ring = &self.neighbours[from];
        ring.iter()
            .position(|&n| n as usize == to)
            .is_some_and(|i| {
                is_own(ring[(i + 5) % 6] as usize) && is_own(ring[(i + 1) % 6] as usize)
            })
    }

    /// Computes both colours' potentials on the position `fill` writes, and hands them to
    /// `then`. `fill` receives one content byte per cell (sentinel excluded), all [`WALL`]
    /// to start with, and must write `Stone as u8` or [`WALL`] for each; every terminal cell
    /// must hold a stone of its colour.
    pub fn with_potentials<R>(
        &self,
        params: PotentialParams,
        fill: impl FnOnce(&mut [u8]),
        then: impl FnOnce(&Potentials<'_>) -> R,
    ) -> R {
        match self.len() {
            0..=256 => self.run::<256, R>(params, fill, then),
            257..=1024 => self.run::<1024, R>(params, fill, then),
            1025..=4096 => self.run::<4096, R>(params, fill, then),
            _ => self.run::<16384, R>(params, fill, then),
        }
    }

    /// [`Network::with_potentials`] with scratch arrays of capacity `N >= self.len()`, a power
    /// of two: `26 * N` bytes of stack (about 420 KB for boards beyond 4,096 cells).
    fn run<const N: usize, R>(
        &self,
        params: PotentialParams,
        fill: impl FnOnce(&mut [u8]),
        then: impl FnOnce(&Potentials<'_>) -> R,
    ) -> R {
        const { assert!(N.is_power_of_two()) };
        let n = self.len();
        let mut stones = [WALL; N];
        fill(&mut stones[..n - 1]);
        let mut group = [NONE; N];
        let mut next_member = [NONE; N];
        let mut base = [BLOCKED; N];
        let mut kind = [BLOCKED; N];
        let mut from_source = [NONE; N];
        let mut from_target = [NONE; N];
        let mut stamp = [NONE; N];
        let mut expanded = [0u8; N];
        let mut singles = [0u32; N];
        let mut doubles = [0u32; N];
        let mut black_cells = [UNREACHABLE; N];
        let mut white_cells = [UNREACHABLE; N];
        let mut work = Work {
            n,
            neighbours: &self.neighbours,
            stones: &stones,
            group: &mut group,
            next_member: &mut next_member,
            base: &mut base,
            kind: &mut kind,
            from_source: &mut from_source,
            from_target: &mut from_target,
            stamp: &mut stamp,
            expanded: &mut expanded,
            singles: &mut singles,
            doubles: &mut doubles,
        };
        label_groups(
            work.stones,
            work.neighbours,
            n,
            params.bridges,
            work.group,
            work.next_member,
            work.singles,
        );
        let penalty = params.single_route_penalty;
        let mut colour_potential = |colour: u8, cells: &mut [u16; N]| {
            let pairs = &self.goals[colour_index_of(colour)];
            let joined = pairs
                .iter()
                .any(|&(a, b)| work.joined(colour, a as usize, b as usize));
            if joined {
                ColourPotential {
                    potential: 0,
                    alternatives: 0,
                }
            } else {
                work.colour_potential(colour, pairs, penalty, cells)
            }
        };
        let colours = [
            colour_potential(BLACK, &mut black_cells),
            colour_potential(WHITE, &mut white_cells),
        ];
        then(&Potentials {
            colours,
            cell_potentials: [&black_cells[..n], &white_cells[..n]],
            centre_distance: &self.centre_distance,
        })
    }
}

/// Both colours' potentials on one position, with every empty cell's potential (the least over
/// the colour's terminal pairs) for move ordering.
pub struct Potentials<'a> {
    colours: [ColourPotential; 2],
    cell_potentials: [&'a [u16]; 2],
    centre_distance: &'a [u16],
}

impl Potentials<'_> {
    /// The potential of `colour` (Black or White).
    pub fn colour(&self, colour: Stone) -> ColourPotential {
        self.colours[colour_index(colour)]
    }

    /// The potential of `colour` through the empty cell `cell`: the least sum of the cell's
    /// distances from a terminal pair. [`UNREACHABLE`] when the cell is on no chain, or the
    /// colour is already joined.
    pub fn cell_potential(&self, colour: Stone, cell: usize) -> u16 {
        self.cell_potentials[colour_index(colour)][cell]
    }

    /// A move ordering key for the empty cell `cell` (smaller first): how far the cell is from
    /// the best chains of both colours (its potential above each colour's, summed, each capped
    /// at [`POTENTIAL_CAP`]), then its distance from the centre. Cells on a shortest chain of
    /// both colours come first.
    pub fn order_key(&self, cell: usize) -> u32 {
        let slack = |index: usize| {
            let best = self.colours[index].potential;
            let here = self.cell_potentials[index][cell];
            if here == UNREACHABLE || best == UNREACHABLE {
                u32::from(POTENTIAL_CAP)
            } else {
                u32::from((here - best).min(POTENTIAL_CAP))
            }
        };
        ((slack(0) + slack(1)) << 16) | u32::from(self.centre_distance[cell])
    }
}

/// Kind of an empty cell no finished cell has reached yet. The kinds of empty cells count
/// how many distinct finished cells reached them, up to two (1: reached once, scheduled as a
/// single route), so that `kind < REACHED_TWICE` says "reaching it again counts".
const UNREACHED: u8 = 0;

/// Kind of an empty cell reached twice (scheduled as a double route, or next to the source).
const REACHED_TWICE: u8 = 2;

/// Kind of an empty cell whose distance is final.
const FINISHED: u8 = 3;

/// Kind of a stone of the colour being measured.
const OWN: u8 = 4;

/// Kind of a cell the colour cannot use (the other colour, walls, the sentinel).
const BLOCKED: u8 = 5;

/// An index into the scratch arrays of capacity `N` (a power of two): the mask changes no
/// index below `N` (every cell index is below the network length, at most `N`), and lets the
/// compiler drop the bounds checks of the inner loops.
#[inline(always)]
fn ix<const N: usize>(index: usize) -> usize {
    index & (N - 1)
}

/// A queue entry: scheduled distance in the high half, cell in the low half, so that entries
/// compare by distance first.
#[inline(always)]
fn entry(distance: u32, cell: usize) -> u32 {
    (distance << 16) | cell as u32
}

/// Labels the groups of both colours in the first `n` cells: cells of one colour connected
/// through neighbours and, with `bridges`, through bridges with both carrier cells empty (then
/// they are chains). `group` (all `NONE` on entry) receives each stone's label, the first cell
/// of its group; `next_member` links each group's cells, from the label, ending with `NONE`.
/// `stack` is scratch.
fn label_groups<const N: usize>(
    stones: &[u8; N],
    neighbours: &[[u16; 6]],
    n: usize,
    bridges: bool,
    group: &mut [u16; N],
    next_member: &mut [u16; N],
    stack: &mut [u32; N],
) {
    for start in 0..n {
        let colour = stones[ix::<N>(start)];
        if (colour != BLACK && colour != WHITE) || group[ix::<N>(start)] != NONE {
            continue;
        }
        group[ix::<N>(start)] = start as u16;
        next_member[ix::<N>(start)] = NONE;
        stack[0] = start as u32;
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let cell = stack[ix::<N>(depth)] as usize;
            let ring = neighbours[cell];
            for i in 0..6 {
                let next = ring[i] as usize;
                let content = stones[ix::<N>(next)];
                let joined = if content == colour {
                    next
                } else if bridges
                    && content == EMPTY
                    && stones[ix::<N>(ring[(i + 1) % 6] as usize)] == EMPTY
                {
                    let partner = neighbours[next][(i + 1) % 6] as usize;
                    if stones[ix::<N>(partner)] != colour {
                        continue;
                    }
                    partner
                } else {
                    continue;
                };
                if group[ix::<N>(joined)] == NONE {
                    group[ix::<N>(joined)] = start as u16;
                    next_member[ix::<N>(joined)] = next_member[ix::<N>(start)];
                    next_member[ix::<N>(start)] = joined as u16;
                    stack[ix::<N>(depth)] = joined as u32;
                    depth += 1;
                }
            }
        }
    }
}

/// Scratch state of one potential computation: the stack arrays of [`Network::run`], of
/// capacity `N`, of which the first `n` entries (the network's cells) are used.
struct Work<'a, const N: usize> {
    n: usize,
    neighbours: &'a [[u16; 6]],
    stones: &'a [u8; N],
    /// Stone cell -> the first cell of its group (its label); `NONE` for other cells.
    group: &'a mut [u16; N],
    /// Stone cell -> the next cell of its group, `NONE` at the end. A group's list starts at
    /// its label.
    next_member: &'a mut [u16; N],
    /// For the colour being measured: `UNREACHED` (empty), `OWN` or `BLOCKED`.
    base: &'a mut [u8; N],
    /// During a pass: `base`, with empty cells going `UNREACHED` -> 1 -> `REACHED_TWICE` ->
    /// `FINISHED`.
    kind: &'a mut [u8; N],
    from_source: &'a mut [u16; N],
    from_target: &'a mut [u16; N],
    /// Cell -> the finished cell that last reached it (empty cells reached once or not at
    /// all), or that last expanded it (group labels).
    stamp: &'a mut [u16; N],
    /// Group label -> how many finished cells expanded the group (2 = no more needed).
    expanded: &'a mut [u8; N],
    /// Cells reached once, by scheduled distance (a FIFO, so in distance order); also the
    /// flood-fill stack of [`label_groups`].
    singles: &'a mut [u32; N],
    /// Cells reached twice (and the cells next to the source), by scheduled distance.
    doubles: &'a mut [u32; N],
}

impl<const N: usize> Work<'_, N> {
    /// Whether the stones `a` and `b` of `colour` are in one chain: joined through neighbours
    /// and bridges (both carrier cells empty). A depth-first search over the stones of
    /// `colour`, which leaves `stamp` dirty (passes reset it).
    fn joined(&mut self, colour: u8, a: usize, b: usize) -> bool {
        const SEEN: u16 = NONE - 1;
        let (a, b) = (ix::<N>(a), ix::<N>(b));
        if self.group[a] == self.group[b] {
            return true;
        }
        self.stamp[..self.n].fill(NONE);
        self.stamp[a] = SEEN;
        self.singles[0] = a as u32;
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let cell = self.singles[ix::<N>(depth)] as usize;
            let ring = self.neighbours[cell];
            for i in 0..6 {
                let next = ix::<N>(ring[i] as usize);
                let content = self.stones[next];
                let linked = if content == colour {
                    next
                } else if content == EMPTY
                    && self.stones[ix::<N>(ring[(i + 1) % 6] as usize)] == EMPTY
                {
                    ix::<N>(self.neighbours[next][(i + 1) % 6] as usize)
                } else {
                    continue;
                };
                if self.stones[linked] != colour || self.stamp[linked] == SEEN {
                    continue;
                }
                if linked == b {
                    return true;
                }
                self.stamp[linked] = SEEN;
                self.singles[ix::<N>(depth)] = linked as u32;
                depth += 1;
            }
        }
        false
    }

    /// The potential of `colour` over its terminal `pairs`, none of them joined, writing each
    /// empty cell's least potential over the pairs into `cells`.
    fn colour_potential(
        &mut self,
        colour: u8,
        pairs: &[(u16, u16)],
        penalty: u16,
        cells: &mut [u16; N],
    ) -> ColourPotential {
        let n = self.n;
        for cell in 0..n {
            let content = self.stones[ix::<N>(cell)];
            self.base[ix::<N>(cell)] = if content == EMPTY {
                UNREACHED
            } else if content == colour {
                OWN
            } else {
                BLOCKED
            };
        }
        for &(a, b) in pairs {
            let (a, b) = (
                self.group[a as usize] as usize,
                self.group[b as usize] as usize,
            );
            self.distances(a, b, penalty, true);
            self.distances(b, a, penalty, false);
            for cell in 0..n {
                let (x, y) = (
                    self.from_source[ix::<N>(cell)],
                    self.from_target[ix::<N>(cell)],
                );
                if x != NONE && y != NONE {
                    let sum = (u32::from(x) + u32::from(y)).min(u32::from(UNREACHABLE) - 1);
                    let best = &mut cells[ix::<N>(cell)];
                    *best = (*best).min(sum as u16);
                }
            }
        }
        let potential = cells[..n].iter().copied().min().unwrap_or(UNREACHABLE);
        let alternatives = if potential == UNREACHABLE {
            0
        } else {
            cells[..n]
                .iter()
                .filter(|&&p| p == potential)
                .count()
                .min(0xFFFF) as u16
        };
        ColourPotential {
            potential,
            alternatives,
        }
    }

    /// Distances of every empty cell from the group labelled `source` (into `from_source` if
    /// `into_source`, else `from_target`; `NONE` where unreachable), for the colour whose
    /// `node` classes are set. The group labelled `target` is not passed through. See the
    /// module documentation for the rule.
    ///
    /// Two FIFO queues make a priority queue: cells reached once are scheduled at
    /// `d + 1 + penalty` and cells reached twice at `d + 1`, where `d` is the distance of the
    /// cell that reached them; cells finish in increasing distance, so each queue receives
    /// entries in increasing order and the smaller of the two heads is always next.
    fn distances(&mut self, source: usize, target: usize, penalty: u16, into_source: bool) {
        let n = self.n;
        let Work {
            neighbours,
            group,
            next_member,
            base,
            kind,
            stamp,
            expanded,
            singles,
            doubles,
            ..
        } = self;
        let distance: &mut [u16; N] = if into_source {
            &mut *self.from_source
        } else {
            &mut *self.from_target
        };
        distance[..n].fill(NONE);
        kind[..n].copy_from_slice(&base[..n]);
        stamp[..n].fill(NONE);
        expanded[..n].fill(0);
        expanded[ix::<N>(source)] = 2;
        expanded[ix::<N>(target)] = 2;
        let (mut single_head, mut single_tail, mut double_head, mut double_tail) = (0, 0, 0, 0);
        let mut member = source;
        while member != NONE as usize {
            for &next in &neighbours[member] {
                let next = ix::<N>(next as usize);
                if kind[next] == UNREACHED {
                    kind[next] = REACHED_TWICE;
                    doubles[ix::<N>(double_tail)] = entry(1, next);
                    double_tail += 1;
                }
            }
            member = next_member[ix::<N>(member)] as usize;
        }
        let penalty = u32::from(penalty);
        // Reaches the empty cell `$next`, of kind `$reached` (below `REACHED_TWICE`), from a
        // cell finished at distance `$d`: schedules it as a single or a double route.
        macro_rules! reach {
            ($next:expr, $reached:expr, $d:expr) => {{
                let next: usize = $next;
                let reached: u8 = $reached;
                kind[next] = reached + 1;
                if reached == UNREACHED {
                    let at = $d + 1 + penalty;
                    if at <= MAX_DISTANCE {
                        singles[ix::<N>(single_tail)] = entry(at, next);
                        single_tail += 1;
                    }
                } else if penalty > 0 {
                    doubles[ix::<N>(double_tail)] = entry($d + 1, next);
                    double_tail += 1;
                }
            }};
        }
        loop {
            let next_entry = if double_head < double_tail
                && (single_head == single_tail
                    || doubles[ix::<N>(double_head)] <= singles[ix::<N>(single_head)])
            {
                double_head += 1;
                doubles[ix::<N>(double_head - 1)]
            } else if single_head < single_tail {
                single_head += 1;
                singles[ix::<N>(single_head - 1)]
            } else {
                break;
            };
            let cell = ix::<N>((next_entry & 0xFFFF) as usize);
            if kind[cell] == FINISHED {
                continue;
            }
            let d = next_entry >> 16;
            kind[cell] = FINISHED;
            distance[cell] = d as u16;
            // Empty neighbours first, stamped so that the groups' liberties skip them.
            let mut groups = [NONE; 6];
            let mut group_count = 0;
            for &next in &neighbours[cell] {
                let next = ix::<N>(next as usize);
                let reached = kind[next];
                if reached < REACHED_TWICE {
                    stamp[next] = cell as u16;
                    reach!(next, reached, d);
                } else if reached == OWN {
                    let label = group[next];
                    if expanded[ix::<N>(label as usize)] < 2 {
                        groups[group_count] = label;
                        group_count += 1;
                    }
                }
            }
            for &label in &groups[..group_count] {
                let label = ix::<N>(label as usize);
                if stamp[label] == cell as u16 {
                    continue;
                }
                stamp[label] = cell as u16;
                expanded[label] += 1;
                let mut member = label;
                while member != NONE as usize {
                    for &beyond in &neighbours[member] {
                        let beyond = ix::<N>(beyond as usize);
                        let reached = kind[beyond];
                        if reached < REACHED_TWICE && stamp[beyond] != cell as u16 {
                            stamp[beyond] = cell as u16;
                            reach!(beyond, reached, d);
                        }
                    }
                    member = next_member[ix::<N>(member)] as usize;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `columns x rows` Hex-like rhombus without frame, goals given by the caller.
    fn rhombus(columns: isize, rows: isize, goals: [Vec<(u16, u16)>; 2]) -> Network {
        Network::new(
            (columns * rows) as usize,
            |cell| (cell as isize % columns, cell as isize / columns),
            |c, r| {
                (c >= 0 && r >= 0 && c < columns && r < rows).then(|| (r * columns + c) as usize)
            },
            goals,
        )
    }

    fn potentials(network: &Network, params: PotentialParams, board: &str) -> [ColourPotential; 2] {
        let contents: Vec<u8> = board
            .split_whitespace()
            .flat_map(|row| row.bytes())
            .map(|b| match b {
                b'B' => BLACK,
                b'W' => WHITE,
                b'#' => WALL,
                _ => EMPTY,
            })
            .collect();
        network.with_potentials(
            params,
            |stones| stones.copy_from_slice(&contents),
            |p| [p.colour(Stone::Black), p.colour(Stone::White)],
        )
    }

    #[test]
    fn ring_directions_go_round() {
        for i in 0..6 {
            let (a, b) = (RING[i], RING[(i + 1) % 6]);
            let step = (b.0 - a.0, b.1 - a.1);
            assert!(RING.contains(&step), "{a:?} and {b:?} are not neighbours");
        }
    }

    #[test]
    fn plain_distance_counts_empty_cells() {
        // A corridor of 5 cells between two Black terminals: 3 empty cells to fill.
        let network = rhombus(5, 1, [vec![(0, 4)], vec![]]);
        let [black, _] = potentials(&network, PotentialParams::SHORTEST_PATH, "B...B");
        // Each empty cell: distance from one end + from the other = 3 + 1.
        assert_eq!(black.potential, 4);
        assert_eq!(black.alternatives, 3);
        // Two-distance: a corridor is cut by one stone, so nothing is trusted.
        let [black, _] = potentials(&network, PotentialParams::TWO_DISTANCE, "B...B");
        assert_eq!(black.potential, UNREACHABLE);
    }

    #[test]
    fn bridges_join_chains() {
        // Rows: B . / . B: the two stones share the empty cells (1,0) and (0,1).
        let network = rhombus(2, 2, [vec![(0, 3)], vec![]]);
        for params in [PotentialParams::DEFAULT, PotentialParams::SHORTEST_PATH] {
            let [joined, _] = potentials(&network, params, "B. .B");
            assert!(joined.joined());
        }
        // An intrusion breaks the bridge.
        let [broken, _] = potentials(&network, PotentialParams::DEFAULT, "BW .B");
        assert_eq!(broken.potential, 2);
        assert_eq!(broken.alternatives, 1);
    }

    #[test]
    fn distances_contract_chains_only_with_bridges() {
        // B at (0,0), bridged to B at (1,1); that one's bridge to the B target at (2,2) is
        // broken by W at (2,1). Over chains, (1,2) touches both the source chain and the
        // target: potential 1 + 1. Over groups, it is one step further from the source.
        let network = rhombus(3, 3, [vec![(0, 8)], vec![]]);
        let board = "B.. .BW ..B";
        let [chains, _] = potentials(&network, PotentialParams::SHORTEST_PATH, board);
        assert_eq!(chains.potential, 2);
        let groups = PotentialParams {
            bridges: false,
            ..PotentialParams::SHORTEST_PATH
        };
        let [groups, _] = potentials(&network, groups, board);
        assert_eq!(groups.potential, 3);
    }

    #[test]
    fn balance_is_antisymmetric() {
        let a = ColourPotential {
            potential: 5,
            alternatives: 7,
        };
        let b = ColourPotential {
            potential: 3,
            alternatives: 200,
        };
        let joined = ColourPotential {
            potential: 0,
            alternatives: 0,
        };
        assert_eq!(balance(a, b), -balance(b, a));
        assert_eq!(balance(b, a), 2 * POTENTIAL_UNIT + (POTENTIAL_UNIT - 1) - 7);
        assert!(balance(joined, a) > JOINED_BONUS);
        assert_eq!(balance(a, a), 0);
    }
}
