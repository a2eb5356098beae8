//! A person at a terminal: the board is shown by whoever runs the game; this player reads a
//! move or a command per line, checks a move, and explains what is wrong with a bad one before
//! asking again. Commands: `help` (the notation, the commands, the legal moves), `undo` (take
//! back the last move of each side), `quit` or `resign` (after a confirmation).

use std::io::{BufRead, Write};

use zerosum_core::capped_read::{size_text, CappedLines, ReadProblem};
use zerosum_games::{new_game, stones, DynGame};

use crate::player::{GameSetup, MoveAnswer, MoveRequest, Player, PlayerError};

/// Legal moves listed by `help` at most.
const HELP_MOVES: usize = 60;

/// What `help` says of the commands.
const COMMANDS: &str = "commands: undo   take back your last move and the reply to it
          help   this text
          quit   resign the game (after a yes; `resign` too)";

/// Longest line a human's input may have: 64 KiB (a move, a command, or a list of moves).
pub const MAX_TYPED_LINE_BYTES: u64 = 64 << 10;

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

    /// The next line, trimmed (at most [`MAX_TYPED_LINE_BYTES`]); `None` at the end of the
    /// input.
    fn read_line(&mut self) -> Result<Option<String>, PlayerError> {
        match CappedLines::new(&mut self.input, MAX_TYPED_LINE_BYTES).next_line() {
            Ok(None) => Ok(None),
            Ok(Some(line)) => Ok(Some(
                String::from_utf8_lossy(&line.bytes).trim().to_string(),
            )),
            Err(ReadProblem::LineTooLong { cap, .. }) => Err(PlayerError::Failed(format!(
                "cannot read a move: a line longer than {}",
                size_text(cap)
            ))),
            Err(problem) => Err(PlayerError::Failed(format!(
                "cannot read a move: {problem}"
            ))),
        }
    }

    /// `help`: how moves are written in this game, the commands and the legal moves.
    fn help(&mut self, position: &dyn DynGame) -> Result<(), PlayerError> {
        let legal = position.legal_moves();
        let shown = legal.len().min(HELP_MOVES);
        let more = if legal.len() > shown {
            format!(" ... ({} in all)", legal.len())
        } else {
            String::new()
        };
        let text = format!(
            "moves: {}\n{COMMANDS}\nlegal moves: {}{more}\n",
            position.spec().family().notation(),
            legal[..shown].join(" ")
        );
        self.say(&text)
    }

    /// `quit` or `resign`: whether the person confirms giving the game up (the end of the
    /// input confirms it).
    fn confirms_resignation(&mut self) -> Result<bool, PlayerError> {
        self.say("quit resigns this game: resign? (y/n) ")?;
        Ok(match self.read_line()? {
            None => true,
            Some(answer) => matches!(answer.to_ascii_lowercase().as_str(), "y" | "yes"),
        })
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
        let prompt = format!(
            "{} to move ({}); a move, or help, undo, quit: ",
            stones(&*position, position.to_move()).glyph,
            self.name
        );
        loop {
            self.say(&prompt)?;
            let Some(line) = self.read_line()? else {
                return Err(PlayerError::Failed("gave up: end of input".into()));
            };
            match line.as_str() {
                "" => continue,
                "help" | "?" => self.help(&*position)?,
                "undo" | "takeback" if request.moves.len() < 2 => {
                    self.say("nothing to undo: no move of yours has been answered yet\n")?
                }
                "undo" | "takeback" => return Err(PlayerError::TakeBack),
                "quit" | "resign" => {
                    if self.confirms_resignation()? {
                        return Err(PlayerError::Resigned);
                    }
                    self.say("the game goes on\n")?;
                }
                text => {
                    let mut trial = position.clone_box();
                    match trial.play(text) {
                        Ok(canonical) => return Ok(MoveAnswer::new(canonical)),
                        Err(error) => self.say(&format!(
                            "{error}; `help` lists the legal moves and the commands\n"
                        ))?,
                    }
                }
            }
        }
    }

    fn is_human(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Output a test can read afterwards.
    #[derive(Clone, Default)]
    struct Screen(Arc<Mutex<Vec<u8>>>);

    impl Write for Screen {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Screen {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }
    }

    /// A human at connect4 typing `typed`, asked for a move after `moves`.
    fn typing(typed: &str, moves: &[&str]) -> (Result<MoveAnswer, PlayerError>, String) {
        let screen = Screen::default();
        let mut human = Human::new(
            "you",
            Box::new(Cursor::new(typed.to_string().into_bytes())),
            Box::new(screen.clone()),
        );
        let setup = GameSetup {
            spec: "connect4".parse().unwrap(),
            side: zerosum_core::Side::First,
            time: crate::TimeControl::per_move(1.0),
            seed: 1,
        };
        human.new_game(&setup).unwrap();
        let request = MoveRequest {
            moves: Arc::new(moves.iter().map(|m| m.to_string()).collect()),
            limit: None,
            clock: None,
            increment: std::time::Duration::ZERO,
            issued: std::time::Instant::now(),
            stop: Arc::default(),
            progress: None,
        };
        (human.choose(&request), screen.text())
    }

    #[test]
    fn help_lists_the_notation_the_commands_and_the_moves() {
        let (answer, screen) = typing("help\n4\n", &[]);
        assert_eq!(answer.unwrap().text, "4");
        assert!(screen.contains("moves: column number from 1"), "{screen}");
        assert!(screen.contains("undo   take back"), "{screen}");
        assert!(screen.contains("legal moves: 1 2 3 4 5 6 7"), "{screen}");
        assert!(screen.starts_with("X to move (you)"), "{screen}");
    }

    #[test]
    fn undo_asks_the_referee_once_there_is_a_move_to_take_back() {
        let (answer, screen) = typing("undo\n3\n", &["4"]);
        assert_eq!(answer.unwrap().text, "3");
        assert!(screen.contains("nothing to undo"), "{screen}");
        let (answer, _) = typing("undo\n", &["4", "4"]);
        assert!(matches!(answer, Err(PlayerError::TakeBack)));
    }

    #[test]
    fn quit_resigns_only_when_confirmed() {
        let (answer, screen) = typing("quit\nn\n5\n", &[]);
        assert_eq!(answer.unwrap().text, "5");
        assert!(screen.contains("resign? (y/n)"), "{screen}");
        assert!(screen.contains("the game goes on"), "{screen}");
        let (answer, _) = typing("quit\ny\n", &[]);
        assert!(matches!(answer, Err(PlayerError::Resigned)));
        let (answer, _) = typing("resign\n", &[]);
        assert!(
            matches!(answer, Err(PlayerError::Resigned)),
            "the end of input confirms"
        );
    }
}
