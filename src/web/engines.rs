//! The engines `serve` offers, each a name for a player spec, checked when the server
//! starts; and running one off the async runtime, its failures turned into a reason.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Duration;

use super::table::{check_player, Table};
use crate::nn::{shipped_net, NetInfo, NetSource};
use crate::nnue::shipped_nnue;
use crate::players::PlayerSpec;
use crate::train::TrainedNet;

/// Simulations per move a net is offered with, the shipped ones and the trained ones.
pub const OFFERED_SIMULATIONS: u32 = 800;

/// The engines offered when `--engine` is not given.
pub const DEFAULT_ENGINES: [&str; 3] = ["easy=alphabeta:depth=1", "medium=alphabeta:depth=3", "hard=alphabeta:ms=1000"];

/// The name the nets shipped in the binary are offered by (when no `--engine` is given).
pub const SHIPPED_ENGINE: &str = "net";

/// The nets shipped in the binary as one engine, `NAME=SPEC`, at [`OFFERED_SIMULATIONS`]
/// simulations a move, with what the page says of it (whose net, how long it trained);
/// `None` when no net ships.
pub fn shipped_engine() -> Option<(String, String)> {
    let origins: Vec<String> = GAMES
        .iter()
        .filter_map(|&game| {
            let info = NetInfo::parse(Path::new(game), shipped_net(game)?);
            Some(format!("{game}: {}", info.map_or_else(|e| e.to_string(), |info| info.provenance.origin())))
        })
        .collect();
    (!origins.is_empty()).then(|| {
        let spec = format!("{SHIPPED_ENGINE}=net(sims={OFFERED_SIMULATIONS})");
        let about = format!(
            "the net that ships with xiangqi-zero, {OFFERED_SIMULATIONS} simulations a move ({})",
            origins.join("; ")
        );
        (spec, about)
    })
}

/// The shipped NNUE's levels, by time per move: the engine's name and its milliseconds.
pub const NNUE_LEVELS: [(&str, u64); 3] = [("nnue-0.1s", 100), ("nnue-1s", 1000), ("nnue-5s", 5000)];

/// The shipped NNUE as one engine per level of [`NNUE_LEVELS`], `NAME=SPEC`, with what the
/// page says of it (its time a move, whose net); none when it does not load.
pub fn shipped_nnue_engines() -> Vec<(String, String)> {
    let Ok(net) = shipped_nnue() else { return Vec::new() };
    let origin = net.provenance.split(':').next().unwrap_or_default().to_string();
    NNUE_LEVELS
        .iter()
        .map(|(name, ms)| {
            let spec = format!("{name}=nnue(ms={ms})");
            let seconds = *ms as f64 / 1000.0;
            (spec, format!("alpha-beta with the NNUE that ships with xiangqi-zero, {seconds} s a move ({origin})"))
        })
        .collect()
}

/// A trained net as an engine, `NAME=SPEC` (the net in MCTS at [`OFFERED_SIMULATIONS`]
/// simulations a move), with what the page says of it: whose net, how strong it measured.
pub fn trained_engine(net: &TrainedNet) -> (String, String) {
    let spec = format!("{}=net(sims={OFFERED_SIMULATIONS}):{}", net.name(), net.model.display());
    let measured = net.measured.as_deref().unwrap_or("not evaluated yet");
    let about = format!(
        "a trained net: run {}, generation {}, {OFFERED_SIMULATIONS} simulations a move; {measured}",
        net.run, net.generation
    );
    (spec, about)
}

/// The hint engine of local games.
pub const HINT_SPEC: &str = "alphabeta:depth=4";

/// The games each engine is offered for.
const GAMES: [&str; 2] = ["xiangqi", "banqi"];

/// How long an engine with no time limit of its own may think before it loses.
const NO_LIMIT: Duration = Duration::from_secs(120);

/// One offered engine.
#[derive(Clone, Debug)]
pub struct Engine {
    /// The name players pick it by (`easy`).
    pub name: String,
    /// The spec as given (`alphabeta:depth=1`).
    pub text: String,
    /// The spec read.
    pub spec: PlayerSpec,
    /// The games it plays.
    pub games: Vec<&'static str>,
    /// What the page says of it (a trained net: whose, and how strong it measured).
    pub about: Option<String>,
    /// What a game against it stores to find it again after a restart: the spec with a
    /// net's file by absolute path, and that file's content hash.
    pub identity: EngineIdentity,
}

