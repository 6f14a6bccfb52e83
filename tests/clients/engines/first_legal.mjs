// A cardroom-bot engine in JavaScript (Node 20+): one request a line in, one answer a line out.
// It picks a random legal template from its own seat's view and fills it in.
import { createInterface } from "node:readline";

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const sample = (items, count) => [...items].sort(() => Math.random() - 0.5).slice(0, count);

function actionFrom(template) {
  const action = { type: template.type };
  if ("min" in template) {
    action.count = template.min + Math.floor(Math.random() * (template.max - template.min + 1));
  } else if ("count" in template && "cards" in template) {
    action.cards = sample(template.cards, template.count);
  } else if ("cards" in template) {
    action.card = pick(template.cards);
  }
  return action;
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  const action = actionFrom(pick(request.view.you.legal_actions));
  process.stdout.write(JSON.stringify({ id: request.id, action }) + "\n");
}
