// The result chart: each seat's figure (its name in the game's words, "chart.<figure>") over the
// game, read from the event log (public in full once the game is finished).

import { gameType, viewOf } from "./catalog.js";
import { h, s } from "./dom.js";
import { inGame, t } from "./i18n.js";

// Each seat's figure after each round, as the game's RoundScored events carry it (for each
// seat, in seat order): added up from `start`, or as it is (`accumulate` false).
export function byRound(events, players, start, field, accumulate) {
  const points = [{ x: 0, values: Array(players).fill(start) }];
  let values = [...points[0].values];
  for (const event of events) {
    if (event.type !== "RoundScored" || !event.data[field]) continue;
    values = accumulate ? values.map((v, i) => v + event.data[field][i]) : [...event.data[field]];
    points.push({ x: event.data.round, values });
  }
  return points;
}

// How a chart's figure is read from the log: by the game's view module (`series(events,
// players)`) when it has one; else as what each round scores, added up from 0.
const common = (figure) => (events, players) => {
  const points = byRound(events, players, 0, figure, true);
  return points.length > 1 ? points : null;
};

// The game's chart ({figure, axis, points, type}), or null: a game with no chart, or whose
// log says nothing of its figure, gets none (never another game's).
export function seriesOf(type, events, players) {
  const named = gameType(type)?.chart;
  if (!named) return null;
  const read = viewOf(type).series || common(named.figure);
  const points = read(events, players);
  return points ? { ...named, type, points } : null;
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
  return series ? inGame(series.type, () => drawn(series, names)) : null;
}

function drawn(series, names) {
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
