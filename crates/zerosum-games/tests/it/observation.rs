//! The position as numbers (observation planes) and as action ids, on every family's example
//! specs: a family's fast observation equals the one read from its JSON board, and actions
//! name the same moves as their text.

use zerosum_core::conformance::SplitMix;
use zerosum_core::Side;
use zerosum_games::observation::{from_board_json, PLANES};
use zerosum_games::{families, new_game, DynGame, GameSpec};

/// Every family's example specs.
fn example_specs() -> Vec<GameSpec> {
    families()
        .iter()
        .flat_map(|family| family.examples().iter())
        .map(|text| text.parse().expect("an example spec parses"))
        .collect()
}

/// The observation of `game` read from its JSON board.
fn observation_from_json(game: &dyn DynGame) -> Vec<f32> {
    let (rows, cols) = game.observation_grid();
    let mut out = vec![f32::NAN; PLANES * rows * cols];
    let json = game.to_json();
    from_board_json(
        game.spec().family(),
        &json["board"],
        game.to_move(),
        &mut out,
    );
    out
}

/// Random playouts (at most 40 plies each) of every example spec, checking `check` at every
/// position on the way.
fn on_random_positions(mut check: impl FnMut(&mut dyn DynGame)) {
    let mut rng = SplitMix::new(34);
    for spec in example_specs() {
        for _ in 0..3 {
            let mut game = new_game(&spec).unwrap();
            for _ in 0..40 {
                check(game.as_mut());
                let actions = game.legal_actions();
                if actions.is_empty() {
                    break;
                }
                game.play_action(actions[rng.below(actions.len())]).unwrap();
            }
        }
    }
}

#[test]
fn every_family_writes_the_observation_its_json_board_shows() {
    let mut positions = 0;
    on_random_positions(|game| {
        let (rows, cols) = game.observation_grid();
        let json = game.to_json();
        assert_eq!(rows, json["board"]["rows"].as_u64().unwrap() as usize);
        assert_eq!(cols, json["board"]["cols"].as_u64().unwrap() as usize);
        let mut fast = vec![f32::NAN; PLANES * rows * cols];
        game.write_observation(&mut fast);
        assert_eq!(
            fast,
            observation_from_json(game),
            "{} after {:?}",
            game.spec(),
            game.history()
        );
        let area = rows * cols;
        let to_move = if game.to_move() == Side::First {
            1.0
        } else {
            0.0
        };
        assert!(fast[2 * area..].iter().all(|&v| v == to_move));
        positions += 1;
    });
    assert!(positions > 100, "only {positions} positions");
}

#[test]
fn stones_on_the_board_count_in_the_stone_planes() {
    // Tic-tac-toe after b2 (X) and a1 (O): X's plane holds b2, O's plane a1, X to move.
    let mut game = new_game(&"tictactoe".parse().unwrap()).unwrap();
    game.play_list("b2 a1").unwrap();
    let mut out = vec![0.0; 27];
    game.write_observation(&mut out);
    let first: Vec<f32> = out[..9].to_vec();
    let second: Vec<f32> = out[9..18].to_vec();
    assert_eq!(first, [0., 0., 0., 0., 1., 0., 0., 0., 0.]);
    assert_eq!(second, [1., 0., 0., 0., 0., 0., 0., 0., 0.]);
    assert!(out[18..].iter().all(|&v| v == 1.0));
    // Hex 3x3 with the swap: after the swap the first player's stone is the white one.
    let mut hex = new_game(&"hex:3:swap-pieces".parse().unwrap()).unwrap();
    hex.play("b2").unwrap();
    let mut before = vec![0.0; 27];
    hex.write_observation(&mut before);
    assert_eq!(before[4], 1.0, "the first player's stone on b2");
    hex.play("swap").unwrap();
    let mut after = vec![0.0; 27];
    hex.write_observation(&mut after);
    assert_eq!(
        after[..9].iter().sum::<f32>() + after[9..18].iter().sum::<f32>(),
        1.0
    );
}

#[test]
fn no_game_outlasts_its_max_plies() {
    let mut rng = SplitMix::new(7);
    for spec in example_specs() {
        let bound = new_game(&spec)
            .unwrap()
            .max_plies()
            .expect("a built-in family's bound");
        for _ in 0..3 {
            let mut game = new_game(&spec).unwrap();
            while !game.status().is_over() {
                assert!(
                    game.ply() < bound,
                    "{spec}: ply {} of at most {bound}",
                    game.ply()
                );
                let actions = game.legal_actions();
                game.play_action(actions[rng.below(actions.len())]).unwrap();
            }
            assert!(game.ply() <= bound, "{spec}");
        }
    }
}

#[test]
fn actions_name_the_moves_their_text_names() {
    on_random_positions(|game| {
        let texts = game.legal_moves();
        let actions = game.legal_actions();
        assert_eq!(texts.len(), actions.len());
        for (text, &action) in texts.iter().zip(&actions) {
            assert!(action < game.action_count());
            assert_eq!(game.action_of(text).unwrap(), action);
            assert_eq!(game.action_text(action).as_deref(), Some(text.as_str()));
            let mut by_action = game.clone_box();
            let mut by_text = game.clone_box();
            assert_eq!(&by_action.play_action(action).unwrap(), text);
            by_text.play(text).unwrap();
            assert_eq!(by_action.hash(), by_text.hash());
        }
    });
}

#[test]
fn an_action_that_names_no_legal_move_is_refused_with_its_reason() {
    let mut game = new_game(&"connectx:2x3x2".parse().unwrap()).unwrap();
    game.play_action(0).unwrap();
    game.play_action(0).unwrap();
    let full = game.play_action(0).unwrap_err().to_string();
    assert!(full.contains("column full"), "{full}");
    let beyond = game.play_action(3).unwrap_err().to_string();
    assert!(beyond.contains("ids run from 0 to 2"), "{beyond}");
    assert_eq!(game.ply(), 2);
}
