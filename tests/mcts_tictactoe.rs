//! MCTS on a small solved game, tic-tac-toe written here through the `Game` trait:
//! PUCT converges to the known values and moves, Gumbel search with 16 simulations
//! picks optimal moves and improves on its prior, batched searches leave consistent
//! statistics, tree reuse keeps the subtree, and the multi-game driver plays whole games.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;

use xiangqi_zero::game::{EndReason, Game, GameError, Player, Status};
use xiangqi_zero::mcts::{
    Batch, Budget, Driver, Edge, Ending, Evaluator, Event, Proof, RootSelection, Search, SearchConfig,
    UniformEvaluator, Wdl,
};

/// Tic-tac-toe: cells 0–8 row by row, `First` plays X.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct TicTacToe {
    cells: [u8; 9],
    plies: usize,
}

/// A cell index as the move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Cell(u8);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

impl TicTacToe {
    fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|l| match l.map(|i| self.cells[i]) {
            [1, 1, 1] => Some(Player::First),
            [2, 2, 2] => Some(Player::Second),
            _ => None,
        })
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    type Outcome = Infallible;
    const NAME: &'static str = "tictactoe";

    fn start() -> Self {
        TicTacToe { cells: [0; 9], plies: 0 }
    }

    fn from_text(text: &str) -> Result<Self, GameError> {
        let mut game = TicTacToe::start();
        for (i, c) in text.chars().enumerate().take(9) {
            game.cells[i] = match c {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
        }
        game.plies = game.cells.iter().filter(|&&c| c != 0).count();
        Ok(game)
    }

    fn to_text(&self) -> String {
        self.cells.iter().map(|c| ['.', 'X', 'O'][*c as usize]).collect()
    }

    fn parse_move(&self, text: &str) -> Result<Cell, GameError> {
        text.parse().map(Cell).map_err(|_| GameError::MalformedMove(text.to_string()))
    }

    fn to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<Cell>) {
        out.clear();
        if self.winner().is_none() {
            out.extend((0..9).filter(|&i| self.cells[i as usize] == 0).map(Cell));
        }
    }

    fn play(&mut self, mv: Cell) {
        self.cells[mv.0 as usize] = if self.to_move() == Player::First { 1 } else { 2 };
        self.plies += 1;
    }

    fn apply_outcome(&mut self, outcome: Infallible) {
        match outcome {}
    }

    fn status(&self) -> Status {
        match self.winner() {
            Some(w) => Status::Over { winner: Some(w), reason: EndReason::NoPieces },
            None if self.plies == 9 => Status::Over { winner: None, reason: EndReason::Repetition },
            None => Status::Ongoing,
        }
    }

    fn hash(&self) -> u64 {
        self.cells.iter().fold(0, |h, &c| h * 3 + c as u64)
    }

    fn plies_played(&self) -> usize {
        self.plies
    }
}

/// The exact value of every position for its mover, by minimax.
struct Solver(HashMap<[u8; 9], i8>);

impl Solver {
    fn new() -> Solver {
        let mut solver = Solver(HashMap::new());
        solver.value(&TicTacToe::start());
        solver
    }

    fn value(&mut self, game: &TicTacToe) -> i8 {
        if let Some(&v) = self.0.get(&game.cells) {
            return v;
        }
        let v = match game.status().value_for(game.to_move()) {
            Some(v) => v as i8,
            None => {
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                moves
                    .iter()
                    .map(|&mv| {
                        let mut next = game.clone();
                        next.play(mv);
                        -self.value(&next)
                    })
                    .max()
                    .unwrap()
            }
        };
        self.0.insert(game.cells, v);
        v
    }

    /// The value of playing `mv` for the mover.
    fn move_value(&self, game: &TicTacToe, mv: Cell) -> i8 {
        let mut next = game.clone();
        next.play(mv);
        -self.0[&next.cells]
    }

    /// Every ongoing position, and whether some move is worse than the best.
    fn positions(&self) -> Vec<(TicTacToe, bool)> {
        let mut all: Vec<TicTacToe> = self
            .0
            .keys()
            .map(|cells| TicTacToe { cells: *cells, plies: cells.iter().filter(|&&c| c != 0).count() })
            .filter(|g| !g.status().is_over())
            .collect();
        all.sort_by_key(|g| g.cells);
        all.into_iter()
            .map(|g| {
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                let values: Vec<i8> = moves.iter().map(|&mv| self.move_value(&g, mv)).collect();
                let mixed = values.iter().any(|&v| v != values[0]);
                (g, mixed)
            })
            .collect()
    }
}

