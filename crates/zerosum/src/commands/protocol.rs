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
use zerosum_core::Side;
use zerosum_games::GameSpec;
use zerosum_protocol::gomocup::GomocupSession;
use zerosum_protocol::gtp::{GtpSession, Vertices};
use zerosum_protocol::{
    gomocup, gtp, EngineAnalysis, EngineError, EngineMove, EngineRequest, EngineSolution,
    MoveEngine,
};
use zerosum_search::Threads;

use super::bench::cpu_time;
use super::gui_analysis::{self, AnalysisSettings};
use super::parse_spec;

/// Options of `zerosum gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// The game at start (`zerosum-game SPEC` changes it).
    #[arg(long, default_value = "hex:11")]
    game: String,
    /// Speak GoGui's vertices (`A1` bottom-left, no `I`; Connect-X moves as the cell the
    /// disc lands on; `pass` for the swap) instead of the game's notation.
    #[arg(long)]
    gogui: bool,
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
    /// The player: engine[:time=S,depth=D,nodes=N,hash=MB,algo=A,threads=N,oracle=on|off], quasi or random.
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

    /// The engine served, with the settings of its GUI analyses: --hash (64 MB by default),
    /// --threads (one) and --time (1 s) when the protocol gives no time.
    fn served(&self) -> Result<ServedEngine> {
        let player = self.build()?;
        let analysis = AnalysisSettings {
            hash_mb: self.hash.as_deref().map_or(Ok(64), str::parse)?,
            threads: match self.threads.as_deref() {
                Some(text) => text.parse()?,
                None => Threads::ONE,
            },
            time: Duration::try_from_secs_f64(self.time.as_deref().map_or(Ok(1.0), str::parse)?)
                .map_err(|_| anyhow::anyhow!("--time must be a number of seconds"))?,
        };
        Ok(ServedEngine {
            player,
            spec: None,
            analysis,
        })
    }
}

/// Serves GTP on standard input and output until `quit` or the end of the input.
pub fn gtp(args: &GtpArgs) -> Result<()> {
    let spec = parse_spec(&args.game)?;
    let vertices = match args.gogui {
        true => Vertices::GoGui,
        false => Vertices::Native,
    };
    let mut session = GtpSession::new(args.served.served()?, &spec)?
        .with_vertices(vertices)
        .with_cpu_clock(cpu_time);
    gtp::serve(
        &mut session,
        BufReader::new(io::stdin()),
        crate::output::stdout(),
        crate::output::stderr(),
    )?;
    Ok(())
}

/// Serves the Gomocup protocol on standard input and output until `END` or the end of the
/// input.
pub fn gomocup(args: &GomocupArgs) -> Result<()> {
    let mut session = GomocupSession::new(args.served.served()?);
    gomocup::serve(&mut session, io::stdin().lock(), crate::output::stdout())?;
    Ok(())
}

/// An arena player as the engine of a protocol server, and the search and solver behind the
/// GUI analysis commands.
struct ServedEngine {
    player: Box<dyn Player>,
    /// The game of `new_game`.
    spec: Option<GameSpec>,
    analysis: AnalysisSettings,
}

impl ServedEngine {
    fn position<'a>(
        &'a self,
        request: &'a EngineRequest,
    ) -> Result<gui_analysis::Position<'a>, String> {
        Ok(gui_analysis::Position {
            spec: self.spec.as_ref().ok_or("no game was started")?,
            moves: request.moves,
            budget: request.budget,
            stop: request.stop,
        })
    }
}

impl MoveEngine for ServedEngine {
    fn new_game(&mut self, spec: &GameSpec) -> Result<(), String> {
        self.spec = Some(spec.clone());
        let setup = GameSetup {
            spec: spec.clone(),
            // The server may ask for either side's move: the built-in players do not mind.
            side: Side::First,
            time: TimeControl::default(),
            seed: 0,
        };
        self.player
            .new_game(&setup)
            .map_err(|error| error.to_string())
    }

    fn choose(&mut self, request: &EngineRequest) -> Result<EngineMove, EngineError> {
        // The served budget (the controller's allotment less the protocol's overhead,
        // `TimeBudget::served`) is the player's limit, of which it keeps back its own answer
        // reserve (`TimeBudget::thinking`): `zerosum explain-time` shows both.
        let request = MoveRequest {
            moves: Arc::new(request.moves.to_vec()),
            limit: request.budget,
            clock: None,
            increment: Duration::ZERO,
            issued: request.issued,
            stop: Arc::clone(request.stop),
            progress: None,
        };
        match self.player.choose(&request) {
            Ok(answer) => Ok(EngineMove {
                text: answer.text,
                info: answer.comment,
            }),
            Err(PlayerError::Resigned) => Err(EngineError::Resigned),
            Err(error) => Err(EngineError::Failed(error.to_string())),
        }
    }

    fn analyse(&mut self, request: &EngineRequest) -> Result<EngineAnalysis, String> {
        gui_analysis::evaluate(&self.position(request)?, &self.analysis)
    }

    fn solve(&mut self, request: &EngineRequest) -> Result<EngineSolution, String> {
        gui_analysis::solve(&self.position(request)?, &self.analysis)
    }
}
