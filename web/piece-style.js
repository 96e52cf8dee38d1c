// The piece set the player chose in the header — Chinese characters or icons — kept in
// this browser's storage and shown as `data-pieces` on the page's root element, which
// style.css reads to show the pieces' characters or their pictograms.

const KEY = "xz-pieces";
const STYLES = ["characters", "icons"];

/** Wires the piece-set `select`: shows the remembered set and remembers a new choice. */
export function attachPieceStyle(select) {
  const show = (style) => {
    document.documentElement.dataset.pieces = style;
    select.value = style;
  };
  const remembered = localStorage.getItem(KEY);
  show(STYLES.includes(remembered) ? remembered : STYLES[0]);
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    show(select.value);
  });
}