/// An engine as a game stores it: what it is, not the name a server offered it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineIdentity {
    /// The spec, a net's path absolute (`net(sims=800):/home/me/run/models/gen0018.safetensors`).
    pub spec: String,
    /// A net's content hash (`crc32:1a2b3c4d`), `None` for engines without a file.
    pub net_hash: Option<String>,
}

impl EngineIdentity {
    /// The identity of the player `text` spells, `spec` once read: a net's path made
    /// absolute (against this process's folder) and its file hashed.
    fn of(text: &str, spec: &mut PlayerSpec) -> Result<EngineIdentity, String> {
        let PlayerSpec::Net { net, .. } = spec else {
            return Ok(EngineIdentity { spec: text.to_string(), net_hash: None });
        };
        let (spec, bytes) = match net {
            NetSource::File(path) => {
                *path = std::path::absolute(&*path).map_err(|e| format!("`{}`: {e}", path.display()))?;
                let options = text.find("):").map_or("net", |close| &text[..=close]);
                let bytes = std::fs::read(&*path)
                    .map_err(|e| format!("its net file {} cannot be read: {e}", path.display()))?;
                (format!("{options}:{}", path.display()), bytes)
            }
            NetSource::Shipped => {
                (text.to_string(), GAMES.iter().filter_map(|game| shipped_net(game)).flatten().copied().collect())
            }
        };
        Ok(EngineIdentity { spec, net_hash: Some(format!("crc32:{:08x}", crc32fast::hash(&bytes))) })
    }

    /// The player this identity names, if it can still be had: a net only while its file
    /// holds the same bytes as when the game began.
    pub fn player(&self) -> Result<PlayerSpec, String> {
        let mut spec: PlayerSpec = self.spec.parse()?;
        let found = EngineIdentity::of(&self.spec, &mut spec)?;
        if found.net_hash != self.net_hash {
            return Err(match found.net_hash {
                Some(_) => format!("its net file has changed since the game began ({})", self.spec),
                None => format!("`{}` is no longer a net", self.spec),
            });
        }
        Ok(spec)
    }
}

impl Engine {
    /// Reads `NAME=SPEC` and checks that the player can be built for some game.
    pub fn parse(text: &str) -> Result<Engine, String> {
        let (name, spec_text) = text
            .split_once('=')
            .map(|(name, spec)| (name.trim(), spec.trim()))
            .filter(|(name, _)| !name.is_empty())
            .ok_or_else(|| format!("engine `{text}`: expected NAME=SPEC, e.g. easy=alphabeta:depth=1"))?;
        let mut spec: PlayerSpec = spec_text.parse().map_err(|e| format!("engine `{name}`: {e}"))?;
        let identity = EngineIdentity::of(spec_text, &mut spec).map_err(|e| format!("engine `{name}`: {e}"))?;
        let mut games = Vec::new();
        let mut why = Vec::new();
        for game in GAMES {
            match check_player(game, &spec) {
                Ok(()) => games.push(game),
                Err(e) => why.push(format!("{game}: {e}")),
            }
        }
        if games.is_empty() {
            return Err(format!("engine `{name}` cannot play: {}", why.join("; ")));
        }
        Ok(Engine { name: name.to_string(), text: spec_text.to_string(), spec, games, about: None, identity })
    }

    /// Reads every `NAME=SPEC`; names must differ.
    pub fn parse_all(texts: &[String]) -> Result<Vec<Engine>, String> {
        let mut engines: Vec<Engine> = Vec::new();
        for text in texts {
            let engine = Engine::parse(text)?;
            if engines.iter().any(|e| e.name == engine.name) {
                return Err(format!("engine `{}` is named twice", engine.name));
            }
            engines.push(engine);
        }
        Ok(engines)
    }
}

