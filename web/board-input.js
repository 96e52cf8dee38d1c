// Clicks, taps and drags on the board (pointer events, so mouse, pen and touch alike):
// select a piece that has legal moves, then click a highlighted target or drop the piece
// on it; a face-down Banqi piece whose flip is legal flips with one click.

const DRAG_THRESHOLD_PX = 6;

function squareUnder(clientX, clientY) {
  const node = document.elementFromPoint(clientX, clientY);
  const hit = node && node.closest("[data-square]");
  return hit ? hit.dataset.square : null;
}

/** Wires the pointer handling of a BoardView. */
export function attachInput(view) {
  const svg = view.svg;
  let drag = null;

  function choose(move) {
    view.selected = null;
    view.drawPosition();
    view.onMove(move);
  }

  svg.addEventListener("pointerdown", (event) => {
    if (!view.position || !view.position.interactive || event.button > 0) return;
    const square = squareUnder(event.clientX, event.clientY);
    if (!square) return;
    event.preventDefault();
    const move = view.selected && view.legalMove(view.selected, square);
    if (move && view.selected !== square) return choose(move);
    const flip = view.legalMove(square, square);
    if (flip) return choose(flip);
    if (view.targetsFrom(square).length === 0) return view.select(null);
    view.select(square);
    const piece = view.pieces.querySelector(`[data-square="${square}"]`);
    drag = { square, piece, pointerId: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
    svg.setPointerCapture(event.pointerId);
  });

  svg.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointerId || !drag.piece) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
    drag.moved = true;
    const scale = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width;
    const { x, y } = view.point(drag.square);
    drag.piece.classList.add("dragging");
    drag.piece.setAttribute("transform", `translate(${x + dx * scale} ${y + dy * scale})`);
    view.pieces.append(drag.piece);
  });

  function finish(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { square, moved } = drag;
    drag = null;
    if (!moved) return;
    const target = squareUnder(event.clientX, event.clientY);
    const move = target && view.legalMove(square, target);
    if (move && target !== square) choose(move);
    else view.drawPosition();
  }
  svg.addEventListener("pointerup", finish);
  svg.addEventListener("pointercancel", finish);
}
