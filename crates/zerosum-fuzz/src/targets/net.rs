//! The game-server protocol (zerosum-arena `net`): the server's lines as the client reads
//! them, and a whole client game against a server that sends the input.

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;

use zerosum_arena::net::{play_client, serve, ClientOptions, ServerMessage, ServerOptions};
use zerosum_arena::{PlayerSpec, TimeControl};

use super::{corpus_of, text, Target, Verdict};

const SERVER_LINES: &[&str] = &[
    "GAME connectx:6x7x4\nTIME 0.5\nWELCOME Black\nYOUR_TURN\nVALID_MOVE\nOPPONENT_MOVE 4\nYOUR_TURN\nVALID_MOVE\nVICTORY\n",
    "WELCOME White\nOPPONENT_MOVE A1\nYOUR_TURN\nILLEGAL_MOVE\nDEFEAT\n",
    "GAME tictactoe\nWELCOME white\nOPPONENT_MOVE b2\nYOUR_TURN\nMESSAGE hello there\nTIE\n",
    "GAME hex:5:swap-sides\nTIME 2\nWELCOME Black\nYOUR_TURN\nOPPONENT_MOVE swap-sides\nYOUR_TURN\nVICTORY\n",
    "MESSAGE the game starts\nGAME unstable:10x6\nWELCOME Black\nYOUR_TURN\nOPPONENT_MOVE J6\nYOUR_TURN\nDEFEAT\n",
];

const SERVER_TOKENS: &[&str] = &[
    "GAME",
    "TIME",
    "WELCOME",
    "Black",
    "White",
    "YOUR_TURN",
    "VALID_MOVE",
    "ILLEGAL_MOVE",
    "OPPONENT_MOVE",
    "VICTORY",
    "DEFEAT",
    "TIE",
    "MESSAGE",
    "\n",
];

/// Every line of the input read as a server message, which prints back to itself.
pub const MESSAGES: Target = Target {
    name: "net-messages",
    about:
        "game-server protocol lines (ServerMessage::parse); a parsed message prints back to itself",
    corpus: || corpus_of(SERVER_LINES),
    tokens: SERVER_TOKENS,
    share: 1,
    run: |input| {
        let mut verdict = Verdict::Rejected;
        for line in text(input).lines() {
            if let Some(message) = ServerMessage::parse(line) {
                verdict = Verdict::Accepted;
                let printed = message.to_string();
                assert_eq!(
                    ServerMessage::parse(&printed).as_ref(),
                    Some(&message),
                    "`{line}` read as {message:?} prints as `{printed}`, which reads otherwise"
                );
            }
        }
        verdict
    },
};

/// A client game (with a random player) against a server that sends the input and closes.
pub const CLIENT: Target = Target {
    name: "net-client",
    about: "game-server client (net::play_client) against a server sending the input over TCP",
    corpus: || corpus_of(SERVER_LINES),
    tokens: SERVER_TOKENS,
    share: 20,
    run: |input| {
        let input = input.to_vec();
        let (client, mut server) = connected_pair();
        // Written from a thread of its own: a long input fills the socket's buffer.
        let writer = thread::spawn(move || {
            let _ = server.write_all(&input);
            let _ = server.shutdown(Shutdown::Write);
            server
        });
        let player = "random".parse::<PlayerSpec>().expect("a player").build();
        let options = ClientOptions {
            spec: "tictactoe".parse().expect("a spec"),
            seconds_per_move: 1.0,
            seed: 1,
            patience: Duration::from_secs(2),
        };
        let result = play_client(client, player, &options, &mut |_| {});
        drop(writer.join());
        Verdict::of(&result)
    },
};

/// Two ends of a loopback TCP connection.
fn connected_pair() -> (TcpStream, TcpStream) {
    static LISTENER: OnceLock<TcpListener> = OnceLock::new();
    let listener = LISTENER.get_or_init(|| TcpListener::bind("127.0.0.1:0").expect("loopback"));
    let client = TcpStream::connect(listener.local_addr().expect("an address")).expect("connect");
    let (server, _) = listener.accept().expect("accept");
    (client, server)
}

