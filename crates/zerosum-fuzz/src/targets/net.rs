//! The game-server protocol (zerosum-arena `net`): the server's lines as the client reads
//! them, and a whole client game against a server that sends the input.

use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::OnceLock;
use std::thread;

use zerosum_arena::net::{play_client, ClientOptions, ServerMessage};
use zerosum_arena::PlayerSpec;

use super::{corpus_of, finding_1, text, Target, Verdict};

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
        // Finding 1 (see `finding_1`): a GAME line naming a run longer than the board.
        let input: Vec<u8> = text(input)
            .split_inclusive('\n')
            .filter(|line| {
                !matches!(ServerMessage::parse(line),
                    Some(ServerMessage::Game(spec)) if spec.parse().is_ok_and(|s| finding_1(&s)))
            })
            .collect::<String>()
            .into_bytes();
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
