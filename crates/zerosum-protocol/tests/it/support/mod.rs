//! A fast fake engine for transcript tests.
// Each test file uses the behaviours its protocol needs (Gomocup has no interrupt).
#![allow(dead_code)]

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use zerosum_games::{new_game, GameSpec};
use zerosum_protocol::{
    EngineAnalysis, EngineError, EngineMove, EngineRequest, EngineSolution, MoveEngine, Verdict,
};

/// How the fake engine behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Plays the first legal move at once.
    FirstMove,
    /// Plays the last legal move at once (the swap, where it is legal).
    LastMove,
    /// Thinks until stopped, or a patience of 1 s runs out; the info line says which.
    Slow,
    /// Resigns.
    Resigns,
    /// Answers a move that is not on the board.
    Illegal,
    /// Refuses every game.
    Refuses,
}

/// The fake engine, with a shared record of the budgets it was given.
pub struct FakeEngine {
    pub behaviour: Behaviour,
    pub spec: Option<GameSpec>,
    pub budgets: Arc<Mutex<Vec<Option<Duration>>>>,
}

impl FakeEngine {
    pub fn new(behaviour: Behaviour) -> Self {
        FakeEngine {
            behaviour,
            spec: None,
            budgets: Arc::default(),
        }
    }
}

impl MoveEngine for FakeEngine {
    fn new_game(&mut self, spec: &GameSpec) -> Result<(), String> {
        if self.behaviour == Behaviour::Refuses {
            return Err("this engine plays nothing".into());
        }
        self.spec = Some(spec.clone());
        Ok(())
    }

    fn choose(&mut self, request: &EngineRequest) -> Result<EngineMove, EngineError> {
        self.budgets.lock().unwrap().push(request.budget);
        let spec = self.spec.as_ref().expect("new_game comes first");
        let mut game = new_game(spec).unwrap();
        for mv in request.moves {
            game.play(mv).expect("the server sends legal moves");
        }
        let legal = game.legal_moves();
        let text = match self.behaviour {
            Behaviour::FirstMove | Behaviour::Refuses => legal[0].clone(),
            Behaviour::LastMove => legal[legal.len() - 1].clone(),
            Behaviour::Resigns => return Err(EngineError::Resigned),
            Behaviour::Illegal => "zz999".to_string(),
            Behaviour::Slow => {
                let started = Instant::now();
                while !request.stop.load(Ordering::Relaxed) {
                    if started.elapsed() > Duration::from_secs(1) {
                        return Ok(EngineMove {
                            text: legal[0].clone(),
                            info: Some("waited".into()),
                        });
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                return Ok(EngineMove {
                    text: legal[0].clone(),
                    info: Some("stopped".into()),
                });
            }
        };
        Ok(EngineMove {
            text,
            info: Some("fake".into()),
        })
    }

    /// Score `+12` at depth 3 after 99 nodes; the line is the first legal move twice over.
    fn analyse(&mut self, request: &EngineRequest) -> Result<EngineAnalysis, String> {
        self.budgets.lock().unwrap().push(request.budget);
        let mut game = self.position(request);
        let mut pv = Vec::new();
        for _ in 0..2 {
            let Some(first) = game.legal_moves().first().cloned() else {
                break;
            };
            game.play(&first).unwrap();
            pv.push(first);
        }
        Ok(EngineAnalysis {
            score: "+12".into(),
            depth: 3,
            nodes: 99,
            pv,
        })
    }

    /// A win in 3 plies by the first legal move.
    fn solve(&mut self, request: &EngineRequest) -> Result<EngineSolution, String> {
        let game = self.position(request);
        Ok(EngineSolution {
            verdict: Verdict::Win,
            text: "win-in-3".into(),
            best_moves: vec![game.legal_moves()[0].clone()],
        })
    }
}

impl FakeEngine {
    /// The position of a request.
    fn position(&self, request: &EngineRequest) -> Box<dyn zerosum_games::DynGame> {
        let spec = self.spec.as_ref().expect("new_game comes first");
        let mut game = new_game(spec).unwrap();
        for mv in request.moves {
            game.play(mv).expect("the server sends legal moves");
        }
        game
    }
}
