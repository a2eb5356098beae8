//! `zerosum play`: one game at the terminal. The board is drawn after every move with a legend
//! (`X = you, O = engine`); the engine's view of each of its moves is told from the player's
//! side (`the engine thinks it wins in 7 moves`); a person types moves or `help`, `undo`,
//! `quit` (see the arena's human player); the end names the winner and why, the winning line
//! or chain framed on the final board.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use zerosum_arena::run::clock_seed;
use zerosum_arena::{play_game, PlayerKind, PlayerSpec, RefereeEvent, RefereeOptions, Termination};
use zerosum_core::{EngineLine, Outcome, Side};
use zerosum_games::{stones, DynGame};

use super::parse_spec;
use super::time_args::TimeArgs;

/// Options of `zerosum play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Game spec.
    spec: String,
    /// Who moves first: human, engine[:settings], quasi or random.
    #[arg(long, default_value = "human")]
    first: String,
    /// Who moves second.
    #[arg(long, default_value = "engine")]
    second: String,
    #[command(flatten)]
    time: TimeArgs,
    /// Seed of the players' randomness.
    #[arg(long)]
    seed: Option<u64>,
}

/// `zerosum play`: one game at the terminal, the board drawn after every move.
pub fn play(args: &PlayArgs) -> Result<()> {
    let spec = parse_spec(&args.spec)?;
    let players: [PlayerSpec; 2] = [args.first.parse()?, args.second.parse()?];
    let table = Table::new(&players);
    let options = RefereeOptions {
        time: args.time.control(1.0)?,
        max_moves: None,
        adjudicate_nodes: None,
    };
    let mut out = crate::output::stdout();
    let mut last: Option<Box<dyn DynGame>> = None;
    let played = play_game(
        &spec,
        [Side::First, Side::Second].map(|side| table.build(&players[side.index()], side)),
        &options,
        args.seed.unwrap_or_else(clock_seed),
        &mut |event| {
            let text = match event {
                RefereeEvent::Started { game } => {
                    last = Some(game.clone_box());
                    format!("{}\n{}", table.introduction(game), table.board(game))
                }
                RefereeEvent::Moved {
                    game,
                    side,
                    answer,
                    elapsed,
                } => {
                    last = Some(game.clone_box());
                    let played = game.history().pop().unwrap_or_default();
                    // Once the game is over, the board says it all.
                    let view = answer
                        .comment
                        .as_deref()
                        .filter(|_| !game.status().is_over())
                        .and_then(|comment| table.view(game, side, comment))
                        .map(|view| format!("; {view}"))
                        .unwrap_or_default();
                    // A person's time is their own; a program's is worth a look.
                    let after = if table.kinds[side.index()] == PlayerKind::Human {
                        String::new()
                    } else {
                        format!(" after {:.2} s", elapsed.as_secs_f64())
                    };
                    format!(
                        "\n{} {played}{after}{view}\n{}",
                        table.plays(game, side),
                        table.board(game)
                    )
                }
                RefereeEvent::TookBack { game, moves } => {
                    last = Some(game.clone_box());
                    format!(
                        "\ntook back {}: {} to move again\n{}",
                        moves.join(" and "),
                        table.who(game, game.to_move()),
                        table.board(game)
                    )
                }
            };
            let _ = write!(out, "{text}");
            let _ = out.flush();
        },
    );
    let ending = match &last {
        Some(game) => table.ending(&**game, played.outcome, played.termination, &played.reason),
        None => played.reason.clone(),
    };
    outln!("\n{ending}");
    Ok(())
}

/// Who sits on each side, and how the screen speaks of them.
struct Table {
    /// Each side's player, with the name results show.
    names: [String; 2],
    kinds: [PlayerKind; 2],
}

impl Table {
    fn new(players: &[PlayerSpec; 2]) -> Self {
        Table {
            names: players.each_ref().map(PlayerSpec::display_name),
            kinds: players.each_ref().map(|player| player.kind.clone()),
        }
    }

    fn humans(&self) -> usize {
        self.kinds
            .iter()
            .filter(|kind| **kind == PlayerKind::Human)
            .count()
    }

