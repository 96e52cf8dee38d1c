// The sounds of a move, a capture and a check, made in the page with the Web Audio API (no
// sound files), and the header's switch that mutes them, remembered in this browser. The
// last sound asked for is shown as `data-last-sound` on the page's root element.

const KEY = "xz-sound";
let audio = null;

/** Whether sounds are on (the default). */
function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

/** Wires the header's sound switch: shows the remembered state and remembers a change. */
export function attachSoundSwitch(button) {
  const show = () => {
    const on = soundOn();
    button.textContent = "♪";
    button.classList.toggle("off", !on);
    button.setAttribute("aria-label", on ? "Sound on" : "Sound off");
    button.title = on ? "Sound on (click to mute)" : "Sound off (click to hear moves)";
    button.setAttribute("aria-pressed", String(on));
  };
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, soundOn() ? "off" : "on");
    show();
  });
  show();
}

/** One tone: `frequency` Hz from `start` s for `length` s, fading out, of `type`. */
function tone(context, frequency, start, length, type = "sine", volume = 0.25) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, context.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + start + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(context.currentTime + start);
  oscillator.stop(context.currentTime + start + length);
}

/** Plays the sound of `kind`: "move", "capture" or "check" (nothing while muted). */
export function playSound(kind) {
  document.documentElement.dataset.lastSound = kind;
  if (!soundOn() || typeof AudioContext === "undefined") return;
  audio = audio || new AudioContext();
  if (audio.state === "suspended") audio.resume();
  if (kind === "check") {
    tone(audio, 880, 0, 0.12, "triangle");
    tone(audio, 660, 0.13, 0.16, "triangle");
  } else if (kind === "capture") {
    tone(audio, 180, 0, 0.16, "square", 0.12);
    tone(audio, 520, 0, 0.07);
  } else {
    tone(audio, 420, 0, 0.08, "triangle");
  }
}
