//! Banqi evaluation: material that knows the rank relations.
//!
//! A piece is worth what it can capture among the opponent's remaining pieces — face-up
//! and hidden alike, since the pool's counts per colour are public — plus a bonus for
//! safety that shrinks with the number of opponent pieces able to capture it. So a
//! General is worth most while the opponent has few Soldiers (the only pieces beside
//! Cannons that can take it), a Soldier gains while the enemy General lives, and a piece
//! nobody left can capture is worth much more. Hidden pieces count at these values,
//! which is the pool's expectation for each side. A small term rewards face-up pieces
//! for standing near enemies they can capture, so that the search closes in.

use crate::game::banqi::{Board, Color, Kind, Piece, Squares};

/// What capturing one piece of each kind is worth, in `Kind` order (General first).
const PREY: [i32; 7] = [60, 35, 25, 18, 12, 30, 8];
/// Every piece is worth this much at least.
const BASE: i32 = 10;
/// The bonus of a piece by how many enemy pieces left could capture it: large for a
/// piece nothing can capture, shrinking by 40% per capturer.
const SAFETY: [i32; 8] = [120, 72, 43, 26, 16, 9, 6, 3];
/// Per square nearer to the nearest enemy the piece can capture.
const APPROACH: i32 = 2;

/// Where each colour's face-up pieces of each kind stand, and how many pieces of each
/// kind each colour has left, face-up or hidden.
fn census(board: &Board) -> ([[u32; 7]; 2], [[i32; 7]; 2]) {
    let mut masks = [[0; 7]; 2];
    let mut counts = [[0; 7]; 2];
    for color in Color::ALL {
        let c = color.index();
        let hidden = board.pool().counts_of(color);
        for kind in Kind::ALL {
            let k = kind.index();
            masks[c][k] = board.squares_of(Piece::new(color, kind));
            counts[c][k] = masks[c][k].count_ones() as i32 + hidden[k] as i32;
        }
    }
    (masks, counts)
}

/// For each kind, the kinds it captures (bit per kind index): by stepping onto them, and
/// with `jumps` for the Cannon every kind (it captures by jumping a screen).
const fn victims(jumps: bool) -> [u8; 7] {
    let mut victims = [0u8; 7];
    let mut a = 0;
    while a < 7 {
        let mut v = 0;
        while v < 7 {
            if (jumps && matches!(Kind::ALL[a], Kind::Cannon)) || Kind::ALL[a].captures_adjacent(Kind::ALL[v]) {
                victims[a] |= 1 << v;
            }
            v += 1;
        }
        a += 1;
    }
    victims
}

/// What each kind captures by stepping onto it.
static STEP_VICTIMS: [u8; 7] = victims(false);
/// What each kind captures at all.
static VICTIMS: [u8; 7] = victims(true);

/// The worth of one piece of each kind for the side whose opponent has `enemy` left.
pub(crate) fn kind_values(enemy: &[i32; 7]) -> [i32; 7] {
    std::array::from_fn(|k| {
        let prey: i32 = (0..7).filter(|&v| VICTIMS[k] >> v & 1 != 0).map(|v| enemy[v] * PREY[v]).sum();
        // A Cannon needs a screen: its captures are worth half.
        let prey = if k == Kind::Cannon.index() { prey / 2 } else { prey };
        let threats: i32 = (0..7).filter(|&a| VICTIMS[a] >> k & 1 != 0).map(|a| enemy[a]).sum();
        BASE + prey + SAFETY[(threats as usize).min(SAFETY.len() - 1)]
    })
}

/// Material of Red minus Black, from the counts of what each side has left.
fn material(counts: &[[i32; 7]; 2]) -> i32 {
    let of = |own: &[i32; 7], enemy: &[i32; 7]| -> i32 {
        let values = kind_values(enemy);
        (0..7).map(|k| own[k] * values[k]).sum()
    };
    of(&counts[0], &counts[1]) - of(&counts[1], &counts[0])
}

/// The evaluation, with the material of recently seen piece counts remembered (counts
/// change only on captures, so nearly every position of a search hits).
pub(crate) struct Evaluator {
    cache: Vec<(u64, i32)>,
}

impl Evaluator {
    const SLOTS: usize = 1024;

