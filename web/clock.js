// Chess clocks as shown: the server's remaining times, counted down locally for the
// side whose clock runs until the next state frame corrects them.

const TICK_MS = 100;

/** "5:00", "0:09.4". */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60000);
  const seconds = Math.floor((clamped % 60000) / 1000);
  if (clamped < 10000) return `0:0${seconds}.${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** Keeps two clock elements ({red, black}) in step with the state's `clock`. */
export class ClockDisplay {
  constructor(elements) {
    this.elements = elements;
    this.timer = null;
  }

  /** Takes the state's `clock` (null: no clock) and whether the game is over. */
  update(clock, over) {
    clearInterval(this.timer);
    this.clock = clock;
    this.received = performance.now();
    this.running = over || !clock ? null : clock.running;
    for (const side of ["red", "black"]) {
      const element = this.elements[side];
      element.hidden = !clock;
      element.classList.toggle("running", this.running === side);
    }
    if (!clock) return;
    this.draw();
    if (this.running) this.timer = setInterval(() => this.draw(), TICK_MS);
  }

  draw() {
    const elapsed = performance.now() - this.received;
    for (const side of ["red", "black"]) {
      const ms = this.clock[`${side}_ms`] - (this.running === side ? elapsed : 0);
      this.elements[side].textContent = formatClock(ms);
      this.elements[side].classList.toggle("low", ms < 20000);
    }
  }

  /** Stops the ticking (leaving the view). */
  stop() {
    clearInterval(this.timer);
  }
}
