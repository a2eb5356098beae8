//! The tree of a Monte Carlo search: an arena of nodes in one `Vec`, linked by index. The
//! children of a node live in one contiguous run, so a node names them by the index of the
//! first and their count, and the arena grows by amortised pushes (no allocation per node).
//! A node may hold only its best-ranked candidates as children at first ([`Node::unborn`]
//! counts the others): when the search needs more, [`Tree::widen`] moves the run to the end
//! of the arena with room for the next ones (the old run is left unused). The arena has a
//! capacity, from the memory the search may use; once it is full the tree stops growing and
//! the search goes on with playouts from its leaves.

use zerosum_core::Side;

use super::proof::TreeProof;

/// Index of a node in the arena.
pub(super) type NodeId = u32;

/// The root is always the first node of the arena.
pub(super) const ROOT: NodeId = 0;

/// One position of the tree.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<M> {
    /// The move that leads here from the parent (`None` at the root).
    pub mv: Option<M>,
    /// The side that played [`Node::mv`]: rewards and proofs of this node are from its view.
    pub side: Side,
    /// Playouts through this node.
    pub visits: u32,
    /// Sum of the playouts' rewards for [`Node::side`] (1 a win, 0 a loss, ½ a draw).
    pub reward: f64,
    /// With RAVE, the playouts through the parent in which [`Node::side`] played this node's
    /// move later (all moves as first)...
    pub amaf_visits: u32,
    /// ...and the sum of their rewards for [`Node::side`].
    pub amaf_reward: f32,
    /// The value proven for [`Node::side`], if any.
    pub proof: TreeProof,
    /// Index of the first child, when expanded.
    pub first_child: NodeId,
    /// Number of children (0 until expanded).
    pub children: u32,
    /// Candidates of this position not created as children yet: they rank after every child
    /// (0 until expanded, and once every candidate is a child).
    pub unborn: u32,
    /// Whether the children have been created.
    pub expanded: bool,
    /// Whether a child is proven a draw: the mover here can hold the draw, so playouts
    /// through here count at least as a draw for the mover.
    pub drawn_child: bool,
    /// The share of the parent's playouts this move deserves before any is played (PUCT's
    /// prior, see [`Evaluator::mcts_prior_width`](zerosum_core::Evaluator::mcts_prior_width));
    /// 0 where the search has no priors.
    pub prior: f32,
    /// The prior of the best-ranked unborn candidate (0 without one).
    pub unborn_prior: f32,
    /// Whether the evaluator's analysis ([`Evaluator::analyse`](zerosum_core::Evaluator::analyse))
    /// of this position has been applied to its children.
    pub analysed: bool,
    /// Whether the analysis of the parent called this move inferior: never better than a
    /// sibling not pruned, or lost. Never chosen, and no part of the parent's proof.
    pub pruned: bool,
}

impl<M> Node<M> {
    pub fn new(mv: Option<M>, side: Side) -> Self {
        Node {
            mv,
            side,
            visits: 0,
            reward: 0.0,
            amaf_visits: 0,
            amaf_reward: 0.0,
            proof: TreeProof::Unknown,
            first_child: 0,
            children: 0,
            unborn: 0,
            expanded: false,
            drawn_child: false,
            prior: 0.0,
            unborn_prior: 0.0,
            analysed: false,
            pruned: false,
        }
    }

    /// The children's indices.
    #[inline]
    pub fn child_ids(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.children
    }

    /// Mean reward for [`Node::side`]; `None` before the first visit.
    #[inline]
    pub fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.reward / f64::from(self.visits))
    }

    /// Mean all-moves-as-first reward for [`Node::side`]; `None` before the first.
    #[inline]
    pub fn amaf_mean(&self) -> Option<f64> {
        (self.amaf_visits > 0).then(|| f64::from(self.amaf_reward) / f64::from(self.amaf_visits))
    }
}

/// The arena.
#[derive(Debug)]
pub(super) struct Tree<M> {
    nodes: Vec<Node<M>>,
    /// Most nodes the arena may hold.
    capacity: usize,
    /// Scratch of [`Tree::reroot`]: the arena being built, and the queue of nodes to copy.
    spare: Vec<Node<M>>,
    queue: Vec<(NodeId, NodeId)>,
}

impl<M: Copy> Tree<M> {
    /// An empty tree that may hold `capacity` nodes (at least a root and its children).
    pub fn new(capacity: usize) -> Self {
        Tree {
            nodes: Vec::new(),
            capacity: capacity.max(2),
            spare: Vec::new(),
            queue: Vec::new(),
        }
    }

    /// Starts afresh from a root whose mover is `to_move`.
    pub fn reset(&mut self, to_move: Side) {
        self.nodes.clear();
        self.nodes.push(Node::new(None, to_move.opponent()));
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.max(2);
    }

