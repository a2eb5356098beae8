//! MCTS-Solver (Winands, Björnsson and Saito, 2008): game-theoretic values proven in the tree
//! and backed up. A node whose mover has a child proven won is won; a node all of whose
//! children are proven is worth the best of them for its mover. Proofs carry the plies to the
//! end ([`TreeProof`]).
//!
//! The proof covers the moves the tree holds (the evaluator's candidates), as alpha-beta's
//! does.

use zerosum_core::Side;

use super::proof::TreeProof;
use super::tree::{Node, NodeId, Tree};

/// A child's value for `mover`, the side choosing among the children.
#[inline]
pub(super) fn for_mover<M>(child: &Node<M>, mover: Side) -> TreeProof {
    if child.side == mover {
        child.proof
    } else {
        child.proof.flipped()
    }
}

/// Proves node `id` (expanded, with `mover` to move) from its children where they decide it:
/// won for the mover if a child is, else the best of the children once all are proven (and
/// every candidate is a child), the pruned ones apart (see [`Node::pruned`]); and marks whether a child is a proven draw. Returns the
/// node's proof (for its own side).
pub(super) fn update<M: Copy>(tree: &mut Tree<M>, id: NodeId, mover: Side) -> TreeProof {
    let (proof, drawn) = from_children(tree, id, mover);
    let node = tree.node_mut(id);
    node.proof = proof;
    node.drawn_child = drawn;
    proof
}

/// The value of node `id` (expanded, with `mover` to move) from its children, for the node's
/// own side (see [`update`]), and whether a child is a proven draw.
fn from_children<M: Copy>(tree: &Tree<M>, id: NodeId, mover: Side) -> (TreeProof, bool) {
    let node = tree.node(id);
    let mut drawn = false;
    let mut best: Option<TreeProof> = None;
    let mut all_known = node.unborn == 0;
    for child in node.child_ids() {
        if tree.node(child).pruned {
            continue;
        }
        let value = for_mover(tree.node(child), mover);
        drawn |= value == TreeProof::Draw;
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
        Some(win @ TreeProof::Win(_)) => win,
        Some(value) if all_known => value,
        _ => return (TreeProof::Unknown, drawn),
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
        assert_eq!(
            from_children(&tree, ROOT, Side::First).0,
            TreeProof::Unknown
        );
        tree.node_mut(a).proof = TreeProof::Loss(4);
        assert_eq!(
            from_children(&tree, ROOT, Side::First).0,
            TreeProof::Unknown
        );
        tree.node_mut(b).proof = TreeProof::Loss(2);
        tree.node_mut(c).proof = TreeProof::Loss(0);
        // Every move loses; the slowest loss counts. The root's side is the opponent.
        assert_eq!(from_children(&tree, ROOT, Side::First).0, TreeProof::Win(5));
        tree.node_mut(b).proof = TreeProof::Draw;
        assert_eq!(
            from_children(&tree, ROOT, Side::First),
            (TreeProof::Draw, true)
        );
        tree.node_mut(a).proof = TreeProof::Unknown;
        tree.node_mut(c).proof = TreeProof::Win(2);
        assert_eq!(
            from_children(&tree, ROOT, Side::First).0,
            TreeProof::Loss(3)
        );
    }

    #[test]
    fn losses_prove_nothing_while_a_candidate_is_unborn() {
        let mut tree: Tree<u8> = Tree::new(10);
        tree.reset(Side::First);
        tree.expand(ROOT, &[1, 2], Side::First, 1);
        tree.node_mut(1).proof = TreeProof::Loss(0);
        tree.node_mut(2).proof = TreeProof::Loss(2);
        assert_eq!(
            from_children(&tree, ROOT, Side::First).0,
            TreeProof::Unknown
        );
        tree.node_mut(2).proof = TreeProof::Win(0);
        assert_eq!(
            from_children(&tree, ROOT, Side::First).0,
            TreeProof::Loss(1)
        );
    }
}
