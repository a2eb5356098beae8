//! MCTS-Solver (Winands, Björnsson and Saito, 2008): game-theoretic values proven in the tree
//! and backed up. A node whose mover has a child proven won is won; a node all of whose
//! children are proven is worth the best of them for its mover. Proofs carry the plies to the
//! end, so that a won position plays the fastest win and a lost one the slowest loss.
//!
//! The proof covers the moves the tree holds (the evaluator's candidates), as alpha-beta's
//! does.

use zerosum_core::{Outcome, Score, Side};

use super::tree::{Node, NodeId, Tree};

/// A proven value, from the point of view of one side (a node's [`Node::side`]), with the
/// plies from the node's position to the end of the game under best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    Unknown,
    Win(u16),
    Loss(u16),
    Draw,
}

impl Proof {
    /// The same value from the other side's point of view.
    #[inline]
    pub fn flipped(self) -> Proof {
        match self {
            Proof::Win(d) => Proof::Loss(d),
            Proof::Loss(d) => Proof::Win(d),
            other => other,
        }
    }

    /// The value of a finished game for `side`.
    pub fn of_outcome(outcome: Outcome, side: Side) -> Proof {
        match outcome {
            Outcome::Draw => Proof::Draw,
            Outcome::Win(winner) if winner == side => Proof::Win(0),
            Outcome::Win(_) => Proof::Loss(0),
        }
    }

    /// The value for `side` of a position that `winner` has won, `plies` from the end.
    pub fn of_winner(winner: Side, side: Side, plies: usize) -> Proof {
        let plies = u16::try_from(plies).unwrap_or(u16::MAX);
        if winner == side {
            Proof::Win(plies)
        } else {
            Proof::Loss(plies)
        }
    }

    /// The value one ply further from the end.
    #[inline]
    fn one_ply_earlier(self) -> Proof {
        match self {
            Proof::Win(d) => Proof::Win(d.saturating_add(1)),
            Proof::Loss(d) => Proof::Loss(d.saturating_add(1)),
            other => other,
        }
    }

    /// True for a proven value.
    #[inline]
    pub fn is_known(self) -> bool {
        self != Proof::Unknown
    }

    /// The reward a playout through a node of this value gets, for the node's side.
    pub fn reward(self) -> Option<f64> {
        match self {
            Proof::Unknown => None,
            Proof::Win(_) => Some(1.0),
            Proof::Loss(_) => Some(0.0),
            Proof::Draw => Some(0.5),
        }
    }

    /// How good this value is for its side: wins above draws above losses, a faster win and a
    /// slower loss better; `None` for an unknown value.
    pub fn rank(self) -> Option<i32> {
        match self {
            Proof::Unknown => None,
            Proof::Win(d) => Some(Score::WIN - i32::from(d)),
            Proof::Loss(d) => Some(-(Score::WIN - i32::from(d))),
            Proof::Draw => Some(0),
        }
    }

    /// This value of a child, for the side that chose it, as the [`Score`] of the parent's
    /// position (one ply further from the end).
    pub fn score_one_ply_up(self) -> Option<Score> {
        match self {
            Proof::Unknown => None,
            Proof::Win(d) => Some(Score::win_in(usize::from(d) + 1)),
            Proof::Loss(d) => Some(Score::loss_in(usize::from(d) + 1)),
            Proof::Draw => Some(Score::DRAW),
        }
    }
}

/// A child's value for `mover`, the side choosing among the children.
#[inline]
pub(super) fn for_mover<M>(child: &Node<M>, mover: Side) -> Proof {
    if child.side == mover {
        child.proof
    } else {
        child.proof.flipped()
    }
}

/// Proves node `id` (expanded, with `mover` to move) from its children where they decide it:
/// won for the mover if a child is, else the best of the children once all are proven (and
/// every candidate is a child); and marks whether a child is a proven draw. Returns the
/// node's proof (for its own side).
pub(super) fn update<M: Copy>(tree: &mut Tree<M>, id: NodeId, mover: Side) -> Proof {
    let (proof, drawn) = from_children(tree, id, mover);
    let node = tree.node_mut(id);
    node.proof = proof;
    node.drawn_child = drawn;
    proof
}

/// The value of node `id` (expanded, with `mover` to move) from its children, for the node's
/// own side (see [`update`]), and whether a child is a proven draw.
fn from_children<M: Copy>(tree: &Tree<M>, id: NodeId, mover: Side) -> (Proof, bool) {
    let node = tree.node(id);
    let mut drawn = false;
    let mut best: Option<Proof> = None;
    let mut all_known = node.unborn == 0;
    for child in node.child_ids() {
        let value = for_mover(tree.node(child), mover);
        drawn |= value == Proof::Draw;
        match value.rank() {
            None => all_known = false,
            Some(rank) => {
                if best.is_none_or(|b| rank > b.rank().unwrap_or(i32::MIN)) {
                    best = Some(value);
                }
            }
        }
    }
    let for_mover = match best {
        Some(win @ Proof::Win(_)) => win,
        Some(value) if all_known => value,
        _ => return (Proof::Unknown, drawn),
    }
    .one_ply_earlier();
    let proof = if node.side == mover {
        for_mover
    } else {
        for_mover.flipped()
    };
    (proof, drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::tree::ROOT;

    #[test]
    fn a_winning_child_proves_the_parent_and_losses_wait_for_every_child() {
        let mut tree: Tree<u8> = Tree::new(10);
        tree.reset(Side::First);
        tree.expand(ROOT, &[1, 2, 3], Side::First, 0);
        let [a, b, c] = [1, 2, 3];
        assert_eq!(from_children(&tree, ROOT, Side::First).0, Proof::Unknown);
        tree.node_mut(a).proof = Proof::Loss(4);
        assert_eq!(from_children(&tree, ROOT, Side::First).0, Proof::Unknown);
        tree.node_mut(b).proof = Proof::Loss(2);
        tree.node_mut(c).proof = Proof::Loss(0);
        // Every move loses; the slowest loss counts. The root's side is the opponent.
        assert_eq!(from_children(&tree, ROOT, Side::First).0, Proof::Win(5));
        tree.node_mut(b).proof = Proof::Draw;
        assert_eq!(from_children(&tree, ROOT, Side::First), (Proof::Draw, true));
        tree.node_mut(a).proof = Proof::Unknown;
        tree.node_mut(c).proof = Proof::Win(2);
        assert_eq!(from_children(&tree, ROOT, Side::First).0, Proof::Loss(3));
    }

    #[test]
    fn losses_prove_nothing_while_a_candidate_is_unborn() {
        let mut tree: Tree<u8> = Tree::new(10);
        tree.reset(Side::First);
        tree.expand(ROOT, &[1, 2], Side::First, 1);
        tree.node_mut(1).proof = Proof::Loss(0);
        tree.node_mut(2).proof = Proof::Loss(2);
        assert_eq!(from_children(&tree, ROOT, Side::First).0, Proof::Unknown);
        tree.node_mut(2).proof = Proof::Win(0);
        assert_eq!(from_children(&tree, ROOT, Side::First).0, Proof::Loss(1));
    }
}
