//! A person at a terminal: the board is shown by whoever runs the game; this player reads a
//! move per line, checks it, and explains what is wrong with a bad one before asking again.

use std::io::{BufRead, Write};

use zerosum_core::DynGame;
use zerosum_games::new_game;

use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError};

/// Legal moves listed by `help` at most.
const HELP_MOVES: usize = 60;

/// A human player reading moves from `input` and writing prompts to `output`.
pub struct Human {
    name: String,
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    game: Option<Box<dyn DynGame>>,
}

impl Human {
    /// A human called `name` at the given input and output (the terminal: standard input and
    /// standard error).
    pub fn new(
        name: impl Into<String>,
        input: Box<dyn BufRead + Send>,
        output: Box<dyn Write + Send>,
    ) -> Self {
        Human {
            name: name.into(),
            input,
            output,
            game: None,
        }
    }

    fn say(&mut self, text: &str) -> Result<(), PlayerError> {
        write!(self.output, "{text}")
            .and_then(|()| self.output.flush())
            .map_err(|error| PlayerError::Failed(format!("cannot write to the terminal: {error}")))
    }

    fn read_line(&mut self) -> Result<String, PlayerError> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) => Err(PlayerError::Failed("gave up: end of input".into())),
            Ok(_) => Ok(line.trim().to_string()),
            Err(error) => Err(PlayerError::Failed(format!("cannot read a move: {error}"))),
        }
    }
}

impl Player for Human {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        let game = new_game(&setup.spec).map_err(|error| PlayerError::Unsupported {
            spec: setup.spec.to_string(),
            reason: error.to_string(),
        })?;
        self.game = Some(game);
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest) -> Result<MoveAnswer, PlayerError> {
        let start = self
            .game
            .as_ref()
            .ok_or_else(|| PlayerError::Failed("asked for a move before the game".into()))?;
        let mut position = start.clone_box();
        for text in request.moves.iter() {
            position
                .play(text)
                .map_err(|error| PlayerError::Failed(format!("cannot follow the game: {error}")))?;
        }
        let side = position.to_move();
        loop {
            self.say(&format!(
                "{} ({side}) to move; `help` lists the legal moves, `resign` gives up: ",
                self.name
            ))?;
            let line = self.read_line()?;
            match line.as_str() {
                "" => continue,
                "resign" | "quit" => return Err(PlayerError::Resigned),
                "help" | "?" => {
                    let legal = position.legal_moves();
                    let shown = legal.len().min(HELP_MOVES);
                    let more = if legal.len() > shown {
                        format!(" ... ({} in all)", legal.len())
                    } else {
                        String::new()
                    };
                    self.say(&format!(
                        "legal moves: {}{more}\n",
                        legal[..shown].join(" ")
                    ))?;
                }
                text => {
                    let mut trial = position.clone_box();
                    match trial.play(text) {
                        Ok(canonical) => return Ok(MoveAnswer::new(canonical)),
                        Err(error) => self.say(&format!("{error}; try again\n"))?,
                    }
                }
            }
        }
    }

    fn is_human(&self) -> bool {
        true
    }
}
