//! `zerosum serve`: the browser UI; and the page of `zerosum tournament --serve`.

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;

use anyhow::{Context, Result};
use clap::Args;
use zerosum_arena::{EngineList, Threads};
use zerosum_web::{Server, TournamentFeed};

#[derive(Args)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; the default serves this machine only. Requests must be addressed
    /// to `localhost`, a loopback address or this address.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// A JSON file of external engines the page offers as players, by name (no other program
    /// can be named from the page): {"engines": [{"name": "mybot", "cmd": "/path/to/mybot",
    /// "proto": "gtp"}]}.
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// Threads each engine player of the page searches with (unless its spec names threads=).
    #[arg(long, value_name = "N")]
    threads: Option<Threads>,
}

/// Serves the page until the process is killed; prints the address first.
pub fn serve(args: &ServeArgs) -> Result<()> {
    let engines = match &args.engines {
        Some(path) => EngineList::load(path)?,
        None => EngineList::default(),
    };
    let mut server = Server::bind((args.bind, args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?
        .with_engines(engines);
    if let Some(threads) = args.threads {
        server = server.with_engine_threads(threads);
    }
    let address = server.local_addr()?;
    let url = format!("http://{address}/");
    outln!("zerosum serves {url} (Ctrl-C stops it)");
    if args.open {
        if let Err(error) = open_browser(&url) {
            errln!("cannot open a browser ({error}); open {url} yourself");
        }
    }
    server.run().context("the server stopped")
}

/// Serves the page on `port` of this machine on a thread of its own, every tab watching
/// `feed`'s tournament; prints the address to standard error and returns it. The server lasts
/// as long as the process (see [`keep_serving`]).
pub fn serve_in_background(feed: TournamentFeed, port: u16) -> Result<String> {
    let server = Server::bind((Ipv4Addr::LOCALHOST, port))
        .with_context(|| format!("cannot listen on port {port}"))?
        .watching(feed);
    let url = format!("http://{}/", server.local_addr()?);
    errln!("watch the tournament at {url}");
    thread::Builder::new()
        .name("zerosum-web-server".into())
        .spawn(move || {
            if let Err(error) = server.run() {
                errln!("the page's server stopped: {error}");
            }
        })?;
    Ok(url)
}

/// Keeps the process, and with it the page at `url` (the tournament's final standings and
/// games), until Ctrl-C.
pub fn keep_serving(url: &str) -> ! {
    outln!("the tournament is over; {url} shows its final standings and games until Ctrl-C");
    loop {
        thread::park();
    }
}

/// Asks the desktop to open `url`.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        Command::new("open")
    } else if cfg!(windows) {
        let mut start = Command::new("cmd");
        start.args(["/C", "start", ""]);
        start
    } else {
        Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(drop)
}