/// The game server refereeing two clients that send the input's two halves (before and after
/// the first `|`), once they are asked for a move (or, when bit 3 of the first byte is set, as
/// soon as they are welcomed); the first byte picks the game. Two honest clients
/// (random players) connect after them, to take any seat the first two give up (a client
/// that says something other than a move before it has moved is no player, and its seat
/// stays open); they are turned away when the first two keep their seats (or find the game
/// over and its listener closed).
pub const SERVER: Target = Target {
    name: "net-server",
    about: "game server (net::serve) refereeing two TCP clients that send the input",
    corpus: || {
        corpus_of(&[
            "\x00MOVE b2\nMOVE c3\nMOVE a3\n|MOVE a1\nMOVE c1\n",
            "\x01MOVE 4\nMOVE 4\n|MOVE 5\nMOVE 3\n",
            "\x02MOVE c3\n|MOVE swap-sides\nMOVE b2\n",
            "\x03MOVE A1\nMOVE A1\n|MOVE D4\n",
            "\x04MOVE e5\n|MOVE swap\n",
            "\x00HELLO\n|MOVE \n",
            "\x00\n\nMOVE b2\n|\r\nMOVE b2\n",
        ])
    },
    tokens: &["MOVE ", "\n", "|", "b2", "4", "swap", "swap-sides", "A1"],
    share: 100,
    run: run_server,
};

fn run_server(input: &[u8]) -> Verdict {
    const SPECS: [&str; 5] = [
        "tictactoe",
        "connect4",
        "hex:5:swap-sides",
        "unstable:4x4",
        "atoll:rhombus5:pie",
    ];
    let (choice, rest) = input.split_first().unwrap_or((&0, &[]));
    let (black, white) = match rest.iter().position(|&b| b == b'|') {
        Some(at) => (rest[..at].to_vec(), rest[at + 1..].to_vec()),
        None => (rest.to_vec(), Vec::new()),
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("loopback");
    let address = listener.local_addr().expect("an address");
    let options = ServerOptions {
        spec: SPECS[*choice as usize % SPECS.len()]
            .parse()
            .expect("a spec"),
        time: TimeControl::per_move(0.5),
        seed: 1,
    };
    let spec = options.spec.clone();
    let server = thread::spawn(move || serve(listener, &options, |_| {}));
    // Connected in order: the first plays Black.
    let clients = [black, white].map(|bytes| {
        let stream = TcpStream::connect(address).expect("connect to the server");
        thread::sleep(Duration::from_millis(1));
        (stream, bytes)
    });
    let cue = if choice & 8 == 0 {
        "YOUR_TURN"
    } else {
        "WELCOME"
    };
    let clients = clients.map(|(stream, bytes)| thread::spawn(move || speak(stream, cue, &bytes)));
    // The game may be over already (an illegal first move), its listener closed.
    let honest = [2, 3].map(|seed| {
        let stream = TcpStream::connect(address).ok()?;
        let options = ClientOptions {
            spec: spec.clone(),
            seconds_per_move: 0.5,
            seed,
            patience: Duration::from_secs(10),
        };
        Some(thread::spawn(move || {
            let player = "random".parse::<PlayerSpec>().expect("a player").build();
            drop(play_client(stream, player, &options, &mut |_| {}));
        }))
    });
    let played = server
        .join()
        .expect("the server thread")
        .expect("a game on loopback");
    for client in clients.into_iter().chain(honest.into_iter().flatten()) {
        drop(client.join());
    }
    if played.moves.is_empty() {
        Verdict::Rejected
    } else {
        Verdict::Accepted
    }
}

/// A client that waits for a line starting with `cue`, sends `bytes`, and reads whatever comes
/// until the end.
fn speak(stream: TcpStream, cue: &str, bytes: &[u8]) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(3)));
    let mut reader = BufReader::new(stream.try_clone().expect("a stream"));
    let mut line = String::new();
    while !line.starts_with(cue) {
        line.clear();
        if !matches!(reader.read_line(&mut line), Ok(read) if read > 0) {
            return;
        }
    }
    let mut writer = stream;
    let _ = writer.write_all(bytes);
    let _ = writer.shutdown(Shutdown::Write);
    let _ = std::io::copy(&mut reader, &mut std::io::sink());
}
