//! The game server as a library: two clients of random players play a game through
//! `net::serve`, which then closes its listening socket (a program that serves game after game
//! holds no socket or thread per finished game).

use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::Duration;

use zerosum_arena::net::{play_client, serve, ClientOptions, ServerOptions};
use zerosum_arena::{PlayerSpec, TimeControl};

#[test]
fn the_server_closes_its_listener_once_the_game_is_over() {
    for _ in 0..3 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let options = ServerOptions {
            spec: "tictactoe".parse().unwrap(),
            time: TimeControl::per_move(1.0),
            seed: 1,
        };
        let server = thread::spawn(move || serve(listener, &options, |_| {}));
        let clients: Vec<_> = (0..2)
            .map(|seed| {
                let stream = TcpStream::connect(address).unwrap();
                thread::spawn(move || {
                    let options = ClientOptions {
                        spec: "tictactoe".parse().unwrap(),
                        seconds_per_move: 1.0,
                        seed,
                        patience: Duration::from_secs(10),
                    };
                    let player = "random".parse::<PlayerSpec>().unwrap().build();
                    play_client(stream, player, &options, &mut |_| {})
                })
            })
            .collect();
        let played = server.join().unwrap().unwrap();
        assert!(!played.moves.is_empty());
        for client in clients {
            client.join().unwrap().unwrap();
        }
        let refused = TcpStream::connect(address).unwrap_err();
        assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused);
    }
}
