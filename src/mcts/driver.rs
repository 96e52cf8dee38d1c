//! The multi-game driver: one thread advances many games at once and gathers the leaves
//! of all their searches into one evaluator call, so that every network call is a full
//! batch. It plays the moves (temperature, Gumbel), resolves chance points by drawing
//! from the exact outcome probabilities, applies playout-cap randomization and
//! resignation, and reports every searched move and every finished game.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::config::SearchConfig;
use super::evaluator::{Batch, Evaluator};
use super::search::Search;
use super::search_result::SearchResult;
use crate::game::sample_outcome;
use crate::game::{EndReason, Game, Player, Status};

/// One searched move of a game.
#[derive(Clone, Debug)]
pub struct MoveRecord<G: Game> {
    /// The game's number (0, 1, … in the order the games started).
    pub game_id: u64,
    /// Plies played before this move.
    pub ply: usize,
    /// The position searched.
    pub position: G,
    /// The search's statistics and training target; `result.full` says whether the move
    /// was fully searched (to be recorded under playout-cap randomization).
    pub result: SearchResult<G::Move>,
    /// The move played (not played if the mover resigned instead).
    pub played: G::Move,
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// By the rules.
    Rules(EndReason),
    /// This player resigned.
    Resigned(Player),
    /// The game reached the driver's ply limit (scored a draw).
    MaxPlies,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameOver<G: Game> {
    /// The game's number.
    pub game_id: u64,
    /// The final position.
    pub position: G,
    /// The winner; `None` for a draw.
    pub winner: Option<Player>,
    /// Why it ended.
    pub ending: Ending,
    /// Plies played.
    pub plies: usize,
    /// Whether resignation was off in this game (the playthrough share).
    pub playthrough: bool,
    /// In a playthrough game, the first player whose value fell below the resign
    /// threshold: a false resignation if that player did not lose.
    pub would_have_resigned: Option<Player>,
}

/// What the driver reports.
#[derive(Clone, Debug)]
pub enum Event<G: Game> {
    /// A move was searched (and played).
    Move(MoveRecord<G>),
    /// A game ended.
    GameOver(GameOver<G>),
}

/// One game in progress.
struct Slot<G: Game> {
    id: u64,
    search: Search<G>,
    ply: usize,
    /// Consecutive moves of each player with a value at or below the resign threshold.
    low: [u32; 2],
    playthrough: bool,
    would_have_resigned: Option<Player>,
    searching: bool,
    active: bool,
}

/// Many games searched together, one evaluator call for the leaves of all of them.
pub struct Driver<G: Game, E> {
    config: SearchConfig,
    evaluator: E,
    slots: Vec<Slot<G>>,
    batch: Batch<G>,
    rng: StdRng,
    new_game: Box<dyn FnMut(&mut StdRng) -> G + Send>,
    next_id: u64,
    /// Games still to start (`None`: no limit).
    games_left: Option<u64>,
    max_plies: usize,
    /// Where the next gathering round starts, so that every game gets its turn.
    cursor: usize,
    simulations: u64,
}

impl<G: Game, E: Evaluator<G>> Driver<G, E> {
    /// A driver of `games` games at once, each started by `new_game` (given the driver's
    /// random generator, for openings), searched under `config` with `evaluator`.
    pub fn new(
        config: SearchConfig,
        evaluator: E,
        games: usize,
        seed: u64,
        new_game: impl FnMut(&mut StdRng) -> G + Send + 'static,
    ) -> Driver<G, E> {
        let mut driver = Driver {
            config,
            evaluator,
            slots: Vec::with_capacity(games),
            batch: Batch::new(),
            rng: StdRng::seed_from_u64(seed),
            new_game: Box::new(new_game),
            next_id: 0,
            games_left: None,
            max_plies: usize::MAX,
            cursor: 0,
            simulations: 0,
        };
        for _ in 0..games {
            let slot = driver.new_slot();
            driver.slots.push(slot);
        }
        driver
    }

    /// Plays `games` games in all (counting those already started, and stopping games
    /// beyond the limit that have not begun); once they are over, [`Driver::step`]
    /// returns false.
    pub fn limit_games(&mut self, games: u64) {
        self.games_left = Some(games.saturating_sub(self.next_id));
        for slot in &mut self.slots {
            if slot.id >= games && slot.ply == 0 && slot.search.pending() == 0 {
                slot.active = false;
            }
        }
    }

    /// Ends games still going after `plies` plies as draws.
    pub fn set_max_plies(&mut self, plies: usize) {
        self.max_plies = plies;
    }

    /// Simulations run so far, over all games.
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    /// The evaluator.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.evaluator
    }

    /// The next game: its number, its start, and whether nobody may resign in it.
    fn next_game(&mut self) -> (u64, G, bool) {
        let game = (self.new_game)(&mut self.rng);
        let id = self.next_id;
        self.next_id += 1;
        if let Some(left) = &mut self.games_left {
            *left = left.saturating_sub(1);
        }
        let playthrough =
            self.config.resign_threshold.is_some() && self.rng.random::<f32>() < self.config.resign_playthrough;
        (id, game, playthrough)
    }

    fn new_slot(&mut self) -> Slot<G> {
        let (id, game, playthrough) = self.next_game();
        let search = Search::new(game, self.config.clone(), self.rng.random());
        Slot { id, search, ply: 0, low: [0; 2], playthrough, would_have_resigned: None, searching: false, active: true }
    }