    /// The player of `spec` on `side`; a person not given a name is `you`, or with two people,
    /// `first player` and `second player`.
    fn build(&self, spec: &PlayerSpec, side: Side) -> Box<dyn zerosum_arena::Player> {
        let mut spec = spec.clone();
        if spec.kind == PlayerKind::Human && spec.name.is_none() {
            spec.name = Some(match self.humans() {
                1 => "you".to_string(),
                _ => format!("{side} player"),
            });
        }
        spec.build()
    }

    /// How sentences name `side`: `you` (the one human), `the engine`, `the quasi-random
    /// player`, another player's name, or the colour of its stones (`X`, `Black`) when both
    /// sides are people or carry the same name.
    fn who(&self, game: &dyn DynGame, side: Side) -> String {
        let kind = &self.kinds[side.index()];
        if self.humans() == 1 && *kind == PlayerKind::Human {
            return "you".into();
        }
        if self.humans() == 2 || self.names[0] == self.names[1] {
            let stones = stones(game, side);
            return stones.colour.map_or(stones.glyph.to_string(), String::from);
        }
        match kind {
            PlayerKind::Engine(_) => "the engine".into(),
            PlayerKind::Quasi => "the quasi-random player".into(),
            PlayerKind::Random => "the random player".into(),
            _ => self.names[side.index()].clone(),
        }
    }

    /// `X = you, O = engine:depth=4`, or `X = first player, O = second player` for two people.
    fn legend(&self, game: &dyn DynGame) -> String {
        let entry = |side: Side| {
            let name = if self.humans() == 2 {
                format!("{} player", side.name())
            } else if self.humans() == 1 && self.kinds[side.index()] == PlayerKind::Human {
                "you".into()
            } else {
                self.names[side.index()].clone()
            };
            format!("{} = {name}", stones(game, side))
        };
        format!("{}, {}", entry(Side::First), entry(Side::Second))
    }

    /// The first lines: the game, who plays what, and what a person may type.
    fn introduction(&self, game: &dyn DynGame) -> String {
        let typing = if self.humans() > 0 {
            "\nType a move, or help (the notation and the legal moves), undo, quit."
        } else {
            ""
        };
        let who = self.who(game, game.to_move());
        let verb = if who == "you" { "move" } else { "moves" };
        format!("{}: {who} {verb} first.{typing}\n", game.spec())
    }

    /// The board, then the legend.
    fn board(&self, game: &dyn DynGame) -> String {
        format!("{}{}\n", game.render(), self.legend(game))
    }

    /// `you (X) play`, `the engine (O) plays`, `X plays`.
    fn plays(&self, game: &dyn DynGame, side: Side) -> String {
        let who = self.who(game, side);
        let glyph = stones(game, side).glyph.to_string();
        match who.as_str() {
            "you" => format!("you ({glyph}) play"),
            _ if who == glyph => format!("{who} plays"),
            _ => format!("{who} ({glyph}) plays"),
        }
    }

    /// `you win`, `the engine wins`, `X wins`.
    fn wins(&self, game: &dyn DynGame, side: Side) -> String {
        let who = self.who(game, side);
        let verb = if who == "you" { "win" } else { "wins" };
        format!("{who} {verb}")
    }

    /// The mover's view of the move it just made in `game` (its comment, a search line), told
    /// from the other side's point of view when that is a person: `the engine thinks it wins in
    /// 7 moves`, `the engine thinks you win with your next move`, `the engine thinks it is
    /// ahead (+0.34)`, in the words of [`EngineLine::opinion`] (the page's too). `None` when the
    /// comment carries no score.
    fn view(&self, game: &dyn DynGame, side: Side, comment: &str) -> Option<String> {
        let line = EngineLine::parse(comment)?;
        let (mover, other) = (self.who(game, side), self.who(game, !side));
        Some(format!("{mover} thinks {}", line.opinion(&other)))
    }

