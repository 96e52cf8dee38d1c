//! Move tables computed at compile time: each square's orthogonal neighbours, the rays
//! a Cannon jumps along, and which kinds each kind captures by stepping.

use super::{Kind, Square};

/// The directions as (file, rank) steps: up and right run to higher square indices,
/// down and left to lower ones.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// For each square, the mask of its orthogonal neighbours.
pub static ADJACENT: [u32; 32] = {
    let mut table = [0u32; 32];
    let mut s = 0;
    while s < 32 {
        let mut d = 0;
        while d < 4 {
            if let Some(next) = Square::new(s as u8).offset(DIRECTIONS[d].0, DIRECTIONS[d].1) {
                table[s] |= next.bit();
            }
            d += 1;
        }
        s += 1;
    }
    table
};

/// For each square and direction (up, right, down, left), the squares from it to the edge.
pub static RAYS: [[u32; 4]; 32] = {
    let mut table = [[0u32; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let mut d = 0;
        while d < 4 {
            let mut cur = Square::new(s as u8).offset(DIRECTIONS[d].0, DIRECTIONS[d].1);
            while let Some(next) = cur {
                table[s][d] |= next.bit();
                cur = next.offset(DIRECTIONS[d].0, DIRECTIONS[d].1);
            }
            d += 1;
        }
        s += 1;
    }
    table
};

/// For each kind, the kinds (bit `k` for kind index `k`) it captures by stepping onto them.
pub static VICTIMS: [u8; 7] = {
    let mut table = [0u8; 7];
    let mut a = 0;
    while a < 7 {
        let mut v = 0;
        while v < 7 {
            if Kind::from_index(a).captures_adjacent(Kind::from_index(v)) {
                table[a] |= 1 << v;
            }
            v += 1;
        }
        a += 1;
    }
    table
};

/// The nearest square of the non-empty mask `squares` along direction `d` (all of them on
/// one ray in that direction).
#[inline(always)]
fn nearest(d: usize, squares: u32) -> usize {
    if d < 2 {
        squares.trailing_zeros() as usize
    } else {
        31 - squares.leading_zeros() as usize
    }
}

/// The squares a Cannon on `from` lands on by jumping exactly one screen, given the
/// occupied squares (face-up or face-down): the second occupied square along each line.
#[inline]
pub fn cannon_jumps(from: usize, occupied: u32) -> u32 {
    let mut targets = 0;
    let mut d = 0;
    while d < 4 {
        let blockers = RAYS[from][d] & occupied;
        if blockers != 0 {
            let beyond = RAYS[nearest(d, blockers)][d] & occupied;
            if beyond != 0 {
                targets |= 1 << nearest(d, beyond);
            }
        }
        d += 1;
    }
    targets
}