fn config(simulations: u32, batch_size: usize) -> SearchConfig {
    SearchConfig { simulations, batch_size, ..SearchConfig::default() }
}

#[test]
fn puct_converges_to_the_solution() {
    let solver = Solver::new();
    let positions: Vec<_> = solver.positions().into_iter().filter(|(_, mixed)| *mixed).collect();
    // Every 8th position where the choice matters, and the start.
    let mut checked = vec![(TicTacToe::start(), false)];
    checked.extend(positions.iter().step_by(8).cloned());
    for (game, _) in &checked {
        let mut search = Search::new(game.clone(), config(20_000, 8), 1);
        let result = search.run(&mut UniformEvaluator::new(), &Budget::simulations(20_000));
        search.validate().unwrap();
        let exact = solver.0[&game.cells] as f32;
        assert!((result.value - exact).abs() < 0.25, "{}: value {} but exact {exact}", game.to_text(), result.value);
        let best = result.best.unwrap();
        assert_eq!(solver.move_value(game, best), exact as i8, "{}: {best} is not optimal", game.to_text());
        // Most visits go to optimal moves.
        let optimal: u32 =
            result.moves.iter().filter(|m| solver.move_value(game, m.mv) == exact as i8).map(|m| m.visits).sum();
        let total: u32 = result.moves.iter().map(|m| m.visits).sum();
        assert!(optimal as f32 > 0.8 * total as f32, "{}: {optimal} of {total} visits optimal", game.to_text());
    }
}

/// Exact values from the solver, and the priors of a rule of thumb — win if you can,
/// else block, else prefer the centre, then corners — which is often right but not
/// always (it knows nothing of forks): a good value and a fair policy, as a trained
/// network would give, for the search to improve on.
struct OracleEvaluator(Solver);

/// The rule of thumb's weight for the mover playing `cell`.
fn rule_of_thumb(game: &TicTacToe, cell: usize) -> f32 {
    let (me, them) = if game.to_move() == Player::First { (1, 2) } else { (2, 1) };
    let completes = |who: u8| {
        LINES.iter().any(|l| l.contains(&cell) && l.iter().filter(|&&i| i != cell).all(|&i| game.cells[i] == who))
    };
    let place = match cell {
        4 => 2.0,
        0 | 2 | 6 | 8 => 1.5,
        _ => 1.0,
    };
    place
        + if completes(me) {
            8.0
        } else if completes(them) {
            4.0
        } else {
            0.0
        }
}

impl Evaluator<TicTacToe> for OracleEvaluator {
    fn evaluate(&mut self, batch: &mut Batch<TicTacToe>) {
        for i in 0..batch.len() {
            let game = batch.game(i).clone();
            let value = self.0.value(&game);
            let moves = batch.moves(i).to_vec();
            for (mv, p) in moves.iter().zip(batch.priors_mut(i)) {
                *p = rule_of_thumb(&game, mv.0 as usize);
            }
            batch.set_value(i, Wdl::from_value(value as f32));
        }
    }
}

#[test]
fn gumbel_with_16_simulations_picks_optimal_moves_and_improves_the_policy() {
    let solver = Solver::new();
    let mut evaluator = OracleEvaluator(Solver::new());
    let gumbel = SearchConfig { root: RootSelection::Gumbel, ..config(16, 4) };
    let (mut positions, mut improved, mut misled) = (0, 0, 0);
    for (game, mixed) in solver.positions() {
        if !mixed {
            continue;
        }
        positions += 1;
        let mut search = Search::new(game.clone(), gumbel.clone(), 3);
        let result = search.run(&mut evaluator, &Budget::simulations(16));
        search.validate().unwrap();
        let exact = solver.0[&game.cells];
        let chosen = search.choose_move(game.plies).unwrap();
        assert_eq!(solver.move_value(&game, chosen), exact, "{}: {chosen} is not optimal", game.to_text());
        let optimal = |weight: &dyn Fn(&xiangqi_zero::mcts::MoveStats<Cell>) -> f32| -> f32 {
            result.moves.iter().filter(|m| solver.move_value(&game, m.mv) == exact).map(weight).sum()
        };
        let (target, prior) = (optimal(&|m| m.policy), optimal(&|m| m.prior));
        assert!(target > prior, "{}: target puts {target} on optimal moves, the prior {prior}", game.to_text());
        improved += 1;
        let favourite = result.moves.iter().max_by(|a, b| a.prior.total_cmp(&b.prior)).unwrap();
        misled += (solver.move_value(&game, favourite.mv) != exact) as usize;
    }
    assert!(positions > 3000 && improved == positions);
    // The rule of thumb alone would have erred in some of them.
    assert!(misled > 100, "{misled}");
}