/// The player of a restored engine game that stored the engine `name` as `identity`
/// (`None`: a game stored before identities were, found by its name alone): the offered
/// engine that is the same player, else the stored player itself if it can still be had;
/// or why the game cannot go on against it.
pub fn restored_engine(
    name: &str,
    identity: Option<&EngineIdentity>,
    offered: &[Engine],
) -> Result<PlayerSpec, String> {
    let missing = |why: String| format!("the engine `{name}` cannot be had on this server: {why}");
    let Some(identity) = identity else {
        let by_name = offered.iter().find(|e| e.name == name).map(|e| e.spec.clone());
        return by_name.ok_or_else(|| missing("no engine of that name is offered".to_string()));
    };
    match offered.iter().find(|e| &e.identity == identity) {
        Some(same) => Ok(same.spec.clone()),
        None => identity.player().map_err(missing),
    }
}

/// How long `spec` may think on one move before it is deemed to have failed: far over
/// its own time limit, or [`NO_LIMIT`] when it has none.
fn allowance(spec: &PlayerSpec) -> Duration {
    let movetime = match spec {
        PlayerSpec::AlphaBeta { limits, .. } | PlayerSpec::Nnue { limits, .. } => limits.movetime,
        PlayerSpec::Engine(config) => config.limits.movetime,
        _ => None,
    };
    movetime.map_or(NO_LIMIT, |time| time * 10 + Duration::from_secs(5))
}

/// Lets the player `spec` describes choose a move on `table`, on a blocking thread: the
/// move, or why the engine failed (an error, a panic, far over its time).
pub async fn think(table: Box<dyn Table>, spec: PlayerSpec, seed: u64) -> Result<String, String> {
    let limit = allowance(&spec);
    let job = tokio::task::spawn_blocking(move || catch_unwind(AssertUnwindSafe(|| table.think(&spec, seed))));
    match tokio::time::timeout(limit, job).await {
        Ok(Ok(Ok(answer))) => answer,
        Ok(Ok(Err(_))) | Ok(Err(_)) => Err("the engine crashed".to_string()),
        Err(_) => Err(format!("no move within {} s", limit.as_secs())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_checked_and_games_listed() {
        let easy = Engine::parse("easy=alphabeta:depth=1").unwrap();
        assert_eq!((easy.name.as_str(), easy.games.clone()), ("easy", vec!["xiangqi", "banqi"]));
        let uci = Engine::parse("ext=uci:/nonexistent/engine").unwrap();
        assert_eq!(uci.games, vec!["xiangqi"]);
        assert_eq!(
            Engine::parse("bad=alphabeta:depht=2").unwrap_err(),
            "engine `bad`: `alphabeta:depht=2`: unknown option `depht`"
        );
        assert!(Engine::parse("nospec").unwrap_err().starts_with("engine `nospec`: expected NAME=SPEC"));
        let twice = ["a=random".to_string(), "a=random".to_string()];
        assert_eq!(Engine::parse_all(&twice).unwrap_err(), "engine `a` is named twice");
    }

    #[test]
    fn the_shipped_nnue_is_offered_for_xiangqi_at_each_level_of_time() {
        let engines = shipped_nnue_engines();
        assert_eq!(engines.len(), NNUE_LEVELS.len());
        for ((text, about), (name, ms)) in engines.iter().zip(NNUE_LEVELS) {
            let engine = Engine::parse(text).unwrap();
            assert_eq!((engine.name.as_str(), engine.games.as_slice()), (name, ["xiangqi"].as_slice()));
            let PlayerSpec::Nnue { file: None, limits, .. } = engine.spec else { panic!("{text}") };
            assert_eq!(limits.movetime, Some(Duration::from_millis(ms)));
            assert!(about.contains("NNUE run") && about.contains(" s a move"), "{about}");
        }
    }

    #[test]
    fn the_shipped_nets_are_one_engine_that_says_where_each_comes_from() {
        let (text, about) = shipped_engine().expect("nets ship");
        let engine = Engine::parse(&text).unwrap();
        assert_eq!((engine.name.as_str(), engine.text.as_str()), (SHIPPED_ENGINE, "net(sims=800)"));
        // Offered for both games, each net's origin told.
        assert!(engine.games.contains(&"xiangqi") && engine.games.contains(&"banqi"));
        for game in ["xiangqi", "banqi"] {
            let info = NetInfo::parse(Path::new(game), shipped_net(game).unwrap()).unwrap();
            let generation = format!("generation {}", info.provenance.generation.unwrap());
            assert!(about.contains(&format!("{game}: {generation} of the run ")), "{about}");
        }
        assert!(about.contains("code at "), "{about}");
    }
}
