//! `zerosum gtp` and `zerosum gomocup`: a built-in player (the engine by default) served on
//! standard input and output.

use std::io::{self, BufReader};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use zerosum_arena::{
    GameSetup, MoveRequest, Player, PlayerError, PlayerKind, PlayerSpec, TimeControl,
};
use zerosum_core::{GameSpec, Side};
use zerosum_protocol::gomocup::GomocupSession;
use zerosum_protocol::gtp::GtpSession;
use zerosum_protocol::{gomocup, gtp, EngineError, EngineMove, EngineRequest, MoveEngine};

use super::parse_spec;

/// Options of `zerosum gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// The game at start (`zerosum-game SPEC` changes it).
    #[arg(long, default_value = "hex:11")]
    game: String,
    #[command(flatten)]
    served: ServedPlayer,
}

/// Options of `zerosum gomocup`.
#[derive(Args, Debug)]
pub struct GomocupArgs {
    #[command(flatten)]
    served: ServedPlayer,
}

/// The player a protocol serves.
#[derive(Args, Debug)]
pub struct ServedPlayer {
    /// The player: engine[:time=S,depth=D,nodes=N,hash=MB,algo=A,threads=N], quasi or random.
    #[arg(long, default_value = "engine", value_name = "PLAYER")]
    engine: String,
    /// Seconds per move at most (the protocol's clock may give less).
    #[arg(long, value_name = "SECONDS")]
    time: Option<String>,
    /// Transposition table size in MB.
    #[arg(long, value_name = "MB")]
    hash: Option<String>,
    /// Threads searching each move (Lazy SMP).
    #[arg(long, value_name = "N")]
    threads: Option<String>,
}

impl ServedPlayer {
    /// The player, with --time, --hash and --threads added to the engine's settings.
    fn build(&self) -> Result<Box<dyn Player>> {
        let mut text = self.engine.clone();
        let options = [
            ("time", &self.time),
            ("hash", &self.hash),
            ("threads", &self.threads),
        ];
        for (key, value) in options {
            if let Some(value) = value {
                text.push(if text.contains(':') { ',' } else { ':' });
                text.push_str(&format!("{key}={value}"));
            }
        }
        let spec: PlayerSpec = text.parse()?;
        if spec.kind == PlayerKind::Human {
            bail!("a protocol serves a program, not a human: use `zerosum play` to play");
        }
        Ok(spec.build())
    }
}

/// Serves GTP on standard input and output until `quit` or the end of the input.
pub fn gtp(args: &GtpArgs) -> Result<()> {
    let spec = parse_spec(&args.game)?;
    let mut session = GtpSession::new(ServedEngine(args.served.build()?), &spec)?;
    gtp::serve(
        &mut session,
        BufReader::new(io::stdin()),
        io::stdout().lock(),
        io::stderr(),
    )?;
    Ok(())
}

/// Serves the Gomocup protocol on standard input and output until `END` or the end of the
/// input.
pub fn gomocup(args: &GomocupArgs) -> Result<()> {
    let mut session = GomocupSession::new(ServedEngine(args.served.build()?));
    gomocup::serve(&mut session, io::stdin().lock(), io::stdout().lock())?;
    Ok(())
}

/// An arena player as the engine of a protocol server.
struct ServedEngine(Box<dyn Player>);

impl MoveEngine for ServedEngine {
    fn new_game(&mut self, spec: &GameSpec) -> Result<(), String> {
        let setup = GameSetup {
            spec: spec.clone(),
            // The server may ask for either side's move: the built-in players do not mind.
            side: Side::First,
            time: TimeControl::default(),
            seed: 0,
        };
        self.0.new_game(&setup).map_err(|error| error.to_string())
    }

    fn choose(&mut self, request: &EngineRequest) -> Result<EngineMove, EngineError> {
        let request = MoveRequest {
            moves: Arc::new(request.moves.to_vec()),
            limit: request.budget,
            clock: None,
            increment: Duration::ZERO,
            stop: Arc::clone(request.stop),
            progress: None,
        };
        match self.0.choose(&request) {
            Ok(answer) => Ok(EngineMove {
                text: answer.text,
                info: answer.comment,
            }),
            Err(PlayerError::Resigned) => Err(EngineError::Resigned),
            Err(error) => Err(EngineError::Failed(error.to_string())),
        }
    }
}
