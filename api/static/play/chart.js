// The result chart: each seat's figure (life, points, victory points, cards left) over the
// game, read from the event log (public in full once the game is finished).

import { gameType } from "./catalog.js";
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

function byRound(events, players, start, field, accumulate) {
  const points = [{ x: 0, values: Array(players).fill(start) }];
  let values = [...points[0].values];
  for (const event of events) {
    if (event.type !== "RoundScored" || !event.data[field]) continue;
    values = accumulate ? values.map((v, i) => v + event.data[field][i]) : [...event.data[field]];
    points.push({ x: event.data.round, values });
  }
  return points;
}

function stPatrick(events, players) {
  const first = events.find((e) => e.type === "RoundScored");
  const start = first ? first.data.life[0] - first.data.changes[0] : 20;
  return byRound(events, players, start, "life", false);
}

function trickAndSnipers(events, players) {
  const points = [{ x: 0, values: Array(players).fill(0) }];
  let values = [...points[0].values];
  let trick = 0;
  for (const event of events) {
    if (event.type !== "TrickWon") continue;
    trick += 1;
    values = [...values];
    if (event.data.point_to !== null && event.data.point_to !== undefined) values[event.data.point_to] += 1;
    points.push({ x: trick, values });
  }
  return points;
}

// Cards a seat still owns (hand + pool): dealt, minus played, plus tricks won, minus discards;
// sampled as each new trick starts and at the end.
function ouroboros(events, players) {
  let values = Array(players).fill(0);
  const points = [];
  let inTrick = 0;
  let trick = 0;
  for (const event of events) {
    const d = event.data;
    if (event.type === "HandDealt") values[d.seat] += d.cards ? d.cards.length : d.count;
    if (event.type === "CardPlayed") {
      if (inTrick === 0) points.push({ x: trick, values: [...values] });
      inTrick += 1;
      values[d.seat] -= 1;
    }
    if (event.type === "TrickWon") {
      values[d.seat] += d.cards.length;
      inTrick = 0;
      trick += 1;
    }
    if (event.type === "CardsDiscarded") values[d.seat] -= d.cards ? d.cards.length : d.count;
    values = [...values];
  }
  points.push({ x: trick, values: [...values] });
  return points;
}

// How each figure is read from the log: by the figure GET /game-types names for the game's
// chart, not by the game, so a new game with one of these figures gets its chart too.
const SERIES = {
  life: stPatrick,
  victory_points: trickAndSnipers,
  points: (events, players) => byRound(events, players, 0, "points", true),
  cards_left: ouroboros,
};

// The game's chart ({figure, axis, points}), or null: a game with no chart, or a figure this
// page cannot read, gets none (never another game's).
export function seriesOf(type, events, players) {
  const named = gameType(type)?.chart;
  const read = named && SERIES[named.figure];
  return read ? { ...named, points: read(events, players) } : null;
}

// A phone gets a narrower drawing, so its 12-unit labels stay about 12 px on the screen.
const narrow = () => window.matchMedia("(max-width: 600px)").matches;
const PAD = { left: 40, right: 16, top: 16, bottom: 36 };
// Seats differ by dash pattern and marker shape as well as colour.
const DASHES = ["", "8 4", "2 4", "12 4 2 4", "4 2"];
const MARKERS = ["circle", "square", "diamond", "triangle", "cross"];

function marker(kind, x, y) {
  const r = 4;
  if (kind === "circle") return s("circle", { cx: x, cy: y, r });
  if (kind === "square") return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r });
  if (kind === "diamond") return s("path", { d: `M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z` });
  if (kind === "triangle") return s("path", { d: `M${x} ${y - r - 1}L${x + r + 1} ${y + r}L${x - r - 1} ${y + r}Z` });
  return s("path", { d: `M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}`, "stroke-width": 2 });
}

// A label under every point when they fit, else under about eight of them.
function xLabels(points) {
  const step = Math.max(1, Math.ceil(points.length / 8));
  return points.map((p, i) => [i, t("count", p.x)])
    .filter(([i]) => i % step === 0 || i === points.length - 1);
}

export function chart(series, names) {
  if (!series) return null;
  const { points } = series;
  const W = narrow() ? 320 : 600;
  const H = narrow() ? 220 : 260;
  const figure = t(`chart.${series.figure}`);
  const axis = t(`chart.${series.axis}`);
  const all = points.flatMap((p) => p.values);
  let low = Math.min(0, ...all);
  let high = Math.max(1, ...all);
  if (high === low) high = low + 1;
  const x = (i) => PAD.left + (points.length < 2 ? 0 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v) => PAD.top + ((high - v) * (H - PAD.top - PAD.bottom)) / (high - low);
  const ticks = [low, Math.round((low + high) / 2), high];
  const svg = s("svg", {
    id: "chart",
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": t("chart.title", figure, axis),
  },
  s("line", { class: "axis", x1: PAD.left, y1: y(low), x2: W - PAD.right, y2: y(low) }),
  s("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(low) }),
  ticks.map((v) => s("text", { class: "tick", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, t("count", v))),
  xLabels(points).map(([i, label]) =>
    s("text", { class: "tick", x: x(i), y: H - 12, "text-anchor": "middle" }, label)),
  names.map((name, seat) => s("g", { class: `line seat-${seat}` },
    s("polyline", {
      "data-seat": seat,
      points: points.map((p, i) => `${x(i)},${y(p.values[seat])}`).join(" "),
      "stroke-dasharray": DASHES[seat % DASHES.length] || undefined,
    }),
    points.map((p, i) => marker(MARKERS[seat % MARKERS.length], x(i), y(p.values[seat]))),
  )));
  const legend = h("ul", { class: "legend" }, names.map((name, seat) => h("li", { class: `seat-${seat}` },
    s("svg", { viewBox: "0 0 40 12", class: "key", "aria-hidden": "true" },
      s("line", { x1: 2, y1: 6, x2: 38, y2: 6, "stroke-dasharray": DASHES[seat % DASHES.length] || undefined }),
      marker(MARKERS[seat % MARKERS.length], 20, 6)),
    t("chart.legend", name, points[points.length - 1].values[seat]))));
  return h("figure", { class: "chart" }, svg, h("figcaption", {}, t("chart.caption", figure, axis)), legend);
}
