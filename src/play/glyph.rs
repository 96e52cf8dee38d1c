//! The Chinese characters of the pieces, shared by both games.

/// A piece's role, whatever the game calls its letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    General,
    Advisor,
    Elephant,
    Chariot,
    Horse,
    Cannon,
    Soldier,
}

/// The character of a piece: 帥仕相俥傌炮兵 for Red, 將士象車馬砲卒 for Black.
pub(crate) const fn hanzi(red: bool, role: Role) -> char {
    let (red_char, black_char) = match role {
        Role::General => ('帥', '將'),
        Role::Advisor => ('仕', '士'),
        Role::Elephant => ('相', '象'),
        Role::Chariot => ('俥', '車'),
        Role::Horse => ('傌', '馬'),
        Role::Cannon => ('炮', '砲'),
        Role::Soldier => ('兵', '卒'),
    };
    if red {
        red_char
    } else {
        black_char
    }
}
