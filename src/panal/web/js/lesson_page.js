// The tutorial: /learn lists the lessons (the rulebooks' example positions, panal.puzzles'
// lessons), /learn/<id> sets one up and asks for a move. The server judges it: a move that breaks
// a rule is refused naming the rule, a legal move the lesson does not ask for is "not this one",
// an asked move completes the lesson. A signed-in player's progress is kept on the server (a
// guest's in this browser, sent to the server once it signs in).

import { account } from "./account.js";
import { api } from "./api.js";
import { escapeHtml } from "./dom.js";
import { EnjambreLessonBoard } from "./enjambre_lesson.js";
import { describeTableError } from "./enjambre_view.js";
import { getLanguage, onChange, t } from "./i18n.js";
import { guestLessons, saveGuestLesson } from "./storage.js";
import { TrainerBoard } from "./trainer_board.js";

async function progress() {
  const listing = await api(`/api/lessons?language=${encodeURIComponent(getLanguage())}`);
  const mine = guestLessons();
  if (listing.done === null) return { listing, done: new Set(mine) };
  const missing = mine.filter((id) => !listing.done.includes(id));
  if (missing.length) {
    // Lessons done as a guest in this browser become the account's.
    const saved = await api("/api/lessons/done", { method: "POST", body: { lessons: missing } }).catch(() => null);
    if (saved) return { listing, done: new Set(saved.done) };
  }
  return { listing, done: new Set(listing.done) };
}

export function showLessonsPage(root) {
  let data = null;
  const item = (lesson) => `<li data-lesson="${lesson.id}" ${data.done.has(lesson.id) ? 'data-done="1"' : ""}>
      <a href="/learn/${lesson.id}" data-link>${escapeHtml(lesson.title)}</a>
      ${data.done.has(lesson.id) ? `<span class="done-mark" aria-label="${escapeHtml(t("training.lessonDone"))}">✓</span>` : ""}</li>`;
  function render() {
    const lessons = data?.listing.lessons || [];
    const count = lessons.filter((lesson) => data.done.has(lesson.id)).length;
    root.innerHTML = `
      <section class="lessons-page">
        <h1>${escapeHtml(t("training.tutorial"))}</h1>
        <p>${escapeHtml(t("training.tutorialIntro"))}</p>
        <p class="lessons-progress" data-progress>${escapeHtml(t("training.lessonsDone", { n: count, total: lessons.length }))}</p>
        <ol class="lesson-list">${lessons
          .filter((lesson) => lesson.game === "hive")
          .map(item)
          .join("")}</ol>
        <h2>${escapeHtml(t("training.enjambreTutorial"))}</h2>
        <p>${escapeHtml(t("training.enjambreGoal"))}</p>
        <ol class="lesson-list">${lessons
          .filter((lesson) => lesson.game === "enjambre")
          .map(item)
          .join("")}</ol>
        <p><a href="/puzzles" data-link>${escapeHtml(t("training.toPuzzles"))}</a></p>
      </section>`;
  }
  const reload = () =>
    progress()
      .then((loaded) => {
        data = loaded;
        render();
      })
      .catch((error) => {
        root.textContent = describeTableError(error);
      });
  reload();
  const unsubscribe = onChange(reload); // the titles come in the reader's language
  return () => unsubscribe();
}

export function showLessonPage(root, lessonId, navigate) {
  let lesson = null;
  let done = false;
  let feedback = { text: "", kind: "info" };
  root.innerHTML = `
    <section class="lesson-page">
      <p class="lesson-crumb"><a href="/learn" data-link data-crumb></a></p>
      <h1 data-title></h1>
      <p class="lesson-prompt" data-prompt></p>
      <div data-board></div>
      <p class="trainer-feedback" role="status" aria-live="polite" data-feedback></p>
      <div class="trainer-actions" data-actions></div>
    </section>`;
  let board = null; // a TrainerBoard (Hive) or an EnjambreLessonBoard, made once the lesson is here

  function render() {
    root.querySelector("[data-crumb]").textContent = t("training.tutorial");
    if (!lesson) return;
    root.querySelector("[data-title]").textContent = lesson.title;
    root.querySelector("[data-prompt]").textContent = lesson.prompt;
    const shown = root.querySelector("[data-feedback]");
    shown.textContent = feedback.text;
    shown.dataset.kind = feedback.kind;
    const buttons = [];
    if (!done && board?.canPass?.()) buttons.push(`<button type="button" data-action="pass">${escapeHtml(t("training.pass"))}</button>`);
    if (done) buttons.push(`<button type="button" data-action="again">${escapeHtml(t("training.again"))}</button>`);
    if (done && lesson.next) buttons.push(`<a class="button primary" href="/learn/${lesson.next}" data-link data-next>${escapeHtml(t("training.nextLesson"))}</a>`);
    if (done && !lesson.next) buttons.push(`<a class="button primary" href="/learn" data-link data-next>${escapeHtml(t("training.allLessons"))}</a>`);
    root.querySelector("[data-actions]").innerHTML = buttons.join("");
  }

  async function load() {
    lesson = await api(`/api/lessons/${encodeURIComponent(lessonId)}?language=${encodeURIComponent(getLanguage())}`);
    if (!board) {
      const holder = root.querySelector("[data-board]");
      board =
        lesson.game === "enjambre"
          ? new EnjambreLessonBoard(holder, lesson.table, (action) => play({ action }))
          : new TrainerBoard(holder, (request) => play(request));
    }
    setUp();
    render();
  }

  function setUp() {
    if (lesson.game === "enjambre") {
      board.show(lesson.view);
      return;
    }
    board.look = lesson.look === "football" ? "football" : null;
    board.show(lesson.board, { fit: true });
  }

  async function play(request) {
    if (done) return;
    let answer;
    try {
      answer = await api(`/api/lessons/${lesson.id}/move`, { method: "POST", body: request });
    } catch (error) {
      feedback = { text: describeTableError(error), kind: "error" }; // the rule the move breaks
      render();
      return;
    }
    if (!answer.asked) {
      feedback = { text: t("training.notThisOne", { move: answer.move || answer.action }), kind: "error" };
      render();
      return;
    }
    done = true;
    if (!account().name) saveGuestLesson(lesson.id);
    board.show(answer.board || answer.view);
    board.locked = true;
    board.render();
    const score = answer.score !== undefined ? ` ${t("training.enjambreScore", { score: answer.score })}` : "";
    feedback = { text: t("training.lessonComplete") + score, kind: "success" };
    render();
  }

  root.addEventListener("click", (event) => {
    const action = event.target.closest("[data-actions] [data-action]")?.dataset.action;
    if (action === "pass") board.send({ move: "pass" });
    if (action === "again") {
      done = false;
      board.locked = false;
      feedback = { text: "", kind: "info" };
      setUp();
      render();
    }
  });
  load().catch((error) => {
    if (error.status === 404) navigate("/learn", true);
    else root.querySelector("[data-feedback]").textContent = describeTableError(error);
  });
  const unsubscribe = onChange(() => load().catch(() => {}));
  return () => {
    unsubscribe();
    board?.destroy();
  };
}
