//! The engines `serve` offers, each a name for a player spec, checked when the server
//! starts; and running one off the async runtime, its failures turned into a reason.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Duration;

use super::table::{check_player, Table};
use crate::eval::PlayerSpec;
use crate::nn::{shipped_net, NetInfo};
use crate::train::OFFERED_SIMULATIONS;

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
}

impl Engine {
    /// Reads `NAME=SPEC` and checks that the player can be built for some game.
    pub fn parse(text: &str) -> Result<Engine, String> {
        let (name, spec_text) = text
            .split_once('=')
            .map(|(name, spec)| (name.trim(), spec.trim()))
            .filter(|(name, _)| !name.is_empty())
            .ok_or_else(|| format!("engine `{text}`: expected NAME=SPEC, e.g. easy=alphabeta:depth=1"))?;
        let spec: PlayerSpec = spec_text.parse().map_err(|e| format!("engine `{name}`: {e}"))?;
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
        Ok(Engine { name: name.to_string(), text: spec_text.to_string(), spec, games, about: None })
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

/// How long `spec` may think on one move before it is deemed to have failed: far over
/// its own time limit, or [`NO_LIMIT`] when it has none.
fn allowance(spec: &PlayerSpec) -> Duration {
    let movetime = match spec {
        PlayerSpec::AlphaBeta { limits, .. } => limits.movetime,
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
    fn the_shipped_nets_are_one_engine_that_says_where_each_comes_from() {
        let (text, about) = shipped_engine().expect("a Xiangqi net ships");
        let engine = Engine::parse(&text).unwrap();
        assert_eq!((engine.name.as_str(), engine.text.as_str()), (SHIPPED_ENGINE, "net(sims=800)"));
        // Offered for the games a net ships for (no Banqi net yet).
        assert!(engine.games.contains(&"xiangqi"));
        assert_eq!(engine.games.contains(&"banqi"), shipped_net("banqi").is_some());
        let info = NetInfo::parse(Path::new("xiangqi"), shipped_net("xiangqi").unwrap()).unwrap();
        let generation = format!("generation {}", info.provenance.generation.unwrap());
        assert!(about.contains(&format!("xiangqi: {generation} of the run ")) && about.contains("code at "), "{about}");
    }
}
