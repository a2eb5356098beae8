//! The clock is a hard stop: on the largest board of every family, in the middle of a game, a
//! search given 2 ms returns a legal move at once (within a generous watchdog), so no step of
//! any evaluator (Hex and Atoll potentials, m,n,k threats and VCF, Unstable chains) runs long
//! between two looks at the clock.

use crate::common::quick_searches_answer_at_once;

#[test]
fn a_search_of_2_ms_answers_at_once_on_every_family() {
    quick_searches_answer_at_once(
        &[
            "gomoku",
            "mnk:70x70x10",
            "connect4",
            "connectx:100x100x30",
            "hex:11",
            "hex:19",
            "atoll:standard",
            "unstable:10x6",
            "unstable:30x30",
        ],
        1,
    );
}
