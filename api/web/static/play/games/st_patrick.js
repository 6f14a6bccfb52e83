// St Patrick on the web table: its table state (round, relics, curses, the pass), each seat's
// bite cards, its life chart, its log lines that depend on what an event says, and why a trick,
// a round and the game went as they did. The hooks games.js describes; the words are the
// game's own (domain/games/st_patrick/words.py, through GET /game-types).

import { cardFace } from "../cards.js";
import { byRound } from "../chart.js";
import { h } from "../dom.js";
import { fact, known, phaseFact } from "../games.js";
import { t } from "../i18n.js";
import { tiedAtTop, whyHighest } from "../outcomes.js";
import { term } from "../terms.js";
import { said } from "../words.js";

export const phaseTerms = { relics: "relic", choosing_pass_count: "pass-count", playing: "hunt" };

export function panel(game, who) {
  const passing = game.phase === "passing" || game.phase === "choosing_pass_count";
  return h("dl", { class: "facts" },
    fact("round", "round", t("count", game.round)),
    phaseFact(game),
    fact("relics_left", "relics-left", t("count", game.relics_left)),
    fact("curses", "curse", t("count", game.curses)),
    game.special_hunt ? fact("special_hunt", "special-hunt", t("yes")) : null,
    passing && known(game.pass_count) ? fact("pass_count", "pass-count", t("count", game.pass_count)) : null,
    passing && known(game.pass_chooser) ? fact("pass_chooser", "pass-count", who(game.pass_chooser)) : null,
    game.phase === "playing" ? fact("trick", "trick", t("count", game.trick_number)) : null,
  );
}

export function seatCards(game, seat) {
  if (!seat.bite_cards || !seat.bite_cards.length) return null;
  return h("div", { class: "seat-cards" }, term("bite-cards", t("seat.cards.bites"), "label"),
    h("div", { role: "group", "aria-label": t("seat.cards.bites") }, seat.bite_cards.map((card) => cardFace(card, "small"))));
}

// Life by round: each round's RoundScored says every seat's life after it.
export function series(events, players) {
  const first = events.find((e) => e.type === "RoundScored");
  const start = first ? first.data.life[0] - first.data.changes[0] : 20;
  return byRound(events, players, start, "life", false);
}

function change(delta) {
  if (delta < 0) return t("why.stp.loses", -delta);
  return delta > 0 ? t("why.stp.gains", delta) : t("why.stp.unchanged");
}

export const why = {
  TrickWon(events, index, who) {
    const highest = whyHighest(events, index, who);
    const won = events[index].data;
    if (!highest.length) return [];
    return [...highest, won.bites ? t("why.trick.bites", who(won.seat), won.bites) : t("why.trick.no_bite")];
  },
  RoundScored(events, index, who) {
    const data = events[index].data;
    const lines = [];
    if (known(data.big_sacrifice)) lines.push(t("why.stp.sacrifice", who(data.big_sacrifice)));
    else if (data.special) lines.push(t("why.stp.special"));
    else lines.push(t("why.stp.rule"));
    data.life.forEach((life, seat) =>
      lines.push(t("why.stp.line", who(seat), data.bites[seat], data.relics[seat], change(data.changes[seat]), life)));
    return lines;
  },
  GameEnded(events, index) {
    const data = events[index].data;
    const final = (seat) => data.final[String(seat)] || {};
    const seats = Object.keys(data.final).map(Number);
    const lines = [t("why.end.stp")];
    const byLife = tiedAtTop(seats, (s) => final(s).life);
    if (byLife.length > 1) {
      lines.push(t("why.end.stp.tie_relics", final(byLife[0]).life));
      const byRelics = tiedAtTop(byLife, (s) => final(s).relics);
      if (byRelics.length > 1) lines.push(t("why.end.stp.tie_snakes"));
      if (data.winners.length > 1) lines.push(t("why.end.stp.shared"));
    }
    return lines;
  },
};

export const log = {
  PassCountSet: (d, who) => said(known(d.seat) ? "log.PassCountSet.chosen" : "log.PassCountSet", d, who),
  RelicsCursed: (d, who) => said("log.RelicsCursed", {
    ...d, losses: d.losses.flatMap((loss, seat) => (loss > 0 ? [t("log.RelicsCursed.loss", who(seat), loss)] : [])),
  }, who),
  HuntStarted: (d, who) => said(d.special ? "log.HuntStarted.special" : "log.HuntStarted", d, who),
  TrickWon: (d, who) => said(d.bites ? "log.TrickWon.bites" : "log.TrickWon", d, who),
  RoundScored: (d, who) => said("log.RoundScored", {
    ...d, lives: d.life.map((life, seat) => t("log.RoundScored.life", who(seat), life)),
  }, who),
};