    /// Whether `count` more nodes fit.
    #[inline]
    pub fn has_room(&self, count: usize) -> bool {
        self.nodes.len() + count <= self.capacity
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<M> {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<M> {
        &mut self.nodes[id as usize]
    }

    /// Creates the children of `parent`, one per move of `moves`, each played by `side`, and
    /// counts `unborn` candidates ranked after them. The caller has checked
    /// [`Tree::has_room`].
    pub fn expand(&mut self, parent: NodeId, moves: &[M], side: Side, unborn: usize) {
        let first = self.nodes.len() as NodeId;
        self.nodes
            .extend(moves.iter().map(|&mv| Node::new(Some(mv), side)));
        let node = &mut self.nodes[parent as usize];
        node.first_child = first;
        node.children = moves.len() as u32;
        node.unborn = unborn as u32;
        node.expanded = true;
    }

    /// Adds the children of `more` (the next of `parent`'s unborn candidates, in rank order,
    /// each played by `side`) after its children, which move with their statistics to the
    /// end of the arena. The caller has checked [`Tree::has_room`] for the children and
    /// `more`.
    pub fn widen(&mut self, parent: NodeId, more: &[M], side: Side) {
        let node = self.nodes[parent as usize];
        let first = self.nodes.len() as NodeId;
        let children = node.child_ids();
        self.nodes
            .extend_from_within(children.start as usize..children.end as usize);
        self.nodes
            .extend(more.iter().map(|&mv| Node::new(Some(mv), side)));
        let node = &mut self.nodes[parent as usize];
        node.first_child = first;
        node.children += more.len() as u32;
        node.unborn = node.unborn.saturating_sub(more.len() as u32);
    }

    /// The child of `parent` reached by `mv`, if it was created.
    pub fn child_by_move(&self, parent: NodeId, mv: M) -> Option<NodeId>
    where
        M: PartialEq,
    {
        self.node(parent)
            .child_ids()
            .find(|&id| self.node(id).mv == Some(mv))
    }

    /// Keeps only the subtree under `new_root`, which becomes the root ([`ROOT`]); the
    /// others are dropped. Children stay contiguous (copied breadth first).
    pub fn reroot(&mut self, new_root: NodeId) {
        if new_root == ROOT {
            return;
        }
        let mut fresh = std::mem::take(&mut self.spare);
        fresh.clear();
        let mut root = self.nodes[new_root as usize];
        root.mv = None;
        fresh.push(root);
        self.queue.clear();
        self.queue.push((new_root, ROOT));
        let mut next = 0;
        while next < self.queue.len() {
            let (old, new) = self.queue[next];
            next += 1;
            let node = self.nodes[old as usize];
            if !node.expanded {
                continue;
            }
            let first = fresh.len() as NodeId;
            fresh[new as usize].first_child = first;
            for (i, child) in node.child_ids().enumerate() {
                fresh.push(self.nodes[child as usize]);
                self.queue.push((child, first + i as NodeId));
            }
        }
        self.spare = std::mem::replace(&mut self.nodes, fresh);
        self.spare.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rerooting_keeps_the_subtree_with_its_statistics() {
        let mut tree: Tree<u8> = Tree::new(100);
        tree.reset(Side::First);
        tree.expand(ROOT, &[1, 2, 3], Side::First, 0);
        let two = tree.child_by_move(ROOT, 2).unwrap();
        tree.expand(two, &[4, 5], Side::Second, 0);
        let five = tree.child_by_move(two, 5).unwrap();
        tree.node_mut(five).visits = 7;
        tree.expand(five, &[6], Side::First, 0);
        assert_eq!(tree.len(), 7);
        tree.reroot(two);
        assert_eq!(tree.len(), 4);
        assert_eq!(tree.node(ROOT).mv, None);
        let five = tree.child_by_move(ROOT, 5).unwrap();
        assert_eq!(tree.node(five).visits, 7);
        let six = tree.child_by_move(five, 6).unwrap();
        assert_eq!(tree.node(six).side, Side::First);
        assert!(!tree.node(six).expanded);
        assert!(!tree.has_room(97));
    }

    #[test]
    fn widening_moves_the_children_with_their_subtrees_and_adds_the_next() {
        let mut tree: Tree<u8> = Tree::new(100);
        tree.reset(Side::First);
        tree.expand(ROOT, &[1, 2], Side::First, 3);
        let two = tree.child_by_move(ROOT, 2).unwrap();
        tree.node_mut(two).visits = 5;
        tree.expand(two, &[4], Side::Second, 0);
        tree.widen(ROOT, &[3, 7], Side::First);
        let root = *tree.node(ROOT);
        assert_eq!((root.children, root.unborn), (4, 1));
        let moves: Vec<_> = root.child_ids().map(|id| tree.node(id).mv).collect();
        assert_eq!(moves, [Some(1), Some(2), Some(3), Some(7)]);
        let two = tree.child_by_move(ROOT, 2).unwrap();
        assert_eq!(tree.node(two).visits, 5);
        assert!(tree.child_by_move(two, 4).is_some());
        assert_eq!(tree.node(tree.child_by_move(ROOT, 7).unwrap()).visits, 0);
    }
}
