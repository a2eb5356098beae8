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
    .expect("an expanded node not proven has a child not proven")
    .0
}

/// The exploration constant of PUCT, for rewards in `0..=1`.
pub(super) const PUCT_EXPLORATION: f64 = 1.5;
/// How much worse than its parent's mean a move not yet tried is taken to be.
pub(super) const FIRST_PLAY_REDUCTION: f64 = 0.1;

/// The priors of `count` candidates ranked best first, into `priors`, at the precision a node
/// keeps them: each candidate's weight normalised over all, the weight of rank `rank` (0 the
/// best) `weights[rank]` (the evaluator's weights already times the rank's), or
/// `exp(-rank / width)` where `weights` is empty.
pub(super) fn rank_priors(count: usize, width: f64, weights: &[f64], priors: &mut Vec<f32>) {
    let weight = |rank: usize| {
        weights
            .get(rank)
            .copied()
            .unwrap_or_else(|| (-(rank as f64) / width).exp())
    };
    let total: f64 = (0..count).map(weight).sum();
    priors.clear();
    priors.extend((0..count).map(|rank| (weight(rank) / total) as f32));
}

/// Where PUCT sends the next playout from a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Choice {
    /// Through this child.
    Child(NodeId),
    /// Through the best of the unborn candidates, once it is made a child.
    Widen,
}

/// The child's value for selection with RAVE of equivalence `k`: its mean for the mover
/// (`mean`) blended with its all-moves-as-first mean for the mover (`amaf`), the AMAF value's
/// weight `beta = na / (n + na + n na / k)` of the `n` visits and `na` AMAF visits (the mean
/// and the AMAF value weigh the same at `n = k` visits and many AMAF visits; Gelly and
/// Silver's schedule). `None` without either.
pub(super) fn rave_blend(
    k: f64,
    visits: u32,
    mean: Option<f64>,
    amaf_visits: u32,
    amaf: Option<f64>,
) -> Option<f64> {
    match (mean, amaf) {
        (mean, None) => mean,
        (None, Some(amaf)) => Some(amaf),
        (Some(mean), Some(amaf)) => {
            let (n, na) = (f64::from(visits), f64::from(amaf_visits));
            let beta = na / (n + na + n * na / k);
            Some((1.0 - beta) * mean + beta * amaf)
        }
    }
}

/// The child of `parent` (expanded, not proven, `mover` to move) that the next playout goes
/// through by PUCT with the children's priors (their means blended with their AMAF values by
/// [`rave_blend`] with `rave`, the equivalence, where it is `Some`), or, if `may_widen`, [`Choice::Widen`] when the
/// best-ranked unborn candidate, not tried and with its prior ([`Node::unborn_prior`]), would
/// be chosen over every child not
/// proven: the choice PUCT makes with every candidate a child. Ties go to the earlier
/// candidate. `None` if there is no choice (every child proven, and no widening).
pub(super) fn select_puct<M: Copy>(
    tree: &Tree<M>,
    parent: NodeId,
    mover: Side,
    may_widen: bool,
    rave: Option<f64>,
) -> Option<Choice> {
    let node = tree.node(parent);
    let sqrt_visits = f64::from(node.visits.max(1)).sqrt();
    // The parent's mean is from its own side's view, the mover's opponent.
    let first_play = 1.0 - node.mean().unwrap_or(0.5) - FIRST_PLAY_REDUCTION;
    let value = |prior: f32, visits: u32, mean: Option<f64>| {
        mean.unwrap_or(first_play)
            + PUCT_EXPLORATION * f64::from(prior) * sqrt_visits / (1.0 + f64::from(visits))
    };
    let best = best_unproven(tree, parent, mover, |child, mean| {
        let mean = match rave {
            None => mean,
            Some(k) => {
                let amaf = child.amaf_mean().map(|amaf| {
                    if child.side == mover {
                        amaf
                    } else {
                        1.0 - amaf
                    }
                });
                rave_blend(k, child.visits, mean, child.amaf_visits, amaf)
            }
        };
        value(child.prior, child.visits, mean)
    });
    if may_widen && node.unborn > 0 {
        let unborn = value(node.unborn_prior, 0, None);
        if best.is_none_or(|(_, best)| unborn > best) {
            return Some(Choice::Widen);
        }
    }
    best.map(|(child, _)| Choice::Child(child))
}

/// The child of `parent` not proven yet nor pruned of the highest `value(child, mean)`, with that value,
/// where `mean` is the child's mean reward for `mover` (`None` before its first visit); ties
/// go to the earlier child. `None` if every child is proven or pruned.
fn best_unproven<M: Copy>(
    tree: &Tree<M>,
    parent: NodeId,
    mover: Side,
    value: impl Fn(&Node<M>, Option<f64>) -> f64,
) -> Option<(NodeId, f64)> {
    let node = tree.node(parent);
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for id in node.child_ids() {
        let child = tree.node(id);
        if child.proof.is_known() || child.pruned {
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
        if best.is_none() || value > best_value {
            best_value = value;
            best = Some(id);
        }
    }
    best.map(|id| (id, best_value))
}
