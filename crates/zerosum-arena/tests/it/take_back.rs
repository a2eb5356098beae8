//! A take-back (a person typing `undo`): the referee takes back the last move of each side,
//! tells its observer, and asks the same player again; a take-back into the opening is not
//! granted, and the game goes on as asked.

use std::collections::VecDeque;

use zerosum_arena::{
    play_game, play_game_from, GameSetup, MoveAnswer, MoveRequest, Player, PlayerError,
    RefereeEvent, RefereeOptions, Termination, TimeControl,
};
use zerosum_core::{Outcome, Side};

/// Answers from a script: a move, or `undo` for a take-back.
struct Scripted(VecDeque<&'static str>);

impl Scripted {
    fn boxed(script: &[&'static str]) -> Box<dyn Player> {
        Box::new(Scripted(script.iter().copied().collect()))
    }
}

impl Player for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }

    fn new_game(&mut self, _: &GameSetup) -> Result<(), PlayerError> {
        Ok(())
    }

    fn choose(&mut self, _: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        match self.0.pop_front() {
            Some("undo") => Err(PlayerError::TakeBack),
            Some(mv) => Ok(MoveAnswer::new(mv)),
            None => Err(PlayerError::Failed("out of script".into())),
        }
    }
}

fn options() -> RefereeOptions {
    RefereeOptions {
        time: TimeControl::per_move(10.0),
        max_moves: None,
        adjudicate_nodes: None,
    }
}

#[test]
fn a_take_back_undoes_a_move_of_each_side_and_the_game_goes_on() {
    let mut taken = Vec::new();
    let mut plies_after = Vec::new();
    let played = play_game(
        &"tictactoe".parse().unwrap(),
        [
            Scripted::boxed(&["a1", "undo", "b2", "a1", "c3"]),
            Scripted::boxed(&["b1", "a2", "a3"]),
        ],
        &options(),
        1,
        &mut |event| {
            if let RefereeEvent::TookBack { game, moves } = event {
                taken.push(moves.to_vec());
                plies_after.push((game.ply(), game.to_move()));
            }
        },
    );
    assert_eq!(taken, [["a1", "b1"]]);
    assert_eq!(plies_after, [(0, Side::First)]);
    assert_eq!(played.moves, ["b2", "a2", "a1", "a3", "c3"]);
    assert_eq!(
        played.move_ms.len(),
        5,
        "the taken-back turns leave no times"
    );
    assert_eq!(played.outcome, Outcome::Win(Side::First));
    assert_eq!(played.termination, Termination::Normal);
}

#[test]
fn the_opening_is_not_taken_back() {
    let mut took_back = false;
    let played = play_game_from(
        &"tictactoe".parse().unwrap(),
        &["a1".to_string(), "b1".to_string()],
        [
            Scripted::boxed(&["undo", "b2", "c3"]),
            Scripted::boxed(&["a3"]),
        ],
        &options(),
        1,
        &mut |event| took_back |= matches!(event, RefereeEvent::TookBack { .. }),
    );
    assert!(!took_back);
    assert_eq!(played.moves, ["a1", "b1", "b2", "a3", "c3"]);
    assert_eq!(played.outcome, Outcome::Win(Side::First));
}
