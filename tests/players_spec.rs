//! Player specs: what parses, and the one-line errors for what does not.

use xiangqi_zero::nn::NetSource;
use xiangqi_zero::players::{PlayerSpec, Protocol};

fn error(text: &str) -> String {
    text.parse::<PlayerSpec>().expect_err(text)
}

#[test]
fn good_specs_parse() {
    assert!(matches!("random".parse(), Ok(PlayerSpec::Random { seed: None })));
    assert!(matches!("random:seed=3".parse(), Ok(PlayerSpec::Random { seed: Some(3) })));
    match "alphabeta:depth=5,hash=64".parse() {
        Ok(PlayerSpec::AlphaBeta { limits, hash_mb }) => assert_eq!((limits.depth, hash_mb), (Some(5), 64)),
        other => panic!("{other:?}"),
    }
    match "alphabeta".parse() {
        Ok(PlayerSpec::AlphaBeta { limits, .. }) => assert_eq!(limits.depth, Some(4)),
        other => panic!("{other:?}"),
    }
    match "uci(ranks=1,ms=250,option.UCI_Variant=xiangqi):/usr/bin/fairy-stockfish --flag 'a b'".parse() {
        Ok(PlayerSpec::Engine(config)) => {
            assert_eq!(config.command, ["/usr/bin/fairy-stockfish", "--flag", "a b"]);
            assert!(config.ranks_from_one);
            assert_eq!(config.protocol, Protocol::Detect);
            assert_eq!(config.limits.movetime, Some(std::time::Duration::from_millis(250)));
            assert_eq!(config.options, [("UCI_Variant".to_string(), "xiangqi".to_string())]);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!("ucci:eleeye".parse(), Ok(PlayerSpec::Engine(c)) if c.protocol == Protocol::Ucci));
}

#[test]
fn bad_specs_say_what_is_wrong() {
    assert!(error("alfabeta:depth=3").contains("unknown player"));
    assert!(error("alphabeta:depht=3").contains("unknown option `depht`"));
    assert!(error("alphabeta:depth=three").contains("needs a number"));
    assert!(error("alphabeta:hash=100000000").contains("hash must be 1 to 4096"));
    assert!(error("alphabeta:depth").contains("key=value"));
    assert!(error("uci:").contains("no engine command"));
    assert!(error("uci(ms=5:engine").contains("(options):COMMAND"));
    assert!(error("uci:engine 'unbalanced").contains("quotes"));
    assert!(error("uci(ranks=2):engine").contains("ranks must be 0 or 1"));
    // Degenerate texts: each refused in one line that quotes it and says why.
    for (text, why) in [
        ("", "unknown player"),
        (":", "unknown player"),
        ("(((", "unknown player"),
        ("random:seed", "expected key=value, found `seed`"),
        ("uci(", "expected `(options):COMMAND`"),
        ("alphabeta:,,,depth=1=2", "`depth` needs a number, not `1=2`"),
    ] {
        let message = error(text);
        assert!(message.contains(&format!("`{text}")) && message.contains(why), "{text}: {message}");
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn net_specs_take_search_options_and_a_device() {
    match "net(sims=50,batch=8,device=cpu):models/gen0003.safetensors".parse() {
        Ok(PlayerSpec::Net { net, config, device, .. }) => {
            assert_eq!(net, NetSource::File("models/gen0003.safetensors".into()));
            assert_eq!((config.simulations, config.batch_size, device.as_str()), (50, 8, "cpu"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!("net:a.safetensors".parse(), Ok(PlayerSpec::Net { device, .. }) if device == "cpu"));
    match "net(sims=50,cpuct=2.5,fpu=0):a.safetensors".parse() {
        // `cpuct` is a play setting, which a net file may record too; the spec's wins.
        Ok(PlayerSpec::Net { config, play, .. }) => {
            assert_eq!((play.c_puct, play.apply(config).fpu_reduction), (Some(2.5), 0.0))
        }
        other => panic!("{other:?}"),
    }
    assert!(error("mcts:cpuct=-1").contains("`cpuct` needs a number of 0 or more"));
    assert!(error("net(cpuct=-1):a.safetensors").contains("`cpuct` needs a number of 0 or more"));
    assert!(error("mcts:fpu=x").contains("`fpu` needs a number"));
    assert!(error("net:").contains("no network file"));
    assert!(error("net(eval=material):a.safetensors").contains("evaluator is its net"));
    assert!(error("net(device=gpu):a.safetensors").contains("bad device"));
    if !cfg!(any(feature = "cuda", feature = "wgpu")) {
        assert!(error("net(device=0):a.safetensors").contains("--features cuda"));
    }
}