    /// An evaluator with an empty cache.
    pub fn new() -> Evaluator {
        Evaluator { cache: vec![(u64::MAX, 0); Self::SLOTS] }
    }

    /// The value of `board` for the colour to move (0 before the first flip).
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let Some(us) = board.side_to_move() else { return 0 };
        let (masks, counts) = census(board);
        // Counts are at most 5: four bits each.
        let key = counts.iter().flatten().fold(0u64, |key, &n| key << 4 | n as u64);
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize % Self::SLOTS;
        let red_material = if self.cache[slot].0 == key {
            self.cache[slot].1
        } else {
            let value = material(&counts);
            self.cache[slot] = (key, value);
            value
        };
        let red = red_material + approach(&masks[0], &masks[1]) - approach(&masks[1], &masks[0]);
        if us == Color::Red {
            red
        } else {
            -red
        }
    }
}

/// The bonus of one colour's face-up pieces (`own`, by kind) for closeness to the
/// nearest enemy piece (`enemy`, by kind) each can capture by stepping onto it.
fn approach(own: &[u32; 7], enemy: &[u32; 7]) -> i32 {
    let mut bonus = 0;
    for attacker in 0..7 {
        if own[attacker] == 0 {
            continue;
        }
        let targets = (0..7).filter(|&v| STEP_VICTIMS[attacker] >> v & 1 != 0).fold(0, |mask, v| mask | enemy[v]);
        if targets == 0 {
            continue;
        }
        for sq in Squares(own[attacker]) {
            if let Some(d) = RINGS[sq.index()].iter().position(|&ring| ring & targets != 0) {
                bonus += APPROACH * (MAX_DISTANCE - 1 - d as i32);
            }
        }
    }
    bonus
}

/// The longest distance in steps between two squares of the 4×8 board.
const MAX_DISTANCE: i32 = 10;

/// For each square, the squares 1, 2, … 10 steps away (Manhattan distance), index 0
/// holding distance 1.
static RINGS: [[u32; 10]; 32] = {
    let mut rings = [[0u32; 10]; 32];
    let mut a: i32 = 0;
    while a < 32 {
        let mut b: i32 = 0;
        while b < 32 {
            let d = (a % 4 - b % 4).abs() + (a / 4 - b / 4).abs();
            if d > 0 {
                rings[a as usize][d as usize - 1] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    rings
};

/// A rough worth of a piece of `kind` for ordering captures: its prey in a full set.
pub(crate) fn victim_value(kind: Kind) -> i32 {
    PREY[kind.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> [i32; 7] {
        Kind::ALL.map(|k| k.full_count() as i32)
    }

    #[test]
    fn ranks_order_values_against_a_full_set() {
        let values = kind_values(&full());
        // General > Advisor > Elephant > Chariot > Horse > Soldier.
        for pair in [[0, 1], [1, 2], [2, 3], [3, 4], [4, 6]] {
            assert!(values[pair[0]] > values[pair[1]], "{values:?}");
        }
    }

    #[test]
    fn a_general_is_weak_to_soldiers() {
        let with_soldiers = kind_values(&full())[Kind::General.index()];
        let mut no_soldiers = full();
        no_soldiers[Kind::Soldier.index()] = 0;
        let safe = kind_values(&no_soldiers)[Kind::General.index()];
        assert!(safe > with_soldiers + 20, "{safe} vs {with_soldiers}");
        // A soldier is worth more while the enemy general lives.
        let mut no_general = full();
        no_general[Kind::General.index()] = 0;
        assert!(kind_values(&full())[6] > kind_values(&no_general)[6]);
    }

    #[test]
    fn the_start_is_balanced() {
        assert_eq!(Evaluator::new().evaluate(&Board::start()), 0);
    }

    #[test]
    fn material_is_symmetric_and_cached() {
        let full = [full(), full()];
        assert_eq!(material(&full), 0);
        let mut fewer = full;
        fewer[1][Kind::Chariot.index()] = 1;
        assert!(material(&fewer) > 0);
        let board = crate::game::banqi::text::parse("4/4/4/4/4/4/r3/K3 r - 0 10", false).unwrap().0;
        let mut evaluator = Evaluator::new();
        let first = evaluator.evaluate(&board);
        assert_eq!(evaluator.evaluate(&board), first);
        assert!(first > 0, "a general against a chariot: {first}");
    }
}
