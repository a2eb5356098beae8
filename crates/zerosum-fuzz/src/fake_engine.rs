//! A fast, deterministic stand-in for the search engine behind the protocol servers, so that
//! the session targets spend their time in the protocol code.

use zerosum_games::{new_game, GameSpec};
use zerosum_protocol::{EngineError, EngineMove, EngineRequest, MoveEngine};

/// Plays a legal move picked from the position (deterministically), and now and then answers
/// something else: a move that is not legal, a resignation or a failure, so that the servers'
/// checks of an engine's answer run too.
#[derive(Default)]
pub struct FakeEngine {
    spec: Option<GameSpec>,
    calls: usize,
}

impl MoveEngine for FakeEngine {
    fn new_game(&mut self, spec: &GameSpec) -> Result<(), String> {
        self.spec = Some(spec.clone());
        Ok(())
    }

    fn choose(&mut self, request: &EngineRequest) -> Result<EngineMove, EngineError> {
        self.calls += 1;
        let spec = self
            .spec
            .as_ref()
            .ok_or_else(|| EngineError::Failed("no game".into()))?;
        let mut game = new_game(spec).map_err(|e| EngineError::Failed(e.to_string()))?;
        for mv in request.moves {
            game.play(mv)
                .map_err(|e| EngineError::Failed(format!("bad history: {e}")))?;
        }
        match self.calls % 13 {
            5 => return Err(EngineError::Resigned),
            7 => return Err(EngineError::Failed("the fake engine fails".into())),
            11 => {
                return Ok(EngineMove {
                    text: "zz0".into(),
                    info: None,
                })
            }
            _ => {}
        }
        let legal = game.legal_moves();
        let text = legal
            .get(self.calls.wrapping_mul(7919) % legal.len().max(1))
            .cloned()
            .ok_or_else(|| EngineError::Failed("no legal move".into()))?;
        Ok(EngineMove {
            text,
            info: Some(format!("depth 1 score 0 nodes {}", self.calls)),
        })
    }
}
