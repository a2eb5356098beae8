//! The referee against players that misbehave: each is forfeited with the right reason, its
//! opponent wins, and a tournament with all of them finishes.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use zerosum_arena::tournament::round_robin;
use zerosum_arena::{
    play_game, Entrant, GameSetup, MoveAnswer, MoveRequest, Player, PlayerError, PlayerSpec,
    RefereeOptions, Scoring, Standings, Termination, TimeControl, Tournament, TournamentEvent,
};
use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

/// How a test player misbehaves on its second move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// Answers after three times the limit.
    Sleeps,
    /// Answers a cell that is not on the board.
    Illegal,
    /// Answers a cell that is taken.
    Occupied,
    /// Panics.
    Panics,
    /// Gives up with an error.
    Fails,
    /// Never answers.
    Silent,
}

/// Plays the first legal move in the list, and misbehaves on its second move.
struct Faulty {
    fault: Fault,
    turns: usize,
    spec: Option<GameSpec>,
}

impl Faulty {
    fn boxed(fault: Fault) -> Box<dyn Player> {
        Box::new(Faulty {
            fault,
            turns: 0,
            spec: None,
        })
    }
}

impl Player for Faulty {
    fn name(&self) -> String {
        format!("{:?}", self.fault).to_lowercase()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.turns = 0;
        self.spec = Some(setup.spec.clone());
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        self.turns += 1;
        let mut game = zerosum_games::new_game(self.spec.as_ref().unwrap()).unwrap();
        for mv in request.moves.iter() {
            game.play(mv).unwrap();
        }
        let first_legal = game.legal_moves()[0].clone();
        if self.turns < 2 {
            return Ok(MoveAnswer::new(first_legal));
        }
        match self.fault {
            Fault::Sleeps => {
                thread::sleep(request.limit.unwrap() * 3);
                Ok(MoveAnswer::new(first_legal))
            }
            Fault::Illegal => Ok(MoveAnswer::new("z99")),
            Fault::Occupied => Ok(MoveAnswer::new(request.moves[0].clone())),
            Fault::Panics => panic!("the player broke"),
            Fault::Fails => Err(PlayerError::Failed("out of ideas".into())),
            Fault::Silent => loop {
                thread::sleep(Duration::from_secs(3600));
            },
        }
    }
}

fn options() -> RefereeOptions {
    RefereeOptions {
        time: TimeControl::per_move(0.1),
        max_moves: None,
        adjudicate_nodes: None,
    }
}

fn quasi() -> Box<dyn Player> {
    "quasi".parse::<PlayerSpec>().unwrap().build()
}

#[test]
fn each_fault_is_forfeited_with_its_reason() {
    let spec: GameSpec = "mnk:5x5x4".parse().unwrap();
    let expected = [
        (Fault::Sleeps, Termination::Timeout, "timed out"),
        (Fault::Illegal, Termination::IllegalMove, "off the board"),
        (Fault::Occupied, Termination::IllegalMove, "illegal move"),
        (
            Fault::Panics,
            Termination::Crash,
            "panicked: the player broke",
        ),
        (Fault::Fails, Termination::Crash, "failed: out of ideas"),
        (Fault::Silent, Termination::Stalled, "did not answer"),
    ];
    for (fault, termination, words) in expected {
        for side in [Side::First, Side::Second] {
            let players = match side {
                Side::First => [Faulty::boxed(fault), quasi()],
                Side::Second => [quasi(), Faulty::boxed(fault)],
            };
            let played = play_game(&spec, players, &options(), 7, &mut |_| {});
            assert_eq!(
                played.termination, termination,
                "{fault:?} as {side}: {played:?}"
            );
            assert_eq!(played.outcome, Outcome::Win(!side), "{fault:?} as {side}");
            assert!(
                played.reason.contains(words) && played.reason.starts_with(side.name()),
                "{fault:?} as {side}: reason `{}`",
                played.reason
            );
            // The faulty player's first move counts; the failing one does not.
            assert_eq!(played.moves.len(), 2 + side.index(), "{fault:?} as {side}");
        }
    }
}

#[test]
fn a_tournament_of_misbehaving_players_finishes() {
    let faults = [Fault::Sleeps, Fault::Illegal, Fault::Panics, Fault::Silent];
    let mut entrants = vec![Entrant::from_spec(
        &"quasi".parse().unwrap(),
        "quasi".into(),
    )];
    for fault in faults {
        entrants.push(Entrant {
            name: format!("{fault:?}"),
            factory: Arc::new(move || Faulty::boxed(fault)),
        });
    }
    let specs: Vec<GameSpec> = vec!["tictactoe".parse().unwrap()];
    let tournament = Tournament {
        games: round_robin(entrants.len(), &specs, 1, 1),
        entrants,
        options: options(),
        concurrency: 2,
        observer: None,
        openings: Vec::new(),
    };
    let mut finished = Vec::new();
    tournament.run(&HashSet::new(), |event| {
        if let TournamentEvent::Finished(record) = event {
            finished.push(*record);
        }
        ControlFlow::Continue(())
    });
    // 5 players: 10 pairs, 20 games; every game ends by the fault of whoever failed first,
    // and quasi never loses one.
    assert_eq!(finished.len(), 20);
    let games: HashSet<usize> = finished.iter().map(|r| r.game).collect();
    assert_eq!(games.len(), 20);
    for record in &finished {
        if record.first == 0 || record.second == 0 {
            assert_eq!(record.winner(), Some(0), "{record:?}");
            assert!(record.termination.is_forfeit(), "{record:?}");
        }
    }
    // The schemes' points: quasi wins its 8 games by forfeit, 3 each under cx, 2 under mnk;
    // each faulty player lost both games against quasi by its own fault.
    let names: Vec<&str> = tournament
        .entrants
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    for (scoring, per_win) in [(Scoring::Cx, 3), (Scoring::Mnk, 2)] {
        let standings = Standings::compute(&names, &finished, scoring).unwrap();
        let quasi = standings
            .players
            .iter()
            .find(|p| p.name == "quasi")
            .unwrap();
        assert_eq!((quasi.rank, quasi.points, quasi.games), (1, 8 * per_win, 8));
    }
    let standings = Standings::compute(&names, &finished, Scoring::Cx).unwrap();
    for (fault, termination) in [
        ("Sleeps", Termination::Timeout),
        ("Illegal", Termination::IllegalMove),
        ("Panics", Termination::Crash),
        ("Silent", Termination::Stalled),
    ] {
        let player = standings.players.iter().find(|p| p.name == fault).unwrap();
        assert!(
            player.forfeits.get(termination) >= 2,
            "{fault}: {:?}",
            player.forfeits
        );
    }
}
