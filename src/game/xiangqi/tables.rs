//! Move tables computed at compile time: for every square, where each kind of piece can
//! go and which square must be empty on the way (the horse's leg, the elephant's eye).

use super::{Color, Square};

/// Up to `N` destinations from one square, each with the square it passes through.
#[derive(Clone, Copy)]
pub struct Steps<const N: usize> {
    len: u8,
    to: [Square; N],
    via: [Square; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps { len: 0, to: [Square::new(0); N], via: [Square::new(0); N] };

    const fn with(mut self, to: Square, via: Square) -> Self {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }

    /// The destinations.
    #[inline]
    pub fn targets(&self) -> &[Square] {
        &self.to[..self.len as usize]
    }

    /// Pairs of (destination, square passed through).
    #[inline]
    pub fn pairs(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        self.to[..self.len as usize].iter().copied().zip(self.via[..self.len as usize].iter().copied())
    }
}

/// The squares from one square to the edge in one direction, nearest first.
#[derive(Clone, Copy)]
pub struct Ray {
    len: u8,
    squares: [Square; 9],
}

impl Ray {
    /// The squares along the ray, nearest first.
    #[inline]
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

/// Up, down, right, left as (file, rank) steps.
pub const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// Whether `sq` is inside `color`'s palace (files d–f, three back ranks).
pub const fn in_palace(sq: Square, color: Color) -> bool {
    let (f, r) = (sq.file(), sq.rank());
    f >= 3
        && f <= 5
        && match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        }
}

/// Whether `sq` is on `color`'s own half of the board.
pub const fn on_own_half(sq: Square, color: Color) -> bool {
    match color {
        Color::Red => sq.rank() <= 4,
        Color::Black => sq.rank() >= 5,
    }
}

const fn build_rays() -> [[Ray; 4]; 90] {
    let mut rays = [[Ray { len: 0, squares: [Square::new(0); 9] }; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let mut cur = Square::new(s as u8).offset(df, dr);
            while let Some(next) = cur {
                let ray = &mut rays[s][d];
                ray.squares[ray.len as usize] = next;
                ray.len += 1;
                cur = next.offset(df, dr);
            }
            d += 1;
        }
        s += 1;
    }
    rays
}

const fn build_horse(attacks: bool) -> [Steps<8>; 90] {
    let mut table = [Steps::<8>::EMPTY; 90];
    const JUMPS: [(i32, i32); 8] = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)];
    let mut s = 0;
    while s < 90 {
        let sq = Square::new(s as u8);
        let mut j = 0;
        while j < 8 {
            let (df, dr) = JUMPS[j];
            if let Some(other) = sq.offset(df, dr) {
                // The leg is next to the horse, one step along the long leg of the jump.
                let (horse, dir) = if attacks { (other, -1) } else { (sq, 1) };
                let leg =
                    if df == 2 || df == -2 { horse.offset(dir * df / 2, 0) } else { horse.offset(0, dir * dr / 2) };
                if let Some(leg) = leg {
                    table[s] = table[s].with(other, leg);
                }
            }
            j += 1;
        }
        s += 1;
    }
    table
}

const fn build_elephant() -> [Steps<4>; 90] {
    let mut table = [Steps::<4>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let sq = Square::new(s as u8);
        let color = if sq.rank() <= 4 { Color::Red } else { Color::Black };
        let mut j = 0;
        while j < 4 {
            let (df, dr) = [(2, 2), (2, -2), (-2, 2), (-2, -2)][j];
            if let (Some(to), Some(eye)) = (sq.offset(df, dr), sq.offset(df / 2, dr / 2)) {
                if on_own_half(to, color) {
                    table[s] = table[s].with(to, eye);
                }
            }
            j += 1;
        }
        s += 1;
    }
    table
}

/// Steps of one square in `deltas` that stay in the palace of the square's half.
const fn build_palace(deltas: [(i32, i32); 4]) -> [Steps<4>; 90] {
    let mut table = [Steps::<4>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let sq = Square::new(s as u8);
        let color = if sq.rank() <= 4 { Color::Red } else { Color::Black };
        if in_palace(sq, color) {
            let mut j = 0;
            while j < 4 {
                let (df, dr) = deltas[j];
                if let Some(to) = sq.offset(df, dr) {
                    if in_palace(to, color) {
                        table[s] = table[s].with(to, sq);
                    }
                }
                j += 1;
            }
        }
        s += 1;
    }
    table
}

const fn build_pawn() -> [[Steps<4>; 90]; 2] {
    let mut table = [[Steps::<4>::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let forward = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let sq = Square::new(s as u8);
            if let Some(to) = sq.offset(0, forward) {
                table[c][s] = table[c][s].with(to, sq);
            }
            if !on_own_half(sq, color) {
                if let Some(to) = sq.offset(1, 0) {
                    table[c][s] = table[c][s].with(to, sq);
                }
                if let Some(to) = sq.offset(-1, 0) {
                    table[c][s] = table[c][s].with(to, sq);
                }
            }
            s += 1;
        }
        c += 1;
    }
    table
}

/// For each square, the four rays (up, down, right, left).
pub static RAYS: [[Ray; 4]; 90] = build_rays();
/// For each square, the horse's jumps: (destination, leg).
pub static HORSE_MOVES: [Steps<8>; 90] = build_horse(false);
/// For each square, the squares a horse attacks it from: (horse square, leg).
pub static HORSE_ATTACKERS: [Steps<8>; 90] = build_horse(true);
/// For each square, the elephant's moves on its own half: (destination, eye).
pub static ELEPHANT_MOVES: [Steps<4>; 90] = build_elephant();
/// For each palace square, the advisor's diagonal steps inside the palace.
pub static ADVISOR_MOVES: [Steps<4>; 90] = build_palace([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
/// For each palace square, the general's orthogonal steps inside the palace.
pub static KING_MOVES: [Steps<4>; 90] = build_palace([(0, 1), (0, -1), (1, 0), (-1, 0)]);
/// For each colour and square, the soldier's steps (sideways once across the river).
pub static PAWN_MOVES: [[Steps<4>; 90]; 2] = build_pawn();
