//! Guest seats: a player the program running the tournament brings itself (the Python
//! package's functions) plays a run through `Run::seat_guest`; an empty guest seat forfeits
//! each game with the reason; only a guest seat can be taken.

use std::sync::Arc;

use zerosum_arena::run::{Run, RunReport};
use zerosum_arena::{
    Format, GameSetup, MoveAnswer, MoveRequest, Player, PlayerError, TimeControl,
    TournamentSettings,
};
use zerosum_games::new_game;

struct Quiet;
impl RunReport for Quiet {}

/// Plays the first legal move.
struct FirstLegal(Option<zerosum_games::GameSpec>);

impl Player for FirstLegal {
    fn name(&self) -> String {
        "first".into()
    }
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.0 = Some(setup.spec.clone());
        Ok(())
    }
    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        let mut game = new_game(self.0.as_ref().unwrap()).unwrap();
        for mv in request.moves.iter() {
            game.play(mv).unwrap();
        }
        Ok(MoveAnswer::new(game.legal_moves()[0].clone()))
    }
}

fn run() -> Run {
    let settings = TournamentSettings::new(
        vec!["guest:name=visitor".into(), "random".into()],
        vec!["tictactoe".into()],
        Format::Match { games: 2 },
        TimeControl::per_move(1.0),
        5,
    );
    Run::unrecorded(settings, 1).unwrap()
}

#[test]
fn a_seated_guest_plays_its_games() {
    let mut run = run();
    run.seat_guest(
        0,
        Arc::new(|| Box::new(FirstLegal(None)) as Box<dyn Player>),
    )
    .unwrap();
    let played = run.play(&mut Quiet).unwrap();
    assert_eq!(played.records.len(), 2);
    for record in &played.records {
        assert!(!record.reason.contains("forfeit"), "{}", record.reason);
        assert!(record.moves.len() >= 5, "{:?}", record.moves);
    }
}

#[test]
fn an_empty_guest_seat_forfeits_with_the_reason() {
    let played = run().play(&mut Quiet).unwrap();
    assert_eq!(played.records.len(), 2);
    for record in &played.records {
        assert!(
            record.reason.contains("guest seat"),
            "{:?}: {}",
            record.termination,
            record.reason
        );
    }
}

#[test]
fn only_a_guest_seat_can_be_taken() {
    let mut run = run();
    let factory = || Arc::new(|| Box::new(FirstLegal(None)) as Box<dyn Player>);
    let error = run.seat_guest(1, factory()).unwrap_err().to_string();
    assert!(
        error.contains("player 2 (`random`) is not a guest seat"),
        "{error}"
    );
    let error = run.seat_guest(2, factory()).unwrap_err().to_string();
    assert!(error.contains("no player 3"), "{error}");
}
