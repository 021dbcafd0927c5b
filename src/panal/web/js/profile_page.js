// A player's profile, /@/<name>: ratings by speed, the rating history as a chart (SVG drawn
// here), results, recent games and the games in progress.

import { account } from "./account.js";
import { api } from "./api.js";
import { controlWithSpeed } from "./clock.js";
import { escapeHtml } from "./dom.js";
import { describeError, getLanguage, hasKey, onChange, playerName, t } from "./i18n.js";

export const SPEED_ORDER = ["bullet", "blitz", "rapid", "classic", "correspondence"];
const LINE_COLORS = ["#c98a00", "#1a73e8", "#2e9d4f", "#b3261e", "#7b1e34", "#6f6456"];

export function categoryName(category) {
  const [game, speed] = category.split(":");
  if (speed) return t(`speed.${speed}`);
  return hasKey("en", `rating.${game}`) ? t(`rating.${game}`) : game;
}

/** The lobby's challenge form, addressed to ``name`` (a named challenge). */
export function challengeHref(name) {
  return `/lobby?to=${encodeURIComponent(name)}`;
}

function byCategory(a, b) {
  const rank = (c) => SPEED_ORDER.indexOf(c.split(":")[1] ?? "");
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** The rating after each rated game, one line per speed: x counts the rated games (all speeds
 *  together, oldest first), y is the rating; each line starts from its rating before its first
 *  game (1500 for a newcomer). */
export function ratingChart(history) {
  if (!history.length) return "";
  const categories = [...new Set(history.map((entry) => entry.category))].sort(byCategory);
  const width = 640;
  const height = 240;
  const pad = { left: 48, right: 12, top: 12, bottom: 28 };
  const starts = history.map((entry) => entry.rating - entry.change);
  let low = Math.min(...starts, ...history.map((entry) => entry.rating));
  let high = Math.max(...starts, ...history.map((entry) => entry.rating));
  const margin = Math.max(20, (high - low) * 0.1);
  low = Math.floor((low - margin) / 50) * 50;
  high = Math.ceil((high + margin) / 50) * 50;
  const x = (index) => pad.left + (index / history.length) * (width - pad.left - pad.right);
  const y = (rating) => pad.top + ((high - rating) / (high - low)) * (height - pad.top - pad.bottom);
  const grid = [];
  for (let i = 0; i <= 4; i += 1) {
    const value = Math.round(low + (i * (high - low)) / 4);
    grid.push(`<line class="grid" x1="${pad.left}" x2="${width - pad.right}" y1="${y(value)}" y2="${y(value)}"></line>
      <text class="axis" x="${pad.left - 6}" y="${y(value) + 4}" text-anchor="end">${value}</text>`);
  }
  const date = new Intl.DateTimeFormat(getLanguage(), { dateStyle: "short" });
  grid.push(`<text class="axis" x="${pad.left}" y="${height - 8}">${date.format(new Date(history[0].at * 1000))}</text>
    <text class="axis" x="${width - pad.right}" y="${height - 8}" text-anchor="end">${date.format(new Date(history[history.length - 1].at * 1000))}</text>`);
  const lines = categories.map((category, index) => {
    const color = LINE_COLORS[index % LINE_COLORS.length];
    const games = history.map((entry, order) => ({ entry, order })).filter(({ entry }) => entry.category === category);
    const first = games[0];
    const points = [[x(first.order), y(first.entry.rating - first.entry.change)], ...games.map(({ entry, order }) => [x(order + 1), y(entry.rating)])];
    const path = points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
    const dots = games
      .map(({ entry }, i) => {
        const [px, py] = points[i + 1];
        const change = `${entry.change >= 0 ? "+" : ""}${Math.round(entry.change)}`;
        return `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3.5" fill="${color}"><title>${escapeHtml(categoryName(category))}: ${Math.round(entry.rating)} (${change})</title></circle>`;
      })
      .join("");
    return `<g class="series" data-category="${category}"><polyline points="${path}" fill="none" stroke="${color}" stroke-width="2.5"></polyline>${dots}</g>`;
  });
  const legend = categories
    .map((category, index) => `<li><span class="key" style="background:${LINE_COLORS[index % LINE_COLORS.length]}"></span>${escapeHtml(categoryName(category))}</li>`)
    .join("");
  const label = categories.map((category) => t("profile.chart", { category: categoryName(category) })).join("; ");
  return `<figure class="rating-chart">
      <svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}">${grid.join("")}${lines.join("")}</svg>
      <ul class="chart-legend">${legend}</ul></figure>`;
}

function gameLine(game) {
  let opponent;
  if (game.opponent.ai) opponent = t("profile.vsAI", { level: t(`level.${game.opponent.ai}`) });
  else if (game.opponent.name) opponent = t("profile.vs", { name: `<a href="/@/${encodeURIComponent(game.opponent.name)}" data-link>${escapeHtml(playerName(game.opponent.name))}</a>` });
  else opponent = t("profile.vsGuest");
  const outcome = game.score === null ? "" : t(game.score === 1 ? "profile.won" : game.score === 0 ? "profile.lost" : "profile.drawn");
  const reason = game.end_reason ? ` — ${t(`reason.${game.end_reason}`)}` : "";
  const change = game.rating_change === null || game.rating_change === undefined ? "" : ` <span class="rating-change">${game.rating_change >= 0 ? "+" : ""}${Math.round(game.rating_change)}</span>`;
  const kind = `${controlWithSpeed(game.clock)} · ${t(game.rated ? "game.rated" : "game.casual")}`;
  return `<li class="profile-game" data-game="${game.id}">
      <span class="outcome" data-score="${game.score ?? ""}">${outcome}${reason}${change}</span>
      <span class="opponent">${opponent}</span>
      <span class="kind">${escapeHtml(kind)} · ${escapeHtml(game.game_type)}</span>
      <a class="button" href="/game/${game.id}" data-link>${t("profile.open")}</a></li>`;
}

export function showProfilePage(root, name) {
  let profile = null;
  let error = "";

  function render() {
    if (error) {
      root.innerHTML = `<section class="profile-page"><p class="banner error" role="alert">${escapeHtml(error)}</p></section>`;
      return;
    }
    if (!profile) return;
    const date = new Intl.DateTimeFormat(getLanguage(), { dateStyle: "long" });
    const ratings = [...profile.ratings].sort((a, b) => byCategory(a.category, b.category));
    const ratingRows = ratings
      .map((rating) => `<li class="rating" data-category="${rating.category}"><span class="speed">${escapeHtml(categoryName(rating.category))}</span>
          <strong class="value">${rating.shown}</strong><span class="games">${t("profile.games", { n: rating.games })}</span></li>`)
      .join("");
    const results = profile.results;
    document.title = `${profile.name} · panal`;
    root.innerHTML = `
      <section class="profile-page">
        <h1 class="profile-name">${escapeHtml(profile.name)}</h1>
        ${account().name && account().name.toLowerCase() !== profile.name.toLowerCase() ? `<p><a class="button primary" data-challenge-player href="${challengeHref(profile.name)}" data-link>${t("profile.challenge", { name: escapeHtml(profile.name) })}</a></p>` : ""}
        <p class="hint">${t("profile.since", { date: date.format(new Date(profile.created_at * 1000)) })} ·
          <span class="results">${t("profile.results", results)}</span></p>
        <section class="profile-ratings"><h2>${t("profile.ratings")}</h2>
          ${ratingRows ? `<ul class="ratings">${ratingRows}</ul>` : `<p class="hint">${t("profile.noRatings")}</p>`}</section>
        ${profile.history.length ? `<section class="profile-history"><h2>${t("profile.history")}</h2>${ratingChart(profile.history)}</section>` : ""}
        <section class="profile-playing"><h2>${t("profile.playing")}</h2>
          ${profile.playing.length ? `<ul class="profile-games">${profile.playing.map(gameLine).join("")}</ul>` : `<p class="hint">${t("profile.none")}</p>`}</section>
        <section class="profile-recent"><h2>${t("profile.recent")}</h2>
          ${profile.recent.length ? `<ul class="profile-games">${profile.recent.map(gameLine).join("")}</ul>` : `<p class="hint">${t("profile.none")}</p>`}</section>
      </section>`;
  }

  api(`/api/users/${encodeURIComponent(name)}`)
    .then((loaded) => {
      profile = loaded;
      render();
    })
    .catch((failure) => {
      error = describeError({ code: failure.code, message: failure.detail });
      render();
    });
  return onChange(render);
}
