//! A proof kept from move to move: the proven line's next move while play follows it, the
//! table's proven wins once the opponent leaves it.

use zerosum_core::{Game, Score};
use zerosum_games::{mnk::Mnk, EvaluatedGame};
use zerosum_search::{Algorithm, ProvenLine, SearchLimits, Searcher};

#[test]
fn a_proven_win_prescribes_the_line_then_the_tables_wins() {
    // X in a corner, O beside it: X wins in 5 plies.
    let mut game = Mnk::<1>::new(3, 3, 3);
    game.play_list("a1,b1").unwrap();
    let mut searcher = Searcher::new(game.evaluator(), Algorithm::Pvs, 4);
    let result = searcher.search(&game, &SearchLimits::default(), |_| {});
    assert_eq!(result.score, Score::win_in(5));
    let proof = ProvenLine::of_search(&game, &result).expect("a proven win");
    assert_eq!(proof.score(), Score::win_in(5));
    let table = searcher.table().clone();
    // Nothing to prescribe before the opponent has answered.
    assert_eq!(proof.next_move(&mut game, &table), None);

    // Along the line: its next move, two plies nearer the win.
    let mut along = game.clone();
    along.play(result.pv[0]);
    along.play(result.pv[1]);
    let next = proof
        .next_move(&mut along, &table)
        .expect("the line goes on");
    assert_eq!(next.score, Score::win_in(3));
    if result.pv.len() > 2 {
        assert_eq!(next.mv, result.pv[2]);
    }

    // Every other reply: a move the table proves winning, and it wins.
    let mut replies = Vec::new();
    let mut after = game.clone();
    after.play(result.pv[0]);
    after.legal_moves(&mut replies);
    for reply in replies {
        after.play(reply);
        let proven = proof
            .next_move(&mut after, &table)
            .unwrap_or_else(|| panic!("no proven move after {}", after.format_move(reply)));
        assert!(proven.score >= Score::win_in(3), "{proven:?}");
        after.play(proven.mv);
        let check = searcher.search(&after, &SearchLimits::default(), |_| {});
        assert!(check.score <= -Score::win_in(2) || after.status().is_over());
        after.undo();
        after.undo();
    }
}