    /// The last line: who won and why (`you win: four in a row, framed [X] on the board`,
    /// `the engine wins: you resigned`), or `draw`.
    fn ending(
        &self,
        game: &dyn DynGame,
        outcome: Outcome,
        termination: Termination,
        reason: &str,
    ) -> String {
        let Outcome::Win(winner) = outcome else {
            return match termination {
                Termination::Normal => "draw: nobody can win any more".to_string(),
                _ => format!("draw: {reason}"),
            };
        };
        let loser = self.who(game, !winner);
        let why = match termination {
            Termination::Normal => {
                let spec = game.spec();
                spec.family().win_text(&spec, &loser)
            }
            Termination::Resignation => format!("{loser} resigned"),
            Termination::Timeout => format!("{loser} ran out of time ({reason})"),
            Termination::IllegalMove => format!("{loser} made an illegal move ({reason})"),
            _ => reason.to_string(),
        };
        format!("{}: {why}", self.wins(game, winner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(first: &str, second: &str) -> Table {
        Table::new(&[first.parse().unwrap(), second.parse().unwrap()])
    }

    fn connect4() -> Box<dyn DynGame> {
        zerosum_games::new_game(&"connect4".parse().unwrap()).unwrap()
    }

    #[test]
    fn the_engine_view_is_told_from_the_person_side() {
        let table = table("human", "engine");
        let game = connect4();
        let view = |comment: &str| table.view(&*game, Side::Second, comment);
        assert_eq!(
            view("exact 4 win-in-15 proved 7/7 time 0.001").as_deref(),
            Some("the engine thinks it wins in 7 moves")
        );
        assert_eq!(
            view("depth 9 score win-in-3 nodes 5 nps 0 time 0.000 pv 4 4").as_deref(),
            Some("the engine thinks it wins with its next move")
        );
        assert_eq!(
            view("exact 4 loss-in-40 proved 7/7 time 0.000").as_deref(),
            Some("the engine thinks you win in 20 moves")
        );
        assert_eq!(
            view("proven loss-in-2 pv 3 (kept from an earlier search)").as_deref(),
            Some("the engine thinks you win with your next move")
        );
        assert_eq!(
            view("depth 7 score +34 nodes 1 nps 1 time 0.1 pv 4").as_deref(),
            Some("the engine thinks it is ahead (+0.34)")
        );
        assert_eq!(
            view("depth 7 score -5 nodes 1 nps 1 time 0.1 pv 4").as_deref(),
            Some("the engine thinks it is behind (-0.05)")
        );
        assert_eq!(
            view("exact 4 +0 proved 7/7 time 0.0").as_deref(),
            Some("the engine thinks it is a draw")
        );
        assert_eq!(view("no score here"), None);
    }

    #[test]
    fn names_legend_and_winner_for_every_seating() {
        let game = connect4();
        let one = table("human", "engine:depth=4");
        assert_eq!(one.legend(&*game), "X = you, O = engine:depth=4");
        assert_eq!(one.wins(&*game, Side::First), "you win");
        assert_eq!(one.wins(&*game, Side::Second), "the engine wins");
        let two = table("human", "human");
        assert_eq!(two.legend(&*game), "X = first player, O = second player");
        assert_eq!(two.wins(&*game, Side::Second), "O wins");
        let engines = table("engine", "quasi");
        assert_eq!(
            engines.wins(&*game, Side::Second),
            "the quasi-random player wins"
        );
    }

    #[test]
    fn the_ending_says_why() {
        let table = table("human", "engine");
        let mut game = connect4();
        game.play_list("1212121").unwrap();
        let normal = table.ending(&*game, Outcome::Win(Side::First), Termination::Normal, "");
        assert_eq!(normal, "you win: four in a row, framed [ ] on the board");
        let resigned = table.ending(
            &*game,
            Outcome::Win(Side::Second),
            Termination::Resignation,
            "first player (you) resigns",
        );
        assert_eq!(resigned, "the engine wins: you resigned");
        let unstable = zerosum_games::new_game(&"unstable:3x3".parse().unwrap()).unwrap();
        assert_eq!(
            table.ending(
                &*unstable,
                Outcome::Win(Side::Second),
                Termination::Normal,
                ""
            ),
            "the engine wins: you lost all atoms"
        );
    }
}
