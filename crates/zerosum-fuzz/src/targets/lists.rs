//! Engine lists (zerosum-arena `engine_list`): the JSON file naming external engines.

use std::fs;

use zerosum_arena::{EngineList, PlayerSpec};

use super::records::scratch_file;
use super::{corpus_of, Target, Verdict};

pub const ENGINE_LIST: Target = Target {
    name: "engine-list",
    about: "engine lists (--engines FILE, EngineList::load); every listed name resolves to a valid player spec",
    corpus: || {
        corpus_of(&[
            r#"{"engines": [{"name": "mybot", "cmd": "/bin/mybot --fast", "proto": "gtp"}]}"#,
            r#"{"engines": [{"name": "a", "cmd": "x", "proto": "gomocup"}, {"name": "b", "cmd": "y z", "proto": "gtp"}]}"#,
            r#"{"engines": []}"#,
        ])
    },
    tokens: &[
        r#""engines""#, r#""name""#, r#""cmd""#, r#""proto""#, r#""gtp""#, r#""gomocup""#,
        r#""uci""#, ",", "=", "\\u0000", "null",
    ],
    share: 1,
    run: |input| {
        let path = scratch_file("engines.json");
        fs::write(&path, input).expect("a scratch file");
        let list = EngineList::load(&path);
        if let Ok(list) = &list {
            for name in list.names() {
                let spec = list.resolve(name);
                spec.parse::<PlayerSpec>()
                    .unwrap_or_else(|e| panic!("listed `{name}` resolves to `{spec}`: {e}"));
            }
        }
        let _ = fs::remove_file(&path);
        Verdict::of(&list)
    },
};