#[test]
fn batched_searches_leave_consistent_statistics() {
    let solver = Solver::new();
    for (root, batch) in [(RootSelection::Puct, 1), (RootSelection::Puct, 16), (RootSelection::Gumbel, 8)] {
        for (game, _) in solver.positions().iter().step_by(37) {
            let mut config = SearchConfig { root, noise: true, forced_playouts: true, ..config(300, batch) };
            config.temperature = 1.0;
            let mut search = Search::new(game.clone(), config, 5);
            let result = search.run(&mut UniformEvaluator::with_rollouts(9, 1), &Budget::simulations(300));
            search.validate().unwrap_or_else(|e| panic!("{}: {e}", game.to_text()));
            let visits: u32 = result.moves.iter().map(|m| m.visits).sum();
            assert_eq!(visits + 1, result.visits, "{}", game.to_text());
            assert_eq!(result.simulations, 300);
            let policy: f32 = result.moves.iter().map(|m| m.policy).sum();
            assert!((policy - 1.0).abs() < 1e-4);
        }
    }
}

/// Exact values, and a prior with nearly all its weight on the centre.
struct CentreFirst(Solver);

impl Evaluator<TicTacToe> for CentreFirst {
    fn evaluate(&mut self, batch: &mut Batch<TicTacToe>) {
        for i in 0..batch.len() {
            let value = self.0.value(batch.game(i));
            let moves = batch.moves(i).to_vec();
            for (mv, p) in moves.iter().zip(batch.priors_mut(i)) {
                *p = if mv.0 == 4 { 1000.0 } else { 1.0 };
            }
            batch.set_value(i, Wdl::from_value(value as f32));
        }
    }
}

#[test]
fn forced_playouts_go_to_moves_already_visited_not_to_every_move() {
    // The prior all but rules out every move but the centre, and 30 simulations leave
    // the others unvisited under PUCT; forced playouts (KataGo's rule: a child with a
    // playout gets up to √(k·P·N)) must not hand each of them one.
    for forced_playouts in [false, true] {
        let config = SearchConfig { forced_playouts, ..config(30, 1) };
        let mut search = Search::new(TicTacToe::start(), config, 1);
        let result = search.run(&mut CentreFirst(Solver::new()), &Budget::simulations(30));
        search.validate().unwrap();
        let visited: Vec<_> = result.moves.iter().filter(|m| m.visits > 0).map(|m| (m.mv.0, m.visits)).collect();
        assert_eq!(visited, [(4, 30)], "forced playouts {forced_playouts}");
    }
    // Forced for unvisited moves too: each of the nine gets a playout.
    let config = SearchConfig { forced_playouts: true, forced_playouts_unvisited: true, ..config(30, 1) };
    let mut search = Search::new(TicTacToe::start(), config, 1);
    let result = search.run(&mut CentreFirst(Solver::new()), &Budget::simulations(30));
    search.validate().unwrap();
    assert!(
        result.moves.iter().all(|m| m.visits > 0),
        "{:?}",
        result.moves.iter().map(|m| m.visits).collect::<Vec<_>>()
    );
}

