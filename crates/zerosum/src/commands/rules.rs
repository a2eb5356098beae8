//! Commands on the rules alone: `games`, `show`, `perft`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use zerosum_core::{perft as count_leaves, Outcome, Side, Status};
use zerosum_games::{aliases, families, new_game, stones, visit_game, EvaluatedGame, GameVisitor};

use super::parse_spec;

/// Deepest perft the command accepts; deeper counts could not finish anyway.
const MAX_PERFT_DEPTH: usize = 1_000;

/// `zerosum games`
pub fn games() -> Result<()> {
    let mut out = crate::output::stdout();
    writeln!(out, "Games (spec forms):")?;
    let families = families();
    for family in &families {
        writeln!(out, "  {:<9} {}", family.name(), family.forms())?;
        writeln!(out, "  {:<9}   {}", "", family.rules())?;
        writeln!(out, "  {:<9}   moves: {}", "", family.notation())?;
    }
    for family in families
        .iter()
        .filter(|family| !family.named_boards().is_empty())
    {
        writeln!(out, "\n{} boards:", family.title())?;
        for (name, about) in family.named_boards() {
            writeln!(out, "  {name:<12} {about}")?;
        }
    }
    writeln!(out, "\nAliases:")?;
    for (alias, spec) in aliases() {
        writeln!(out, "  {alias:<15} {spec}")?;
    }
    Ok(())
}

/// `zerosum show SPEC [--moves LIST] [--json]`
pub fn show(spec: &str, moves: &str, json: bool, file: Option<&Path>) -> Result<()> {
    let spec = parse_spec(spec)?;
    let mut game = match file {
        Some(path) => super::files::load_position(&spec, path)?,
        None => new_game(&spec)?,
    };
    game.play_list(moves)?;
    let mut out = crate::output::stdout();
    if json {
        writeln!(out, "{}", game.to_json())?;
        return Ok(());
    }
    writeln!(out, "{spec}, ply {}", game.ply())?;
    let history = game.history();
    if !history.is_empty() {
        writeln!(out, "moves: {}", history.join(","))?;
    }
    write!(out, "{}", game.render())?;
    // Whose move it is, once: the board's own lines name the colours, not the turn.
    let side_name = |side: Side| {
        let stones = stones(&*game, side);
        match stones.colour {
            Some(colour) => format!("{colour} ({side} player, {})", stones.glyph),
            None => format!("{} ({side} player)", stones.glyph),
        }
    };
    match game.status() {
        Status::Ongoing => {
            writeln!(out, "to move: {}", side_name(game.to_move()))?;
            writeln!(out, "legal moves: {}", game.legal_moves().join(" "))?;
        }
        Status::Over(Outcome::Win(side)) => writeln!(out, "status: {} wins", side_name(side))?,
        Status::Over(Outcome::Draw) => writeln!(out, "status: draw")?,
    }
    Ok(())
}

/// `zerosum perft SPEC DEPTH [--moves LIST]`
pub fn perft(spec: &str, depth: usize, moves: &str) -> Result<()> {
    if depth > MAX_PERFT_DEPTH {
        bail!("perft depth must be at most {MAX_PERFT_DEPTH}, not {depth}");
    }
    let spec = parse_spec(spec)?;
    visit_game(
        &spec,
        Perft {
            depth,
            moves: moves.to_string(),
        },
    )?
}

struct Perft {
    depth: usize,
    moves: String,
}

impl GameVisitor for Perft {
    type Output = Result<()>;

    fn visit<G: EvaluatedGame>(self, mut game: G) -> Result<()> {
        game.play_list(&self.moves)
            .context("cannot set up the position")?;
        let mut out = crate::output::stdout();
        for depth in 1..=self.depth {
            let start = Instant::now();
            let leaves = count_leaves(&mut game, depth);
            let seconds = start.elapsed().as_secs_f64();
            let speed = if seconds > 0.0 {
                (leaves as f64 / seconds) as u64
            } else {
                0
            };
            writeln!(out, "{depth} {leaves} {seconds:.3}s {speed} positions/s")?;
            out.flush()?;
        }
        Ok(())
    }
}
