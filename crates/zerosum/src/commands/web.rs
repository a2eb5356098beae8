//! `zerosum serve`: the browser UI.

use std::net::{IpAddr, Ipv4Addr};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use clap::Args;
use zerosum_web::Server;

#[derive(Args)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; the default serves this machine only.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

/// Serves the page until the process is killed; prints the address first.
pub fn serve(args: &ServeArgs) -> Result<()> {
    let server = Server::bind((args.bind, args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
    let address = server.local_addr()?;
    let url = format!("http://{address}/");
    println!("zerosum serves {url} (Ctrl-C stops it)");
    if args.open {
        if let Err(error) = open_browser(&url) {
            eprintln!("cannot open a browser ({error}); open {url} yourself");
        }
    }
    server.run().context("the server stopped")
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