    /// One round: starts the searches that need starting, gathers leaves from the games
    /// in turn until the batch is full, evaluates them in one call, backs them up, and
    /// plays the moves whose search is over, reporting to `sink`. Returns false once no
    /// game is left.
    pub fn step(&mut self, sink: &mut dyn FnMut(Event<G>)) -> bool {
        let active = self.slots.iter().filter(|s| s.active).count();
        if active == 0 {
            return false;
        }
        for slot in self.slots.iter_mut().filter(|s| s.active && !s.searching) {
            let full = match self.config.cheap_simulations {
                Some(_) => self.rng.random::<f32>() < self.config.full_search_probability,
                None => true,
            };
            let simulations = if full { self.config.simulations } else { self.config.cheap_simulations.unwrap_or(0) };
            slot.search.start(simulations.max(1), full);
            slot.searching = true;
        }
        // Gather: each game in turn adds its share, until the batch is full.
        let size = self.config.batch_size;
        let share = size.div_ceil(active).max(1);
        self.batch.clear();
        let count = self.slots.len();
        let before: u64 = self.slots.iter().map(|s| s.search.simulations() as u64).sum();
        for k in 0..count {
            if self.batch.len() >= size {
                self.cursor = (self.cursor + k) % count;
                break;
            }
            let slot = &mut self.slots[(self.cursor + k) % count];
            if slot.active {
                let room = size - self.batch.len();
                slot.search.gather(&mut self.batch, share.min(room));
            }
        }
        if !self.batch.is_empty() {
            self.evaluator.evaluate(&mut self.batch);
        }
        for slot in self.slots.iter_mut().filter(|s| s.search.pending() > 0) {
            slot.search.apply(&self.batch);
        }
        let after: u64 = self.slots.iter().map(|s| s.search.simulations() as u64).sum();
        self.simulations += after - before;
        for i in 0..count {
            if self.slots[i].active && self.slots[i].search.finished() {
                self.finish_move(i, sink);
            }
        }
        true
    }

    /// Runs until every game is over (with a game limit) — a convenience for tests.
    pub fn run(&mut self, sink: &mut dyn FnMut(Event<G>)) {
        assert!(self.games_left.is_some(), "Driver::run needs a game limit");
        while self.step(sink) {}
    }

    /// Plays the move of slot `i`'s finished search, and ends or replaces the game.
    fn finish_move(&mut self, i: usize, sink: &mut dyn FnMut(Event<G>)) {
        let slot = &mut self.slots[i];
        slot.searching = false;
        let result = slot.search.result();
        let mover = slot.search.game().to_move();
        let Some(played) = slot.search.choose_move(slot.ply) else {
            // No move: the game is over at the root.
            return self.end_game(i, None, sink);
        };
        let position = slot.search.game().clone();
        let value = result.value;
        sink(Event::Move(MoveRecord { game_id: slot.id, ply: slot.ply, position, result, played }));
        if let Some(threshold) = self.config.resign_threshold {
            let low = &mut slot.low[mover.index()];
            *low = if value <= threshold { *low + 1 } else { 0 };
            if *low >= self.config.resign_consecutive.max(1) {
                if !slot.playthrough {
                    return self.end_game(i, Some(Ending::Resigned(mover)), sink);
                }
                slot.would_have_resigned.get_or_insert(mover);
            }
        }
        slot.search.play(played);
        let mut outcomes = Vec::new();
        while slot.search.game().is_chance() {
            slot.search.game().chance_outcomes(&mut outcomes);
            slot.search.apply_outcome(sample_outcome(&outcomes, &mut self.rng));
        }
        slot.ply += 1;
        if slot.search.is_over() {
            self.end_game(i, None, sink);
        } else if slot.ply >= self.max_plies {
            self.end_game(i, Some(Ending::MaxPlies), sink);
        }
    }

    /// Reports slot `i`'s game as over (by the rules unless `ending` says otherwise) and
    /// starts the next game in its place, if any is left.
    fn end_game(&mut self, i: usize, ending: Option<Ending>, sink: &mut dyn FnMut(Event<G>)) {
        let slot = &self.slots[i];
        let status = slot.search.game().status();
        let (winner, ending) = match (ending, status) {
            (Some(Ending::Resigned(loser)), _) => (Some(loser.opponent()), Ending::Resigned(loser)),
            (Some(other), _) => (None, other),
            (None, Status::Over { winner, reason }) => (winner, Ending::Rules(reason)),
            (None, Status::Ongoing) => (None, Ending::MaxPlies),
        };
        sink(Event::GameOver(GameOver {
            game_id: slot.id,
            position: slot.search.game().clone(),
            winner,
            ending,
            plies: slot.ply,
            playthrough: slot.playthrough,
            would_have_resigned: slot.would_have_resigned,
        }));
        if self.games_left.is_none_or(|left| left > 0) {
            // The next game reuses the slot's search and its memory.
            let (id, game, playthrough) = self.next_game();
            let slot = &mut self.slots[i];
            slot.search.reset(game);
            (slot.id, slot.ply, slot.low, slot.playthrough, slot.would_have_resigned) =
                (id, 0, [0; 2], playthrough, None);
        } else {
            self.slots[i].active = false;
        }
    }
}