#[test]
fn gumbel_plays_a_proven_win() {
    // X to move wins at once in the top right corner. Sequential Halving visits every
    // move, so the win is found and the root proven; but the prior puts nearly all its
    // weight on the centre, which Gumbel's ranking (noise + logit + σ(q)) keeps to the end.
    let game = TicTacToe::from_text("XX.O....O").unwrap();
    let config = SearchConfig { root: RootSelection::Gumbel, ..config(16, 1) };
    let mut search = Search::new(game.clone(), config, 1);
    search.run(&mut CentreFirst(Solver::new()), &Budget::simulations(16));
    search.validate().unwrap();
    assert_ne!(search.node(&[]).unwrap().proof, Proof::Open);
    assert_eq!(search.choose_move(game.plies), Some(Cell(2)));
}

#[test]
fn tree_reuse_keeps_the_chosen_subtree() {
    let game = TicTacToe::start();
    let mut search = Search::new(game.clone(), config(2000, 8), 1);
    search.run(&mut UniformEvaluator::new(), &Budget::simulations(2000));
    let mv = search.choose_move(0).unwrap();
    let child = *search.node(&[Edge::Move(mv)]).unwrap();
    let grandchildren: Vec<_> = search.children(&[Edge::Move(mv)]).iter().map(|n| (n.edge, n.visits, n.w)).collect();
    search.play(mv);
    let root = search.node(&[]).unwrap();
    assert_eq!((root.visits, root.w), (child.visits, child.w));
    let kept: Vec<_> = search.children(&[]).iter().map(|n| (n.edge, n.visits, n.w)).collect();
    assert_eq!(kept, grandchildren);
    search.validate().unwrap();
    // Finding the position from outside (as a player does) keeps the tree too.
    let reply = search.result().best.unwrap();
    let visits = search.node(&[Edge::Move(reply)]).unwrap().visits;
    let mut after = search.game().clone();
    after.play(reply);
    search.set_position(&after);
    assert_eq!(search.node(&[]).unwrap().visits, visits);
    // Searching on adds to the kept tree.
    search.run(&mut UniformEvaluator::new(), &Budget::simulations(100));
    assert_eq!(search.node(&[]).unwrap().visits, visits + 100);
    search.validate().unwrap();
    // An unrelated position starts afresh.
    search.set_position(&TicTacToe::from_text("X...O....").unwrap());
    assert_eq!(search.node(&[]).unwrap().visits, 0);
}

#[test]
fn driver_plays_whole_games_with_one_evaluator_call_per_round() {
    /// Counts calls and checks every batch is full while enough games are going.
    struct Counting {
        inner: UniformEvaluator,
        calls: usize,
        positions: usize,
    }
    impl Evaluator<TicTacToe> for Counting {
        fn evaluate(&mut self, batch: &mut Batch<TicTacToe>) {
            self.calls += 1;
            self.positions += batch.len();
            self.inner.evaluate(batch);
        }
    }
    for root in [RootSelection::Puct, RootSelection::Gumbel] {
        let evaluator = Counting { inner: UniformEvaluator::with_rollouts(9, 3), calls: 0, positions: 0 };
        let config = SearchConfig { cheap_simulations: Some(10), root, ..SearchConfig::training() };
        let config = SearchConfig { simulations: 64, batch_size: 16, ..config };
        // Sixteen games at once: in a game this small the solver soon proves the
        // positions, and a descent reaching a proven one while leaves wait is a collision.
        let mut driver = Driver::new(config, evaluator, 16, 11, |_| TicTacToe::start());
        driver.limit_games(20);
        let (mut moves, mut games, mut full) = (0, Vec::new(), 0);
        driver.run(&mut |event| match event {
            Event::Move(record) => {
                moves += 1;
                full += record.result.full as usize;
                assert_eq!(record.ply, record.position.plies_played());
                let policy: f32 = record.result.policy().iter().sum();
                assert!((policy - 1.0).abs() < 1e-4);
            }
            Event::GameOver(over) => games.push(over),
        });
        assert_eq!(games.len(), 20);
        let ids: std::collections::BTreeSet<u64> = games.iter().map(|g| g.game_id).collect();
        assert_eq!(ids.len(), 20);
        for game in &games {
            assert!(matches!(game.ending, Ending::Rules(_) | Ending::Resigned(_)), "{:?}", game.ending);
        }
        assert!(full > 0 && full < moves, "{root:?}: {full} of {moves} moves fully searched");
        let evaluator = driver.evaluator_mut();
        assert!(evaluator.positions as f64 > 0.5 * (evaluator.calls * 16) as f64, "{root:?}: batches mostly full");
    }
}
