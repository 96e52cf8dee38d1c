// The icon piece set: a pictogram per kind of piece, readable without Chinese — a crown
// (general), a shield crossed like its diagonal steps (advisor), an elephant, a horse's
// head, a chariot wheel, a cannon, a pawn (soldier). Drawn in a 40×40 box about the
// piece's centre, in the piece's colour (`currentColor`); `icon-cut` parts take the face's.

import { s } from "./dom.js";

const SIZE = 31;

const cut = (tag, attrs) => s(tag, { ...attrs, class: "icon-cut" });
const stroke = (d, width) => s("path", { d, fill: "none", stroke: "currentColor", "stroke-width": width, "stroke-linecap": "round" });

// Kind (a lower-case letter of either game) → the parts of its pictogram.
const ICONS = {
  k: () => [
    s("path", { d: "M-15 9L-17-7L-8 1L0-12L8 1L17-7L15 9Z" }),
    s("rect", { x: -15, y: 11, width: 30, height: 5, rx: 1.5 }),
    ...[[-17, -8], [0, -13], [17, -8]].map(([cx, cy]) => s("circle", { cx, cy, r: 2.8 })),
    cut("circle", { cx: 0, cy: 3, r: 2.5 }),
  ],
  a: () => [
    s("path", { d: "M0-17L14-12V0C14 9 7 14 0 17C-7 14-14 9-14 0V-12Z" }),
    cut("path", { d: "M-7-7L7 7M7-7L-7 7", "stroke-width": 3.2, "stroke-linecap": "round" }),
  ],
  b: () => [
    s("ellipse", { cx: -10, cy: -4, rx: 8, ry: 10 }),
    s("ellipse", { cx: 10, cy: -4, rx: 8, ry: 10 }),
    cut("circle", { cx: 0, cy: -5, r: 9.5 }),
    s("circle", { cx: 0, cy: -5, r: 8 }),
    stroke("M0 0C0 8-4 11 2 16", 5.5),
    cut("circle", { cx: -3.5, cy: -7, r: 1.6 }),
    cut("circle", { cx: 3.5, cy: -7, r: 1.6 }),
  ],
  n: () => [
    s("path", {
      d: "M-10 17H13C14 6 13-5 6-12L5-18L0-13C-6-13-11-7-14-1L-16 3C-16 6-13 7-11 5L-5 2"
        + "C-3 1-1 1 0 0C-3 5-9 9-10 17Z",
    }),
    cut("circle", { cx: -3, cy: -6, r: 1.7 }),
  ],
  r: () => [
    s("circle", { r: 15, fill: "none", stroke: "currentColor", "stroke-width": 3.5 }),
    stroke("M0-14V14M-14 0H14M-10-10L10 10M10-10L-10 10", 2.2),
    s("circle", { r: 4.5 }),
  ],
  c: () => [
    s("path", { d: "M-16 3L9-11L13-4L-12 10Z" }),
    s("rect", { x: 8, y: -14, width: 5, height: 12, rx: 1.5, transform: "rotate(-30 10.5 -8)" }),
    s("circle", { cx: -4, cy: 9, r: 7.5 }),
    cut("circle", { cx: -4, cy: 9, r: 2.2 }),
    s("rect", { x: -17, y: 15, width: 26, height: 3, rx: 1.5 }),
  ],
  p: () => [
    s("circle", { cx: 0, cy: -10, r: 6 }),
    s("path", { d: "M-5-3H5L8 10H-8Z" }),
    s("rect", { x: -12, y: 10, width: 24, height: 6, rx: 2 }),
  ],
};
ICONS.g = ICONS.a;
ICONS.m = ICONS.b;

/** The pictogram of a piece letter, centred on the origin, with class `piece-icon`. */
export function pieceIcon(letter) {
  const half = SIZE / 2;
  return s("svg", {
    class: "piece-icon", viewBox: "-20 -20 40 40", x: -half, y: -half, width: SIZE, height: SIZE, "aria-hidden": "true",
  }, ICONS[letter.toLowerCase()]());
}
