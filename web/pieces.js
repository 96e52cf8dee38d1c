// The pieces as FEN letters: Red upper case, Black lower case, "X" a face-down Banqi
// piece. Their Chinese characters and names; nothing about how they move.

// Xiangqi's letters, and Banqi's where they differ: G (guard) and M (minister) are the
// advisor and the elephant.
const GLYPHS = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵", G: "仕", M: "相",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒", g: "士", m: "象",
};

const NAMES = {
  k: "general", a: "advisor", b: "elephant", n: "horse", r: "chariot", c: "cannon", p: "soldier",
  g: "advisor", m: "elephant",
};

/** The face-down piece's letter in a board cell. */
export const HIDDEN = "X";

/** "red", "black" or null (empty or face-down). */
export function pieceColor(letter) {
  if (!letter || letter === HIDDEN) return null;
  return letter === letter.toUpperCase() ? "red" : "black";
}

/** The Chinese character of a piece letter. */
export function pieceGlyph(letter) {
  return GLYPHS[letter] || "";
}

/** "red chariot", "black soldier", "face-down piece". */
export function pieceName(letter) {
  if (letter === HIDDEN) return "face-down piece";
  return `${pieceColor(letter)} ${NAMES[letter.toLowerCase()]}`;
}
