// The puzzle trainer: /puzzles (a puzzle near the player's rating, of the theme chosen),
// /puzzles/daily, /puzzles/streak (rising puzzles until the first miss) and /puzzles/<id>. The
// player plays the solution; the server judges each move and answers for the opponent. A hint,
// the solution or a wrong move makes the try a miss (rated once, on a player's first try); a
// guest's rating lives in this browser (storage.js) and is rated by the server all the same.

import { account } from "./account.js";
import { api } from "./api.js";
import { escapeHtml } from "./dom.js";
import { colorName, describeError, onChange, pieceName, t } from "./i18n.js";
import { bestStreak, guestPuzzleRating, saveBestStreak, saveGuestPuzzleRating } from "./storage.js";
import { TrainerBoard } from "./trainer_board.js";

const NEWCOMER = { rating: 1500, deviation: 350, volatility: 0.06 };
const REPLY_PAUSE_MS = 450;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function showTrainerPage(root, what, navigate) {
  const mode = what === "daily" || what === "streak" ? what : what ? "one" : "rated";
  const page = {
    puzzle: null,
    played: [],
    rated: true, // the first result of this try still counts
    over: false,
    theme: "",
    streak: { seed: Math.floor(Math.random() * 2 ** 31), index: 0 },
    overview: null,
    feedback: "",
    feedbackKind: "info",
  };
  root.innerHTML = `
    <section class="trainer-page" data-mode="${mode}">
      <h1 data-title></h1>
      <nav class="trainer-modes" data-modes></nav>
      <p class="trainer-rating" data-rating></p>
      <label class="trainer-theme" data-theme-label hidden><span data-theme-caption></span> <select name="theme"></select></label>
      <p class="trainer-task" data-task></p>
      <div data-board></div>
      <p class="trainer-feedback" role="status" aria-live="polite" data-feedback></p>
      <div class="trainer-actions" data-actions></div>
    </section>`;
  const board = new TrainerBoard(root.querySelector("[data-board]"), (request) => play(request));

  function guestRating() {
    return guestPuzzleRating() || NEWCOMER;
  }

  function ratingLine() {
    if (mode === "streak") return t("training.streakCount", { n: page.streak.index, best: bestStreak() });
    if (account().name) return page.overview?.rating ? t("training.yourRating", { rating: page.overview.rating }) : t("training.unrated");
    return t("training.guestRating", { rating: Math.round(guestRating().rating) });
  }

  function render() {
    root.querySelector("[data-title]").textContent = t(`training.title.${mode === "one" ? "rated" : mode}`);
    root.querySelector("[data-modes]").innerHTML = ["rated", "daily", "streak"]
      .map((m) => `<a href="/puzzles${m === "rated" ? "" : `/${m}`}" data-link ${m === mode ? 'aria-current="page"' : ""}>${escapeHtml(t(`training.mode.${m}`))}</a>`)
      .concat(`<a href="/learn" data-link>${escapeHtml(t("training.learn"))}</a>`)
      .join("");
    root.querySelector("[data-rating]").textContent = ratingLine();
    const themeLabel = root.querySelector("[data-theme-label]");
    themeLabel.hidden = mode !== "rated" || !page.overview;
    if (page.overview) {
      root.querySelector("[data-theme-caption]").textContent = t("training.theme");
      root.querySelector("select[name=theme]").innerHTML = [`<option value="">${escapeHtml(t("training.anyTheme"))}</option>`]
        .concat(
          Object.entries(page.overview.themes).map(
            ([theme, n]) => `<option value="${theme}" ${theme === page.theme ? "selected" : ""}>${escapeHtml(t(`theme.${theme}`))} (${n})</option>`,
          ),
        )
        .join("");
    }
    const puzzle = page.puzzle;
    const task = root.querySelector("[data-task]");
    if (puzzle) {
      const side = colorName(puzzle.side === "white" ? 0 : 1);
      const goal = puzzle.kind === "defence" ? t("training.task.defence", { side }) : t("training.task.surround", { side, n: puzzle.moves });
      const themes = puzzle.themes.map((theme) => t(`theme.${theme}`)).join(" · ");
      task.innerHTML = `<strong>${escapeHtml(goal)}</strong> <span class="trainer-meta">${escapeHtml(t("training.puzzleRating", { rating: puzzle.rating }))}${themes ? ` · ${escapeHtml(themes)}` : ""}</span>`;
    }
    const feedback = root.querySelector("[data-feedback]");
    feedback.textContent = page.feedback;
    feedback.dataset.kind = page.feedbackKind;
    const buttons = [];
    if (puzzle && !page.over) {
      if (page.played.length) buttons.push(["retry", "training.retry"]);
      buttons.push(["hint", "training.hint"], ["solution", "training.showSolution"]);
    } else if (puzzle && page.failed && mode !== "streak") {
      buttons.push(["retry", "training.retry"], ["solution", "training.showSolution"]);
    }
    if (page.over) buttons.push(["next", mode === "streak" && page.failed ? "training.newStreak" : "training.next"]);
    root.querySelector("[data-actions]").innerHTML = buttons
      .map(([action, key]) => `<button type="button" data-action="${action}" ${action === "next" ? 'class="primary"' : ""}>${escapeHtml(t(key))}</button>`)
      .join("");
  }

  function say(text, kind = "info") {
    page.feedback = text;
    page.feedbackKind = kind;
    render();
  }

  async function load() {
    page.overview = await api("/api/puzzles").catch(() => null);
    let puzzle;
    if (mode === "daily") puzzle = await api("/api/puzzles/daily");
    else if (mode === "streak") puzzle = await api(`/api/puzzles/streak?seed=${page.streak.seed}&index=${page.streak.index}`);
    else if (mode === "one" && !page.puzzle) puzzle = await api(`/api/puzzles/${encodeURIComponent(what)}`);
    else {
      const params = new URLSearchParams({ rating: String(Math.round(guestRating().rating)) });
      if (page.theme) params.set("theme", page.theme);
      puzzle = await api(`/api/puzzles/next?${params}`);
    }
    start(puzzle, true);
  }

  function start(puzzle, fresh) {
    page.puzzle = puzzle;
    page.played = [];
    page.over = false;
    page.failed = false;
    if (fresh) page.rated = true;
    board.look = null;
    board.show(puzzle.board, { fit: true });
    page.feedback = "";
    render();
  }

  function body(extra = {}) {
    const result = { played: page.played, rated: page.rated && mode !== "streak", ...extra };
    if (result.rated && !account().name) result.guest = guestRating();
    return result;
  }

  function noteRating(answer) {
    if (answer.guest_rating) {
      const { change, ...kept } = answer.guest_rating;
      saveGuestPuzzleRating(kept);
      return t("training.ratingChange", { change: change > 0 ? `+${change}` : String(change) });
    }
    if (answer.rating) {
      if (page.overview) page.overview.rating = answer.rating.shown;
      const change = answer.rating.change;
      return t("training.ratingChange", { change: change > 0 ? `+${change}` : String(change) });
    }
    return "";
  }

  function missed() {
    page.rated = false;
    if (mode === "streak") {
      page.over = true;
      page.failed = true;
      if (page.streak.index > bestStreak()) saveBestStreak(page.streak.index);
    }
  }

  async function play(request) {
    const puzzle = page.puzzle;
    let answer;
    try {
      answer = await api(`/api/puzzles/${puzzle.id}/move`, { method: "POST", body: body(request) });
    } catch (error) {
      say(describeError(error), "error"); // illegal: the rule it breaks; nothing was played
      return;
    }
    if (answer.before_reply) {
      // The player's move first; the opponent's reply comes by itself a moment later.
      board.show(answer.before_reply);
      await pause(REPLY_PAUSE_MS);
    }
    board.show(answer.board);
    if (answer.correct) {
      page.played.push(answer.move);
      if (answer.solved) {
        page.over = true;
        const rating = noteRating(answer);
        if (mode === "streak") page.streak.index += 1;
        say([t("training.solved"), rating].filter(Boolean).join(" "), "success");
        return;
      }
      say(t("training.correct", { reply: answer.reply }), "success");
      return;
    }
    const rating = noteRating(answer);
    missed();
    page.over = true;
    page.failed = true;
    const why = t(`training.why.${answer.why}`, { move: answer.move, reply: answer.refutation || "" });
    const streakOver = mode === "streak" ? t("training.streakOver", { n: page.streak.index }) : "";
    say([why, rating, streakOver].filter(Boolean).join(" "), "error");
  }

  async function hint() {
    const answer = await api(`/api/puzzles/${page.puzzle.id}/hint`, { method: "POST", body: body() });
    const rating = noteRating(answer);
    missed();
    if (mode === "streak") {
      say(t("training.streakOver", { n: page.streak.index }), "error");
      return;
    }
    say([t("training.hintText", { piece: pieceName(answer.piece, true) }), rating].filter(Boolean).join(" "));
  }

  async function solution() {
    const answer = await api(`/api/puzzles/${page.puzzle.id}/solution`, { method: "POST", body: body() });
    const rating = noteRating(answer);
    missed();
    page.over = true;
    page.failed = true;
    say([t("training.solutionShown", { line: answer.steps.map((s) => s.move).join(", ") }), rating].filter(Boolean).join(" "));
    for (const step of answer.steps) {
      board.show(step.board);
      await pause(REPLY_PAUSE_MS);
    }
  }

  async function onClick(event) {
    const action = event.target.closest("[data-actions] [data-action]")?.dataset.action;
    if (!action) return;
    try {
      if (action === "hint") await hint();
      else if (action === "solution") await solution();
      else if (action === "retry") start(page.puzzle, false); // a retry is never rated
      else if (action === "next") {
        if (mode === "streak" && page.failed) page.streak = { seed: Math.floor(Math.random() * 2 ** 31), index: 0 };
        if (mode === "one") navigate("/puzzles");
        else await load();
      }
    } catch (error) {
      say(describeError(error), "error");
    }
  }

  root.addEventListener("click", onClick);
  root.addEventListener("change", (event) => {
    if (event.target.name !== "theme") return;
    page.theme = event.target.value;
    load().catch((error) => say(describeError(error), "error"));
  });
  const unsubscribe = onChange(() => {
    render();
    board.render();
  });
  load().catch((error) => say(describeError(error), "error"));
  return () => {
    unsubscribe();
    board.destroy();
  };
}
