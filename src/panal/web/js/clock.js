// Clocks in the browser: the time-control picker of the new-game and challenge forms, how a time
// control and a clock's face read, and the time left on a running clock.
//
// The server owns the time: each state says each side's time when its clock last stopped, which
// clock runs since when, and the server's time then (`now`). The page counts the running clock
// down from there with its own clock, corrected by the difference between the two.

import { t } from "./i18n.js";

/** Minutes per side offered for a custom clock (lichess's choices). */
const MINUTES = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 45, 60, 75, 90, 120, 150, 180];
const INCREMENTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 45, 60, 90, 120, 180];
const FRACTIONS = { 0.25: "¼", 0.5: "½", 0.75: "¾", 1.5: "1½" };

function minutesText(seconds) {
  const minutes = seconds / 60;
  return FRACTIONS[minutes] ?? String(minutes);
}

/** "3+2", "¼+0", "3 d/move" */
export function controlText(clock) {
  if (!clock) return t("clock.untimed");
  if (clock.kind === "correspondence") return t("clock.daysValue", { n: clock.days });
  return `${minutesText(clock.base)}+${clock.increment}`;
}

/** "3+2 · Blitz" */
export function controlWithSpeed(clock) {
  if (!clock) return t("clock.untimed");
  const speed = clock.speed ? ` · ${t(`speed.${clock.speed}`)}` : "";
  return `${controlText(clock)}${speed}`;
}

/** A clock's face: 4:05, 1:02:03, 0:09.4 under ten seconds, 2d 3h beyond a day. */
export function formatClock(seconds) {
  const left = Math.max(0, seconds);
  if (left >= 86400) return `${Math.floor(left / 86400)}d ${Math.floor((left % 86400) / 3600)}h`;
  if (left < 10) return `0:0${(Math.floor(left * 10) / 10).toFixed(1)}`;
  const whole = Math.floor(left);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** Time left for `side` (0 White, 1 Black) now, from a state; `offset` = server time − ours. */
export function timeLeft(state, side, offset) {
  const clocks = state.clocks;
  if (!clocks) return null;
  const stored = side === 0 ? clocks.white : clocks.black;
  if (clocks.running !== side || clocks.since === null) return stored;
  const serverNow = Date.now() / 1000 + offset;
  return Math.max(0, stored - Math.max(0, serverNow - clocks.since));
}

function presetValue(clock) {
  return clock.kind === "correspondence" ? `days:${clock.days}` : `rt:${clock.base}+${clock.increment}`;
}

/**
 * The picker's markup: a select of presets (by speed), "custom" and "no clock"; custom shows
 * minutes and increment. `config.clocks` comes from /api/config; `choice` is the form's state:
 * {preset, minutes, increment}.
 */
export function clockPickerMarkup(config, choice, { allowUntimed = true } = {}) {
  const presets = config.clocks.presets
    .filter((clock) => clock.kind === "realtime")
    .map((clock) => {
      const value = presetValue(clock);
      return `<option value="${value}" ${choice.preset === value ? "selected" : ""}>${controlWithSpeed(clock)}</option>`;
    })
    .join("");
  const untimed = allowUntimed ? `<option value="none" ${choice.preset === "none" ? "selected" : ""}>${t("clock.untimed")}</option>` : "";
  const days = config.clocks.days
    .map((n) => `<option value="days:${n}" ${choice.preset === `days:${n}` ? "selected" : ""}>${t("clock.daysValue", { n })}</option>`)
    .join("");
  const minutes = MINUTES.filter((m) => m * 60 >= config.clocks.min_base && m * 60 <= config.clocks.max_base)
    .map((m) => `<option value="${m}" ${Number(choice.minutes) === m ? "selected" : ""}>${FRACTIONS[m] ?? m}</option>`)
    .join("");
  const increments = INCREMENTS.filter((s) => s <= config.clocks.max_increment)
    .map((s) => `<option value="${s}" ${Number(choice.increment) === s ? "selected" : ""}>${s}</option>`)
    .join("");
  return `<div class="row clock-picker">
      <label>${t("lobby.clock")}
        <select name="clock">${untimed}
          <optgroup label="${t("clock.realtime")}">${presets}
            <option value="custom" ${choice.preset === "custom" ? "selected" : ""}>${t("clock.custom")}</option></optgroup>
          <optgroup label="${t("clock.correspondence")}">${days}</optgroup>
        </select></label>
      <label data-clock-custom>${t("clock.minutes")} <select name="clock_minutes">${minutes}</select></label>
      <label data-clock-custom>${t("clock.increment")} <select name="clock_increment">${increments}</select></label>
    </div>`;
}

/** Show the custom fields only for a custom clock. */
export function showClockFields(root, choice) {
  for (const element of root.querySelectorAll("[data-clock-custom]")) element.hidden = choice.preset !== "custom";
}

/** Update the form's clock choice from a changed control; true if it was a clock control. */
export function clockChanged(choice, input) {
  if (input.name === "clock") choice.preset = input.value;
  else if (input.name === "clock_minutes") choice.minutes = Number(input.value);
  else if (input.name === "clock_increment") choice.increment = Number(input.value);
  else return false;
  return true;
}

/** The time control to send (null: no clock). */
export function chosenClock(choice) {
  if (choice.preset === "none") return null;
  if (choice.preset === "custom") {
    return { kind: "realtime", base: Math.round(choice.minutes * 60), increment: choice.increment };
  }
  if (choice.preset.startsWith("days:")) return { kind: "correspondence", days: Number(choice.preset.slice(5)) };
  const [base, increment] = choice.preset.slice(3).split("+").map(Number);
  return { kind: "realtime", base, increment };
}

export function newClockChoice(preset = "none") {
  return { preset, minutes: 5, increment: 3 };
}
