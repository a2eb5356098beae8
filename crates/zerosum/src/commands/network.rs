//! `zerosum server` and `zerosum client`: network play with the Unstable game-server protocol,
//! generalised to every game.

use std::net::{TcpListener, TcpStream};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::net::{play_client, serve, ClientOptions, ServerOptions};
use zerosum_arena::records::record::result_text;
use zerosum_arena::PlayerSpec;
use zerosum_core::Outcome;

use super::parse_spec;
use super::time_args::TimeArgs;

/// Options of `zerosum server`.
#[derive(Args, Debug)]
pub struct ServerArgs {
    /// Game spec.
    spec: String,
    /// Port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = 7000)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    #[command(flatten)]
    time: TimeArgs,
}

/// Options of `zerosum client`.
#[derive(Args, Debug)]
pub struct ClientArgs {
    /// Server address.
    host: String,
    /// Server port.
    port: u16,
    /// Who plays: engine[:settings] (the default), quasi, random or human.
    #[arg(long, default_value = "engine")]
    player: String,
    /// The game, for servers that do not name it (the original Unstable server).
    #[arg(long, default_value = "unstable")]
    game: String,
    /// Seconds per move, for servers that do not say.
    #[arg(long, default_value_t = 3.0)]
    time: f64,
    /// Seconds the server may say nothing before the client gives up (at least four times
    /// the time per move is waited).
    #[arg(long, default_value_t = 60.0)]
    patience: f64,
}

fn seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos() as u64)
}

/// `zerosum server SPEC [--port P] [--host H] [time options]`: referees one game between
/// the first two clients.
pub fn server(args: &ServerArgs) -> Result<()> {
    let options = ServerOptions {
        spec: parse_spec(&args.spec)?,
        time: args.time.control(3.0)?,
        seed: seed(),
    };
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    outln!(
        "listening on {} for {}",
        listener.local_addr()?,
        options.spec
    );
    let played = serve(listener, &options, |line| outln!("{line}"))?;
    outln!(
        "result: {} {{{}}}",
        result_text(played.outcome),
        played.reason
    );
    Ok(())
}

/// `zerosum client HOST PORT [--player P]`: plays one game on a server.
pub fn client(args: &ClientArgs) -> Result<()> {
    let player: PlayerSpec = args.player.parse()?;
    if !(args.time.is_finite() && args.time > 0.0 && args.time <= 1e6) {
        anyhow::bail!(
            "--time must be a positive number of seconds, not {}",
            args.time
        );
    }
    if !(args.patience.is_finite() && args.patience > 0.0 && args.patience <= 1e6) {
        anyhow::bail!(
            "--patience must be a positive number of seconds, not {}",
            args.patience
        );
    }
    let options = ClientOptions {
        spec: parse_spec(&args.game)?,
        seconds_per_move: args.time,
        seed: seed(),
        patience: Duration::from_secs_f64(args.patience),
    };
    let stream = TcpStream::connect((args.host.as_str(), args.port))
        .with_context(|| format!("cannot connect to {}:{}", args.host, args.port))?;
    let (side, outcome) = play_client(stream, player.build(), &options, &mut |line| {
        outln!("{line}")
    })?;
    let verdict = match outcome {
        Outcome::Draw => "a draw",
        Outcome::Win(winner) if winner == side => "won",
        Outcome::Win(_) => "lost",
    };
    outln!("result: {} ({side} player {verdict})", result_text(outcome));
    Ok(())
}
