// Table sounds, off until the player turns them on (one switch in the top bar, kept in this
// browser): a card played, a trick taken, the slap. Made on the spot with the Web Audio API
// (filtered noise and a short tone), so there is no sound file to fetch.

import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "parlour.sound";
let audio = null; // the AudioContext, made on the first sound after the switch is on

export const soundOn = () => localStorage.getItem(KEY) === "on";

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// A burst of noise through a band-pass filter: `ms` long, centred on `freq` Hz.
function noise(ac, at, { ms, freq, q = 1, gain = 0.5 }) {
  const length = Math.ceil((ac.sampleRate * ms) / 1000);
  const buffer = ac.createBuffer(1, length, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const level = ac.createGain();
  level.gain.value = gain;
  src.connect(filter).connect(level).connect(ac.destination);
  src.start(at);
}

// A short falling tone (the thump under a slap).
function thump(ac, at, { from = 180, to = 60, ms = 120, gain = 0.6 } = {}) {
  const osc = ac.createOscillator();
  const level = ac.createGain();
  osc.frequency.setValueAtTime(from, at);
  osc.frequency.exponentialRampToValueAtTime(to, at + ms / 1000);
  level.gain.setValueAtTime(gain, at);
  level.gain.exponentialRampToValueAtTime(0.001, at + ms / 1000);
  osc.connect(level).connect(ac.destination);
  osc.start(at);
  osc.stop(at + ms / 1000);
}

const SOUNDS = {
  card: (ac, t) => noise(ac, t, { ms: 70, freq: 2400, q: 0.8, gain: 0.45 }),
  trick: (ac, t) => { noise(ac, t, { ms: 90, freq: 1500, gain: 0.35 }); noise(ac, t + 0.07, { ms: 120, freq: 900, gain: 0.35 }); },
  slap: (ac, t) => { noise(ac, t, { ms: 60, freq: 3000, q: 0.5, gain: 0.9 }); thump(ac, t); },
};

// Play one of the table's sounds ("card", "trick", "slap"), if the switch is on.
export function playSound(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  const ac = context();
  if (ac) SOUNDS[name](ac, ac.currentTime + 0.01);
}

// The switch: a button that says whether sound is on (aria-pressed) and turns it on or off.
export function soundSwitch() {
  const button = h("button", { class: "top-switch sound-switch", type: "button", "aria-label": t("Sound"), "aria-pressed": soundOn() ? "true" : "false" });
  const show = () => {
    const on = soundOn();
    button.replaceChildren(icon(on ? "sound" : "mute"), h("span", { class: "switch-label" }, on ? t("Sound on") : t("Sound off")));
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.title = on ? t("Turn the table sounds off") : t("Turn the table sounds on");
  };
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, soundOn() ? "off" : "on");
    show();
    if (soundOn()) playSound("card"); // a first sound, made by the click that allows it
  });
  show();
  return button;
}
