//! Selection: which child a playout goes through. UCT (Kocsis and Szepesvári): the child's
//! mean reward for the mover plus an exploration term, every child tried once first (in the
//! evaluator's candidate order, best first). With the solver's rules: a child proven lost for
//! the mover is never chosen while another is not, a proven draw counts as a reward of ½.

use zerosum_core::Side;

use super::proof::{for_mover, Proof};
use super::tree::{NodeId, Tree};

/// The exploration constant of UCT, for rewards in `0..=1`.
pub(super) const EXPLORATION: f64 = 0.7;

/// The child of `parent` (expanded, not proven, with `mover` to move) that the next playout
/// goes through. Ties go to the earlier child, so selection is deterministic.
pub(super) fn select<M: Copy>(tree: &Tree<M>, parent: NodeId, mover: Side) -> NodeId {
    let node = tree.node(parent);
    let log_visits = f64::from(node.visits.max(1)).ln();
    let mut best = node.first_child;
    let mut best_value = f64::NEG_INFINITY;
    for id in node.child_ids() {
        let child = tree.node(id);
        let value = match for_mover(child, mover) {
            Proof::Loss(_) => continue,
            // Only reached when it is the best left (the parent is then proven): take it.
            Proof::Win(_) => f64::INFINITY,
            _ if child.visits == 0 => return id,
            proof => {
                let mean = match proof {
                    Proof::Draw => 0.5,
                    _ => {
                        let mean = child.reward / f64::from(child.visits);
                        if child.side == mover {
                            mean
                        } else {
                            1.0 - mean
                        }
                    }
                };
                mean + EXPLORATION * (log_visits / f64::from(child.visits)).sqrt()
            }
        };
        if value > best_value {
            best_value = value;
            best = id;
        }
    }
    best
}
