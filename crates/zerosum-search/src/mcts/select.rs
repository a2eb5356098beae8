//! Selection: which child a playout goes through. UCT (Kocsis and Szepesvári): the child's
//! mean reward for the mover plus an exploration term, every child tried once first (in the
//! evaluator's candidate order, best first). With the solver's rules, only children not yet
//! proven are chosen: a proven loss is never played, a proven win has proven the parent, and
//! a proven draw is the mover's floor (see [`crate::mcts::tree::Node::drawn_child`]), so the
//! playouts look for better among the others.

use zerosum_core::Side;

use super::tree::{Node, NodeId, Tree};

/// The exploration constant of UCT, for rewards in `0..=1`.
pub(super) const EXPLORATION: f64 = 0.7;

/// The child of `parent` (expanded, not proven, so with a child not proven, and `mover` to
/// move) that the next playout goes through. Ties go to the earlier child, so selection is
/// deterministic.
pub(super) fn select<M: Copy>(tree: &Tree<M>, parent: NodeId, mover: Side) -> NodeId {
    let log_visits = f64::from(tree.node(parent).visits.max(1)).ln();
    best_unproven(tree, parent, mover, |child, mean| match mean {
        // Every child once before any twice.
        None => f64::INFINITY,
        Some(mean) => mean + EXPLORATION * (log_visits / f64::from(child.visits)).sqrt(),
    })
}

/// The exploration constant of PUCT, for rewards in `0..=1`.
pub(super) const PUCT_EXPLORATION: f64 = 1.5;
/// How much worse than its parent's mean a move not yet tried is taken to be.
pub(super) const FIRST_PLAY_REDUCTION: f64 = 0.1;

/// The child of `parent` (as for [`select`]) by PUCT with the children's priors. Ties go to
/// the earlier child.
pub(super) fn select_puct<M: Copy>(tree: &Tree<M>, parent: NodeId, mover: Side) -> NodeId {
    let node = tree.node(parent);
    let sqrt_visits = f64::from(node.visits.max(1)).sqrt();
    // The parent's mean is from its own side's view, the mover's opponent.
    let first_play = 1.0 - node.mean().unwrap_or(0.5) - FIRST_PLAY_REDUCTION;
    best_unproven(tree, parent, mover, |child, mean| {
        mean.unwrap_or(first_play)
            + PUCT_EXPLORATION * f64::from(child.prior) * sqrt_visits
                / (1.0 + f64::from(child.visits))
    })
}

/// The child of `parent` not proven yet of the highest `value(child, mean)`, where `mean` is
/// the child's mean reward for `mover` (`None` before its first visit); ties go to the earlier
/// child. Precondition: `parent` has a child not proven.
fn best_unproven<M: Copy>(
    tree: &Tree<M>,
    parent: NodeId,
    mover: Side,
    value: impl Fn(&Node<M>, Option<f64>) -> f64,
) -> NodeId {
    let node = tree.node(parent);
    let mut best = node.first_child;
    let mut best_value = f64::NEG_INFINITY;
    for id in node.child_ids() {
        let child = tree.node(id);
        if child.proof.is_known() {
            continue;
        }
        let mean = child.mean().map(|mean| {
            if child.side == mover {
                mean
            } else {
                1.0 - mean
            }
        });
        let value = value(child, mean);
        if value > best_value {
            best_value = value;
            best = id;
        }
    }
    best
}
